"""Mutation kills for the argument checks of bcdp.shuffle.inputs: the argument named in each error
message (module doc: errors name the offending input), both sides of each documented range
(chernoff_gamma in (0, 1), counts >= 1, orders >= 2, dps up to MAX_DPS + GUARD_DPS), the infinity
spellings of read_exact_mpf, numpy scalars in check_count, the NaN and dtype contract of the float
twins' order checks, and the precision schedule of floor_certified / sign_certified (doubled from
FLOOR_START_BITS up to FLOOR_MAX_BITS, then UndecidedComparison).

Oracles: exact Fractions and sympy Rationals for values (compared at the requested digits with
mpmath at dps + 20), the documented messages' leading words for the names, and the arb working
precision (flint.ctx.prec) recorded inside the ball callback for the precision schedule."""

from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, UndecidedComparison, WrongTypeError
from bcdp.core.numbers import GUARD_DPS, MAX_DPS
from bcdp.shuffle import inputs


def _exact(q, dps):
    with mpmath.workdps(dps + 20):
        return mpmath.mpf(q.numerator) / q.denominator


# -- the argument named in the error messages --------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: inputs.read_mpf(0.5), "value"),                      # the documented default name
    (lambda: inputs.check_eps0(0.5), "eps0"),
    (lambda: inputs.cancellation_digits(0.5), "eps0"),
    (lambda: inputs.capped(mpmath.mpf(1), 0.5, True), "eps0"),
    (lambda: inputs.check_alpha(1.5, False), "alpha"),
    (lambda: inputs.check_chernoff_gamma(0.5), "chernoff_gamma"),
    (lambda: inputs.exact_alpha(1.5, 30), "alpha"),
    (lambda: inputs.exact_eps0(0.5, 30), "eps0"),
    (lambda: inputs.read_exact_mpf(0.5, "zeta", 30), "zeta"),
])
def test_float_refusal_names_the_argument(call, name):
    with pytest.raises(FloatRefusedError) as exc:
        call()
    assert str(exc.value).startswith(f"{name}: "), str(exc.value)


def test_count_messages_name_the_count():
    with pytest.raises(InvalidInputError, match="^n must be >= 1"):
        inputs.check_count(0)                                     # default name "n"
    with pytest.raises(InvalidInputError, match="^k: cannot read 'abc'"):
        inputs.check_count("abc", "k")


@pytest.mark.parametrize("func", [inputs.exact_alpha, inputs.exact_eps0,
                                  lambda v, dps: inputs.read_exact_mpf(v, "x", dps)])
def test_dps_range_is_min_to_max_plus_guard(func):
    with pytest.raises(InvalidInputError, match="^dps must be an integer in"):
        func(2, 5)
    with pytest.raises(InvalidInputError, match="^dps must be an integer in"):
        func(2, MAX_DPS + GUARD_DPS + 1)
    top = func(Fraction(3, 2), MAX_DPS + GUARD_DPS)               # the top of the range is accepted
    with mpmath.workdps(MAX_DPS + GUARD_DPS + 20):
        assert top == mpmath.mpf(3) / 2


@pytest.mark.parametrize("eps0, alpha, name", [("inf", 2, "eps0"), (1, "inf", "alpha")])
def test_condition_gap_sign_names_the_infinite_input(eps0, alpha, name):
    with pytest.raises(InvalidInputError, match=f"^{name} must be finite"):
        inputs.condition_gap_sign(10, eps0, alpha)


def test_closed_form_that_is_not_real_names_the_argument():
    with pytest.raises(InvalidInputError, match=r"^zeta: .* is not a real number"):
        inputs.read_exact_mpf("log(-1)", "zeta", 30)
    with pytest.raises(InvalidInputError, match=r"^zeta: I is not a real number"):
        inputs.read_exact_mpf(sympy.I, "zeta", 30)
    with pytest.raises(InvalidInputError):
        inputs.read_exact_mpf(sympy.Symbol("x", real=True), "zeta", 30)


# -- check_alpha, check_chernoff_gamma ---------------------------------------------------------------

