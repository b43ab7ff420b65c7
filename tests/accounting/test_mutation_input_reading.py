"""bcdp.accounting.inputs: how the conversions' readers (check_real, exact_value, float_of, mpf_value,
enclose, enclosure_upper, enclose_log_inverse, check_alpha, check_delta, check_choice) read and refuse
their inputs, against their docstrings.

Oracles, all independent of the code under test: exact Fractions written in the test (the value a
decimal or ratio string spells, 1 + 2^-52, the midpoint of [1, 2]), Python's own float conversion of
those Fractions, the error contract (the class, the argument named at the start of the message, the
spelling of the infinity strings the module refuses as non-finite), and mpmath at 50 digits for
log(1/delta).  Written to kill survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import sympy
from bcdp.accounting import inputs as ip
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper


def message(exc_type, fn, *args):
    with pytest.raises(exc_type) as err:
        fn(*args)
    return str(err.value)


# the spellings of infinity and NaN that the exact readers refuse as "must be finite" (any case, one
# leading sign, surrounding blanks), rather than passing them to the decimal reader
NON_FINITE_TEXT = ["inf", "+inf", "-inf", "Infinity", " -Infinity ", "+INFINITY", "nan", "-nan", "+NaN",
                   "oo", "-oo", "+oo"]


# -- check_real -------------------------------------------------------------------------------------

@pytest.mark.parametrize("nan", [np.float32("nan"), np.float16("nan"), np.longdouble("nan")])
def test_check_real_refuses_numpy_nans_that_are_not_python_floats(nan):
    assert not isinstance(nan, float)              # float32/float16 are not float subclasses
    assert message(InvalidInputError, ip.check_real, nan, "sigma") == "sigma is NaN"


@pytest.mark.parametrize("x", [np.float32(0.5), np.float16(-2), np.int64(3), np.int8(-1), np.longdouble(1)])
def test_check_real_accepts_finite_numpy_reals(x):
    assert ip.check_real(x, "sigma") is None


def test_check_real_refuses_a_nan_ball_and_accepts_finite_ones():
    assert message(InvalidInputError, ip.check_real, flint.arb("nan"), "rdp") == "rdp is NaN"
    assert ip.check_real(flint.arb(1), "rdp") is None and ip.check_real(flint.arb(0, 1), "rdp") is None


# -- exact_value ------------------------------------------------------------------------------------

def test_exact_value_reads_numpy_integers_and_not_numpy_floats():
    assert ip.exact_value(np.int64(5)) == Fraction(5) and ip.exact_value(np.uint8(200)) == Fraction(200)
    assert ip.exact_value(np.int64(-7)) == Fraction(-7)
    assert ip.exact_value(np.float32(0.5)) is None and ip.exact_value(np.float16(3)) is None


@pytest.mark.parametrize("x,q", [(Decimal("0.1"), Fraction(1, 10)), (Decimal("-2.50"), Fraction(-5, 2)),
                                 (sympy.Rational(1, 3), Fraction(1, 3)), (sympy.Rational(-7, 4), Fraction(-7, 4)),
                                 (sympy.Integer(9), Fraction(9))])
def test_exact_value_reads_decimals_and_sympy_rationals_exactly(x, q):
    assert ip.exact_value(x, "delta") == q


def test_exact_value_names_the_argument_of_decimal_and_sympy_errors():
    assert message(InvalidInputError, ip.exact_value, Decimal("nan"), "delta").startswith("delta: ")
    assert message(InvalidInputError, ip.exact_value, Decimal("inf"), "rho").startswith("rho: ")
    assert message(WrongTypeError, ip.exact_value, sympy.Float(0.5), "alpha").startswith("alpha: ")


def test_exact_value_default_name_is_value():
    assert message(WrongTypeError, ip.exact_value, True) == "value: booleans are not numbers here (got True)"
    assert message(InvalidInputError, ip.exact_value, "x").startswith("value: ")
    assert message(InvalidInputError, ip.exact_value, "inf") == "value must be finite, got 'inf'"


@pytest.mark.parametrize("text", NON_FINITE_TEXT)
def test_exact_value_refuses_infinity_and_nan_spellings_as_non_finite(text):
    assert message(InvalidInputError, ip.exact_value, text, "delta") == f"delta must be finite, got {text!r}"


def test_exact_value_returns_none_for_non_exact_inputs():
    for x in (0.5, mpmath.mpf("0.5"), flint.arb(1, 0.5), mpmath.iv.mpf([1, 2]), np.float64(0.5)):
        assert ip.exact_value(x) is None


# -- float_of ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("x,expected", [("1e400", math.inf), ("-1e400", -math.inf), (Fraction(10 ** 400, 3), math.inf),
                                        (-(10 ** 400), -math.inf), ("-1e-400", -0.0), ("1/3", 1 / 3)])
def test_float_of_exact_inputs_beyond_the_float_range(x, expected):
    """Docstring: the nearest float of the exact value, 0.0 or (signed) inf beyond the float range."""
    out = ip.float_of(x, "rdp")
    assert out == expected and math.copysign(1, out) == math.copysign(1, expected)


def test_float_of_names_the_argument():
    assert message(InvalidInputError, ip.float_of, "x", "delta").startswith("delta: cannot read")
    assert message(InvalidInputError, ip.float_of, "nan", "sigma") == "sigma must be finite, got 'nan'"


# -- mpf_value --------------------------------------------------------------------------------------

def test_mpf_value_reads_an_interval_by_its_midpoint():
    assert ip.mpf_value(mpmath.iv.mpf([1, 2])) == mpmath.mpf(3) / 2
    assert ip.mpf_value(mpmath.iv.mpf([-4, 1]), "rho") == mpmath.mpf(-3) / 2
    assert ip.mpf_value(flint.arb(1) / 4) == mpmath.mpf(1) / 4


def test_mpf_value_names_the_argument():
    assert message(InvalidInputError, ip.mpf_value, "x").startswith("value: cannot read")
    assert message(InvalidInputError, ip.mpf_value, "x", "rho").startswith("rho: cannot read")
    assert message(InvalidInputError, ip.mpf_value, "-inf", "rho") == "rho must be finite, got '-inf'"


# -- enclose and enclosure_upper ----------------------------------------------------------------------

def test_enclose_default_name_is_value():
    assert message(InvalidInputError, ip.enclose, "x").startswith("value: cannot read")
    assert message(InvalidInputError, ip.enclose, math.inf) == "value must be finite, got inf"
    assert message(InvalidInputError, ip.enclose, math.nan) == "value is NaN"


def test_enclose_names_the_argument():
    assert message(InvalidInputError, ip.enclose, math.nan, "sigma") == "sigma is NaN"
    assert message(InvalidInputError, ip.enclose, "x", "sigma").startswith("sigma: cannot read")
    assert message(InvalidInputError, ip.enclose, "1e-100000000", "sigma").startswith("sigma: ")
    assert message(InvalidInputError, ip.enclose, mpmath.iv.mpf([1, mpmath.inf]), "sigma").startswith(
        "sigma must be finite")
    assert message(InvalidInputError, ip.enclose, mpmath.iv.mpf([-mpmath.inf, 0]), "rdp").startswith(
        "rdp must be finite")


@pytest.mark.parametrize("text", NON_FINITE_TEXT)
def test_enclose_refuses_infinity_and_nan_spellings_as_non_finite(text):
    assert message(InvalidInputError, ip.enclose, text, "sigma") == f"sigma must be finite, got {text!r}"


def test_enclose_reads_signed_finite_strings():
    with arb_precision(ip.CERT_PREC):
        for text, q in (("-0.25", Fraction(-1, 4)), ("+3/8", Fraction(3, 8)), (" -2 ", Fraction(-2))):
            ball = ip.enclose(text, "sigma")
            assert ball_lower(ball) == q == ball_upper(ball)


def test_enclosure_upper_names_the_argument():
    assert message(InvalidInputError, ip.enclosure_upper, "x").startswith("value: cannot read")
    assert message(InvalidInputError, ip.enclosure_upper, "x", "rho").startswith("rho: cannot read")
    assert message(InvalidInputError, ip.enclosure_upper, math.nan, "rho") == "rho is NaN"
    assert ip.enclosure_upper("3/8", "rho") == Fraction(3, 8)


# -- enclose_log_inverse ----------------------------------------------------------------------------

def test_enclose_log_inverse_names_delta():
    assert message(InvalidInputError, ip.enclose_log_inverse, "x").startswith("delta: cannot read")
    assert message(InvalidInputError, ip.enclose_log_inverse, "inf") == "delta must be finite, got 'inf'"
    assert message(InvalidInputError, ip.enclose_log_inverse, math.nan) == "delta is NaN"
    assert message(InvalidInputError, ip.enclose_log_inverse, mpmath.mpf("nan")).startswith("delta must be finite")


@pytest.mark.parametrize("delta", [0.9999999999999999, 1 - 2.0 ** -53, 0.9999999999999998, 0.99999999])
def test_enclose_log_inverse_of_a_float_near_one_stays_positive_at_float_precision(delta):
    """Docstring: for delta > 1/2 the ball is -log1p(-(1 - delta)) with 1 - delta the hull of the
    complements, so that a delta near 1 gives a ball around its small log(1/delta) instead of one
    straddling 0; at the lowest arb precision (53 bits) 1/delta rounded near 1 would straddle it.
    The ball must hold -log of the exact binary value and of the decimal repr (mpmath, 50 digits),
    lie above 0, and be no wider than twice their spread plus 2^-40 of the value."""
    with mpmath.workdps(50):
        refs = [-mpmath.log(mpmath.mpf(delta)), -mpmath.log(mpmath.mpf(repr(delta)))]
        with arb_precision(53):
            ball = ip.enclose_log_inverse(delta)
        lo, hi = ball_lower(ball), ball_upper(ball)
        lo_m, hi_m = mpmath.mpf(lo.numerator) / lo.denominator, mpmath.mpf(hi.numerator) / hi.denominator
        for ref in refs:
            assert lo_m <= ref <= hi_m
        assert lo > 0
        spread = abs(refs[0] - refs[1])
        assert hi_m - lo_m <= 2 * spread + max(refs) * mpmath.mpf(2) ** -40


# -- check_alpha --------------------------------------------------------------------------------------

def test_check_alpha_refusals_name_alpha():
    assert message(InvalidInputError, ip.check_alpha, math.nan) == "alpha is NaN"
    assert message(InvalidInputError, ip.check_alpha, [2]) == "alpha must be a real number, got list"
    assert message(InvalidInputError, ip.check_alpha, "x").startswith("alpha: cannot read")
    assert message(InvalidInputError, ip.check_alpha, "inf") == "alpha must be finite, got 'inf'"
    assert message(InvalidInputError, ip.check_alpha, Decimal("nan")) == "alpha must be a real number, got Decimal"


@pytest.mark.parametrize("alpha", [1, "1", Fraction(1), "1.0", np.int64(1), "0.5", "-3"])
def test_check_alpha_refuses_exact_orders_at_or_below_one(alpha):
    assert message(InvalidInputError, ip.check_alpha, alpha) == f"alpha must be a finite real > 1, got {alpha!r}"


def test_check_alpha_accepts_the_first_float_above_one():
    """1 + 2^-52, written as its exact decimal, is a float: returned exactly (both sides of alpha > 1)."""
    q = Fraction(1) + Fraction(1, 2 ** 52)
    text = "1.0000000000000002220446049250313080847263336181640625"
    assert Fraction(text) == q
    assert Fraction(ip.check_alpha(text)) == q and Fraction(ip.check_alpha(q)) == q
    assert ip.check_alpha("3/2") == 1.5 and ip.check_alpha(32) == 32.0


@pytest.mark.parametrize("alpha", ["2.00000000000000000001", Fraction(10, 3), "1.1", "1e400", str(2 ** 1024),
                                   Fraction(2 ** 53 + 1)])
def test_check_alpha_refuses_exact_orders_that_are_no_float(alpha):
    """Docstring: an exact input must be exactly the float the search uses (1e400 has no float)."""
    q = Fraction(alpha)
    assert q > 1 and (q >= Fraction(2) ** 1024 or Fraction(float(q)) != q)   # independent: no float equals q
    assert message(InvalidInputError, ip.check_alpha, alpha) == \
        f"alpha {alpha!r} is not exactly representable as a float; pass a float"


def test_check_alpha_non_exact_inputs():
    assert ip.check_alpha(1.5) == 1.5 and ip.check_alpha(mpmath.mpf(3)) == 3.0
    assert ip.check_alpha(flint.arb(4)) == 4.0 and ip.check_alpha(mpmath.iv.mpf([2, 4])) == 3.0
    for bad in (1.0, math.inf, mpmath.mpf(1), flint.arb(1)):
        assert message(InvalidInputError, ip.check_alpha, bad) == f"alpha must be a finite real > 1, got {bad!r}"


# -- check_delta --------------------------------------------------------------------------------------

def test_check_delta_refusals_name_delta():
    assert message(InvalidInputError, ip.check_delta, math.nan) == "delta is NaN"
    assert message(InvalidInputError, ip.check_delta, np.float32("nan")) == "delta is NaN"
    assert message(InvalidInputError, ip.check_delta, None) == "delta must be a real number, got NoneType"
    assert message(InvalidInputError, ip.check_delta, "x").startswith("delta: cannot read")
    assert message(InvalidInputError, ip.check_delta, "-inf") == "delta must be finite, got '-inf'"


def test_check_delta_returns_the_nearest_float():
    assert ip.check_delta("1/4") == 0.25 and ip.check_delta(Fraction(1, 3)) == 1 / 3
    assert ip.check_delta("1e-400") == 0.0 and ip.check_delta(0.5) == 0.5


# -- check_choice -------------------------------------------------------------------------------------

def test_check_choice_default_kind_is_method():
    assert ip.check_choice("a", ("a", "b")) == "a"
    assert message(InvalidInputError, ip.check_choice, "c", ("a", "b")) == \
        "unknown method 'c'; choose one of ('a', 'b')"
    assert message(InvalidInputError, ip.check_choice, "c", ["a"], "order rule") == \
        "unknown order rule 'c'; choose one of ('a',)"
