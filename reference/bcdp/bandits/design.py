"""Core sets: the Kiefer-Wolfowitz G-optimal design of thesis Lemma 6.3.2 (eq. (6.5)), float and exact.

For a finite action set A = {a_1, ..., a_K} in R^d and a distribution pi on A, let
V(pi) = sum_a pi(a) a a^T and g(pi) = max_{a in A} a^T V(pi)^{-1} a.  Thesis Lemma 6.3.2 (cited from
[LS20, Ch. 21]) asks for a core set C (the support of pi) with |C| <= B d that spans R^d and
g(pi) <= 2d (eq. (6.5)); Algs 6.3.1 (step 6), 6.3.2 and 6.4.1 play only the actions of C.  The
Kiefer-Wolfowitz theorem [LS20, Thm 21.1] says min_pi g(pi) = d (= m when A spans only an
m-dimensional subspace) and that a minimiser with |supp pi| <= d(d + 1)/2 exists.

When A spans an m-dimensional subspace S (m < d), V(pi) is singular and a^T V(pi)^{-1} a is read as
c^T M^{-1} c, where c are the coordinates of a in any basis of S and M = sum pi(a) c c^T: the value
sup_theta (a^T theta)^2 / (theta^T V(pi) theta), independent of the basis (equal to a^T V(pi)^+ a).
The Kiefer-Wolfowitz value is then m, the dimension of the span (thesis Alg 6.3.1 step 6:
"for A_i in R^m, m <= d, a core set of size at most B m").

* :func:`g_optimal_design_float`: Frank-Wolfe (Fedorov-Wynn) with away steps (Wolfe-Atwood), started
  from a greedy basis of A with uniform weights, with the Harman-Pronzato (2007) removal of points that
  cannot support an optimal design, then a Caratheodory reduction (same V(pi), hence the same g, on at
  most m(m + 1)/2 + 1 points); float64, vectorised over the actions.  Measured: g = d to 1e-9 with
  supports 3, 7, 11, 22, 37 for d = 2, 3, 4, 6, 8 on random unit vectors (check THESIS-Lemma6.3.2), so
  |C|/d grows with d here; Lemma 6.3.2's |C| <= B d with a d-free B is not what this construction shows.
* :func:`kw_certificate`: the exact value g(pi) in rationals for rational actions and weights.
* :func:`g_optimal_design_exact`: an exact design for small rational instances: the smallest
  support that an exactly optimal design can have (m points with uniform weights) is searched by
  enumeration; otherwise the Frank-Wolfe design with rationalised weights, with its exact g value.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import INFINITY, to_fraction

#: Largest number of actions / dimension accepted by the exact functions (rational linear algebra).
MAX_EXACT_ACTIONS = 400
MAX_EXACT_DIM = 12
#: Largest number of m-subsets :func:`g_optimal_design_exact` enumerates in its minimal-support search.
MAX_SUBSETS = 20_000


@dataclass(frozen=True)
class Design:
    """A design on an action set: ``weights[j]`` is the probability of action ``support[j]``.

    ``g_value`` = max_a a^T V(pi)^{-1} a over all actions (float), ``rank`` = m, the dimension of the
    span of the actions (the Kiefer-Wolfowitz optimum of ``g_value``), ``iterations`` the Frank-Wolfe
    steps taken and ``converged`` whether ``g_value <= m (1 + tol)`` was reached."""

    support: np.ndarray
    weights: np.ndarray
    g_value: float
    rank: int
    iterations: int
    converged: bool


@dataclass(frozen=True)
class ExactDesign:
    """An exact design: ``weights[j]`` (a Fraction) on action ``support[j]``; ``g_value`` the exact
    max_a a^T V(pi)^{-1} a; ``rank`` = m; ``optimal`` is ``g_value == m`` (Kiefer-Wolfowitz)."""

    support: tuple[int, ...]
    weights: tuple[Fraction, ...]
    g_value: Fraction
    rank: int
    optimal: bool


# ----------------------------------------------------------------------------------------- float path
def _check_actions_float(actions: Any) -> np.ndarray:
    if not isinstance(actions, np.ndarray):
        raise WrongTypeError(f"actions must be a numpy array of shape (K, d), got {type(actions).__name__}")
    if actions.ndim != 2 or actions.shape[0] < 1 or actions.shape[1] < 1:
        raise InvalidInputError(f"actions must have shape (K, d) with K, d >= 1, got shape {actions.shape}")
    if actions.dtype == bool or not np.issubdtype(actions.dtype, np.number) or np.iscomplexobj(actions):
        raise WrongTypeError(f"actions must be a real numeric array, got dtype {actions.dtype}")
    x = actions.astype(np.float64)
    if not np.all(np.isfinite(x)):
        raise InvalidInputError("actions must be finite (NaN or infinity found)")
    return x


def _span_coordinates(x: np.ndarray, rel_tol: float = 1e-10) -> np.ndarray:
    """Coordinates of the actions in an orthonormal basis of their span (SVD, rank by rel_tol)."""
    _, s, vt = np.linalg.svd(x, full_matrices=False)
    if s.size == 0 or s[0] == 0.0:
        raise InvalidInputError("actions span only {0}: at least one non-zero action is needed")
    m = int(np.sum(s > rel_tol * s[0]))
    return x @ vt[:m].T


def _greedy_basis(c: np.ndarray) -> list[int]:
    """m linearly independent rows of c (m = number of columns), by largest residual norm."""
    resid = c.copy()
    chosen: list[int] = []
    for _ in range(c.shape[1]):
        norms = np.einsum("ij,ij->i", resid, resid)
        j = int(np.argmax(norms))
        chosen.append(j)
        u = resid[j] / math.sqrt(norms[j])
        resid = resid - np.outer(resid @ u, u)
    return chosen


def _g_all(c: np.ndarray, w: np.ndarray) -> np.ndarray:
    """a^T V(w)^{-1} a for every row of c (coordinates in the span)."""
    v = (c * w[:, None]).T @ c
    sol = np.linalg.solve(v, c.T)
    return np.einsum("ij,ji->i", c, sol)


def g_optimal_design_float(actions: np.ndarray, *, tol: float = 1e-9, max_iter: int = 10000) -> Design:
    """A G-optimal (Kiefer-Wolfowitz) design for the rows of ``actions`` (thesis Lemma 6.3.2, eq. (6.5)).

    Frank-Wolfe on log det V(pi) (Fedorov-Wynn) with away steps: at each step the action with the
    largest g(a) = a^T V^{-1} a gains weight, or the support action with the smallest g loses weight
    (down to 0, which removes it from the support), with the exact line-search step
    lambda = (g/m - 1)/(g - 1); points proved outside every optimal support are dropped on the way,
    and the final weights are reduced to at most m(m + 1)/2 + 1 points with the same V.  Stops when max_a g(a) <= m (1 + tol), where m is the dimension of
    the span of the actions (the Kiefer-Wolfowitz value; a degenerate span is handled in coordinates
    of an orthonormal basis of the span).  Float64: an approximation; ``g_value`` is the max computed
    at the returned weights (use :func:`kw_certificate` for an exact value on rational actions).
    Raises InvalidInputError for a non-(K, d) array, non-finite entries, all-zero actions, tol <= 0
    or max_iter < 1."""
    x = _check_actions_float(actions)
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not math.isfinite(tol) or tol <= 0:
        raise InvalidInputError(f"tol must be a finite float > 0, got {tol!r}")
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise InvalidInputError(f"max_iter must be an integer >= 1, got {max_iter!r}")
    c = _span_coordinates(x)
    k, m = c.shape
    w = np.zeros(k)
    w[_greedy_basis(c)] = 1.0 / m
    active = np.ones(k, dtype=bool)
    w, it = _frank_wolfe(c, w, active, tol, max_iter)
    g = _g_all(c, w)
    if g.max() > m * (1.0 + tol) and it < max_iter:  # an eliminated point came back above m: rerun on all
        w, it = _frank_wolfe(c, w, np.ones(k, dtype=bool), tol, max_iter, it, eliminate=False)
        g = _g_all(c, w)
    w2 = _caratheodory(c, w)
    g2 = _g_all(c, w2)
    if g2.max() <= max(g.max(), m * (1.0 + tol)):  # keep the reduction unless rounding spoiled it
        w, g = w2, g2
    supp = np.flatnonzero(w > 0)
    gmax = float(np.max(g))
    return Design(support=supp, weights=w[supp] / w[supp].sum(), g_value=gmax, rank=m,
                  iterations=it, converged=bool(gmax <= m * (1.0 + tol)))


def _caratheodory(c: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Carathéodory reduction: weights with the same V = sum w_a c_a c_a^T (so the same g at every
    action) on at most m(m + 1)/2 + 1 points: repeatedly move along a null vector of
    [vec(c_a c_a^T); 1] on D + 1 support points until one weight hits 0 (D = m(m + 1)/2 + 1)."""
    m = c.shape[1]
    iu = np.triu_indices(m)
    dim = m * (m + 1) // 2 + 1
    w = w.copy()
    while np.count_nonzero(w) > dim:
        supp = np.flatnonzero(w > 0)
        pts = supp[np.argsort(w[supp])[: dim + 1]]
        mat = np.vstack([(c[pts][:, :, None] * c[pts][:, None, :])[:, iu[0], iu[1]].T, np.ones(len(pts))])
        z = np.linalg.svd(mat)[2][-1]
        if not (z > 0).any():
            z = -z
        pos = z > 0
        ratios = np.where(pos, w[pts] / np.where(pos, z, 1.0), np.inf)
        r = int(np.argmin(ratios))
        w[pts] = w[pts] - ratios[r] * z
        w[pts[r]] = 0.0
        w[w < 0] = 0.0
    return w / w.sum()


