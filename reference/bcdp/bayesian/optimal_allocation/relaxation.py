"""The relaxation on a box (step 3 of the method) and the exact recomputation of a leaf bound (step 4).

BCDP paper (arXiv:2410.18404), Sec. 4, eq. (17); method and proofs in
:mod:`bcdp.bayesian.optimal_allocation`.  On a box, the secants of the squared increments give a
convex minorant R of the objective; a local solver (SLSQP, scipy) only *proposes* a point z^ and
multipliers y, and :func:`bound_formula` turns any proposal into a valid lower bound (tangent
inequality plus weak duality).  :class:`LeafCertifier` re-evaluates that formula in exact rational
arithmetic for the certificate.  :func:`bound_formula` and :func:`crude_bound` work on floats
(search) and on Fractions (certificate) alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from bcdp.bayesian.optimal_allocation.instance import Piece


def secant(lo, hi):
    """(slope, offset) of the secants sigma_h(D) = s_h D - o_h over [Dmin_h, Dmax_h]."""
    p = len(lo)
    s, o = [], []
    for h in range(p):
        plo = lo[h - 1] if h else 0
        phi = hi[h - 1] if h else 0
        dmin = max(lo[h] - phi, 0)
        dmax = hi[h] - plo
        s.append(dmin + dmax)
        o.append(dmin * dmax)
    return s, o


def constraints(piece: Piece, a, m):
    """Rows of A z <= b: chain z_{h-1} - z_h <= 0, cuts z_g + a t <= l_g - m (exact if a, m are)."""
    p, j = piece.p, piece.j
    rows, rhs = [], []
    for h in range(1, p):
        r = [0] * p
        r[h - 1], r[h] = 1, -1
        rows.append(r)
        rhs.append(0)
    if piece.has_cuts:
        for g in range(j):
            r = [0] * p
            r[g], r[p - 1] = 1, a
            rows.append(r)
            rhs.append(piece.ell[g] - m)
    return rows, rhs


def bound_formula(piece: Piece, lo, hi, s, o, rows, rhs, z, y):
    """The step-3 bound for given z^ (in E) and y >= 0; works on floats or Fractions.

    Returns None if z^ is not in E.
    """
    n, N, p = piece.n_int, piece.N_int, piece.p
    T = []
    acc = 0
    prev = 0
    for h in range(p):
        acc = acc + (s[h] * (z[h] - prev) - o[h]) / N[h]
        prev = z[h]
        if acc <= 0:
            return None
        T.append(acc)
    R = sum(n[g] / T[g] for g in range(p))
    G = [0] * p                                   # G_h = sum_{g>=h} n_g / T_g^2
    acc = 0
    for g in range(p - 1, -1, -1):
        acc = acc + n[g] / (T[g] * T[g])
        G[g] = acc
    dsig = [-G[h] / N[h] for h in range(p)]        # dR/dsigma_h
    grad = [s[k] * dsig[k] - (s[k + 1] * dsig[k + 1] if k + 1 < p else 0) for k in range(p)]
    r = list(grad)
    comp = 0
    for i, row in enumerate(rows):
        yi = y[i]
        if yi == 0:
            continue
        az = sum(row[k] * z[k] for k in range(p) if row[k] != 0)
        comp = comp + yi * (az - rhs[i])
        for k in range(p):
            if row[k] != 0:
                r[k] = r[k] + yi * row[k]
    box = 0
    for k in range(p):
        box = box + min(r[k] * lo[k], r[k] * hi[k]) - r[k] * z[k]
    return R + comp + box


def crude_bound(piece: Piece, lo, hi):
    """F >= sum_g n_g / sum_{h<=g} Dmax_h^2 / N_h on the box (oo if some sum is 0)."""
    n, N, p = piece.n_int, piece.N_int, piece.p
    acc = 0
    tot = 0
    for h in range(p):
        dmax = hi[h] - (lo[h - 1] if h else 0)
        dmax = max(dmax, 0)
        acc = acc + dmax * dmax / N[h]
        if acc <= 0:
            return math.inf
        tot = tot + n[h] / acc
    return tot


@dataclass
class Node:
    piece: Piece
    lo: list[float]
    hi: list[float]
    lb: float
    z: list[float] | None
    y: list[float] | None
    a: float
    score: list[float]


def _cut_slope(piece: Piece, t_lo: float, t_hi: float) -> float:
    inst = piece.inst
    if inst.q == 1:
        return 1.0
    return inst.Lp(0.5 * (t_lo + t_hi))


def evaluate(piece: Piece, lo: list[float], hi: list[float], z0,
              scale: float) -> tuple[Node, tuple[float, list[float]] | None]:
    """Relaxation bound on a box (float), plus a feasible candidate projected from z^."""
    from scipy.optimize import minimize

    inst, p = piece.inst, piece.p
    s, o = secant(lo, hi)
    a = _cut_slope(piece, lo[-1], hi[-1])
    if piece.has_cuts:
        if inst.q == 1:
            m = 0.0
        else:
            t0 = 0.5 * (lo[-1] + hi[-1])
            m = inst.L(t0) - a * t0
    else:
        m = 0.0
    rows, rhs = constraints(piece, a, m)
    A = np.array(rows, dtype=float).reshape(len(rows), p)
    b = np.array(rhs, dtype=float)
    sa, oa = np.array(s, dtype=float), np.array(o, dtype=float)
    n, N = piece.n, piece.N
    big = 1e300

    def Rf(z):
        D = np.diff(z, prepend=0.0)
        T = np.cumsum((sa * D - oa) / N)
        if np.any(T <= 0):
            return big
        return float(np.sum(n / T)) / scale

    def Rg(z):
        D = np.diff(z, prepend=0.0)
        T = np.cumsum((sa * D - oa) / N)
        if np.any(T <= 0):
            return np.zeros(p)
        G = np.cumsum((n / T ** 2)[::-1])[::-1]
        dsig = -G / N
        g = sa * dsig
        g[:-1] -= sa[1:] * dsig[1:]
        return g / scale

    lo_a, hi_a = np.array(lo), np.array(hi)
    # the solver sees u in [0, 1]^p with z = lo + W u (per-coordinate scaling)
    W = np.maximum(hi_a - lo_a, 1e-300)
    start = np.clip(np.asarray(z0, dtype=float), lo_a, hi_a) if z0 is not None else 0.5 * (lo_a + hi_a)
    start = np.maximum.accumulate(start)
    start = np.minimum(start, hi_a)
    if start[0] <= 0:
        start[0] = min(hi_a[0], max(lo_a[0], 1e-3 * hi_a[0]))
    bounds = [(0.0, 1.0)] * p
    if lo[0] <= 0:
        bounds[0] = (min(1e-9, 1.0), 1.0)
    zhat, y = None, None
    if len(rows):
        As = A * W
        bs = b - A @ lo_a
        cons = [{"type": "ineq", "fun": lambda u: bs - As @ u, "jac": lambda u: -As}]
    else:
        cons = []
    try:
        res = minimize(lambda u: Rf(lo_a + W * u), (start - lo_a) / W, jac=lambda u: Rg(lo_a + W * u) * W,
                       bounds=bounds, constraints=cons, method="SLSQP",
                       options={"ftol": 1e-14, "maxiter": 60})
        zhat = [float(v) for v in np.clip(lo_a + W * res.x, lo_a, hi_a)]
        mult = getattr(res, "multipliers", None)
        if len(rows):
            if mult is None or len(mult) != len(rows):   # scipy < 1.15: no multipliers
                y = _nnls_multipliers(A, b, np.array(zhat), Rg(np.array(zhat)) * scale, lo_a, hi_a)
            else:
                y = [max(float(v) * scale, 0.0) for v in mult]
        else:
            y = []
    except (ValueError, FloatingPointError, ZeroDivisionError):  # pragma: no cover - defensive
        zhat = None
    lb = crude_bound(piece, lo, hi)
    score = [hi[k] - lo[k] for k in range(p)]
    if zhat is not None:
        val = bound_formula(piece, lo, hi, s, o, rows, rhs, zhat, y)
        if val is not None and val > lb:
            lb = val
        # branching score: secant width times sensitivity, plus the cut error on t
        D = np.diff(np.array(zhat), prepend=0.0)
        T = np.cumsum((sa * D - oa) / N)
        if np.all(T > 0):
            G = np.cumsum((n / T ** 2)[::-1])[::-1] / N
            width = [hi[k] - lo[k] for k in range(p)]
            score = []
            for k in range(p):
                sc = G[k] * width[k] * (width[k] + (width[k - 1] if k else 0.0))
                if k + 1 < p:
                    sc += G[k + 1] * width[k] * (width[k] + width[k + 1])
                score.append(sc)
            if piece.has_cuts and inst.q < 1:
                wt = hi[-1] - lo[-1]
                score[-1] += sum(y[p - 1:]) * inst.Lpp(0.5 * (lo[-1] + hi[-1])) * wt * wt / 8
    node = Node(piece, lo, hi, lb, zhat, y, a, score)
    cand = None
    if zhat is not None:
        cand = project(piece, zhat)
    return node, cand


def _nnls_multipliers(A, b, z, grad, lo, hi) -> list[float]:
    """y >= 0 on the (nearly) active rows minimising |grad + A^T y| on the coordinates that are
    not at a box bound (any y >= 0 keeps the bound valid; this one makes it tight at a KKT point).

    Nearly active: slack b_i - (A z)_i <= 1e-9 (1 + |b_i|); at a box bound: within 1e-9 box widths
    (inclusive) of lo or hi.  Used only when scipy's SLSQP returns no multipliers (scipy < 1.15)."""
    from scipy.optimize import nnls

    width = np.maximum(hi - lo, 1e-300)
    free = (z - lo > 1e-9 * width) & (hi - z > 1e-9 * width)
    slack = b - A @ z
    active = slack <= 1e-9 * (1 + np.abs(b))
    y = np.zeros(len(b))
    if not active.any() or not free.any():
        return [0.0] * len(b)
    sol, _ = nnls(A[active][:, free].T, -grad[free])
    y[active] = sol
    return [float(v) for v in y]


