"""bcdp.randomness.keys: two-level key entropies against mpmath (60 digits) of the closed form
(7.47), the brute-force minimum, and the [ASZ19] parameters against a float evaluation."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.randomness import keys


def _mp(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _closed_form_747(k, s, eps):
    """Eq. (7.47), nats: log(s(e^eps - 1) + k) - s eps e^eps / (s(e^eps - 1) + k)."""
    e = mpmath.exp(_mp(F(eps)))
    t = s * (e - 1) + k
    return mpmath.log(t) - s * _mp(F(eps)) * e / t


@pytest.mark.parametrize("k,s,eps", [(2, 1, F(1)), (10, 3, F(1, 2)), (10, 1, F(5)), (100, 50, F(2)),
                                     (7, 0, F(1)), (7, 7, F(3))])
def test_two_level_entropy_matches_747(k, s, eps):
    with mpmath.workdps(60):
        ref = _closed_form_747(k, s, eps)
        for unit, scale in (("nats", 1), ("bits", 1 / mpmath.log(2))):
            c = keys.two_level_entropy(k, s, eps, unit)
            assert _mp(c.lower) <= ref * scale + mpmath.mpf(10) ** -40
            assert ref * scale - mpmath.mpf(10) ** -40 <= _mp(c.upper)
            assert c.upper - c.lower < F(1, 10 ** 25)


@pytest.mark.parametrize("k,eps", [(2, F(5)), (4, F(5)), (10, F(5)), (10, F(1, 10)), (9, F(1)), (30, F(2))])
def test_minimum_over_s(k, eps):
    c = keys.min_two_level_entropy(k, eps)
    with mpmath.workdps(60):
        values = {s: _closed_form_747(k, s, eps) for s in range(1, k)}
        best = min(values.values())
        assert _mp(c.lower) - mpmath.mpf(10) ** -30 <= best <= _mp(c.upper) + mpmath.mpf(10) ** -30
        assert set(c.argmin) == {s for s, v in values.items() if v - best < mpmath.mpf(10) ** -30}


def test_eps_zero_is_uniform_and_a_tie():
    c = keys.min_two_level_entropy(4, 0)
    assert c.argmin == (1, 2, 3)
    assert float(c.lower) == pytest.approx(math.log(4), rel=1e-15)


def _float_asz19(k, eps):
    big_b = 2 ** (math.ceil(math.log2(min(math.exp(eps), 2 * k))) - 1)
    b = 2 ** math.ceil(math.log2(k / big_b + 1))
    return {"B": big_b, "b": b, "K": big_b * b, "s": b // 2}


@pytest.mark.parametrize("k", [2, 3, 10, 100, 1000])
@pytest.mark.parametrize("eps", [F(1, 2), F(1), F(2), F(4), F(8), F(13, 2)])
def test_asz19_parameters(k, eps):
    assert keys.asz19_parameters(k, eps) == _float_asz19(k, float(eps))


def test_asz19_worked_example():
    # k = 1000, eps = 1 (Sec. 7.5.2 recipe): B = 2, b = 512, K = 1024, s = 256; H = 6.8135 nats by hand from
    # (7.47): log(256(e-1)+1024) - 256e/(256(e-1)+1024) (a worked example, not a number printed in the thesis)
    p = keys.asz19_parameters(1000, 1)
    assert p == {"B": 2, "b": 512, "K": 1024, "s": 256}
    assert float(keys.two_level_entropy(p["K"], p["s"], 1).lower) == pytest.approx(6.8135, abs=5e-5)


def test_bad_input():
    with pytest.raises(FloatRefusedError):
        keys.two_level_entropy(4, 1, 0.5)
    with pytest.raises(InvalidInputError):
        keys.two_level_entropy(4, 5, 1)
    with pytest.raises(InvalidInputError):
        keys.min_two_level_entropy(1, 1)
    with pytest.raises(InvalidInputError):
        keys.asz19_parameters(10, 0)
    with pytest.raises(InvalidInputError):
        keys.two_level_entropy(4, 1, 1, "bans")
    with pytest.raises(InvalidInputError):
        keys.min_two_level_entropy(10 ** 7, 1)
