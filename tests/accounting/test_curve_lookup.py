"""Array curves: the lookup of an order (binary search in the sorted orders, a set otherwise) and the
duplicate check, against a plain dict / list oracle over random, unsorted, sorted and reversed
order lists."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from bcdp.accounting.curves import RdpCurve, rdp_curve_from_arrays
from bcdp.core.errors import InvalidInputError


@pytest.mark.parametrize("arrangement", ["sorted", "reversed", "shuffled"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lookup_matches_a_dict_oracle(arrangement, seed):
    rng = random.Random(seed)
    orders = sorted({1 + rng.uniform(1e-9, 50) for _ in range(60)} | {2.0, 3.0, 1e6})
    if arrangement == "reversed":
        orders = orders[::-1]
    elif arrangement == "shuffled":
        rng.shuffle(orders)
    values = [rng.uniform(0, 5) for _ in orders]
    oracle = dict(zip(orders, values))
    curve = rdp_curve_from_arrays(orders, values)
    assert curve.orders == tuple(orders) and curve.order_values == tuple(values)   # kept as given
    for a in orders:
        assert curve(a) == oracle[a] and curve.value(a) == oracle[a] and curve.has_order(a)
        for near in (math.nextafter(a, 0), math.nextafter(a, math.inf)):
            assert curve.has_order(near) == (near in oracle)
    probe = rng.sample(orders, 20)
    assert curve.values_at(probe).tolist() == [oracle[a] for a in probe]
    assert curve.compose(4).values_at(probe).tolist() == [4 * oracle[a] for a in probe]
    o, v = curve.sorted_orders_and_values()
    assert o.tolist() == sorted(orders) and v.tolist() == [oracle[a] for a in sorted(orders)]
    for outside in (1.0 + 2 ** -52, min(orders) / 2 + 0.5, max(orders) * 2):
        if outside not in oracle and outside > 1:
            assert not curve.has_order(outside)
            with pytest.raises(InvalidInputError, match="only defined at its orders"):
                curve(outside)
            with pytest.raises(InvalidInputError, match=f"{outside} is not one"):
                curve.values_at([orders[0], outside])
            with pytest.raises(KeyError):
                curve.value(outside)


@pytest.mark.parametrize("orders", [[2.0, 2.0], [2.0, 3.0, 2.0], [5.0, 3.0, 3.0], [3.0, 4.0, 5.0, 4.0]])
def test_duplicate_orders_are_refused(orders):
    with pytest.raises(InvalidInputError, match="orders contain duplicates"):
        rdp_curve_from_arrays(orders, [0.1] * len(orders))
    with pytest.raises(InvalidInputError, match="orders contain duplicates"):
        rdp_curve_from_arrays(np.array(orders), np.full(len(orders), 0.1))
    with pytest.raises(InvalidInputError, match="orders contain duplicates"):
        RdpCurve(value=lambda a: 0.1, certified=None, label="x", source="y", orders=tuple(orders))


def test_curves_without_values_look_orders_up_in_a_set():
    curve = RdpCurve(value=lambda a: 0.5 * a, certified=None, label="x", source="y", orders=(3.0, 2.0))
    assert curve.has_order(2.0) and curve.has_order(3.0) and not curve.has_order(2.5)
    assert curve(3.0) == 1.5
    with pytest.raises(InvalidInputError, match="only defined at its orders"):
        curve(2.5)
    assert curve.values_at([3.0, 2.0]).tolist() == [1.5, 1.0]


def test_a_single_order_curve():
    curve = rdp_curve_from_arrays([7.0], [0.25])
    assert curve(7.0) == 0.25 and curve.has_order(7.0) and not curve.has_order(8.0) and not curve.has_order(6.0)