def project(piece: Piece, z) -> tuple[float, list[float]] | None:
    """A (float) feasible point of piece j near z: clip t, clip x_g to l_g - L(t), restore order."""
    inst, j = piece.inst, piece.j
    t_hi = float(piece.t_hi_exact)
    t = min(max(z[-1], float(piece.t_lo_exact)), t_hi)
    Lt = inst.L(t)
    x = []
    for g in range(j):
        ub = min(piece.ellf[g] - Lt, t) * (1 - 1e-13)
        x.append(min(max(z[g], 0.0), ub))
    zz = np.array(x + [t])
    zz = np.maximum.accumulate(zz)
    if zz[0] <= 0 or any(zz[g] > piece.ellf[g] - Lt for g in range(j)):
        return None
    return piece.F(zz), [float(v) for v in zz]



class LeafCertifier:
    def __init__(self):
        self._cut_cache: dict[tuple[int, float, float, float], Fraction] = {}

    def leaf_bound(self, node: Node) -> Fraction | float:
        piece = node.piece
        lo = [Fraction(v) for v in node.lo]
        hi = [Fraction(v) for v in node.hi]
        crude = crude_bound(piece, lo, hi)
        best = crude
        if node.z is None:
            return best
        s, o = secant(lo, hi)
        a = Fraction(node.a)
        m = Fraction(0)
        if piece.has_cuts:
            key = (id(piece), node.lo[-1], node.hi[-1], node.a)
            if key not in self._cut_cache:
                self._cut_cache[key] = piece.inst.cut_offset(node.lo[-1], node.hi[-1], a)
            m = self._cut_cache[key]
        rows, rhs = constraints(piece, a, m)
        z = [Fraction(v) for v in node.z]
        y = [Fraction(v) if v > 0 else Fraction(0) for v in node.y]
        val = bound_formula(piece, lo, hi, s, o, rows, rhs, z, y)
        if val is not None and val > best:
            best = val
        return best

