"""The float search for the Renyi order alpha of an RDP -> (eps, delta)-DP conversion.

The search only *chooses* the order: every conversion of :mod:`bcdp.accounting.conversion` is valid
at every alpha > 1 (Mironov 2017 Prop. 3; Canonne, Kamath & Steinke 2020 Prop. 12; the Asoodeh et
al. form for alpha delta < 1), and the chosen order is then re-evaluated in arb ball arithmetic.  A
non-optimal order costs tightness, never soundness.

Orders are handled as u = alpha - 1 > 0 and delta as L = log(1/delta) (:func:`~bcdp.accounting.
inputs.log_inverse`, computed from the exact delta), so that neither delta = 1e-400 (a float 0.0)
nor delta = 1 - 1e-20 (a float 1.0) breaks the search.

* :func:`search_alpha` -- any curve.  Real orders: a log-spaced grid in u over [1e-4, 1e6], *extended*
  by further decades on the side where the minimum sits on the grid's edge, down to alpha = 1 + 2^-52
  (the first float above 1) and up to :data:`U_MAX` (or a caller's ``alpha_max``), then a bounded
  refinement between the neighbours of the best grid point.  ``at_boundary`` is True only when the
  best order lies at a limit the search could not pass (the float limits, ``alpha_max``, the last
  order of an explicit list, or the edge alpha delta < 1 of the Asoodeh form).
* :func:`zcdp_alpha` -- the curve r(alpha) = rho alpha, analytically.  Mironov: the minimiser of
  rho alpha + L/(alpha - 1) is alpha - 1 = sqrt(L/rho) (Bun & Steinke 2016, Prop. 1.3).  CKS
  (Canonne, Kamath & Steinke 2020, Prop. 12): with f(alpha) = rho alpha + log(1 - 1/alpha) +
  (L - log alpha)/(alpha - 1),

      f'(alpha) = rho - (L - log alpha) / (alpha - 1)^2,

  so f is convex on (1, inf) with its unique minimiser at the root of g(u) = rho u^2 + log(1 + u) - L
  (u = alpha - 1), which is bracketed by 2L/(1 + sqrt(1 + 4 rho L)) <= u <= min(sqrt(L/rho), e^L - 1)
  (g(u) <= rho u^2 + u - L on the left, g(u) >= rho u^2 - L and >= log(1 + u) - L on the right).  The
  root is found by bisection in log u with mpmath (rho = 1e-400 or u = 1e200 are fine), whatever the
  distance from the default grid: e.g. rho = 1e-12, delta = 1e-100 has alpha* = 1.5e7.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
import numpy as np

from bcdp.accounting.curves import RdpCurve
from bcdp.accounting.inputs import check_alpha, check_choice, log_inverse, mpf_value
from bcdp.core.errors import InvalidInputError

#: Smallest u = alpha - 1 searched: alpha = 1 + 2^-52 is the first float above 1.
U_MIN = 2.0 ** -52
#: Largest u = alpha - 1 searched by default (orders beyond are not needed by any finite-rho curve
#: for delta >= 1e-10000 and keep the float formulas finite).
U_MAX = 1e300
#: Initial window of the real-order grid, log10(alpha - 1), and its density (points per decade).
INITIAL_DECADES = (-4.0, 6.0)
POINTS_PER_DECADE = 60
#: Decades added per extension step, and their density.
EXTENSION_DECADES = 8.0
EXTENSION_POINTS_PER_DECADE = 20
#: Integer orders always added to the real-order grid.
INTEGER_GRID_MAX = 256
#: Largest integer order of ``orders="integer"`` when no ``alpha_max`` is given.
INTEGER_ALPHA_MAX = 10 ** 6
#: Relative margin kept inside the Asoodeh range alpha delta < 1 (the float test is not certified;
#: certify_at re-checks it in ball arithmetic).
ASOODEH_MARGIN = 1e-9
#: Note attached to results whose order lies at a limit the caller set (alpha_max, a list of orders).
BOUNDARY_NOTE = "optimal alpha at the edge of the searched orders: widen the range for a tighter bound"
#: Note attached to results whose order lies at a float limit of the search (alpha = 1 + 2^-52 or
#: 1 + 1e300): the bound there is valid; the exact optimum is beyond the orders a float represents.
FLOAT_LIMIT_NOTE = ("optimal alpha beyond the float orders searched (alpha - 1 in [2^-52, 1e300]): the bound "
                    "at the nearest order is valid but may not be the infimum over alpha")


def boundary_notes(alpha: float, at_boundary: bool) -> tuple[str, ...]:
    """The note of a result whose order lies at a limit of the search (none otherwise)."""
    if not at_boundary:
        return ()
    u = alpha - 1.0
    return (FLOAT_LIMIT_NOTE,) if u <= U_MIN or u >= U_MAX else (BOUNDARY_NOTE,)

METHODS = ("mironov", "cks", "asoodeh")


def eps_float(u: float, r: float, L: float, method: str) -> float:
    """Float eps (unclamped) of conversion ``method`` at order alpha = 1 + u for RDP value r and
    L = log(1/delta); +inf for Asoodeh outside alpha delta < 1.  NOT a guarantee."""
    if math.isinf(r):
        return math.inf
    lp = math.log1p(u)                              # log alpha
    if method == "mironov":
        return r + L / u
    if method == "cks":         # r + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1), log(1 - 1/alpha) =
        return r - math.log1p(1 / u) + (L - lp) / u    # -log1p(1/u) without cancellation at large u
    if method != "asoodeh":
        raise InvalidInputError(f"unknown method {method!r}")
    if not lp < L:                                  # alpha delta = exp(log alpha - L) < 1
        return math.inf
    log_ad = lp - L
    x = u * r
    if x == 0:
        return 0.0
    if x < 1:
        if log_ad > -700:
            return math.log1p(math.expm1(x) / math.exp(log_ad)) / u
        # alpha delta < e^-700 (exp(log_ad) underflows): log(1 + e^t) with t = log((e^x - 1)/(a d)) > -45
        t = math.log(math.expm1(x)) - log_ad
        return (t + math.log1p(math.exp(-t)) if t > 0 else math.log1p(math.exp(t))) / u
    # log(1 + (e^x - 1)/(a d)) = x + log1p(-(1 - a d) e^{-x}) - log(a d)
    return (x + math.log1p(math.expm1(log_ad) * math.exp(-x)) - log_ad) / u


def eps_float_array(u: np.ndarray, r: np.ndarray, L: float, method: str) -> np.ndarray:
    """:func:`eps_float` for arrays of orders alpha = 1 + u and RDP values r (any reals, read as
    floats) in one numpy pass; +inf where the value is infinite or undefined, and for Asoodeh outside
    alpha delta < 1.  Asoodeh's log(1 + (e^x - 1)/(alpha delta)), x = (alpha - 1) r, is taken as
    logaddexp(0, log(e^x - 1) - log(alpha delta)), log(e^x - 1) = x + log1p(-e^-x) above x = 1 (no
    overflow, no cancellation at either end).  NOT a guarantee: it only chooses the order that is then
    certified.  Emits no floating-point warning."""
    u = np.asarray(u, dtype=float)
    r = np.asarray(r, dtype=float)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        lp = np.log1p(u)
        if method == "mironov":
            out = r + L / u
        elif method == "cks":
            out = r - np.log1p(1 / u) + (L - lp) / u
        elif method == "asoodeh":
            x = u * r
            log_em1 = np.where(x > 1, x + np.log1p(-np.exp(-x)), np.log(np.expm1(x)))
            out = np.where(lp < L, np.logaddexp(0.0, log_em1 - (lp - L)) / u, np.inf)
        else:
            raise InvalidInputError(f"unknown method {method!r}")
    return np.where(np.isnan(out), np.inf, out)


def _objective(curve: RdpCurve, L: float, method: str) -> Callable[[float], float]:
    """u -> float eps at alpha = 1 + u (+inf where the curve or the formula overflows)."""
    def f(u: float) -> float:
        a = 1.0 + u
        if not (a > 1 and math.isfinite(a)):
            return math.inf
        try:
            r = curve(a)
            return eps_float(a - 1.0, r, L, method)     # a - 1 is exact: the order actually used
        except (OverflowError, FloatingPointError, ValueError, ZeroDivisionError):
            return math.inf
    return f


def _log_grid(lo: float, hi: float, per_decade: int) -> list[float]:
    """Points 10^t, t evenly spaced in [lo, hi] (log10 u), ends included."""
    k = max(2, int(math.ceil((hi - lo) * per_decade)) + 1)
    return [10.0 ** float(t) for t in np.linspace(lo, hi, k)]


def _real_search(f: Callable[[float], float], u_lo: float, u_hi: float,
                 center: float | None) -> tuple[float, float, bool]:
    """Minimise f over u in [u_lo, u_hi]: grid, extension at the edges, bounded refinement."""
    lo_t, hi_t = math.log10(u_lo), math.log10(u_hi)
    centred = center is not None and math.isfinite(center) and center > 0   # else: as if no centre
    if centred:
        c = math.log10(center)
        w_lo, w_hi = max(lo_t, c - 4.0), min(hi_t, c + 4.0)
        if w_lo >= w_hi:
            w_lo, w_hi = lo_t, hi_t
    else:
        w_lo, w_hi = max(lo_t, INITIAL_DECADES[0]), min(hi_t, INITIAL_DECADES[1])
        if w_lo >= w_hi:
            w_lo, w_hi = lo_t, hi_t
    def grid(lo: float, hi: float, per_decade: int) -> dict[float, float]:
        us = {min(max(u, u_lo), u_hi) for u in _log_grid(lo, hi, per_decade)}   # 10^t may round outside
        return {u: f(u) for u in us}

    pts = grid(w_lo, w_hi, POINTS_PER_DECADE)
    for k in range(2, INTEGER_GRID_MAX + 1) if not centred else ():
        if u_lo <= k - 1 <= u_hi:
            pts[float(k - 1)] = f(float(k - 1))
    cur_lo, cur_hi = w_lo, w_hi
    while True:
        us = sorted(pts)
        i = min(range(len(us)), key=lambda j: (pts[us[j]], j))
        if i == 0 and cur_lo > lo_t:
            new = max(lo_t, cur_lo - EXTENSION_DECADES)
            pts.update(grid(new, cur_lo, EXTENSION_POINTS_PER_DECADE))
            cur_lo = new
        elif i == len(us) - 1 and cur_hi < hi_t and math.isfinite(pts[us[i]]):
            new = min(hi_t, cur_hi + EXTENSION_DECADES)
            pts.update(grid(cur_hi, new, EXTENSION_POINTS_PER_DECADE))
            cur_hi = new
        else:
            break
    best_u, best_v = us[i], pts[us[i]]
    if not math.isfinite(best_v):
        raise InvalidInputError("the conversion is infinite at every searched order")
    at_boundary = (i == 0 and cur_lo <= lo_t) or (i == len(us) - 1 and cur_hi >= hi_t)
    lo_u, hi_u = us[max(i - 1, 0)], us[min(i + 1, len(us) - 1)]
    if hi_u > lo_u:
        from scipy.optimize import minimize_scalar

        res = minimize_scalar(lambda s: f(math.exp(s)), bounds=(math.log(lo_u), math.log(hi_u)),
                              method="bounded", options={"xatol": 1e-12})
        u_ref = min(max(math.exp(float(res.x)), lo_u), hi_u)
        v_ref = f(u_ref)
        if v_ref < best_v:
            best_u, best_v = u_ref, v_ref
            at_boundary = at_boundary and u_ref in (lo_u, hi_u)
    return best_u, best_v, at_boundary


def search_alpha(curve: RdpCurve, delta: Any, method: str = "cks", orders: Any = "real",
                 alpha_max: float | None = None, center: float | None = None) -> tuple[float, float, bool]:
    """Float search for the order minimising the conversion: (alpha_star, eps_float, at_boundary).

    ``orders``: ``"real"`` (default) -- the extended log grid of this module's docstring over
    alpha in (1, ``alpha_max``] (default: up to 1 + :data:`U_MAX`), plus the integers 2..256;
    ``center`` (optional, a value of alpha - 1) centres the initial window instead (one that is not
    a finite real > 0 is ignored); ``"integer"`` -- 2, 3,
    ..., floor(alpha_max) (default :data:`INTEGER_ALPHA_MAX`); or an explicit sequence of orders.
    Array curves use their own orders unless a subset is given.  For ``"asoodeh"`` only orders with
    alpha delta < 1 are used.  Unimodality is not assumed (the best grid point is kept if the
    refinement does not improve it).  alpha_star is a float; eps_float is clamped at 0.
    """
    L = log_inverse(delta)
    check_choice(method, METHODS)
    if alpha_max is None:
        u_max = U_MAX
    else:
        am = float(alpha_max)
        if not (math.isfinite(am) and am > 1):
            raise InvalidInputError(f"alpha_max must be a finite real > 1, got {alpha_max!r}")
        u_max = min(am - 1.0, U_MAX)
    if method == "asoodeh":                        # alpha delta < 1  <=>  log(1 + u) < L
        u_max = min(u_max, math.expm1(L) * (1 - ASOODEH_MARGIN) if L < 700 else U_MAX)
        if not u_max >= U_MIN:
            raise InvalidInputError("asoodeh conversion: no order alpha > 1 with alpha * delta < 1")
    f = _objective(curve, L, method)
    if curve.orders is None and isinstance(orders, str) and orders == "real":
        u, v, at_b = _real_search(f, U_MIN, u_max, center)
        return 1.0 + u, max(0.0, v), at_b
    table = curve._sorted_table if isinstance(orders, str) else None   # (read only here: no copy)
    if table is not None:                          # an array curve at its own orders: one numpy pass
        ca, rv = table
        if method == "asoodeh":
            keep = ca - 1.0 <= u_max
            ca, rv = ca[keep], rv[keep]
        if ca.size == 0:
            raise InvalidInputError("no admissible order to search")
        return _best_of(ca, eps_float_array(ca - 1.0, rv, L, method))
    if curve.orders is not None:
        cand = list(curve.orders) if isinstance(orders, str) else [check_alpha(a) for a in orders]
        bad = [a for a in cand if not curve.has_order(a)]
        if bad:
            raise InvalidInputError(f"orders {bad[:3]} are not orders of the array curve")
    elif isinstance(orders, str):
        if orders != "integer":
            raise InvalidInputError(f"orders must be 'real', 'integer' or a sequence, got {orders!r}")
        top = INTEGER_ALPHA_MAX if alpha_max is None else int(math.floor(1.0 + u_max))
        if top < 2:
            raise InvalidInputError("no integer order in (1, alpha_max]")
        cand = [float(k) for k in range(2, top + 1)]
    else:
        cand = [check_alpha(a) for a in orders]
    cand = sorted(set(cand))
    if method == "asoodeh":
        cand = [a for a in cand if a - 1.0 <= u_max]
    if not cand:
        raise InvalidInputError("no admissible order to search")
    ca = np.array(cand)
    return _best_of(ca, eps_float_array(ca - 1.0, curve.values_at(cand), L, method))   # a - 1 is exact


def _best_of(orders: np.ndarray, vals: np.ndarray) -> tuple[float, float, bool]:
    """(order, eps clamped at 0, at an end of the list) at the smallest eps (the first on ties) of
    orders sorted ascending."""
    i = int(np.argmin(vals))
    if not math.isfinite(vals[i]):
        raise InvalidInputError("the conversion is infinite at every searched order")
    return float(orders[i]), max(0.0, float(vals[i])), i in (0, len(orders) - 1) and len(orders) > 1


def zcdp_alpha(rho: Any, delta: Any, method: str) -> tuple[float, bool]:
    """The order minimising conversion ``method`` ("mironov" or "cks") of r(alpha) = rho alpha over
    all real alpha > 1, for rho > 0 (module docstring): (alpha_star as a float, at_boundary), where
    at_boundary says the exact minimiser is not representable (closer to 1 than 2^-52, or above
    1 + :data:`U_MAX`) and the nearest representable order is returned."""
    with mpmath.workdps(40):
        R = mpf_value(rho, "rho")
        L = mpmath.mpf(log_inverse(delta))
        if not R > 0:
            raise InvalidInputError("zcdp_alpha needs rho > 0")
        if method == "mironov":
            u = mpmath.sqrt(L / R)
        elif method == "cks":
            lo = 2 * L / (1 + mpmath.sqrt(1 + 4 * R * L))
            hi = min(mpmath.sqrt(L / R), mpmath.expm1(L))
            for _ in range(400):                   # bisection in log u: g(lo) <= 0 <= g(hi)
                if hi <= lo * (1 + mpmath.mpf(10) ** -30):
                    break
                mid = mpmath.sqrt(lo * hi)
                if R * mid * mid + mpmath.log1p(mid) - L > 0:
                    hi = mid
                else:
                    lo = mid
            u = mpmath.sqrt(lo * hi)
        else:
            raise InvalidInputError(f"zcdp_alpha: no closed form for method {method!r}")
        if u < U_MIN:
            return 1.0 + U_MIN, True
        if u > U_MAX:
            return 1.0 + U_MAX, True
        return float(1 + u), False


def first_index_reaching(curve: Callable[[int], float], target: float, last: int) -> int | None:
    """The first index u in 1..last at which the non-decreasing ``curve(u) >= target`` (None if
    ``curve(last) < target``), by bisection: used to read off after how many rounds or epochs an
    accountant's eps first reaches a printed value (thesis Fig 5.7, Fig 4.2)."""
    if curve(last) < target:
        return None
    lo, hi = 0, last
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if curve(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi

__all__ = [
    "BOUNDARY_NOTE", "FLOAT_LIMIT_NOTE", "INTEGER_ALPHA_MAX", "boundary_notes", "INTEGER_GRID_MAX", "U_MAX", "U_MIN", "eps_float",
    "eps_float_array", "first_index_reaching", "search_alpha", "zcdp_alpha",
]
