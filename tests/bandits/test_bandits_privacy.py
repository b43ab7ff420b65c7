"""Privacy pieces of thesis Ch. 6 (bcdp.bandits.privacy): exact Laplace privacy loss vs a brute-force
oracle, the sensitivity erratum (App. E.1.1 (E.1), E.3.1), parallel composition, seeded samplers."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from bcdp.bandits import privacy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError


def grid_sup_log_ratio(s, t, b):
    """Oracle: the log density ratio (|y - t| - |y - s|)/b on a fine rational grid containing the
    breakpoints and points far outside (it is constant beyond them)."""
    lo, hi = min(s, t) - 10, max(s, t) + 10
    ys = [lo + (hi - lo) * Fraction(k, 400) for k in range(401)] + [Fraction(s), Fraction(t)]
    return max((abs(y - t) - abs(y - s)) / b for y in ys)


@pytest.mark.parametrize("s,t,b", [(1, -1, 1), (Fraction(3, 2), Fraction(-1, 3), Fraction(1, 2)), (0, 0, 3),
                                   (5, 2, Fraction(7, 3))])
def test_pair_epsilon_matches_grid_sup(s, t, b):
    assert privacy.laplace_pair_epsilon(s, t, b) == grid_sup_log_ratio(Fraction(s), Fraction(t), Fraction(b))


def test_pair_epsilon_vectors_add_coordinatewise():
    s, t = [1, "1/2", 0], [-1, "1/2", "3/4"]
    assert privacy.laplace_pair_epsilon(s, t, 2) == (2 + 0 + Fraction(3, 4)) / 2


def test_sensitivity_is_two_b_by_enumeration():
    grid = [Fraction(k, 4) for k in range(-4, 5)]
    assert privacy.reward_sensitivity(1) == max(abs(a - b) for a, b in itertools.product(grid, grid)) == 2
    assert privacy.reward_sensitivity("1/2") == 1


@pytest.mark.parametrize("eps", ["1/10", "1/2", 1, 4])
def test_printed_scale_gives_twice_eps_and_default_gives_eps(eps):
    e = Fraction(eps)
    # worst neighbouring pair r = 1, r' = -1 under Lap(1/eps): oracle on the grid
    assert privacy.batch_sums_epsilon(eps, sensitivity=privacy.PRINTED_SENSITIVITY) == \
        grid_sup_log_ratio(Fraction(1), Fraction(-1), 1 / e) == 2 * e
    assert privacy.local_randomizer_epsilon(eps, sensitivity=1) == 2 * e
    assert privacy.batch_sums_epsilon(eps) == e
    assert privacy.local_randomizer_epsilon(eps) == e
    assert privacy.laplace_scale(eps) == 2 / e


def test_reward_bound_half_makes_the_printed_scale_right():
    # rewards in [-1/2, 1/2] have sensitivity 1: the printed Lap(1/eps) is then eps-DP
    assert privacy.batch_sums_epsilon(1, sensitivity=1, reward_bound="1/2") == 1


def test_parallel_composition():
    assert privacy.parallel_composition(["1/2", 1, "1/3"]) == (1, 0)
    assert privacy.parallel_composition([("1/2", "1/100"), (1, "1/1000")]) == (1, Fraction(1, 100))
    with pytest.raises(InvalidInputError):
        privacy.parallel_composition([])
    with pytest.raises(InvalidInputError):
        privacy.parallel_composition([(1, 2)])


def test_bad_inputs():
    with pytest.raises(FloatRefusedError):
        privacy.batch_sums_epsilon(0.5)
    with pytest.raises(InvalidInputError, match="eps must be > 0"):
        privacy.batch_sums_epsilon(0)
    with pytest.raises(InvalidInputError, match="sensitivity must be > 0"):
        privacy.laplace_scale(1, sensitivity=0)
    with pytest.raises(InvalidInputError, match="same non-zero length"):
        privacy.laplace_pair_epsilon([1, 2], [1], 1)
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidInputError, match="reward_bound"):
        privacy.local_randomizer_float(np.array([0.5, 1.5]), 1.0, rng)
    with pytest.raises(WrongTypeError):
        privacy.local_randomizer_float(np.array([0.5]), 1.0, 0)
    with pytest.raises(InvalidInputError, match="action_index"):
        privacy.noisy_batch_sums_float(np.array([0.5]), np.array([3]), 2, 1.0, rng)


def test_batch_sums_sampler_mean_and_scale():
    """Seeded: n = 20000 draws of the noise; the Laplace(b) sample mean and mean |x| = b are checked
    with 6-sigma bounds (false-failure rate < 1e-8)."""
    rng = np.random.default_rng(2024)
    rewards = np.array([1.0, -0.5, 0.25, 1.0])
    idx = np.array([0, 1, 1, 2])
    n = 20000
    out = np.stack([privacy.noisy_batch_sums_float(rewards, idx, 3, 0.5, rng) for _ in range(n)])
    exact = np.array([1.0, -0.25, 1.0])
    noise = out - exact
    b = 2.0 / 0.5  # default sensitivity 2
    sd = np.sqrt(2) * b
    assert np.all(np.abs(noise.mean(axis=0)) < 6 * sd / np.sqrt(n))
    assert np.all(np.abs(np.abs(noise).mean(axis=0) - b) < 6 * b / np.sqrt(n))  # sd of |Lap(b)| is b
    local = privacy.local_randomizer_float(np.zeros(n), 2.0, rng, sensitivity=1.0)
    assert abs(np.abs(local).mean() - 0.5) < 6 * 0.5 / np.sqrt(n)
