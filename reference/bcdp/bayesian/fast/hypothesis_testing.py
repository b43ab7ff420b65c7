"""float64 hypothesis-testing view: Neyman-Pearson trade-off curve and the smallest delta of eq. (12).

BCDP paper, Proposition 2 and Theorem 1 (eq. 12); float twins of
:func:`bcdp.bayesian.hypothesis_testing.neyman_pearson_curve` and of the smallest delta
``max_y log p1(y)/p0(y)`` (log-ratios computed precisely, :func:`bcdp.bayesian.fast.log_ratios.log_ratio`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bcdp.bayesian.fast.log_ratios import log_ratio
from bcdp.bayesian.fast.validation import FastParameter, tolerance, validate_law
from bcdp.core.errors import InvalidInputError


def _likelihood_keys(p0: np.ndarray, p1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Class (0: p0=0<p1, 1: p0>0, 2: 0/0) and log(p1/p0) for class 1 (-inf when p1 = 0)."""
    cls = np.where(p0 > 0, 1, np.where(p1 > 0, 0, 2))
    key = np.zeros(p0.shape)
    both = (p0 > 0) & (p1 > 0)
    key[both] = log_ratio(p1[both], p0[both])
    key[(p0 > 0) & (p1 == 0)] = -np.inf
    return cls, key


def neyman_pearson_curve_fast(null_law: Any, alt_law: Any, tie_tol: float = 1e-12,
                              atol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """Vertices ``(alpha, beta)`` of the optimal trade-off curve of H0: Y ~ null_law against
    H1: Y ~ alt_law (Neyman-Pearson): outputs enter the rejection region by decreasing likelihood
    ratio ``p1/p0`` (infinite first); ratios whose logs differ by at most
    ``tie_tol * max(1, |log ratio|)`` are one segment.

    The first vertex is ``(0, 1)``.  Outputs with ``p0 = p1 = 0`` do not move the curve and give
    no vertex (the exact :func:`bcdp.bayesian.hypothesis_testing.neyman_pearson_curve` repeats the last
    vertex for them).  ``beta`` is computed as the remaining alternative mass (a suffix sum), so
    small type II errors keep their relative precision.
    """
    tie_tol = tolerance(tie_tol, "tie_tol")
    p0 = validate_law(null_law, "null_law", atol)
    p1 = validate_law(alt_law, "alt_law", atol)
    if p0.shape != p1.shape:
        raise InvalidInputError(f"the two laws must be over the same outputs: {p0.size} != {p1.size}")
    cls, key = _likelihood_keys(p0, p1)
    keep = cls < 2
    idx = np.flatnonzero(keep)
    order = idx[np.lexsort((-key[idx], cls[idx]))]
    c_s, k_s = cls[order], key[order]
    q0, q1 = p0[order], p1[order]
    n = order.size
    if n == 0:
        return np.array([0.0]), np.array([1.0])
    with np.errstate(invalid="ignore"):
        same = (c_s[1:] == c_s[:-1]) & (
            (k_s[1:] == k_s[:-1])
            | (np.abs(k_s[1:] - k_s[:-1]) <= tie_tol * np.maximum(1.0, np.abs(k_s[:-1]))))
    ends = np.flatnonzero(np.append(~same, True))  # last index of each tie group
    alpha = np.cumsum(q0)[ends]
    suffix = np.cumsum(q1[::-1])[::-1]  # suffix[k] = sum_{j >= k} q1[j]
    beta = np.append(suffix[1:], 0.0)[ends]
    return np.concatenate(([0.0], alpha)), np.concatenate(([1.0], beta))


def smallest_delta_fast(null_law: Any, alt_law: Any, atol: float = 1e-9) -> FastParameter:
    """Smallest delta >= 0 with ``e^delta alpha + beta >= 1`` for every test (Theorem 1, eq. 12):
    ``max_y log p1(y)/p0(y)`` (infinite if some ``p0(y) = 0 < p1(y)``; 0/0 skipped).

    Witness ``{"output": y}``.  The value is clamped at 0 (for two pmfs the maximum is >= 0 up
    to rounding); witness None when every output is 0/0.
    """
    p0 = validate_law(null_law, "null_law", atol)
    p1 = validate_law(alt_law, "alt_law", atol)
    if p0.shape != p1.shape:
        raise InvalidInputError(f"the two laws must be over the same outputs: {p0.size} != {p1.size}")
    inf = (p0 == 0) & (p1 > 0)
    if inf.any():
        return FastParameter(math.inf, {"output": int(np.argmax(inf))})
    both = (p0 > 0) & (p1 > 0)
    if not both.any():
        return FastParameter(0.0, None)
    vals = np.full(p0.shape, -np.inf)
    vals[both] = log_ratio(p1[both], p0[both])
    y = int(np.argmax(vals))
    return FastParameter(max(0.0, float(vals[y])), {"output": y})
