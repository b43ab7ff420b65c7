"""Argument checks and number reading shared by the accountants (and by :mod:`bcdp.shuffle`).

Two reading policies, each stated where it is used:

* **High-precision functions** (the mpmath transforms of :mod:`bcdp.accounting.subsampling`, the
  closed forms of :mod:`bcdp.shuffle`) read scalars with :func:`to_mpf`: ints, Fractions, decimal or
  ratio strings, sympy Rationals and Decimals go through :func:`bcdp.core.numbers.to_fraction`
  (floats refused with :class:`~bcdp.core.errors.FloatRefusedError`), ``mpmath.mpf`` values are taken
  as they are, and infinity is accepted as :data:`bcdp.core.numbers.INFINITY`, ``mpmath.inf`` or the
  string ``"inf"``.  Their float twins (``*_float``) read through
  :func:`bcdp.core.numbers.to_float_input`.
* **Certified conversions** (:mod:`bcdp.accounting.conversion`) read a parameter as an arb ball
  (python-flint, the certification backend of :mod:`bcdp.core.intervals`) with :func:`enclose`; a
  float there is read as the hull of its exact binary value and of the decimal ``repr`` shows, so
  ``delta=1e-6`` certifies for 10^-6 as well as for the nearest double (documented in
  :mod:`bcdp.accounting.conversion`).  An ``mpmath.iv`` interval given by a caller is still accepted
  as an input: its exact endpoints are read and enclosed in a ball (no ``mpmath.iv`` arithmetic is
  done here).

Only :mod:`bcdp.core` is imported.
"""

from __future__ import annotations

import functools

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from numbers import Integral, Rational, Real
from typing import TYPE_CHECKING, Any

import mpmath

from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.numbers import INFINITY, to_fraction

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: Default working precision (decimal digits) of the high-precision accountants.
DEFAULT_DPS = 60
#: Bits of the arb balls used for the certified re-evaluation of conversions.
CERT_PREC = 200

_INF_STRINGS = ("inf", "+inf", "infinity", "oo")


# -- high-precision scalars -------------------------------------------------------------------------

def to_mpf(value: Any, name: str = "value") -> mpmath.mpf:
    """``value`` as an mpf at the current mpmath precision (one rounding), under the policy of
    high-precision functions: exact inputs through :func:`~bcdp.core.numbers.to_fraction`, mpf as is,
    infinity as ``INFINITY`` / ``mpmath.inf`` / ``"inf"``; floats refused (except the INFINITY
    sentinel), bools and None refused.  NaN is returned as NaN only for an mpf NaN (callers check)."""
    if value is None:
        raise WrongTypeError(f"{name}: a number is required, got None")
    if isinstance(value, mpmath.mpf):
        return +value
    if isinstance(value, float) and not isinstance(value, bool):
        if value == INFINITY:
            return mpmath.inf
        raise FloatRefusedError(
            f"{name}: floats are refused by high-precision functions (got {value!r}); pass a string such "
            "as '0.1', a Fraction, an int or an mpmath.mpf (mpmath.mpf(x) reads a float's exact binary "
            "value), or use the function's *_float twin")
    if isinstance(value, str) and value.strip().lower() in _INF_STRINGS:
        return mpmath.inf
    if type(value).__module__.startswith("numpy"):
        if isinstance(value, Integral) or getattr(value, "dtype", None) is not None and value.dtype.kind in "iu":
            return mpmath.mpf(int(value))
        raise FloatRefusedError(f"{name}: numpy floats are refused by high-precision functions (got {value!r})")
    q = to_fraction(value, name)
    if q.denominator == 1:
        return mpmath.mpf(q.numerator)
    return mpmath.mpf(q.numerator) / q.denominator


def checked_mpf(value: Any, ok: Callable[[mpmath.mpf], bool], requirement: str,
                name: str = "value") -> mpmath.mpf:
    """:func:`to_mpf` of ``value``, required not NaN and ``ok``; otherwise
    ``InvalidInputError("<requirement>, got <value!r>")`` (type errors keep their own class)."""
    v = to_mpf(value, name)
    if mpmath.isnan(v) or not ok(v):
        raise InvalidInputError(f"{requirement}, got {value!r}")
    return v


