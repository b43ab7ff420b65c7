"""Independent oracles shared by the audit tests (tests/audit/, tests/cli/test_audit_plan.py).

* :func:`refute_probability_lower` -- the exact binomial probability that the audit's LDP lower
  bound from one witness cell, log(CP_lower(k_num) / CP_upper(k_den)) with two-sided Clopper-Pearson
  ends at per-cell level ``level`` (scipy's beta quantiles), exceeds the claim, for
  k_num ~ Bin(n, p) and k_den ~ Bin(n, q): a lower bound on the probability of "violated".
* :func:`np_frontier` -- vertices of the Neyman-Pearson frontier of H0: p0 against H1: p1 in
  Fractions (outputs enter by decreasing ratio p1/p0, ties together).
* :func:`unit` and :func:`same_points` -- SVG points of a plot square back to the unit square, and
  set equality of points within a tolerance (the pages write 2-decimal pixel coordinates).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from scipy.stats import beta, binom


def refute_probability_lower(n: int, p: float, q: float, claim: float, level: float) -> float:
    k = np.arange(n + 1)
    lo = np.where(k > 0, beta.ppf(level / 2, np.maximum(k, 1), n - k + 1), 0.0)
    hi = np.where(k < n, beta.ppf(1 - level / 2, k + 1, np.maximum(n - k, 1)), 1.0)
    ok = (lo[:, None] > 0) & (np.log(np.maximum(lo[:, None], 1e-300)) - np.log(hi[None, :]) > claim)
    return float(binom.pmf(k, n, p) @ ok @ binom.pmf(k, n, q))


def np_frontier(p0, p1) -> list[tuple[float, float]]:
    key = lambda j: p1[j] / p0[j] if p0[j] else math.inf
    alpha, beta_, out = Fraction(0), Fraction(1), [(0.0, 1.0)]
    for r in sorted({key(j) for j in range(len(p0))}, reverse=True):
        alpha += sum(p0[j] for j in range(len(p0)) if key(j) == r)
        beta_ -= sum(p1[j] for j in range(len(p0)) if key(j) == r)
        out.append((float(alpha), float(beta_)))
    return out


def unit(square, pts) -> list[tuple[float, float]]:
    x0, y0, size = square
    return [((px - x0) / size, 1 - (py - y0) / size) for px, py in pts]


def same_points(got, want, tol: float = 1e-4) -> None:
    for a, b in ((got, want), (want, got)):
        assert all(any(abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol for q in b) for p in a), (got, want)
