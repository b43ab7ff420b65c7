"""Thm 11 of the partial DP paper (Ghazi-Kumar-Manurangsi-Steinke, arXiv:2209.04053, Sec. 4.1):
the projection mechanism (Theorem 11, its statement and its proof).

For a workload Q : X -> R^m and a dataset x in X^n, Q(x) = (1/n) sum_i Q(x_i).  The mechanism samples Y ~ N(Q(x), sigma^2 I_m) and
outputs the Euclidean projection

    Yhat = argmin_{y in conv{Q(xc) : xc in X}} ||y - Y||_2

onto the convex hull of the |X| single-record answer vectors (the "vertices").

Privacy (Thm 11): the Gaussian step has l2-sensitivity Delta/n under a whole-record change and
Delta0/n under a single-attribute change (Delta, Delta0 = diameter, partial diameter, Sec. 4.1),
so with eps = Delta/(sigma n), eps0 = Delta0/(sigma n) the mechanism is eps^2/2-zCDP and
eps0-nabla0-CDP (D*(N(a, s^2 I) || N(b, s^2 I)) = ||a - b||^2/(2 s^2); projection is
post-processing).  Delta and Delta0 come from the brute force in :mod:`bcdp.partial.projection`
(the printed Delta = sqrt(m) is wrong for even-k parities, ``docs/errata.md`` E-PDP-Thm11).

Utility, eq. (2) of Thm 11: E[(1/m) ||M(x) - Q(x)||^2] <= min{sigma^2, sigma Delta sqrt(2 log|X|)/m}.

The projection is computed by Wolfe's minimum-norm-point algorithm (an exact active-set method: it
terminates in finitely many steps in exact arithmetic), and every result is certified by the
variational inequality <v - Yhat, Y - Yhat> <= tol for all vertices v (together with Yhat being a
convex combination of vertices this is a complete optimality certificate).  An exact Fraction
oracle (:func:`exact_hull_projection`, enumeration of active sets) is provided for tests.

Float fast paths here are float64; exact ones take/return Fractions and refuse floats.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import to_fraction
from bcdp.partial.projection import FAMILIES, diameters, workload

#: Tolerance of the variational-inequality certificate required of every float projection.
VI_TOLERANCE = 1e-9


# -- the projection ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Projection:
    """Result of projecting ``y`` onto conv(vertices).

    ``point`` = sum_i weights[i] * vertices[support[i]]; ``vi_residual`` = max_v <v - point, y - point>
    (<= 0 at the exact projection); ``iterations`` counts Wolfe's major cycles.
    """

    point: np.ndarray
    support: tuple[int, ...]
    weights: np.ndarray
    vi_residual: float
    iterations: int


def _affine_minimizer(p: np.ndarray) -> np.ndarray:
    """Weights v (sum 1) minimising ||v @ p|| over the affine hull of the rows of ``p``."""
    k = p.shape[0]
    kkt = np.zeros((k + 1, k + 1))
    kkt[:k, :k] = p @ p.T
    kkt[:k, k] = 1.0
    kkt[k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    try:
        sol = np.linalg.solve(kkt, rhs)
    except np.linalg.LinAlgError:
        sol = np.linalg.lstsq(kkt, rhs, rcond=None)[0]
    return sol[:k]


def vi_residual(vertices: np.ndarray, y: np.ndarray, point: np.ndarray) -> float:
    """max over vertices v of <v - point, y - point>: <= 0 iff ``point`` (in the hull) is the
    projection of ``y`` (variational inequality, proof of Thm 11, the geometric claim <Q(x) - Y^, Y - Y^> <= 0)."""
    return float(np.max((vertices - point) @ (y - point)))


def hull_projection(vertices: np.ndarray, y: np.ndarray, tol: float = VI_TOLERANCE,
                    max_iterations: int = 10_000) -> Projection:
    """Euclidean projection of ``y`` onto conv(rows of ``vertices``) by Wolfe's min-norm-point
    algorithm (Wolfe 1976) applied to the translated points vertices - y.

    Raises :class:`InvalidInputError` on shape mismatch / non-finite input, and RuntimeError if the
    result fails the variational-inequality certificate (max_v <v - Yhat, Y - Yhat> <= tol * scale).
    """
    vertices = np.asarray(vertices, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if vertices.ndim != 2 or y.ndim != 1 or vertices.shape[1] != y.shape[0] or vertices.shape[0] == 0:
        raise InvalidInputError(f"hull_projection: vertices {vertices.shape} and y {y.shape} do not match")
    if not (np.all(np.isfinite(vertices)) and np.all(np.isfinite(y))):
        raise InvalidInputError("hull_projection: non-finite input")
    p = vertices - y
    scale = max(1.0, float(np.max(np.sum(p * p, axis=1))))
    eps = 1e-13 * scale
    first = int(np.argmin(np.sum(p * p, axis=1)))
    support = [first]
    w = np.array([1.0])
    x = p[first].copy()
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        dots = p @ x
        j = int(np.argmin(dots))
        if float(x @ x) - float(dots[j]) <= eps or j in support:
            break
        support.append(j)
        w = np.append(w, 0.0)
        while True:  # minor cycles
            v = _affine_minimizer(p[support])
            if np.all(v > 1e-15):
                w = v
                break
            dec = w - v
            mask = (v <= 1e-15) & (dec > 0)
            theta = float(np.min(w[mask] / dec[mask])) if np.any(mask) else 1.0
            theta = min(max(theta, 0.0), 1.0)
            w = w + theta * (v - w)
            keep = w > 1e-15
            keep[int(np.argmax(w))] = True
            support = [s for s, k in zip(support, keep) if k]
            w = w[keep]
            w = w / w.sum()
        x = w @ p[support]
    point = y + x
    residual = vi_residual(vertices, y, point)
    if residual > tol * scale:
        raise RuntimeError(f"hull_projection: certificate failed, VI residual {residual:.3e}")
    return Projection(point, tuple(support), w, residual, iterations)


def exact_hull_projection(vertices: Sequence[Sequence], y: Sequence) -> tuple[tuple[Fraction, ...], tuple[int, ...]]:
    """Exact oracle (Fractions; floats refused): the projection of ``y`` onto conv(vertices),
    found by enumerating candidate supports S (|S| <= m + 1, Caratheodory), solving the affine
    projection onto aff(S) exactly and accepting the first point with non-negative barycentric
    weights that satisfies the variational inequality <v - p, y - p> <= 0 for every vertex v.
    Exponential in |X|: for tiny instances only."""
    verts = [tuple(to_fraction(c, "vertex coordinate") for c in v) for v in vertices]
    yy = tuple(to_fraction(c, "y coordinate") for c in y)
    m = len(yy)
    if not verts or any(len(v) != m for v in verts):
        raise InvalidInputError("exact_hull_projection: shape mismatch")
    unique = sorted(set(range(len(verts))), key=lambda i: verts[i])
    for size in range(1, min(len(verts), m + 1) + 1):
        for subset in itertools.combinations(unique, size):
            pts = [tuple(verts[i][c] - yy[c] for c in range(m)) for i in subset]
            weights = _exact_affine_minimizer(pts)
            if weights is None or any(w < 0 for w in weights):
                continue
            point = tuple(yy[c] + sum(weights[i] * pts[i][c] for i in range(size)) for c in range(m))
            if all(sum((v[c] - point[c]) * (yy[c] - point[c]) for c in range(m)) <= 0 for v in verts):
                return point, subset
    raise RuntimeError("exact_hull_projection: no support found (unreachable for a non-empty hull)")


def _exact_affine_minimizer(pts: list[tuple[Fraction, ...]]) -> list[Fraction] | None:
    """Solve [[G, 1], [1^T, 0]] [v; lam] = [0; 1] exactly (G = Gram matrix); None if singular."""
    k = len(pts)
    rows = [[sum(a * b for a, b in zip(pts[i], pts[j])) for j in range(k)] + [Fraction(1), Fraction(0)]
            for i in range(k)]
    rows.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    size = k + 1
    for col in range(size):
        piv = next((r for r in range(col, size) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        inv = 1 / rows[col][col]
        rows[col] = [e * inv for e in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [a - f * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][size] for i in range(k)]


def certifies_projection(vertices: np.ndarray, y: np.ndarray, point: np.ndarray,
                         tol: float = VI_TOLERANCE) -> bool:
    """True iff ``point`` is (to ``tol``) the projection of ``y`` onto conv(vertices): it lies in the
    hull (distance to its own certified projection <= tol) and max_v <v - point, y - point> <= tol."""
    point = np.asarray(point, dtype=np.float64)
    inside = float(np.linalg.norm(hull_projection(vertices, point).point - point)) <= tol
    return inside and vi_residual(vertices, y, point) <= tol


# -- bad twins (test fixtures the checks must reject) -------------------------------------------------

def box_clip_projection(vertices: np.ndarray, y: np.ndarray) -> np.ndarray:
    """BAD TWIN: clip Y coordinatewise to the bounding box of the vertices (not the hull projection)."""
    return np.clip(y, vertices.min(axis=0), vertices.max(axis=0))


def nearest_vertex(vertices: np.ndarray, y: np.ndarray) -> np.ndarray:
    """BAD TWIN: round Y to its nearest vertex (not the hull projection)."""
    return vertices[int(np.argmin(np.sum((vertices - y) ** 2, axis=1)))]


# -- the mechanism ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProjectionMechanism:
    """Thm 11 projection mechanism for the workload ``answers`` (|X| x m matrix, row = Q(xc))."""

    answers: np.ndarray
    sigma: float

    def __post_init__(self) -> None:
        a = np.asarray(self.answers)
        if a.ndim != 2 or a.shape[0] < 1 or a.shape[1] < 1:
            raise InvalidInputError(f"answers must be a non-empty |X| x m matrix, got shape {a.shape}")
        if isinstance(self.sigma, bool) or not (isinstance(self.sigma, (int, float)) and math.isfinite(self.sigma)
                                                 and self.sigma > 0):
            raise InvalidInputError(f"sigma must be a finite positive number, got {self.sigma!r}")

    @property
    def m(self) -> int:
        return int(np.asarray(self.answers).shape[1])

    def true_answers(self, dataset: Sequence[int]) -> np.ndarray:
        """Q(x) = (1/n) sum_i Q(x_i); records are indices into X (rows of ``answers``)."""
        idx = np.asarray(dataset, dtype=np.int64)
        size = np.asarray(self.answers).shape[0]
        if idx.ndim != 1 or idx.size == 0 or idx.min() < 0 or idx.max() >= size:
            raise InvalidInputError(f"dataset must be a non-empty list of record indices in [0, {size})")
        return np.asarray(self.answers, dtype=np.float64)[idx].mean(axis=0)

    def sample(self, dataset: Sequence[int], trials: int, rng: np.random.Generator,
               projector=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``trials`` independent runs: returns (Q(x), Y [trials x m], Yhat [trials x m]).
        The Gaussian draws are vectorised; ``projector(vertices, y)`` defaults to the certified
        hull projection (a bad twin may be passed for tests)."""
        if not isinstance(trials, int) or trials < 1:
            raise InvalidInputError(f"trials must be a positive int, got {trials!r}")
        q = self.true_answers(dataset)
        verts = np.asarray(self.answers, dtype=np.float64)
        ys = q + self.sigma * rng.standard_normal((trials, self.m))
        proj = projector or (lambda v, y: hull_projection(v, y).point)
        yhat = np.stack([proj(verts, y) for y in ys])
        return q, ys, yhat