def check_rate(gamma: Any) -> mpmath.mpf:
    """A sampling rate gamma in (0, 1] (high precision), decided on the exact value of an exact input
    (``"1.0000000000000000000001"`` rounds to 1 at the working precision and is refused)."""
    q = exact_value(gamma, "gamma")
    if q is not None and not 0 < q <= 1:
        raise InvalidInputError(f"gamma must lie in (0, 1], got {gamma!r}")
    return checked_mpf(gamma, lambda g: 0 < g <= 1, "gamma must lie in (0, 1]", "gamma")


def check_rdp_value(value: Any, order: Any) -> mpmath.mpf:
    """An RDP value eps(order): a real >= 0 or +inf (never NaN, never negative), high precision."""
    return checked_mpf(value, lambda v: v >= 0, f"base eps({order}) must be a real >= 0 or inf",
                       f"eps({order})")


def integer_order(alpha: Any) -> int:
    """A Renyi order that must be an integer >= 2 (theorems stated at integer orders only)."""
    if isinstance(alpha, bool) or alpha is None:
        raise WrongTypeError(f"alpha must be an integer >= 2, got {alpha!r}")
    a = to_mpf(alpha, "alpha")
    if mpmath.isnan(a):
        raise InvalidInputError("alpha is NaN")
    if a <= 1:
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    # an exact input is decided (and returned) on its exact value: "2.0000000000000001" rounds to 2
    # at 15 digits, and a 22-digit integer would not survive int(mpf)
    q = exact_value(alpha, "alpha") if mpmath.isfinite(a) and not isinstance(alpha, mpmath.mpf) else None
    if mpmath.isinf(a) or a != mpmath.floor(a) or (q is not None and q.denominator != 1):
        raise InvalidInputError(f"this theorem holds for integer orders alpha >= 2 only, got {alpha!r}")
    return int(q) if q is not None else int(a)


def log_over(x: mpmath.mpf, a: int) -> mpmath.mpf:
    """log(x)/(a - 1), +inf for x = inf (the last step of every moment bound)."""
    if mpmath.isinf(x):
        return mpmath.inf
    return mpmath.log(x) / (a - 1)


# -- float twins -------------------------------------------------------------------------------------

