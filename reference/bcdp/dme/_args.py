"""Shared argument checks of bcdp.dme: integer counts with a minimum and the privacy level E = e^eps0 > 1.

One copy for :mod:`bcdp.dme.hadamard` and :mod:`bcdp.dme.lower_bounds` (they had each written
their own).  Bools and floats are refused with :class:`~bcdp.core.errors.WrongTypeError` /
:class:`~bcdp.core.errors.FloatRefusedError`, bad values with a one-line
:class:`~bcdp.core.errors.InvalidInputError`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_fraction


def check_int(value: Any, name: str, minimum: int) -> int:
    """An int (numpy integers accepted, bools refused) >= ``minimum``, returned as a plain int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise WrongTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if int(value) < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {int(value)}")
    return int(value)


def check_E(E: Any) -> Fraction:
    """E = e^{eps0} as an exact rational > 1 (eps0 > 0; thesis Alg 3.4.1, Thm 7.3.1)."""
    e = to_fraction(E, "E")
    if e <= 1:
        raise InvalidInputError(f"E = e^eps0 must be > 1 (eps0 > 0), got {e}")
    return e
