"""Exact l_inf heavy-hitter risk of small private schemes (thesis Sec. 7.2 "LDP heavy hitter estimation",
Sec. 7.6 "Sequence of distribution (or heavy hitter) estimation").

Sec. 7.2 defines, for inputs ``x^n`` with no distribution and frequencies ``f(a) = #{i : x_i = a} / n``,
the risk ``sup_{x^n} E max_a |p_hat_a(Y^n) - f(a)|`` (infimum over mechanisms and estimators in the
minimax version).  Computing the infimum over estimators is out of reach; this module computes the
risk of a *given* scheme exactly, for tiny ``n``:

- :func:`unbiased_estimator`: the linear unbiased estimator ``p_hat = (Q^T)^{-1} h`` (``h`` the
  empirical output frequencies) of a square invertible channel ``Q`` (rows: inputs), exact Gaussian
  elimination; ``E h = Q^T f``;
- :func:`linf_risk`: ``max`` over input histograms of ``E max_a |p_hat_a - f(a)|``, the expectation
  taken exactly over the law of the output histogram (a convolution of multinomials; every user uses
  the same channel);
- :func:`time_marginal`: the channel of ``Y(t)`` given the whole database ``x in [k]^T`` of a T-sample
  channel (Sec. 7.6), and whether it depends on ``x(t)`` only (then it is a single-sample channel
  ``k x k`` and the time-``t`` heavy-hitter problem is the single-sample one).

All inputs exact (Fractions); floats refused.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_fraction

#: Largest number of users of :func:`linf_risk` (the output-histogram law has C(n + m - 1, m - 1) atoms).
MAX_USERS = 12
#: Largest alphabet of :func:`linf_risk`.
MAX_ALPHABET = 6
#: Largest number of (input histogram, output histogram) pairs :func:`linf_risk` visits (a few seconds).
MAX_HISTOGRAM_PAIRS = 20_000


def _matrix(channel: Sequence[Sequence[Any]], name: str = "channel") -> list[list[Fraction]]:
    try:
        raw = [list(row) for row in channel]
    except TypeError as exc:
        raise InvalidInputError(f"{name} must be a matrix (rows of numbers)") from exc
    rows = [[to_fraction(v, f"{name} entry") for v in row] for row in raw]
    if not rows or len({len(r) for r in rows}) != 1:
        raise InvalidInputError(f"{name} must have rows of equal length")
    if any(v < 0 for r in rows for v in r) or any(sum(r) != 1 for r in rows):
        raise InvalidInputError(f"{name} rows must be probability vectors summing to 1")
    return rows


def unbiased_estimator(channel: Sequence[Sequence[Any]]) -> list[list[Fraction]]:
    """``M = (Q^T)^{-1}`` for a square channel ``Q`` (``Q[a][y] = P(y | a)``), so that ``M h`` is unbiased
    for the frequencies when ``h`` is the empirical output law; ValidityConditionError when ``Q`` is
    singular (no linear unbiased estimator exists)."""
    q = _matrix(channel)
    m = len(q)
    if len(q[0]) != m:
        raise InvalidInputError(f"channel must be square for the inverse estimator, got {m} x {len(q[0])}")
    a = [[q[j][i] for j in range(m)] + [Fraction(int(i == c)) for c in range(m)] for i in range(m)]  # [Q^T | I]
    for col in range(m):
        piv = next((r for r in range(col, m) if a[r][col] != 0), None)
        if piv is None:
            raise ValidityConditionError("the channel is singular: no linear unbiased frequency estimator")
        a[col], a[piv] = a[piv], a[col]
        inv = 1 / a[col][col]
        a[col] = [v * inv for v in a[col]]
        for r in range(m):
            if r != col and a[r][col] != 0:
                factor = a[r][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col])]
    return [row[m:] for row in a]


def _histogram_law(rows: Sequence[Sequence[Fraction]], counts: Sequence[int]) -> dict[tuple[int, ...], Fraction]:
    """Exact law of the output histogram when ``counts[a]`` users hold input ``a``."""
    m = len(rows[0])
    law: dict[tuple[int, ...], Fraction] = {tuple([0] * m): Fraction(1)}
    for a, c in enumerate(counts):
        for _ in range(c):
            nxt: dict[tuple[int, ...], Fraction] = {}
            for h, p in law.items():
                for y, qy in enumerate(rows[a]):
                    if qy:
                        key = h[:y] + (h[y] + 1,) + h[y + 1:]
                        nxt[key] = nxt.get(key, Fraction(0)) + p * qy
            law = nxt
    return law


def linf_risk(channel: Sequence[Sequence[Any]], n: int,
              estimator: Sequence[Sequence[Any]] | None = None) -> dict[str, Any]:
    """Exact ``sup_{x^n} E max_a |p_hat_a(Y^n) - f(a)|`` (Sec. 7.2, ``l = l_inf``) of ``n`` users sharing
    the channel ``Q`` with the linear estimator ``p_hat = M h`` (``M`` = :func:`unbiased_estimator` by
    default).  Returns ``{"risk", "worst_counts", "per_counts"}`` (``per_counts``: input histogram ->
    exact risk)."""
    rows = _matrix(channel)
    k = len(rows)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_USERS:
        raise InvalidInputError(f"n must be an integer in [1, {MAX_USERS}], got {n!r}")
    if k > MAX_ALPHABET or len(rows[0]) > MAX_ALPHABET:
        raise InvalidInputError(f"alphabets must have at most {MAX_ALPHABET} symbols")
    pairs = math.comb(n + k - 1, k - 1) * math.comb(n + len(rows[0]) - 1, len(rows[0]) - 1)
    if pairs > MAX_HISTOGRAM_PAIRS:
        raise InvalidInputError(f"n = {n} users on {k} inputs / {len(rows[0])} outputs means {pairs} histogram pairs "
                                f"(at most {MAX_HISTOGRAM_PAIRS})")
    est = unbiased_estimator(rows) if estimator is None else [[to_fraction(v, "estimator entry") for v in r]
                                                               for r in estimator]
    if len(est) != k or any(len(r) != len(rows[0]) for r in est):
        raise InvalidInputError("estimator must have one row per input symbol and one column per output")
    per: dict[tuple[int, ...], Fraction] = {}
    for counts in (c for c in itertools.product(range(n + 1), repeat=k) if sum(c) == n):
        f = [Fraction(c, n) for c in counts]
        risk = Fraction(0)
        for h, p in _histogram_law(rows, counts).items():
            phat = [sum(m * Fraction(hy, n) for m, hy in zip(row, h)) for row in est]
            risk += p * max(abs(a - b) for a, b in zip(phat, f))
        per[counts] = risk
    worst = max(per, key=per.get)
    return {"risk": per[worst], "worst_counts": worst, "per_counts": per}


def time_marginal(channel: Sequence[Sequence[Any]], k: int, T: int, t: int) -> dict[str, Any]:
    """The law of ``Y(t)`` given ``x in [k]^T`` for a T-sample channel on ``[k]^T`` (rows and columns in
    lexicographic order, Sec. 7.6): ``{"marginal": k^T x k rows, "single": k x k channel or None}``;
    ``single`` is set when the row depends on ``x(t)`` only (``t`` is 0-based)."""
    n = k ** T
    rows = _matrix(channel)
    if len(rows) != n or len(rows[0]) != n:
        raise InvalidInputError(f"channel must be k^T x k^T = {n} x {n}")
    if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < T:
        raise InvalidInputError(f"t must be a time index in 0..{T - 1}, got {t!r}")
    dbs = list(itertools.product(range(k), repeat=T))
    marg = [[sum(r[j] for j, y in enumerate(dbs) if y[t] == v) for v in range(k)] for r in rows]
    single: list[list[Fraction]] | None = [[Fraction(0)] * k for _ in range(k)]
    seen: dict[int, list[Fraction]] = {}
    for x, row in zip(dbs, marg):
        if x[t] in seen and seen[x[t]] != row:
            single = None
            break
        seen[x[t]] = row
    if single is not None:
        single = [seen[a] for a in range(k)]
    return {"marginal": marg, "single": single}
