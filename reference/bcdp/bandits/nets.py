"""zeta-nets of thesis Lemma 6.3.1 ([Ver18, Cor. 4.2.13]) and the batch growth q of Algs 6.3.1, 6.3.2, 6.4.1.

Lemma 6.3.1: for A in the unit ball of R^d spanning R^d there is N in A with |N| <= (3/zeta)^d + d, N spans
R^d, and every a in A has a' in N with ||a - a'||_2 <= zeta (Alg 6.3.1 step 2 uses zeta = 1/T).

Construction here (finite A): a greedy maximal zeta-separated subset (every point of A is within zeta of
it, and its points are pairwise > zeta apart, so balls of radius zeta/2 around them are disjoint and lie in
the ball of radius 1 + zeta/2: at most (1 + 2/zeta)^d <= (3/zeta)^d points for zeta <= 1), then at most d
points of A added to make it span the span of A.  Float (:func:`zeta_net_float`, vectorised per centre)
and exact (:func:`zeta_net_exact`, rational points, squared distances compared exactly).

Batch growth (Alg 6.3.1 step 3): q = (2T)^{1/log T} with the natural log (the thesis footnote
e <= q <= e^2 forces ln): log q = 1 + log 2 / log T, so q is in (e, e^2] for T >= 2, q = e^2 at T = 2
(:func:`batch_growth`, sympy-exact).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import to_fraction

MAX_EXACT_POINTS = 2000


def _check_zeta_float(zeta: Any) -> float:
    if isinstance(zeta, bool) or not isinstance(zeta, (int, float)) or not math.isfinite(zeta) or zeta <= 0:
        raise InvalidInputError(f"zeta must be a finite number > 0, got {zeta!r}")
    return float(zeta)


def _span_completion(x: np.ndarray, chosen: list[int], rel_tol: float = 1e-10) -> list[int]:
    """Add points of x (largest residual first) until the chosen rows span the row space of x."""
    scale = max(float(np.abs(x).max()), 1e-300)
    rank_all = np.linalg.matrix_rank(x, tol=rel_tol * scale * max(x.shape))
    out = list(chosen)
    while np.linalg.matrix_rank(x[out], tol=rel_tol * scale * max(x.shape)) < rank_all:
        q, _ = np.linalg.qr(x[out].T)
        resid = x - (x @ q) @ q.T
        out.append(int(np.argmax(np.einsum("ij,ij->i", resid, resid))))
    return out


def zeta_net_float(points: np.ndarray, zeta: float) -> np.ndarray:
    """Indices of a zeta-net of the rows of ``points`` (thesis Lemma 6.3.1): greedy maximal zeta-separated
    subset (taking the first uncovered row each time), completed by <= d rows so that it spans what the
    rows span.  Every row is within ``zeta`` of a net row; the greedy part has pairwise distances > zeta."""
    if not isinstance(points, np.ndarray) or points.ndim != 2 or points.shape[0] < 1:
        raise WrongTypeError("points must be a numpy array of shape (K, d) with K >= 1")
    x = points.astype(np.float64)
    if not np.all(np.isfinite(x)):
        raise InvalidInputError("points must be finite")
    z = _check_zeta_float(zeta)
    covered = np.zeros(x.shape[0], dtype=bool)
    chosen: list[int] = []
    while not covered.all():
        j = int(np.argmin(covered))  # first uncovered row
        chosen.append(j)
        covered |= np.einsum("ij,ij->i", x - x[j], x - x[j]) <= z * z
    return np.array(_span_completion(x, chosen), dtype=int)


def _exact_points(points: Any) -> list[list[Fraction]]:
    if isinstance(points, (str, bytes)) or not isinstance(points, Sequence) or not points:
        raise InvalidInputError("points must be a non-empty sequence of rows")
    rows = [[to_fraction(v, f"points[{i}][{j}]") for j, v in enumerate(r)] for i, r in enumerate(points)]
    if len({len(r) for r in rows}) != 1 or not rows[0]:
        raise InvalidInputError("points must all have the same dimension d >= 1")
    if len(rows) > MAX_EXACT_POINTS:
        raise InvalidInputError(f"at most {MAX_EXACT_POINTS} points in exact nets, got {len(rows)}")
    return rows


def _rank(rows: list[list[Fraction]]) -> int:
    mat = [r[:] for r in rows]
    rank, d = 0, len(mat[0]) if mat else 0
    for col in range(d):
        piv = next((i for i in range(rank, len(mat)) if mat[i][col] != 0), None)
        if piv is None:
            continue
        mat[rank], mat[piv] = mat[piv], mat[rank]
        for i in range(rank + 1, len(mat)):
            f = mat[i][col] / mat[rank][col]
            if f:
                mat[i] = [a - f * b for a, b in zip(mat[i], mat[rank])]
        rank += 1
    return rank


def zeta_net_exact(points: Any, zeta: Any) -> list[int]:
    """Exact zeta-net of rational points (thesis Lemma 6.3.1): the greedy maximal zeta-separated subset
    (||a - a'||^2 <= zeta^2 decided in rationals), then points added in order while they raise the rank,
    until the net spans what the points span.  Returns row indices."""
    rows = _exact_points(points)
    z = to_fraction(zeta, "zeta")
    if z <= 0:
        raise InvalidInputError(f"zeta must be > 0, got {z}")
    z2 = z * z
    chosen: list[int] = []
    for i, r in enumerate(rows):
        if all(sum((a - b) ** 2 for a, b in zip(r, rows[j])) > z2 for j in chosen):
            chosen.append(i)
    target = _rank(rows)
    for i in range(len(rows)):
        if _rank([rows[j] for j in chosen]) == target:
            break
        if i not in chosen and _rank([rows[j] for j in chosen] + [rows[i]]) > _rank([rows[j] for j in chosen]):
            chosen.append(i)
    return chosen


def net_size_bound(zeta: Any, d: int) -> Fraction:
    """The bound (3/zeta)^d + d of thesis Lemma 6.3.1 (exact).  The packing argument behind it needs
    zeta <= 1 (then 1 + 2/zeta <= 3/zeta); ValidityConditionError for zeta > 1."""
    z = to_fraction(zeta, "zeta")
    if isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise InvalidInputError(f"d must be an integer >= 1, got {d!r}")
    if not 0 < z <= 1:
        raise ValidityConditionError(f"Lemma 6.3.1's bound (3/zeta)^d + d is proved for 0 < zeta <= 1, got {z}")
    return (3 / z) ** d + d


def batch_growth(T: Any):
    """q = (2T)^{1/log T} of Alg 6.3.1 step 3 (natural log), as an exact sympy expression; T >= 2
    (integer or rational), else ValidityConditionError (log T <= 0 has no batch schedule)."""
    import sympy

    t = to_fraction(T, "T")
    if t < 2:
        raise ValidityConditionError(f"the batch growth q = (2T)^(1/log T) needs T >= 2, got {t}")
    ts = sympy.Rational(t.numerator, t.denominator)
    return (2 * ts) ** (1 / sympy.log(ts))


def batch_growth_float(T: float) -> float:
    """Float twin of :func:`batch_growth`: exp(1 + log 2 / log T)."""
    if isinstance(T, bool) or not isinstance(T, (int, float)) or not math.isfinite(T) or T < 2:
        raise ValidityConditionError(f"the batch growth q = (2T)^(1/log T) needs T >= 2, got {T!r}")
    return math.exp(1.0 + math.log(2.0) / math.log(T))
