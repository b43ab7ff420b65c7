"""Regression tests of two edges of bcdp.shuffle.composition.kov_optimal_composition (KOV15 optimal
composition, ICML 2015): a target equal to its floor 1 - (1-delta)^T, and the certified lower end
reported with the bracket [0, 0].

Independent reference: the KOV15 privacy profile delta_T(e') = 1 - (1-delta)^T (1 - delta_RR(e')),
delta_RR(e') = sum_{l=0}^{T} C(T,l) max(0, e^{(T-l) eps} - e^{e'} e^{l eps}) / (1 + e^eps)^T summed
over every l in mpmath at 60 digits, and exact Fractions for 1 - (1-delta)^T."""

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.shuffle.composition import kov_optimal_composition


def kov_profile(eps, delta, T, eps_total):
    with mpmath.workdps(60):
        e, et = (mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in (eps, eps_total))
        rr = sum(mpmath.binomial(T, l) * max(0, mpmath.exp((T - l) * e) - mpmath.exp(et + l * e))
                 for l in range(T + 1)) / (1 + mpmath.exp(e)) ** T
        return 1 - (1 - mpmath.mpf(Fraction(delta).numerator) / Fraction(delta).denominator) ** T * (1 - rr)


@pytest.mark.parametrize("eps, delta, T, target", [(0.3, 0.5, 1, 0.5), (0.3, 0.5, 2, 0.75), (0.125, 0.25, 3, 0.578125)])
def test_regression_kov_target_equal_to_its_floor_is_feasible(eps, delta, T, target):
    """delta_target = 1 - (1-delta)^T exactly (0.75 = 1 - 0.5^2, 0.578125 = 1 - 0.75^3): the profile
    reaches it exactly at eps_total = T eps (delta_RR = 0 there, > 0 below); it was reported
    infeasible (lower = upper = inf), against the docstring's "feasible iff >=".
    """
    assert Fraction(target) == 1 - (1 - Fraction(delta)) ** T
    b = kov_optimal_composition(eps, delta, T, target)
    exact = T * Fraction(eps)
    assert Fraction(b.lower) < exact <= Fraction(b.upper)
    assert b.upper - b.lower <= 1e-13 * float(exact)
    assert b.details["delta_at_upper"] == target
    assert target < b.details["delta_at_lower"] <= kov_profile(eps, delta, T, b.lower)


def test_regression_kov_tie_with_eps_zero_is_zero():
    # eps = 0: delta_RR = 0 everywhere, delta_T = 1 - (1-delta)^T = target at eps_total = 0
    b = kov_optimal_composition(0.0, 0.5, 2, 0.75)
    assert b.lower == 0.0 and b.upper == 0.0 and b.details["delta_at_upper"] == 0.75
    assert b.details["delta_at_lower"] <= 0.75


def test_regression_kov_zero_bracket_reports_a_lower_end_of_delta_at_zero():
    """The bracket [0, 0] reported the certified *upper* end of delta_T(0) as ``delta_at_lower``,
    which epsilon_bracket documents as the certified lower bound on delta(0)."""
    b = kov_optimal_composition(0.1, 0.0, 5, 0.5)
    ref0 = kov_profile(0.1, 0.0, 5, 0)
    assert b.lower == b.upper == 0.0
    assert b.details["delta_at_lower"] <= ref0 <= b.details["delta_at_upper"] <= 0.5
