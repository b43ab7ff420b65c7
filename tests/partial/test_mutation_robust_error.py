"""Edge tests of bcdp.partial.robust_error (partial DP paper, arXiv:2209.04053, Sec. 6, Def. 19:
halfspaces on {-1,+1}^d and the gamma-robust error), written against the survivors of the mutation
gate (benchmarks/mutation_gate.py, package partial).

References: the documented contracts (input refusals with their error class and the start of the
message, exact Fraction results) and brute force written here (sign(<w, x>) over the cube with
Fractions, every integer w of the box enumerated).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction as F

import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.partial.robust_error import (
    check_distribution,
    cube,
    halfspace,
    integer_halfspaces,
    mixed_ball_probability,
    robust_error,
    robust_radius,
)


@pytest.mark.parametrize("bad", [0, -1, True, False, 2.0, "3"])
def test_cube_refuses_non_positive_and_non_int(bad):
    with pytest.raises(InvalidInputError, match=r"^d must be a positive integer"):
        cube(bad)


def test_cube_of_dimension_one_and_two():
    assert cube(1) == [(-1,), (1,)]
    assert cube(2) == [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def test_halfspace_names_the_bad_weight():
    with pytest.raises(InvalidInputError, match=r"^w\[1\]: cannot read"):
        halfspace([1, "x"])


def _labelling(w, d, sign_zero):
    """sign(<w, x>) over the cube in lexicographic order (brute force), None if refused."""
    out = []
    for x in itertools.product((-1, 1), repeat=d):
        s = sum(F(a) * b for a, b in zip(w, x))
        if s == 0:
            if sign_zero == "refuse":
                return None
            out.append(1 if sign_zero == "plus" else -1)
        else:
            out.append(1 if s > 0 else -1)
    return tuple(out)


@pytest.mark.parametrize("d,bound", [(2, 1), (3, 1), (2, 2)])
@pytest.mark.parametrize("sign_zero", ["plus", "minus", "refuse"])
def test_integer_halfspaces_one_first_w_per_labelling(d, bound, sign_zero):
    """Exactly the distinct labellings of the nonzero integer w in [-bound, bound]^d, each with the
    lexicographically first such w."""
    first: dict = {}
    for w in itertools.product(range(-bound, bound + 1), repeat=d):
        if any(w):
            lab = _labelling(w, d, sign_zero)
            if lab is not None:
                first.setdefault(lab, w)
    got = integer_halfspaces(d, bound, sign_zero)
    assert len(got) == len(first) > 0
    for w, h in got:
        lab = tuple(h[x] for x in itertools.product((-1, 1), repeat=d))
        assert first[lab] == tuple(w)


def test_robust_radius_messages_name_gamma():
    with pytest.raises(InvalidInputError, match=r"^gamma = -1 must be >= 0"):
        robust_radius(-1, 3)
    with pytest.raises(InvalidInputError, match=r"^gamma: cannot read"):
        robust_radius("x", 3)
    assert robust_radius(F(1, 3), 3) == 1


@pytest.mark.parametrize("dist", [
    {((0, 1), 1): 1},        # an entry of x outside {-1, +1}, valid label
    {((1,), 1): 1},          # wrong length, valid entries and label
    {((1, 1), 0): 1},        # bad label
])
def test_check_distribution_refuses_points_outside_the_set(dist):
    with pytest.raises(InvalidInputError, match=r"^support point"):
        check_distribution(dist, 2)


def test_check_distribution_messages_and_zero_masses():
    with pytest.raises(InvalidInputError, match=r"^D\[\(\(1, 1\), 1\)\]: cannot read"):
        check_distribution({((1, 1), 1): "x"}, 2)
    got = check_distribution({((1, 1), 1): 1, ((-1, 1), 1): 0}, 2)  # a zero mass is allowed
    assert got == {((1, 1), 1): 1, ((-1, 1), 1): 0}


class _Pairs(Mapping):
    """A Mapping over a list of (key, value) pairs (keys looked up by identity): lets a
    distribution list the same point twice, with x as a tuple and as a list."""

    def __init__(self, items):
        self._items = items

    def __iter__(self):
        return iter(k for k, _ in self._items)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, key):
        for k, v in self._items:
            if k is key:
                return v
        raise KeyError(key)


def test_check_distribution_sums_duplicate_points():
    dist = _Pairs([(((1, 1), 1), F(1, 2)), (([1, 1], 1), F(1, 4)), (((-1, 1), -1), F(1, 4))])
    assert check_distribution(dist, 2) == {((1, 1), 1): F(3, 4), ((-1, 1), -1): F(1, 4)}


def test_zero_robust_error_and_mixed_probability_are_exact_fractions():
    """h = sign(x_1): a point far from the boundary with the right label is never robustly wrong
    at gamma = 0, and its 0-ball holds one label: both probabilities are exactly Fraction(0)."""
    h = halfspace([1, 0, 0])
    dist = {((1, 1, 1), 1): 1}
    for value in (robust_error(h, dist, 0, 3), mixed_ball_probability(h, dist, 0, 3)):
        assert value == 0 and isinstance(value, F)
    # and at gamma = 1/3 (radius 1) the point sees x_1 = -1: both are 1
    assert robust_error(h, dist, F(1, 3), 3) == 1 == mixed_ball_probability(h, dist, F(1, 3), 3)
