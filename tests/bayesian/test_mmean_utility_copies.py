"""Tests of bcdp.bayesian.mmean_finite.mmean_two_copies_kernel (Algorithm 3's two copies of M_mean
at c/2, Thm. 3): the unordered-pair reduction against the ordered product of two independently
built single-copy kernels (mmean_joint_kernel), privacy parameters compared at 60 digits."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp import Prior
from bcdp.bayesian import highprec as hp
from bcdp.bayesian.mmean_finite import mmean_joint_kernel, mmean_two_copies_kernel
from bcdp.core.errors import FloatRefusedError, InvalidInputError

TOL = mpmath.mpf(10) ** -45


def ordered_product(c, d, channel, order, values):
    """Oracle: the ordered pair of two independent single copies at c/2, kernel rows multiplied."""
    one = mmean_joint_kernel([v / 2 for v in c], d, channel, 60, order, values)
    with mpmath.workdps(60):
        rows = tuple(tuple(a * b for a in row for b in row) for row in one.kernel)
    outputs = tuple((y1, y2) for y1 in one.outputs for y2 in one.outputs)
    return hp.HPMechanism(one.domain, outputs, rows, 60)


@pytest.mark.parametrize("channel", ["rr", "coordinate_rr"])
@pytest.mark.parametrize("c,order", [((sympy.Rational(1, 5), sympy.Integer(2)), (0, 1)),
                                     ((sympy.Rational(1, 2), sympy.log(3)), (1, 0))])
def test_reduction_matches_ordered_product(channel, c, order):
    values = (-1, 1)
    red = mmean_two_copies_kernel(list(c), 2, channel, 60, order, values)
    full = ordered_product(list(c), 2, channel, order, values)
    assert len(red.outputs) < len(full.outputs)
    prior = Prior.correlated_bits(2, Fraction(1, 3), values=values)
    with mpmath.workdps(60):
        assert abs(hp.ldp_epsilon(red).value - hp.ldp_epsilon(full).value) < TOL
        for a, b in zip(hp.bcdp_vector(red, prior), hp.bcdp_vector(full, prior)):
            assert abs(a.value - b.value) < TOL
        for a, b in zip(hp.cdp_vector(red), hp.cdp_vector(full)):
            assert abs(a.value - b.value) < TOL
        # the joint is c_d-LDP (two copies at c_d/2, rr composes tightly): ldp = c_2 for rr
        if channel == "rr":
            assert abs(hp.ldp_epsilon(red).value - hp.mpf_of(c[1], 60)) < TOL
    # a wrong variant (copies at the full c) has a different, larger LDP level
    wrong = mmean_two_copies_kernel([2 * v for v in c], 2, channel, 60, order, values)
    assert hp.ldp_epsilon(wrong).value > hp.ldp_epsilon(red).value + mpmath.mpf("0.1")


def test_inputs():
    with pytest.raises(FloatRefusedError):
        mmean_two_copies_kernel([0.5, 1.0], 2)
    with pytest.raises(InvalidInputError):
        mmean_two_copies_kernel([1, "1/2"], 2)           # c decreasing
    with pytest.raises(InvalidInputError):
        mmean_two_copies_kernel([1, 2], 3)               # wrong length
    with pytest.raises(InvalidInputError):
        mmean_two_copies_kernel([1, 2], 2, "laplace")    # unknown channel
    k = mmean_two_copies_kernel([1, 2], 2)
    assert len(k.outputs) == 3 * 10  # stage 1: pairs of 4 values (10), stage 2: pairs of 2 (3)