# -- privacy (exact) ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProjectionPrivacy:
    """Exact squared privacy parameters of Thm 11: eps^2 = Delta^2/(sigma n)^2 (zCDP rho = eps^2/2),
    eps0^2 = Delta0^2/(sigma n)^2 (nabla0-CDP)."""

    delta_sq: int
    delta0_sq: int
    eps_sq: Fraction
    eps0_sq: Fraction

    @property
    def rho(self) -> Fraction:
        return self.eps_sq / 2

    @property
    def rho0(self) -> Fraction:
        return self.eps0_sq / 2


def projection_privacy(family: str, d: int, k: int, n: int, sigma, delta_variant: str = "computed"
                       ) -> ProjectionPrivacy:
    """Thm 11 privacy for k-way ``family`` queries on {0,1}^d, exact.

    ``sigma`` is exact (Fraction/int/str; floats refused).  ``delta_variant``: "computed" (brute-force
    Delta, Delta0 — correct) or "printed" (Delta^2 = m, Delta0^2 = C(d-1,k-1) as printed in the example after Thm 11;
    a valid but loose upper bound for even-k parities, ``docs/errata.md`` E-PDP-Thm11)."""
    s = to_fraction(sigma, "sigma")
    if s <= 0:
        raise InvalidInputError(f"sigma must be positive, got {s}")
    if not isinstance(n, int) or n < 1:
        raise InvalidInputError(f"n must be a positive int, got {n!r}")
    if family not in FAMILIES:
        raise InvalidInputError(f"family must be one of {FAMILIES}, got {family!r}")
    if not (isinstance(d, int) and isinstance(k, int) and 1 <= k <= d):
        raise InvalidInputError(f"need integers 1 <= k <= d, got d={d!r}, k={k!r}")
    r = diameters(family, d, k)
    if delta_variant == "computed":
        dsq, d0sq = r.delta_sq, r.delta0_sq
    elif delta_variant == "printed":
        dsq, d0sq = r.claimed_delta_sq, r.claimed_delta0_sq
    else:
        raise InvalidInputError(f"delta_variant must be 'computed' or 'printed', got {delta_variant!r}")
    denom = s * s * n * n
    return ProjectionPrivacy(dsq, d0sq, Fraction(dsq) / denom, Fraction(d0sq) / denom)


