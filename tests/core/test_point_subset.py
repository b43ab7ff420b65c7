"""``bcdp.core.spaces.PointSubset``: listed points of a product, the product never enumerated, and
:func:`bcdp.core.numbers.brief_number`, the message form of exact numbers too long for ``str``."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import brief_number
from bcdp.core.spaces import Mechanism, PointSubset, ProductDomain
from bcdp.partial.pure import per_attribute_epsilon


def test_point_subset_of_a_huge_product_is_what_it_lists():
    start = time.perf_counter()
    sub = PointSubset(((0, 1),) * 60, ((0,) * 60, (1,) + (0,) * 59))
    assert time.perf_counter() - start < 0.5
    assert sub.size == 2 and sub.d == 60 and sub.shape == (2,) * 60 and sub.product_size == 2 ** 60
    assert sub.index == {(0,) * 60: 0, (1,) + (0,) * 59: 1}
    with pytest.raises(InvalidInputError, match="beyond the cap"):
        ProductDomain(((0, 1),) * 60)        # what the subset avoids


@pytest.mark.parametrize("coords, points, words", [
    (((0, 1),), ((0,), (0,)), "point 1 repeats point 0"),
    (((0, 1),), ((2,),), "coordinate 0 value 2 is not in its set"),
    (((0, 1),), ((0, 1),), "point 0 has 2 coordinates, the product has 1"),
    (((0, 0),), ((0,),), "lists a value twice"),
    (((),), ((0,),), "coordinate 0 has no values"),
    ((), (), "at least one coordinate"),
    (((0, 1),), (), "no points listed"),
])
def test_point_subset_refuses_malformed_lists(coords, points, words):
    with pytest.raises(InvalidInputError, match=words):
        PointSubset(coords, points)


def test_mechanism_on_a_subset_equals_the_restriction_of_the_full_mechanism():
    """A partial-DP engine on the listed points gives what it gives on the full product restricted
    to the same inputs (n = 3 records of one bit, 5 listed datasets, rows by hand)."""
    full = ProductDomain(((0, 1),) * 3)
    listed = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 1), (1, 1, 1)]
    rows = {p: (Fraction(1 + sum(p), 5), Fraction(4 - sum(p), 5)) for p in full.points}
    mech_full = Mechanism(full, ("a", "b"), tuple(rows[p] for p in full.points))
    mech_sub = Mechanism(PointSubset(full.coordinate_values, tuple(listed)), ("a", "b"),
                         tuple(rows[p] for p in listed))
    on_full = per_attribute_epsilon(mech_full, 3, 1, inputs=listed)
    on_sub = per_attribute_epsilon(mech_sub, 3, 1)
    # by hand: single-bit neighbours among the listed: 000~100, 100~110, 011~111; the largest ratio
    # is row 000 (1/5, 4/5) against row 100 (2/5, 3/5) at output a: 2
    assert on_sub.epsilon.ratio == on_full.epsilon.ratio == 2
    assert on_sub.epsilon.witness == on_full.epsilon.witness


def test_brief_number_is_exact_when_short_and_never_fails_when_long():
    assert brief_number(Fraction(-7, 3)) == "-7/3" and brief_number(10 ** 39) == str(10 ** 39)
    # 5000 nines + 1/2: log10 = 5000 - 4.3e-5001..., so "about 1e+5000"; str() would raise ValueError
    assert brief_number(Fraction(10 ** 5000 - 1) + Fraction(1, 2)) == "about 1e+5000"
    assert brief_number(-Fraction(3, 10 ** 4500)) == "about -3e-4500"
    assert brief_number(Fraction(2 ** 200, 3)) == "about 5.35646e+59"   # mpmath: 5.356460147529967...e59
