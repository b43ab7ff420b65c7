"""Tests of bcdp.bayesian.mmean_utility (BCDP paper Thm 2, eq. (17); Mechanisms 1-2) against
independent computations: Fraction enumeration of Mechanism 2's randomness at d = 1, mpmath
quadrature of the sphere's moments, a seeded sampler with a Hoeffding bound (alpha = 1e-6), and
exact binomial enumeration of the projected mean."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.bayesian import mechanisms
from bcdp.bayesian import mmean_utility as mu
from bcdp.bayesian.allocation import allocate_budgets, mse_objective
from bcdp.core.errors import FloatRefusedError, InvalidInputError

LOG3, LOG2 = sympy.log(3), sympy.log(2)


def num(expr, dps=50):
    return mu.evaluate(expr, dps)


# -- inputs ----------------------------------------------------------------------------------------

def test_floats_refused():
    with pytest.raises(FloatRefusedError):
        mu.stage_second_moment(1, 0.5)
    with pytest.raises(FloatRefusedError):
        mu.coordinate_variances([0.5, 1])
    with pytest.raises(FloatRefusedError):
        mu.coordinate_variances([1, 2], [0.5, 0])


def test_validity_boundaries():
    with pytest.raises(InvalidInputError):
        mu.stage_second_moment(1, 0)          # b = 0 refused, b > 0 accepted
    assert mu.stage_second_moment(1, LOG3) == 4
    with pytest.raises(InvalidInputError):
        mu.stage_second_moment(0, 1)          # m >= 1
    with pytest.raises(InvalidInputError):
        mu.coordinate_variances([2, 1])       # c must be non-decreasing
    mu.coordinate_variances([1, 1])           # equal budgets accepted (stage 2 skipped)
    with pytest.raises(InvalidInputError):
        mu.coordinate_variances([0, 1])       # c_1 = 0: coordinate 1 never estimated
    with pytest.raises(InvalidInputError):
        mu.coordinate_variances([LOG3], ["11/10"])  # x outside [-1, 1]
    assert mu.coordinate_variances([LOG3], [1]) == [3]  # x = 1 on the boundary accepted
    with pytest.raises(InvalidInputError):
        mu.mse_sup([LOG3], 0)
    with pytest.raises(InvalidInputError):
        mu.mse_sup([LOG3], "3/2")
    assert mu.mse_sup([LOG3], 1) == 4


# -- d = 1: enumerate Mechanism 2's randomness exactly ---------------------------------------------

def mechanism2_law_d1(v: Fraction, e_alpha: Fraction, B: Fraction) -> dict[Fraction, Fraction]:
    """Mechanism 2 on [-1, 1] (r = 1): K ~ Bern(e^a/(e^a+1)), S ~ Bern(1/2 + |v|/2),
    v~ = (2S-1) sign(v), Z = +-B with (2K-1) Z v~ > 0 (v = 0: the direction is +1)."""
    pk = e_alpha / (e_alpha + 1)
    ps = Fraction(1, 2) + abs(v) / 2
    sign = 1 if v >= 0 else -1
    law: dict[Fraction, Fraction] = {}
    for K, PK in ((1, pk), (0, 1 - pk)):
        for S, PS in ((1, ps), (0, 1 - ps)):
            z = (2 * K - 1) * (2 * S - 1) * sign * B
            law[Fraction(z)] = law.get(Fraction(z), Fraction(0)) + PK * PS
    return law


@pytest.mark.parametrize("v", [Fraction(0), Fraction(1, 2), Fraction(-1, 3), Fraction(1)])
def test_d1_variance_by_enumeration(v):
    # b = log 3: e^b = 3, coth(b/2) = 2, B = r coth(b/2) sqrt(pi) Gamma(1)/Gamma(1/2) = 2
    law = mechanism2_law_d1(v, Fraction(3), Fraction(2))
    mean = sum(z * p for z, p in law.items())
    assert mean == v  # unbiased
    var = sum((z - v) ** 2 * p for z, p in law.items())
    got = mu.coordinate_variances([LOG3], [v])[0]
    assert sympy.nsimplify(got) == sympy.Rational(var.numerator, var.denominator)
    assert got != sympy.Integer(4) * 4 - v ** 2  # a wrong variant (B^2 = 16) differs


# -- stage second moment: quadrature of the sphere's marginal --------------------------------------

def sphere_moment(m: int, power: int) -> mpmath.mpf:
    """E u_1^power for u uniform on S^{m-1}, by quadrature (t = sin theta); m = 1: u_1 = +-1."""
    if m == 1:
        return mpmath.mpf(1)
    f = lambda th: mpmath.cos(th) ** (m - 2)
    return mpmath.quad(lambda th: mpmath.sin(th) ** power * f(th), [0, mpmath.pi / 2]) / mpmath.quad(f, [0, mpmath.pi / 2])


@pytest.mark.parametrize("m", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("b", [LOG3, sympy.Rational(1, 3), sympy.Integer(5)])
def test_stage_second_moment_by_quadrature(m, b):
    with mpmath.workdps(50):
        bb = mpmath.mpf(sympy.N(b, 70)._to_mpmath(mpmath.mp.prec))
        B = mpmath.sqrt(m) * (mpmath.e ** bb + 1) / (mpmath.e ** bb - 1) * mpmath.sqrt(mpmath.pi) \
            * mpmath.gamma(mpmath.mpf(m + 1) / 2) / mpmath.gamma(mpmath.mpf(m) / 2)
        oracle = B ** 2 * sphere_moment(m, 2)
        got = num(mu.stage_second_moment(m, b))
        assert abs(got - oracle) < mpmath.mpf(10) ** -35 * oracle
        assert abs(got - B ** 2) > mpmath.mpf("1e-3") or m == 1  # not B^2 (the whole norm) for m > 1
        # the fourth moment used by uniform_projected_lower_bound: E u_1^4 = 3/(m(m+2)) (m >= 2)
        if m >= 2:
            assert abs(sphere_moment(m, 4) - mpmath.mpf(3) / (m * (m + 2))) < mpmath.mpf(10) ** -35


# -- multi-stage: sampler with a Hoeffding bound ---------------------------------------------------

def test_variances_against_sampler():
    # c = (log 3, log 6): stage 1 (m = 2, b = log 3), stage 2 (m = 1, b = log 2: B = 3)
    c = [LOG3, LOG3 + LOG2]
    x = [Fraction(1, 2), Fraction(-1, 4)]
    exact = [float(num(v)) for v in mu.coordinate_variances(c, x)]
    rng = np.random.default_rng(20241118)
    N = 200_000
    X = np.tile(np.array([float(v) for v in x]), (N, 1))
    est = mechanisms.m_mean(X, [math.log(3), math.log(6)], rng)
    sq = (est - X) ** 2
    # |nu_i - x_i| <= B_1 + B_2 + 1 < 9: each squared error lies in [0, 81]; Hoeffding, alpha = 1e-6 per coordinate
    tol = 81 * math.sqrt(math.log(2 / 1e-6) / (2 * N))
    for i in range(2):
        assert abs(sq[:, i].mean() - exact[i]) < tol
    # a wrong variant: the proof's model (64)-(66), variance 1/sum w (here 2/log(3)^2 for i = 1), is rejected
    wrong = 2 / math.log(3) ** 2
    assert abs(sq[:, 0].mean() - wrong) > tol


def test_variances_against_float_moments():
    from bcdp.bayesian.least_squares import m_mean_moments

    c = [sympy.Rational(1, 2), sympy.Rational(1, 2), sympy.Integer(2)]
    x = [Fraction(1, 3), 0, Fraction(-1)]
    mean, second = m_mean_moments(np.array([[float(v) for v in x]]), [0.5, 0.5, 2.0])
    var = np.diag(second[0]) - mean[0] ** 2
    exact = [float(num(v)) for v in mu.coordinate_variances(c, x)]
    assert np.allclose(var, exact, rtol=1e-10, atol=0)


def test_mse_exact_averages_users():
    c = [LOG3, LOG3 + LOG2]
    xs = [[0, 0], [1, Fraction(1, 2)]]
    per = [sum(mu.coordinate_variances(c, x)) for x in xs]
    assert sympy.simplify(mu.mse_exact(c, xs) - (per[0] + per[1]) / 4) == 0
    assert sympy.simplify(mu.mse_sup(c, 2) - per[0] / 2) == 0
    assert num(mu.mse_exact(c, xs)) < num(mu.mse_sup(c, 2))  # x = 0 is the sup


# -- eq. (17) --------------------------------------------------------------------------------------

def test_ratio_reproduces_issue_estimates():
    """The issue's rough estimates (7, 10, 149 at eps = 1, 2, 10; d = 10, c = eps), from outside the code."""
    for eps, rough in (("1", 7), ("2", 10), ("10", 149)):
        c = allocate_budgets([int(sympy.Rational(eps)) + 1] * 10, eps, 0, 1).c_sorted
        assert all(v == sympy.Rational(eps) for v in c)
        r = float(num(mu.eq17_ratio(c)))
        assert abs(r - rough) < 0.05 * rough