def gaussian_dstar(a: Sequence, b: Sequence, sigma) -> Fraction:
    """D*(N(a, s^2 I) || N(b, s^2 I)) = sup_lambda D_lambda/lambda = ||a - b||^2/(2 s^2), exact
    (D_lambda = lambda ||a-b||^2/(2 s^2), Def. 2 (Sec. 2); derived in sympy in the tests)."""
    s = to_fraction(sigma, "sigma")
    if s <= 0:
        raise InvalidInputError(f"sigma must be positive, got {s}")
    aa = [to_fraction(v, "a") for v in a]
    bb = [to_fraction(v, "b") for v in b]
    if len(aa) != len(bb):
        raise InvalidInputError("gaussian_dstar: mean vectors of different lengths")
    return sum(((u - v) ** 2 for u, v in zip(aa, bb)), Fraction(0)) / (2 * s * s)


@dataclass(frozen=True)
class DatasetSensitivities:
    """max ||Q(x) - Q(x')||^2 over neighbouring datasets in X^n (exact), with witnesses."""

    record_sq: Fraction
    attribute_sq: Fraction
    record_witness: tuple
    attribute_witness: tuple
    pairs_record: int
    pairs_attribute: int


def dataset_sensitivities(answers_int: np.ndarray, d: int, n: int) -> DatasetSensitivities:
    """Brute force over ALL datasets x in ({0,1}^d)^n and all neighbours x' (one record replaced /
    one attribute of one record flipped): exact max ||Q(x) - Q(x')||_2^2 with Q(x) the average of
    the integer answer rows (record index bit i = attribute i, as in :func:`workload`)."""
    a = np.asarray(answers_int)
    if a.dtype.kind not in "iu":
        raise InvalidInputError("dataset_sensitivities needs an integer answer matrix (exactness)")
    size = 2 ** d
    if a.shape[0] != size:
        raise InvalidInputError(f"answers has {a.shape[0]} rows, expected 2^d = {size}")
    best_rec, best_att = 0, 0
    wit_rec: tuple = ()
    wit_att: tuple = ()
    n_rec = n_att = 0
    rows = [tuple(int(v) for v in a[u]) for u in range(size)]
    for x in itertools.product(range(size), repeat=n):
        sums = [sum(rows[u][j] for u in x) for j in range(a.shape[1])]
        for i in range(n):
            for u2 in range(size):
                if u2 == x[i]:
                    continue
                x2 = x[:i] + (u2,) + x[i + 1:]
                sums2 = [sum(rows[u][j] for u in x2) for j in range(a.shape[1])]
                # n^2 ||Q(x) - Q(x')||^2, computed from the two datasets' full sums
                sq = sum((s1 - s2) ** 2 for s1, s2 in zip(sums, sums2))
                n_rec += 1
                if sq > best_rec:
                    best_rec, wit_rec = sq, (x, i, u2)
                if bin(u2 ^ x[i]).count("1") == 1:
                    n_att += 1
                    if sq > best_att:
                        best_att, wit_att = sq, (x, i, u2)
    return DatasetSensitivities(Fraction(best_rec, n * n), Fraction(best_att, n * n), wit_rec, wit_att,
                                n_rec, n_att)


