"""Exact scalars: coercion to :class:`fractions.Fraction`, refusing floats.

Every exact function of :mod:`bcdp` funnels its numeric inputs through :func:`to_fraction`.
Accepted: ``int``, ``Fraction``, sympy ``Rational``, ``decimal.Decimal`` and strings such as
``"1/3"``, ``"0.2"`` or ``"1e-300"`` (read as the exact decimal they spell). Refused: ``float``
(a binary float such as ``0.1`` is not the rational the user meant), ``bool``, NaN and infinities.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import sympy

from bcdp.core.errors import FloatRefusedError

#: Sentinel for an infinite privacy parameter (a ratio with zero denominator, non-zero numerator).
INFINITY = math.inf


def to_fraction(value: Any, name: str = "value") -> Fraction:
    """Return ``value`` as an exact Fraction, refusing floats and non-finite values."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: booleans are not numbers here (got {value!r})")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        raise FloatRefusedError(
            f"{name}: floats are refused by exact functions (got {value!r}); "
            "pass a Fraction, an int, a sympy Rational or a string such as '1/3' or '0.1'"
        )
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{name}: non-finite value {value!r}")
        return Fraction(value)
    if isinstance(value, sympy.Basic):
        if isinstance(value, sympy.Rational):
            return Fraction(int(value.p), int(value.q))
        raise TypeError(f"{name}: sympy value {value} is not a rational number")
    if isinstance(value, str):
        text = value.strip()
        try:
            if "/" in text:
                num, den = text.split("/", 1)
                return Fraction(int(num.strip()), int(den.strip()))
            dec = Decimal(text)
        except (ValueError, InvalidOperation, ZeroDivisionError) as exc:
            raise ValueError(f"{name}: cannot read {value!r} as an exact rational") from exc
        if not dec.is_finite():
            raise ValueError(f"{name}: non-finite value {value!r}")
        return Fraction(dec)
    raise TypeError(f"{name}: cannot use {type(value).__name__} {value!r} as an exact rational")


def to_probability(value: Any, name: str = "probability") -> Fraction:
    """Exact probability in [0, 1]."""
    p = to_fraction(value, name)
    if p < 0 or p > 1:
        raise ValueError(f"{name}: {p} is not a probability in [0, 1]")
    return p


def log_of_ratio(ratio: Fraction | float) -> sympy.Expr:
    """sympy value of ``log(ratio)``; ``oo`` for the infinite sentinel."""
    if ratio == INFINITY:
        return sympy.oo
    return sympy.log(sympy.Rational(ratio.numerator, ratio.denominator))


def ratio_to_float_log(ratio: Fraction | float) -> float:
    """float64 ``log(ratio)`` of an exact ratio, accurate to about one ulp.

    Evaluated with mpmath at 40 digits, as log1p of the exact excess r - 1 near 1 (``log(p) -
    log(q)`` in float64 would lose ~1e-13 when p and q are huge and the ratio is near 1).
    """
    if ratio == INFINITY:
        return math.inf
    r = Fraction(ratio)
    if r <= 0:
        raise ValueError(f"log of non-positive ratio {r}")
    import mpmath

    with mpmath.workdps(40):
        excess = r - 1
        if abs(excess) < Fraction(1, 2):  # log1p of the exact excess keeps relative precision
            return float(mpmath.log1p(mpmath.mpf(excess.numerator) / excess.denominator))
        return float(mpmath.log(mpmath.mpf(r.numerator) / r.denominator))
