"""Certified functions of float inputs: argument checks, the one-ulp-outward float enclosure of an arb
ball, and the :class:`~bcdp.core.results.Certified` results, shared by the amplification closed
forms (:mod:`bcdp.accounting.amplification`) and the thesis Chapter 5 baselines
(:mod:`bcdp.shuffle.clones`, :mod:`bcdp.shuffle.composition`).

Input policy of the baselines.  They are *certified functions of float inputs*: eps0, eps, delta
are Python floats (or ints) and the result encloses the exact value of the quantity **at the exact
binary value of those floats** (the FMT21 and KOV15 formulas are evaluated in arb ball arithmetic
-- python-flint, :mod:`bcdp.core.intervals` -- or outward-rounded float64 arithmetic from there).  Strings and Fractions are not taken; this is the
documented float exception of these accountants (the figures of thesis Sec. 5.5 are float
experiments, and the certified bracket is about the float that is printed).

Results: an enclosure ``lower <= delta <= upper`` of a privacy-profile value (formerly
``DeltaEnclosure``) and an epsilon bracket (formerly ``EpsilonBracket``) are both
:class:`~bcdp.core.results.Certified`; the bracket's named extras (``delta``, ``delta_at_upper``,
``delta_at_lower``, ``method``, ``note`` and the search details) are in ``details`` and readable as
attributes.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.intervals import ball_of, exact_fraction, float_down, float_up
from bcdp.core.results import Certified

#: Bits of the arb ball enclosures of constants and closed forms (the name is historical: it was
#: the precision of the former ``mpmath.iv`` enclosures).
IV_PREC = 160


def _toward_zero(q: Any) -> float:
    """An exact rational rounded toward zero to a float (the rounding mpmath's ``float()`` applies to
    a 160-bit ``mpmath.iv`` endpoint, which the baselines were certified with)."""
    return float_down(q) if q >= 0 else float_up(q)


def exact_ends(x: Any) -> tuple[Any, Any]:
    """The exact ends mid - rad, mid + rad of a finite ball, as Fractions, whatever the current arb
    precision (:func:`bcdp.core.intervals.ball_lower` / ``ball_upper`` round the ends outward to the
    precision in force when they are called, 53 bits outside an ``arb_precision`` block)."""
    mid, rad = exact_fraction(x.mid()), exact_fraction(x.rad())
    return mid - rad, mid + rad


def outward_by_one_ulp(x: Any) -> tuple[float, float]:
    """(lo, hi) floats around an arb ball: its exact ends rounded toward zero to floats, each then
    moved one ulp outward ((-inf, inf) for a non-finite ball).

    A valid enclosure: an end rounded toward zero is less than one ulp from it, so one ulp outward
    is beyond it.  It is often one ulp wider than :func:`bcdp.core.intervals.outward_floats` (which
    rounds each end directly to the enclosing float); it is kept because the published baseline
    columns of tables/shuffle_* were certified with it, as ``nextafter(float(end))`` of
    ``mpmath.iv`` endpoints, whose ``float()`` truncates toward zero (the tighter rounding would move
    some certified brackets by an ulp and change those golden tables)."""
    if not x.is_finite():
        return -math.inf, math.inf
    lo, hi = exact_ends(x)
    return math.nextafter(_toward_zero(lo), -math.inf), math.nextafter(_toward_zero(hi), math.inf)


def upper_float(x: Any) -> float:
    """The upper end of a ball rounded toward zero to a float (for messages only; not a bound)."""
    return _toward_zero(exact_ends(x)[1]) if x.is_finite() else math.inf


def zero_to_upper(x: Any) -> Any:
    """A ball containing [0, upper end of x] (for a ball x whose points that matter are >= 0), at the
    current arb precision."""
    return ball_of(0).union(ball_of(exact_ends(x)[1]))


def _real(name: str, value: Any) -> float:
    numpy_real = type(value).__module__.startswith("numpy") and isinstance(value, Real)
    if isinstance(value, bool) or not (isinstance(value, (int, float)) or numpy_real):
        raise WrongTypeError(f"{name} must be a real number (float or int), got {type(value).__name__}")
    return float(value)


def check_prob(name: str, value: float, *, allow_zero: bool = False) -> float:
    """A probability in (0, 1) (or [0, 1) with ``allow_zero``), as a float."""
    value = _real(name, value)
    lo_ok = value >= 0 if allow_zero else value > 0
    if not (math.isfinite(value) and lo_ok and value < 1):
        raise InvalidInputError(f"{name} must be in {'[0, 1)' if allow_zero else '(0, 1)'}, got {value!r}")
    return value


def check_nonneg(name: str, value: float) -> float:
    """A finite real >= 0, as a float."""
    value = _real(name, value)
    if not (math.isfinite(value) and value >= 0):
        raise InvalidInputError(f"{name} must be a finite number >= 0, got {value!r}")
    return value


def check_count(name: str, value: int, minimum: int = 1) -> int:
    """An integer >= ``minimum`` (an integral float is accepted)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise WrongTypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise InvalidInputError(f"{name} must be >= {minimum}, got {value}")
    return value


def delta_enclosure(lower: float, upper: float, provenance: str) -> Certified:
    """Certified ``lower <= delta <= upper`` of an exact privacy-profile value."""
    return Certified(lower=lower, upper=upper, provenance=provenance)


def epsilon_bracket(lower: float, upper: float, delta: float, delta_at_upper: float, delta_at_lower: float,
                    method: str, note: str = "", details: dict | None = None) -> Certified:
    """Smallest eps with ``delta(eps) <= delta`` for an exact privacy profile, bracketed.

    ``upper`` is certified: ``delta(upper) <= delta_at_upper <= delta``, so (upper, delta) is a
    valid guarantee.  ``lower`` is certified as a lower end: ``delta(lower) >= delta_at_lower >
    delta``, so the exact smallest eps is in ``(lower, upper]``; when ``lower == 0`` the lower end
    is trivial and ``delta_at_lower`` is just the certified lower bound on ``delta(0)``
    (``lower == upper == 0`` when eps = 0 already satisfies the target).  Unpacks as
    ``lower, upper = bracket``.  An infeasible target gives ``lower = upper = inf`` with the reason
    in ``note``.
    """
    extras = {"delta": delta, "delta_at_upper": delta_at_upper, "delta_at_lower": delta_at_lower,
              "method": method, "note": note, **(details or {})}
    return Certified(lower=lower, upper=upper, provenance=method, details=extras)


__all__ = ["IV_PREC", "check_count", "check_nonneg", "check_prob", "delta_enclosure", "epsilon_bracket",
           "exact_ends", "outward_by_one_ulp", "upper_float", "zero_to_upper"]
