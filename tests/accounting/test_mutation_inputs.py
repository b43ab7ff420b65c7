"""bcdp.accounting.inputs: the argument checks against their documented contracts (the accepted range,
the error class, the argument named at the start of the message, the returned dtype), at the edges:
exactly at the bounds, one step past them, NaN and infinities, integral floats.  Written to kill the
survivors of the mutation gate (benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.accounting import inputs as ip
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError


def message(exc_type, fn, *args):
    with pytest.raises(exc_type) as err:
        fn(*args)
    return str(err.value)


# -- high-precision scalars ------------------------------------------------------------------------

def test_checked_mpf_names_the_argument_default_value():
    ok = lambda v: v > 0  # noqa: E731
    assert message(FloatRefusedError, ip.checked_mpf, 0.5, ok, "req").startswith("value: floats are refused")
    assert message(FloatRefusedError, ip.checked_mpf, 0.5, ok, "req", "gamma").startswith("gamma: floats")
    assert message(WrongTypeError, ip.checked_mpf, None, ok, "req", "eps(2)").startswith("eps(2): a number")
    assert message(InvalidInputError, ip.checked_mpf, "-1", ok, "must be > 0") == "must be > 0, got '-1'"
    assert ip.checked_mpf("1/4", ok, "req") == mpmath.mpf(1) / 4


def test_check_rate_range_and_messages():
    """Regression: "1.0000000000000000000001" was accepted (its mpf at 15 digits is 1); the range is
    decided on the exact value.  Also in the transforms, which read gamma at dps + 10 digits."""
    assert ip.check_rate("1") == 1 and ip.check_rate("1/1000") == mpmath.mpf(1) / 1000
    for bad in ("0", "-1/2", "1.0000000000000000000001", "1." + "0" * 200 + "1", Fraction(10 ** 80 + 1, 10 ** 80)):
        assert message(InvalidInputError, ip.check_rate, bad) == f"gamma must lie in (0, 1], got {bad!r}"
    assert message(FloatRefusedError, ip.check_rate, 0.5).startswith("gamma: ")
    assert message(WrongTypeError, ip.check_rate, None).startswith("gamma: ")
    from bcdp.accounting import subsampling as sr
    for fn in (sr.wbk19_thm9, sr.zw19_thm6):
        with pytest.raises(InvalidInputError):
            fn(lambda j: "1/10", "1." + "0" * 200 + "1", 3)


def test_check_rdp_value_messages_name_the_order():
    assert ip.check_rdp_value("0", 2) == 0 and ip.check_rdp_value("inf", 3) == mpmath.inf
    assert message(InvalidInputError, ip.check_rdp_value, "-1", 3) == "base eps(3) must be a real >= 0 or inf, got '-1'"
    assert message(FloatRefusedError, ip.check_rdp_value, 0.5, 7).startswith("eps(7): ")


@pytest.mark.parametrize("alpha", [None, True, False])
def test_integer_order_refuses_none_and_bools_with_its_own_message(alpha):
    assert message(WrongTypeError, ip.integer_order, alpha) == f"alpha must be an integer >= 2, got {alpha!r}"


def test_integer_order_names_alpha_in_read_errors():
    assert message(FloatRefusedError, ip.integer_order, 2.0).startswith("alpha: ")
    assert message(InvalidInputError, ip.integer_order, "x").startswith("alpha")
    assert ip.integer_order("3") == 3 and ip.integer_order(Fraction(4)) == 4


# -- float twins ------------------------------------------------------------------------------------

@pytest.mark.parametrize("alphas,expected", [([2, 3, 10], [2, 3, 10]), ([2.0, 5.0], [2, 5]), (7, [7]),
                                             (np.array([3, 2], dtype=np.int32), [3, 2])])
def test_integer_orders_accepts_integers_and_integral_floats_as_int64(alphas, expected):
    out = ip.integer_orders(alphas)
    assert out.dtype == np.int64 and out.tolist() == expected


@pytest.mark.parametrize("alphas", [[2.5], [2.0, 3.5], [math.inf], [2.0, math.nan], [1], [0, 3], [-3], [1.0]])
def test_integer_orders_refuses_non_integers_and_orders_below_two(alphas):
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # refused by the check, not by an invalid cast
        assert message(InvalidInputError, ip.integer_orders, alphas) == "integer orders alpha >= 2 required"


def test_float_rate_bounds_on_floats_and_names_gamma():
    assert ip.float_rate(1.0) == 1.0 and ip.float_rate(5e-324) == 5e-324 and ip.float_rate(mpmath.mpf("0.5")) == 0.5
    for bad in (0.0, -0.0, -1e-300, 1.0000000000000002, 1.5, 2.0, 3.0):
        assert message(InvalidInputError, ip.float_rate, bad) == f"gamma must lie in (0, 1], got {bad!r}"
    assert message(InvalidInputError, ip.float_rate, math.nan).startswith("gamma: ")
    assert message(InvalidInputError, ip.float_rate, math.inf).startswith("gamma ")


def test_float_base_and_orders_reads_a_float64_base():
    base, arr = ip.float_base_and_orders([0, 0, 1, 2], [3])
    assert base.dtype == np.float64 and base.tolist() == [0.0, 0.0, 1.0, 2.0] and arr.tolist() == [3]
    base, _ = ip.float_base_and_orders([0, 0, Fraction(1, 10), "0.5"], [2, 3])
    assert base.dtype == np.float64 and base.tolist() == [0.0, 0.0, 0.1, 0.5]
    base, _ = ip.float_base_and_orders([math.nan, -1.0, 0.0, math.inf], [3])   # entries 0, 1 ignored, inf allowed
    assert base[2] == 0.0 and base[3] == math.inf


@pytest.mark.parametrize("base,alphas", [([0, 0, 0.1], [3]), ([0, 0, 0.1, 0.2], [4]), ([0, 0, math.nan, 0.1], [3]),
                                         ([0, 0, 0.1, math.nan], [2]), ([0, 0, -0.1, 0.1], [3]),
                                         ([0, 0, 0.1, -1e-300], [2]), ([0, 0, 0.1, 0.1, math.nan], [2])])
def test_float_base_and_orders_refuses_short_nan_or_negative_bases(base, alphas):
    assert message(InvalidInputError, ip.float_base_and_orders, base, alphas) == \
        "base must hold eps(j) >= 0 (or inf) for j = 2..max(alpha)"


# -- interval inputs --------------------------------------------------------------------------------

def test_iv_intervals_are_intervals_and_must_be_finite():
    iv = mpmath.iv.mpf([1, 2])
    assert ip.is_interval(iv) and ip.is_iv_interval(iv) and not ip.is_ball(iv)
    ip.check_real(iv, "x")
    for bad in (mpmath.iv.mpf([1, mpmath.inf]), mpmath.iv.mpf([-mpmath.inf, 1])):
        assert message(InvalidInputError, ip.ball_of_iv, bad).startswith("value must be finite")
        assert message(InvalidInputError, ip.ball_of_iv, bad, "rdp").startswith("rdp must be finite")


# -- rho ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rho", [True, "x", None, math.nan, math.inf, -math.inf, -0.5, -5e-324, "-1e-400", "1e301"])
def test_check_rho_refuses_and_names_rho(rho):
    with pytest.raises(InvalidInputError) as err:
        ip.check_rho(rho)
    assert str(err.value).startswith("rho"), str(err.value)


def test_check_rho_accepts_zero_and_tiny_values():
    assert ip.check_rho(0.0) == 0.0 and ip.check_rho("1e-400") == 0.0 and ip.check_rho("1/4") == 0.25
    assert ip.check_rho(mpmath.iv.mpf([0, 1])) == 0.5


def test_check_rate_on_mpf_and_unreadable_inputs():
    assert ip.check_rate(mpmath.mpf(1)) == 1 and ip.check_rate(mpmath.mpf("0.25")) == 0.25
    for bad in (mpmath.mpf(0), mpmath.mpf("1.5"), mpmath.mpf(2), mpmath.mpf(-1)):
        assert message(InvalidInputError, ip.check_rate, bad) == f"gamma must lie in (0, 1], got {bad!r}"
    assert message(InvalidInputError, ip.check_rate, "x").startswith("gamma: ")
    assert message(WrongTypeError, ip.check_rate, True).startswith("gamma: ")


def test_integer_order_edges():
    """Regression: "2.0000000000000001" was accepted as 2 and "10^21 + 1" returned 10^21 (read as an
    mpf at 15 digits); exact inputs are decided and returned exactly."""
    assert ip.integer_order(2) == 2 and ip.integer_order("2") == 2
    assert message(InvalidInputError, ip.integer_order, 1) == "alpha must be > 1, got 1"
    assert message(InvalidInputError, ip.integer_order, "1") == "alpha must be > 1, got '1'"
    assert ip.integer_order(str(10 ** 21 + 1)) == 10 ** 21 + 1 and ip.integer_order(Fraction(10 ** 30 + 1)) == 10 ** 30 + 1
    assert ip.integer_order(mpmath.mpf(3)) == 3 and ip.integer_order(np.int64(5)) == 5
    for bad in ("5/2", "2.0000000000000001", "2.000000000000000000000000001", "inf", mpmath.mpf("2.5")):
        assert message(InvalidInputError, ip.integer_order, bad).startswith("this theorem holds for integer orders")


def test_float_rate_decides_exact_inputs_exactly():
    assert ip.float_rate("1") == 1.0 and ip.float_rate(Fraction(1, 2)) == 0.5 and ip.float_rate(1) == 1.0
    assert ip.float_rate("1e-300") == 1e-300
    for bad in ("0", "-1e-400", "1.00000000000000000001", "2", "3/2", Fraction(-1, 2)):
        assert message(InvalidInputError, ip.float_rate, bad) == f"gamma must lie in (0, 1], got {bad!r}"
    assert message(InvalidInputError, ip.float_rate, "1e-400") == \
        "gamma = '1e-400' is below the float range of this float twin"
    assert message(InvalidInputError, ip.float_rate, "x").startswith("gamma: ")
    assert message(WrongTypeError, ip.float_rate, True).startswith("gamma: ")


def test_balls_are_intervals():
    import flint

    assert ip.is_interval(flint.arb(1)) and ip.is_interval(flint.arb(1, 1e-3)) and ip.is_ball(flint.arb(1))
    assert not ip.is_interval(1.0) and not ip.is_interval("1") and not ip.is_interval(mpmath.mpf(1))