# -- utility ------------------------------------------------------------------------------------------

def utility_bound(sigma: float, delta: float, m: int, domain_size: int) -> float:
    """RHS of eq. (2) (Thm 11): min{sigma^2, sigma Delta sqrt(2 log|X|)/m} (natural log), float64."""
    if not (sigma > 0 and delta >= 0 and m >= 1 and domain_size >= 1):
        raise InvalidInputError("utility_bound: need sigma > 0, Delta >= 0, m >= 1, |X| >= 1")
    return min(sigma * sigma, sigma * delta * math.sqrt(2.0 * math.log(domain_size)) / m)


def empirical_bernstein_lower(samples: np.ndarray, value_range: float, alpha: float) -> float:
    """Lower confidence bound for E[Z] from i.i.d. Z in [0, value_range] (Maurer-Pontil 2009,
    Thm 4, one-sided): with probability >= 1 - alpha,
    E[Z] >= mean - sqrt(2 V ln(2/alpha)/N) - 7 R ln(2/alpha)/(3(N-1))  (V = sample variance, ddof 1).
    A test "lower bound > claimed bound => violation" thus has false-failure rate <= alpha."""
    z = np.asarray(samples, dtype=np.float64)
    nobs = z.size
    if nobs < 2 or not 0 < alpha < 1 or value_range <= 0:
        raise InvalidInputError("empirical_bernstein_lower: need >= 2 samples, alpha in (0,1), range > 0")
    if z.min() < -1e-12 or z.max() > value_range * (1 + 1e-12):
        raise InvalidInputError("empirical_bernstein_lower: samples outside [0, value_range]")
    log_term = math.log(2.0 / alpha)
    var = float(np.var(z, ddof=1))
    return float(z.mean()) - math.sqrt(2.0 * var * log_term / nobs) - 7.0 * value_range * log_term / (3.0 * (nobs - 1))


def workload_float(family: str, d: int, k: int) -> np.ndarray:
    """The answer matrix of :func:`bcdp.partial.projection.workload` as float64."""
    return workload(family, d, k)[0].astype(np.float64)
