"""The best allocation: minimise the eq. (17) objective over all privacy-feasible budgets c.

BCDP paper, Sec. 4 (Theorem 2, eqs. 16-17; privacy proof in App. B.2).  Sort the demands
(``allocation.sorted_order``), put delta~_i = min(delta_i, eps) and L(t) = log(1 + q (e^t - 1)).
We minimise

    F(c) = sum_{i=1}^d 1 / S_i,   S_i = sum_{k<=i} (c_k - c_{k-1})^2 / (d - k + 1),   c_0 = 0,

over the budgets that the proof of Theorem 2 certifies (Mechanism 1 is c-CDP and c_d-LDP, then
Prop. 4 part 2): 0 <= c_1 <= ... <= c_d = t <= eps and, for every i, t <= delta~_i or
c_i + L(t) <= delta~_i.  For fixed t this reads c_i <= u_i(t) with u_i(t) = t if t <= delta~_i and
u_i(t) = delta~_i - L(t) otherwise; u_i is non-decreasing in i.  (i = d forces t <= delta~_d <= eps.)

The problem is not convex, so the module returns a certified *pair*: a rational feasible point (an
upper bound) and a lower bound on the true minimum whose validity does not depend on any local
solver having converged.  The method has four steps.

1. Group reduction (exact, proved here).  Fix t and a run [a, e] of consecutive sorted coordinates
   with c_e <= u_a(t) (e.g. a run with equal u_i(t)).  Replacing c_a, ..., c_{e-1} by c_e (i.e.
   moving all increments Delta_k = c_k - c_{k-1}, k in [a, e], to k = a) keeps c feasible and does
   not increase F.  Proof: write w_k = 1/(d-k+1), D = sum_{k=a}^e Delta_k, and for i >= a
   S_i = A_i + x_i with A_i = S_{a-1} + (contributions of increments after e), non-decreasing in i,
   x_i = sum_{a<=k<=min(i,e)} w_k Delta_k^2; after the move x'_i = w_a D^2.  By convexity of
   f_i(x) = 1/(A_i + x),  F - F' >= sum_{i>=a} g_i (x'_i - x_i)  with g_i = (A_i + x'_i)^{-2}
   non-increasing in i.  By Abel summation it suffices that every partial sum
   Y_m = sum_{i=a}^m (x'_i - x_i) is >= 0, and indeed
   sum_{i=a}^m x_i = sum_k Delta_k^2 w_k (m-k+1) <= w_a (m-a+1) sum_k Delta_k^2 <= w_a (m-a+1) D^2
   because w_k (m-k+1) = 1 - (d-m)/(d-k+1) is non-increasing in k and sum Delta^2 <= (sum Delta)^2.
   Hence some optimal c is constant on every group of coordinates with equal u_i(t).

2. Pieces in t.  Let l_1 < ... < l_m be the distinct values of delta~ (n_g coordinates each).  On
   piece 0, t in (0, l_1], every u_i(t) = t, so by step 1 c = (t, ..., t) and F = d^2/t^2: the
   piece's minimum is d^2 / l_1^2 (the min-delta baseline), exactly.  On piece j >= 1,
   t in (l_j, l_{j+1}], the groups are the levels l_1..l_j (bound l_g - L(t)) and one top group
   (all delta~ >= l_{j+1}, bound t), so the problem becomes (p = j + 1 variables)

       min  sum_{g=1}^{p} n_g / S_g,   S_g = sum_{h<=g} (z_h - z_{h-1})^2 / N_h,  z_0 = 0,
       s.t. 0 <= z_1 <= ... <= z_j <= z_p = t,   z_g + L(t) <= l_g (g <= j),   t in [l_j, l_{j+1}],

   where N_h = number of coordinates in groups h..p.  We search the closed interval: at t = l_j the
   constraint z_j + L(t) <= l_j is stricter than the true one (u = t there), so every point of the
   closed problem is truly feasible (upper bounds stay valid) and the closed problem contains the
   piece (lower bounds stay valid).  Pieces with L^{-1}(l_1) <= l_j are certified empty (then
   z_1 <= 0 and F = oo); e.g. every piece j >= 1 when q = 1.  For q = 0, L = 0 and the bounds
   do not depend on t, so raising c_d to delta~_d keeps c feasible and only increases S_d: only
   t = l_m (in piece m - 1) needs to be searched.

3. Branch and bound over boxes in z (all pieces together, best-first).  On a box
   [lo, hi] intersected with the chain, Delta_h = z_h - z_{h-1} lies in
   [Dmin_h, Dmax_h] = [max(0, lo_h - hi_{h-1}), hi_h - lo_{h-1}], where the secant
   sigma_h(D) = (Dmin_h + Dmax_h) D - Dmin_h Dmax_h >= D^2.  Hence F >= R with
   R(z) = sum_g n_g / T_g(z),  T_g = sum_{h<=g} sigma_h(Delta_h) / N_h, a convex function of z
   (1/positive-affine) on E = {T_g > 0 for all g}.  The concave bound z_g <= l_g - L(t) is
   replaced by the valid linear cut z_g + a t <= l_g - m with m <= min_{t in box} (L(t) - a t)
   (L is convex; a = L'(t_mid); m from a tangent at t_mid, computed in interval arithmetic).
   With A z <= b collecting the chain rows and these cuts, for ANY z^ in E and ANY y >= 0
   (tangent inequality of the convex R plus weak duality, box constraints exact; feasible points
   outside E have some S_g = 0, i.e. F = oo):

       min_{feasible z in box} F(z)  >=  R(z^) + y.(A z^ - b)
                                          + sum_h [ min(r_h lo_h, r_h hi_h) - r_h z^_h ],
       r = grad R(z^) + A^T y.

   A local solver (SLSQP) only *proposes* z^ (the relaxation's minimiser) and y (its multipliers);
   a poor proposal only weakens the bound.  Also F >= sum_g n_g / sum_{h<=g} Dmax_h^2/N_h on the
   box (a crude bound; we take the larger).  The secant and the cut are exact up to O(width^2), so
   the bound converges quadratically and boxes are pruned fast.  Box boundaries produced by the
   feasibility propagation (z_g <= l_g - L(t_lo), t <= L^{-1}(l_g - lo_g), chain) are rounded
   outwards with interval arithmetic, so the leaves cover the feasible set.

4. Certificate.  When the search stops (relative gap <= tol, or the node budget is spent) the
   bound of every leaf (open or pruned) is recomputed in exact rational arithmetic (Fractions;
   L-dependent constants as rational interval endpoints), and ``lower_bound`` is the minimum of
   these, of d^2/l_1^2 (piece 0) and of oo (empty pieces), rounded down.  The upper bound is the
   best point found, polished by SLSQP on the reduced problem, rounded to a rational point
   (active bounds use 26-digit rational lower bounds of l_g - L(t); other values keep 16 digits and
   sit at stationary points, so rounding costs < 1e-20 relatively) and certified feasible with
   :func:`bcdp.core.intervals.compare` for every coordinate.  ``objective_upper`` is its exact objective.

Edge cases: delta_1 = 0 forces c_1 = 0, so every feasible c has F = oo (we return c = 0, both bounds
oo, gap 0); q = 1 gives the min-delta baseline (only piece 0 is non-empty); q = 0 makes L = 0;
d = 1 gives c_1 = delta~_1; delta_i > eps is capped at eps.

Cost: the search runs in p <= m dimensions (m = number of distinct levels of delta~).  For m <= 10
(e.g. the Fig. 3 setting, m = 2: well under a second per q) it reaches the default tol = 1e-9;
with many more distinct levels the node cap ends the search early and the reported (still
certified) gap is larger.  Below tol ~ 1e-12 the float search cannot separate bounds any more.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import mpmath
import numpy as np
import sympy
from scipy.optimize import minimize

from bcdp.bayesian.allocation import (
    BudgetAllocation,
    mse_objective,
    sorted_order,
    validate_demands,
)
from bcdp.core.intervals import compare

__all__ = ["OptimalAllocation", "optimal_allocation"]

METHOD = "group reduction + branch-and-bound on (levels, t), secant relaxation, exact leaf bounds"


@dataclass(frozen=True)
class OptimalAllocation:
    """A certified-feasible rational allocation and a certified lower bound on the optimum.

    ``allocation.c`` are sympy Rationals in the caller's order (``allocation.method == "optimal"``);
    ``objective_upper == allocation.objective`` (exact); ``lower_bound`` (exact Rational, or oo) is
    <= the minimum of F over all feasible c; ``gap = (objective_upper - lower_bound) /
    objective_upper`` (exact; 0 when both are oo).  ``stats`` holds solver diagnostics.
    """

    allocation: BudgetAllocation
    objective_upper: sympy.Expr
    lower_bound: sympy.Expr
    gap: sympy.Expr
    method: str
    stats: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        out = self.allocation.to_json()
        out.update({
            "objective_upper": str(self.objective_upper),
            "lower_bound": str(self.lower_bound),
            "lower_bound_float": "inf" if self.lower_bound is sympy.oo else float(self.lower_bound),
            "gap": float(self.gap),
            "solver": self.method,
        })
        return out


# ----------------------------------------------------------------------------------------------
# rigorous helpers (mpmath interval arithmetic -> exact Fractions / outward-rounded floats)

_IV = mpmath.iv


class _iv_prec:
    """Set mpmath.iv's working precision (bits) for a block; ``extra_for`` adds the bits lost to
    the cancellation in e^x - 1 when 0 < x << 1 (the intervals stay valid either way)."""

    def __init__(self, bits: int, extra_for: Any = None):
        if extra_for is not None:
            x = abs(float(extra_for))
            if 0 < x < 1:
                bits += min(4000, -math.frexp(x)[1])
            elif x == 0 and extra_for != 0:
                bits += 4000
        self.bits = bits

    def __enter__(self):
        self.old = _IV.prec
        _IV.prec = self.bits
        return self

    def __exit__(self, *exc):
        _IV.prec = self.old
        return False


def _ivq(x: Fraction | int | float):
    if isinstance(x, float):
        return _IV.mpf(x)
    x = Fraction(x)
    return _IV.mpf(x.numerator) / _IV.mpf(x.denominator)


def _raw_fraction(raw) -> Fraction:
    """Exact value of a raw mpmath (sign, man, exp, bc) tuple."""
    sign, man, exp, _ = raw
    if man == 0:
        if exp != 0:
            raise ArithmeticError("non-finite interval endpoint")
        return Fraction(0)
    out = Fraction(man) * Fraction(2) ** exp
    return -out if sign else out


def _lo_frac(enc) -> Fraction:
    """Exact lower endpoint of an mpmath.iv interval (no rounding to mp.prec)."""
    return _raw_fraction(enc._mpi_[0])


def _hi_frac(enc) -> Fraction:
    return _raw_fraction(enc._mpi_[1])


def _float_up(x: Fraction) -> float:
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


def _float_down(x: Fraction) -> float:
    f = float(x)
    return f if Fraction(f) <= x else math.nextafter(f, -math.inf)


# ----------------------------------------------------------------------------------------------
# the instance and its pieces


class _Instance:
    def __init__(self, tilde_sorted: list[Fraction], q: Fraction):
        self.d = len(tilde_sorted)
        self.q = q
        self.qf = float(q)
        levels: list[Fraction] = []
        counts: list[int] = []
        for v in tilde_sorted:
            if levels and levels[-1] == v:
                counts[-1] += 1
            else:
                levels.append(v)
                counts.append(1)
        self.levels, self.counts = levels, counts
        self.m = len(levels)

    # float versions (search only; overflow-safe for large t)
    def L(self, t: float) -> float:
        q = self.qf
        if q <= 0:
            return 0.0
        if q >= 1:
            return t
        if t > 30:
            return t + math.log(q + (1 - q) * math.exp(-t))
        return math.log1p(q * math.expm1(t))

    def Lp(self, t: float) -> float:
        q = self.qf
        if q <= 0:
            return 0.0
        if q >= 1:
            return 1.0
        em = math.exp(-t)
        return q / (q + (1 - q) * em)

    def Lpp(self, t: float) -> float:
        q = self.qf
        if q <= 0 or q >= 1:
            return 0.0
        em = math.exp(-t)
        return q * (1 - q) * em / (q + (1 - q) * em) ** 2

    def Linv(self, v: float) -> float:
        """L^{-1}(v) = log(1 + (e^v - 1)/q) (inf if q underflows to 0)."""
        q = self.qf
        if q <= 0:
            return math.inf
        if q >= 1:
            return v
        if v > 30:
            return v + math.log(-math.expm1(-v) / q + math.exp(-v))
        return math.log1p(math.expm1(v) / q)

    # interval versions (certificates)
    def iv_L(self, t):
        if self.q == 0:
            return _IV.mpf(0)
        if self.q == 1:
            return t
        return _IV.log(1 + _ivq(self.q) * (_IV.exp(t) - 1))

    def iv_Linv(self, v):
        """L^{-1}(v) = log(1 + (e^v - 1)/q) for q > 0."""
        if self.q == 1:
            return v
        return _IV.log(1 + (_IV.exp(v) - 1) / _ivq(self.q))

    def clip_up(self, level: Fraction, t_lo: float) -> float:
        """A float >= level - L(t_lo)."""
        with _iv_prec(64, t_lo):
            return _float_up(_hi_frac(_ivq(level) - self.iv_L(_IV.mpf(t_lo))))

    def tmax_up(self, level: Fraction, lo: float) -> float:
        """A float >= L^{-1}(level - lo) (q > 0, level >= lo)."""
        v = Fraction(level) - Fraction(lo)
        with _iv_prec(64, v):
            return _float_up(_hi_frac(self.iv_Linv(_ivq(v))))

    def cut_offset(self, t_lo: float, t_hi: float, a: Fraction) -> Fraction:
        """A rational m <= min_{t in [t_lo, t_hi]} (L(t) - a t)  (tangent at the midpoint)."""
        if self.q == 1 and a == 1:
            return Fraction(0)
        t0 = (Fraction(t_lo) + Fraction(t_hi)) / 2
        w = (Fraction(t_hi) - Fraction(t_lo)) / 2
        with _iv_prec(96, t0):
            ti = _ivq(t0)
            qi = _ivq(self.q)
            et = _IV.exp(ti)
            Lp = qi * et / (1 + qi * (et - 1))
            diff = Lp - _ivq(a)
            slack = max(abs(_lo_frac(diff)), abs(_hi_frac(diff))) * w
            return _lo_frac(self.iv_L(ti) - _ivq(a) * _ivq(t0)) - slack


class _Piece:
    """Piece j >= 1: variables z = (x_1..x_j, t); see the module docstring, step 2."""

    def __init__(self, inst: _Instance, j: int):
        self.inst, self.j, self.p = inst, j, j + 1
        n = list(inst.counts[:j]) + [sum(inst.counts[j:])]
        self.n_int = n
        self.N_int = [sum(n[g:]) for g in range(self.p)]
        self.n = np.array(n, dtype=float)
        self.N = np.array(self.N_int, dtype=float)
        self.ell = list(inst.levels[:j])                   # exact bounds l_g, g < j
        self.ellf = [float(v) for v in self.ell]
        self.t_lo_exact = inst.levels[j - 1]
        self.t_hi_exact = inst.levels[j]
        self.has_cuts = inst.q > 0

    # -- float objective on the reduced problem
    def F(self, z: np.ndarray) -> float:
        D = np.diff(z, prepend=0.0)
        S = np.cumsum(D * D / self.N)
        if np.any(S <= 0):
            return math.inf
        return float(np.sum(self.n / S))

    def root_box(self) -> tuple[list[float], list[float]] | None:
        inst = self.inst
        t_lo = _float_down(self.t_lo_exact)
        t_hi = _float_up(self.t_hi_exact)
        if inst.q == 0 and self.j == inst.m - 1:
            t_lo = _float_down(self.t_hi_exact)     # q = 0: t = l_m (dominance, step 2)
        lo = [0.0] * self.p
        hi = [_float_up(v) for v in self.ell] + [t_hi]
        lo[-1] = t_lo
        return self.propagate(lo, hi)

    def propagate(self, lo: list[float], hi: list[float]):
        """Shrink the box to contain the same feasible points (outward-rounded); None if empty."""
        inst, p, j = self.inst, self.p, self.j
        lo, hi = list(lo), list(hi)
        for _ in range(3):
            for g in range(p - 2, -1, -1):
                hi[g] = min(hi[g], hi[g + 1])
            lo[0] = max(lo[0], 0.0)
            for g in range(1, p):
                lo[g] = max(lo[g], lo[g - 1])
            t_lo = lo[-1]
            if inst.q > 0:
                Lf = inst.L(t_lo)
                for g in range(j):
                    approx = self.ellf[g] - Lf
                    if approx < hi[g] - 1e-12 * abs(approx):        # float pre-check only
                        hi[g] = min(hi[g], inst.clip_up(self.ell[g], t_lo))
                for g in range(j):
                    if Fraction(lo[g]) > self.ell[g]:
                        return None
                    approx = inst.Linv(self.ellf[g] - lo[g])
                    if approx < hi[-1] - 1e-12 * abs(approx):
                        hi[-1] = min(hi[-1], inst.tmax_up(self.ell[g], lo[g]))
            if any(lo[k] > hi[k] for k in range(p)):
                return None
        return lo, hi


# ----------------------------------------------------------------------------------------------
# the relaxation on a box: float proposal, bound formula (float and exact)


def _secant(lo, hi):
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


def _constraints(piece: _Piece, a, m):
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


def _bound_formula(piece: _Piece, lo, hi, s, o, rows, rhs, z, y):
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


def _crude_bound(piece: _Piece, lo, hi):
    """F >= sum_g n_g / sum_{h<=g} Dmax_h^2 / N_h on the box (oo if some sum is 0)."""
    n, N, p = piece.n_int, piece.N_int, piece.p
    acc = 0
    tot = 0
    for h in range(p):
        dmax = hi[h] - (lo[h - 1] if h else 0)
        if dmax < 0:
            dmax = 0
        acc = acc + dmax * dmax / N[h]
        if acc <= 0:
            return math.inf
        tot = tot + n[h] / acc
    return tot


@dataclass
class _Node:
    piece: _Piece
    lo: list[float]
    hi: list[float]
    lb: float
    z: list[float] | None
    y: list[float] | None
    a: float
    score: list[float]


def _cut_slope(piece: _Piece, t_lo: float, t_hi: float) -> float:
    inst = piece.inst
    if inst.q == 1:
        return 1.0
    return inst.Lp(0.5 * (t_lo + t_hi))


def _evaluate(piece: _Piece, lo: list[float], hi: list[float], z0,
              scale: float) -> tuple[_Node, tuple[float, list[float]] | None]:
    """Relaxation bound on a box (float), plus a feasible candidate projected from z^."""
    inst, p, j = piece.inst, piece.p, piece.j
    s, o = _secant(lo, hi)
    a = _cut_slope(piece, lo[-1], hi[-1])
    if piece.has_cuts:
        if inst.q == 1:
            m = 0.0
        else:
            t0 = 0.5 * (lo[-1] + hi[-1])
            m = inst.L(t0) - a * t0
    else:
        m = 0.0
    rows, rhs = _constraints(piece, a, m)
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
    lb = _crude_bound(piece, lo, hi)
    score = [hi[k] - lo[k] for k in range(p)]
    if zhat is not None:
        val = _bound_formula(piece, lo, hi, s, o, rows, rhs, zhat, y)
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
    node = _Node(piece, lo, hi, lb, zhat, y, a, score)
    cand = None
    if zhat is not None:
        cand = _project(piece, zhat)
    return node, cand


def _nnls_multipliers(A, b, z, grad, lo, hi) -> list[float]:
    """y >= 0 on the (nearly) active rows minimising |grad + A^T y| on the coordinates that are
    not at a box bound (any y >= 0 keeps the bound valid; this one makes it tight at a KKT point)."""
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


def _project(piece: _Piece, z) -> tuple[float, list[float]] | None:
    """A (float) feasible point of piece j near z: clip t, clip x_g to l_g - L(t), restore order."""
    inst, p, j = piece.inst, piece.p, piece.j
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


# ----------------------------------------------------------------------------------------------
# exact recomputation of a leaf bound


class _Certifier:
    def __init__(self):
        self._cut_cache: dict[tuple[int, float, float, float], Fraction] = {}

    def leaf_bound(self, node: _Node) -> Fraction | float:
        piece = node.piece
        lo = [Fraction(v) for v in node.lo]
        hi = [Fraction(v) for v in node.hi]
        crude = _crude_bound(piece, lo, hi)
        best = crude
        if node.z is None:
            return best
        s, o = _secant(lo, hi)
        a = Fraction(node.a)
        m = Fraction(0)
        if piece.has_cuts:
            key = (id(piece), node.lo[-1], node.hi[-1], node.a)
            if key not in self._cut_cache:
                self._cut_cache[key] = piece.inst.cut_offset(node.lo[-1], node.hi[-1], a)
            m = self._cut_cache[key]
        rows, rhs = _constraints(piece, a, m)
        z = [Fraction(v) for v in node.z]
        y = [Fraction(v) if v > 0 else Fraction(0) for v in node.y]
        val = _bound_formula(piece, lo, hi, s, o, rows, rhs, z, y)
        if val is not None and val > best:
            best = val
        return best


# ----------------------------------------------------------------------------------------------
# rational feasible point


def _round_rel(x: float | Fraction, digits: int = 16) -> Fraction:
    """x rounded to ``digits`` significant decimal digits (exact Fraction)."""
    xf = Fraction(x)
    if xf == 0:
        return xf
    k = digits - 1 - math.floor(math.log10(abs(float(xf)))) if float(xf) != 0 else digits
    if k >= 0:
        return Fraction(round(xf * 10 ** k), 10 ** k)
    return Fraction(round(xf / 10 ** (-k))) * 10 ** (-k)


def _floor_rel(x: Fraction, digits: int) -> Fraction:
    """A rational <= x with about ``digits`` significant decimal digits."""
    if x <= 0:
        return x
    k = digits - 1 - math.floor(math.log10(float(x))) if float(x) > 0 else digits
    den = 10 ** k if k >= 0 else Fraction(1, 10 ** (-k))
    return Fraction(math.floor(x * den)) / den


def _rational_point(piece: _Piece, z: list[float], attempt: int) -> list[Fraction]:
    """Rational (x_1..x_j, t) near z that satisfies the piece's constraints (to be certified).

    t snaps to an end of the piece when within 1e-9 (relative), else keeps 16 digits (the
    objective is stationary in interior directions); a bound-active x_g becomes a rational lower
    bound of l_g - L(t) (26 digits, minus a relative margin growing with ``attempt``); a merged
    x_g equals x_{g+1}; an interior x_g keeps 16 digits.
    """
    inst, p, j = piece.inst, piece.p, piece.j
    margin = Fraction(1, 10 ** (24 - 4 * attempt))
    t_lo, t_hi = piece.t_lo_exact, piece.t_hi_exact
    if inst.q > 0:
        with _iv_prec(128, piece.ell[0]):
            t_cap = _lo_frac(inst.iv_Linv(_ivq(piece.ell[0]))) if j else t_hi
        t_hi = min(t_hi, t_cap)
    tf = z[-1]
    tol = 1e-9 * abs(tf)
    if abs(tf - float(t_hi)) <= tol and t_hi == piece.t_hi_exact:
        t = t_hi
    elif abs(tf - float(t_lo)) <= tol:
        t = t_lo
    else:
        t = min(max(_round_rel(tf), t_lo), t_hi)
    bounds = []
    if inst.q in (0, 1):                          # L(t) = 0 or t: the bounds are rational
        bounds = [piece.ell[g] - (t if inst.q == 1 else 0) for g in range(j)]
    else:
        with _iv_prec(200, t):
            Lt = inst.iv_L(_ivq(t))
            for g in range(j):
                bl = _lo_frac(_ivq(piece.ell[g]) - Lt)
                bounds.append(_floor_rel(bl * (1 - margin), 26) if bl > 0 else bl)
    out = [Fraction(0)] * p
    out[-1] = t
    for g in range(j - 1, -1, -1):
        xf = z[g]
        bf = float(bounds[g])
        nxt = out[g + 1]
        if xf >= bf - 1e-9 * abs(bf):
            cand = bounds[g]
        elif xf >= float(nxt) * (1 - 1e-9):
            cand = nxt
        else:
            cand = _round_rel(xf)
        out[g] = max(min(cand, bounds[g], nxt), Fraction(0))
    return out


def _expand(inst: _Instance, piece: _Piece | None, zr: list[Fraction], level0: Fraction) -> list[Fraction]:
    """Sorted c from group values (piece None: the piece-0 point c = l_1 everywhere)."""
    if piece is None:
        return [level0] * inst.d
    c: list[Fraction] = []
    for g in range(piece.j):
        c.extend([zr[g]] * inst.counts[g])
    c.extend([zr[-1]] * (inst.d - len(c)))
    return c


def _certify_feasible(c_sorted: list[Fraction], tilde_sorted: list[Fraction], eps: Fraction, q: Fraction) -> bool:
    """Exact check of the constraints (compare for the log terms; one check per distinct (c, delta~))."""
    if c_sorted[0] < 0 or any(c_sorted[k] > c_sorted[k + 1] for k in range(len(c_sorted) - 1)):
        return False
    t = c_sorted[-1]
    if t > eps:
        return False
    L = sympy.log(1 + sympy.Rational(q.numerator, q.denominator)
                  * (sympy.exp(sympy.Rational(t.numerator, t.denominator)) - 1))
    seen: set[tuple[Fraction, Fraction]] = set()
    for ci, dt in zip(c_sorted, tilde_sorted):
        if t <= dt or (ci, dt) in seen:
            continue
        seen.add((ci, dt))
        lhs = sympy.Rational(ci.numerator, ci.denominator) + L
        if compare(lhs, sympy.Rational(dt.numerator, dt.denominator)) > 0:
            return False
    return True


def _polish(piece: _Piece, z: list[float]) -> list[float]:
    """SLSQP on the true reduced problem of the piece (only proposes; the caller re-checks)."""
    inst, p, j = piece.inst, piece.p, piece.j
    if p == 1:
        return z
    scale = piece.F(np.array(z))
    if not math.isfinite(scale) or scale <= 0:
        return z

    def f(v):
        val = piece.F(v)
        return val / scale if math.isfinite(val) else 1e300

    def cons(v):
        Lt = inst.L(v[-1])
        out = [v[h] - v[h - 1] for h in range(1, p)]
        out += [piece.ellf[g] - Lt - v[g] for g in range(j)]
        return np.array(out)

    t_hi = float(piece.t_hi_exact)
    zs = max(z[-1], 1e-300)
    bounds = [(1e-12 * t_hi / zs, t_hi / zs)] * j + [(float(piece.t_lo_exact) / zs, t_hi / zs)]
    try:
        res = minimize(lambda u: f(u * zs), np.array(z) / zs, bounds=bounds,
                       constraints=[{"type": "ineq", "fun": lambda u: cons(u * zs) / zs}],
                       method="SLSQP", options={"ftol": 1e-16, "maxiter": 500})
    except (ValueError, FloatingPointError):  # pragma: no cover - defensive
        return z
    res.x = res.x * zs
    cand = _project(piece, [float(v) for v in res.x])
    if cand is not None and cand[0] <= piece.F(np.array(z)):
        return cand[1]
    return z


# ----------------------------------------------------------------------------------------------
# driver


def optimal_allocation(delta: Sequence[Any], eps: Any, q: Any, *, tol: float = 1e-9,
                       max_nodes: int = 5000) -> OptimalAllocation:
    """Minimise the eq. (17) objective over the privacy-feasible c (see the module docstring).

    ``delta`` (any order), ``eps`` > 0 and ``q`` in [0, 1] must be exact (ints, Fractions, sympy
    Rationals or strings such as "0.2"; floats are refused).  ``tol`` is the target relative gap
    of the search; ``max_nodes`` caps the branch-and-bound (the returned bounds stay certified,
    only the gap may be larger).
    """
    start_time = time.perf_counter()
    d_exact, e, qq = validate_demands(delta, eps, q)
    if not (isinstance(tol, (int, float)) and tol > 0):
        raise ValueError("tol must be a positive number")
    order = sorted_order(d_exact)
    tilde = [Fraction(int(min(d_exact[i], e).p), int(min(d_exact[i], e).q)) for i in order]
    qf = Fraction(int(qq.p), int(qq.q))
    ef = Fraction(int(e.p), int(e.q))
    inst = _Instance(tilde, qf)
    d = inst.d
    stats: dict[str, Any] = {"levels": [str(v) for v in inst.levels], "counts": list(inst.counts)}

    def finish(c_sorted: list[Fraction], lower: sympy.Expr, extra: dict) -> OptimalAllocation:
        c = [sympy.Integer(0)] * d
        for pos, i in enumerate(order):
            c[i] = sympy.Rational(c_sorted[pos].numerator, c_sorted[pos].denominator)
        t = c_sorted[-1]
        branch_sorted = ["c_d <= delta~_i" if t <= dt else "c_d > delta~_i" for dt in tilde]
        branches = [""] * d
        for pos, i in enumerate(order):
            branches[i] = branch_sorted[pos]
        alloc = BudgetAllocation(tuple(d_exact), e, qq, None, "optimal", tuple(order), tuple(c),
                                 tuple(branches))
        upper = mse_objective(alloc.c_sorted)
        if upper is sympy.oo:
            gap = sympy.Integer(0) if lower is sympy.oo else sympy.oo
        else:
            gap = (upper - lower) / upper
        stats.update(extra)
        stats["seconds"] = time.perf_counter() - start_time
        return OptimalAllocation(alloc, upper, lower, gap, METHOD, stats)

    level0 = inst.levels[0]
    if level0 == 0:
        # c_1 + L(t) <= 0 or t <= 0 forces c_1 = 0: every feasible c has S_1 = 0, F = oo.
        return finish([Fraction(0)] * d, sympy.oo, {"note": "delta~_1 = 0: objective is infinite"})

    # piece 0: exact
    piece0_value = Fraction(d * d) / (level0 * level0)
    best_val = float(piece0_value)
    best_piece: _Piece | None = None
    best_z: list[float] = [float(level0)]

    pieces: list[_Piece] = []
    skipped = 0
    for j in range(1, inst.m):
        if qf == 0 and j < inst.m - 1:
            # q = 0: raising c_d to delta~_d keeps feasibility and only increases S_d, so
            # t = l_m (piece m - 1) dominates every other t (module docstring, step 2).
            skipped += 1
            continue
        if qf > 0:
            # non-empty iff L^{-1}(l_1) > l_j  (certified)
            linv = sympy.log(1 + (sympy.exp(sympy.Rational(level0.numerator, level0.denominator)) - 1)
                             / sympy.Rational(qf.numerator, qf.denominator))
            lj = inst.levels[j - 1]
            if compare(linv, sympy.Rational(lj.numerator, lj.denominator)) <= 0:
                skipped += 1
                continue
        pieces.append(_Piece(inst, j))

    heap: list[tuple[float, int]] = []
    nodes: dict[int, _Node] = {}
    pruned: list[_Node] = []
    counter = 0
    evaluated = 0
    for piece in pieces:
        box = piece.root_box()
        if box is None:
            continue
        node, cand = _evaluate(piece, box[0], box[1], None, best_val)
        evaluated += 1
        if cand is not None and cand[0] < best_val:
            best_val, best_piece, best_z = cand[0], piece, cand[1]
        nodes[counter] = node
        heapq.heappush(heap, (node.lb, counter))
        counter += 1

    stuck: list[_Node] = []
    while heap:
        lb, nid = heap[0]
        if best_val - lb <= tol * best_val or evaluated >= max_nodes:
            break
        heapq.heappop(heap)
        node = nodes.pop(nid)
        if lb >= best_val * (1 - tol / 4):
            pruned.append(node)
            continue
        piece = node.piece
        k = int(np.argmax(node.score))
        mid = 0.5 * (node.lo[k] + node.hi[k])
        if not (node.lo[k] < mid < node.hi[k]):
            widths = [node.hi[i] - node.lo[i] for i in range(piece.p)]
            k = int(np.argmax(widths))
            mid = 0.5 * (node.lo[k] + node.hi[k])
            if not (node.lo[k] < mid < node.hi[k]):
                stuck.append(node)
                continue
        for side in (0, 1):
            lo, hi = list(node.lo), list(node.hi)
            if side == 0:
                hi[k] = mid
            else:
                lo[k] = mid
            box = piece.propagate(lo, hi)
            if box is None:
                continue
            child, cand = _evaluate(piece, box[0], box[1], node.z, best_val)
            evaluated += 1
            if cand is not None and cand[0] < best_val:
                best_val, best_piece, best_z = cand[0], piece, cand[1]
            if child.lb >= best_val * (1 - tol / 4):
                pruned.append(child)
            else:
                nodes[counter] = child
                heapq.heappush(heap, (child.lb, counter))
                counter += 1
    search_lb = heap[0][0] if heap else math.inf
    leaves = list(nodes.values()) + pruned + stuck

    # certificate: exact leaf bounds
    cert = _Certifier()
    lower = piece0_value
    for leaf in leaves:
        v = cert.leaf_bound(leaf)
        if v < lower:
            lower = v
    if lower == math.inf:  # pragma: no cover - piece 0 is always finite here
        lower_expr: sympy.Expr = sympy.oo
    else:
        lower = _floor_rel(Fraction(lower), 17)
        lower_expr = sympy.Rational(lower.numerator, lower.denominator)

    # upper bound: polish, rationalise, certify
    candidates: list[list[Fraction]] = [[level0] * d]   # piece 0's optimum (always feasible)
    certified = None
    if best_piece is not None:
        z = _polish(best_piece, best_z)
        certified = False
        for attempt in range(4):
            zr = _rational_point(best_piece, z, attempt)
            c_sorted = _expand(inst, best_piece, zr, level0)
            if zr[0] > 0 and _certify_feasible(c_sorted, tilde, ef, qf):
                candidates.append(c_sorted)
                certified = True
                break
    best_c = min(candidates, key=lambda c: _exact_F(c))
    extra = {"nodes": evaluated, "leaves": len(leaves), "pieces": len(pieces),
             "pieces_certified_empty": skipped, "search_lower_bound": search_lb,
             "search_upper_bound": best_val, "rounded_point_certified": certified,
             "t": str(best_c[-1])}
    return finish(best_c, lower_expr, extra)


def _exact_F(c_sorted: list[Fraction]) -> Fraction | float:
    d = len(c_sorted)
    prev = Fraction(0)
    S = Fraction(0)
    tot = Fraction(0)
    for k, ck in enumerate(c_sorted):
        S += (ck - prev) ** 2 / (d - k)
        prev = ck
        if S == 0:
            return math.inf
        tot += 1 / S
    return tot
