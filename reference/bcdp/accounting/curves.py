"""RDP curves alpha -> r(alpha) for the conversions of :mod:`bcdp.accounting.conversion`.

A curve carries a float ``value`` (used by the search over alpha only) and, when it can, a
``certified`` enclosure at an exact order (an arb ball, python-flint, whose upper end bounds the true
RDP; see :mod:`bcdp.core.intervals`); without one the float is *treated as an exact upper bound* and
every result says so.

Definitions.  M is (alpha, r)-RDP (Mironov 2017, Def. 4) if D_alpha(M(x) || M(x')) <= r for all
neighbours x, x'.  It is rho-zCDP (Bun & Steinke 2016, Def. 1.1) if it is (alpha, rho alpha)-RDP for
every alpha > 1.  RDP composes additively (Mironov 2017, Prop. 1; thesis Lemma 2.1.4): T adaptive
rounds of an r(alpha)-RDP mechanism are T r(alpha)-RDP.

Curves provided (for cross-checks; the shuffle-model curves live in :mod:`bcdp.shuffle`):

* :func:`gaussian_rdp` -- Gaussian mechanism, r(alpha) = alpha Delta^2 / (2 sigma^2) (Mironov 2017,
  Prop. 7 / Table II);
* :func:`randomized_response_rdp` -- binary randomized response with flip probability p:
  r(alpha) = D_alpha(Bern(1-p) || Bern(p)) = log(p^alpha (1-p)^{1-alpha} + (1-p)^alpha p^{1-alpha})
  / (alpha - 1) (Mironov 2017, Table II; thesis App. A.2 eq. (A.5)); symmetric in the two orders;
* :func:`zcdp_rdp` -- r(alpha) = rho alpha;
* :func:`rdp_curve_from_callable`, :func:`rdp_curve_from_arrays` -- user curves;
* :meth:`RdpCurve.compose` and :func:`compose` -- homogeneous and heterogeneous composition.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass
from numbers import Real
from typing import Any, Callable, Sequence

import mpmath
import numpy as np

from bcdp.accounting.inputs import (
    check_alpha,
    check_real,
    check_rho,
    check_rounds,
    enclose,
    enclosure_upper,
    exact_value,
    float_of,
    is_ball,
    is_iv_interval,
    mpf_value,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import ball_of, float_up

#: Text recorded in results when float RDP values are used as if they were exact upper bounds.
UNCERTIFIED = "float RDP values treated as exact upper bounds (not certified)"


@dataclass(frozen=True)
class RdpCurve:
    """An RDP curve alpha -> r(alpha) (an upper bound on the Renyi divergence of order alpha).

    ``value(alpha: float) -> float`` is used by the search only.  ``certified(alpha: mpmath.mpf)``
    returns an arb ball (or exact int/Fraction/mpf/string, or an ``mpmath.iv`` interval, which is
    read by its exact endpoints) whose upper end bounds the true RDP at the exact order alpha; it is
    called with the arb precision already set (:func:`bcdp.core.intervals.arb_precision`).  If it is
    None the float value is treated as an exact upper bound (recorded in results).  ``orders`` is set
    when the curve is known only at those orders (array curves).
    """

    value: Callable[[float], float]
    certified: Callable[[mpmath.mpf], Any] | None
    label: str
    source: str
    orders: tuple[float, ...] | None = None
    assumption: str = ""
    order_values: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if self.order_values is not None and (self.orders is None or len(self.order_values) != len(self.orders)):
            raise InvalidInputError("order_values needs orders of the same length")
        sorted_table = None
        if self.order_values is not None:        # (orders ascending, values) as arrays, for the search
            o = np.array(self.orders, dtype=float)
            v = np.array(self.order_values, dtype=float)
            if bool((o[1:] > o[:-1]).all()):       # ascending already (and so no duplicates)
                lists = (self.orders, self.order_values)
            else:
                k = np.argsort(o)
                o, v = o[k], v[k]
                if bool((o[1:] == o[:-1]).any()):
                    raise InvalidInputError("orders contain duplicates")
                lists = (o.tolist(), v.tolist())
            sorted_table = (o, v)
            object.__setattr__(self, "_sorted_lists", lists)   # (sequences for bisect)
        elif self.orders is not None and len(frozenset(self.orders)) != len(self.orders):
            raise InvalidInputError("orders contain duplicates")
        object.__setattr__(self, "_sorted_table", sorted_table)
        object.__setattr__(self, "_order_set", None)

    def _is_order(self, alpha: float) -> bool:
        """alpha (a float) is one of ``orders``: a binary search in the sorted table of an array curve
        with values, else a set built on first use (a tuple scan per call made a 100-order search
        quadratic)."""
        if self._sorted_table is not None:
            o = self._sorted_lists[0]
            i = bisect_left(o, alpha)
            return i < len(o) and o[i] == alpha
        if self._order_set is None:
            object.__setattr__(self, "_order_set", frozenset(self.orders))
        return alpha in self._order_set

    def sorted_orders_and_values(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(orders ascending, their float values) of an array curve built with ``order_values``
        (read-only copies), else None."""
        if self._sorted_table is None:
            return None
        return self._sorted_table[0].copy(), self._sorted_table[1].copy()

    def has_order(self, alpha: float) -> bool:
        """alpha is an order of the curve (every order for a curve known at every alpha > 1)."""
        return self.orders is None or self._is_order(alpha)

    def values_at(self, alphas: Sequence[float]) -> np.ndarray:
        """The float values at the given (checked, float) orders, +inf where the curve fails or
        overflows (the search's reading: such an order is never chosen).  An array curve with
        ``order_values`` (validated when it was built) answers by one binary search over its sorted orders (numpy); other curves
        evaluate :meth:`__call__` order by order."""
        if self._sorted_table is not None:
            o, v = self._sorted_table
            wanted = np.asarray(alphas, dtype=float)
            idx = np.minimum(o.searchsorted(wanted), o.size - 1)
            found = o[idx] == wanted
            if not found.all():
                missing = float(wanted[~found][0])
                raise InvalidInputError(f"{self.label} is only defined at its orders; {missing} is not one")
            return v[idx]
        out = np.empty(len(alphas))
        for i, a in enumerate(alphas):
            try:
                out[i] = self(a)
            except (OverflowError, FloatingPointError, ValueError, ZeroDivisionError):
                out[i] = math.inf
        return out

    def _order(self, alpha: float) -> float:
        a = check_alpha(alpha)
        if self.orders is not None and not self._is_order(a):
            raise InvalidInputError(f"{self.label} is only defined at its orders; {a} is not one")
        return a

    def __call__(self, alpha: float) -> float:
        a = self._order(alpha)
        v = self.value(a)
        if type(v) is not float:                   # floats skip the (slow, ABC) generic type checks
            if isinstance(v, bool) or not isinstance(v, Real):
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
        """Arb ball enclosing r(alpha) at the exact float alpha (the caller sets the arb precision)."""
        a = self._order(alpha)
        if self.certified is None:
            return ball_of(self(a))                # ASSUMPTION: the float is an exact upper bound
        out = as_interval(self.certified(mpmath.mpf(a)))
        if out.is_nan():
            raise InvalidInputError(f"certified RDP of {self.label} is NaN at alpha={a}")
        if out < 0:                                # certainly negative: the whole ball is below 0
            raise InvalidInputError(f"certified RDP of {self.label} is negative at alpha={a}")
        return out

    def compose(self, T: int) -> RdpCurve:
        """T-fold (adaptive) composition: T r(alpha) (Mironov 2017, Prop. 1; thesis Lemma 2.1.4)."""
        T = check_rounds(T)
        value, cert = self.value, self.certified
        return RdpCurve(
            value=lambda a: T * value(a),
            certified=None if cert is None else (lambda a: ball_of(T) * as_interval(cert(a))),
            label=f"{T} x [{self.label}]", source=f"{self.source}; composed T={T} times (Mironov 2017 Prop. 1)",
            orders=self.orders, assumption=self.assumption,
            order_values=None if self.order_values is None else tuple(T * v for v in self.order_values))


