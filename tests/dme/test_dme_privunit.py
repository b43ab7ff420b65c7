"""PrivUnit2 ([BDF18] Alg. 1): scale against 50-digit mpmath quadrature, float twin, exact epsilon, Monte Carlo.

Oracles written here: m = E<V, u> = p E[T | T >= gamma] + (1-p) E[T | T < gamma] with T = <V, u> of
density proportional to (1 - t^2)^{(d-3)/2} on [-1, 1], by mpmath.quad at 50 digits (independent of
the incomplete-beta form of the library); the cap mass by the same quadrature.  Monte Carlo of the
library sampler: fixed seed, Hoeffding bounds at total failure probability 1e-6.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.dme.privunit import (
    privunit_best_float, privunit_cap_mass_mp, privunit_epsilon_float, privunit_mse_float, privunit_sample_float,
    privunit_scale_float, privunit_scale_mp, privunit_variance_mp,
)

ALPHA = 1e-6
CASES = [(4, "0", "3/5"), (3, "1/3", "3/4"), (5, "1/10", "2/3"), (10, "1/2", "9/10"), (40, "1/20", "3/5")]


def _mp(s):
    q = Fraction(s)
    return mpmath.mpf(q.numerator) / q.denominator


def _quad_parts(d, gamma):
    """(cap mass q, E[T | T >= gamma], E[T | T < gamma]) for T = <V, u>, V uniform on S^{d-1}, by quadrature."""
    with mpmath.workdps(60):
        g = _mp(gamma)
        dens = lambda t: (1 - t * t) ** (mpmath.mpf(d - 3) / 2)  # noqa: E731
        top_mass, low_mass = mpmath.quad(dens, [g, 1]), mpmath.quad(dens, [-1, g])
        top_mean = mpmath.quad(lambda t: t * dens(t), [g, 1]) / top_mass
        low_mean = mpmath.quad(lambda t: t * dens(t), [-1, g]) / low_mass
        return top_mass / (top_mass + low_mass), top_mean, low_mean


def _quad_oracle(d, gamma, p):
    q, top, low = _quad_parts(d, gamma)
    with mpmath.workdps(60):
        return _mp(p) * top + (1 - _mp(p)) * low, q


@pytest.mark.parametrize("d,gamma,p", CASES)
def test_scale_and_cap_mass_against_quadrature(d, gamma, p):
    m_oracle, q_oracle = _quad_oracle(d, gamma, p)
    m = privunit_scale_mp(d, gamma, p, dps=50)
    _, top, _ = _quad_parts(d, gamma)
    with mpmath.workdps(60):
        tol = mpmath.mpf(10) ** -40
        assert abs(m - m_oracle) <= tol * abs(m_oracle)
        assert abs(privunit_cap_mass_mp(d, gamma) - q_oracle) <= tol
        assert abs(privunit_variance_mp(d, gamma, p) - (1 / m_oracle ** 2 - 1)) <= tol / m_oracle ** 2
        assert abs(privunit_scale_float(d, float(Fraction(gamma)), float(Fraction(p))) - m_oracle) <= 1e-12 * m_oracle
        # a wrong variant (dropping the off-cap term (1-p) E[T | T < gamma]) fails the same comparison
        assert abs(m - _mp(p) * top) > tol * abs(m_oracle)


def test_float_twin_large_d_and_epsilon():
    for d, g, p in ((300, "1/50", "3/5"), (1000, "1/100", "4/5")):
        m_mp = privunit_scale_mp(d, g, p, dps=50)
        gf, pf = float(Fraction(g)), float(Fraction(p))
        assert abs(privunit_scale_float(d, gf, pf) - float(m_mp)) <= 1e-10 * float(m_mp)
        assert abs(privunit_mse_float(d, gf, pf, 2.0) - 4 * float(1 / m_mp ** 2 - 1)) <= 1e-9 * 4 * float(1 / m_mp ** 2)
        # exact epsilon: worst density ratio (p/A_cap)/((1-p)/A_rest) = p/(1-p) (1-q)/q, q from quadrature
        _, q = _quad_oracle(d, g, p)
        eps = math.log(pf / (1 - pf)) + float(mpmath.log((1 - q) / q))
        assert abs(privunit_epsilon_float(d, gf, pf) - eps) <= 1e-10 * eps
    for d in (300, 1000):
        for e in (0.5, 2.0, 8.0):
            best = privunit_best_float(d, e)
            assert abs(best["eps_exact"] - e) <= 1e-9 * e
            assert abs(best["mse"] - float(privunit_variance_mp(d, str(best["gamma"]), str(best["p"])))) <= 1e-8 * best["mse"]
            # the tuned split is no worse than the two ends of its grid (all of eps on p, or on gamma)
            assert 0 < best["lam"] < 1 and 0 <= best["gamma"] < 1 and 0.5 <= best["p"] < 1


def test_monte_carlo_sampler():
    d, gamma, p = 5, 1 / 3, 3 / 4
    rng = np.random.default_rng(2024)
    N = 200_000
    u = np.zeros((N, d))
    u[:, 0] = 1.0
    Z = privunit_sample_float(rng, u, gamma, p)
    m = float(privunit_scale_mp(d, "1/3", "3/4"))
    k = d + 2  # quantities tested, union bound
    t = lambda width: width * math.sqrt(math.log(2 * k / ALPHA) / (2 * N))  # noqa: E731
    assert np.all(np.abs(Z.mean(axis=0) - u[0]) <= t(2 / m))               # unbiased, |Z_j| <= 1/m
    err = ((Z - u) ** 2).sum(axis=1)
    exact_var = 1 / m ** 2 - 1
    assert abs(err.mean() - exact_var) <= t(4 / m)                          # range of ||Z-u||^2 is 4/m
    in_cap = (Z[:, 0] * m >= gamma - 1e-12).mean()
    assert abs(in_cap - p) <= t(1.0)
    assert np.allclose(np.linalg.norm(Z, axis=1) * m, 1.0)
    # wrong variant: the scale without the off-cap term, m' = p E[T | cap], gives a variance the
    # same Monte Carlo rejects
    _, top, _ = _quad_parts(d, "1/3")
    m_wrong = float(mpmath.mpf(3) / 4 * top)
    assert abs(err.mean() - (1 / m_wrong ** 2 - 1)) > t(4 / m)


def test_validity_boundaries():
    privunit_scale_mp(4, 0, "51/100")
    with pytest.raises(ValidityConditionError):
        privunit_scale_mp(4, 0, "1/2")  # p = cap mass 1/2: m = 0, eps = 0
    with pytest.raises(ValidityConditionError):
        privunit_scale_float(4, 0.0, 0.5)
    with pytest.raises(ValidityConditionError):
        privunit_scale_mp(4, 1, "1/2")
    with pytest.raises(ValidityConditionError):
        privunit_scale_mp(4, "1/3", "49/100")
    with pytest.raises(ValidityConditionError):
        privunit_scale_mp(4, "1/3", 1)
    privunit_scale_mp(4, "99/100", "99/100")
    with pytest.raises(FloatRefusedError):
        privunit_scale_mp(4, 0.3, "1/2")
    with pytest.raises(InvalidInputError):
        privunit_scale_mp(1, 0, "1/2")
    with pytest.raises(ValidityConditionError):
        privunit_best_float(10, 0.0)
    with pytest.raises(InvalidInputError):
        privunit_sample_float(np.random.default_rng(0), np.ones((2, 3)), 0.1, 0.6)
