"""The OpenDP bridge (bcdp.accounting.opendp_bridge) on the paths its first tests left open: the
features it enables itself, the float upper function of uncertified, certified, infinite and array
curves, a caller's input domain, and the defaults and provenance of a curve read from OpenDP.

Oracles: exact rationals written here (Fractions: zCDP rho alpha, Gaussian alpha / (2 sigma^2), the
values of an array curve at its next order, module docstring), OpenDP's documented feature switch
(make_user_measurement needs "contrib" and "honest-but-curious"), and dp_accounting's own
DEFAULT_RDP_ORDERS for the documented default orders.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import pytest
from bcdp.accounting.curves import gaussian_rdp, rdp_curve_from_arrays, rdp_curve_from_callable, zcdp_rdp
from bcdp.accounting.opendp_bridge import curve_upper_function, rdp_curve_from_opendp, to_opendp_measurement

dp = pytest.importorskip("opendp.prelude")

FEATURES = ("contrib", "honest-but-curious")


def test_the_bridge_enables_the_opendp_features_it_needs() -> None:
    dp.disable_features(*FEATURES)
    try:
        m = to_opendp_measurement(gaussian_rdp(2), "replace_one")
        got = m.map(1)(2.0)
        assert Fraction(got) >= Fraction(2, 8) and got <= math.nextafter(0.25, math.inf)
    finally:
        dp.enable_features(*FEATURES)


def test_uncertified_curve_answers_its_float_value() -> None:
    upper = curve_upper_function(rdp_curve_from_callable(lambda a: a / 8))
    assert upper(3.0) == 0.375 and upper(2.5) == 0.3125      # exact: 3/8, 5/16


def test_certified_curve_answers_its_certified_upper_end_rounded_up() -> None:
    """zCDP rho = 3/10: the float search value 0.3 * 2.0 lies below the exact 3/5; the answer must
    not (and is the next float up of 3/5 at most)."""
    curve = zcdp_rdp("0.3")
    assert Fraction(curve(2.0)) < Fraction(3, 5)   # the premise: the float value is not an upper bound
    got = curve_upper_function(curve)(2.0)
    assert Fraction(got) >= Fraction(3, 5) and got <= math.nextafter(float(Fraction(3, 5)), math.inf)


def test_certified_infinite_curve_answers_inf() -> None:
    curve = rdp_curve_from_callable(lambda a: math.inf, certified=lambda a: flint.arb("inf"))
    assert curve_upper_function(curve)(2.0) == math.inf


def test_array_curve_answers_with_its_next_order() -> None:
    curve = rdp_curve_from_arrays([2.0, 4.0], [0.5, 1.25])
    upper = curve_upper_function(curve)
    assert upper(1.5) == 0.5 and upper(2.0) == 0.5 and upper(3.0) == 1.25 and upper(4.0) == 1.25
    assert upper(4.5) == math.inf


def test_a_given_input_domain_is_used() -> None:
    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False))
    m = to_opendp_measurement(gaussian_rdp(2), "add_or_remove_one", input_domain=domain, function=len)
    assert str(m.input_domain) == str(domain)
    assert m([0.5, 1.5, 2.5]) == 3


def test_reading_defaults_to_one_step_and_dp_accountings_orders() -> None:
    from dp_accounting.rdp.rdp_privacy_accountant import DEFAULT_RDP_ORDERS

    m = to_opendp_measurement(gaussian_rdp(2), "replace_one")     # d_in = 1 only: d_in = 2 is refused
    curve = rdp_curve_from_opendp(m)
    assert curve.orders == tuple(float(a) for a in DEFAULT_RDP_ORDERS)
    for a in (1.5, 2.0, 11.0, 1024.0):
        v = curve(a)
        assert Fraction(v) >= Fraction(a) / 8 and v <= math.nextafter(float(Fraction(a) / 8), math.inf)


def test_zcdp_reading_at_the_default_step() -> None:
    """OpenDP's Gaussian mechanism (scale 2, L2 sensitivity d_in = 1): rho = 1/8, eps(alpha) = alpha/8."""
    dp.enable_features(*FEATURES)                  # make_gaussian is behind "contrib"
    g = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float), scale=2.0)
    curve = rdp_curve_from_opendp(g, orders=[2.0, 4.0])
    assert curve(2.0) == 0.25 and curve(4.0) == 0.5


def test_a_curve_read_from_opendp_says_where_it_comes_from() -> None:
    m = to_opendp_measurement(gaussian_rdp(2), "replace_one")
    curve = rdp_curve_from_opendp(m, 1, orders=[2.0])
    assert curve.source == "OpenDP"
    assert curve.label == f"OpenDP {m.output_measure} at d_in = 1"
    assert str(m.output_measure).startswith("RenyiDivergence")