def as_interval(x: Any):
    """A certified RDP value as an arb ball (balls are kept as they are, an ``mpmath.iv`` interval is
    enclosed by its exact endpoints, exact numbers by :func:`~bcdp.accounting.inputs.enclose`).  An
    infinite ball (certified RDP = +inf) is kept."""
    if is_ball(x) and not x.is_finite():
        return x
    if is_iv_interval(x) and not all(mpmath.isfinite(mpmath.mp.make_mpf(e)) for e in x._mpi_):
        import flint

        return flint.arb(0, flint.arb.pos_inf())   # an unbounded interval: no finite upper bound
    return enclose(x, "certified RDP value")


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
        out = ball_of(0)
        for c in curves:
            out = out + as_interval(c.certified(a))
        return out

    return RdpCurve(value=lambda a: sum(c.value(a) for c in curves), certified=cert if certified else None,
                    label=" + ".join(c.label for c in curves), source="Mironov (2017), Prop. 1 (composition)",
                    orders=orders, assumption="; ".join(sorted({c.assumption for c in curves if c.assumption})))


def gaussian_rdp(sigma: Any, sensitivity: Any = 1) -> RdpCurve:
    """Gaussian mechanism N(f(x), sigma^2 I) with L2 sensitivity Delta: r(alpha) = alpha Delta^2/(2 sigma^2)
    (Mironov 2017, Prop. 7 / Table II).  Exact for every alpha (it is the Renyi divergence of the two
    shifted Gaussians)."""
    s = _positive(sigma, "sigma")
    d = _positive(sensitivity, "sensitivity")
    with mpmath.workdps(30):                       # Delta^2 / (2 sigma^2) from the exact values: no 0/0
        c = float(d * d / (2 * s * s))             # at sigma = 1e-200; beyond ~1e308 the search value is
    # +inf (the certified value stays exact)

    def cert(a):
        S, D = enclose(sigma, "sigma"), enclose(sensitivity, "sensitivity")
        return ball_of(a) * D * D / (2 * S * S)

    return RdpCurve(value=lambda a: a * c, certified=cert, label=f"Gaussian(sigma={sigma}, Delta={sensitivity})",
                    source="Mironov (2017), Prop. 7: alpha Delta^2 / (2 sigma^2)")


