"""The "girgis_code" tail of Thm 5.4.1's float twin in log space (bcdp.shuffle.float_bounds):
log((1+x)^alpha - 1 - x) = y + log1p(-(1+x) e^-y), y = alpha log1p(x), above y = 30.  At alpha = 2 and
a large x the correction (1+x) e^-y = e^{-y/2} is ~1e-7 of the value, so its sign, its factor (1+x)
and its exponent are visible; checked against thesis Thm 5.4.1 ("girgis_code" variant) in mpmath
(bcdp.shuffle.subsampled_bounds.thm541_upper at 30 digits), with k = n (gamma = 1, x = E - 1)."""

from __future__ import annotations

import math

import mpmath
import pytest
from bcdp.shuffle.float_bounds import thm541_upper_float
from bcdp.shuffle.subsampled_bounds import thm541_upper


@pytest.mark.parametrize("eps0", [15.25, 15.5, 16.0, 20.0])
def test_tail_just_above_the_switch(eps0):
    y = 2 * math.log1p(math.expm1(eps0))            # alpha = 2: y = 2 eps0, from 30.5 up
    assert y > 30
    got = thm541_upper_float(50, 50, eps0, [2], variant="girgis_code")[0]
    want = thm541_upper(50, 50, mpmath.mpf(eps0), 2, variant="girgis_code", dps=30)
    assert abs(got - float(want)) <= 1e-12 * float(want)
