"""Number reading and argument checks of bcdp.accounting (inputs.to_mpf, check_delta's certified
unit-interval test, check_rho on balls, curves._positive through gaussian_rdp, the curve builders'
messages, defaults and assumptions, epsilon_at at rdp = 0, rdp_to_dp's precision) against their
documented contracts: the accepted range decided on the exact value or the whole enclosure, the
error class, the argument named at the start of the message.  Written to kill the survivors of the
mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
from bcdp.accounting import conversion as cv
from bcdp.accounting import curves as cu
from bcdp.accounting import inputs as ip
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper


def raises(exc, pattern, fn, *args, **kw):
    with pytest.raises(exc, match=pattern):
        fn(*args, **kw)


# -- to_mpf: numpy integers (scalars and 0-d arrays) are exact, numpy floats refused ---------------

def test_to_mpf_reads_numpy_integers_and_refuses_numpy_floats():
    for v, n in ((np.int64(7), 7), (np.array(7), 7), (np.uint8(200), 200), (np.array(-3, dtype=np.int32), -3)):
        out = ip.to_mpf(v)
        assert isinstance(out, mpmath.mpf) and out == n
    for v in (np.array(2.5), np.float32(3.0), np.array("5"), np.array(True)):
        raises(FloatRefusedError, "^value: numpy floats are refused", ip.to_mpf, v)
    raises(FloatRefusedError, "^value: floats are refused", ip.to_mpf, np.float64(2.5))   # a float subclass
    raises(FloatRefusedError, "^gamma: numpy floats", ip.to_mpf, np.array(0.5), "gamma")
    raises(FloatRefusedError, "^value: numpy floats", ip.to_mpf, np.random.default_rng(0))


def test_to_mpf_default_name_is_value():
    raises(FloatRefusedError, "^value: floats are refused", ip.to_mpf, 0.5)
    raises(WrongTypeError, "^value: a number is required", ip.to_mpf, None)


# -- check_delta on non-exact inputs: the float and the whole enclosure inside (0, 1) ----------------

@pytest.mark.parametrize("delta", [
    mpmath.mpf("1e-400"),                          # positive, but its float is 0.0
    mpmath.mpf("0.999999999999999999999999999999", prec=200),   # below 1, but its float is 1.0
    flint.arb("0.9", "0.2"),                       # [0.7, 1.1]: not inside
    flint.arb(0.75, 0.25),                         # [0.5, 1] exactly: 1 is not < 1
    flint.arb(0.25, 0.25),                         # [0, 0.5] exactly: 0 is not > 0
    flint.arb(0.75, 0.5),                          # [0.25, 1.25]
    flint.arb(0.5, 1),                             # [-0.5, 1.5]
    1.5, 0.0, 1.0,
])
def test_non_exact_delta_must_lie_inside_the_open_unit_interval(delta):
    raises(InvalidInputError, r"^delta must be in \(0, 1\)", ip.check_delta, delta)


@pytest.mark.parametrize("delta", [flint.arb(0.5, 0.25), flint.arb("1e-6"), mpmath.mpf("0.999"), 1e-300])
def test_non_exact_delta_strictly_inside_is_accepted(delta):
    assert 0 < ip.check_delta(delta) < 1


def test_a_ball_delta_with_infinite_radius_is_refused_by_name():
    raises(InvalidInputError, "^delta must be finite", ip.check_delta, flint.arb(0.5, math.inf))


# -- check_rho ----------------------------------------------------------------------------------------

def test_check_rho_cap_is_inclusive_at_exactly_the_cap():
    """rho above MAX_SEARCH_VALUE (the double 1e300) is refused; its exact value is accepted."""
    cap = Fraction(ip.MAX_SEARCH_VALUE)
    assert ip.check_rho(cap) == 1e300 and ip.check_rho(int(cap)) == 1e300
    raises(InvalidInputError, "^rho = .* is above the cap", ip.check_rho, cap + Fraction(1, 10 ** 9))


def test_check_rho_on_balls_and_intervals():
    assert ip.check_rho(flint.arb(0)) == 0.0 and ip.check_rho(flint.arb("0.5")) == 0.5
    assert ip.check_rho(mpmath.iv.mpf([0, 0])) == 0.0
    assert ip.check_rho(flint.arb(0, "1e-20")) == 0.0            # may be 0: not certainly negative
    # certainly negative, although the float of the midpoint is -0.0 (not < 0)
    for rho in (flint.arb("-1e-400"), mpmath.iv.mpf(["-1e-400", "-1e-400"])):
        raises(InvalidInputError, "^rho must be a finite real >= 0", ip.check_rho, rho)
    raises(InvalidInputError, "^rho must be finite", ip.check_rho, flint.arb(1, math.inf))


# -- curves --------------------------------------------------------------------------------------------

def test_positive_parameters_are_decided_on_the_exact_value():
    """sensitivity = 1e-400 is positive (its float is 0.0): the Gaussian curve alpha Delta^2/(2 sigma^2)
    is 5e-801 alpha, enclosed exactly; negative and zero exact values are refused by name."""
    curve = cu.gaussian_rdp("1", "1e-400")
    assert curve(2.0) == 0.0
    exact = Fraction(2) * Fraction(1, 10 ** 800) / 2
    with arb_precision(200):
        enc = curve.enclosure(2.0)
        assert ball_lower(enc) <= exact <= ball_upper(enc) and ball_upper(enc) - ball_lower(enc) < exact / 10 ** 50
    raises(InvalidInputError, "^sigma must be a finite real > 0", cu.gaussian_rdp, "-1e-400")
    raises(InvalidInputError, "^sigma must be a real number", cu.gaussian_rdp, [1])
    raises(InvalidInputError, "^sensitivity must be a real number", cu.gaussian_rdp, 1, [1])


def test_randomized_response_names_p_in_read_errors():
    raises(WrongTypeError, "^p: booleans are not numbers", cu.randomized_response_rdp, True)
    raises(InvalidInputError, "^p must be finite", cu.randomized_response_rdp, "inf")
    raises(InvalidInputError, "^p must be a real number", cu.randomized_response_rdp, [0.5])
    raises(InvalidInputError, r"^p must be in \(0, 1\)", cu.randomized_response_rdp, 1.0)


def test_array_curve_defaults_messages_and_assumption():
    plain = cu.rdp_curve_from_arrays([2.0, 3.0], [0.5, 0.75])
    assert plain.label == "user arrays" and plain.source == "user supplied"
    assert plain.assumption == cu.UNCERTIFIED and not plain.is_certified
    cert = cu.rdp_curve_from_arrays([2.0, 3.0], [0.5, 0.75], ["1/2", "3/4"], label="L", source="S")
    assert cert.label == "L" and cert.source == "S" and cert.assumption == "" and cert.is_certified
    raises(InvalidInputError, "^RDP value must be a real number", cu.rdp_curve_from_arrays, [2.0], [True])
    raises(InvalidInputError, "^RDP value at alpha=2.0 must be >= 0", cu.rdp_curve_from_arrays, [2.0], [-1.0])
    raises(InvalidInputError, "^RDP value is NaN", cu.rdp_curve_from_arrays, [2.0], [math.nan])
    raises(InvalidInputError, "^certified RDP value must be a real number",
           cu.rdp_curve_from_arrays, [2.0], [1.0], [[1]])
    bad = cu.rdp_curve_from_arrays([2.0], [1.0], ["inf"])
    with arb_precision(200):
        raises(InvalidInputError, "^certified RDP value must be finite", bad.enclosure, 2.0)


def test_composing_an_uncertified_curve_stays_uncertified():
    curve = cu.rdp_curve_from_callable(lambda a: 0.25 * a)
    three = curve.compose(3)
    assert not three.is_certified and three.assumption == cu.UNCERTIFIED
    with arb_precision(200):
        assert ball_lower(three.enclosure(2.0)) == ball_upper(three.enclosure(2.0)) == Fraction(3, 2)


# -- conversions ------------------------------------------------------------------------------------

def test_epsilon_at_accepts_rdp_zero():
    """rdp = 0 (exact) is a valid RDP value: Mironov gives log(1/delta)/(alpha - 1)."""
    with mpmath.workdps(40):
        expected = float(mpmath.log(10 ** 6))
    for r in (0, "0", Fraction(0)):
        assert cv.epsilon_at(2.0, r, "1e-6", "mironov") == pytest.approx(expected, rel=1e-15)
    raises(InvalidInputError, "^rdp must be >= 0", cv.epsilon_at, 2.0, "-1e-400", "1e-6", "mironov")


def test_rdp_to_dp_certifies_at_the_requested_precision():
    """prec reaches the certification: at 53 bits the result is still an upper value of the exact
    conversion at the same order, and wider than at 200 bits."""
    curve = cu.randomized_response_rdp("0.3")
    lo53, hi53 = cv.rdp_to_dp(curve, "1e-6", "cks", prec=53).enclosure
    r200 = cv.rdp_to_dp(curve, "1e-6", "cks", prec=200)
    lo200, hi200 = r200.enclosure
    assert lo53 <= lo200 <= hi200 <= hi53 and (lo53, hi53) != (lo200, hi200)
    assert cv.rdp_to_dp(curve, "1e-6", "cks", prec=53).alpha_star == r200.alpha_star


def test_zcdp_curve_below_the_float_range_uses_the_exact_rho():
    """rho = 1e-400 (exact; its float is 0.0) and 3e-320 (a subnormal float's decimal): the search
    value rho alpha is read from the exact rho, not from its float: at alpha = 1e300 it is about
    1e-100 and 3e-20."""
    for rho in ("1e-400", "3e-320", Fraction(1, 10 ** 400)):
        curve = cu.zcdp_rdp(rho)
        for a in (1e300, 2.0 ** 1000):
            exact = Fraction(rho) * Fraction(a)
            assert curve(a) == pytest.approx(float(exact), rel=1e-15) and curve(a) > 0
    assert cu.zcdp_rdp("0")(1e300) == 0.0 and cu.zcdp_rdp(0.0)(1e300) == 0.0
