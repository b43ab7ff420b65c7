"""Regression: binomial_outside_window at q = 1 (allowed by its argument check): K ~ Bin(n, 1) is n surely, so
the tail outside [lo, hi] is exactly 1 when hi < n and 0 when hi = n.  Before the fix the upward pmf ratio
divided by 1 - q = 0 and the call failed with "ball nan is not finite"."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from bcdp.fl import accountants as A


@pytest.mark.parametrize("n,lo,hi", [(10, 3, 6), (10, 0, 9), (10, 3, 10), (10, 10, 10), (1, 0, 0), (1, 1, 1)])
def test_binomial_outside_window_q_one_is_exact(n, lo, hi):
    exact = sum(comb(n, j) * Fraction(1) ** j * Fraction(0) ** (n - j) for j in range(n + 1) if j < lo or j > hi)
    lo_, up = A.binomial_outside_window(n, 1, lo, hi)
    assert Fraction(lo_) == exact == Fraction(up)


def test_binomial_outside_window_q_just_below_one_is_continuous():
    lo_, up = A.binomial_outside_window(10, 1 - 2 ** -40, 3, 6)
    assert 1 - 1e-9 < lo_ <= up <= 1.0
