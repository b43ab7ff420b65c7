"""Seeded, vectorised simulation of the binary Hadamard response (thesis Sec. 7.3.2, Sec. 7.7), floats.

Float twin of :mod:`bcdp.randomness.hadamard` (same notation: ``K = 2^ceil(log2 k)``, groups
``0..K-1``, ``E = e^eps``).  Users of group ``j`` draw ``X ~ p`` i.i.d. and send ``Y ~ Bern(s_j)``
with ``s_j = q/E + p(B_j) q (E-1)/E`` (7.29), so the number of ones of a group of ``m`` users is
exactly ``Binomial(m, s_j)``: :func:`sample_counts` draws these ``K`` counts per run (no loop over
users).  Groups have ``m = floor(n/K)`` users (``split="floor"``, the ``n mod K`` others are left
out) or ``n / K`` (``split="exact"``, requires ``K | n``).

:func:`estimate_float` is the estimator (7.29)-(7.31) (a fast Walsh-Hadamard transform for ``H_K``)
followed by a post-processing the thesis does not state (Sec. 7.7):

- ``"raw"``: the unbiased ``p_hat`` itself;
- ``"clip"``: negative entries set to 0, then renormalised to sum 1 (uniform if all are <= 0);
  this is the reading that reproduces Fig 7.7's printed numbers;
- ``"project"``: Euclidean projection onto the probability simplex.

``coordinates="first_k"`` keeps the first ``k`` coordinates (an estimate of ``p in Delta_k``)
before the post-processing; ``"all"`` keeps all ``K``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_float_input
from bcdp.randomness.hadamard import COORDINATES, MAX_K, MAX_N, SPLITS, hadamard_size

POSTS = ("raw", "clip", "project")
#: Largest number of runs drawn at once.
MAX_RUNS = 10_000
#: Largest count array ``runs x K`` drawn at once (2^24 cells, 128 MB of int64).
MAX_CELLS = 2 ** 24


def _pmf_float(p: Any) -> np.ndarray:
    arr = np.asarray(p, dtype=float)
    if arr.ndim != 1 or arr.size == 0 or arr.size > MAX_K:
        raise InvalidInputError(f"p must be a 1-d array of 1..{MAX_K} probabilities")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or abs(arr.sum() - 1) > 1e-9:
        raise InvalidInputError("p must hold finite non-negative probabilities summing to 1")
    return arr


def _params(q: Any, e_eps: Any) -> tuple[float, float]:
    qq = to_float_input(q, "q")
    e = to_float_input(e_eps, "e_eps")
    if not 0 < qq <= 1:
        raise InvalidInputError(f"q must be in (0, 1], got {qq!r}")
    if not e > 1:
        raise ValidityConditionError(f"e_eps must be > 1 (eps > 0), got {e!r}")
    return qq, e


def fwht(x: np.ndarray) -> np.ndarray:
    """``x @ H_K`` along the last axis (Sylvester ``H_K[x][j] = (-1)^popcount(x & j)``, symmetric),
    ``K`` a power of 2: the fast Walsh-Hadamard transform, vectorised over leading axes."""
    arr = np.array(x, dtype=float)
    size = arr.shape[-1]
    if size & (size - 1):
        raise InvalidInputError(f"the last axis must have a power-of-2 length, got {size}")
    lead = arr.shape[:-1]
    h = 1
    while h < size:
        arr = arr.reshape(lead + (size // (2 * h), 2, h))
        a, b = arr[..., 0, :], arr[..., 1, :]
        arr = np.stack([a + b, a - b], axis=-2)
        h *= 2
    return arr.reshape(lead + (size,))


def one_rates_float(p: Any, q: Any, e_eps: Any) -> np.ndarray:
    """``s_j`` of (7.29) for all ``K`` groups (float twin of :func:`bcdp.randomness.hadamard.one_rates`)."""
    probs = _pmf_float(p)
    qq, e = _params(q, e_eps)
    big_k = hadamard_size(probs.size)
    padded = np.zeros(big_k)
    padded[:probs.size] = probs
    masses = (fwht(padded) + 1.0) / 2.0  # (7.30): p(B) = (H_K p + 1)/2
    return np.clip(qq / e + masses * qq * (e - 1) / e, 0.0, 1.0)


def group_size_float(n: Any, big_k: int, split: str = "floor") -> int:
    """Users per group (see the module doc); ``m >= 1`` required."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidInputError(f"n must be an integer, got {n!r}")
    n = int(n)
    if split not in SPLITS:
        raise InvalidInputError(f"split must be one of {SPLITS}, got {split!r}")
    if not big_k <= n <= MAX_N:
        raise ValidityConditionError(f"n must be in [K, {MAX_N}] = [{big_k}, {MAX_N}], got {n}")
    if split == "exact" and n % big_k:
        raise ValidityConditionError(f"K = {big_k} does not divide n = {n}; use split='floor'")
    return n // big_k


