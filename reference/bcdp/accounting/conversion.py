"""Renyi DP -> (eps, delta)-DP and zCDP -> (eps, delta)-DP, with certified (interval) epsilons.

Definitions.  M is (alpha, r)-RDP (Mironov 2017, Def. 4) if D_alpha(M(x) || M(x')) <= r for all
neighbours x, x'.  It is rho-zCDP (Bun & Steinke 2016, Def. 1.1) if it is (alpha, rho alpha)-RDP for
every alpha > 1.  RDP composes additively (Mironov 2017, Prop. 1; thesis Lemma 2.1.4): T adaptive
rounds of an r(alpha)-RDP mechanism are T r(alpha)-RDP.

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
  PROVENANCE: the paper itself is not among the project sources; this is the form recorded in
  shared/notes/anchors.md Sec. G ("Asoodeh (OpenDP): softplus(log expm1((alpha-1) r) - log alpha
  - log delta)/(alpha-1), for alpha delta < 1"), which is OpenDP's ``rdp_epsilon1_on`` kernel.  Its
  soundness is checked here independently (tests/test_rdp_conversion.py: every binary pair of
  distributions, which is the worst case at a fixed alpha, and the analytic Gaussian curve).

Every conversion's eps is clamped at 0 (an (eps, delta) guarantee with eps < 0 implies (0, delta)).

zCDP (``zcdp_to_dp``):

* ``"bun-steinke"`` -- Bun & Steinke (2016), Prop. 1.3: eps = rho + 2 sqrt(rho log(1/delta)).  This is
  exactly the Mironov conversion of the curve rho alpha minimised over real alpha (at
  alpha = 1 + sqrt(log(1/delta)/rho)); it is the thesis (A.2) step.
* ``"cks"`` -- Canonne, Kamath & Steinke (2020), Sec. 2.3 / Prop. 12 applied to r(alpha) = rho alpha,
  minimised over real alpha (the tighter conversion; it reproduces the 2020 Census figures of the
  partial-DP paper, shared/papers/partial_dp.txt lines 2391-2418: rho = 2.63 -> 13.79 and
  rho = 1.02 -> 7.856 at delta = 1e-6).
* ``"mironov"`` and ``"asoodeh"`` are also accepted (the RDP conversions applied to rho alpha).

RDP curves provided (for cross-checks; the subsampled-shuffle RDP lives elsewhere):

* :func:`gaussian_rdp` -- Gaussian mechanism, r(alpha) = alpha Delta^2 / (2 sigma^2) (Mironov 2017,
  Prop. 7 / Table II);
* :func:`randomized_response_rdp` -- binary randomized response with flip probability p:
  r(alpha) = D_alpha(Bern(1-p) || Bern(p)) = log(p^alpha (1-p)^{1-alpha} + (1-p)^alpha p^{1-alpha})
  / (alpha - 1) (Mironov 2017, Table II; thesis App. A.2 eq. (A.5)); symmetric in the two orders;
* :func:`zcdp_rdp` -- r(alpha) = rho alpha;
* :func:`rdp_curve_from_callable`, :func:`rdp_curve_from_arrays` -- user curves.

How certification works.  The minimisation over alpha is a float search (grid + local refinement;
see :func:`rdp_to_dp`), and only *chooses* alpha_star: since every conversion is valid at every
alpha, a non-optimal alpha_star costs tightness, never soundness.  At alpha_star (a float, i.e. an
exact dyadic rational) the conversion is re-evaluated with ``mpmath.iv`` interval arithmetic
(outward rounding, :data:`CERT_PREC` bits) from an *enclosure* of r(alpha_star):

* built-in curves compute that enclosure with interval arithmetic from their parameters;
* a user curve may supply ``certified(alpha: mpmath.mpf) -> interval`` (an ``mpmath.iv.mpf``, or an
  exact int / Fraction / ``mpmath.mpf``) whose upper end is an upper bound on the true RDP at
  alpha; without it the float ``value(alpha)`` is *treated as an exact upper bound* -- the result
  then says so (``rdp_certified=False`` and the ``assumption`` text).

All conversions are increasing in r and decreasing in delta, and interval arithmetic encloses the
formula over the whole input boxes, so the upper end of the result enclosure (rounded up to a float,
``epsilon_certified_upper``) is a guaranteed upper bound on the conversion's eps at alpha_star, hence
a valid (eps, delta) guarantee.  Parameters (delta, rho, sigma, p, ...) given as floats are read as
the interval hull of the float's exact binary value and of the decimal number ``repr(x)`` shows (so
``delta=1e-6`` certifies for the decimal 10^-6 as well as for the nearest double); strings and
Fractions are enclosed exactly; ints are exact.  Validity is enforced everywhere: alpha > 1 and
finite, delta in (0, 1), rho >= 0 finite, T an integer >= 1, sigma > 0, p in (0, 1); NaN rejected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
from scipy.optimize import minimize_scalar

from bcdp.core.errors import InvalidInputError

#: Bits of the interval arithmetic used for the certified re-evaluation.
CERT_PREC = 200

METHODS = ("mironov", "cks", "asoodeh")
ZCDP_METHODS = ("bun-steinke", "cks", "mironov", "asoodeh")

SOURCES = {
    "mironov": "Mironov (2017), Renyi Differential Privacy, Prop. 3",
    "cks": "Canonne, Kamath & Steinke (2020), Prop. 12 (= Balle et al. 2020 Thm. 21; thesis eq. (5.41), Lemma 2.1.3)",
    "asoodeh": ("Asoodeh, Liao, Calmon, Kosut & Sankar (ISIT 2020 Lemma 1 / JSAIT 2021), form as recorded in "
                "shared/notes/anchors.md Sec. G (OpenDP kernel); not confirmed against the paper text"),
    "bun-steinke": "Bun & Steinke (2016), Concentrated DP, Prop. 1.3",
}

#: Default search range of the Renyi order.
ALPHA_MAX = 1e6
#: Integer orders always added to the real-alpha grid.
INTEGER_GRID_MAX = 256


# ------------------------------------------------------------------------------------------------
# validation and exact/interval reading of parameters
# ------------------------------------------------------------------------------------------------

def _real(x: Any, name: str) -> None:
    if isinstance(x, bool) or not isinstance(x, (Real, str, mpmath.mpf)) and not _is_iv(x):
        raise InvalidInputError(f"{name} must be a real number, got {type(x).__name__}")
    if isinstance(x, (float, np.floating)) and math.isnan(x):
        raise InvalidInputError(f"{name} is NaN")


def _is_iv(x: Any) -> bool:
    return type(x).__name__ == "ivmpf"


def _iv(x: Any, name: str = "value"):
    """An ``mpmath.iv`` interval containing the exact value(s) the argument denotes.

    float -> hull(exact binary value, decimal repr); str -> enclosure of the decimal; Fraction ->
    enclosure of p/q; int, mpmath.mpf -> exact point; an iv interval is returned as is.
    Requires the caller to have set ``mpmath.iv.prec``.
    """
    iv = mpmath.iv
    if _is_iv(x):
        return x
    _real(x, name)
    if isinstance(x, Integral):
        return iv.mpf(int(x))
    if isinstance(x, Fraction):
        return iv.mpf(x.numerator) / iv.mpf(x.denominator)
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise InvalidInputError(f"{name} must be finite, got {x}")
        return iv.mpf(x)
    if isinstance(x, str):
        try:
            out = iv.mpf(x)
        except (ValueError, TypeError) as exc:
            raise InvalidInputError(f"{name}: cannot read {x!r} as a number") from exc
        if not (mpmath.isfinite(out.a) and mpmath.isfinite(out.b)):
            raise InvalidInputError(f"{name} must be finite, got {x!r}")
        return out
    xf = float(x)
    if not math.isfinite(xf):
        raise InvalidInputError(f"{name} must be finite, got {x!r}")
    exact = iv.mpf(xf)                 # exact: a double has 53 bits <= CERT_PREC
    dec = iv.mpf(repr(xf))             # enclosure of the decimal the user most likely meant
    lo = min(_lo(exact), _lo(dec))
    hi = max(_hi(exact), _hi(dec))
    return iv.mpf([lo, hi])


def _lo(x) -> mpmath.mpf:
    return mpmath.mp.make_mpf(x._mpi_[0])


def _hi(x) -> mpmath.mpf:
    return mpmath.mp.make_mpf(x._mpi_[1])


def _float_up(x: mpmath.mpf) -> float:
    """Smallest float >= x (x an exact mpf; +inf if it overflows)."""
    if mpmath.isinf(x):
        return math.inf if x > 0 else -math.inf
    f = float(x)
    if mpmath.mpf(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def _float_down(x: mpmath.mpf) -> float:
    if mpmath.isinf(x):
        return math.inf if x > 0 else -math.inf
    f = float(x)
    if mpmath.mpf(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _float_of(x: Any, name: str) -> float:
    """A float for the search (parameters only; the certified path uses :func:`_iv`)."""
    _real(x, name)
    if _is_iv(x):
        return float(mpmath.mpf(x.mid))
    if isinstance(x, str):
        try:
            return float(Fraction(x)) if "/" in x else float(x)
        except ValueError as exc:
            raise InvalidInputError(f"{name}: cannot read {x!r} as a number") from exc
    return float(x)


class _Prec:
    """Context manager: set ``mpmath.iv.prec`` and restore it."""

    def __init__(self, prec: int = CERT_PREC):
        self.prec = prec

    def __enter__(self):
        self.saved = mpmath.iv.prec
        mpmath.iv.prec = self.prec
        return mpmath.iv

    def __exit__(self, *exc):
        mpmath.iv.prec = self.saved
        return False


def check_alpha(alpha: Any) -> float:
    """Validate a Renyi order: a finite real > 1 (NaN, inf, bool rejected)."""
    _real(alpha, "alpha")
    a = float(alpha)
    if not math.isfinite(a) or not a > 1:
        raise InvalidInputError(f"alpha must be a finite real > 1, got {alpha!r}")
    if isinstance(alpha, (Fraction, str)) and Fraction(alpha) != Fraction(a):
        raise InvalidInputError(f"alpha {alpha!r} is not exactly representable as a float; pass a float")
    return a


def check_delta(delta: Any) -> float:
    """Validate delta in the open interval (0, 1) (NaN, bool rejected)."""
    _real(delta, "delta")
    d = _float_of(delta, "delta")
    if not (0 < d < 1):
        raise InvalidInputError(f"delta must be in (0, 1), got {delta!r}")
    with _Prec():
        enc = _iv(delta, "delta")
        if not (_lo(enc) > 0 and _hi(enc) < 1):
            raise InvalidInputError(f"delta must be in (0, 1), got {delta!r}")
    return d


def check_rho(rho: Any) -> float:
    """Validate a zCDP parameter: finite, >= 0."""
    _real(rho, "rho")
    r = _float_of(rho, "rho")
    if not math.isfinite(r) or r < 0:
        raise InvalidInputError(f"rho must be a finite real >= 0, got {rho!r}")
    return r


def check_rounds(T: Any) -> int:
    """Validate a number of rounds: an integer >= 1 (bool and floats rejected)."""
    if isinstance(T, bool) or not isinstance(T, Integral):
        raise InvalidInputError(f"T must be an integer >= 1, got {T!r}")
    if int(T) < 1:
        raise InvalidInputError(f"T must be an integer >= 1, got {T!r}")
    return int(T)


def _check_method(method: str, allowed: Sequence[str] = METHODS) -> str:
    if method not in allowed:
        raise InvalidInputError(f"unknown method {method!r}; choose one of {tuple(allowed)}")
    return method


# ------------------------------------------------------------------------------------------------
# RDP curves
# ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RdpCurve:
    """An RDP curve alpha -> r(alpha) (an upper bound on the Renyi divergence of order alpha).

    ``value(alpha: float) -> float`` is used by the search only.  ``certified(alpha: mpmath.mpf)``
    returns an ``mpmath.iv`` enclosure (or exact int/Fraction/mpf) whose upper end bounds the true
    RDP at the exact order alpha; it is called with ``mpmath.iv.prec`` already set.  If it is None
    the float value is treated as an exact upper bound (recorded in results).  ``orders`` is set
    when the curve is known only at those orders (array curves).
    """

    value: Callable[[float], float]
    certified: Callable[[mpmath.mpf], Any] | None
    label: str
    source: str
    orders: tuple[float, ...] | None = None
    assumption: str = ""

    def __call__(self, alpha: float) -> float:
        a = check_alpha(alpha)
        if self.orders is not None and a not in self.orders:
            raise InvalidInputError(f"{self.label} is only defined at its orders; {a} is not one")
        v = self.value(a)
        if isinstance(v, bool) or not isinstance(v, (Real, np.floating)):
            raise InvalidInputError(f"RDP curve returned {type(v).__name__} at alpha={a}")
        v = float(v)
        if math.isnan(v):
            raise InvalidInputError(f"RDP curve {self.label} returned NaN at alpha={a}")
        if v < 0:
            raise InvalidInputError(f"RDP curve {self.label} returned a negative value {v} at alpha={a}")
        return v

    @property
    def is_certified(self) -> bool:
        return self.certified is not None

    def enclosure(self, alpha: float):
        """``mpmath.iv`` enclosure of r(alpha) at the exact float alpha (caller sets iv.prec)."""
        a = check_alpha(alpha)
        if self.orders is not None and a not in self.orders:
            raise InvalidInputError(f"{self.label} is only defined at its orders; {a} is not one")
        if self.certified is None:
            return mpmath.iv.mpf(self(a))          # ASSUMPTION: the float is an exact upper bound
        out = self.certified(mpmath.mpf(a))
        if not _is_iv(out):
            out = _iv(out, "certified RDP value")
        if mpmath.isnan(_hi(out)) or mpmath.isnan(_lo(out)):
            raise InvalidInputError(f"certified RDP of {self.label} is NaN at alpha={a}")
        if _hi(out) < 0:
            raise InvalidInputError(f"certified RDP of {self.label} is negative at alpha={a}")
        return out

    def compose(self, T: int) -> "RdpCurve":
        """T-fold (adaptive) composition: T r(alpha) (Mironov 2017, Prop. 1; thesis Lemma 2.1.4)."""
        T = check_rounds(T)
        value, cert = self.value, self.certified
        return RdpCurve(
            value=lambda a: T * value(a),
            certified=None if cert is None else (lambda a: mpmath.iv.mpf(T) * _as_iv(cert(a))),
            label=f"{T} x [{self.label}]", source=f"{self.source}; composed T={T} times (Mironov 2017 Prop. 1)",
            orders=self.orders, assumption=self.assumption)


def _as_iv(x):
    return x if _is_iv(x) else _iv(x, "certified RDP value")


def compose(*curves: RdpCurve) -> RdpCurve:
    """Heterogeneous composition: sum of curves (Mironov 2017, Prop. 1).  Array curves must share
    their orders (the result is defined on the common orders)."""
    if not curves:
        raise InvalidInputError("compose needs at least one curve")
    for c in curves:
        if not isinstance(c, RdpCurve):
            raise InvalidInputError(f"compose takes RdpCurve objects, got {type(c).__name__}")
    order_sets = [set(c.orders) for c in curves if c.orders is not None]
    orders = tuple(sorted(set.intersection(*order_sets))) if order_sets else None
    if orders is not None and not orders:
        raise InvalidInputError("the array curves share no order")
    certified = all(c.certified is not None for c in curves)

    def cert(a):
        out = mpmath.iv.mpf(0)
        for c in curves:
            out = out + _as_iv(c.certified(a))
        return out

    return RdpCurve(value=lambda a: sum(c.value(a) for c in curves), certified=cert if certified else None,
                    label=" + ".join(c.label for c in curves), source="Mironov (2017), Prop. 1 (composition)",
                    orders=orders, assumption="; ".join(sorted({c.assumption for c in curves if c.assumption})))


def gaussian_rdp(sigma: Any, sensitivity: Any = 1) -> RdpCurve:
    """Gaussian mechanism N(f(x), sigma^2 I) with L2 sensitivity Delta: r(alpha) = alpha Delta^2/(2 sigma^2)
    (Mironov 2017, Prop. 7 / Table II).  Exact for every alpha (it is the Renyi divergence of the two
    shifted Gaussians)."""
    s, d = _float_of(sigma, "sigma"), _float_of(sensitivity, "sensitivity")
    if not (math.isfinite(s) and s > 0):
        raise InvalidInputError(f"sigma must be a finite real > 0, got {sigma!r}")
    if not (math.isfinite(d) and d > 0):
        raise InvalidInputError(f"sensitivity must be a finite real > 0, got {sensitivity!r}")
    c = d * d / (2 * s * s)

    def cert(a):
        iv = mpmath.iv
        S, D = _iv(sigma, "sigma"), _iv(sensitivity, "sensitivity")
        return iv.mpf(a) * D * D / (2 * S * S)

    return RdpCurve(value=lambda a: a * c, certified=cert, label=f"Gaussian(sigma={sigma}, Delta={sensitivity})",
                    source="Mironov (2017), Prop. 7: alpha Delta^2 / (2 sigma^2)")


def randomized_response_rdp(p: Any) -> RdpCurve:
    """Binary randomized response with flip probability p in (0, 1):
    r(alpha) = D_alpha(Bern(1-p) || Bern(p)) = log(p^alpha (1-p)^{1-alpha} + (1-p)^alpha p^{1-alpha})/(alpha-1)
    (Mironov 2017, Table II; thesis App. A.2 eq. (A.5)).  Exact (and the same for both orders of the
    pair); its eps0 = |log((1-p)/p)| is the alpha -> infinity limit."""
    pf = _float_of(p, "p")
    if not (0 < pf < 1):
        raise InvalidInputError(f"p must be in (0, 1), got {p!r}")
    lp, lq = math.log(pf), math.log1p(-pf)

    def value(a):
        return float(np.logaddexp(a * lp + (1 - a) * lq, a * lq + (1 - a) * lp)) / (a - 1)

    def cert(a):
        iv = mpmath.iv
        P = _iv(p, "p")
        Q = 1 - P
        A = iv.mpf(a)
        LP, LQ = iv.log(P), iv.log(Q)
        return iv.log(iv.exp(A * LP + (1 - A) * LQ) + iv.exp(A * LQ + (1 - A) * LP)) / (A - 1)

    return RdpCurve(value=value, certified=cert, label=f"RR(p={p})",
                    source="Mironov (2017), Table II (randomized response); thesis eq. (A.5)")


def zcdp_rdp(rho: Any) -> RdpCurve:
    """rho-zCDP as an RDP curve r(alpha) = rho alpha (Bun & Steinke 2016, Def. 1.1)."""
    r = check_rho(rho)
    return RdpCurve(value=lambda a: r * a, certified=lambda a: _iv(rho, "rho") * mpmath.iv.mpf(a),
                    label=f"zCDP(rho={rho})", source="Bun & Steinke (2016), Def. 1.1: rho alpha")


def rdp_curve_from_callable(value: Callable[[float], float], certified: Callable[[mpmath.mpf], Any] | None = None,
                            label: str = "user curve", source: str = "user supplied") -> RdpCurve:
    """A user RDP curve.  ``certified`` (optional) returns an enclosure at the exact alpha; without it
    the float ``value`` is treated as an exact upper bound (stated in every result)."""
    if not callable(value) or (certified is not None and not callable(certified)):
        raise InvalidInputError("value (and certified, if given) must be callables")
    assumption = "" if certified is not None else "float RDP values treated as exact upper bounds (not certified)"
    return RdpCurve(value=value, certified=certified, label=label, source=source, assumption=assumption)


def rdp_curve_from_arrays(orders: Sequence[Any], values: Sequence[Any], certified_values: Sequence[Any] | None = None,
                          label: str = "user arrays", source: str = "user supplied") -> RdpCurve:
    """An RDP curve known at finitely many orders.  ``certified_values`` (optional) are exact or
    interval upper bounds (str, Fraction, int, mpmath.mpf / iv); without them the float values are
    treated as exact upper bounds (stated in every result)."""
    orders_f = [check_alpha(a) for a in orders]
    if len(orders_f) == 0:
        raise InvalidInputError("orders is empty")
    if len(values) != len(orders_f):
        raise InvalidInputError(f"{len(orders_f)} orders but {len(values)} values")
    if len(set(orders_f)) != len(orders_f):
        raise InvalidInputError("orders contain duplicates")
    vals = []
    for a, v in zip(orders_f, values):
        _real(v, "RDP value")
        vf = float(v)
        if math.isnan(vf) or vf < 0:
            raise InvalidInputError(f"RDP value at alpha={a} must be >= 0 and not NaN, got {v!r}")
        vals.append(vf)
    table = dict(zip(orders_f, vals))
    cert = None
    if certified_values is not None:
        if len(certified_values) != len(orders_f):
            raise InvalidInputError(f"{len(orders_f)} orders but {len(certified_values)} certified values")
        for a, v in zip(orders_f, certified_values):
            if isinstance(v, float):
                raise InvalidInputError("certified_values must be exact or intervals (str, Fraction, int, "
                                         "mpmath.mpf or mpmath.iv), not floats")
            _real(v, "certified RDP value")
        ctable = dict(zip(orders_f, certified_values))

        def cert(a):
            return _iv(ctable[float(a)], "certified RDP value")
    assumption = "" if cert is not None else "float RDP values treated as exact upper bounds (not certified)"
    return RdpCurve(value=lambda a: table[a], certified=cert, label=label, source=source,
                    orders=tuple(orders_f), assumption=assumption)


# ------------------------------------------------------------------------------------------------
# the conversions at one alpha
# ------------------------------------------------------------------------------------------------

def epsilon_at(alpha: float, rdp: float, delta: float, method: str = "cks") -> float:
    """Float eps of one conversion at one order (NOT a guarantee: use :func:`certify_at`).

    Returns +inf for ``"asoodeh"`` when alpha delta >= 1 (outside that conversion's range).
    """
    a, d = check_alpha(alpha), check_delta(delta)
    _check_method(method)
    _real(rdp, "rdp")
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
    """Interval enclosure of the (unclamped) conversion; A exact point, R and D intervals."""
    iv = mpmath.iv
    one = iv.mpf(1)
    if method == "mironov":
        return R + iv.log(one / D) / (A - 1)
    if method == "cks":
        return R + (iv.log(one / D) + (A - 1) * iv.log(one - one / A) - iv.log(A)) / (A - 1)
    if method == "asoodeh":
        if not _hi(A * D) < 1:
            return None
        X = (A - 1) * R
        return iv.log(one + (iv.exp(X) - 1) / (A * D)) / (A - 1)
    raise InvalidInputError(f"unknown method {method!r}")


@dataclass(frozen=True)
class CertifiedEpsilon:
    """A certified (eps, delta) guarantee obtained from RDP / zCDP.

    ``epsilon_certified_upper`` is the guarantee: a float >= the exact value of the conversion
    ``method`` at order ``alpha_star`` (interval arithmetic, rounded up).  ``epsilon_float`` is the
    float search value at alpha_star (for information only).  ``enclosure`` = (lower, upper) floats,
    rounded outward, bracketing the exact value of the conversion at alpha_star (before clamping at 0).
    """

    epsilon_certified_upper: float
    alpha_star: float
    method: str
    delta: Any
    epsilon_float: float
    enclosure: tuple[float, float]
    rdp_at_alpha_star_upper: float
    rdp_certified: bool
    source: str
    curve: str
    assumption: str = ""
    alpha_at_search_boundary: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()} | {
            "delta": str(self.delta)}


def certify_at(curve: RdpCurve, alpha: float, delta: Any, method: str = "cks",
               prec: int = CERT_PREC) -> CertifiedEpsilon:
    """Certified eps of conversion ``method`` at the single order ``alpha`` (any alpha > 1 is valid)."""
    a = check_alpha(alpha)
    d = check_delta(delta)
    _check_method(method)
    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    r_float = curve(a)
    with _Prec(prec) as iv:
        A = iv.mpf(a)
        R = curve.enclosure(a)
        D = _iv(delta, "delta")
        if method == "asoodeh" and not _hi(A * D) < 1:
            raise InvalidInputError(f"asoodeh conversion needs alpha * delta < 1 (alpha={a}, delta={delta})")
        if mpmath.isinf(_hi(R)):
            enc_lo, enc_hi = mpmath.inf, mpmath.inf
        else:
            E = _eps_interval(A, R, D, method)
            enc_lo, enc_hi = _lo(E), _hi(E)
        rdp_up = _float_up(_hi(R))
    upper = _float_up(max(enc_hi, mpmath.mpf(0)))
    return CertifiedEpsilon(
        epsilon_certified_upper=upper, alpha_star=a, method=method, delta=delta,
        epsilon_float=max(0.0, _eps_float(a, r_float, d, method)),
        enclosure=(_float_down(enc_lo), _float_up(enc_hi)),
        rdp_at_alpha_star_upper=rdp_up, rdp_certified=curve.is_certified, source=SOURCES[method],
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
              alpha_max: float = ALPHA_MAX, prec: int = CERT_PREC) -> CertifiedEpsilon:
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
    return CertifiedEpsilon(**{**out.__dict__, "alpha_at_search_boundary": at_b, "notes": notes})


def bun_steinke_epsilon(rho: Any, delta: Any, prec: int = CERT_PREC) -> CertifiedEpsilon:
    """Bun & Steinke (2016), Prop. 1.3: rho-zCDP => (rho + 2 sqrt(rho log(1/delta)), delta)-DP,
    certified by interval evaluation of the closed form.  alpha_star = 1 + sqrt(log(1/delta)/rho) is
    the order at which the Mironov conversion of rho alpha attains this value (inf if rho = 0)."""
    r, d = check_rho(rho), check_delta(delta)
    with _Prec(prec) as iv:
        R, D = _iv(rho, "rho"), _iv(delta, "delta")
        E = R + 2 * iv.sqrt(R * iv.log(iv.mpf(1) / D))
        lo, hi = _lo(E), _hi(E)
    L = -math.log(d)
    return CertifiedEpsilon(
        epsilon_certified_upper=_float_up(max(hi, mpmath.mpf(0))),
        alpha_star=(1 + math.sqrt(L / r)) if r > 0 else math.inf, method="bun-steinke", delta=delta,
        epsilon_float=r + 2 * math.sqrt(r * L), enclosure=(_float_down(lo), _float_up(hi)),
        rdp_at_alpha_star_upper=math.nan, rdp_certified=True, source=SOURCES["bun-steinke"],
        curve=f"zCDP(rho={rho})")


def zcdp_to_dp(rho: Any, delta: Any, method: str = "cks", alpha_max: float = ALPHA_MAX,
               prec: int = CERT_PREC) -> CertifiedEpsilon:
    """(eps, delta)-DP from rho-zCDP.  ``"bun-steinke"``: closed form (Bun & Steinke 2016 Prop. 1.3);
    ``"cks"`` (default, tighter): inf over real alpha of the CKS conversion of rho alpha (Canonne,
    Kamath & Steinke 2020, Sec. 2.3 / Prop. 12); ``"mironov"`` / ``"asoodeh"``: those RDP
    conversions of rho alpha.  All certified."""
    _check_method(method, ZCDP_METHODS)
    check_rho(rho)
    if method == "bun-steinke":
        return bun_steinke_epsilon(rho, delta, prec)
    return rdp_to_dp(zcdp_rdp(rho), delta, method, "real", alpha_max, prec)


#: The 2020 US Census figures of the partial-DP paper (shared/papers/partial_dp.txt lines 2391-2418):
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
    "ALPHA_MAX", "CENSUS_2020", "CERT_PREC", "CertifiedEpsilon", "METHODS", "RdpCurve",
    "SOURCES", "ZCDP_METHODS", "bun_steinke_epsilon", "census_2020_table", "certify_at", "check_alpha",
    "check_delta", "check_rho", "check_rounds", "compose", "epsilon_at", "gaussian_rdp",
    "randomized_response_rdp", "rdp_curve_from_arrays", "rdp_curve_from_callable", "rdp_to_dp",
    "search_alpha", "zcdp_rdp", "zcdp_to_dp",
]
