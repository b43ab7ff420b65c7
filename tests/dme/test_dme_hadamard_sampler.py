"""The float64 sampler and aggregator of R^{l1} (thesis Alg 3.4.1) against the exact law.

Property tests with a fixed seed: the empirical law of the messages (j, s) passes a chi-square
goodness-of-fit test against the exact law (:func:`oracle_probabilities`, eq. (3.13) recomputed here
from the closed-form Hadamard entries) at false-failure rate alpha = 1e-6, and the same statistic
rejects the law of a deliberately wrong variant (the law at E^2).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.dme import hadamard as hd
from scipy.stats import chi2

ALPHA = 1e-6
N = 200_000


def oracle_probabilities(x, r1, E) -> np.ndarray:
    """P[(j, s)] as a (D, 2) array (columns s = +1, -1), from (3.13) with H[i][j] = (-1)^{popcount(i&j)}."""
    d = len(x)
    D = 1 << (d - 1).bit_length()
    c = (F(E) + 1) / (F(E) - 1)
    out = np.empty((D, 2))
    for j in range(D):
        t = sum(F(x[i]) * (-1) ** bin(i & j).count("1") for i in range(d))
        pp = (F(1, 2) + t / (2 * F(r1) * c)) / D
        out[j] = float(pp), float(F(1, D) - pp)
    return out


def chi_square_p(counts: np.ndarray, probs: np.ndarray) -> float:
    expected = probs.ravel() * counts.sum()
    stat = float((((counts.ravel() - expected) ** 2) / expected).sum())
    return float(chi2.sf(stat, counts.size - 1))


def empirical(j, s, D) -> np.ndarray:
    counts = np.zeros((D, 2))
    np.add.at(counts, (j, (s == -1).astype(int)), 1)
    return counts


@pytest.mark.parametrize("x, r1, E", [
    ((F(1, 2), F(-1, 4), F(0), F(1, 8)), F(1), F(3)),
    ((F(1, 3), F(-2, 3), F(1, 2)), F(2), F(5, 2)),            # d = 3, padded to 4
    ((F(1), F(0), F(0), F(0), F(0), F(0), F(0), F(0)), F(1), F(2)),  # a vertex, d = 8
])
def test_sampler_law_matches_exact_law(x, r1, E):
    rng = np.random.default_rng(20240315)
    X = np.tile(np.array([float(v) for v in x]), (N, 1))
    j, s = hd.l1_hadamard_sample_float(X, float(r1), float(E), rng)
    D = hd.padded_dimension(len(x))
    counts = empirical(j, s, D)
    exact = oracle_probabilities(x, r1, E)
    library = np.array([[float(p) for p in (hd.l1_hadamard_law(x, r1, E)[(k, 1)],
                                            hd.l1_hadamard_law(x, r1, E)[(k, -1)])] for k in range(D)])
    assert np.allclose(library, exact, rtol=0, atol=1e-15)
    assert chi_square_p(counts, exact) > ALPHA
    # power: the law at E^2 is rejected by the same test on the same samples
    assert chi_square_p(counts, oracle_probabilities(x, r1, F(E) ** 2)) < ALPHA


def test_float_aggregator_equals_exact_aggregator_on_the_same_messages():
    rng = np.random.default_rng(7)
    x = np.array([[0.5, -0.25, 0.0], [0.1, 0.2, -0.3], [-1.0, 0.0, 0.0]] * 10)
    j, s = hd.l1_hadamard_sample_float(x, 1, 3, rng)
    exact = hd.l1_hadamard_aggregate([(int(a), int(b)) for a, b in zip(j, s)], 3, 1, 3)
    got = hd.l1_hadamard_aggregate_float(j, s, 3, 1, 3)
    assert np.allclose(got, [float(v) for v in exact], rtol=0, atol=1e-12)
    assert not np.allclose(hd.l1_hadamard_aggregate_float(j, -s, 3, 1, 3), [float(v) for v in exact])


def test_rows_get_their_own_column():
    """Different rows are randomised independently (vectorised, no shared j)."""
    rng = np.random.default_rng(3)
    j, s = hd.l1_hadamard_sample_float(np.zeros((1000, 16)), 1, 3, rng)
    assert len(np.unique(j)) == 16 and j.dtype == np.int64 and set(np.unique(s)) == {-1, 1}


def test_sampler_inputs():
    rng = np.random.default_rng(0)
    hd.l1_hadamard_sample_float(np.array([[0.5, -0.5]]), 1, 3, rng)                   # on the sphere
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_sample_float(np.array([[0.5, -0.5000001]]), 1, 3, rng)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_sample_float(np.array([[0.1]]), 1, 1, rng)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_sample_float(np.array([[np.nan]]), 1, 3, rng)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_sample_float(np.array([0.1, 0.2]), 1, 3, rng)
    with pytest.raises(WrongTypeError):
        hd.l1_hadamard_sample_float(np.array([[0.1]]), 1, 3, 42)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_aggregate_float(np.array([4]), np.array([1]), 3, 1, 3)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_aggregate_float(np.array([0]), np.array([0]), 3, 1, 3)
