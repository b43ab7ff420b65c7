"""thm531_upper_float vectorised over the orders: against the thesis formula (5.4) at 60 digits
(bcdp.shuffle.shuffled_bounds.thm531_upper, mpmath) on unsorted, repeated, 2-D order arrays, with the
table split into blocks of any size, and at eps0 = 0 and inf."""

from __future__ import annotations

import math

import numpy as np
import pytest
from bcdp.shuffle import float_bounds
from bcdp.shuffle.float_bounds import thm531_upper_float
from bcdp.shuffle.shuffled_bounds import thm531_upper


@pytest.mark.parametrize("block", [1, 7, 10 ** 6])
@pytest.mark.parametrize("n,eps0", [(50, 0.5), (10 ** 6, 1.0), (10 ** 4, 3.0)])
def test_against_the_formula_in_any_block_size(monkeypatch, block, n, eps0):
    monkeypatch.setattr(float_bounds, "THM531_TABLE_ELEMS", block)
    orders = np.array([[40, 2, 3], [17, 3, 128]])
    got = thm531_upper_float(n, eps0, orders)
    assert got.shape == orders.shape
    for a, v in zip(orders.reshape(-1), got.reshape(-1)):
        want = float(thm531_upper(n, repr(eps0), int(a)))
        assert v == pytest.approx(want, rel=1e-11)


def test_zero_and_infinite_eps0():
    want = [float(thm531_upper(100, "0", a)) for a in (2, 3, 9)]      # the two-term form, e^{-(n-1)/8}
    assert thm531_upper_float(100, 0.0, [2, 3, 9]) == pytest.approx(want, rel=1e-12)
    assert np.all(np.isinf(thm531_upper_float(100, math.inf, [2, 3])))
