"""The number-input policy of the BCDP package's exact functions, on top of :mod:`bcdp.core.numbers`.

Exact functions of :mod:`bcdp.bayesian` (allocation, optimal allocation, Prop. 4 / Prop. 6,
Corollary 1, the hypothesis-testing criterion, the high-precision twins...) read every number
through :func:`rational` or :func:`exact_expr`:

* ints, Fractions, sympy Rationals, ``decimal.Decimal`` and strings such as ``"1/3"`` or
  ``"0.2"`` go through :func:`bcdp.core.numbers.to_fraction` (exact; floats refused with
  :class:`~bcdp.core.errors.FloatRefusedError`, booleans with
  :class:`~bcdp.core.errors.WrongTypeError`);
* :func:`exact_expr` also accepts a sympy expression that is exact -- a closed form such as
  ``log(3)/2`` or ``oo``, or a symbol for symbolic derivations -- and refuses one containing a
  sympy ``Float`` (a float in disguise).

The float twins (functions named ``*_float``, the samplers of :mod:`bcdp.bayesian.mechanisms` and
the :mod:`bcdp.bayesian.fast` path) read their numbers through
:func:`bcdp.core.numbers.to_float_input` instead; :func:`float_vector` applies it entry-wise.

sympy is imported only when a sympy result is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_float_input, to_fraction

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    import sympy


def _is_sympy(value: Any) -> bool:
    return type(value).__module__.startswith("sympy")


def rational(value: Any, name: str = "value") -> sympy.Rational:
    """``value`` as an exact sympy Rational (through :func:`~bcdp.core.numbers.to_fraction`)."""
    import sympy

    f = to_fraction(value, name)
    return sympy.Rational(f.numerator, f.denominator)


def exact_expr(value: Any, name: str = "value") -> sympy.Expr:
    """An exact sympy value: a float-free sympy expression as it is, anything else through
    :func:`rational` (so floats are refused and ``"0.1"`` is the rational 1/10)."""
    if _is_sympy(value):
        import sympy

        if not isinstance(value, sympy.Basic):
            raise WrongTypeError(f"{name}: {type(value).__name__} is not a sympy expression")
        if value.has(sympy.Float):
            raise FloatRefusedError(f"{name}: {value} contains a sympy Float; exact functions need "
                                    "rationals or closed forms (pass '0.1' or Rational(1, 10))")
        return value
    return rational(value, name)


def float_vector(values: Any, name: str) -> np.ndarray:
    """A 1-D float64 array from a sequence of numbers, entry by entry through
    :func:`~bcdp.core.numbers.to_float_input` (the float-twin policy: bools and NaN refused)."""
    import numpy as np

    if isinstance(values, (str, bytes)):
        raise InvalidInputError(f"{name} must be a sequence of numbers, got a string")
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise InvalidInputError(f"{name} must be one-dimensional, got shape {values.shape}")
        if values.dtype.kind == "b":
            raise WrongTypeError(f"{name}: booleans are not numbers here")
        if values.dtype.kind in "fiu":  # numeric arrays: one vectorised conversion
            out = values.astype(np.float64)
            if np.isnan(out).any():
                raise InvalidInputError(f"{name}[{int(np.argmax(np.isnan(out)))}]: NaN is not a number here")
            return out
    elif not isinstance(values, Sequence):
        raise WrongTypeError(f"{name} must be a sequence of numbers, got {type(values).__name__}")
    return np.array([to_float_input(v, f"{name}[{i}]", allow_inf=True) for i, v in enumerate(values)],
                    dtype=np.float64)


__all__ = ["exact_expr", "float_vector", "rational"]