def _frank_wolfe(c: np.ndarray, w: np.ndarray, active: np.ndarray, tol: float, max_iter: int,
                 it: int = 0, *, eliminate: bool = True) -> tuple[np.ndarray, int]:
    """Toward / away Frank-Wolfe steps from w until max g <= m (1 + tol) on the active points or
    max_iter steps in all.  With ``eliminate``, points that the Harman-Pronzato (2007) bound proves to
    lie outside every D-optimal (= G-optimal) support leave the active set (and the support):
    g(a) < m (1 + e/2 - sqrt(e (4 + e - 4/m))/2) with e = max g / m - 1."""
    m = c.shape[1]
    idx = np.flatnonzero(active)
    while True:
        g = _g_all(c[idx], w[idx])
        top = int(np.argmax(g))
        gmax = float(g[top])
        if gmax <= m * (1.0 + tol) or it >= max_iter:
            return w, it
        if eliminate:
            e = gmax / m - 1.0
            bound = m * (1.0 + e / 2.0 - math.sqrt(max(e * (4.0 + e - 4.0 / m), 0.0)) / 2.0)
            keep = g >= bound
            if not keep.all():
                w[idx[~keep]] = 0.0
                w /= w.sum()
                idx, g = idx[keep], g[keep]
                top = int(np.argmax(g))
                gmax = float(g[top])
        insupp = np.flatnonzero(w[idx] > 0)
        low = int(insupp[np.argmin(g[insupp])])
        glow = float(g[low])
        wl = float(w[idx[low]])
        if m == 1 or gmax - m >= m - glow or wl >= 1.0:
            j, lam = idx[top], (gmax / m - 1.0) / (gmax - 1.0)
        else:  # away step; below g = 1 log det grows all the way to the drop bound
            j = idx[low]
            lam = max((glow / m - 1.0) / (glow - 1.0) if glow > 1.0 else -np.inf, -wl / (1.0 - wl))
        w = (1.0 - lam) * w
        w[j] += lam
        w[w < 1e-15] = 0.0
        w /= w.sum()
        it += 1


