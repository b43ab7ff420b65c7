"""The quantizer (thesis Sec. 3.5.1, Lemma 3.5.1, Cor 3.5.1) against an independent closed form:
K = min(floor(2^{m-1} x), 2^{m-1} - 1), pi = 2^{m-1} x - K, digits = floor(2^k x) mod 2, and a seeded
binomial bound (alpha = 1e-6) for the sampler."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import (
    FloatRefusedError,
    InvalidInputError,
    ValidityConditionError,
    WrongTypeError,
)
from bcdp.dme import quantizer as qz
from scipy import stats


def closed(x: F, m: int) -> tuple[int, F]:
    scale = 2 ** (m - 1)
    K = min(math.floor(x * scale), scale - 1)
    return K, x * scale - K


def points():
    rng = random.Random(351)
    xs = [F(0), F(1), F(1, 2), F(1, 3), F(2, 3), F(1) - F(1, 10 ** 9), F(1, 10 ** 9)]
    xs += [F(j, 32) for j in range(33)]
    xs += [F(rng.randint(0, 997), 997) for _ in range(30)]
    return xs


@pytest.mark.parametrize("m", [1, 2, 3, 4, 6])
def test_law_mean_mse_against_closed_form(m):
    for x in points():
        K, pi = closed(x, m)
        step = F(1, 2 ** (m - 1))
        assert qz.quantize_law(x, m) == {K * step: 1 - pi, (K + 1) * step: pi}
        assert qz.quantize_mean(x, m) == x
        mse = qz.quantize_mse(x, m)
        assert mse == qz.quantize_mse_formula(x, m) == pi * (1 - pi) * step ** 2
        assert mse <= F(1, 4 ** m)
        assert (mse == F(1, 4 ** m)) == (pi == F(1, 2))
        bits, pi_lib = qz.binary_digits(x, m)
        assert pi_lib == pi
        if x < 1:
            assert bits == tuple(math.floor(x * 2 ** k) % 2 for k in range(1, m))
        else:
            assert bits == (1,) * (m - 1)
        assert set(bits) <= {0, 1}


def test_bound_attained_at_odd_multiples_of_2_to_minus_m():
    for m in range(1, 6):
        for j in range(2 ** (m - 1)):
            x = F(2 * j + 1, 2 ** m)
            assert qz.quantize_mse(x, m) == F(1, 4 ** m)


def test_printed_recursion_gives_a_non_bit_at_one():
    for m in range(2, 8):
        bits, pi = qz.printed_digits(1, m)
        assert bits[0] == 2 and pi == 0          # erratum E-Thesis-Lemma3.5.1-x1
        assert qz.binary_digits(1, m) == ((1,) * (m - 1), F(1))
    assert qz.printed_digits(1, 1) == ((), F(1))
    for x in points():
        if x < 1:
            assert qz.printed_digits(x, 5) == qz.binary_digits(x, 5)


def test_vector_mse_cor351():
    rng = random.Random(3510)
    for d in (1, 2, 3, 5):
        for m in (1, 2, 4):
            z = [F(rng.randint(0, 64), 64) for _ in range(d)]
            expect = sum(closed(x, m)[1] * (1 - closed(x, m)[1]) / 4 ** (m - 1) for x in z)
            got = qz.quantize_vector_mse(z, m)
            assert got == expect and got <= F(d, 4 ** m)
    assert qz.quantize_vector_mse([F(1, 4)] * 3, 2) == F(3, 16)


def test_validity_boundaries():
    qz.quantize_law(0, 1)
    qz.quantize_law(1, qz.MAX_LEVELS)
    for bad in (F(-1, 100), F(101, 100)):
        with pytest.raises(ValidityConditionError):
            qz.quantize_law(bad, 2)
    for bad in (0, qz.MAX_LEVELS + 1):
        with pytest.raises(InvalidInputError):
            qz.quantize_law(F(1, 2), bad)
    with pytest.raises(WrongTypeError):
        qz.quantize_law(F(1, 2), 2.0)
    with pytest.raises(FloatRefusedError):
        qz.quantize_law(0.5, 2)


def test_sampler_binomial_bound():
    rng = np.random.default_rng(3511)
    n = 100_000
    for x, m in ((F(3, 10), 3), (F(7, 9), 2), (F(1), 4), (F(0), 3), (F(5, 8), 3)):
        out = qz.sample_quantize(rng, np.full(n, float(x)), m)
        law = qz.quantize_law(x, m)
        (lo, _p_lo), (hi, p_hi) = sorted(law.items())
        assert np.all(np.isclose(out, float(lo)) | np.isclose(out, float(hi)))
        k = int(np.sum(np.isclose(out, float(hi))))
        if p_hi in (0, 1):
            assert k == (n if p_hi == 1 else 0)
            continue
        assert stats.binom.ppf(5e-7, n, float(p_hi)) <= k <= stats.binom.isf(5e-7, n, float(p_hi))
        wrong = float(p_hi) + 0.02
        assert not stats.binom.ppf(5e-7, n, wrong) <= k <= stats.binom.isf(5e-7, n, wrong)
    with pytest.raises(ValidityConditionError):
        qz.sample_quantize(rng, np.array([1.5]), 2)