def _positive(x: Any, name: str) -> mpmath.mpf:
    """A finite real > 0 (decided on the exact value of an exact input), as an mpf (30 digits)."""
    q = exact_value(x, name)
    ok = q > 0 if q is not None else (math.isfinite(float_of(x, name)) and float_of(x, name) > 0)
    if not ok:
        raise InvalidInputError(f"{name} must be a finite real > 0, got {x!r}")
    with mpmath.workdps(30):
        return mpf_value(x, name)


def randomized_response_rdp(p: Any) -> RdpCurve:
    """Binary randomized response with flip probability p in (0, 1):
    r(alpha) = D_alpha(Bern(1-p) || Bern(p)) = log(p^alpha (1-p)^{1-alpha} + (1-p)^alpha p^{1-alpha})/(alpha-1)
    (Mironov 2017, Table II; thesis App. A.2 eq. (A.5)).  Exact (and the same for both orders of the
    pair); its eps0 = |log((1-p)/p)| is the alpha -> infinity limit."""
    import numpy as np

    q = exact_value(p, "p")
    if not (0 < q < 1 if q is not None else 0 < float_of(p, "p") < 1):   # exact inputs decided exactly
        raise InvalidInputError(f"p must be in (0, 1), got {p!r}")
    with mpmath.workdps(30):                       # log p, log(1 - p) from the exact value (p = 1e-400 too)
        pm = mpf_value(p, "p")
        lp, lq = float(mpmath.log(pm)), float(mpmath.log1p(-pm))

    def value(a):
        return float(np.logaddexp(a * lp + (1 - a) * lq, a * lq + (1 - a) * lp)) / (a - 1)

    def cert(a):
        P = enclose(p, "p")
        Q = 1 - P
        A = ball_of(a)
        LP, LQ = P.log(), Q.log()
        return ((A * LP + (1 - A) * LQ).exp() + (A * LQ + (1 - A) * LP).exp()).log() / (A - 1)

    return RdpCurve(value=value, certified=cert, label=f"RR(p={p})",
                    source="Mironov (2017), Table II (randomized response); thesis eq. (A.5)")


def zcdp_rdp(rho: Any) -> RdpCurve:
    """rho-zCDP as an RDP curve r(alpha) = rho alpha (Bun & Steinke 2016, Def. 1.1)."""
    r = check_rho(rho)
    search = rho
    if is_ball(rho) or is_iv_interval(rho):  # search at the upper end, where the certified value is taken
        search = enclosure_upper(rho, "rho")
        r = float_up(search)
    if r < 1e-290:                                 # r >= 0 (check_rho); below the normal float range
        with mpmath.workdps(20):                   # (rho = "1e-400", mpf("1e-400"), 0): the search value
            rm = mpf_value(search, "rho")          # rho * alpha from a 20-digit rho, not from r = 0.0

        def value(a):
            with mpmath.workdps(20):
                return float(rm * a)
    else:
        def value(a):
            return r * a
    return RdpCurve(value=value, certified=lambda a: enclose(rho, "rho") * ball_of(a),
                    label=f"zCDP(rho={rho})", source="Bun & Steinke (2016), Def. 1.1: rho alpha")


