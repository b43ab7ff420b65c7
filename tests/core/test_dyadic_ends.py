"""Exact values of dyadic numbers and ball ends (bcdp.core.intervals): positive, zero and negative
binary exponents, against Fractions built independently (m * 2^e by Fraction powers)."""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath
import pytest
from bcdp.core.intervals import arb_precision, ball_ends, exact_fraction


@pytest.mark.parametrize("m,e", [(3, 5), (3, 0), (3, -7), (-5, 12), (-5, -1), (1, 0), ((1 << 70) + 1, -200),
                                 ((1 << 70) + 1, 40)])
def test_exact_fraction_of_dyadics(m, e):
    want = Fraction(m) * Fraction(2) ** e
    with arb_precision(256):
        assert exact_fraction(flint.arb((m, e))) == want
    with mpmath.workdps(60):
        assert exact_fraction(mpmath.ldexp(mpmath.mpf(m), e)) == want


@pytest.mark.parametrize("mid,rad", [((3, 5), (1, 2)), ((3, -5), (1, -9)), ((7, 0), (3, -2)), ((-9, 3), (1, 6)),
                                     ((0, 0), (1, -3)), ((5, -2), (0, 0))])
def test_ball_ends_are_mid_minus_and_plus_rad(mid, rad):
    with arb_precision(256):
        b = flint.arb(mid, rad)
        m = Fraction(mid[0]) * Fraction(2) ** mid[1]
        r = Fraction(rad[0]) * Fraction(2) ** rad[1]
        assert b.rad().is_exact()                 # arb radii are exact: the rounding branch never runs
        assert ball_ends(b) == (m - r, m + r)
