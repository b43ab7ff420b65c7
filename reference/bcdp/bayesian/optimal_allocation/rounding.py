"""The certified upper bound (step 4 of the method): polish, round to a rational point, certify it.

BCDP paper (arXiv:2410.18404), Sec. 4: the privacy constraints of Theorem 2's proof (App. B.2),
0 <= c_1 <= ... <= c_d = t <= eps and, for every i, t <= delta~_i or c_i + L(t) <= delta~_i.
The best float point of the search is polished by SLSQP on the piece's reduced problem, rounded
to a rational point (:func:`rational_point`) and checked exactly (:func:`certify_feasible`, with
:func:`bcdp.core.intervals.compare` for the log terms).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy

from bcdp.bayesian.optimal_allocation.instance import (
    Instance,
    Piece,
    ball_rational,
    cancellation_bits,
    lower_fraction,
)
from bcdp.bayesian.optimal_allocation.relaxation import project
from bcdp.core.intervals import arb_precision, compare


def _floor_log10(x: Fraction) -> int:
    """floor(log10(x)) of a positive Fraction, exactly (no float: x may be below or above float range)."""
    e = len(str(x.numerator)) - len(str(x.denominator))   # within 1 of the answer
    if Fraction(10) ** e > x:
        e -= 1
    elif Fraction(10) ** (e + 1) <= x:
        e += 1
    return e


def round_rel(x: float | Fraction, digits: int = 16) -> Fraction:
    """x rounded to ``digits`` significant decimal digits (exact Fraction)."""
    xf = Fraction(x)
    if xf == 0:
        return xf
    k = digits - 1 - _floor_log10(abs(xf))
    if k >= 0:
        return Fraction(round(xf * 10 ** k), 10 ** k)
    return Fraction(round(xf / 10 ** (-k))) * 10 ** (-k)


def floor_rel(x: Fraction, digits: int) -> Fraction:
    """A rational <= x with about ``digits`` significant decimal digits."""
    if x <= 0:
        return x
    k = digits - 1 - math.floor(math.log10(float(x))) if float(x) > 0 else digits
    den = 10 ** k if k >= 0 else Fraction(1, 10 ** (-k))
    return Fraction(math.floor(x * den)) / den


def rational_point(piece: Piece, z: list[float], attempt: int) -> list[Fraction]:
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
        with arb_precision(128 + cancellation_bits(piece.ell[0])):
            t_cap = lower_fraction(inst.ball_Linv(ball_rational(piece.ell[0]))) if j else t_hi
        t_hi = min(t_hi, t_cap)
    tf = z[-1]
    tol = 1e-9 * abs(tf)
    if abs(tf - float(t_hi)) <= tol and t_hi == piece.t_hi_exact:
        t = t_hi
    elif abs(tf - float(t_lo)) <= tol:
        t = t_lo
    else:
        t = min(max(round_rel(tf), t_lo), t_hi)
    bounds = []
    if inst.q in (0, 1):                          # L(t) = 0 or t: the bounds are rational
        bounds = [piece.ell[g] - (t if inst.q == 1 else 0) for g in range(j)]
    else:
        with arb_precision(200 + cancellation_bits(t)):
            Lt = inst.ball_L(ball_rational(t))
            for g in range(j):
                bl = lower_fraction(ball_rational(piece.ell[g]) - Lt)
                bounds.append(floor_rel(bl * (1 - margin), 26) if bl > 0 else bl)
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
            cand = round_rel(xf)
        out[g] = max(min(cand, bounds[g], nxt), Fraction(0))
    return out


def expand_groups(inst: Instance, piece: Piece | None, zr: list[Fraction], level0: Fraction) -> list[Fraction]:
    """Sorted c from group values (piece None: the piece-0 point c = l_1 everywhere)."""
    if piece is None:
        return [level0] * inst.d
    c: list[Fraction] = []
    for g in range(piece.j):
        c.extend([zr[g]] * inst.counts[g])
    c.extend([zr[-1]] * (inst.d - len(c)))
    return c


def certify_feasible(c_sorted: list[Fraction], tilde_sorted: list[Fraction], eps: Fraction, q: Fraction) -> bool:
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


def polish(piece: Piece, z: list[float]) -> list[float]:
    """SLSQP on the true reduced problem of the piece (only proposes; the caller re-checks).

    Returns the polished point (projected into the piece, :func:`~.relaxation.project`) when its
    objective is not above F(z); else z itself, as also when F(z) is not a finite positive number
    (nothing to scale the objective by) or SLSQP raises.
    """
    from scipy.optimize import minimize

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
    cand = project(piece, [float(v) for v in res.x])
    if cand is not None and cand[0] <= piece.F(np.array(z)):
        return cand[1]
    return z

