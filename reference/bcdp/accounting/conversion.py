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

How certification works.  The minimisation over alpha is a float search over the whole range
alpha in (1, inf) (:mod:`bcdp.accounting.search`: an extended log grid with local refinement for any
curve; the analytic minimiser for zCDP under Mironov / CKS), and only *chooses* alpha_star: since every conversion is valid at every
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
Validity is decided on the exact value of an exact input (``delta="1e-400"`` and
``delta="0.99999999999999999999"`` are valid), never on a rounded float.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath

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
    enclose_log_inverse,
    enclosure_upper,
    exact_value,
    float_of,
    is_interval,
    is_iv_interval,
    log_inverse,
    mpf_value,
)
from bcdp.accounting.search import (
    U_MAX,
    boundary_notes,
    eps_float,
    search_alpha,
    zcdp_alpha,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import (
    arb_precision,
    ball_ends,
    ball_lower,
    ball_of,
    ball_upper,
    float_down,
    float_up,
    outward_floats,
)
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, check_precision
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

#: Largest Renyi order searched by default (alpha - 1 <= :data:`bcdp.accounting.search.U_MAX`); the
#: search starts on alpha - 1 in [1e-4, 1e6] and extends itself where the minimum lies beyond.
ALPHA_MAX = 1.0 + U_MAX


def _check_prec(prec: Any) -> int:
    """The arb working precision (bits) of a certified conversion."""
    return check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)


def _check_method(method: str, allowed=METHODS) -> str:
    return check_choice(method, allowed)


# ------------------------------------------------------------------------------------------------
# the conversions at one alpha
# ------------------------------------------------------------------------------------------------

def epsilon_at(alpha: float, rdp: float, delta: Any, method: str = "cks") -> float:
    """Float eps of one conversion at one order (NOT a guarantee: use :func:`certify_at`).

    Returns +inf for ``"asoodeh"`` when alpha delta >= 1 (outside that conversion's range).
    """
    a, L = check_alpha(alpha), log_inverse(delta)
    _check_method(method)
    check_real(rdp, "rdp")
    q = exact_value(rdp, "rdp")                    # an exact input is decided on its exact value
    r = float_of(rdp, "rdp")                       # (a string "x" or "1/2" is read, not passed to float())
    if (q < 0) if q is not None else (math.isnan(r) or r < 0):
        raise InvalidInputError(f"rdp must be >= 0 and not NaN, got {rdp!r}")
    return max(0.0, eps_float(a - 1.0, r, L, method))


def _eps_interval(A, R, D, delta: Any, method: str):
    """Arb ball enclosing the (unclamped) conversion; A an exact ball, R and D balls, ``delta`` the
    input D encloses (log(1/delta) is :func:`~bcdp.accounting.inputs.enclose_log_inverse` of it; the
    arb precision is set by the caller).  Written without cancellation at both ends of alpha in (1, inf):
    log(1 - 1/alpha) = -log1p(1/(alpha - 1)) (alpha = 1e151 would lose every digit of
    log(alpha - 1) - log(alpha) at 200 bits), and Asoodeh's log(1 + (e^x - 1)/(alpha delta)) as
    x + log1p(-(1 - alpha delta) e^{-x}) - log(alpha delta) once x = (alpha - 1) r > 1 (e^x itself
    would overflow any float reading); arb encloses expm1 / log1p correctly for tiny arguments too."""
    one = ball_of(1)
    U = A - 1
    L = enclose_log_inverse(delta)
    if method == "mironov":
        return R + L / U
    if method == "cks":
        return R - (one / U).log1p() + (L - A.log()) / U
    if method == "asoodeh":
        AD = A * D
        if not AD < 1:                             # certified: the whole ball is below 1
            return None
        X = U * R
        if X > 1:                                  # certified: the whole ball is above 1
            return (X + (-(one - AD) * (-X).exp()).log1p() - AD.log()) / U
        return (X.expm1() / AD).log1p() / U
    raise InvalidInputError(f"unknown method {method!r}")


def _ends(E) -> tuple[Any, Any]:
    """Exact endpoints (Fractions) of a finite ball; (-inf, inf) for a non-finite one."""
    if not E.is_finite():
        return -math.inf, math.inf
    return ball_ends(E)


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
    L = log_inverse(delta)
    _check_method(method)
    prec = _check_prec(prec)
    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    r_float = curve(a)
    with arb_precision(prec):
        A = ball_of(a)
        R = curve.enclosure(a)
        D = enclose(delta, "delta")
        if method == "asoodeh" and not A * D < 1:
            raise InvalidInputError(f"asoodeh conversion needs alpha * delta < 1 (alpha={a}, delta={delta})")
        enc = outward_floats(_eps_interval(A, R, D, delta, method)) if R.is_finite() else (math.inf, math.inf)
        rdp_up = outward_floats(R)[1]
    upper = max(enc[1], 0.0)
    return _result(upper, enc, method, alpha_star=a, delta=delta,
                   epsilon_float=max(0.0, eps_float(a - 1.0, r_float, L, method)),
                   rdp_at_alpha_star_upper=rdp_up, rdp_certified=curve.is_certified,
                   curve=curve.label, assumption=curve.assumption)


