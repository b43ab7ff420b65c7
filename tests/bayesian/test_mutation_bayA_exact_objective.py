"""bcdp.bayesian.optimal_allocation.search.exact_objective, the eq. (17) sum in Fractions.

F(c) = sum_i 1/S_i with S_i = sum_{k<=i} (c_k - c_{k-1})^2 / (d - k + 1), c_0 = 0 (math.inf if a
partial sum is 0).  Checked against values worked out by hand in the comments and against
bcdp.bayesian.allocation.mse_objective (a separate sympy implementation) on the certified point
the search returns.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy
from bcdp.bayesian.optimal_allocation import optimal_allocation
from bcdp.bayesian.optimal_allocation import search


def test_hand_values():
    F = search.exact_objective
    # d = 1, c = (1): S_1 = 1, F = 1
    assert F([Fraction(1)]) == 1
    # d = 1, c = (3): S_1 = 9, F = 1/9
    assert F([Fraction(3)]) == Fraction(1, 9)
    # d = 2, c = (1, 2): S_1 = 1/2, S_2 = 1/2 + 1 = 3/2, F = 2 + 2/3 = 8/3
    assert F([Fraction(1), Fraction(2)]) == Fraction(8, 3)
    # d = 2, c = (1, 1): S_1 = S_2 = 1/2, F = 4
    assert F([Fraction(1), Fraction(1)]) == 4
    # d = 3, c = (1/2, 1, 2): S_1 = (1/4)/3 = 1/12, S_2 = 1/12 + (1/4)/2 = 5/24,
    # S_3 = 5/24 + 1 = 29/24; F = 12 + 24/5 + 24/29 = (1740 + 696 + 120)/145 = 2556/145
    assert F([Fraction(1, 2), Fraction(1), Fraction(2)]) == Fraction(2556, 145)
    # ten equal budgets 1/5 (piece 0 of the Fig. 3 setting): S_i = (1/25)/10 = 1/250, F = 2500
    assert F([Fraction(1, 5)] * 10) == 2500


def test_zero_partial_sum_is_infinite():
    # c_1 = 0 makes S_1 = 0
    assert search.exact_objective([Fraction(0), Fraction(1)]) == math.inf
    assert search.exact_objective([Fraction(0)] * 3) == math.inf


def test_agrees_with_mse_objective_on_the_returned_point():
    for q in ("1/10", "0"):
        res = optimal_allocation(["1/5", "1/5"] + ["2"] * 8, "2", q)
        c_sorted = [Fraction(int(v.p), int(v.q)) for v in res.allocation.c_sorted]
        val = search.exact_objective(c_sorted)
        assert sympy.Rational(val.numerator, val.denominator) == res.allocation.objective
