"""Thesis (3.8)/(3.30): v^2 = s n min{eps^2, eps}/(144 log(1/delta)) certifies eps only for eps >= 3.

Recomputed here in mpmath (50 digits) from the printed statement and compared with
:mod:`bcdp.dme.calibration`: (3.8) gives max{eps^2, sqrt(3) eps} for eps <= 1 and max{eps, sqrt(3 eps)}
for eps > 1; the corrected constant 432 certifies eps for every eps; Lemma 3.3.2's order range is
violated at alpha* for small n; the certified CKS conversion of the calibrated v shows what it achieves.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import calibration as cal

CLAIM = ClaimSpec(
    id="THESIS-eq3.8-calibration",
    paper="thesis",
    group="dme",
    where="Thm 3.3.2, eqs. (3.7)-(3.8), Sec. 3.3.1; Thm 3.5.2, eq. (3.30), Sec. 3.5; Lemma 3.3.2 (3.6)",
    statement="With v^2 = s n min{eps^2, eps}/(144 log(1/delta)), (3.8)/(3.30) give eps, so the shuffled output is "
              "(eps, delta)-DP.",
    expected="erratum",
    erratum="E-Thesis-3.8",
    also_checked_in=("`tests/dme/test_dme_calibration_exact.py`",),
)

DELTA = Fraction(1, 10 ** 6)
EPS = (Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3), Fraction(5))


def check() -> ClaimResult:
    s, n = 10, 10 ** 6
    fails, implied = [], {}
    for eps in EPS:
        with mpmath.workdps(50):
            e = mpmath.mpf(eps.numerator) / eps.denominator
            x = min(e * e, e) / 3
            oracle = 3 * max(x, mpmath.sqrt(x))
            got = cal.num(cal.eq38_epsilon(cal.printed_v2(s, n, eps, DELTA), s, n, DELTA))
            fixed = cal.num(cal.eq38_epsilon(cal.corrected_v2(s, n, eps, DELTA), s, n, DELTA))
            implied[str(eps)] = mpmath.nstr(got, 6)
            if abs(got - oracle) > mpmath.mpf(10) ** -40:
                fails.append(f"(3.8) at eps={eps}: {got} vs {oracle}")
            if (got <= e * (1 + mpmath.mpf(10) ** -40)) != (eps >= 3):
                fails.append(f"printed calibration at eps={eps}: implied {got}")
            if fixed > e * (1 + mpmath.mpf(10) ** -40):
                fails.append(f"corrected calibration at eps={eps}: implied {fixed}")
    small = cal.alpha_range_condition(cal.printed_v2(1, 100, 1, DELTA), 1, 100, DELTA)
    big = cal.alpha_range_condition(cal.printed_v2(10, n, 1, DELTA), 10, n, DELTA)
    if small["holds"] or not big["holds"]:
        fails.append("Lemma 3.3.2 alpha range decisions")
    ach1 = cal.achieved_epsilon(cal.printed_v2(1, n, 1, DELTA), 1, n, DELTA).upper
    ach10 = cal.achieved_epsilon(cal.printed_v2(10, n, 1, DELTA), 10, n, DELTA).upper
    return CLAIM.result(
        verdict="erratum" if not fails else "refuted",
        key_figure=f"delta = 1e-6: (3.8) gives {implied['1']} at eps = 1 (sqrt 3), <= eps only for eps >= 3; "
                   f"432 instead of 144 certifies every eps; alpha* > alpha_max at s = 1, n = 100",
        evidence={"implied_eps_printed": implied, "failures": fails,
                  "alpha_star_n100": mpmath.nstr(cal.num(small["alpha_star"]), 8),
                  "alpha_max_n100": mpmath.nstr(cal.num(small["alpha_max"]), 8),
                  "achieved_eps_cks_s1_n1e6_eps1": ach1, "achieved_eps_cks_s10_n1e6_eps1": ach10,
                  "corrected": "v^2 = s n min{eps^2, eps}/(432 log(1/delta)), delta <= 1/e, and alpha* = 1 + "
                               "sqrt(log(1/delta)/rho) <= n/(16 eps_msg e^{eps_msg}); or report the achieved eps",
                  "library": "bcdp.dme.calibration (printed_v2, corrected_v2, eq38_epsilon, alpha_range_condition, "
                             "achieved_epsilon via bcdp.accounting.conversion.zcdp_to_dp)"},
    )
