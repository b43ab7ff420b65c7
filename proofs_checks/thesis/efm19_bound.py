"""[EFM19, Remark 1] as quoted in thesis (5.8): eps(alpha) = 2 alpha e^{4 eps0}(E-1)^2/n, any alpha > 1.

Checked against the same instances as ``thesis_thm531_upper`` (integer and real orders; the 2RR
values are float64 with a measured relative error, and a violation is counted when the bound is
below value (1 + rel_err): ``_shuffle_instances``).
Also the thesis' comparison (Sec. 5.3, after Remark 5.3.3): after log(1+x) <= x, (5.5) linearised is
2 alpha (E-1)^2/n, so (5.8)/((5.5) linearised) = e^{4 eps0} exactly (checked symbolically).
"""

from __future__ import annotations

import mpmath
import sympy as sp
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import s
from ._shuffle_instances import instance_rows

CLAIM = ClaimSpec(
    id="THESIS-eq5.8-EFM19",
    paper="thesis",
    group="shuffle",
    where="eq. (5.8), Sec. 5.3 ([EFM19, Remark 1]) and the comparison with Cor 5.3.1 after it",
    statement="2 alpha e^{4 eps0}(E-1)^2/n >= exact RDP (578 instances); e^{4 eps0} times the linearised "
              "(5.5) (sympy).",
    expected="confirmed",
)


def check() -> ClaimResult:
    viol: list = []
    count = 0
    min_ratio = None
    with mpmath.workdps(60):
        rows = instance_rows()
        for label, e, n, a, ex, err in rows:
            count += 1
            ub = sb.efm19_upper(n, e, a)
            if ex * (1 + mpmath.mpf(err)) > ub:
                keep(viol, {"instance": label, "alpha": s(a, 6), "exact": s(ex), "(5.8)": s(ub)})
            if ex > 0 and (min_ratio is None or ub / ex < min_ratio[0]):
                min_ratio = (ub / ex, {"instance": label, "alpha": s(a, 6)})
    E, a, n = sp.symbols("E alpha n", positive=True)
    ratio = sp.simplify((2 * a * E ** 4 * (E - 1) ** 2 / n) / (4 * sp.binomial(a, 2) * (E - 1) ** 2 / n / (a - 1)))
    ratio_ok = sp.simplify(ratio - E ** 4) == 0
    ok = not viol and ratio_ok
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} instances ({sum(r[5] > 0 for r in rows)} float64 2RR values, their measured error "
                   f"covered): {len(viol)} violations; min (5.8)/exact {s(min_ratio[0], 4)}; "
                   f"ratio to linearised (5.5) = e^(4 eps0): {ratio_ok}",
        evidence={"instances": count, "violations": viol,
                  "min_ratio_bound_over_exact": {**min_ratio[1], "ratio": s(min_ratio[0], 6)},
                  "ratio_to_linearised_5.5": str(ratio), "ratio_is_e^(4 eps0)": ratio_ok},
    )
