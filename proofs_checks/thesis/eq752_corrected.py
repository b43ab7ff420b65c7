"""Thesis (7.52) corrected: H_min(U) >= log(k eps E/(E - 1)) - eps E/(E + (E - 1)^2/(E(eps - 1) + 1) - 1) for EVERY
eps > 0 (E = e^eps), with equality to the s = 1 value (the printed second case) whenever s~ <= 1.

The expression is (7.47) at the real stationary point s~ of (7.48) (t* = k eps E/(E - 1)), the minimum of (7.47)
over real s in [0, k] (derivative sign change, THESIS-Thm7.5.1), hence a lower bound on the integer minimum.
Checked: the library's ``lower_bound_752(reading="corrected")`` equals (7.47) at s~ evaluated here at 50 digits
and is certified <= keys.min_two_level_entropy for k in {2, 3, 5, 10, 100, 1000} and eps in {1/10, 1/2, 1, 2, 3,
5, 8, 12}; and when s~ < 1 (certified), the printed second case equals H at s = 1 = H_min.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import keys
from bcdp.randomness import recoverability_bounds as rb

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Eq7.52-corrected",
    paper="thesis",
    group="recoverability",
    where="eq. (7.52), Sec. 7.5.2 (corrected: the first case for every eps > 0)",
    statement="H_min(U) >= (7.47) at the real minimiser s~ = log(k eps E/(E-1)) - eps E/(E + (E-1)^2/(E(eps-1)+1) - 1) "
              "for every eps > 0; the s = 1 value is exact when s~ <= 1.",
    expected="confirmed",
    also_checked_in=("`proofs_checks/thesis/erratum_eq752.py`",),
)

KS = (2, 3, 5, 10, 100, 1000)
EPS = (Fraction(1, 10), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3), Fraction(5), Fraction(8), Fraction(12))


def _mp(x: Fraction):
    return mpmath.mpf(x.numerator) / x.denominator


def check() -> ClaimResult:
    fails: list = []
    rows = []
    exact_cases = 0
    with mpmath.workdps(50):
        for k in KS:
            for eps in EPS:
                e, ep = mpmath.exp(_mp(eps)), _mp(eps)
                s_t = k * (e * (ep - 1) + 1) / (e - 1) ** 2
                t = s_t * (e - 1) + k
                at_s_tilde = mpmath.log(t) - s_t * ep * e / t
                lib = rb.lower_bound_752(k, eps, reading="corrected")
                hmin = keys.min_two_level_entropy(k, eps)
                tol = mpmath.mpf(10) ** -40
                ok = _mp(lib.lower) - tol <= at_s_tilde <= _mp(lib.upper) + tol and lib.upper <= hmin.lower
                st = rb.stationary_point(k, eps)
                if st.upper < 1:
                    exact_cases += 1
                    second = rb.lower_bound_752(k, eps, reading="printed")
                    if second.details["case"] == "eps > log k":
                        ok = ok and second.lower <= hmin.upper and hmin.lower <= second.upper
                if not ok:
                    keep(fails, {"k": k, "eps": str(eps), "bound": str(lib.upper), "H_min": str(hmin.lower)})
                rows.append({"k": k, "eps": str(eps), "bound": f"{float(lib.lower):.6f}", "H_min": f"{float(hmin.lower):.6f}"})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"corrected (7.52) = (7.47) at s~ and <= certified H_min at {len(rows)} (k, eps); second case exact "
                   f"where s~ < 1 ({exact_cases} points); {len(fails)} failures",
        evidence={"rows": rows, "failures": fails,
                  "library": "bcdp.randomness.recoverability_bounds (lower_bound_752, stationary_point), "
                             "bcdp.randomness.keys.min_two_level_entropy"},
    )
