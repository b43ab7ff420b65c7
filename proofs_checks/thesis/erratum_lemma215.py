"""Thesis Lemma 2.1.5 (2.3): eps <= 3 max{rho L, sqrt(rho L)} needs delta <= 1/e (Gaussian counterexample).

The Gaussian mechanism with (sensitivity/sigma)^2 = 2 rho has Renyi divergence exactly alpha rho; its
exact delta(eps) (Balle & Wang 2018) at rho = 1000, delta = 999/1000 exceeds delta at eps = 3.1 >
the printed 3000 log(1000/999), so the lemma is false there.  For delta <= 1/e it holds on a grid.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.errors import ValidityConditionError
from bcdp.dme import calibration as cal

CLAIM = ClaimSpec(
    id="THESIS-Lemma2.1.5",
    paper="thesis",
    group="dme",
    where="Lemma 2.1.5, eq. (2.3), Sec. 2.1; proof App. A.1 (A.1)-(A.2)",
    statement="If M is (alpha, alpha rho)-RDP for all alpha then for every delta in (0, 1) it is (eps, delta)-DP "
              "with eps <= 3 max{rho log(1/delta), sqrt(rho log(1/delta))}.",
    expected="erratum",
    erratum="E-Thesis-Lemma2.1.5",
    also_checked_in=("`tests/dme/test_dme_calibration_exact.py`",),
)


def check() -> ClaimResult:
    rho, delta = Fraction(1000), Fraction(999, 1000)
    with mpmath.workdps(50):
        printed = cal.num(cal.lemma215_epsilon(rho, delta, require_delta_le_inv_e=False))
        d_gauss = cal.gaussian_exact_delta(rho, Fraction(31, 10))
        counter = printed < mpmath.mpf(31) / 10 and d_gauss > mpmath.mpf(999) / 1000
    try:
        cal.lemma215_epsilon(rho, delta)
        refused = False
    except ValidityConditionError:
        refused = True
    holds, points = 0, 0
    for r in (Fraction(1, 1000), Fraction(1, 10), Fraction(1), Fraction(10), Fraction(1000)):
        for dl in (Fraction(1, 3), Fraction(1, 100), Fraction(1, 10 ** 6)):
            points += 1
            eps = cal.num(cal.lemma215_epsilon(r, dl)) * (1 - mpmath.mpf(10) ** -20)
            holds += cal.gaussian_exact_delta(r, Fraction(mpmath.nstr(eps, 30))) <= mpmath.mpf(dl.numerator) / dl.denominator
    ok = counter and refused and holds == points
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"rho = 1000, delta = 0.999: printed eps = {mpmath.nstr(printed, 6)}, Gaussian delta(3.1) = "
                   f"{mpmath.nstr(d_gauss, 6)} > 0.999; holds at {holds}/{points} points with delta <= 1/e",
        evidence={"printed_eps": mpmath.nstr(printed, 20), "gaussian_delta_at_3.1": mpmath.nstr(d_gauss, 20),
                  "refused_without_delta_le_inv_e": refused, "grid_holds": holds, "grid_points": points,
                  "corrected": "add the hypothesis delta <= 1/e (log(1/delta) >= 1), used by (A.2)",
                  "library": "bcdp.dme.calibration (lemma215_epsilon, gaussian_exact_delta)"},
    )
