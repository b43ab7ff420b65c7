"""Thesis Lemma E.1.2 corrected (bcdp.bandits.concentration): exact Laplace MGF and tails against
independent oracles (sympy integral, seeded Monte Carlo, mpmath quadrature), validity conditions."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.bandits import concentration as conc
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError


@pytest.mark.parametrize("lam,l,b", [("1/3", 1, 1), ("1/2", 2, 3), ("-2", "1/4", 1)])
def test_mgf_matches_sympy_integral(lam, l, b):
    z = sympy.Symbol("z", real=True)
    x = sympy.Rational(lam) * sympy.Rational(l)
    bb = sympy.Rational(b)
    dens = bb / 2 * sympy.exp(-bb * z)
    integral = sympy.integrate(sympy.exp(x * z) * dens, (z, 0, sympy.oo)) + \
        sympy.integrate(sympy.exp(x * z) * bb / 2 * sympy.exp(bb * z), (z, -sympy.oo, 0))
    assert sympy.nsimplify(sympy.simplify(integral)) == sympy.Rational(str(conc.laplace_mgf(lam, l, b)))


def test_mgf_infinite_at_and_beyond_b():
    assert conc.laplace_mgf(1, 2, 2) == math.inf and conc.laplace_mgf(3, 1, 2) == math.inf


def test_corrected_exponent_condition_both_sides():
    # lambda^2 l^2 / b^2 = 1/2 exactly is allowed (lambda = 1, l = 1, b^2 = 2 needs irrational b: use l = b = 2, lambda^2 = 2)
    assert conc.laplace_mgf_bound_exponent(Fraction(1, 2), 1, Fraction(1, 1)) == Fraction(1, 2)
    assert conc.laplace_mgf_bound_exponent(1, Fraction(7, 10), 1) == Fraction(49, 50)  # x^2 = 0.49
    with pytest.raises(ValidityConditionError, match="b\\^2/2"):
        conc.laplace_mgf_bound_exponent(1, Fraction(71, 100), 1)  # x^2 = 0.5041


@pytest.mark.parametrize("n,s", [(1, 0), (1, 3), (2, 1), (4, "5/2"), (9, 6)])
def test_tail_factor_matches_quadrature(n, s):
    sf = Fraction(s)
    with mpmath.workdps(50):
        sm = mpmath.mpf(sf.numerator) / sf.denominator
        orc = mpmath.quad(lambda y: mpmath.gammainc(n, sm + y, mpmath.inf, regularized=True)
                          * y ** (n - 1) * mpmath.e ** (-y) / mpmath.factorial(n - 1), [0, n, mpmath.inf])
        r = conc.iid_laplace_sum_tail_factor(n, s)
        assert mpmath.almosteq(mpmath.e ** (-sm) * mpmath.mpf(r.numerator) / r.denominator, orc, 1e-35)


def test_tail_factor_monte_carlo():
    """Seeded: 400000 sums of 5 Laplace(1); |MC - exact| < 6 binomial sd (false-failure rate < 1e-8)."""
    rng = np.random.default_rng(11)
    m = 400_000
    sums = rng.laplace(size=(m, 5)).sum(axis=1)
    for s in (1, 3):
        p = math.exp(-s) * float(conc.iid_laplace_sum_tail_factor(5, s))
        assert abs((sums >= s).mean() - p) < 6 * math.sqrt(p * (1 - p) / m)


def test_corrected_bound_dominates_exact_tails_and_printed_does_not():
    for n in (1, 4, 7, 30):
        for k in range(0, 31):
            s = Fraction(k * n, 8)
            exact = math.exp(-float(s)) * float(conc.iid_laplace_sum_tail_factor(n, s))
            assert exact <= conc.weighted_laplace_tail_bound_float(float(s), [1] * n, 1.0)
    exact = math.exp(-7) * float(conc.iid_laplace_sum_tail_factor(7, 7))
    assert exact > 1.05 * conc.printed_lemma_e12_bound_float(7.0, [1] * 7, 1.0) == 1.05 * math.exp(-3.5)


def test_corrected_bound_regimes_and_scaling():
    # t <= 2 sqrt 2 c^2/(b l_max): sub-Gaussian branch; beyond: exponential branch (continuous at the switch)
    l, b = [1.0, 0.5, 0.25], 2.0
    c2 = sum(v * v for v in l)
    t0 = 2 * math.sqrt(2) * c2 / (b * 1.0)
    lo = conc.weighted_laplace_tail_bound_float(t0 * (1 - 1e-9), l, b)
    hi = conc.weighted_laplace_tail_bound_float(t0 * (1 + 1e-9), l, b)
    assert math.isclose(lo, math.exp(-t0 ** 2 * b ** 2 / (8 * c2)), rel_tol=1e-6)
    assert math.isclose(lo, hi, rel_tol=1e-6)
    with pytest.raises(ValidityConditionError, match="c\\^2"):
        conc.weighted_laplace_tail_bound_float(1.0, l, b, c=1.0)
    assert conc.weighted_laplace_tail_bound_float(-1.0, l, b) == 1.0


def test_bad_inputs():
    with pytest.raises(FloatRefusedError):
        conc.laplace_mgf(0.5, 1, 1)
    with pytest.raises(InvalidInputError, match="b must be > 0"):
        conc.laplace_mgf(1, 1, 0)
    with pytest.raises(InvalidInputError, match="n must be"):
        conc.iid_laplace_sum_tail_factor(0, 1)
    with pytest.raises(InvalidInputError, match="s must be >= 0"):
        conc.iid_laplace_sum_tail_factor(3, -1)
    with pytest.raises(InvalidInputError, match="non-empty"):
        conc.weighted_laplace_tail_bound_float(1.0, [], 1.0)
    with pytest.raises(InvalidInputError, match="non-zero"):
        conc.weighted_laplace_tail_bound_float(1.0, [0.0], 1.0)


def test_corrected_bound_unequal_weights_monte_carlo():
    """Seeded: 400000 draws of sum l_i z_i, l = (1, 1/2, 1/4, 1/4), b = 2 (z ~ Lap(1/2)); the empirical
    tail minus 6 binomial sd must stay below the corrected bound (false-failure rate < 1e-8)."""
    rng = np.random.default_rng(12)
    l, b, m = np.array([1.0, 0.5, 0.25, 0.25]), 2.0, 400_000
    x = (rng.laplace(scale=1 / b, size=(m, 4)) * l).sum(axis=1)
    for t in (0.5, 1.0, 2.0, 3.0):
        p = (x >= t).mean()
        assert p - 6 * math.sqrt(max(p, 1e-6) / m) <= conc.weighted_laplace_tail_bound_float(t, list(l), b)