@pytest.mark.parametrize("bad", [None, True, False])
def test_check_alpha_refuses_none_and_bools_with_its_message(bad):
    with pytest.raises(WrongTypeError, match=r"^alpha must be a real number > 1"):
        inputs.check_alpha(bad, False)


@pytest.mark.parametrize("g", [0, "0", 1, "1", Fraction(3, 2), -1])
def test_chernoff_gamma_outside_open_unit_interval_is_refused(g):
    with pytest.raises(InvalidInputError, match=r"^chernoff_gamma must lie in \(0, 1\)"):
        inputs.check_chernoff_gamma(g)


@pytest.mark.parametrize("g", [Fraction(1, 10 ** 30), "1/2", Fraction(10 ** 30 - 1, 10 ** 30)])
def test_chernoff_gamma_inside_is_returned(g):
    q = Fraction(g) if not isinstance(g, str) else Fraction(1, 2)
    with mpmath.workdps(60):
        got = inputs.check_chernoff_gamma(g)
    ref = _exact(q, 60)
    with mpmath.workdps(80):
        assert abs(got - ref) <= mpmath.mpf(10) ** -59 * ref


# -- check_count: numpy scalars ------------------------------------------------------------------------

def test_check_count_numpy_floats_follow_the_float_policy():
    # np.float32 is not a Python float: it is a numpy scalar, read as a float (allowed by float twins)
    assert inputs.check_count(np.float32(3.0), allow_float=True) == 3
    with pytest.raises(FloatRefusedError, match="^n must be an int, got float"):
        inputs.check_count(np.float32(3.0))
    with pytest.raises(InvalidInputError, match="^n must be a positive integer"):
        inputs.check_count(np.float32(2.5), allow_float=True)


# -- read_exact_mpf --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["inf", " INF ", "+inf", "+Inf", "infinity", "Infinity", "oo", "OO"])
def test_infinity_spellings(text):
    assert inputs.read_exact_mpf(text, "x", 30) == mpmath.inf


@pytest.mark.parametrize("dps", [30, 120])
def test_sympy_rational_is_read_at_the_requested_digits(dps):
    got = inputs.read_exact_mpf(sympy.Rational(1, 3), "alpha", dps)
    with mpmath.workdps(dps + 20):
        assert abs(got - _exact(Fraction(1, 3), dps)) <= mpmath.mpf(10) ** (-dps)
        assert abs(got - _exact(Fraction(1, 3), dps)) > 0          # rounded once, at dps digits


# -- float twins' order checks ----------------------------------------------------------------------------

def test_float_orders_nan_is_refused():
    with pytest.raises(InvalidInputError, match="^alpha is NaN"):
        inputs.float_orders([2.0, float("nan")])


def test_integer_orders_float_contract():
    got = inputs.integer_orders_float([2.0, 3.0, 7.0])
    assert got.dtype == np.int64 and got.tolist() == [2, 3, 7]
    with pytest.raises(InvalidInputError, match="^alpha is NaN"):
        inputs.integer_orders_float([2.0, float("nan")])
    with pytest.raises(InvalidInputError, match="^integer orders alpha >= 2 required"):
        inputs.integer_orders_float([2.0, float("inf")])
    for bad in ([1], [2, 1], [0.0]):
        with pytest.raises(InvalidInputError, match="^alpha must be an integer >= 2"):
            inputs.integer_orders_float(bad)


# -- precision schedule of floor_certified / sign_certified ------------------------------------------------

def _schedule(func, ball):
    seen = []

    def x_ball():
        seen.append(flint.ctx.prec)
        return ball()

    with pytest.raises(UndecidedComparison):
        func(x_ball)
    return seen


def test_undecidable_ball_is_tried_at_each_doubled_precision_up_to_the_maximum():
    want = []
    bits = inputs.FLOOR_START_BITS
    while bits <= inputs.FLOOR_MAX_BITS:
        want.append(bits)
        bits *= 2
    assert want[-1] == inputs.FLOOR_MAX_BITS
    # a ball of fixed radius 1/4 around 1 (floor undecided) and around 0 (sign undecided)
    assert _schedule(inputs.floor_certified, lambda: flint.arb(1, 0.25)) == want
    assert _schedule(inputs.sign_certified, lambda: flint.arb(0, 0.25)) == want
