"""Theorem 2's estimate Pi((1/n) sum_j M_mean(x^(j), c)) (BCDP paper, Sec. 4; Mechanism 1) with a
deterministic channel: the identity channel (y = x) makes every stage report x exactly, so Mechanism 1's
weighted average is x and the estimate is the clipped column mean of x, computed here in Fractions.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.bayesian import mechanisms


def _identity_channel(x_block, eps, radius, rng):
    return np.array(x_block, dtype=float)


def test_private_mean_is_the_clipped_column_mean_under_the_identity_channel():
    x = np.array([[0.5, -0.25, 1.0], [0.25, -0.75, 0.5]])          # n = 2 users, d = 3 coordinates
    rng = np.random.default_rng(0)
    got = mechanisms.private_mean(x, [0.5, 1.0, 1.5], rng, _identity_channel)
    want = [float(sum(F(v) for v in col) / 2) for col in x.T]     # 3/8, -1/2, 3/4: inside [-1, 1]
    assert got.shape == (3,)
    assert got.tolist() == pytest.approx(want, abs=1e-15)   # num/den of Mechanism 1: rounding only


def test_private_mean_projects_onto_the_box():
    def triple(x_block, eps, radius, rng):
        return 3.0 * np.array(x_block, dtype=float)
    x = np.array([[0.5, -0.5], [0.5, 0.1], [0.5, -0.5]])          # n = 3, d = 2; means 1.5 and -0.9 after x3
    got = mechanisms.private_mean(x, [1.0, 2.0], np.random.default_rng(0), triple)
    assert got.shape == (2,)
    assert got.tolist() == pytest.approx([1.0, float(3 * (F(-0.5) + F(0.1) + F(-0.5)) / 3)], abs=1e-15)