# ------------------------------------------------------------------------------------------------
# optimisation over alpha, then certification
# ------------------------------------------------------------------------------------------------

def rdp_to_dp(curve: RdpCurve, delta: Any, method: str = "cks", orders: Any = "real",
              alpha_max: float | None = None, prec: int = CERT_PREC) -> Certified:
    """(eps, delta)-DP from an RDP curve: float search over alpha (:func:`bcdp.accounting.search.
    search_alpha`, the whole range alpha in (1, inf) unless ``alpha_max`` is given), then the
    certified re-evaluation at alpha_star (:func:`certify_at`).  For a T-round composition pass
    ``curve.compose(T)`` (thesis eq. (5.41) is ``method="cks"`` on T eps(alpha))."""
    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    check_delta(delta)
    _check_method(method)
    prec = _check_prec(prec)
    a, _, at_b = search_alpha(curve, delta, method, orders, alpha_max)
    out = certify_at(curve, a, delta, method, prec)
    return out.with_details(alpha_at_search_boundary=at_b, notes=boundary_notes(a, at_b))


def bun_steinke_epsilon(rho: Any, delta: Any, prec: int = CERT_PREC) -> Certified:
    """Bun & Steinke (2016), Prop. 1.3: rho-zCDP => (rho + 2 sqrt(rho log(1/delta)), delta)-DP,
    certified by arb ball evaluation of the closed form.  alpha_star = 1 + sqrt(log(1/delta)/rho) is
    the order at which the Mironov conversion of rho alpha attains this value (inf if rho = 0)."""
    check_rho(rho)
    rho_in, (rho, clamped) = rho, _below_zero_clamped(rho)
    r = check_rho(rho)
    L = log_inverse(delta)
    prec = _check_prec(prec)
    with arb_precision(prec):
        R, Lb = enclose(rho, "rho"), enclose_log_inverse(delta)

        def closed_form(x):  # increasing in rho: evaluated at the exact ends of the rho enclosure
            X = ball_of(x)
            return X + 2 * (X * Lb).sqrt()
        lo, hi = _ends(closed_form(max(ball_lower(R), 0)))[0], _ends(closed_form(ball_upper(R)))[1]
    alpha = math.inf
    if not _is_zero(rho):
        with mpmath.workdps(30):                   # informational: 1 + sqrt(L/rho) from the exact rho
            alpha = float(1 + mpmath.sqrt(L / mpf_value(_search_rho(rho), "rho")))
    res = _result(float_up(max(hi, 0)), (float_down(lo), float_up(hi)), "bun-steinke",
                  alpha_star=alpha, delta=delta, epsilon_float=r + 2 * math.sqrt(r * L),
                  rdp_at_alpha_star_upper=None, rdp_certified=True, curve=f"zCDP(rho={rho_in})")
    return _lower_end_zero(res, rho_in) if clamped else res


def _is_zero(rho: Any) -> bool:
    """rho is 0: an exact input equal to 0, a float/mpf 0 (an mpf is compared as it is: mpf("1e-400")
    is positive although its float is 0.0), or an enclosure (arb ball, ``mpmath.iv`` interval) whose
    upper end is <= 0 -- rho >= 0 is required and certainly negative enclosures are refused
    (:func:`check_rho`), so 0 is then its only admissible value."""
    q = exact_value(rho, "rho")
    if q is not None:
        return q == 0
    if isinstance(rho, mpmath.mpf):
        return bool(rho == 0)
    if is_interval(rho):
        return enclosure_upper(rho, "rho") <= 0
    return float(rho) == 0


def _below_zero_clamped(rho: Any) -> tuple[Any, bool]:
    """(rho, False), or for an enclosure reaching below 0 (admitted by :func:`check_rho` unless it is
    certainly negative) (its exact upper end u, True): rho >= 0 is required, so the enclosure admits
    [0, u], and every conversion increases with rho, so its value at u bounds them all (the caller
    sets the lower end to 0, the value at rho = 0)."""
    if is_interval(rho):
        below = mpmath.mpf(rho.a) < 0 if is_iv_interval(rho) else ball_lower(rho) < 0
        if below:
            return enclosure_upper(rho, "rho"), True
    return rho, False


