"""Edges of the vectorised thm531_upper_float (thesis eq. (5.4)) against the 60-digit mpmath formula
(bcdp.shuffle.shuffled_bounds.thm531_upper): orders whose largest is 3 (the only special term is
i = 3), log-sums above 700 (eps0 = 10, where log(1 + e^x) must be taken as x + log1p(e^-x)), an
empty order list, and no overflow, invalid or divide-by-zero warning on the way (underflow to 0 is
benign in log space)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from bcdp.shuffle.float_bounds import thm531_upper_float
from bcdp.shuffle.shuffled_bounds import thm531_upper


@pytest.mark.parametrize("n,eps0,orders", [(50, 1.0, [2, 3]), (1000, 0.5, [3]), (10, 10.0, [2, 3, 100, 256]),
                                           (7, 9.0, [64, 200])])
def test_against_the_formula(n, eps0, orders):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
            got = thm531_upper_float(n, eps0, orders)
    for a, v in zip(orders, got):
        assert v == pytest.approx(float(thm531_upper(n, repr(eps0), a)), rel=1e-11)


def test_empty_orders():
    out = thm531_upper_float(100, 1.0, [])
    assert out.shape == (0,)