# ----------------------------------------------------------------------------------------- exact path
def _exact_actions(actions: Any) -> list[list[Fraction]]:
    if isinstance(actions, np.ndarray):
        if actions.dtype != object:
            raise WrongTypeError("exact actions must be Fractions/ints/strings (an object array or nested lists), "
                                 f"got a numpy array of dtype {actions.dtype}; use g_optimal_design_float")
        actions = actions.tolist()
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence) or len(actions) == 0:
        raise InvalidInputError("actions must be a non-empty sequence of equal-length rows")
    rows = []
    for i, row in enumerate(actions):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) == 0:
            raise InvalidInputError(f"actions[{i}] must be a non-empty sequence of numbers")
        rows.append([to_fraction(v, f"actions[{i}][{j}]") for j, v in enumerate(row)])
    d = len(rows[0])
    if any(len(r) != d for r in rows):
        raise InvalidInputError("actions must all have the same dimension d")
    if len(rows) > MAX_EXACT_ACTIONS or d > MAX_EXACT_DIM:
        raise InvalidInputError(f"exact designs take at most {MAX_EXACT_ACTIONS} actions of dimension at most "
                                f"{MAX_EXACT_DIM}, got K = {len(rows)}, d = {d}")
    return rows


def _row_basis(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """A basis of the row space (reduced row echelon form, nonzero rows), by Gaussian elimination."""
    mat = [r[:] for r in rows]
    d = len(mat[0])
    basis: list[list[Fraction]] = []
    pivots: list[int] = []
    r = 0
    for col in range(d):
        piv = next((i for i in range(r, len(mat)) if mat[i][col] != 0), None)
        if piv is None:
            continue
        mat[r], mat[piv] = mat[piv], mat[r]
        p = mat[r][col]
        mat[r] = [v / p for v in mat[r]]
        for i in range(len(mat)):
            if i != r and mat[i][col] != 0:
                f = mat[i][col]
                mat[i] = [a - f * b for a, b in zip(mat[i], mat[r])]
        pivots.append(col)
        r += 1
    basis = mat[:r]
    return [basis[i] + [Fraction(pivots[i])] for i in range(r)]  # last entry: the pivot column


def _coordinates(rows: list[list[Fraction]]) -> tuple[list[list[Fraction]], int]:
    """Coordinates of every row in the RREF basis of the row space (the pivot entries), and m."""
    basis = _row_basis(rows)
    if not basis:
        raise InvalidInputError("actions span only {0}: at least one non-zero action is needed")
    pivots = [int(b[-1]) for b in basis]
    return [[r[p] for p in pivots] for r in rows], len(basis)


def _solve(mat: list[list[Fraction]], rhs: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """mat^{-1} rhs (rhs given as columns) exactly, or None when mat is singular."""
    n = len(mat)
    aug = [mat[i][:] + [col[i] for col in rhs] for i in range(n)]
    for col in range(n):
        piv = next((i for i in range(col, n) if aug[i][col] != 0), None)
        if piv is None:
            return None
        aug[col], aug[piv] = aug[piv], aug[col]
        p = aug[col][col]
        aug[col] = [v / p for v in aug[col]]
        for i in range(n):
            if i != col and aug[i][col] != 0:
                f = aug[i][col]
                aug[i] = [a - f * b for a, b in zip(aug[i], aug[col])]
    return [[aug[i][n + j] for i in range(n)] for j in range(len(rhs))]


def _g_exact(coords: list[list[Fraction]], weights: dict[int, Fraction]) -> Fraction | float:
    m = len(coords[0])
    mat = [[sum((w * coords[a][i] * coords[a][j] for a, w in weights.items()), Fraction(0)) for j in range(m)]
           for i in range(m)]
    sols = _solve(mat, coords)
    if sols is None:
        return INFINITY
    return max(sum((c[i] * s[i] for i in range(m)), Fraction(0)) for c, s in zip(coords, sols))


def kw_certificate(actions: Any, weights: Any) -> Fraction | float:
    """The exact g(pi) = max_a a^T V(pi)^{-1} a of thesis eq. (6.5), V(pi) = sum_a pi(a) a a^T.

    ``actions``: K rows of d exact numbers (int, Fraction, sympy Rational, numeric strings; floats
    refused); ``weights``: K exact probabilities summing to 1 (the design pi), or a dict
    {action index: weight}.  On a degenerate span the value is taken in coordinates of a basis of the
    span (equal to a^T V^+ a).  Returns a Fraction; by Kiefer-Wolfowitz it is >= m (the dimension of
    the span) with equality exactly at G-optimal designs.  Returns ``INFINITY`` (math.inf) when the
    support of pi does not span the span of A (then some a^T V^+ a is unbounded).  Exact, rational
    Gauss-Jordan elimination; K <= MAX_EXACT_ACTIONS, d <= MAX_EXACT_DIM."""
    rows = _exact_actions(actions)
    if isinstance(weights, dict):
        items = list(weights.items())
    elif isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, np.ndarray)):
        raise InvalidInputError("weights must be a sequence of K probabilities or a dict {index: weight}")
    else:
        if len(weights) != len(rows):
            raise InvalidInputError(f"weights must have one entry per action (K = {len(rows)}), got {len(weights)}")
        items = list(enumerate(weights))
    w: dict[int, Fraction] = {}
    for idx, val in items:
        if isinstance(idx, bool) or not isinstance(idx, (int, np.integer)) or not 0 <= int(idx) < len(rows):
            raise InvalidInputError(f"weight index {idx!r} is not an action index in [0, {len(rows)})")
        f = to_fraction(val, f"weights[{idx}]")
        if f < 0:
            raise InvalidInputError(f"weights[{idx}] must be >= 0, got {f}")
        if f > 0:
            w[int(idx)] = f
    if sum(w.values(), Fraction(0)) != 1:
        raise InvalidInputError(f"weights must sum to 1, got {sum(w.values(), Fraction(0))}")
    coords, _ = _coordinates(rows)
    return _g_exact(coords, w)


