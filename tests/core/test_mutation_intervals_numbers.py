"""bcdp.core.intervals (ball_power on balls containing 0, the nearest float of a closed form,
default precisions, symbolic zero tests, non-finite balls) and bcdp.core.numbers (to_probability,
ratio_to_float_log) at their edges: the tests that kill the survivors of the mutmut gate
(docs/testing.md, "The mutation gate") in these modules.

References: exact Fraction arithmetic (powers of exact points of a ball, float midpoints), Python's
correctly rounded ``float(Fraction)``, mpmath at 80 digits."""

from __future__ import annotations

import math
from fractions import Fraction as F

import flint
import mpmath
import pytest
import sympy

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.intervals import (arb_precision, ball, ball_lower, ball_power, ball_upper, enclosure,
                                 is_identically_zero, outward_floats, to_float)
from bcdp.core.numbers import ratio_to_float_log, to_probability


# -- ball_power ------------------------------------------------------------------------------------------

def ball_around(lo: F, hi: F) -> flint.arb:
    """A ball containing [lo, hi] (dyadic ends; arb rounds the radius up a little)."""
    return flint.arb(float((lo + hi) / 2), float((hi - lo) / 2))


BALLS = [(F(-1, 2), F(1, 2)),      # contains 0, not 1
         (F(-1, 4), F(7, 4)),      # contains 0 and 1, lopsided
         (F(-3, 2), F(1, 4)),      # contains 0, mostly negative
         (F(2), F(3))]             # does not contain 0


@pytest.mark.parametrize("lo,hi", BALLS)
def test_ball_power_encloses_every_power_and_is_tight_for_even_powers(lo, hi):
    with arb_precision(53):
        b = ball_around(lo, hi)
        lo, hi = ball_lower(b), ball_upper(b)                 # its exact ends
        has_zero = lo <= 0 <= hi
        for n in range(0 if has_zero else -3, 7):
            r = ball_power(b, n)
            r_lo, r_hi = ball_lower(r), ball_upper(r)       # raises if r is not finite (nan)
            for k in range(9):                                # exact points of [lo, hi], ends included
                x = lo + (hi - lo) * k / 8
                assert r_lo <= x ** n <= r_hi, (lo, hi, n, x)
            if has_zero and n >= 2 and n % 2 == 0:
                # documented: [0, max|b|^n], up to arb's outward rounding of a union (midpoint-radius
                # form: ends move out by far less than 2^-20 of the size; a product b*...*b would
                # reach down to about -max|b|^n)
                top = max(abs(lo), abs(hi)) ** n
                assert -top * F(1, 2 ** 20) <= r_lo <= 0 and top <= r_hi <= top * (1 + F(1, 2 ** 20)), (lo, hi, n)


def test_ball_power_zero_and_negative_exponents():
    with arb_precision(53):
        b = ball_around(F(2), F(3))
        assert ball_lower(ball_power(b, 0)) == 1 == ball_upper(ball_power(b, 0))
        r = ball_power(b, -2)                     # contains [1/9, 1/4]
        assert ball_lower(r) <= F(1, 9) and F(1, 4) <= ball_upper(r) and ball_lower(r) > 0


# -- nearest float of a closed form ---------------------------------------------------------------------

def test_to_float_of_infinity_and_of_rationals_is_the_nearest_float():
    assert to_float(sympy.oo) == math.inf
    for q in (F(1, 3), F(-7, 10), F(10) ** 300 / 7, F(1, 10 ** 310)):   # a subnormal included
        assert to_float(sympy.Rational(q.numerator, q.denominator)) == float(q)  # float(F) is correctly rounded


def test_to_float_does_not_round_twice():
    """Regression: ``to_float`` took the midpoint of one 120-bit ball and rounded it again to a
    float.  1 + 2^-53 + 3 2^-122 lies just above the midpoint 1 + 2^-53 between the floats 1 and
    1 + 2^-52, so its nearest float is 1 + 2^-52; the 120-bit midpoint is the midpoint itself,
    which rounds (ties to even) to 1.0."""
    x = F(1) + F(1, 2 ** 53) + F(3, 2 ** 122)
    want = float(x)                                   # correctly rounded: 1 + 2^-52
    assert want == 1 + 2.0 ** -52
    assert to_float(sympy.Rational(x.numerator, x.denominator)) == want
    below = F(1) + F(1, 2 ** 53) - F(3, 2 ** 122)    # just below the midpoint: 1.0
    assert to_float(sympy.Rational(below.numerator, below.denominator)) == float(below) == 1.0
    # the same for an unevaluated closed form: log(exp(x)) is x, but goes through interval arithmetic
    e = sympy.exp(sympy.Rational(1, 3), evaluate=False)
    with mpmath.workdps(80):
        assert to_float(e) == float(mpmath.exp(mpmath.mpf(1) / 3))


