"""Float twins of :mod:`bcdp.dme.user_level` (thesis Algs 3.7.2-3.7.3) against exact laws, seeded.

The range-failure rate of the vectorised sampler is compared with the exact probability of
:func:`range_failure_probability` (itself checked by full enumeration in the exact tests) with the
Hoeffding bound 2 exp(-2 T t^2) = alpha = 1e-6; Mean_scalar's average over runs is compared with the
exact mean x_bar with a Hoeffding bound on the bounded per-run estimates.  Wrong variants (the law at
E^2, a biased second stage) are rejected by the same bounds.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.dme import user_level as ul

ALPHA = 1e-6


@pytest.mark.parametrize("ys, E, E_wrong", [
    ((F(-7, 2), F(-3, 2), F(1, 4), F(2)), F(2), F(9)),
    ((F(1, 2),) * 3 + (F(5, 2),) * 3, F(9), F(81)),
])
def test_range_failure_rate_matches_exact_probability(ys, E, E_wrong):
    rng = np.random.default_rng(371)
    T = 200_000
    exact = float(ul.range_failure_probability(ys, 4, 1, E)["lowest_index"])
    fails = ul.range_failure_rate_float([float(y) for y in ys], 4, 1, float(E), rng, T)
    t = math.sqrt(math.log(2 / ALPHA) / (2 * T))
    assert abs(fails / T - exact) <= t
    wrong = float(ul.range_failure_probability(ys, 4, 1, E_wrong)["lowest_index"])
    assert abs(fails / T - wrong) > t


def test_nearest_bin_float_matches_exact():
    ys = [F(i, 4) for i in range(-16, 17)]
    assert list(ul.nearest_bin_float([float(y) for y in ys], 4, 1)) == [ul.nearest_bin(y, 4, 1) for y in ys]


def test_mean_scalar_float_is_unbiased_when_the_range_always_covers():
    """Every user mean is 0, a bin boundary covered by every possible range (B = 4, tau = 1), so x_hat is
    unbiased for x_bar = 0 whatever a_max is; |x_hat| <= |o| + h c <= 3 + 3c per run."""
    rng = np.random.default_rng(3710)
    samples = np.array([[0.5, -0.5], [1.0, -1.0], [0.0, 0.0], [-4.0, 4.0]] * 5)
    Eh, runs = 3.0, 3000
    c = (Eh + 1) / (Eh - 1)
    vals = np.array([ul.mean_scalar_float(samples, 4, 1, Eh, rng) for _ in range(runs)])
    t = (3 + 3 * c) * math.sqrt(2 * math.log(2 / ALPHA) / runs)
    assert abs(vals.mean()) <= t
    assert abs(vals.mean() - 1.0) > t  # a variant biased by 1 would be rejected


def test_float_inputs_are_checked():
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError):
        ul.mean_scalar_float(np.array([[5.0]]), 4, 1, 3, rng)
    with pytest.raises(InvalidInputError):
        ul.range_failure_rate_float([0.0], 3, 1, 3, rng, 10)
    with pytest.raises(WrongTypeError):
        ul.range_failure_rate_float([0.0], 4, 1, 3, None, 10)