def integer_orders(alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """A float twin's integer orders as an int64 array (at least 1-d); all must be >= 2."""
    import numpy as np

    arr = np.atleast_1d(np.asarray(alphas))
    if arr.dtype.kind == "f" and (np.any(~np.isfinite(arr)) or np.any(arr != np.floor(arr))):
        raise InvalidInputError("integer orders alpha >= 2 required")
    arr = arr.astype(np.int64)
    if np.any(arr < 2):
        raise InvalidInputError("integer orders alpha >= 2 required")
    return arr


def float_rate(gamma: Any) -> float:
    """A float twin's sampling rate gamma in (0, 1]."""
    from bcdp.core.numbers import to_float_input

    q = exact_value(gamma, "gamma") if not isinstance(gamma, (float, mpmath.mpf)) else None
    if q is not None and not 0 < q <= 1:           # decided on the exact value, not on its float
        raise InvalidInputError(f"gamma must lie in (0, 1], got {gamma!r}")
    g = to_float_input(gamma, "gamma")
    if not 0 < g <= 1:
        raise InvalidInputError(f"gamma must lie in (0, 1], got {gamma!r}" if q is None else
                                f"gamma = {gamma!r} is below the float range of this float twin")
    return g


def float_base_and_orders(base: Any, alphas: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float twin's base curve (``base[j]`` = eps(j) >= 0 or inf for j = 2..max(alpha)) and orders."""
    import numpy as np

    base = np.asarray(base, dtype=float)
    arr = integer_orders(alphas)
    if base.shape[0] <= int(arr.max()) or np.any(np.isnan(base[2:])) or np.any(base[2:] < 0):
        raise InvalidInputError("base must hold eps(j) >= 0 (or inf) for j = 2..max(alpha)")
    return base, arr


# -- certified conversions: validation and ball reading ---------------------------------------------

def is_ball(x: Any) -> bool:
    """True for an arb ball (``flint.arb``)."""
    return type(x).__name__ == "arb"


def is_iv_interval(x: Any) -> bool:
    """True for an ``mpmath.iv`` interval (accepted as an input only)."""
    return type(x).__name__ == "ivmpf"


def is_interval(x: Any) -> bool:
    """True for an enclosure object: an arb ball or an ``mpmath.iv`` interval."""
    return is_ball(x) or is_iv_interval(x)


def check_real(x: Any, name: str) -> None:
    """``x`` is a real number (int, float, Fraction, numeric string, mpf, arb ball or iv interval),
    not NaN."""
    if isinstance(x, bool) or not isinstance(x, (Real, str, mpmath.mpf)) and not is_interval(x):
        raise InvalidInputError(f"{name} must be a real number, got {type(x).__name__}")
    if isinstance(x, float) and math.isnan(x):
        raise InvalidInputError(f"{name} is NaN")
    if type(x).__module__.startswith("numpy") and isinstance(x, Real) and math.isnan(float(x)):
        raise InvalidInputError(f"{name} is NaN")
    if is_ball(x) and x.is_nan():
        raise InvalidInputError(f"{name} is NaN")


def hull(lo: Any, hi: Any):
    """An arb ball containing the closed interval [lo, hi] of two exact numbers (int, Fraction, mpf,
    float, exact ball), at the current arb precision (arb's union: the radius is rounded up)."""
    from bcdp.core.intervals import ball_of

    return ball_of(lo).union(ball_of(hi))


def enclosure_upper(x: Any, name: str = "value") -> Fraction:
    """The exact upper end of an enclosure input (arb ball or ``mpmath.iv`` interval), as a Fraction
    (the ball at :data:`CERT_PREC` bits, its ends read exactly)."""
    from bcdp.core.intervals import arb_precision, ball_upper

    with arb_precision(CERT_PREC):
        return ball_upper(enclose(x, name))


def ball_of_iv(x: Any, name: str = "value"):
    """An arb ball containing an ``mpmath.iv`` interval (its exact endpoints, read without rounding)."""
    lo, hi = (mpmath.mp.make_mpf(end) for end in x._mpi_)
    if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
        raise InvalidInputError(f"{name} must be finite, got {x}")
    return hull(lo, hi)


def enclose(x: Any, name: str = "value"):
    """An arb ball containing the exact value(s) the argument denotes, at the current arb precision
    (set by the caller with :func:`bcdp.core.intervals.arb_precision`).

    float -> hull(exact binary value, decimal repr); string -> the decimal or ratio it spells (exact
    rational, enclosed with one outward rounding); Fraction, sympy Rational -> enclosure of p/q; int,
    mpf -> exact point; an arb ball is returned as is; an ``mpmath.iv`` interval -> a ball containing it.
    Plain str, float, int and Fraction inputs are remembered per precision (arb balls are immutable;
    a request encloses the same delta at every order and conversion).
    """
    if type(x) in (str, float, int, Fraction):
        import flint

        return _enclose_cached(type(x), x, name, flint.ctx.prec)
    return _enclose(x, name)


@functools.lru_cache(maxsize=512)
def _enclose_cached(kind: type, x: Any, name: str, prec: int):
    # the precision is part of the key (the caller set it); the type too (1 and 1.0 hash alike)
    return _enclose(x, name)


def _enclose(x: Any, name: str):
    from bcdp.core.intervals import ball_of

    if is_ball(x):
        if not x.is_finite():
            raise InvalidInputError(f"{name} must be finite, got {x}")
        return x
    if is_iv_interval(x):
        return ball_of_iv(x, name)
    check_real(x, name)
    if isinstance(x, Integral):
        return ball_of(int(x))
    if isinstance(x, Fraction):
        return ball_of(x)
    if isinstance(x, Rational):                    # a sympy Rational (exact_value): its value, not its float
        return ball_of(to_fraction(x, name))
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise InvalidInputError(f"{name} must be finite, got {x}")
        return ball_of(x)
    if isinstance(x, str):
        text = x.strip()
        if text.lower().lstrip("+-") in ("inf", "infinity", "nan", "oo"):
            raise InvalidInputError(f"{name} must be finite, got {x!r}")
        return ball_of(to_fraction(text, name))   # the exact decimal or ratio (size caps of to_fraction)
    xf = float(x)
    if not math.isfinite(xf):
        raise InvalidInputError(f"{name} must be finite, got {x!r}")
    exact, dec = Fraction(xf), Fraction(repr(xf))   # exact binary value; the decimal the user most likely meant
    return ball_of(exact) if exact == dec else hull(exact, dec)


def float_of(x: Any, name: str) -> float:
    """A float for the search (parameters only; the certified path uses :func:`enclose`).  An exact
    input (string, Fraction, int) is the nearest float of its exact value (0.0 or inf beyond the float
    range): validity is never decided on this float, but on :func:`exact_value` (see the checks)."""
    check_real(x, name)
    if is_ball(x):
        return float(x.mid())
    if is_iv_interval(x):
        return float(mpmath.mpf(x.mid))
    q = exact_value(x, name)
    if q is not None:
        try:
            return float(q)
        except OverflowError:
            return math.inf if q > 0 else -math.inf
    return float(x)


def exact_value(x: Any, name: str = "value") -> Fraction | None:
    """The exact rational an *exact* input denotes (int, Fraction, decimal or ratio string, Decimal,
    sympy Rational, numpy integer; read by :func:`bcdp.core.numbers.to_fraction`, with its size caps),
    or None for an input that is not exact text or an exact rational (float, mpf, arb ball, iv
    interval), whose validity is decided on its own value / enclosure.  Validity checks use this and
    never a rounded float: ``"1e-400"`` is a positive delta, ``"0.99999999999999999999"`` is below 1."""
    if isinstance(x, bool):
        raise WrongTypeError(f"{name}: booleans are not numbers here (got {x!r})")
    if isinstance(x, (float, mpmath.mpf)) or is_interval(x):
        return None
    if type(x).__module__.startswith("numpy"):
        return Fraction(int(x)) if isinstance(x, Integral) else None
    if isinstance(x, str):
        if x.strip().lower().lstrip("+-") in ("inf", "infinity", "nan", "oo"):
            raise InvalidInputError(f"{name} must be finite, got {x!r}")
        return to_fraction(x, name)
    if isinstance(x, (Integral, Fraction)) or type(x).__name__ == "Decimal" or type(x).__module__.startswith("sympy"):
        return to_fraction(x, name)
    return None


def _certified_in_unit_interval(x: Any, name: str) -> bool:
    """0 < x < 1 for a non-exact input (float, mpf, ball, interval): its float and its whole
    enclosure (hull of a float's binary value and decimal repr, a ball's radius) must lie inside."""
    from bcdp.core.intervals import arb_precision

    f = float_of(x, name)
    if not (0 < f < 1):
        return False
    with arb_precision(CERT_PREC):
        enc = enclose(x, name)
        return bool(enc > 0 and enc < 1)           # certified: the whole ball is inside (0, 1)


def check_alpha(alpha: Any) -> float:
    """A Renyi order for the conversions: a finite real > 1 (NaN, inf, bool rejected), returned as
    the float the search uses; an exact input must be exactly that float."""
    if type(alpha) is float:                       # the common case, decided without the generic checks
        if math.isnan(alpha):
            raise InvalidInputError("alpha is NaN")
        if not (1 < alpha < math.inf):
            raise InvalidInputError(f"alpha must be a finite real > 1, got {alpha!r}")
        return alpha
    check_real(alpha, "alpha")
    q = exact_value(alpha, "alpha")
    if q is not None:
        if not q > 1:
            raise InvalidInputError(f"alpha must be a finite real > 1, got {alpha!r}")
        a = float_of(alpha, "alpha")
        if not math.isfinite(a) or Fraction(a) != q:
            raise InvalidInputError(f"alpha {alpha!r} is not exactly representable as a float; pass a float")
        return a
    a = float_of(alpha, "alpha")
    if not math.isfinite(a) or not a > 1:
        raise InvalidInputError(f"alpha must be a finite real > 1, got {alpha!r}")
    return a


def check_delta(delta: Any) -> float:
    """delta in the open interval (0, 1) (NaN, bool rejected), decided on the exact value of an exact
    input (``"1e-400"`` and ``"0.99999999999999999999"`` are valid) and on the enclosure of a float,
    mpf or ball.  Returns the nearest float, for information only: it may be 0.0 or 1.0 for an exact
    delta beyond float resolution; the search uses :func:`log_inverse` and the certification
    :func:`enclose`, both from the exact value."""
    if type(delta) in (str, float, int, Fraction):   # remembered: every conversion of a request checks it
        return _check_delta_cached(type(delta), delta)
    return _check_delta(delta)


@functools.lru_cache(maxsize=256)
def _check_delta_cached(kind: type, delta: Any) -> float:
    return _check_delta(delta)


def _check_delta(delta: Any) -> float:
    check_real(delta, "delta")
    q = exact_value(delta, "delta")
    if q is not None:
        if not 0 < q < 1:
            raise InvalidInputError(f"delta must be in (0, 1), got {delta!r}")
    elif not _certified_in_unit_interval(delta, "delta"):
        raise InvalidInputError(f"delta must be in (0, 1), got {delta!r}")
    return float_of(delta, "delta")


def log_inverse(delta: Any) -> float:
    """log(1/delta) as a float for the search over alpha, computed (mpmath, 30 digits) from the exact
    value of a checked delta, so that it is right where the float of delta is 0.0 (delta = 1e-400)
    or 1.0 (delta = 1 - 1e-20).  Not a guarantee: the certified path encloses delta itself.
    Plain str, float, int and Fraction inputs are remembered (the check and the 30-digit logarithm
    are repeated by every conversion of one request)."""
    if type(delta) in (str, float, int, Fraction):
        return _log_inverse_cached(type(delta), delta)
    return _log_inverse(delta)


@functools.lru_cache(maxsize=256)
def _log_inverse_cached(kind: type, delta: Any) -> float:
    # keyed by the type too: 1 (int) and 1.0 hash alike but are checked alike as well; "0.5" and 0.5 differ
    return _log_inverse(delta)


def _log_inverse(delta: Any) -> float:
    check_delta(delta)
    q = exact_value(delta, "delta")
    with mpmath.workdps(30):
        if q is not None and q > Fraction(1, 2):   # log1p of the exact 1 - delta keeps its digits
            c = 1 - q
            return float(-mpmath.log1p(-(mpmath.mpf(c.numerator) / c.denominator)))
        d = mpf_value(delta, "delta")
        return float(-mpmath.log1p(-(1 - d)) if d > 0.5 else -mpmath.log(d))


def enclose_log_inverse(delta: Any):
    """See :func:`_enclose_log_inverse`; plain str, float, int and Fraction inputs are remembered per
    arb precision (the ball is immutable)."""
    if type(delta) in (str, float, int, Fraction):
        import flint

        return _enclose_log_inverse_cached(type(delta), delta, flint.ctx.prec)
    return _enclose_log_inverse(delta)


@functools.lru_cache(maxsize=256)
def _enclose_log_inverse_cached(kind: type, delta: Any, prec: int):
    return _enclose_log_inverse(delta)


def _enclose_log_inverse(delta: Any):
    """An arb ball containing log(1/delta) for every value the input denotes (see :func:`enclose`),
    at the current arb precision.  For delta > 1/2 it is -log1p(-(1 - delta)) with 1 - delta taken
    exactly (an exact input) or as the hull of the complements (a float: its binary value and its
    decimal repr), so that delta = 1 - 10^-9990 gives a ball around 10^-9990 instead of one
    straddling 0 (1/delta enclosed at 200 bits would contain values above 1)."""
    from bcdp.core.intervals import ball_of

    q = exact_value(delta, "delta")
    if q is not None and q > Fraction(1, 2):
        return -(-ball_of(1 - q)).log1p()
    if isinstance(delta, float) and delta > 0.5:
        exact, dec = Fraction(delta), Fraction(repr(delta))
        return -(-hull(1 - exact, 1 - dec)).log1p()
    return (1 / enclose(delta, "delta")).log()


def mpf_value(x: Any, name: str = "value") -> mpmath.mpf:
    """A finite real input as an mpf at the current mpmath precision (exact inputs rounded once, a
    ball or interval by its midpoint, a float exactly); for search and starting values only."""
    check_real(x, name)
    q = exact_value(x, name)
    if q is not None:
        return mpmath.mpf(q.numerator) / q.denominator
    if is_ball(x):
        from bcdp.core.intervals import exact_mpf

        return +exact_mpf(x.mid())
    if is_iv_interval(x):
        return mpmath.mpf(x.mid)
    return mpmath.mpf(x)


#: Largest rho (and sigma^-2 scale) the float search handles; above it every eps is beyond 1e300.
MAX_SEARCH_VALUE = 1e300


def check_rho(rho: Any) -> float:
    """A zCDP parameter: finite, >= 0 (decided on the exact value of an exact input, so that
    ``"-1e-400"`` is refused and ``"1e-400"`` accepted); returned as the search float (0.0 for an
    exact rho below the float range).  An enclosure (arb ball, ``mpmath.iv`` interval) is refused only
    if it is certainly negative (it may reach below 0: rho >= 0 is what it admits); its search float is
    its midpoint's, at least 0.  rho above :data:`MAX_SEARCH_VALUE` is refused (a cap of the float
    search, not a validity rule)."""
    check_real(rho, "rho")
    q = exact_value(rho, "rho")
    if q is not None:
        if q < 0:
            raise InvalidInputError(f"rho must be a finite real >= 0, got {rho!r}")
        if q > MAX_SEARCH_VALUE:
            raise InvalidInputError(f"rho = {rho!r} is above the cap {MAX_SEARCH_VALUE:g} of the float search over "
                                    "alpha (every conversion's eps exceeds it)")
        return float_of(rho, "rho")
    r = float_of(rho, "rho")
    if not math.isfinite(r) or r < 0 and not is_interval(rho):
        raise InvalidInputError(f"rho must be a finite real >= 0, got {rho!r}")
    if is_interval(rho):                           # an enclosure is refused only if certainly negative
        from bcdp.core.intervals import arb_precision

        with arb_precision(CERT_PREC):
            if enclose(rho, "rho") < 0:            # certainly negative
                raise InvalidInputError(f"rho must be a finite real >= 0, got {rho!r}")
        return max(r, 0.0)                         # its midpoint may be negative: rho >= 0 is what it admits
    return r


def check_rounds(T: Any) -> int:
    """A number of rounds: an integer >= 1 (bool and floats rejected)."""
    if isinstance(T, bool) or not isinstance(T, Integral):
        raise InvalidInputError(f"T must be an integer >= 1, got {T!r}")
    if int(T) < 1:
        raise InvalidInputError(f"T must be an integer >= 1, got {T!r}")
    return int(T)


def check_choice(value: str, allowed: Sequence[str], what: str = "method") -> str:
    """``value`` must be one of ``allowed``."""
    if value not in allowed:
        raise InvalidInputError(f"unknown {what} {value!r}; choose one of {tuple(allowed)}")
    return value


__all__ = [
    "CERT_PREC", "DEFAULT_DPS", "MAX_SEARCH_VALUE", "ball_of_iv", "check_alpha", "check_choice", "check_delta",
    "check_rate", "check_rdp_value", "check_real", "check_rho", "check_rounds", "checked_mpf", "enclose",
    "enclose_log_inverse", "enclosure_upper", "exact_value", "float_base_and_orders", "float_of", "float_rate",
    "hull", "integer_order",
    "integer_orders", "is_ball", "is_interval", "is_iv_interval", "log_inverse", "log_over", "mpf_value", "to_mpf",
]
