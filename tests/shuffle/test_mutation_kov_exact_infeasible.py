"""Mutation kill for bcdp.shuffle.composition.kov_optimal_composition: an infeasible target that the
160-bit arb ball cannot separate from the floor 1 - (1 - delta)^T is refused by the exact decision.

Oracle: the feasibility condition of the docstring, delta_target >= 1 - (1 - delta)^T (KOV15: the
T-fold profile never goes below the floor), decided here exactly in Fractions.  At delta = 2^-300,
T = 2 the floor is 2^-299 - 2^-600; the float just below 2^-299 is below it by about 2^-352, far
inside the ball's width, so only the exact branch can decide; the answer must be the infinite
bracket with the reason (not a search for a root that cannot exist)."""

from fractions import Fraction

import math

from bcdp.shuffle.composition import kov_optimal_composition


def test_infeasible_below_the_ball_width():
    delta, T = 2.0 ** -300, 2
    target = 2.0 ** -299 - 2.0 ** -352
    floor = 1 - (1 - Fraction(delta)) ** T
    assert Fraction(target) < floor            # infeasible, exactly
    assert floor - Fraction(target) < Fraction(1, 2 ** 300)  # by far less than 160 bits resolve
    b = kov_optimal_composition(0.5, delta, T, target)
    assert math.isinf(b.lower) and math.isinf(b.upper)
    assert "infeasible" in b.details["note"]
