"""bcdp.accounting.inputs: the remembered wrappers (check_delta, log_inverse, enclose,
enclose_log_inverse), the reading of third-party rationals by _enclose, and integer_order on exact
inputs beyond the working precision.

Oracles:

* the documented memoisation contract of the wrappers: "plain str, float, int and Fraction inputs are
  remembered", keyed by the input's type ("1 (int) and 1.0 hash alike"; the float 0.5 and
  Fraction(1, 2) are equal and hash alike, but a float denotes the hull of its binary value and its
  decimal repr, a Fraction only its exact value), read from the lru caches' own hit/miss counters;
* enclosures against mpmath at 60 digits of the decimal the float's repr shows (a float delta must
  certify for that decimal too, module docstring of bcdp.accounting.inputs);
* a non-exact arb ball (unhashable in python-flint) is an accepted delta: its answers against
  mpmath at 60 digits;
* the error contract (class, the argument named at the start of the message);
* integer_order decides and returns an exact input on its exact value (docstring), checked with
  Python integers and Fractions.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

import flint
import mpmath
import pytest
from bcdp.accounting import inputs as ip
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_ends


def _contains(ball: flint.arb, ref: mpmath.mpf) -> bool:
    """The exact ends of ``ball`` enclose ``ref`` (compared at the caller's mpmath precision)."""
    lo, hi = ball_ends(ball)
    return mpmath.mpf(lo.numerator) / lo.denominator <= ref <= mpmath.mpf(hi.numerator) / hi.denominator


# -- the remembered wrappers -----------------------------------------------------------------------

def test_check_delta_remembers_plain_inputs_keyed_by_type() -> None:
    cache = ip._check_delta_cached
    cache.cache_clear()
    assert ip.check_delta("0.25") == 0.25
    assert ip.check_delta("0.25") == 0.25
    info = cache.cache_info()
    assert (info.misses, info.hits) == (1, 1)      # the second call is answered from the cache
    assert ip.check_delta(Fraction(1, 4)) == 0.25 and ip.check_delta(0.25) == 0.25
    info = cache.cache_info()
    assert (info.misses, info.hits) == (3, 1)      # 0.25 == Fraction(1, 4), hash alike: the type tells them apart


def test_log_inverse_remembers_plain_inputs_keyed_by_type() -> None:
    cache = ip._log_inverse_cached
    cache.cache_clear()
    with mpmath.workdps(60):
        want = float(mpmath.log(4))
    assert ip.log_inverse("0.25") == want and ip.log_inverse("0.25") == want
    info = cache.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert ip.log_inverse(Fraction(1, 4)) == want and ip.log_inverse(0.25) == want
    info = cache.cache_info()
    assert (info.misses, info.hits) == (3, 1)


def test_enclose_remembers_plain_inputs_and_keeps_a_float_apart_from_its_equal_fraction() -> None:
    """Fraction(0.1) is the exact binary value of the float 0.1 (equal, same hash); enclose of the
    Fraction is that point, enclose of the float must still contain 1/10 (the decimal it shows)."""
    name = "delta of test_enclose_remembers"       # a key no other test uses
    ip._enclose_cached.cache_clear()
    with arb_precision(200), mpmath.workdps(60):
        point = ip.enclose(Fraction(0.1), name)
        assert not _contains(point, mpmath.mpf(1) / 10)     # the exact binary value only
        hull = ip.enclose(0.1, name)
        assert _contains(hull, mpmath.mpf(1) / 10) and _contains(hull, mpmath.mpf(0.1))
        again = ip.enclose(0.1, name)
        assert _contains(again, mpmath.mpf(1) / 10)
    info = ip._enclose_cached.cache_info()
    assert (info.misses, info.hits) == (2, 1)


def test_enclose_log_inverse_remembers_plain_inputs_and_keeps_a_float_apart() -> None:
    """As for enclose: log(1/delta) of the Fraction equal to the float 0.123456789 excludes
    log(1/0.123456789) (the decimal) at 200 bits, the float's ball must contain it; the same for a
    delta above 1/2 (the complement branch)."""
    ip._enclose_log_inverse_cached.cache_clear()
    with arb_precision(200), mpmath.workdps(60):
        for x in (0.123456789, 0.876543211):
            dec = mpmath.mpf(Fraction(repr(x)).numerator) / Fraction(repr(x)).denominator
            point = ip.enclose_log_inverse(Fraction(x))
            assert not _contains(point, -mpmath.log(dec))
            ball = ip.enclose_log_inverse(x)
            assert _contains(ball, -mpmath.log(dec)) and _contains(ball, -mpmath.log(mpmath.mpf(x)))
            assert _contains(ip.enclose_log_inverse(x), -mpmath.log(dec))
    info = ip._enclose_log_inverse_cached.cache_info()
    assert (info.misses, info.hits) == (4, 2)


def test_a_non_exact_ball_delta_is_accepted_by_the_remembering_functions() -> None:
    """A ball with a radius cannot be hashed (python-flint raises ValueError): it must not reach the
    caches, and its answers are those of its value."""
    delta = flint.arb("0.3") + flint.arb(0, 1e-10)
    assert delta.rad() > 0
    with pytest.raises(ValueError):
        hash(delta)
    with mpmath.workdps(60):
        want = -mpmath.log(mpmath.mpf(3) / 10)
        assert ip.log_inverse(delta) == pytest.approx(float(want), rel=1e-12)
        with arb_precision(200):
            ball = ip.enclose_log_inverse(delta)
            assert _contains(ball, want) and _contains(ball, -mpmath.log(mpmath.mpf("0.3") + mpmath.mpf(1e-10) / 2))
            assert ip.enclose(delta, "delta") is delta
    assert 0.29 < ip.check_delta(delta) < 0.31


# -- _enclose: a rational type bcdp has no reader for ---------------------------------------------

class _ThirdPartyRatio:
    """A rational from another library (registered as numbers.Rational, as gmpy2.mpq is), which
    bcdp.core.numbers.to_fraction does not read."""

    def __init__(self, p: int, q: int) -> None:
        self.p, self.q = p, q

    def __repr__(self) -> str:
        return f"_ThirdPartyRatio({self.p}, {self.q})"


numbers.Rational.register(_ThirdPartyRatio)


@pytest.mark.parametrize("name", ["sigma", "delta"])
def test_enclose_names_the_argument_when_a_rational_cannot_be_read(name: str) -> None:
    x: Any = _ThirdPartyRatio(1, 3)
    assert isinstance(x, numbers.Real)             # passes check_real: reaches the Rational branch
    with pytest.raises(WrongTypeError, match=rf"^{name}: cannot use _ThirdPartyRatio"):
        ip.enclose(x, name)


# -- integer_order on exact inputs -----------------------------------------------------------------

@pytest.mark.parametrize("alpha", ["2.0000000000000000000001", Fraction(3 * 10 ** 25 + 1, 10 ** 25),
                                   "1000000000000000000000000.5"])
def test_integer_order_decides_on_the_exact_value(alpha: Any) -> None:
    """Each rounds to an integer at 15 digits; its exact value is not one."""
    with mpmath.workdps(15):
        assert ip.to_mpf(alpha) == mpmath.floor(ip.to_mpf(alpha))    # the premise: rounded, it looks integral
        with pytest.raises(InvalidInputError, match="integer orders alpha >= 2 only"):
            ip.integer_order(alpha)


@pytest.mark.parametrize("alpha", [10 ** 30 + 1, "1000000000000000000000000000001", Fraction(2 ** 60 + 1)])
def test_integer_order_returns_the_exact_integer(alpha: Any) -> None:
    with mpmath.workdps(15):
        got = ip.integer_order(alpha)
    assert type(got) is int and got == Fraction(alpha)
