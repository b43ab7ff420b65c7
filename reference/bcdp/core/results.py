"""The one result type for a certified quantity, certified comparisons, and strict JSON.

:class:`Certified` is what every certified computation of bcdp returns: ``lower <= true value <=
upper`` is proven (exact arithmetic, or interval arithmetic with outward rounding from
:mod:`bcdp.core.intervals`), never a float with an assumed margin.  It carries the exact value when
it is known, the witness attaining it (inputs, outputs, order...), the provenance (paper, section,
equation, method) and named details (e.g. the optimal Renyi order of a conversion); named details
are readable as attributes (``result.alpha_star``).

Certified decisions compare enclosures and answer True/False only when the enclosures decide:
:func:`decide_le` returns ``None`` ("undecided") when the two values are equal or closer than the
enclosures' widths, so a tie is never guessed.

:func:`jsonable` turns results, Fractions, mpf, sympy values and infinities into strict JSON values
(infinity as the string ``"inf"``, never a bare ``Infinity`` or ``NaN``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator, Mapping

from bcdp.core.numbers import INFINITY


@dataclass(frozen=True)
class Certified:
    """A certified quantity: ``lower <= value <= upper``, proven.

    ``lower``/``upper`` are exact numbers (int, Fraction), mpf or floats rounded outward, or
    :data:`~bcdp.core.numbers.INFINITY`; ``exact`` is the exact value when known (then ``lower``
    and ``upper`` enclose it); ``witness`` what attains it; ``provenance`` the paper, section,
    equation or method; ``details`` further named fields (also readable as attributes).
    Unpacks as ``lower, upper = result``.
    """

    lower: Any
    upper: Any
    exact: Any = None
    witness: Any = None
    provenance: str = ""
    details: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __getattr__(self, name: str) -> Any:
        # only called when normal lookup fails: named details read as attributes
        details = self.__dict__.get("details") or {}
        if name in details:
            return details[name]
        raise AttributeError(f"{type(self).__name__} has no field or detail {name!r}")

    def __iter__(self) -> Iterator[Any]:
        return iter((self.lower, self.upper))

    @property
    def is_infinite(self) -> bool:
        """True when the quantity is certified to be +infinity."""
        return self.lower == INFINITY

    @property
    def is_exact(self) -> bool:
        """True when the value is known exactly (``exact`` set, or a zero-width enclosure)."""
        return self.exact is not None or self.lower == self.upper

    @property
    def width(self) -> Any:
        """upper - lower (0 for an infinite value)."""
        if self.is_infinite:
            return 0
        return self.upper - self.lower

    def with_details(self, **extra: Any) -> Certified:
        """A copy with more named details."""
        return Certified(self.lower, self.upper, self.exact, self.witness, self.provenance,
                         {**self.details, **extra})

    def to_json(self) -> dict[str, Any]:
        """Strict-JSON form: lower, upper, exact, witness, provenance and the details."""
        out = {"lower": self.lower, "upper": self.upper, "exact": self.exact,
               "witness": self.witness, "provenance": self.provenance, **dict(self.details)}
        return jsonable(out)


def lower_of(x: Any) -> Any:
    """The certified lower end of ``x`` (a :class:`Certified` or an exact number)."""
    return x.lower if isinstance(x, Certified) else x


def upper_of(x: Any) -> Any:
    """The certified upper end of ``x`` (a :class:`Certified` or an exact number)."""
    return x.upper if isinstance(x, Certified) else x


def certainly_le(a: Any, b: Any) -> bool:
    """True only if a <= b is certain: upper(a) <= lower(b)."""
    return upper_of(a) <= lower_of(b)


def certainly_lt(a: Any, b: Any) -> bool:
    """True only if a < b is certain: upper(a) < lower(b)."""
    return upper_of(a) < lower_of(b)


def certainly_gt(a: Any, b: Any) -> bool:
    """True only if a > b is certain: lower(a) > upper(b)."""
    return lower_of(a) > upper_of(b)


def decide_le(a: Any, b: Any) -> bool | None:
    """Certified decision of a <= b: True, False, or None when the enclosures overlap (undecided).

    Exact equal values (both enclosures the same single point) decide True.
    """
    if certainly_le(a, b):
        return True
    if certainly_gt(a, b):
        return False
    return None


def jsonable(x: Any, nan: str | None = None) -> Any:
    """A strict-JSON value: infinities as ``"inf"``/``"-inf"``, Fractions and sympy values as
    strings, mpf values as strings of 40 significant digits (trailing zeros dropped), tuples and numpy arrays as lists, numpy
    scalars as Python numbers, results through their ``to_json``.  NaN is refused (ValueError), or
    written as the string ``nan`` when one is given (records of what a check saw, not results)."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return _nan(nan)
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, Certified):
        return x.to_json()
    if isinstance(x, Mapping):
        return {str(k): jsonable(v, nan) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v, nan) for v in x]
    if hasattr(x, "to_json"):
        return jsonable(x.to_json(), nan)
    module = type(x).__module__
    if module.startswith("numpy"):
        return jsonable(x.tolist(), nan)               # scalars (and 0-d arrays) give a number
    if module.startswith("mpmath"):
        import mpmath

        if mpmath.isinf(x):
            return "inf" if x > 0 else "-inf"
        if mpmath.isnan(x):
            return _nan(nan)
        return mpmath.nstr(x, 40)
    return str(x)


def _nan(text: str | None) -> str:
    if text is None:
        raise ValueError("NaN is not a valid result")
    return text


__all__ = ["Certified", "certainly_gt", "certainly_le", "certainly_lt", "decide_le", "jsonable",
           "lower_of", "upper_of"]
