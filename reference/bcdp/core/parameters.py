"""Exact privacy-parameter values with witnesses, and their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import sympy

from bcdp.core.numbers import INFINITY, log_of_ratio, ratio_to_float_log


@dataclass(frozen=True)
class LogRatioParameter:
    """A parameter of the form log(ratio): eps = log(sup P(R|A) / P(R|B)).

    ``ratio`` is an exact Fraction >= 1, or :data:`bcdp.core.numbers.INFINITY` when some event has
    positive probability under one hypothesis and zero under the other.  ``witness`` names the
    inputs/sets/outputs attaining the supremum (``None`` only when no constraint exists at all).
    """

    ratio: Fraction | float
    witness: dict | None = field(default=None, compare=False)

    @property
    def is_infinite(self) -> bool:
        return self.ratio == INFINITY

    @property
    def exact(self) -> sympy.Expr:
        return log_of_ratio(self.ratio)

    @property
    def float(self) -> float:
        return ratio_to_float_log(self.ratio)

    def to_json(self) -> dict[str, Any]:
        return {"exact": str(self.exact), "float": "inf" if self.is_infinite else self.float,
                "witness": self.witness}


@dataclass(frozen=True)
class ProbabilityParameter:
    """A parameter that is itself an exact rational in [0, 1] (the dependence q_i of eq. (13))."""

    value: Fraction
    witness: dict | None = field(default=None, compare=False)

    @property
    def is_infinite(self) -> bool:
        return False

    @property
    def exact(self) -> sympy.Expr:
        import sympy

        return sympy.Rational(self.value.numerator, self.value.denominator)

    @property
    def float(self) -> float:
        return float(self.value)

    def to_json(self) -> dict[str, Any]:
        return {"exact": str(self.exact), "float": self.float, "witness": self.witness}


def ratio_at_most(a: LogRatioParameter | Fraction | float, b: LogRatioParameter | Fraction | float) -> bool:
    """Exact ``log a <= log b`` for ratios (infinite allowed)."""
    ra = a.ratio if isinstance(a, LogRatioParameter) else a
    rb = b.ratio if isinstance(b, LogRatioParameter) else b
    if rb == INFINITY:
        return True
    if ra == INFINITY:
        return False
    return Fraction(ra) <= Fraction(rb)


def product_of_ratios(params: list[LogRatioParameter]) -> Fraction | float:
    """exp(sum of the log parameters), exactly (infinite if any is)."""
    out: Fraction | float = Fraction(1)
    for p in params:
        if p.is_infinite:
            return INFINITY
        out = out * p.ratio
    return out