def test_ratio_closed_form_uniform():
    """c = eps 1: V/S = pi coth(eps/2)^2 (Gamma((d+1)/2)/Gamma(d/2))^2 eps^2/d (mpmath oracle), and
    it exceeds any fixed constant as eps grows."""
    for d in (2, 7):
        for eps in (sympy.Rational(1, 5), sympy.Integer(3), sympy.Integer(1000)):
            with mpmath.workdps(50):
                e = mpmath.mpf(int(eps.p)) / int(eps.q)
                oracle = mpmath.pi * mpmath.coth(e / 2) ** 2 * (mpmath.gamma(mpmath.mpf(d + 1) / 2)
                                                                 / mpmath.gamma(mpmath.mpf(d) / 2)) ** 2 * e ** 2 / d
                got = num(mu.eq17_ratio([eps] * d))
                assert abs(got - oracle) < mpmath.mpf(10) ** -40 * oracle
    assert num(mu.eq17_ratio([1000] * 3)) > 10 ** 6


def test_corrected_bound_holds_and_wrong_constant_fails():
    cases = [allocate_budgets(["0.2", "0.2", "2", "2"], 2, q, "1/2").c_sorted for q in ("0", "1/10", "1/2")]
    cases += [[sympy.Integer(100)] * 4, [sympy.Rational(1, 10), sympy.Integer(3), sympy.Integer(50)]]
    for c in cases:
        assert num(mu.eq17_ratio(c)) <= num(mu.corrected_constant(c))
        n = 7
        assert num(mu.mse_sup(c, n)) <= num(mse_objective(list(c)) * mu.corrected_constant(c) / n)
        assert num(mu.corrected_bound(c, n)) <= 4 * len(c)
    # dropping b_max from the constant ((pi/2) 2^2 = 2 pi) fails at c = 100 1
    assert num(mu.eq17_ratio([100] * 4)) > 2 * mpmath.pi


