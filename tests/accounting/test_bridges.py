"""The dp_accounting bridge (bcdp.accounting.bridges), against dp_accounting's own answers and the
Gaussian mechanism's exact privacy profile (Balle & Wang 2018, Thm. 8, mpmath at 50 digits).

* A bcdp Gaussian curve composed with dp_accounting Gaussian events is the same mechanism as
  dp_accounting composing all the events itself: with the CKS conversion on the same orders the
  certified eps is dp_accounting's eps rounded up (within 1e-12 relative), the tightest is no larger,
  and both hold for the exact profile of the composed Gaussian (sigma / sqrt(T)).
* The events' curve at dp_accounting's default (fractional) orders is the closed form
  T alpha / (2 sigma^2) (Mironov 2017, Prop. 7) to 1e-14 relative.
* Exported arrays give dp_accounting's compute_epsilon the same answer as bcdp, and are never below
  the exact curve.
"""

from __future__ import annotations

from fractions import Fraction

import dp_accounting as dpa
import mpmath
import pytest
from bcdp.accounting.bridges import (
    DP_ACCOUNTING_ASSUMPTION,
    compose_with_events,
    events_rdp_curve,
    to_dp_accounting_arrays,
)
from bcdp.accounting.curves import gaussian_rdp, rdp_curve_from_arrays, zcdp_rdp
from bcdp.core.errors import InvalidInputError
from dp_accounting.rdp.rdp_privacy_accountant import DEFAULT_RDP_ORDERS, compute_epsilon


def _gaussian_delta(sigma_eff, eps):
    with mpmath.workdps(50):
        s, e = mpmath.mpf(sigma_eff), mpmath.mpf(eps)
        return mpmath.ncdf(1 / (2 * s) - e * s) - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)


@pytest.mark.parametrize("sigma,count,delta", [(2.0, 3, 1e-5), (1.0, 9, 1e-6), (5.0, 99, 1e-8)])
def test_gaussian_curve_with_gaussian_events_matches_dp_accounting(sigma, count, delta):
    events = [(dpa.GaussianDpEvent(sigma), count)]
    ours = compose_with_events(gaussian_rdp(sigma), events, repr(delta), "add_or_remove_one", method="cks")
    peer = dpa.rdp.RdpAccountant()
    peer.compose(dpa.GaussianDpEvent(sigma), count + 1)
    want = peer.get_epsilon(delta)
    assert want <= ours.upper <= want * (1 + 1e-12)
    best = compose_with_events(gaussian_rdp(sigma), events, repr(delta), "add_or_remove_one")
    assert best.upper <= ours.upper
    for eps in (ours.upper, best.upper):
        assert _gaussian_delta(sigma / (count + 1) ** 0.5, eps) <= delta
    assert ours.details["assumption"] == DP_ACCOUNTING_ASSUMPTION


def test_events_curve_is_the_closed_form_at_fractional_default_orders():
    curve = events_rdp_curve([(dpa.GaussianDpEvent(1.5), 7)], "add_or_remove_one")
    assert curve.orders == tuple(float(a) for a in DEFAULT_RDP_ORDERS) and 1.1 in curve.orders and 2.5 in curve.orders
    for a in curve.orders:
        want = Fraction(7) * Fraction(a) / (2 * Fraction(1.5) ** 2)
        assert abs(Fraction(curve(a)) - want) <= want * Fraction(1, 10 ** 14)
    assert curve.assumption == DP_ACCOUNTING_ASSUMPTION and curve.is_certified


def test_shuffle_style_array_curve_composes_on_the_common_orders():
    """An array curve at orders 2..8 (here zCDP rho = 0.01 tabulated, certified) with Gaussian events
    under replace-one: the composition is the sum at those orders, converted on them only."""
    orders = [float(a) for a in range(2, 9)]
    table = rdp_curve_from_arrays(orders, [0.01 * a for a in orders], [f"{a / 100}" for a in orders])
    res = compose_with_events(table, [dpa.GaussianDpEvent(4.0)], "1e-6", "replace_one", orders=orders,
                              method="cks")
    assert res.details["alpha_star"] in orders
    # the same sum written out: rho alpha + alpha / (2 * 16), as one certified array curve
    direct = rdp_curve_from_arrays(orders, [0.01 * a + a / 32 for a in orders],
                                   [Fraction(a) / 100 + Fraction(a) / 32 for a in orders])
    from bcdp.accounting.conversion import rdp_to_dp

    assert res.upper == pytest.approx(rdp_to_dp(direct, "1e-6", "cks", orders=orders).upper, rel=1e-13)


def test_exported_arrays_for_compute_epsilon():
    curve = zcdp_rdp("0.05").compose(4)
    orders, rdp = to_dp_accounting_arrays(curve)
    assert orders == [float(a) for a in DEFAULT_RDP_ORDERS]
    for a, v in zip(orders, rdp):
        assert Fraction(v) >= Fraction("0.2") * Fraction(a)                 # never below the exact curve
        assert v <= 0.2 * a * (1 + 1e-15)
    eps, _ = compute_epsilon(orders, rdp, 1e-6)
    from bcdp.accounting.conversion import rdp_to_dp

    ours = rdp_to_dp(curve, "1e-6", "cks", orders=[a for a in orders if a > 1.01]).upper
    assert ours == pytest.approx(eps, rel=1e-12)


@pytest.mark.parametrize("call,message", [
    (lambda: events_rdp_curve([dpa.GaussianDpEvent(1.0)], "replace_special"), "neighboring_relation"),
    (lambda: events_rdp_curve([dpa.GaussianDpEvent(1.0)], "replace_one", orders=[1.0, 2.0]), "alpha"),
    (lambda: events_rdp_curve([dpa.GaussianDpEvent(1.0)], "replace_one", orders=[2.0, 2.0]), "distinct"),
    (lambda: events_rdp_curve([dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(1.0))], "replace_one"),
     "does not support"),
    (lambda: compose_with_events("curve", [dpa.GaussianDpEvent(1.0)], "1e-5", "replace_one"), "RdpCurve"),
    (lambda: compose_with_events(rdp_curve_from_arrays([64.5], [1.0]), [dpa.GaussianDpEvent(1.0)], "1e-5",
                                 "replace_one"), "share no order"),
    (lambda: to_dp_accounting_arrays([1, 2]), "RdpCurve"),
])
def test_bad_input(call, message):
    with pytest.raises(InvalidInputError, match=message):
        call()