def g_optimal_design_exact(actions: Any, *, max_denominator: int = 10 ** 6) -> ExactDesign:
    """An exact design for a small rational action set (thesis Lemma 6.3.2, eq. (6.5)), with exact g.

    1. Minimal support: an optimal design supported on m points (m = dim span A, the least support
       that spans) must give each point weight 1/m (on m independent points g(a_i) = 1/pi(a_i)), so
       every m-subset of independent actions is tried with uniform weights; the first with exact
       g = m is returned (``optimal=True``, |C| = m).  At most MAX_SUBSETS subsets are tried.
    2. Otherwise the float Frank-Wolfe design (:func:`g_optimal_design_float`) with weights
       rationalised (``Fraction.limit_denominator(max_denominator)``, renormalised to sum 1) is
       returned with its exact g (:func:`kw_certificate`); ``optimal`` is True only if g == m exactly
       (optimal weights are often irrational, so g is then slightly above m).
    Floats in ``actions`` are refused (FloatRefusedError)."""
    rows = _exact_actions(actions)
    if isinstance(max_denominator, bool) or not isinstance(max_denominator, int) or max_denominator < 1:
        raise InvalidInputError(f"max_denominator must be an integer >= 1, got {max_denominator!r}")
    coords, m = _coordinates(rows)
    k = len(rows)
    if math.comb(k, m) <= MAX_SUBSETS:
        for subset in itertools.combinations(range(k), m):
            w = {i: Fraction(1, m) for i in subset}
            g = _g_exact(coords, w)
            if g == m:
                return ExactDesign(tuple(subset), tuple(w.values()), Fraction(m), m, True)
    flt = g_optimal_design_float(np.array([[float(v) for v in r] for r in rows]))
    approx = [Fraction(float(v)).limit_denominator(max_denominator) for v in flt.weights]
    total = sum(approx, Fraction(0))
    wts = {int(i): v / total for i, v in zip(flt.support, approx) if v > 0}
    g = _g_exact(coords, wts)
    if g == INFINITY:  # pragma: no cover - the float design spans; rationalising keeps every weight > 0
        raise InvalidInputError("the rationalised Frank-Wolfe design does not span the actions")
    gf = Fraction(g)
    return ExactDesign(tuple(wts), tuple(wts.values()), gf, m, gf == m)