def sample_counts(p: Any, n: Any, q: Any, e_eps: Any, runs: Any, rng: np.random.Generator,
                  split: str = "floor") -> tuple[np.ndarray, int]:
    """``(counts, m)``: ``counts[r, j] ~ Binomial(m, s_j)`` independently, ``runs`` rows, from the
    seeded generator ``rng`` (equivalent in law to simulating the ``m K`` users one by one)."""
    if not isinstance(rng, np.random.Generator):
        raise InvalidInputError("rng must be a numpy Generator (np.random.default_rng(seed))")
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise InvalidInputError(f"runs must be an integer in [1, {MAX_RUNS}], got {runs!r}")
    s = one_rates_float(p, q, e_eps)
    if runs * s.size > MAX_CELLS:
        raise InvalidInputError(f"runs x K = {runs} x {s.size} exceeds {MAX_CELLS} cells; use fewer runs per call")
    m = group_size_float(n, s.size, split)
    return rng.binomial(m, np.broadcast_to(s, (runs, s.size))), m


def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of each row of ``v`` onto the probability simplex (sort-based)."""
    arr = np.atleast_2d(np.asarray(v, dtype=float))
    u = -np.sort(-arr, axis=-1)
    css = np.cumsum(u, axis=-1) - 1.0
    idx = np.arange(1, arr.shape[-1] + 1)
    cond = u - css / idx > 0
    rho = arr.shape[-1] - 1 - np.argmax(cond[..., ::-1], axis=-1)
    theta = np.take_along_axis(css, rho[..., None], axis=-1) / (rho[..., None] + 1.0)
    return np.maximum(arr - theta, 0.0).reshape(np.shape(v))


def clip_renormalise(v: np.ndarray) -> np.ndarray:
    """Negative entries to 0, then each row divided by its sum (uniform when the sum is 0)."""
    arr = np.maximum(np.asarray(v, dtype=float), 0.0)
    tot = arr.sum(axis=-1, keepdims=True)
    uniform = np.full_like(arr, 1.0 / arr.shape[-1])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(tot > 0, arr / np.where(tot > 0, tot, 1.0), uniform)


def estimate_float(counts: Any, m: Any, q: Any, e_eps: Any, k: Any, post: str = "raw",
                   coordinates: str = "first_k") -> np.ndarray:
    """The estimator (7.29)-(7.31) on each row of ``counts`` (``K`` group counts of ``m`` users),
    then ``post`` (see the module doc) on the kept ``coordinates``."""
    arr = np.asarray(counts, dtype=float)
    qq, e = _params(q, e_eps)
    if post not in POSTS:
        raise InvalidInputError(f"post must be one of {POSTS}, got {post!r}")
    if coordinates not in COORDINATES:
        raise InvalidInputError(f"coordinates must be one of {COORDINATES}, got {coordinates!r}")
    big_k = hadamard_size(k)
    if arr.shape[-1] != big_k:
        raise InvalidInputError(f"counts must have K = {big_k} columns, got {arr.shape[-1]}")
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise InvalidInputError(f"m must be a positive integer, got {m!r}")
    s_hat = arr / m
    p_b = e / (qq * (e - 1)) * (s_hat - qq / e)
    p_hat = fwht(2.0 * p_b - 1.0) / big_k  # (7.31): H_K^{-1} = H_K / K
    if coordinates == "first_k":
        p_hat = p_hat[..., :k]
    if post == "clip":
        return clip_renormalise(p_hat)
    if post == "project":
        return project_simplex(p_hat)
    return p_hat


def simulate_errors(p: Any, n: Any, q: Any, e_eps: Any, runs: Any, seed: Any, post: str = "clip",
                    coordinates: str = "first_k", split: str = "floor") -> dict[str, np.ndarray]:
    """Per-run ``l1`` and squared ``l2`` errors of the post-processed estimate against ``p`` (padded
    with zeros for ``coordinates="all"``), from ``np.random.default_rng(seed)``."""
    probs = _pmf_float(p)
    rng = np.random.default_rng(seed)
    counts, m = sample_counts(probs, n, q, e_eps, runs, rng, split)
    est = estimate_float(counts, m, q, e_eps, probs.size, post, coordinates)
    truth = np.zeros(est.shape[-1])
    truth[:min(probs.size, truth.size)] = probs[:truth.size]
    diff = est - truth
    return {"l1": np.abs(diff).sum(axis=-1), "l2sq": (diff ** 2).sum(axis=-1), "m": np.int64(m)}
