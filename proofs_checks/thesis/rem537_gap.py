"""Thesis Remark 5.3.7 (with Remark 5.3.3): the gap between upper and lower bounds.

Printed: under the Cor 5.3.1 condition the simplified bounds (5.5) and (5.10) differ by a factor
4 e^{eps0}; for large n only the alpha^2 term matters and, with the Chernoff parameter optimised
(Remark 5.3.3, nbar -> floor((n-1)/E) + 1), upper and lower bounds differ by e^{eps0}.
Checked: (5.5)/(5.10) -> 4E (n = 10^12, computed at 40 digits; the ratio of the log(1+x) forms
tends to the ratio of the x's); (5.4)/(5.10) -> 2E with gamma = 1/2 and -> E/(1 - gamma) with
a small Chernoff gamma (Remark 5.3.3), all at alpha = 2 where the i >= 3 sum is empty, and at
alpha = 4 for n = 10^12.  Also: the exact 2RR RDP (extreme pair, both directions, n = 10^6) over (5.10) -> 1, so
the remaining gap E is between the bounds, not between the lower bound and 2RR.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import exact_api, s

CLAIM = ClaimSpec(
    id="THESIS-Rem5.3.7",
    paper="thesis",
    group="shuffle",
    where="Remarks 5.3.3 and 5.3.7, Sec. 5.3",
    statement="Gaps: (5.5)/(5.10) -> 4E, (5.4)/(5.10) -> 2E, -> E/(1-gamma) with a small Chernoff gamma "
              "(Remark 5.3.3); exact 2RR/(5.10) -> 1 (n = 1e6..1e12).",
    expected="confirmed",
)


def check() -> ClaimResult:
    se = exact_api()
    rows = []
    bad: list = []
    with mpmath.workdps(40):
        for e in ("0.1", "0.5", "1", "2"):
            em = mpmath.mpf(e)
            E = mpmath.exp(em)
            n = 10 ** 12
            for a in (2, 4):
                lo = sb.cor532_lower(n, em, a, dps=40)
                r_cor = sb.cor531_upper(n, em, a, dps=40) / lo
                r_ub = sb.thm531_upper(n, em, a, dps=40) / lo
                g = mpmath.mpf(1) / 100
                r_ub_g = sb.thm531_upper(n, em, a, chernoff_gamma=Fraction(1, 100), dps=40) / lo
                row = {"eps0": e, "alpha": a, "n": "1e12", "(5.5)/(5.10)": s(r_cor, 8), "4E": s(4 * E, 8),
                       "(5.4)/(5.10)": s(r_ub, 8), "2E": s(2 * E, 8),
                       "(5.4, gamma=1/100)/(5.10)": s(r_ub_g, 8), "E/(1-gamma)": s(E / (1 - g), 8)}
                rows.append(row)
                tol = mpmath.mpf(10) ** (-4 if a == 2 else -3)
                if abs(r_cor / (4 * E) - 1) > tol or abs(r_ub / (2 * E) - 1) > tol or abs(r_ub_g / (E / (1 - g)) - 1) > tol:
                    keep(bad, row)
            v = max(se.rr_pair_rdp(10 ** 6, float(e), [2.0], d)[0] for d in ("DDprime", "DprimeD"))
            rows.append({"eps0": e, "alpha": 2, "n": "1e6", "exact 2RR worst / (5.10)": s(v / sb.cor532_lower(10 ** 6, em, 2), 8)})
            if abs(v / sb.cor532_lower(10 ** 6, em, 2) - 1) > mpmath.mpf(10) ** -3:
                keep(bad, rows[-1])
    ok = not bad
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"ratios at n = 1e12 match 4E, 2E, E/(1-gamma) to 1e-4 (alpha = 2), 1e-3 (alpha = 4) at {len(rows) - 4 - len(bad)}/8 points; "
                   f"exact 2RR / (5.10) -> 1",
        evidence={"rows": rows, "mismatches": bad},
    )
