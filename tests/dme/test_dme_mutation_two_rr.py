"""bcdp.dme.two_rr: the certificate of Lemma 2.4.1 (eps0 < v) checked term by term against an independent
construction (mpmath ceil of sqrt(v^2 + 4) at 80 digits, the Taylor partial sum of e^v with math.factorial,
an exact square v^2 + 4 = (5/2)^2 where R must be exact), and the one-line messages
of the input checks (the argument named, the error class)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.dme import two_rr as tr
from mutation_support import generator_drawing_zero_first, raised


def _taylor(v: F, terms: int) -> F:
    return sum((v ** j / math.factorial(j) for j in range(terms + 1)), F(0))


def _ceil_root_upper(v: F, bits: int) -> F:
    """((R + v)/2)^2 with R = ceil(sqrt(v^2 + 4) 2^bits)/2^bits, v an integer or v^2 + 4 an exact square."""
    with mpmath.workdps(80):
        x = mpmath.mpf((v * v + 4).numerator) / (v * v + 4).denominator
        r = int(mpmath.ceil(mpmath.sqrt(x) * 2 ** bits))
    return ((F(r, 2 ** bits) + v) / 2) ** 2


def test_certificate_at_v_1_is_the_first_round_construction():
    cert = tr.certify_epsilon_below_budget(1)
    assert cert == {"certified": True, "upper_exp_eps0": _ceil_root_upper(F(1), 16),
                    "lower_exp_v": _taylor(F(1), 8), "terms": 8, "bits": 16}
    # and it is a certificate: e^{eps0} = ((sqrt 5 + 1)/2)^2 <= U < L <= e
    with mpmath.workdps(60):
        U, L = cert["upper_exp_eps0"], cert["lower_exp_v"]
        assert ((mpmath.sqrt(5) + 1) / 2) ** 2 <= mpmath.mpf(U.numerator) / U.denominator
        assert mpmath.mpf(L.numerator) / L.denominator < mpmath.e
    assert U < L


@pytest.mark.parametrize("v", [3, 5])
def test_certificate_at_integer_v_is_the_first_round_construction(v):
    # sqrt(v^2 + 4) 2^16 has fractional part < 1/2 here (0.41, 0.16): rounding at 2^17 would differ
    cert = tr.certify_epsilon_below_budget(v)
    assert cert == {"certified": True, "upper_exp_eps0": _ceil_root_upper(F(v), 16),
                    "lower_exp_v": _taylor(F(v), 8), "terms": 8, "bits": 16}
    assert _ceil_root_upper(F(v), 16) != _ceil_root_upper(F(v), 17)


def test_certificate_with_an_exact_square_root_is_exact():
    # v = 3/2 = t - 1/t at t = 2: v^2 + 4 = 25/4, sqrt = 5/2 exactly, so U = ((5/2 + 3/2)/2)^2 = 4 = e^{eps0} = t^2
    cert = tr.certify_epsilon_below_budget(F(3, 2))
    assert cert["upper_exp_eps0"] == 4
    assert cert["lower_exp_v"] == _taylor(F(3, 2), 8)
    assert (cert["bits"], cert["terms"]) == (16, 8)


def test_rational_budget_names_t():
    assert raised(FloatRefusedError, tr.rational_budget, 1.5).startswith("t: floats are refused")
    assert raised(InvalidInputError, tr.rational_budget, "x").startswith("t: cannot read 'x'")


def test_sampler_names_p_and_refuses_non_integer_bits():
    rng = np.random.default_rng(7)
    assert raised(InvalidInputError, tr.sample_two_rr, rng, np.array([0, 1]), "abc") \
        == "p: cannot read 'abc' as a number"
    for bad in (np.array([0.0, 1.0]), np.array([True, False]), [0.0, 1.0]):
        assert raised(InvalidInputError, tr.sample_two_rr, rng, bad, 0.25) \
            == "bits must be an integer array of 0s and 1s"
    gamma, y = tr.sample_two_rr(rng, np.array([0, 1, 1]), 0.0)     # p = 0: no flip, y = b exactly
    assert not gamma.any() and y.tolist() == [0.0, 1.0, 1.0]


def test_sampler_never_flips_at_p_zero_even_on_a_zero_draw():
    # Ber(0) never fires: gamma = (U < 0) is False for U = 0.0 too, and y = b exactly
    gamma, y = tr.sample_two_rr(generator_drawing_zero_first(), np.array([0, 1, 1]), 0)
    assert gamma.tolist() == [False, False, False]
    assert y.tolist() == [0.0, 1.0, 1.0]


def test_input_checks_name_their_argument():
    assert raised(ValidityConditionError, tr.check_p, F(1, 2)) \
        == "p = 1/2 is outside [0, 1/2), the range of thesis Thm 2.4.1 (2RR)"
    assert raised(FloatRefusedError, tr.check_p, 0.2).startswith("p: floats are refused")
    assert raised(FloatRefusedError, tr.two_rr_law, 0, 0.2).startswith("p: floats are refused")
    assert raised(WrongTypeError, tr.check_bit, True) == "b must be the int 0 or 1, got bool True"
    assert raised(InvalidInputError, tr.check_bit, 2) == "b must be 0 or 1, got 2"
    assert raised(WrongTypeError, tr.two_rr_law, 1.0, F(1, 5)) == "b must be the int 0 or 1, got float 1.0"
    assert raised(ValidityConditionError, tr.budget_p, 0) == "v = 0 must be > 0 (thesis Lemma 2.4.1: 'for any v > 0')"
    assert raised(FloatRefusedError, tr.budget_p, 1.5).startswith("v: floats are refused")
    assert raised(FloatRefusedError, tr.budget_epsilon, 1.5).startswith("v: floats are refused")


def test_rational_sqrt_on_squares_below_one_and_zero():
    for r in (F(0), F(1, 2), F(3, 7), F(1), F(5, 2), F(12)):
        assert tr.rational_sqrt(r * r) == r                 # squares built in the test
    for x in (F(2), F(1, 2), F(3, 4), F(8, 9)):               # not squares of rationals
        assert tr.rational_sqrt(x) is None
    assert tr.rational_sqrt(F(-1, 4)) is None
