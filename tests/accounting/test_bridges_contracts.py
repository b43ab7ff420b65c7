"""Contracts of the dp_accounting bridge that its first tests left open: the relation and the orders
reach dp_accounting, zero and infinite event RDP, the orders the composition and the export use, the
conversion asked for, and the export of uncertified and unbounded curves.

The k-ary randomized response event (dp_accounting's RandomizedResponseDpEvent(p, k): the true value
is kept with probability 1 - p, otherwise a uniform bucket) has, under replace-one neighbours, the
closed form D_alpha = log(h^alpha l^(1-alpha) + l^alpha h^(1-alpha) + (k - 2) l) / (alpha - 1) with
h = 1 - p + p/k, l = p/k (evaluated here in mpmath at 50 digits); dp_accounting does not support it
under add-or-remove.
"""

from __future__ import annotations

import math

import dp_accounting as dpa
import flint
import mpmath
import pytest
from bcdp.accounting.bridges import compose_with_events, events_rdp_curve, to_dp_accounting_arrays
from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import compose, gaussian_rdp, rdp_curve_from_arrays, rdp_curve_from_callable
from bcdp.accounting.inputs import check_alpha
from bcdp.accounting.tightest import tightest_rdp_to_dp
from bcdp.core.errors import InvalidInputError


def _krr(p, k, a):
    with mpmath.workdps(50):
        p, a = mpmath.mpf(p), mpmath.mpf(a)
        h, lo = 1 - p + p / k, p / k
        return mpmath.log(h ** a * lo ** (1 - a) + lo ** a * h ** (1 - a) + (k - 2) * lo) / (a - 1)


def test_relation_and_orders_reach_dp_accounting():
    curve = events_rdp_curve([dpa.RandomizedResponseDpEvent(0.5, 4)], "replace_one", orders=[2.0, 3.0])
    assert curve.orders == (2.0, 3.0) and curve.source == "dp_accounting RdpAccountant"
    for a in (2.0, 3.0):
        assert curve(a) == pytest.approx(float(_krr("0.5", 4, a)), rel=1e-12)
    with pytest.raises(InvalidInputError, match="does not support RandomizedResponseDpEvent under add_or_remove_one"):
        events_rdp_curve([dpa.RandomizedResponseDpEvent(0.5, 4)], "add_or_remove_one", orders=[2.0])


def test_zero_and_infinite_event_rdp():
    zero = events_rdp_curve([dpa.NoOpDpEvent()], "add_or_remove_one", orders=[2.0])
    assert zero(2.0) == 0.0
    with pytest.raises(InvalidInputError, match="infinite at some order"):
        events_rdp_curve([dpa.NonPrivateDpEvent()], "add_or_remove_one", orders=[2.0])


def test_composition_uses_the_orders_and_method_asked_for():
    """Gaussian sigma = 2 twice, delta = 1e-5: the CKS optimum over all orders is near 2.9, so with
    orders [2, 8] the answer is at 2 or 8; Mironov's and the tightest value are those of the same
    sum built by hand."""
    events = [dpa.GaussianDpEvent(2.0)]
    res = compose_with_events(gaussian_rdp(2), events, "1e-5", "add_or_remove_one", orders=[2.0, 8.0], method="cks")
    assert res.details["alpha_star"] in (2.0, 8.0)
    by_hand = gaussian_rdp(2 / math.sqrt(2))
    for method in ("mironov", "asoodeh"):
        got = compose_with_events(gaussian_rdp(2), events, "1e-5", "add_or_remove_one", orders=[2.0, 8.0],
                                  method=method)
        assert got.details["method"] == method
        assert got.upper == pytest.approx(rdp_to_dp(by_hand, "1e-5", method, orders=[2.0, 8.0]).upper, rel=1e-12)
    best = compose_with_events(gaussian_rdp(2), events, "1e-5", "add_or_remove_one", orders=[2.0, 8.0])
    assert best.details["alpha_star"] in (2.0, 8.0)
    assert best.upper == pytest.approx(tightest_rdp_to_dp(by_hand, "1e-5", orders=[2.0, 8.0]).upper, rel=1e-12)


def test_array_curve_composes_on_its_own_orders_by_default():
    orders = [2.0, 3.0, 5.0]
    table = rdp_curve_from_arrays(orders, [0.1, 0.2, 0.4], ["1/10", "1/5", "2/5"])
    res = compose_with_events(table, [dpa.GaussianDpEvent(4.0)], "1e-6", "replace_one", method="cks")
    assert res.details["alpha_star"] in orders
    direct = compose(table, rdp_curve_from_arrays(orders, [a / 32 for a in orders]))
    assert res.upper == pytest.approx(rdp_to_dp(direct, "1e-6", "cks", orders=orders).upper, rel=1e-12)


def test_export_of_array_uncertified_and_unbounded_curves():
    table = rdp_curve_from_arrays([2.0, 7.5], [0.5, 1.5])
    assert to_dp_accounting_arrays(table) == ([2.0, 7.5], [0.5, 1.5])
    loose = rdp_curve_from_callable(lambda a: 0.125 * a)
    assert to_dp_accounting_arrays(loose, [2.0, 4.0]) == ([2.0, 4.0], [0.25, 0.5])
    unbounded = rdp_curve_from_callable(lambda a: 1.0, certified=lambda a: flint.arb("inf"))
    assert to_dp_accounting_arrays(unbounded, [2.0]) == ([2.0], [math.inf])


def test_check_alpha_reads_non_float_orders():
    assert check_alpha(mpmath.mpf("1.5")) == 1.5 and check_alpha(flint.arb("1.5")) == 1.5
    with pytest.raises(InvalidInputError, match=r"^alpha must be a finite real > 1"):
        check_alpha(mpmath.mpf("0.75"))