# -- the projected lower bound: exact binomial enumeration at d = 1 --------------------------------

def projected_mse_d1(n: int) -> Fraction:
    """E min(nubar^2, 1), nubar = (1/n) sum of n i.i.d. +-2 (b = log 3, x = 0), exactly."""
    total = Fraction(0)
    for k in range(n + 1):
        nu = Fraction(2 * (2 * k - n), n)
        total += Fraction(math.comb(n, k), 2 ** n) * min(nu * nu, 1)
    return total


@pytest.mark.parametrize("n", [64, 200, 400])
def test_projected_lower_bound_d1(n):
    exact = projected_mse_d1(n)
    lb = mu.uniform_projected_lower_bound(1, LOG3, n)
    assert sympy.nsimplify(lb).is_rational
    lb = Fraction(str(sympy.nsimplify(lb)))
    assert lb <= exact
    assert lb >= exact / 2 or n < 100       # informative for large n
    assert Fraction(4, n) > exact            # the wrong variant s/n (no fourth-moment term) is not a lower bound


def test_projected_lower_bound_refutes_eq17():
    n = 10 ** 6
    lb = num(mu.uniform_projected_lower_bound(10, 10, n))
    rhs = min(mpmath.mpf(100) / 100 / n, 10)  # (1/n) S ^ d with S = d^2/eps^2
    assert lb / rhs > 140
