"""Mutation kill for bcdp.shuffle.composition.kov_optimal_composition: the delta reported at the
upper end of the bracket is kov_delta's certified enclosure of delta_T there, not the target.

Oracle: at eps = 0 every mechanism is (0, delta)-RR and the T-fold privacy profile is the constant
delta_T(x) = 1 - (1 - delta)^T for x >= 0 (KOV15, the eps = 0 case of the optimal composition
theorem), computed here exactly in Fractions.  A feasible target above it is met at eps_total = 0,
so the bracket is [0, 0], and its ``delta_at_upper`` must enclose the exact profile value from above
(the contract of epsilon_bracket: delta(upper) <= delta_at_upper <= delta) and be tight."""

from fractions import Fraction

import pytest
from bcdp.shuffle.composition import kov_optimal_composition


@pytest.mark.parametrize("delta,T,target", [(0.01, 3, 0.5), (1e-6, 10, 1e-3), (0.25, 1, 0.9)])
def test_eps_zero_reported_delta_is_the_profile(delta, T, target):
    exact = 1 - (1 - Fraction(delta)) ** T
    b = kov_optimal_composition(0.0, delta, T, target)
    assert (b.lower, b.upper) == (0.0, 0.0)
    d_up = Fraction(b.details["delta_at_upper"])
    assert exact <= d_up <= Fraction(target)
    assert d_up - exact <= exact * Fraction(1, 10 ** 12)
    d_lo = Fraction(b.details["delta_at_lower"])
    assert d_lo <= exact and exact - d_lo <= exact * Fraction(1, 10 ** 12)
