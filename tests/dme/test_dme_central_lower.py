"""bcdp.dme.central_lower (thesis Thm 3.6.4, Remark 3.6.2) against oracles written here: the (3.33)
term 5 d^2 s/(n v^2) rebuilt from bcdp.dme.calibration's v^2, r_inf from bcdp.dme.l2.clip_radius, the
quantizer by enumeration, and the ratio bounds at 50 digits."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.dme import calibration as cal
from bcdp.dme import central_lower as cl
from bcdp.dme import l2, quantizer

F = Fraction
DELTA, BETA = F(1, 10 ** 6), F(1, 20)


def _num(x):
    return mpmath.mpf(sympy.N(sympy.sympify(x), 60))


def test_thm364_rate_both_branches_and_refusals():
    n, d, eps, r2 = 1000, 8, F(1, 2), F(3, 2)
    lam = sympy.log(10 ** 6)
    big = cl.thm364_rate(n, d, r2, eps, DELTA, 24)           # b = 3d: n/(d 4^3) = 1000/512 < lam/eps^2
    assert sympy.simplify(big - sympy.Rational(9, 4) * 8 / 10 ** 6 * lam * 4) == 0
    small = cl.thm364_rate(n, d, r2, eps, DELTA, 2)          # b = 2: n/b = 500 > lam/eps^2 = 55.3
    assert sympy.simplify(small - sympy.Rational(9, 4) * 8 / 10 ** 6 * 500) == 0
    with pytest.raises(ValidityConditionError, match="b = d"):
        cl.thm364_rate(n, d, r2, eps, DELTA, 8)
    cl.thm364_rate(n, d, 1, eps, DELTA, 9)                   # r2 = 1 accepted
    with pytest.raises(ValidityConditionError, match="r2 >= 1"):
        cl.thm364_rate(n, d, F(999, 1000), eps, DELTA, 9)
    with pytest.raises(InvalidInputError):
        cl.thm364_rate(n, d, 1, eps, 1, 9)                   # delta must be < 1
    with pytest.raises(FloatRefusedError):
        cl.thm364_rate(n, d, 1, 0.5, DELTA, 9)


def test_rem362_parameters_and_bits():
    assert cl.rem362_parameters(8, 24) == (8, 3)
    assert cl.rem362_parameters(8, 5) == (5, 1)
    with pytest.raises(ValidityConditionError, match="integer"):
        cl.rem362_parameters(8, 25)
    with pytest.raises(ValidityConditionError):
        cl.rem362_parameters(8, 8)
    for d, b in [(8, 24), (8, 5), (1024, 10), (100, 3), (16, 15)]:
        want = b if b > d else b * (math.ceil(math.log2(math.ceil(d / b))) + 1)
        assert cl.rem362_bits(d, b) == want


@pytest.mark.parametrize("n,d,s,m,eps,C", [(100, 8, 2, 1, F(1, 2), 432), (10 ** 5, 16, 16, 3, F(3), 144),
                                           (50, 4, 1, 2, F(2), 432)])
def test_thm362_explicit_mse_rebuilt_from_calibration_and_clip_radius(n, d, s, m, eps, C):
    r2 = F(2)
    v2 = (cal.corrected_v2 if C == 432 else cal.printed_v2)(s, n, eps, DELTA)
    middle = 5 * d ** 2 * s / (n * v2)                      # (3.33) with S_m^3 <= 5
    r_inf2 = l2.clip_radius(r2, d, n, BETA) ** 2
    want = 4 * r_inf2 * (sympy.Rational(4 * d * d, 3 * n) * (sympy.Rational(1, s) - sympy.Rational(1, d)) + middle
                         + sympy.Rational(d, n * 4 ** m))
    got = cl.thm362_explicit_mse(n, d, r2, eps, DELTA, BETA, s, m, C)
    with mpmath.workdps(60):
        assert abs(_num(got) - _num(want)) < mpmath.mpf(10) ** -45 * _num(want)
        # dropping the sampling term is visible whenever s < d
        if s < d:
            assert _num(got) - _num(4 * r_inf2 * (middle + sympy.Rational(d, n * 4 ** m))) > 0


def test_thm362_eps_at_most_ms_both_sides():
    cl.thm362_explicit_mse(100, 8, 1, 2, DELTA, BETA, 2, 1)
    with pytest.raises(ValidityConditionError, match="m s"):
        cl.thm362_explicit_mse(100, 8, 1, F(2) + F(1, 10 ** 6), DELTA, BETA, 2, 1)
    with pytest.raises(ValidityConditionError):
        cl.thm362_explicit_mse(100, 8, 1, 1, DELTA, BETA, 9, 1)


def test_ratio_between_its_bounds_and_a_dropped_term_bound_fails():
    rng = random.Random(364)
    violations_without_privacy = 0
    with mpmath.workdps(60):
        for _ in range(40):
            d = rng.choice([2, 8, 64, 1000])
            b = rng.choice([d * rng.randint(2, 6), rng.randint(max(1, d // 50), d - 1)])
            eps = rng.choice([F(1, 10), F(1, 2), F(1)])
            n = rng.choice([10, 10 ** 4, 10 ** 9])
            ratio = _num(cl.rem362_ratio(n, d, 1, eps, DELTA, BETA, b))
            L = mpmath.log(mpmath.mpf(n * d) / BETA)
            assert (400 if b > d else 100) * L <= ratio <= _num(cl.rem362_ratio_bound(n, d, eps, BETA, b))
            violations_without_privacy += ratio > 400 * L * (1 if b > d else mpmath.mpf(19) / 12)
    assert violations_without_privacy > 0       # the 5 C max{1, eps} term of the bound is needed


def test_quantizer_only_worst_mse_is_the_grid_max_of_the_exact_law():
    for m in (1, 2, 3):
        grid = [F(k, 2 ** (m + 1)) for k in range(2 ** (m + 1) + 1)]
        best = max(quantizer.quantize_vector_mse(z, m) for z in itertools.product(grid, repeat=2))
        r, n = F(3), 5
        assert cl.quantizer_only_worst_mse(n, 2, m, r) == 4 * r * r * best / n == 4 * r * r * 2 / (n * 4 ** m)
    with pytest.raises(InvalidInputError):
        cl.quantizer_only_worst_mse(1, 1, 1, 0)
