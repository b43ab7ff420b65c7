"""Input contracts of bcdp.bayesian.optimal_allocation.optimal_allocation: tol, max_nodes and the
float64 range check of the search (d^2/delta~_1^2 <= 1e300), with its exact error message.

Independent of the code: every expected value is a documented contract (the one-line error
messages of bcdp.core.numbers.to_float_input and of the range check, ``max_nodes >= 1``, the bound
``d^2 / delta~_1^2 <= 1e300`` printed in the message) or worked out by hand in a comment.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from bcdp.bayesian.optimal_allocation import optimal_allocation
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError


def test_tol_is_named_in_the_parse_error():
    # to_float_input(value, name) opens its messages with the parameter's name
    with pytest.raises(InvalidInputError) as exc:
        optimal_allocation(["1/5", "2"], "2", "1/10", tol="abc")
    assert str(exc.value) == "tol: cannot read 'abc' as a number"
    with pytest.raises(WrongTypeError) as exc:
        optimal_allocation(["1/5", "2"], "2", "1/10", tol=True)
    assert str(exc.value).startswith("tol: booleans are not numbers here")


def test_tol_zero_is_refused():
    with pytest.raises(InvalidInputError) as exc:
        optimal_allocation(["1/5", "2"], "2", "1/10", tol=0)
    assert str(exc.value) == "tol must be a positive number, got 0"


def test_max_nodes_one_is_the_smallest_cap():
    with pytest.raises(InvalidInputError) as exc:
        optimal_allocation(["1/5", "2"], "2", "1/10", max_nodes=0)
    assert str(exc.value) == "max_nodes must be >= 1, got 0"
    # max_nodes = 1 is allowed: the root box of the single non-empty piece (levels 1/5 < 2, piece
    # t in (1/5, 2]) is evaluated and the cap stops the search there
    res = optimal_allocation(["1/5", "2"], "2", "1/10", max_nodes=1)
    assert res.stats["nodes"] == 1
    assert res.stats["pieces"] == 1
    assert res.stats["leaves"] == 1
    # still a certified bracket: lower <= upper, and no worse than piece 0 (c = (1/5, 1/5),
    # F = 2^2 / (1/5)^2 = 100)
    assert res.lower_bound <= res.objective_upper <= 100


def _expect_range_error(delta, shown: str):
    with pytest.raises(ValidityConditionError) as exc:
        optimal_allocation(delta, 1, "1/2")
    assert str(exc.value) == (
        "the optimal allocation searches in float64 and needs d^2/delta~_1^2 <= 1e300 "
        f"(delta~_1 = min(delta_1, eps)); here delta~_1 is {shown}")


def test_range_boundary_is_inclusive():
    # d = 1, delta~_1 = 10^-150: d^2/delta~_1^2 = 10^300 exactly, allowed ("<= 1e300");
    # the only feasible optimum is c = delta~_1 with F = 1 / c^2 = 10^300
    res = optimal_allocation([Fraction(1, 10 ** 150)], 1, "1/2")
    assert res.objective_upper == sympy.Integer(10) ** 300
    assert res.lower_bound == sympy.Integer(10) ** 300


def test_range_error_shows_delta_tilde_1():
    # 10^-200: d^2/delta~_1^2 = 10^400 > 10^300; shown with 3 significant digits
    _expect_range_error([Fraction(1, 10 ** 200)], "1e-200")
    # exactly 10^-300 is still shown as a number (the message's cut-off is "below 1e-300")
    _expect_range_error([Fraction(1, 10 ** 300)], "1e-300")
    # 10^-301 is below the cut-off
    _expect_range_error([Fraction(1, 10 ** 301)], "below 1e-300")
    # d = 2 with delta~_1 = 3 * 10^-160: 4 / (9 * 10^-320) > 10^300, shown "3e-160"
    _expect_range_error([Fraction(3, 10 ** 160), 1], "3e-160")