def test_to_float_settles_a_straddling_enclosure_at_a_higher_precision():
    """1 + 2^-53 +- 1/(3 2^200) (not dyadic, so its 120-bit ball has a radius) lies within 2^-120 of
    the midpoint between the floats 1 and 1 + 2^-52: the 120-bit ends round to different floats, and
    only the 250-bit enclosure decides.  Answering from the first enclosure's lower end would give
    1.0 above the midpoint."""
    for sign, want in ((1, 1 + 2.0 ** -52), (-1, 1.0)):
        x = F(1) + F(1, 2 ** 53) + sign * F(1, 3 * 2 ** 200)
        assert float(x) == want                       # Fraction.__float__ is correctly rounded
        assert to_float(sympy.Rational(x.numerator, x.denominator)) == want


# -- default precisions -----------------------------------------------------------------------------------

def test_ball_default_precision_is_53_bits():
    x = sympy.exp(sympy.Rational(1, 3))
    default, at53, at54 = ball(x), ball(x, prec=53), ball(x, prec=54)
    assert default.mid() == at53.mid() and default.rad() == at53.rad()
    assert at54.rad() != at53.rad()                   # the precision is visible in the radius


def test_enclosure_default_precision_is_120_bits():
    # y = 1 + 2^-118/3 (not dyadic: one outward rounding at the working precision, radius about the
    # ulp 2^-(prec-1) of [1, 2)): at 120 bits the ball reaches below 1, at 121 bits it no longer does
    # (a dyadic 1 + 2^-120 would not do: ball_of is exact for dyadics at any precision)
    y = 1 + sympy.Rational(1, 3 * 2 ** 118)
    below_one = math.nextafter(1.0, 0.0)
    above_one = math.nextafter(1.0, 2.0)
    assert enclosure(y) == enclosure(y, prec=120) == (below_one, above_one)
    assert enclosure(y, prec=121) == (1.0, above_one)


# -- symbolic zero, non-finite balls ----------------------------------------------------------------------

def test_is_identically_zero_is_false_for_one_and_nonzero_values():
    assert is_identically_zero(sympy.Integer(1)) is False
    assert is_identically_zero(sympy.Integer(0)) is True
    x = sympy.Symbol("x", positive=True)
    assert is_identically_zero(x / x) is False                      # x/x is 1
    assert is_identically_zero((x ** 2 - 1) / (x - 1) - x) is False  # is 1
    assert is_identically_zero((x ** 2 - 1) / (x - 1) - x - 1) is True
    assert is_identically_zero(sympy.log(6) - sympy.log(2) - sympy.log(3)) is True
    assert is_identically_zero(sympy.log(2) - 1) is False


def test_outward_floats_of_a_non_finite_ball_is_the_whole_line():
    for b in (flint.arb.nan(), flint.arb.pos_inf(), flint.arb(0, math.inf)):
        assert outward_floats(b) == (-math.inf, math.inf)


# -- numbers -------------------------------------------------------------------------------------------

def test_to_probability_errors_name_the_probability():
    assert to_probability("1/3") == F(1, 3) and to_probability(0) == 0 and to_probability(1) == 1
    with pytest.raises(InvalidInputError, match=r"^probability: 3/2 is not a probability"):
        to_probability("3/2")
    with pytest.raises(InvalidInputError, match=r"^q: -1/2 is not a probability"):
        to_probability(F(-1, 2), "q")
    with pytest.raises(FloatRefusedError, match=r"^q: floats are refused"):
        to_probability(0.5, "q")
    with pytest.raises(InvalidInputError, match=r"^probability: cannot read 'half'"):
        to_probability("half")


def test_ratio_to_float_log_on_both_sides_of_the_log1p_switch():
    # the switch between log1p(r - 1) and log(r) is at |r - 1| = 1/2; check 1 ulp on both sides
    with mpmath.workdps(80):
        for r in (F(3, 2), F(1, 2), F(3, 2) - F(1, 10 ** 30), F(1, 2) + F(1, 10 ** 30), F(5, 3), F(2, 3),
                  F(4, 3), F(3), 1 + F(1, 10 ** 40), F(10 ** 50 + 1, 10 ** 50), F(7, 1)):
            ref = mpmath.log(mpmath.mpf(r.numerator) / r.denominator)
            got = ratio_to_float_log(r)
            assert abs(got - ref) <= abs(ref) * 2.0 ** -52, r


def test_to_float_beyond_the_float_range_and_of_minus_infinity():
    # IEEE rounding to nearest: beyond the largest float (about 1.8e308) a value rounds to +-inf
    assert to_float(sympy.Integer(10) ** 400) == math.inf
    assert to_float(-sympy.Integer(10) ** 400) == -math.inf
    assert to_float(sympy.Rational(1, 10) ** 400) == 0.0
    assert to_float(-sympy.oo) == -math.inf


def test_to_float_of_a_value_no_enclosure_settles_is_a_neighbouring_float():
    # 1 + 2^-53 + 1/(3 2^1010): within 2^-1011 of the midpoint between 1 and 1 + 2^-52, not dyadic,
    # so even a 1000-bit ball straddles the midpoint; documented: one of the two floats around it
    x = 1 + sympy.Rational(1, 2 ** 53) + sympy.Rational(1, 3 * 2 ** 1010)
    assert to_float(x) in (1.0, 1 + 2.0 ** -52)