def rdp_curve_from_callable(value: Callable[[float], float], certified: Callable[[mpmath.mpf], Any] | None = None,
                            label: str = "user curve", source: str = "user supplied") -> RdpCurve:
    """A user RDP curve.  ``certified`` (optional) returns an enclosure at the exact alpha; without it
    the float ``value`` is treated as an exact upper bound (stated in every result)."""
    if not callable(value) or (certified is not None and not callable(certified)):
        raise InvalidInputError("value (and certified, if given) must be callables")
    assumption = "" if certified is not None else UNCERTIFIED
    return RdpCurve(value=value, certified=certified, label=label, source=source, assumption=assumption)


def rdp_curve_from_arrays(orders: Sequence[Any], values: Sequence[Any], certified_values: Sequence[Any] | None = None,
                          label: str = "user arrays", source: str = "user supplied") -> RdpCurve:
    """An RDP curve known at finitely many orders.  ``certified_values`` (optional) are exact or
    enclosures (str, Fraction, int, mpmath.mpf, arb ball or mpmath.iv interval); without them the
    float values are treated as exact upper bounds (stated in every result)."""
    orders_f = _checked_orders(orders)
    if len(orders_f) == 0:
        raise InvalidInputError("orders is empty")
    if len(values) != len(orders_f):
        raise InvalidInputError(f"{len(orders_f)} orders but {len(values)} values")
    vals = _checked_values(orders_f, values)
    sorted_lists: list = []                        # the curve's sorted (orders, values), set below

    def value(a: float) -> float:                  # (no reference to the curve itself: no cycle for the GC)
        o, v = sorted_lists[0]
        i = bisect_left(o, a)
        if i < len(o) and o[i] == a:
            return v[i]
        raise KeyError(a)
    cert = None
    if certified_values is not None:
        if len(certified_values) != len(orders_f):
            raise InvalidInputError(f"{len(orders_f)} orders but {len(certified_values)} certified values")
        for a, v in zip(orders_f, certified_values):
            if isinstance(v, float):
                raise InvalidInputError("certified_values must be exact or enclosures (str, Fraction, int, "
                                        "mpmath.mpf, an arb ball or an mpmath.iv interval), not floats")
            check_real(v, "certified RDP value")
        ctable = dict(zip(orders_f, certified_values))

        def cert(a):
            return enclose(ctable[float(a)], "certified RDP value")
    assumption = "" if cert is not None else UNCERTIFIED
    curve = RdpCurve(value=value, certified=cert, label=label, source=source,
                     orders=tuple(orders_f), assumption=assumption, order_values=tuple(vals))
    sorted_lists.append(curve._sorted_lists)
    return curve


def _checked_orders(orders: Sequence[Any]) -> list[float]:
    """The orders of an array curve as floats, each a finite real > 1 (:func:`~bcdp.accounting.inputs.
    check_alpha`); plain floats are checked in one numpy pass."""
    if isinstance(orders, np.ndarray) and orders.dtype == np.float64 and orders.ndim == 1:
        arr = orders
    elif set(map(type, orders)) == {float}:       # (C-level: no generator per value)
        arr = np.array(orders, dtype=float)
    else:
        arr = None
    if arr is not None and arr.size and bool(((arr > 1) & (arr < math.inf)).all()):   # (NaN: False)
        return arr.tolist()
    return [check_alpha(a) for a in orders]      # (also: the message naming the first bad order)


def _checked_values(orders: list[float], values: Sequence[Any]) -> list[float]:
    """The RDP values of an array curve as floats, each a real >= 0 and not NaN (inf allowed).
    Plain floats (a list of them or a float64 array) are checked in one numpy pass; anything else
    value by value (:func:`~bcdp.accounting.inputs.check_real` refuses bools, strings of non-numbers,
    complex, ...)."""
    if isinstance(values, np.ndarray) and values.dtype == np.float64 and values.ndim == 1:
        arr = values.astype(float)
    elif set(map(type, values)) == {float}:
        arr = np.array(values, dtype=float)
    else:
        arr = None
    if arr is not None and bool((arr >= 0).all()):  # (NaN: False; +inf allowed)
        return arr.tolist()
    vals = []                                      # (also: the message naming the first bad value)
    for a, v in zip(orders, values):
        check_real(v, "RDP value")
        vf = float_of(v, "RDP value")           # a string is read as the number it spells
        if math.isnan(vf) or vf < 0:
            raise InvalidInputError(f"RDP value at alpha={a} must be >= 0 and not NaN, got {v!r}")
        vals.append(vf)
    return vals


__all__ = [
    "UNCERTIFIED",
    "RdpCurve",
    "as_interval",
    "compose",
    "gaussian_rdp",
    "randomized_response_rdp",
    "rdp_curve_from_arrays",
    "rdp_curve_from_callable",
    "zcdp_rdp",
]
