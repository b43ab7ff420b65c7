"""Lower confidence bounds on LDP, coordinate DP and Bayesian coordinate DP from sample counts.

A black-box audit sees a mechanism only through draws: for each input x of a finite set, n_x
outputs, binned into a finite set Y.  Let p(y|x) be the true probability of bin y (for a continuous
output, the bins define the discretised mechanism, whose parameters are at most the mechanism's own:
post-processing).  This module turns the counts into bounds that hold *simultaneously*:

(C1) Cells.  For every cell (x, y), the exact Clopper-Pearson interval [L, U] of level
     1 - beta / K, K = number of cells, two-sided (Clopper and Pearson 1934): with k draws in the
     cell, L = Beta^{-1}(beta / (2K); k, n - k + 1) (0 if k = 0) and
     U = Beta^{-1}(1 - beta / (2K); k + 1, n - k) (1 if k = n).  By the union bound, with
     probability >= 1 - beta every p(y|x) lies in its interval (the event E).
(C2) Ratios.  On E, every ratio p(y|x) / p(y|x') >= L(x, y) / U(x', y), so every supremum of such
     ratios (BCDP paper, arXiv:2410.18404, Def. 1 for LDP, Def. 3 for coordinate DP) is at least the
     largest such bound over the same pairs; since the bound uses only the event E, all parameters
     (LDP and every coordinate) hold together, with no further correction.
(C3) Bayesian coordinate DP (Def. 4) with a known prior pi.  P{M = y | x_i = v} =
     sum_x pi(x | x_i = v) p(y|x) is a non-negative combination of cells, so on E it lies in
     [sum_x pi(x|x_i=v) L(x, y), sum_x pi(x|x_i=v) U(x, y)] and the ratio bound follows as in (C2).

So P(some reported lower bound exceeds its true parameter) <= beta, for any mechanism and any
sample size: the verdict "violated" (lower bound > claim) is a false alarm with probability at most
beta when the claim is true.  The reductions to singleton events and inputs are those of
:mod:`bcdp.bayesian.notions` (R1)-(R2).

Floating point: the beta quantiles come from scipy (Boost's incomplete-beta inverse, about 1e-15
relative); each end is then moved outward by ``CP_WIDENING`` (1e-10 relative), and
``tests/audit/test_confidence.py`` checks at 50 digits (mpmath) that the widened ends satisfy the
defining tail inequalities.  The point estimates are plug-in frequency ratios and carry no guarantee.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Hashable, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError

#: Relative outward move of each Clopper-Pearson end after scipy's quantile (see the module docstring).
CP_WIDENING = 1e-10


def check_confidence(confidence: float, name: str = "confidence") -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InvalidInputError(f"{name} must be a number in (0, 1), got {confidence!r}")
    return float(confidence)


def clopper_pearson(k: Any, n: Any, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided exact (Clopper-Pearson) interval of level 1 - alpha for k successes in n trials,
    elementwise, widened outward by ``CP_WIDENING``: returns (lower, upper) with
    P_{lower}(X >= k) <= alpha / 2 and P_{upper}(X <= k) <= alpha / 2 for X ~ Bin(n, p)."""
    from scipy.stats import beta as beta_law

    k = np.asarray(k, dtype=float)
    n = np.broadcast_to(np.asarray(n, dtype=float), k.shape)
    if not 0 < alpha < 1:
        raise InvalidInputError(f"alpha must lie in (0, 1), got {alpha!r}")
    if np.any(k < 0) or np.any(k > n) or np.any(n < 1) or np.any(k != np.floor(k)):
        raise InvalidInputError("counts must be integers with 0 <= k <= n and n >= 1")
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.where(k > 0, beta_law.ppf(alpha / 2, np.maximum(k, 1), n - k + 1), 0.0)
        upper = np.where(k < n, beta_law.isf(alpha / 2, k + 1, np.maximum(n - k, 1)), 1.0)
    lower = np.where(k > 0, lower * (1 - CP_WIDENING), 0.0)
    upper = np.where(k < n, np.minimum(upper * (1 + CP_WIDENING), 1.0), 1.0)
    return lower, upper


