"""Float twins of :mod:`bcdp.dme.user_level_vector` (thesis Remark 3.7.4) against exact laws, seeded.

* The vectorised Range messages of many users with the same rotated mean are compared with the exact
  product law (:func:`vector_range_user_law`, itself checked by the exact tests) by a chi-square test at
  false-failure rate alpha = 1e-6; the law at E_c^2 (a wrong budget) is rejected by the same test.
* The whole pipeline (rotation, Range, Mean, inverse rotation) on n concentrated users: ||x_hat - y_bar||_2
  is bounded with Hoeffding on each rotated coordinate of z_bar (each z_ic in [o - hC, o + hC]) and a union
  bound over d coordinates (alpha = 1e-6), plus the range failure probability, bounded by Thm 3.7.1's beta
  per coordinate (negligible here); a biased twin (no inverse rotation) fails the bound.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from scipy import stats
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.dme import l2
from bcdp.dme import user_level as ul
from bcdp.dme import user_level_vector as uv

ALPHA = 1e-6


def chi_square(counts: dict, law: dict, N: int) -> float:
    return sum((counts.get(o, 0) - N * float(p)) ** 2 / (N * float(p)) for o, p in law.items())


@pytest.mark.parametrize("w, B, tau, E", [((F(-3, 2), F(1, 2)), 2, 1, F(2)), ((F(5, 2), F(-1, 2)), 4, 1, F(3, 2))])
def test_range_messages_match_the_exact_product_law(w, B, tau, E):
    rng = np.random.default_rng(374)
    N = 200_000
    arr = np.tile(np.array([float(v) for v in w]), (N, 1))
    j, s = uv.vector_range_messages_float(arr, B, tau, float(E), rng)
    keys = [tuple((int(a), int(b)) for a, b in zip(jr, sr)) for jr, sr in zip(j.tolist(), s.tolist())]
    counts: dict = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    law = uv.vector_range_user_law(w, B, tau, E)
    crit = stats.chi2.isf(ALPHA, len(law) - 1)
    assert set(counts) <= set(law)
    assert chi_square(counts, law, N) <= crit
    wrong = uv.vector_range_user_law(w, B, tau, E * E)
    assert chi_square(counts, wrong, N) > crit


def test_pipeline_error_within_hoeffding_bound():
    rng = np.random.default_rng(3741)
    n, d, tau_c, B_c, E = 100_000, 4, 1.0, 4.0, 3.0
    signs = np.array([1.0, -1.0, 1.0, 1.0])
    y0 = np.array([0.3, -0.2, 0.5, 0.1])
    y = y0 + rng.uniform(-0.2, 0.2, size=(n, d))  # ||y_i - y0||_2 <= 0.4 <= tau_c: ||U(y_i - y0)||_inf <= tau_c
    w = l2.rotate_float(y, signs)
    assert np.all(np.abs(w) <= B_c)
    # range failure per coordinate <= beta of (3.49) at E_half = E (Lemma 3.7.1), union over d coordinates
    beta = d * float(ul.thm371_beta(n, 4, 1, F(3)))
    assert beta < 1e-30
    C = (E + 1) / (E - 1)
    h = 3 * tau_c
    t = h * C * math.sqrt(2 * math.log(2 * d / ALPHA) / n)  # per rotated coordinate of z_bar
    ybar = y.mean(axis=0)
    xhat = uv.mean_vector_float(y, signs, B_c, tau_c, E, rng)
    assert np.linalg.norm(xhat - ybar) <= math.sqrt(d) * t
    # bad twin: returning z_bar in rotated coordinates (no inverse rotation) is far off
    j, s = uv.vector_range_messages_float(w, B_c, tau_c, E, rng)
    lo, hi = uv.vector_range_float(j, s, B_c, tau_c, E)
    assert np.all((w >= lo) & (w <= hi))
    rotated = l2.rotate_float(xhat[None, :], signs)[0]
    assert np.linalg.norm(rotated - ybar) > math.sqrt(d) * t


def test_given_ranges_and_split_helper():
    rng = np.random.default_rng(7)
    assert math.isclose(uv.split_E_coord_float(1.0, 4), math.exp(1 / 8))
    y = np.zeros((10, 2))
    out = uv.mean_vector_float(y, np.array([1.0, 1.0]), 2, 1, 2.0, rng, ranges=(np.array([-3.0, -3.0]), np.array([3.0, 3.0])))
    assert out.shape == (2,)
    with pytest.raises(WrongTypeError):
        uv.mean_vector_float(y, np.array([1.0, 1.0]), 2, 1, 2.0, 7)
    with pytest.raises(InvalidInputError):
        uv.vector_range_messages_float(np.full((3, 2), 2.5), 2, 1, 2.0, rng)
    with pytest.raises(InvalidInputError):
        uv.vector_range_messages_float(y, 3, 1, 2.0, rng)
    with pytest.raises(InvalidInputError):
        uv.split_E_coord_float(0.0, 2)
