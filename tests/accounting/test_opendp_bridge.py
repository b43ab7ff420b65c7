"""The OpenDP bridge (bcdp.accounting.opendp_bridge), against OpenDP's own answers and exact values:

* an exported Gaussian curve answers alpha / (2 sigma^2) (exact rational, compared with Fractions)
  and equals OpenDP's own Gaussian mechanism read as zCDP (rho alpha, rho = 1/(2 sigma^2));
* OpenDP's make_composition of exported curves is the sum bcdp's compose certifies;
* a curve known at finitely many orders answers with its next order (monotonicity of D_alpha), +inf
  beyond, and never below the exact value at alpha (two-point distributions, mpmath at 50 digits);
* the round trip OpenDP -> bcdp converts to the same (eps, delta) as the bcdp curve on the same orders.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import compose, gaussian_rdp, randomized_response_rdp, rdp_curve_from_arrays
from bcdp.accounting.opendp_bridge import (
    OPENDP_ASSUMPTION,
    curve_upper_function,
    rdp_curve_from_opendp,
    to_opendp_measurement,
)
from bcdp.core.errors import InvalidInputError

dp = pytest.importorskip("opendp.prelude")


@pytest.mark.parametrize("alpha", [1.5, 2.0, 3.0, 17.25, 1000.0])
def test_exported_gaussian_is_the_exact_curve_rounded_up(alpha):
    m = to_opendp_measurement(gaussian_rdp(2), "replace_one")
    got = m.map(1)(alpha)
    exact = Fraction(alpha) / 8                    # alpha Delta^2 / (2 sigma^2), sigma = 2, Delta = 1
    assert Fraction(got) >= exact and got <= math.nextafter(float(exact), math.inf)
    assert m.map(0)(alpha) == 0.0


def test_exported_gaussian_equals_opendps_own_gaussian():
    ours = to_opendp_measurement(gaussian_rdp(2), "add_or_remove_one")
    theirs = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float),
                                scale=2.0)
    rho = theirs.map(1.0)
    for a in (1.5, 2.0, 10.0):
        assert ours.map(1)(a) == pytest.approx(rho * a, rel=1e-15)
    read_back = rdp_curve_from_opendp(theirs, 1.0, orders=[2.0, 4.0])
    assert read_back(2.0) == 2 * rho and read_back.assumption == OPENDP_ASSUMPTION


def test_composition_in_opendp_is_bcdps_certified_sum():
    a, b = gaussian_rdp(2), randomized_response_rdp("0.25")
    comp = dp.c.make_composition([to_opendp_measurement(a, "replace_one"), to_opendp_measurement(b, "replace_one")])
    both = curve_upper_function(compose(a, b))
    for alpha in (1.5, 2.0, 8.0):
        got = comp.map(1)(alpha)
        want = both(alpha)
        assert got == pytest.approx(want, rel=4e-16)
        with mpmath.workdps(50):                   # never below the exact sum
            p, q, x = mpmath.mpf("0.25"), mpmath.mpf("0.75"), mpmath.mpf(alpha)
            rr = mpmath.log(p ** x * q ** (1 - x) + q ** x * p ** (1 - x)) / (x - 1)
            assert mpmath.mpf(got) >= (x / 8 + rr) * (1 - mpmath.mpf(10) ** -15)


def test_array_curve_answers_with_its_next_order_and_inf_beyond():
    """Bern(0.3) vs Bern(0.6): the curve at orders 2 and 4 (rounded up) answers at 3 with its value at
    4, which is >= D_3 (exact, mpmath) and > the value at 2; beyond 4 it is inf."""
    with mpmath.workdps(50):
        def d(a):
            p, q, x = mpmath.mpf("0.3"), mpmath.mpf("0.6"), mpmath.mpf(a)
            return mpmath.log(p ** x * q ** (1 - x) + (1 - p) ** x * (1 - q) ** (1 - x)) / (x - 1)
        vals = [d(2) * (1 + mpmath.mpf(10) ** -30), d(4) * (1 + mpmath.mpf(10) ** -30)]
        curve = rdp_curve_from_arrays([2.0, 4.0], [float(v) for v in vals], [mpmath.nstr(v, 40) for v in vals])
        m = to_opendp_measurement(curve, "replace_one")
        at3 = m.map(1)(3.0)
        assert at3 >= d(3) and at3 >= m.map(1)(2.0) and at3 == m.map(1)(4.0)
        assert m.map(1)(1.5) == m.map(1)(2.0)
        assert m.map(1)(4.5) == math.inf


def test_round_trip_converts_like_the_bcdp_curve():
    orders = [1.5, 2.0, 3.0, 5.0, 8.0, 16.0, 32.0]
    curve = gaussian_rdp(1.5).compose(10)
    m = to_opendp_measurement(curve, "replace_one")
    back = rdp_curve_from_opendp(dp.c.make_composition([m]), 1, orders)
    ours = rdp_to_dp(curve, "1e-6", orders=orders)
    theirs = rdp_to_dp(back, "1e-6")
    assert ours.upper <= theirs.upper <= ours.upper * (1 + 1e-14)
    assert theirs.details["assumption"] == OPENDP_ASSUMPTION and theirs.details["rdp_certified"] is False


def test_bad_use_is_refused():
    m = to_opendp_measurement(gaussian_rdp(2), "replace_one")
    with pytest.raises(Exception, match="d_in"):
        m.map(2)
    with pytest.raises(Exception, match="accounting-only"):
        m([1, 2, 3])
    with pytest.raises(InvalidInputError, match="neighboring_relation"):
        to_opendp_measurement(gaussian_rdp(2), "swap")
    with pytest.raises(InvalidInputError, match="RdpCurve"):
        to_opendp_measurement(lambda a: a, "replace_one")
    pure = dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=1.0)
    with pytest.raises(InvalidInputError, match="output measure"):
        rdp_curve_from_opendp(pure, 1.0)
    with pytest.raises(InvalidInputError, match="distinct"):
        rdp_curve_from_opendp(m, 1, orders=[2.0, 2.0])
    released = to_opendp_measurement(gaussian_rdp(2), "replace_one", function=lambda data: len(data))
    assert released([1, 2, 3]) == 3
