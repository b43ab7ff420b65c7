"""Thesis Remark 5.3.2 (5.6): real orders by convex interpolation of (alpha-1) eps(alpha).

(5.6) applied to (5.4) (``thm531_upper_real``) must be >= the exact RDP at real orders: random
K-ary kernels and K-RR at alpha = 3/2, 5/2, 10/3 (exact Fraction laws, mpmath Renyi divergence)
and shuffled 2RR (sup over all pairs, float64) at alpha = 1.5, 2.5, 3.3, 7.7.  The convexity the
remark relies on ([EH14, Cor 2]) is also checked on exact values: for the 2RR extreme pair,
(alpha-1) D_alpha at alpha = j, j + 1/2, j + 1 (j = 2..9) has a non-negative second difference.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import exact_api, s
from ._shuffle_instances import REAL_ALPHAS, eps0_of, kary_instances

CLAIM = ClaimSpec(
    id="THESIS-Rem5.3.2",
    paper="thesis",
    group="shuffle",
    where="Remark 5.3.2, eq. (5.6), Sec. 5.3 ([EH14, Cor 2])",
    statement="(5.6) convex interpolation of (5.4) at real alpha >= exact (156 real-order instances); "
              "convexity of (alpha-1)D_alpha on exact 2RR values.",
    expected="confirmed",
)


def check() -> ClaimResult:
    se = exact_api()
    viol: list = []
    count = 0
    min_ratio = None
    conv_fail: list = []
    conv_count = 0
    with mpmath.workdps(60):
        rows = []
        for inst in kary_instances():
            for a in REAL_ALPHAS:
                if a in inst["exact"]:
                    rows.append((f"{inst['family']} E={inst['E']} n={inst['n']}", eps0_of(inst["E"]), inst["n"],
                                 mpmath.mpf(a.numerator) / a.denominator, inst["exact"][a]))
        for e in ("0.5", "1", "2"):
            for n in (3, 20, 200):
                for a in ("1.5", "2.5", "3.3", "7.7"):
                    v, _ = se.rr_worst_pair_rdp(n, float(e), float(a))
                    rows.append((f"2RR eps0={e} n={n}", mpmath.mpf(e), n, mpmath.mpf(a), mpmath.mpf(v)))
        for label, e, n, a, ex in rows:
            count += 1
            ub = sb.thm531_upper_real(n, e, a)
            if ex > ub:
                keep(viol, {"instance": label, "alpha": s(a, 6), "exact": s(ex), "(5.6) of (5.4)": s(ub)})
            if ex > 0 and (min_ratio is None or ub / ex < min_ratio[0]):
                min_ratio = (ub / ex, {"instance": label, "alpha": s(a, 6)})
        for e in (Fraction(1, 2), Fraction(2)):
            for n in (5, 50):
                for direction in ("DDprime", "DprimeD"):
                    for j in range(2, 10):
                        f = [(mpmath.mpf(a.numerator) / a.denominator - 1) * se.rr_pair_rdp_mp(n, e, a, direction)
                             for a in (Fraction(j), Fraction(2 * j + 1, 2), Fraction(j + 1))]
                        conv_count += 1
                        if f[0] + f[2] - 2 * f[1] < -mpmath.mpf(10) ** -40:
                            keep(conv_fail, {"eps0": str(e), "n": n, "direction": direction, "j": j})
    ok = not viol and not conv_fail
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} exact real-order instances: {len(viol)} violations (min ratio {s(min_ratio[0], 4)}); "
                   f"convexity of (alpha-1)D_alpha: {conv_count - len(conv_fail)}/{conv_count} second differences >= 0",
        evidence={"instances": count, "violations": viol,
                  "min_ratio_bound_over_exact": {**min_ratio[1], "ratio": s(min_ratio[0], 6)},
                  "convexity_points": conv_count, "convexity_failures": conv_fail},
    )
