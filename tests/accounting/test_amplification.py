"""bcdp.accounting.amplification: Lemma 2.1.1 (subsampling) and the inverse of eq. (6.10).

Oracles: the printed formulas evaluated in mpmath at 60 digits at the exact binary value of the float
inputs; worked values of f^{-1}_{n,delta} (n = 1e4, delta = 1e-6) recomputed here by an
independent 60-digit bisection of the printed eq. (6.10).  (The moved functions, FMT21's closed form and
advanced composition, keep their tests in tests/shuffle/.)
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.accounting import amplification as amp
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError

DPS = 60


def _mp(x) -> mpmath.mpf:
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def _printed_subsampling(eps, delta, q):
    with mpmath.workdps(DPS):
        return (mpmath.log(1 + _mp(q) * (mpmath.exp(_mp(eps)) - 1)), _mp(q) * _mp(delta))


@pytest.mark.parametrize("eps, delta, q", [
    (0.5, 1e-6, Fraction(1, 6)), (1.0, 0.0, Fraction(3, 10)), (2.0, 1e-3, 0.25), (1e-8, 1e-9, Fraction(1, 1000)),
    (7.5, 0.5, Fraction(1)), (0.0, 0.1, 0.5), (30.0, 1e-5, Fraction(1, 3)),
])
def test_subsampling_amplification_encloses_printed_pair_tightly(eps, delta, q):
    e, d = amp.subsampling_amplification(eps, delta, q)
    pe, pd = _printed_subsampling(eps, delta, q)
    with mpmath.workdps(DPS):
        assert mpmath.mpf(e) >= pe and mpmath.mpf(d) >= pd      # a valid (upper) pair
        # tight: at most a few ulps above the exact values (a loosened formula fails here)
        assert mpmath.mpf(e) <= pe * (1 + mpmath.mpf(2) ** -50) + mpmath.mpf(2) ** -1070
        assert mpmath.mpf(d) <= pd * (1 + mpmath.mpf(2) ** -50)
    if delta == 0:
        assert d == 0.0


def test_subsampling_amplification_q_one_is_identity_and_smaller_q_amplifies():
    e, _ = amp.subsampling_amplification(1.0, 0.0, 1)
    assert abs(e - 1.0) <= 4e-16
    small, _ = amp.subsampling_amplification(1.0, 0.0, Fraction(1, 100))
    # log(1 + (e-1)/100) = 0.0170361... < q * (e - 1) = 0.0171828...
    assert 0.0170 < small < 0.0171828


@pytest.mark.parametrize("args, exc", [
    ((0.5, 1e-6, 0), InvalidInputError), ((0.5, 1e-6, Fraction(3, 2)), InvalidInputError),
    ((0.5, 1e-6, 1.0000001), InvalidInputError), ((0.5, 1e-6, float("nan")), InvalidInputError),
    ((-0.1, 1e-6, 0.5), InvalidInputError), ((0.5, 1.0, 0.5), InvalidInputError),
    ((0.5, 1e-6, "0.5"), WrongTypeError), ((0.5, 1e-6, True), WrongTypeError),
    ((float("inf"), 1e-6, 0.5), InvalidInputError),
])
def test_subsampling_amplification_bad_input(args, exc):
    with pytest.raises(exc) as info:
        amp.subsampling_amplification(*args)
    assert "\n" not in str(info.value)


def _printed_f(eps0, n, delta):
    """thesis eq. (6.10) at 60 digits."""
    E = mpmath.exp(eps0)
    return mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / delta)) / mpmath.sqrt(n)
                                               + 8 * E / n))


def _printed_inverse(eps, n, delta):
    with mpmath.workdps(DPS):
        lo, hi = mpmath.mpf(0), mpmath.log(n / (16 * mpmath.log(2 / _mp(delta))))
        if _printed_f(hi, n, _mp(delta)) <= eps:
            return hi
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _printed_f(mid, n, _mp(delta)) <= eps else (lo, mid)
        return lo


@pytest.mark.parametrize("eps, expected", [(0.1, 0.52808), (0.5, 1.99700), (1.0, 3.50371)])
def test_inverse_matches_the_digest_values_and_an_independent_bisection(eps, expected):
    got = amp.clones_closed_form_inverse(eps, 10**4, 1e-6)
    ref = _printed_inverse(eps, 10**4, 1e-6)
    with mpmath.workdps(DPS):
        assert abs(mpmath.mpf(got) - ref) <= 1e-12
        assert _printed_f(mpmath.mpf(got), 10**4, _mp(1e-6)) <= eps    # the guarantee holds at the float returned
    assert abs(got - expected) <= 6e-6                                  # the 5-digit reference values


def test_inverse_is_capped_by_the_fmt21_domain_condition():
    cap = amp.clones_closed_form_cap(10**4, 1e-6)
    assert abs(cap - 3.76301) <= 5e-6
    with mpmath.workdps(DPS):
        f_cap = _printed_f(mpmath.mpf(cap), 10**4, _mp(1e-6))
    # eps above f(cap): the printed eq. (6.10) alone would allow a larger eps0, the theorem does not
    assert amp.clones_closed_form_inverse(float(f_cap) * 1.5, 10**4, 1e-6) == cap
    just_below = amp.clones_closed_form_inverse(float(f_cap) * (1 - 1e-9), 10**4, 1e-6)
    assert just_below < cap


def test_inverse_author_code_variant_is_never_larger():
    for eps in (0.05, 0.3, 0.9):
        assert (amp.clones_closed_form_inverse(eps, 10**5, 1e-8, variant="author-code")
                <= amp.clones_closed_form_inverse(eps, 10**5, 1e-8))


def test_inverse_zero_budget_and_bad_input():
    assert amp.clones_closed_form_inverse(0.0, 10**4, 1e-6) == 0.0
    with pytest.raises(ValidityConditionError):
        amp.clones_closed_form_inverse(0.5, 100, 1e-6)   # log(100/(16 log 2e6)) < 0
    for bad in [(-1.0, 10**4, 1e-6), (0.5, 0, 1e-6), (0.5, 10**4, 0.0)]:
        with pytest.raises(InvalidInputError):
            amp.clones_closed_form_inverse(*bad)
    with pytest.raises(InvalidInputError):
        amp.clones_closed_form_inverse(0.5, 10**4, 1e-6, variant="paper")
    assert math.isfinite(amp.clones_closed_form_inverse(1e6, 10**6, 1e-8))
