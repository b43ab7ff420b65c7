"""bcdp.randomness.hadamard_sim (float twin of Sec. 7.3.2): the transform against the Sylvester matrix,
the rates against the exact (7.29), noise-free inversion, a seeded Monte Carlo of the mean squared error
against the exact risk (5 standard errors: false-failure rate below 1e-6), the simplex projection against
its KKT conditions, and bad inputs."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.randomness import hadamard as hr
from bcdp.randomness import hadamard_sim as hs


def test_fwht_is_multiplication_by_sylvester():
    rng = np.random.default_rng(0)
    for K in (1, 2, 4, 8, 32):
        x = rng.normal(size=(3, K))
        H = np.array(hr.sylvester(K), dtype=float)
        assert np.allclose(hs.fwht(x), x @ H, atol=1e-12)


def test_rates_match_the_exact_ones():
    p = (F(1, 5), F(3, 10), F(1, 2), F(0), F(0))
    q, E = F(2, 7), F(5, 2)
    exact = [float(s) for s in hr.one_rates(p, q, E)]
    assert np.allclose(hs.one_rates_float([float(x) for x in p], float(q), float(E)), exact, rtol=1e-13)


def test_noise_free_counts_invert_to_p():
    k = 11
    p = np.arange(1, k + 1, dtype=float)
    p /= p.sum()
    q, E, m = 0.3, 2.0, 7
    s = hs.one_rates_float(p, q, E)
    est = hs.estimate_float(m * s, m, q, E, k, "raw", "all")
    assert np.allclose(est[:k], p, atol=1e-12) and np.allclose(est[k:], 0, atol=1e-12)


def test_monte_carlo_mean_squared_error_matches_exact_risk():
    p = (F(1, 10), F(1, 5), F(3, 10), F(2, 5), F(0), F(0))  # k = 6, K = 8
    q, E = F(1, 4), F(3)
    n = 8 * 50
    runs = 10000
    for coord in ("all", "first_k"):
        exact = float(hr.exact_risk(p, n, q, E, coordinates=coord))
        out = hs.simulate_errors([float(x) for x in p], n, float(q), float(E), runs, 12345, "raw", coord, "exact")
        err = out["l2sq"]
        se = err.std(ddof=1) / np.sqrt(runs)
        assert abs(err.mean() - exact) < 5 * se, (coord, err.mean(), exact, se)


def test_projection_satisfies_kkt():
    rng = np.random.default_rng(1)
    v = rng.normal(size=(50, 9)) * 0.5 + 0.1
    w = hs.project_simplex(v)
    assert np.all(w >= 0) and np.allclose(w.sum(axis=1), 1)
    for vi, wi in zip(v, w):
        supp = wi > 0
        theta = (vi - wi)[supp]
        assert np.allclose(theta, theta[0], atol=1e-12)
        assert np.all(vi[~supp] <= theta[0] + 1e-12)


def test_clip_renormalise():
    out = hs.clip_renormalise(np.array([[0.5, -0.2, 1.5], [-1.0, -2.0, 0.0]]))
    assert np.allclose(out, [[0.25, 0.0, 0.75], [1 / 3, 1 / 3, 1 / 3]])


def test_seeded_and_vectorised():
    p = np.full(1000, 1e-3)
    a = hs.simulate_errors(p, 150_000, 0.7, np.e, 20, 5)
    b = hs.simulate_errors(p, 150_000, 0.7, np.e, 20, 5)
    assert np.array_equal(a["l1"], b["l1"]) and a["l1"].shape == (20,) and int(a["m"]) == 150_000 // 1024


def test_bad_inputs():
    p = np.array([0.5, 0.5])
    with pytest.raises(ValidityConditionError, match="does not divide"):
        hs.simulate_errors(p, 5, 0.5, 2.0, 2, 0, split="exact")
    with pytest.raises(ValidityConditionError):
        hs.simulate_errors(p, 1, 0.5, 2.0, 2, 0)
    with pytest.raises(ValidityConditionError, match="e_eps"):
        hs.simulate_errors(p, 10, 0.5, 1.0, 2, 0)
    with pytest.raises(InvalidInputError, match="post"):
        hs.simulate_errors(p, 10, 0.5, 2.0, 2, 0, post="round")
    with pytest.raises(InvalidInputError, match="summing to 1"):
        hs.simulate_errors(np.array([0.5, 0.6]), 10, 0.5, 2.0, 2, 0)
    with pytest.raises(InvalidInputError, match="runs"):
        hs.sample_counts(p, 10, 0.5, 2.0, 0, np.random.default_rng(0))
    with pytest.raises(InvalidInputError, match="power-of-2"):
        hs.fwht(np.zeros(3))
