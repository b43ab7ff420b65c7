"""Precise log-ratios and exact binary exponents for the float64 fast path.

Ratios are never formed as ``log(a) - log(b)`` when ``a/b`` is close to one (that would lose all
relative precision of a small epsilon).  :func:`log_ratio_fe` writes ``a = fa 2**ea``,
``b = fb 2**eb`` (exact ``frexp``) and returns ``log1p((fa 2**(ea-eb) - fb) / fb)`` when
``|ea - eb| <= 1`` (the difference is exact by Sterbenz's lemma when ``a ~ b``) and
``log(fa/fb) + (ea-eb) log 2`` otherwise (then the value is >= log 2 and the relative error is a
few ulps).  This is float64 code written for numpy arrays (vectorised over whole kernels); the
mpmath-based directed rounding of :mod:`bcdp.core.intervals` would be orders of magnitude slower
here and is not needed: the fast path is an approximation, tested against the exact engine.
"""

from __future__ import annotations

import math
import sys

import numpy as np

LN2 = math.log(2.0)
#: Smallest positive normal float64; quotients below it have lost relative precision.
TINY = np.finfo(np.float64).tiny
#: Exponent standing for "zero entry" (below every float64 exponent).
NEG = -(1 << 20)


def log_ratio_fe(fa, ea, fb, eb) -> np.ndarray:
    """log((fa 2**ea) / (fb 2**eb)) for positive mantissas, with full relative precision.

    ``|ea - eb| <= 1``: ``log1p((fa 2**(ea-eb) - fb) / fb)`` (the shift is exact, the difference
    exact when the two numbers are close); otherwise ``log(fa/fb) + (ea - eb) log 2`` whose
    magnitude is >= log 2, so a few-ulp error in each term stays a few-ulp relative error.
    """
    fa = np.asarray(fa, dtype=np.float64)
    fb = np.asarray(fb, dtype=np.float64)
    d = np.asarray(ea, dtype=np.int64) - np.asarray(eb, dtype=np.int64)
    near = np.abs(d) <= 1
    with np.errstate(all="ignore"):
        a = np.ldexp(fa, np.where(near, d, 0).astype(np.int32))
        v_near = np.log1p((a - fb) / fb)
        v_far = np.log(fa / fb) + d * LN2
    return np.where(near, v_near, v_far)


def log_ratio(a, b) -> np.ndarray:
    """log(a / b) for positive floats a, b (precise; no overflow or underflow)."""
    fa, ea = np.frexp(np.asarray(a, dtype=np.float64))
    fb, eb = np.frexp(np.asarray(b, dtype=np.float64))
    return log_ratio_fe(fa, ea, fb, eb)


def columnwise_max_ratio(X: np.ndarray) -> tuple[float, int, int, int] | None:
    """max over columns c and rows j, j' of log X[j, c] / X[j', c] (0/0 skipped).

    Returns ``(value, j_num, j_den, c)`` (first column attaining the maximum, first rows attaining
    the column max / min), or None when every column is all-zero.
    """
    hi = X.max(axis=0)
    lo = X.min(axis=0)
    active = hi > 0
    if not active.any():
        return None
    inf_cols = active & (lo == 0)
    if inf_cols.any():
        c = int(np.argmax(inf_cols))
        value = math.inf
    else:
        vals = np.full(hi.shape, -np.inf)
        vals[active] = log_ratio(hi[active], lo[active])
        c = int(np.argmax(vals))
        value = float(vals[c])
    col = X[:, c]
    return value, int(np.argmax(col)), int(np.argmin(col)), c


def biased_exponents(x: np.ndarray) -> np.ndarray:
    """The 11-bit biased exponent field of non-negative float64 entries (int32; 0 for zeros and
    subnormals).  Reads the high 32-bit word in place: one pass, no frexp."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    if sys.byteorder == "little":
        high = x.view(np.int32)[..., 1::2]
    else:  # pragma: no cover
        high = x.view(np.int32)[..., 0::2]
    return high >> 20


def group_exponents(p: np.ndarray, dims: tuple[int, ...], i: int) -> np.ndarray:
    """Largest binary exponent (frexp convention) of the positive prior entries of each value of
    coordinate i (``NEG`` for a value without prior mass)."""
    _, e = np.frexp(p)
    e = np.where(p > 0, e, NEG).astype(np.int64)
    A, n, B = math.prod(dims[:i]), dims[i], math.prod(dims[i + 1:])
    return e.reshape(A, n, B).max(axis=(0, 2))


def first_index(mask: np.ndarray) -> int:
    return int(np.argmax(mask.ravel()))

