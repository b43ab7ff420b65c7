"""The float twins of thesis Ch. 5 vectorised over orders (issue 14): Thm 5.4.1 (all three variants)
and Cor. 5.3.2 evaluated for a whole order grid in one numpy pass, against the mpmath closed forms
(bcdp.shuffle.subsampled_bounds.thm541_upper, shuffled_bounds.cor532_lower, 30 digits) over wide
ranges: n from 2 to 1e7, eps0 from 1e-3 to 10, orders from 2 to 1000, and across the blocks of the
(orders x terms) table.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from bcdp.shuffle import float_bounds as fb
from bcdp.shuffle.shuffled_bounds import cor532_lower
from bcdp.shuffle.subsampled_bounds import thm541_upper

ORDERS = [2, 3, 4, 17, 64, 255, 1000]


@pytest.mark.parametrize("variant", ["thesis", "koskela", "girgis_code"])
@pytest.mark.parametrize("n,kdiv,eps0", [(2, 1, 1.0), (1000, 10, 0.001), (10 ** 6, 100, 1.0), (10 ** 7, 1000, 10.0),
                                         (10 ** 4, 2, 4.0)])
def test_thm541_float_matches_mpmath_over_wide_ranges(variant, n, kdiv, eps0):
    k = max(1, n // kdiv)
    got = fb.thm541_upper_float(n, k, eps0, ORDERS, variant=variant)
    e = mpmath.mpf(eps0)                            # the exact binary value of the float eps0
    for a, v in zip(ORDERS, got):
        want = thm541_upper(n, k, e, a, variant=variant, dps=30)
        assert math.isfinite(v), (a, v)
        assert abs(v - float(want)) <= 1e-10 * float(want), (a, v, want)


def test_thm541_float_blocks_agree_with_one_table(monkeypatch):
    """Blocks of 1 order (a tiny table budget) give the values of a single table, bit for bit."""
    orders = list(range(2, 300))
    whole = fb.thm541_upper_float(10 ** 6, 10 ** 5, 1.0, orders)
    monkeypatch.setattr(fb, "THM531_TABLE_ELEMS", 10)
    blocks = fb.thm541_upper_float(10 ** 6, 10 ** 5, 1.0, orders)
    assert np.array_equal(whole, blocks)


def test_thm541_float_keeps_the_shape_of_the_orders():
    got = fb.thm541_upper_float(1000, 100, 1.0, np.array([[2, 3], [4, 5]]))
    assert got.shape == (2, 2)
    flat = fb.thm541_upper_float(1000, 100, 1.0, [2, 3, 4, 5])
    assert np.array_equal(got.reshape(-1), flat)


@pytest.mark.parametrize("n,eps0", [(2, 1.0), (10 ** 4, 0.001), (10 ** 7, 10.0), (10 ** 6, 40.0)])
def test_cor532_float_matches_mpmath(n, eps0):
    got = fb.cor532_lower_float(n, eps0, ORDERS)
    for a, v in zip(ORDERS, got):
        want = cor532_lower(n, mpmath.mpf(eps0), a, dps=30)
        assert abs(v - float(want)) <= 1e-12 * float(want), (a, v, want)


def test_girgis_tail_does_not_overflow_at_large_orders():
    """(1 + gamma (E - 1))^alpha overflows a float for alpha = 1000 at eps0 = 10, k = n (gamma = 1);
    the log-space tail keeps the value finite and equal to mpmath's."""
    v = fb.thm541_upper_float(100, 100, 10.0, [1000], variant="girgis_code")[0]
    want = thm541_upper(100, 100, mpmath.mpf(10), 1000, variant="girgis_code", dps=30)
    assert math.isfinite(v) and abs(v - float(want)) <= 1e-10 * float(want)


def test_an_empty_order_list_gives_an_empty_table():
    """No order, no value (and no error): the table's top index is taken only over the orders given."""
    out = fb.thm541_upper_float(100, 10, 1.0, [])
    assert isinstance(out, np.ndarray) and out.shape == (0,)
