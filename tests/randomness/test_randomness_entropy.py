"""bcdp.randomness.entropy against mpmath at 60 digits (the printed definitions, independently)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.randomness import entropy as E

PMFS = [
    (F(1),),
    (F(1, 2), F(1, 2)),
    (F(1, 3), F(2, 3)),
    (F(1, 2), F(1, 4), F(1, 8), F(1, 8)),
    (F(0), F(3, 7), F(4, 7)),
    (F(1, 10),) * 10,
]


def _mp_entropy(pmf, unit):
    with mpmath.workdps(60):
        h = -mpmath.fsum(mpmath.mpf(p.numerator) / p.denominator * mpmath.log(mpmath.mpf(p.numerator) / p.denominator)
                         for p in pmf if p)
        return h / mpmath.log(2) if unit == "bits" else h


@pytest.mark.parametrize("pmf", PMFS)
@pytest.mark.parametrize("unit", ["bits", "nats"])
def test_entropy_encloses_the_60_digit_value(pmf, unit):
    ref = _mp_entropy(pmf, unit)
    c = E.entropy(pmf, unit)
    with mpmath.workdps(60):
        assert mpmath.mpf(c.lower.numerator) / c.lower.denominator <= ref + mpmath.mpf(10) ** -55
        assert ref - mpmath.mpf(10) ** -55 <= mpmath.mpf(c.upper.numerator) / c.upper.denominator
    assert float(c.upper - c.lower) < 1e-30
    assert E.entropy_float([float(p) for p in pmf], unit) == pytest.approx(float(ref), rel=1e-13, abs=1e-15)


def test_units_differ_by_log2():
    pmf = (F(1, 3), F(2, 3))
    bits, nats = E.entropy(pmf, "bits"), E.entropy(pmf, "nats")
    assert float(nats.lower) / float(bits.lower) == pytest.approx(np.log(2), rel=1e-14)


@pytest.mark.parametrize("eps", [F(0), F(1, 10), F(1), F(5), 30])
def test_critical_randomness_is_h2_of_rr(eps):
    with mpmath.workdps(60):
        e = mpmath.exp(mpmath.mpf(F(eps).numerator) / F(eps).denominator)
        p = e / (e + 1)
        ref = -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)
        c = E.critical_randomness(eps)
        assert mpmath.mpf(c.lower.numerator) / c.lower.denominator <= ref + mpmath.mpf(10) ** -50
        assert ref <= mpmath.mpf(c.upper.numerator) / c.upper.denominator + mpmath.mpf(10) ** -50


@pytest.mark.parametrize("r", [F(1, 1000), F(42, 1000), F(7, 10), F(99, 100)])
def test_inverse_binary_entropy_encloses_the_root(r):
    c = E.inverse_binary_entropy(r)
    assert 0 < c.lower <= c.upper < F(1, 2)
    assert c.upper - c.lower < F(1, 10 ** 30)
    with mpmath.workdps(60):
        h2 = lambda x: -(x * mpmath.log(x) + (1 - x) * mpmath.log(1 - x)) / mpmath.log(2)
        target = mpmath.mpf(r.numerator) / r.denominator
        a, b = mpmath.mpf(10) ** -50, mpmath.mpf(1) / 2  # H2 increases on (0, 1/2]
        for _ in range(200):
            m = (a + b) / 2
            a, b = (m, b) if h2(m) < target else (a, m)
        root = (a + b) / 2
        lo = mpmath.mpf(c.lower.numerator) / c.lower.denominator
        hi = mpmath.mpf(c.upper.numerator) / c.upper.denominator
        assert lo - mpmath.mpf(10) ** -45 <= root <= hi + mpmath.mpf(10) ** -45
    assert float(E.inverse_binary_entropy_float(float(r))) == pytest.approx(float(c.lower), rel=1e-12)


def test_inverse_binary_entropy_ends():
    assert E.inverse_binary_entropy(0).exact == 0
    assert E.inverse_binary_entropy(1).exact == F(1, 2)
    assert E.inverse_binary_entropy(2).exact == F(1, 2)
    # in nats the maximum is log 2 = 0.693...: 7/10 nats is above it, 69/100 below
    assert E.inverse_binary_entropy(F(7, 10), "nats").exact == F(1, 2)
    assert E.inverse_binary_entropy(F(69, 100), "nats").upper < F(1, 2)
    np.testing.assert_array_equal(E.inverse_binary_entropy_float([0.0, 1.0, 3.0]), [0.0, 0.5, 0.5])


def test_entropy_at_most_decides_and_refuses_to_guess_ties():
    half = (F(1, 2), F(1, 2))
    assert E.entropy_at_most(half, F(101, 100)) is True
    assert E.entropy_at_most(half, F(99, 100)) is False
    assert E.entropy_at_most(half, 1) is None  # exactly 1 bit: a tie, never guessed
    assert E.entropy_at_most((F(1),), 0) is True  # zero entropy is exact


def test_bad_input():
    with pytest.raises(FloatRefusedError):
        E.entropy([0.5, 0.5])
    with pytest.raises(InvalidInputError, match="sums to"):
        E.entropy([F(1, 2), F(1, 3)])
    with pytest.raises(InvalidInputError, match="unit"):
        E.entropy([1], "decibans")
    with pytest.raises(InvalidInputError):
        E.entropy([])
    with pytest.raises(InvalidInputError):
        E.inverse_binary_entropy(-1)
    with pytest.raises(InvalidInputError):
        E.critical_randomness(-1)
    with pytest.raises(InvalidInputError):
        E.entropy_float([0.5, np.nan])
