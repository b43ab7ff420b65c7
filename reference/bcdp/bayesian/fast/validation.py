"""Inputs and results of the float64 fast path: validation of kernels, priors, shapes and laws.

BCDP paper, Sec. 2 (a mechanism is a Markov kernel on a finite product domain, a prior a pmf on
it).  The fast path follows the number-input policy of :mod:`bcdp.core.numbers` for float twins:
array entries are read as float64 (numeric arrays directly; lists of Fractions, ints or numeric
strings entry by entry through :func:`~bcdp.core.numbers.to_float_input`), booleans are refused,
and scalar tolerances go through :func:`~bcdp.core.numbers.to_float_input`.  Every error is an
:class:`~bcdp.core.errors.InvalidInputError` (a ``ValueError``) naming the offending entry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_float_input


@dataclass(frozen=True)
class FastParameter:
    """A float privacy parameter (natural log; ``math.inf`` allowed, never NaN) and its witness."""

    value: float
    witness: dict | None

    @property
    def is_infinite(self) -> bool:
        return self.value == math.inf


def tolerance(value: Any, name: str = "atol") -> float:
    """A finite, non-negative float tolerance (the float-twin input policy)."""
    tol = to_float_input(value, name)
    if tol < 0:
        raise InvalidInputError(f"{name} must be non-negative, got {value!r}")
    return tol


def as_float_array(obj: Any, what: str) -> np.ndarray:
    """``obj`` as a float64 array: numeric arrays are converted directly (no copy for float64);
    object or string entries (Fractions, numeric strings...) one by one through
    :func:`~bcdp.core.numbers.to_float_input`; booleans and complex numbers are refused."""
    if isinstance(obj, np.ndarray) and obj.dtype == np.float64:
        return obj
    try:
        arr = np.asarray(obj)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} is not a numeric array: {exc}") from exc
    kind = arr.dtype.kind
    if kind in "fiu":
        return arr.astype(np.float64, copy=False)
    if kind == "b":
        raise WrongTypeError(f"{what}: booleans are not probabilities here")
    if kind in "OUS":
        out = np.empty(arr.shape, dtype=np.float64)
        for idx in np.ndindex(arr.shape):
            out[idx] = to_float_input(arr[idx], f"{what} entry {list(idx)}", allow_inf=True)
        return out
    raise WrongTypeError(f"{what} must hold real numbers, got dtype {arr.dtype}")


def drop_negative_zeros(arr: np.ndarray) -> np.ndarray:
    # -0.0 passes ">= 0" but 1/-0.0 = -inf; replace by +0.0 (copy only when some -0.0 exists).
    if (arr.view(np.int64) == np.iinfo(np.int64).min).any():
        arr = arr + 0.0
    return arr


def validate_kernel(kernel: Any, atol: float = 1e-9) -> np.ndarray:
    """Return ``kernel`` as a 2-D float64 array after checking it is a Markov kernel.

    Raises :class:`~bcdp.core.errors.InvalidInputError` (a ValueError) naming the first offending entry (non-finite, then negative) or row (sum
    not within ``atol`` of one).  No copy is made for a valid C-contiguous float64 input.
    """
    atol = tolerance(atol)
    K = as_float_array(kernel, "kernel")
    if K.ndim != 2:
        raise InvalidInputError(f"kernel must be a 2-D array (inputs x outputs), got shape {K.shape}")
    if K.shape[0] == 0 or K.shape[1] == 0:
        raise InvalidInputError(f"kernel must have at least one input and one output, got shape {K.shape}")
    sums = K.sum(axis=1)
    lowest = K.min()
    if not (np.all(np.abs(sums - 1.0) <= atol) and lowest >= 0):
        bad = ~np.isfinite(K)
        if bad.any():
            r, c = (int(t) for t in np.argwhere(bad)[0])
            raise InvalidInputError(f"kernel entry [{r}, {c}] is not finite ({float(K[r, c])!r})")
        neg = K < 0
        if neg.any():
            r, c = (int(t) for t in np.argwhere(neg)[0])
            raise InvalidInputError(f"kernel entry [{r}, {c}] is negative ({float(K[r, c])!r})")
        r = int(np.argmax(~(np.abs(sums - 1.0) <= atol)))
        raise InvalidInputError(f"kernel row {r} sums to {float(sums[r])!r}, not 1 (atol={atol})")
    K = np.ascontiguousarray(K)
    if lowest == 0:
        K = drop_negative_zeros(K)
    return K


def validate_prior(prior: Any, n_inputs: int, atol: float = 1e-9) -> np.ndarray:
    """Return ``prior`` as a 1-D float64 pmf of length ``n_inputs`` (InvalidInputError otherwise)."""
    atol = tolerance(atol)
    p = as_float_array(prior, "prior")
    if p.ndim != 1:
        raise InvalidInputError(f"prior must be a 1-D array, got shape {p.shape}")
    if p.shape[0] != n_inputs:
        raise InvalidInputError(f"prior has {p.shape[0]} entries but the kernel has {n_inputs} rows "
                         "(inputs)")
    bad = ~np.isfinite(p)
    if bad.any():
        k = int(np.argmax(bad))
        raise InvalidInputError(f"prior entry {k} is not finite ({float(p[k])!r})")
    if (p < 0).any():
        k = int(np.argmax(p < 0))
        raise InvalidInputError(f"prior entry {k} is negative ({float(p[k])!r})")
    total = p.sum()
    if not abs(total - 1.0) <= atol:
        raise InvalidInputError(f"prior sums to {float(total)!r}, not 1 (atol={atol})")
    return drop_negative_zeros(np.ascontiguousarray(p))


def validate_shape(shape: Any, n_inputs: int) -> tuple[int, ...]:
    """Coordinate sizes ``(|X_1|, ..., |X_d|)``, each >= 1, with product ``n_inputs``."""
    try:
        entries = list(shape)
    except TypeError as exc:
        raise InvalidInputError(f"shape must be a sequence of coordinate sizes, got {shape!r}") from exc
    if isinstance(shape, (str, bytes)) or any(isinstance(s, bool) for s in entries):
        raise InvalidInputError(f"shape must be a sequence of integer coordinate sizes, got {shape!r}")
    try:
        dims = tuple(int(s) for s in entries)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"shape must be a sequence of coordinate sizes, got {shape!r}") from exc
    if any(int(s) != s for s in entries):
        raise InvalidInputError(f"shape entries must be integers, got {shape!r}")
    if not dims:
        raise InvalidInputError("shape must list at least one coordinate size")
    if any(s < 1 for s in dims):
        raise InvalidInputError(f"every coordinate needs at least one value, got shape {dims}")
    if math.prod(dims) != n_inputs:
        raise InvalidInputError(f"shape {dims} describes {math.prod(dims)} inputs but there are "
                         f"{n_inputs} (kernel rows / prior entries)")
    return dims


def validate_law(law: Any, what: str, atol: float) -> np.ndarray:
    atol = tolerance(atol)
    p = as_float_array(law, what)
    if p.ndim != 1 or p.size == 0:
        raise InvalidInputError(f"{what} must be a non-empty 1-D array, got shape {p.shape}")
    bad = ~np.isfinite(p)
    if bad.any():
        k = int(np.argmax(bad))
        raise InvalidInputError(f"{what} entry {k} is not finite ({float(p[k])!r})")
    if (p < 0).any():
        k = int(np.argmax(p < 0))
        raise InvalidInputError(f"{what} entry {k} is negative ({float(p[k])!r})")
    total = p.sum()
    if not abs(total - 1.0) <= atol:
        raise InvalidInputError(f"{what} sums to {float(total)!r}, not 1 (atol={atol})")
    return drop_negative_zeros(np.ascontiguousarray(p))