@dataclass(frozen=True)
class RatioBound:
    """One privacy parameter (a log of a probability ratio) estimated from counts.

    ``lower_bound`` holds with the stated confidence, simultaneously with every other bound of the
    same audit; ``estimate`` is the plug-in value (frequencies), ``inf`` when a bin seen under one
    input was never seen under the other.  ``witness`` names the pair and the bin attaining the lower
    bound (None when it is 0)."""

    estimate: float
    lower_bound: float
    witness: dict[str, Any] | None

    def verdict(self, claimed: float) -> str:
        """"violated" when the lower bound exceeds the claim, else "not refuted"."""
        return "violated" if self.lower_bound > claimed else "not refuted"


def _log_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """log(num / den) elementwise with log(0 / x) = -inf, log(x / 0) = inf (x > 0), log(0 / 0) = -inf."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(num) - np.log(den)
    return np.where((num == 0), -np.inf, out)


def _column_bound(lo: np.ndarray, hi: np.ndarray, freq: np.ndarray, rows: Sequence[Any],
                  outputs: Sequence[Hashable]) -> RatioBound:
    """max over y and rows r, r' of log lo[r, y] / hi[r', y] (and the plug-in twin from freq)."""
    best_num, best_den = lo.argmax(axis=0), hi.argmin(axis=0)
    cols = np.arange(lo.shape[1])
    lcb = _log_ratio(lo[best_num, cols], hi[best_den, cols])
    y = int(np.argmax(lcb))
    value = max(float(lcb[y]), 0.0)
    witness = None
    if value > 0:
        witness = {"x": rows[int(best_num[y])], "x_prime": rows[int(best_den[y])], "R": [outputs[y]]}
    est = _log_ratio(freq.max(axis=0), freq.min(axis=0))
    seen = freq.max(axis=0) > 0
    estimate = max(float(est[seen].max()) if seen.any() else 0.0, 0.0)
    return RatioBound(estimate, value, witness)


@dataclass(frozen=True)
class CountAudit:
    """Counts of a black-box run: ``counts[x, y]`` draws of bin y under input x, ``draws[x]`` in all."""

    inputs: tuple[Any, ...]
    outputs: tuple[Hashable, ...]
    counts: np.ndarray
    draws: np.ndarray

    def __post_init__(self) -> None:
        c = np.asarray(self.counts)
        if c.shape != (len(self.inputs), len(self.outputs)):
            raise InvalidInputError(f"counts have shape {c.shape}, expected "
                                    f"({len(self.inputs)}, {len(self.outputs)})")
        if np.any(c < 0) or np.any(c.sum(axis=1) != np.asarray(self.draws)):
            raise InvalidInputError("each row of counts must be non-negative and sum to its draws")

    def cell_intervals(self, confidence: float) -> tuple[np.ndarray, np.ndarray]:
        """(C1): simultaneous Clopper-Pearson intervals of every cell at the given confidence."""
        beta = 1 - check_confidence(confidence)
        cells = self.counts.size
        return clopper_pearson(self.counts, self.draws[:, None], beta / cells)

    def frequencies(self) -> np.ndarray:
        return self.counts / self.draws[:, None]

    def ldp(self, confidence: float) -> RatioBound:
        """Def. 1 (LDP epsilon): max over y of log(max_x L(x, y) / min_x' U(x', y)), by (C2)."""
        lo, hi = self.cell_intervals(confidence)
        return _column_bound(lo, hi, self.frequencies(), list(self.inputs), self.outputs)

    def cdp(self, confidence: float) -> list[RatioBound]:
        """Def. 3 (coordinate DP c_i) for inputs that are tuples of d coordinates: the LDP bound
        within each group of inputs sharing x_-i, maximised over the groups, by (C2)."""
        lo, hi = self.cell_intervals(confidence)
        freq = self.frequencies()
        points = [tuple(x) if isinstance(x, (list, tuple)) else (x,) for x in self.inputs]
        d = len(points[0])
        if any(len(p) != d for p in points):
            raise InvalidInputError("coordinate DP needs inputs that are tuples of one length d")
        out = []
        for i in range(d):
            groups: dict[tuple, list[int]] = {}
            for k, p in enumerate(points):
                groups.setdefault(p[:i] + p[i + 1:], []).append(k)
            best = RatioBound(0.0, 0.0, None)
            est = 0.0
            for members in groups.values():
                if len(members) < 2:
                    continue
                idx = np.array(members)
                b = _column_bound(lo[idx], hi[idx], freq[idx], [list(points[k]) for k in members], self.outputs)
                est = max(est, b.estimate)
                if b.lower_bound > best.lower_bound:
                    best = b
            out.append(RatioBound(est, best.lower_bound, best.witness))
        return out

    def bcdp(self, prior: Sequence[float], confidence: float) -> list[RatioBound]:
        """Def. 4 (Bayesian coordinate DP delta_i) under a known prior (one probability per input,
        in the order of ``inputs``), by (C3)."""
        pi = np.asarray(prior, dtype=float)
        if pi.shape != (len(self.inputs),) or np.any(~np.isfinite(pi)) or np.any(pi < 0) \
                or not math.isclose(float(pi.sum()), 1.0, rel_tol=0, abs_tol=1e-9):
            raise InvalidInputError("the prior must give one non-negative probability per input, summing to 1")
        lo, hi = self.cell_intervals(confidence)
        freq = self.frequencies()
        points = [tuple(x) if isinstance(x, (list, tuple)) else (x,) for x in self.inputs]
        out = []
        for i in range(len(points[0])):
            values = list(dict.fromkeys(p[i] for k, p in enumerate(points) if pi[k] > 0))
            weights = np.zeros((len(values), len(points)))
            for k, p in enumerate(points):
                if pi[k] > 0:
                    weights[values.index(p[i]), k] = pi[k]
            weights /= weights.sum(axis=1, keepdims=True)
            b = _column_bound(weights @ lo, weights @ hi, weights @ freq, values, self.outputs)
            wit = None if b.witness is None else {"coordinate": i, "S_i": [b.witness["x"]],
                                                  "S_i_prime": [b.witness["x_prime"]], "R": b.witness["R"]}
            out.append(RatioBound(b.estimate, b.lower_bound, wit))
        return out


def draws_to_refute(p_num: float, p_den: float, claimed_eps: float, confidence: float, cells: int,
                    power: float = 0.9, max_draws: int = 10 ** 12) -> int:
    """A number n of draws per input (the smallest on a doubling-then-bisection path, to 0.1%) such that, when the witness cell has probability ``p_num`` under
    one input and ``p_den`` under the other (true log-ratio log(p_num / p_den) > claimed_eps), the
    audit at ``confidence`` over ``cells`` cells reports "violated" with probability >= ``power``.

    Rigorous, not asymptotic: the (1 - power)/2 binomial quantile of the numerator count and the
    (1 + power)/2 quantile of the denominator count are plugged into the Clopper-Pearson ends, which
    are monotone in the counts; both quantiles are met with probability >= power (union bound)."""
    from scipy.stats import binom

    if not (0 < p_den < p_num <= 1) or not math.log(p_num / p_den) > claimed_eps:
        raise InvalidInputError("need 0 < p_den < p_num <= 1 with log(p_num / p_den) above the claim")
    conf = check_confidence(confidence)
    check_confidence(power, "power")
    alpha = (1 - conf) / cells
    tail = (1 - power) / 2

    def refutes(n: int) -> bool:
        k_num = binom.ppf(tail, n, p_num)
        k_den = binom.isf(tail, n, p_den)
        lo, _ = clopper_pearson(k_num, n, alpha)
        _, hi = clopper_pearson(k_den, n, alpha)
        return bool(lo > 0 and math.log(float(lo)) - math.log(float(hi)) > claimed_eps)

    n = 16
    while not refutes(n):
        n *= 2
        if n > max_draws:
            raise InvalidInputError(f"more than {max_draws} draws per input would be needed")
    lo_n, hi_n = n // 2, n
    while hi_n - lo_n > max(1, lo_n // 1000):
        mid = (lo_n + hi_n) // 2
        lo_n, hi_n = (lo_n, mid) if refutes(mid) else (mid, hi_n)
    return hi_n
