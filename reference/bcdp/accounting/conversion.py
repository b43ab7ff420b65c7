"""Renyi DP -> (eps, delta)-DP and zCDP -> (eps, delta)-DP, with certified (interval) epsilons.

Definitions (RDP, zCDP, composition): :mod:`bcdp.accounting.curves`.

Conversions (each is a labelled option ``method``; every one is valid at every single alpha > 1,
so the result is minimised over alpha):

* ``"mironov"`` -- Mironov (2017), Prop. 3:
      eps = r(alpha) + log(1/delta) / (alpha - 1).
* ``"cks"`` -- Canonne, Kamath & Steinke (2020), Prop. 12 (also Balle et al. 2020, Thm. 21), the
  conversion of the thesis, eq. (5.41) / Lemma 2.1.3:
      eps = r(alpha) + [log(1/delta) + (alpha - 1) log(1 - 1/alpha) - log(alpha)] / (alpha - 1),
  the inverse of delta = exp((alpha-1)(r - eps)) / (alpha-1) * (1 - 1/alpha)^alpha.
* ``"asoodeh"`` -- attributed to Asoodeh, Liao, Calmon, Kosut & Sankar (ISIT 2020 "A better bound
  gives a hundred rounds", Lemma 1; JSAIT 2021 "Three variants of differential privacy"):
      eps = log(1 + (exp((alpha - 1) r(alpha)) - 1) / (alpha delta)) / (alpha - 1),   alpha delta < 1,
  the inverse of delta = (e^{(alpha-1) r} - 1) / (alpha (e^{(alpha-1) eps} - 1)).
  PROVENANCE: the paper itself is not among the project sources; this is the form implemented by
  OpenDP's ``rdp_epsilon1_on`` kernel (softplus(log expm1((alpha-1) r) - log alpha - log delta)
  / (alpha-1), for alpha delta < 1), attributed there to Asoodeh et al.  Its soundness is checked
  here independently (tests/accounting/test_rdp_conversion.py: every binary pair of distributions,
  which is the worst case at a fixed alpha, and the analytic Gaussian curve).

Every conversion's eps is clamped at 0 (an (eps, delta) guarantee with eps < 0 implies (0, delta)).

zCDP (``zcdp_to_dp``):

* ``"bun-steinke"`` -- Bun & Steinke (2016), Prop. 1.3: eps = rho + 2 sqrt(rho log(1/delta)).  This is
  exactly the Mironov conversion of the curve rho alpha minimised over real alpha (at
  alpha = 1 + sqrt(log(1/delta)/rho)); it is the thesis (A.2) step.
* ``"cks"`` -- Canonne, Kamath & Steinke (2020), Sec. 2.3 / Prop. 12 applied to r(alpha) = rho alpha,
  minimised over real alpha (the tighter conversion; it reproduces the 2020 Census figures of the
  partial DP paper, Ghazi, Kumar, Manurangsi & Steinke, arXiv:2209.04053, Sec. 7 "Concrete Example:
  2020 US Census": rho = 2.63 -> 13.79 and rho = 1.02 -> 7.856 at delta = 1e-6).
* ``"mironov"`` and ``"asoodeh"`` are also accepted (the RDP conversions applied to rho alpha).

RDP curves (:class:`RdpCurve`, the Gaussian, randomized-response and zCDP curves, user curves and
composition) live in :mod:`bcdp.accounting.curves` and are re-exported here; argument checks and the
reading of parameters as balls in :mod:`bcdp.accounting.inputs`.

How certification works.  The minimisation over alpha is a float search (grid + local refinement;
see :func:`rdp_to_dp`), and only *chooses* alpha_star: since every conversion is valid at every
alpha, a non-optimal alpha_star costs tightness, never soundness.  At alpha_star (a float, i.e. an
exact dyadic rational) the conversion is re-evaluated in arb ball arithmetic (python-flint, every
operation proved to enclose the exact result; :data:`CERT_PREC` bits,
:func:`bcdp.core.intervals.arb_precision`) from an *enclosure* of r(alpha_star), and the exact
endpoints of the result ball are rounded outward to floats (:func:`bcdp.core.intervals.float_up`):

* built-in curves compute that enclosure with ball arithmetic from their parameters;
* a user curve may supply ``certified(alpha: mpmath.mpf) -> enclosure`` (an arb ball, an exact
  int / Fraction / ``mpmath.mpf``, or an ``mpmath.iv`` interval read by its exact endpoints) whose
  upper end is an upper bound on the true RDP at alpha; without it the float ``value(alpha)`` is *treated as an exact upper bound* -- the result
  then says so (``rdp_certified=False`` and the ``assumption`` text).

All conversions are increasing in r and decreasing in delta, and ball arithmetic encloses the
formula over the whole input balls, so the upper end of the result enclosure (rounded up to a float,
``upper`` = ``epsilon_certified_upper`` of the :class:`~bcdp.core.results.Certified` result) is a
guaranteed upper bound on the conversion's eps at alpha_star, hence
a valid (eps, delta) guarantee.  Parameters (delta, rho, sigma, p, ...) given as floats are read as
the hull of the float's exact binary value and of the decimal number ``repr(x)`` shows (so
``delta=1e-6`` certifies for the decimal 10^-6 as well as for the nearest double); strings and
Fractions are enclosed exactly; ints are exact.  Validity is enforced everywhere: alpha > 1 and
finite, delta in (0, 1), rho >= 0 finite, T an integer >= 1, sigma > 0, p in (0, 1); NaN rejected.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from bcdp.accounting.curves import (
    RdpCurve,
    compose,
    gaussian_rdp,
    randomized_response_rdp,
    rdp_curve_from_arrays,
    rdp_curve_from_callable,
    zcdp_rdp,
)
from bcdp.accounting.inputs import (
    CERT_PREC,
    check_alpha,
    check_choice,
    check_delta,
    check_real,
    check_rho,
    check_rounds,
    enclose,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import (
    arb_precision,
    ball_lower,
    ball_of,
    ball_upper,
    float_down,
    float_up,
)
from bcdp.core.results import Certified

METHODS = ("mironov", "cks", "asoodeh")
ZCDP_METHODS = ("bun-steinke", "cks", "mironov", "asoodeh")

SOURCES = {
    "mironov": "Mironov (2017), Renyi Differential Privacy, Prop. 3",
    "cks": "Canonne, Kamath & Steinke (2020), Prop. 12 (= Balle et al. 2020 Thm. 21; thesis eq. (5.41), Lemma 2.1.3)",
    "asoodeh": ("Asoodeh, Liao, Calmon, Kosut & Sankar (ISIT 2020 Lemma 1 / JSAIT 2021), form of OpenDP's "
                "rdp_epsilon1_on kernel; not confirmed against the paper text"),
    "bun-steinke": "Bun & Steinke (2016), Concentrated DP, Prop. 1.3",
}

#: Default search range of the Renyi order.
ALPHA_MAX = 1e6
#: Integer orders always added to the real-alpha grid.
INTEGER_GRID_MAX = 256


def _check_method(method: str, allowed=METHODS) -> str:
    return check_choice(method, allowed)


# ------------------------------------------------------------------------------------------------
# the conversions at one alpha
# ------------------------------------------------------------------------------------------------

def epsilon_at(alpha: float, rdp: float, delta: float, method: str = "cks") -> float:
    """Float eps of one conversion at one order (NOT a guarantee: use :func:`certify_at`).

    Returns +inf for ``"asoodeh"`` when alpha delta >= 1 (outside that conversion's range).
    """
    a, d = check_alpha(alpha), check_delta(delta)
    _check_method(method)
    check_real(rdp, "rdp")
    r = float(rdp)
    if math.isnan(r) or r < 0:
        raise InvalidInputError(f"rdp must be >= 0 and not NaN, got {rdp!r}")
    return max(0.0, _eps_float(a, r, d, method))


def _eps_float(a: float, r: float, d: float, method: str) -> float:
    if math.isinf(r):
        return math.inf
    if method == "mironov":
        return r - math.log(d) / (a - 1)
    if method == "cks":
        return r + math.log1p(-1 / a) - (math.log(d) + math.log(a)) / (a - 1)
    # asoodeh
    ad = a * d
    if not ad < 1:
        return math.inf
    x = (a - 1) * r
    if x == 0:
        return 0.0
    if x < 1:
        return math.log1p(math.expm1(x) / ad) / (a - 1)
    # log(1 + (e^x - 1)/(a d)) = x + log1p(-(1 - a d) e^{-x}) - log(a d)
    return (x + math.log1p(-(1 - ad) * math.exp(-x)) - math.log(ad)) / (a - 1)


def _eps_interval(A, R, D, method: str):
    """Arb ball enclosing the (unclamped) conversion; A an exact ball, R and D balls (the arb
    precision is set by the caller).  Asoodeh uses expm1 / log1p, which arb encloses correctly for
    tiny arguments too."""
    one = ball_of(1)
    if method == "mironov":
        return R + (one / D).log() / (A - 1)
    if method == "cks":
        return R + ((one / D).log() + (A - 1) * (one - one / A).log() - A.log()) / (A - 1)
    if method == "asoodeh":
        if not A * D < 1:                          # certified: the whole ball is below 1
            return None
        X = (A - 1) * R
        return (X.expm1() / (A * D)).log1p() / (A - 1)
    raise InvalidInputError(f"unknown method {method!r}")


def _ends(E) -> tuple[Any, Any]:
    """Exact endpoints (Fractions) of a finite ball; (-inf, inf) for a non-finite one."""
    if not E.is_finite():
        return -math.inf, math.inf
    return ball_lower(E), ball_upper(E)


def _result(upper: float, enclosure: tuple[float, float], method: str, **details: Any) -> Certified:
    """The :class:`~bcdp.core.results.Certified` result of a conversion.

    ``upper`` (also the detail ``epsilon_certified_upper``) is the guarantee: a float >= the exact
    value of the conversion ``method`` at order ``alpha_star`` (arb ball arithmetic, rounded up;
    clamped at 0).  ``lower`` is the outward-rounded lower end of the same enclosure, clamped at 0.
    Details: ``alpha_star``, ``method``, ``delta``, ``epsilon_float`` (the float search value at
    alpha_star, for information only), ``enclosure`` = (lower, upper) floats, rounded outward,
    bracketing the exact value of the conversion at alpha_star *before* clamping at 0,
    ``rdp_at_alpha_star_upper``, ``rdp_certified``, ``source`` (= ``provenance``), ``curve``,
    ``assumption``, ``alpha_at_search_boundary`` and ``notes``.
    """
    lower = max(0.0, enclosure[0]) if enclosure[0] != math.inf else math.inf
    fields = {"epsilon_certified_upper": upper, "method": method, "enclosure": enclosure,
              "source": SOURCES[method], "assumption": "", "alpha_at_search_boundary": False, "notes": ()}
    fields.update(details)
    return Certified(lower=lower, upper=upper, provenance=SOURCES[method], details=fields)


def certify_at(curve: RdpCurve, alpha: float, delta: Any, method: str = "cks",
               prec: int = CERT_PREC) -> Certified:
    """Certified eps of conversion ``method`` at the single order ``alpha`` (any alpha > 1 is valid);
    fields of the result: :func:`_result`."""
    a = check_alpha(alpha)
    d = check_delta(delta)
    _check_method(method)
    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    r_float = curve(a)
    with arb_precision(prec):
        A = ball_of(a)
        R = curve.enclosure(a)
        D = enclose(delta, "delta")
        if method == "asoodeh" and not A * D < 1:
            raise InvalidInputError(f"asoodeh conversion needs alpha * delta < 1 (alpha={a}, delta={delta})")
        enc_lo, enc_hi = _ends(_eps_interval(A, R, D, method)) if R.is_finite() else (math.inf, math.inf)
        rdp_up = float_up(ball_upper(R)) if R.is_finite() else math.inf
    upper = float_up(max(enc_hi, 0))
    return _result(upper, (float_down(enc_lo), float_up(enc_hi)), method, alpha_star=a, delta=delta,
                   epsilon_float=max(0.0, _eps_float(a, r_float, d, method)),
                   rdp_at_alpha_star_upper=rdp_up, rdp_certified=curve.is_certified,
                   curve=curve.label, assumption=curve.assumption)


# ------------------------------------------------------------------------------------------------
# optimisation over alpha, then certification
# ------------------------------------------------------------------------------------------------

def _objective(curve: RdpCurve, d: float, method: str) -> Callable[[float], float]:
    def f(a: float) -> float:
        try:
            r = curve(a)
        except (OverflowError, FloatingPointError):
            return math.inf
        try:
            return _eps_float(a, r, d, method)
        except (OverflowError, ValueError):
            return math.inf
    return f


def search_alpha(curve: RdpCurve, delta: Any, method: str = "cks", orders: Any = "real",
                 alpha_max: float = ALPHA_MAX) -> tuple[float, float, bool]:
    """Float search for the order minimising the conversion: (alpha_star, eps_float, at_boundary).

    ``orders``: ``"real"`` (default) -- 1 + 10^t on a 600-point grid t in [-4, log10(alpha_max - 1)]
    plus the integers 2..256, then a bounded scalar refinement in t between the neighbours of the
    best grid point; ``"integer"`` -- 2, 3, ..., floor(alpha_max); or an explicit sequence of orders.
    Array curves use their own orders unless a subset is given.  For ``"asoodeh"`` only orders
    with alpha delta < 1 are used.  Unimodality is not assumed (the best grid point is kept if the
    refinement does not improve it); a non-optimal alpha loses tightness, never soundness.
    """
    d = check_delta(delta)
    _check_method(method)
    am = float(alpha_max)
    if not (math.isfinite(am) and am > 1):
        raise InvalidInputError(f"alpha_max must be a finite real > 1, got {alpha_max!r}")
    if method == "asoodeh":
        am = min(am, math.nextafter(1 / d, 0))
        if not am > 1:
            raise InvalidInputError("asoodeh conversion: no order alpha > 1 with alpha * delta < 1")
    f = _objective(curve, d, method)
    refine = False
    if curve.orders is not None:
        cand = list(curve.orders) if isinstance(orders, str) else [check_alpha(a) for a in orders]
        bad = [a for a in cand if a not in curve.orders]
        if bad:
            raise InvalidInputError(f"orders {bad[:3]} are not orders of the array curve")
    elif isinstance(orders, str):
        if orders == "integer":
            if am < 2:
                raise InvalidInputError("no integer order in (1, alpha_max]")
            cand = [float(k) for k in range(2, int(math.floor(am)) + 1)]
        elif orders == "real":
            ts = np.linspace(-4.0, math.log10(am - 1), 600)
            cand = sorted(set([1 + 10 ** float(t) for t in ts]
                              + [float(k) for k in range(2, min(INTEGER_GRID_MAX, int(am)) + 1)]))
            cand = [a for a in cand if 1 < a <= am]
            refine = True
        else:
            raise InvalidInputError(f"orders must be 'real', 'integer' or a sequence, got {orders!r}")
    else:
        cand = [check_alpha(a) for a in orders]
    if method == "asoodeh":
        cand = [a for a in cand if a * d < 1]
    if not cand:
        raise InvalidInputError("no admissible order to search")
    vals = [f(a) for a in cand]
    i = int(np.argmin(vals))
    best_a, best_v = cand[i], vals[i]
    if not math.isfinite(best_v):
        raise InvalidInputError("the conversion is infinite at every searched order")
    if refine:
        from scipy.optimize import minimize_scalar

        lo_a = cand[i - 1] if i > 0 else cand[i]
        hi_a = cand[i + 1] if i + 1 < len(cand) else cand[i]
        if hi_a > lo_a:
            t_lo, t_hi = math.log(lo_a - 1), math.log(hi_a - 1)
            res = minimize_scalar(lambda t: f(1 + math.exp(t)), bounds=(t_lo, t_hi), method="bounded",
                                  options={"xatol": 1e-12})
            a_ref = min(max(1 + math.exp(float(res.x)), lo_a), hi_a)
            if a_ref > 1:
                v_ref = f(a_ref)
                if v_ref < best_v:
                    best_a, best_v = a_ref, v_ref
    at_boundary = best_a in (cand[0], cand[-1]) and len(cand) > 1
    return best_a, max(0.0, best_v), at_boundary


def rdp_to_dp(curve: RdpCurve, delta: Any, method: str = "cks", orders: Any = "real",
              alpha_max: float = ALPHA_MAX, prec: int = CERT_PREC) -> Certified:
    """(eps, delta)-DP from an RDP curve: float search over alpha (:func:`search_alpha`), then the
    certified re-evaluation at alpha_star (:func:`certify_at`).  For a T-round composition pass
    ``curve.compose(T)`` (thesis eq. (5.41) is ``method="cks"`` on T eps(alpha))."""
    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    a, v, at_b = search_alpha(curve, delta, method, orders, alpha_max)
    out = certify_at(curve, a, delta, method, prec)
    notes = ()
    if at_b:
        notes = ("optimal alpha at the edge of the searched orders: widen the range for a tighter bound",)
    return out.with_details(alpha_at_search_boundary=at_b, notes=notes)


def bun_steinke_epsilon(rho: Any, delta: Any, prec: int = CERT_PREC) -> Certified:
    """Bun & Steinke (2016), Prop. 1.3: rho-zCDP => (rho + 2 sqrt(rho log(1/delta)), delta)-DP,
    certified by arb ball evaluation of the closed form.  alpha_star = 1 + sqrt(log(1/delta)/rho) is
    the order at which the Mironov conversion of rho alpha attains this value (inf if rho = 0)."""
    r, d = check_rho(rho), check_delta(delta)
    with arb_precision(prec):
        R, D = enclose(rho, "rho"), enclose(delta, "delta")
        E = R + 2 * (R * (ball_of(1) / D).log()).sqrt()
        lo, hi = _ends(E)
    L = -math.log(d)
    return _result(float_up(max(hi, 0)), (float_down(lo), float_up(hi)), "bun-steinke",
                   alpha_star=(1 + math.sqrt(L / r)) if r > 0 else math.inf, delta=delta,
                   epsilon_float=r + 2 * math.sqrt(r * L), rdp_at_alpha_star_upper=None,
                   rdp_certified=True, curve=f"zCDP(rho={rho})")


def zcdp_to_dp(rho: Any, delta: Any, method: str = "cks", alpha_max: float = ALPHA_MAX,
               prec: int = CERT_PREC) -> Certified:
    """(eps, delta)-DP from rho-zCDP.  ``"bun-steinke"``: closed form (Bun & Steinke 2016 Prop. 1.3);
    ``"cks"`` (default, tighter): inf over real alpha of the CKS conversion of rho alpha (Canonne,
    Kamath & Steinke 2020, Sec. 2.3 / Prop. 12); ``"mironov"`` / ``"asoodeh"``: those RDP
    conversions of rho alpha.  All certified."""
    _check_method(method, ZCDP_METHODS)
    check_rho(rho)
    if method == "bun-steinke":
        return bun_steinke_epsilon(rho, delta, prec)
    return rdp_to_dp(zcdp_rdp(rho), delta, method, "real", alpha_max, prec)


#: The 2020 US Census figures of the partial DP paper (arXiv:2209.04053, Sec. 7, "Concrete Example"):
#: (rho, delta, printed eps).  Reproduced by ``zcdp_to_dp(rho, delta, "cks")`` (13.79 -> "13.8";
#: 7.856 -> "7.85", printed truncated); Bun-Steinke gives 14.69 and 8.53.
CENSUS_2020 = ((2.63, 1e-6, "13.8"), (1.02, 1e-6, "7.85"))


def census_2020_table(prec: int = CERT_PREC) -> list[dict[str, Any]]:
    """The Census figures under every zCDP conversion (certified upper values)."""
    rows = []
    for rho, delta, printed in CENSUS_2020:
        row: dict[str, Any] = {"rho": rho, "delta": delta, "printed": printed}
        for m in ZCDP_METHODS:
            res = zcdp_to_dp(rho, delta, m, prec=prec)
            row[m] = res.epsilon_certified_upper
            row[f"{m}_alpha"] = res.alpha_star
        rows.append(row)
    return rows


__all__ = [
    "ALPHA_MAX",
    "CENSUS_2020",
    "CERT_PREC",
    "METHODS",
    "SOURCES",
    "ZCDP_METHODS",
    "RdpCurve",
    "bun_steinke_epsilon",
    "census_2020_table",
    "certify_at",
    "check_alpha",
    "check_delta",
    "check_rho",
    "check_rounds",
    "compose",
    "epsilon_at",
    "gaussian_rdp",
    "randomized_response_rdp",
    "rdp_curve_from_arrays",
    "rdp_curve_from_callable",
    "rdp_to_dp",
    "search_alpha",
    "zcdp_rdp",
    "zcdp_to_dp",
]