def _lower_end_zero(res: Certified, rho: Any) -> Certified:
    """The result for an enclosure ``rho`` admitting [0, u], computed at u: lower end 0 (the value at
    rho = 0), labelled with the enclosure given."""
    note = "rho enclosure reaches below 0: bounded by the conversion at its upper end"
    return Certified(0.0, res.upper, None, res.witness, res.provenance,
                     {**res.details, "enclosure": (0.0, res.details["enclosure"][1]), "curve": f"zCDP(rho={rho})",
                      "notes": tuple(res.details.get("notes", ())) + (note,)})


def _search_rho(rho: Any) -> Any:
    """The rho the order search is made for: rho itself, or the exact upper end of an enclosure (the
    certified value is taken over the whole enclosure, i.e. at its upper end, since each conversion
    increases with rho; a midpoint may also be <= 0 where the search needs rho > 0)."""
    return enclosure_upper(rho, "rho") if is_interval(rho) else rho


def zcdp_to_dp(rho: Any, delta: Any, method: str = "cks", alpha_max: float | None = None,
               prec: int = CERT_PREC) -> Certified:
    """(eps, delta)-DP from rho-zCDP.  ``"bun-steinke"``: closed form (Bun & Steinke 2016 Prop. 1.3);
    ``"cks"`` (default, tighter): inf over real alpha of the CKS conversion of rho alpha (Canonne,
    Kamath & Steinke 2020, Sec. 2.3 / Prop. 12); ``"mironov"`` / ``"asoodeh"``: those RDP
    conversions of rho alpha.  All certified.

    The order is chosen over the whole range alpha in (1, inf): analytically for ``"cks"`` and
    ``"mironov"`` (:func:`bcdp.accounting.search.zcdp_alpha`; an ``alpha_max`` below that order caps
    it, with the boundary note), by the extended search centred on the Mironov order for
    ``"asoodeh"``.  rho = 0 exactly gives eps = 0 for every method (0-zCDP means D_alpha = 0 for
    every alpha, i.e. the two output laws are equal; alpha_star = inf, the infimum of each
    conversion over alpha)."""
    _check_method(method, ZCDP_METHODS)
    check_rho(rho)
    check_delta(delta)
    prec = _check_prec(prec)
    if alpha_max is not None:
        am = float(alpha_max)
        if not (math.isfinite(am) and am > 1):
            raise InvalidInputError(f"alpha_max must be a finite real > 1, got {alpha_max!r}")
    if method == "bun-steinke":
        return bun_steinke_epsilon(rho, delta, prec)
    upper_end, clamped = _below_zero_clamped(rho)
    if clamped and upper_end > 0:
        return _lower_end_zero(zcdp_to_dp(upper_end, delta, method, alpha_max, prec), rho)
    curve = zcdp_rdp(rho)
    if _is_zero(rho):
        return _result(0.0, (0.0, 0.0), method, alpha_star=math.inf, delta=delta, epsilon_float=0.0,
                       rdp_at_alpha_star_upper=0.0, rdp_certified=True, curve=curve.label,
                       notes=("rho = 0: the output laws are equal, eps = 0 (the conversion's infimum "
                              "as alpha -> inf)",))
    if method == "asoodeh":
        center = zcdp_alpha(_search_rho(rho), delta, "mironov")[0] - 1.0
        a, _, at_b = search_alpha(curve, delta, method, "real", alpha_max, center=center)
    else:
        a, at_b = zcdp_alpha(_search_rho(rho), delta, method)
        if alpha_max is not None and a > float(alpha_max):
            a, at_b = float(alpha_max), True       # f is convex: the cap is the best allowed order
    out = certify_at(curve, a, delta, method, prec)
    return out.with_details(alpha_at_search_boundary=at_b, notes=boundary_notes(a, at_b))


#: The 2020 US Census figures of the partial DP paper (arXiv:2209.04053, Sec. 7, "Concrete Example"):
#: (rho, delta, printed eps).  Reproduced by ``zcdp_to_dp(rho, delta, "cks")`` (13.79 -> "13.8";
#: 7.856 -> "7.85", printed truncated); Bun-Steinke gives 14.69 and 8.53.
CENSUS_2020 = ((2.63, 1e-6, "13.8"), (1.02, 1e-6, "7.85"))


def census_2020_table(prec: int = CERT_PREC) -> list[dict[str, Any]]:
    """The Census figures under every zCDP conversion (certified upper values)."""
    prec = _check_prec(prec)
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
