"""Seeded Monte Carlo of the batched elimination algorithms (thesis Sec. 6.6 data generation) and the
regret-growth fit used by the trend tests and Fig. 6.2.

Data (thesis Sec. 6.6): K actions and theta* drawn uniformly on the unit sphere S^{d-1} (normalised
standard Gaussians), one instance per seed (``np.random.default_rng(seed)``; the run itself draws from
``np.random.default_rng(seed + RUN_SEED_OFFSET)``).  Regret is the pseudo-regret (6.1) of
:func:`bcdp.bandits.elimination.run_elimination_float`.  These are estimates, never exact claims.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError

from . import elimination

__all__ = ["RUN_SEED_OFFSET", "loglog_slope_float", "mean_regrets_float", "random_instance_float"]

RUN_SEED_OFFSET = 10_000


def random_instance_float(K: int, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(actions K x d, theta* of length d), all uniform on S^{d-1} (thesis Sec. 6.6), from ``seed``."""
    for name, v in (("K", K), ("d", d), ("seed", seed)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise WrongTypeError(f"{name} must be an integer, got {type(v).__name__} {v!r}")
    if K < 1 or d < 1 or seed < 0:
        raise InvalidInputError(f"need K, d >= 1 and seed >= 0, got K = {K}, d = {d}, seed = {seed}")
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((K, d))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    th = rng.standard_normal(d)
    return a, th / np.linalg.norm(th)


def mean_regrets_float(model: str, T: int, seeds: Sequence[int], *, K: int = 10, d: int = 2,
                       eps: float | None = None, delta: float | None = None, sensitivity: float = 2.0,
                       caches: dict | None = None) -> np.ndarray:
    """The regrets of one run per seed (instance and run seeded as in the module docstring).
    ``caches`` (optional) maps a seed to the design cache of its instance, shared across calls."""
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, (Sequence, range, np.ndarray)):
        raise WrongTypeError(f"seeds must be a sequence of integers, got {type(seeds).__name__}")
    out = np.empty(len(seeds))
    for k, seed in enumerate(seeds):
        a, th = random_instance_float(K, d, seed)
        cache = None if caches is None else caches.setdefault((K, d, seed), {})
        res = elimination.run_elimination_float(a, th, T, model, eps=eps, delta=delta, sensitivity=sensitivity,
                                                rng=seed + RUN_SEED_OFFSET, design_cache=cache)
        out[k] = res.regret
    return out


def loglog_slope_float(horizons: Sequence[int], regrets: Any, *, confidence: float = 0.95) -> tuple[float, float, float]:
    """Least-squares slope of log(regret) on log(T), fitted per seed (``regrets[s][j]`` = regret of seed s
    at horizons[j]), and a Student-t confidence interval over the seeds: (mean, low, high)."""
    from scipy import stats

    r = np.asarray(regrets, dtype=float)
    x = np.log(np.asarray(horizons, dtype=float))
    if r.ndim != 2 or r.shape[1] != x.size or r.shape[0] < 2 or x.size < 2 or np.any(r <= 0):
        raise InvalidInputError("regrets must be a (seeds >= 2) x (horizons >= 2) array of positive values")
    xc = x - x.mean()
    slopes = (np.log(r) - np.log(r).mean(axis=1, keepdims=True)) @ xc / (xc @ xc)
    m = float(slopes.mean())
    half = float(stats.t.ppf((1 + confidence) / 2, slopes.size - 1) * slopes.std(ddof=1) / math.sqrt(slopes.size))
    return m, m - half, m + half
