"""float64 LDP (Def. 1), BDP (Def. 2) and coordinate DP (Def. 3) of a kernel (numpy, vectorised).

BCDP paper, Definitions 1-3, with the finite reductions of :mod:`bcdp.bayesian.notions`: each
supremum is a per-output-column ``max / min`` of kernel entries (0/0 skipped, positive/0 infinite).

Accuracy: the extreme ratio is selected with cheap linear-space quotients and its value is
recomputed precisely at the selected entries (:func:`bcdp.bayesian.fast.log_ratios.log_ratio`).  A
quotient that underflows to a subnormal (ratio > 2**1022) or overflows would rank candidates
badly, so those candidates are re-ranked with exact exponents.  A near-tie (float quotients equal
within 1 ulp) can pick an entry whose value is ~1e-16 below the true maximum; the witness always
attains the reported value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from bcdp.bayesian.fast.log_ratios import (
    TINY,
    columnwise_max_ratio,
    first_index,
    log_ratio,
)
from bcdp.bayesian.fast.validation import (
    FastParameter,
    validate_kernel,
    validate_prior,
    validate_shape,
)


def ldp_epsilon_fast(kernel: Any, atol: float = 1e-9) -> FastParameter:
    """Definition 1: ``max_y log(max_x K[x, y] / min_x K[x, y])``.

    Witness ``{"x": row, "x_prime": row, "output": col}`` with ``K[x, y] / K[x_prime, y]`` the
    reported ratio (``x`` the numerator).
    """
    K = validate_kernel(kernel, atol)
    res = columnwise_max_ratio(K)
    assert res is not None  # rows sum to one, so some column is non-zero
    value, a, b, c = res
    return FastParameter(value, {"x": a, "x_prime": b, "output": c})


def bdp_epsilon_fast(kernel: Any, prior: Any, atol: float = 1e-9) -> FastParameter:
    """Definition 2: the LDP epsilon of the kernel restricted to the rows with ``prior > 0``.

    Witness ``{"x", "x_prime", "output"}`` as for LDP (row indices of the full kernel).
    """
    K = validate_kernel(kernel, atol)
    p = validate_prior(prior, K.shape[0], atol)
    support = np.flatnonzero(p > 0)
    sub = K if support.size == K.shape[0] else K[support]
    res = columnwise_max_ratio(sub)
    if res is None:  # pragma: no cover - impossible for a valid prior and kernel
        return FastParameter(0.0, None)
    value, a, b, c = res
    return FastParameter(value, {"x": int(support[a]), "x_prime": int(support[b]), "output": c})


def _cdp_binary(a: np.ndarray, b: np.ndarray, buf: np.ndarray) -> tuple[float, int, bool] | None:
    """Max over entries of |log a/b| for two equally shaped blocks (0/0 skipped).

    One division into ``buf`` and a few reductions; only the extreme quotients (and, if an
    extreme quotient overflowed or underflowed, all such candidates) are re-evaluated precisely.
    Returns ``(value, flat_index, a_is_numerator)`` or None if every entry is 0/0.
    """
    with np.errstate(all="ignore"):
        r = np.divide(a, b, out=buf[:a.size].reshape(a.shape))
    rf = r.reshape(-1)
    top = rf.max()
    has_nan = bool(np.isnan(top))  # some 0/0 entries: ignore them
    vmax = np.fmax.reduce(rf) if has_nan else top
    if np.isnan(vmax):
        return None

    def take(block: np.ndarray, idx):
        return block[np.unravel_index(idx, block.shape)]

    # side 1: a / b largest (an infinite quotient is a true infinity or an overflow)
    p = first_index(rf == vmax) if has_nan else int(rf.argmax())
    if vmax == np.inf:
        if take(b, p) == 0:
            return math.inf, p, True
        cands = np.flatnonzero(np.isposinf(rf))
        den = take(b, cands)
        zero = den == 0
        if zero.any():
            return math.inf, int(cands[np.argmax(zero)]), True
        vals = log_ratio(take(a, cands), den)
        p, v1 = int(cands[np.argmax(vals)]), float(vals.max())
    else:
        v1 = float(log_ratio(take(a, p), take(b, p)))
    # side 2: b / a largest (a quotient below TINY is a true zero, an underflow or imprecise)
    vmin = np.fmin.reduce(rf) if has_nan else rf.min()
    q = first_index(rf == vmin) if has_nan else int(rf.argmin())
    if vmin < TINY:
        if take(a, q) == 0:
            return math.inf, q, False
        cands = np.flatnonzero(rf < TINY)
        den = take(a, cands)
        zero = den == 0
        if zero.any():
            return math.inf, int(cands[np.argmax(zero)]), False
        vals = log_ratio(take(b, cands), den)
        q, v2 = int(cands[np.argmax(vals)]), float(vals.max())
    else:
        v2 = float(log_ratio(take(b, q), take(a, q)))
    if v1 >= v2:
        return v1, p, True
    return v2, q, False


def _cdp_general(X: np.ndarray) -> tuple[float, int, int, int] | None:
    """X of shape (A, n, C): max over (a, c) of log max_j X[a,j,c] / min_j X[a,j,c] (0/0 skipped).

    Returns ``(value, k, j_num, j_den)`` with ``k = a * C + c`` the flat index of the group and
    column, or None if every group is all-zero.
    """
    hi = X.max(axis=1)
    lo = X.min(axis=1)
    with np.errstate(all="ignore"):
        u = np.divide(lo, hi, out=lo)  # lo / hi in [0, 1]; NaN for 0/0 (skipped)
    uf = u.reshape(-1)
    low = uf.min()
    if np.isnan(low):
        low = np.fmin.reduce(uf)
        if np.isnan(low):
            return None
        k = first_index(uf == low)
    else:
        k = int(uf.argmin())
    C = X.shape[2]
    if low < TINY and X[k // C, :, k % C].min() > 0:
        # no infinity at k: a subnormal or underflowed quotient; re-rank all such candidates
        cands = np.flatnonzero(uf < TINY)
        cols = X[cands // C, :, cands % C]  # (n_cands, n)
        chi, clo = cols.max(axis=1), cols.min(axis=1)
        zero = clo == 0
        if zero.any():
            k = int(cands[np.argmax(zero)])
        else:
            k = int(cands[np.argmax(log_ratio(chi, clo))])
    a, c = divmod(k, C)
    col = X[a, :, c]
    jn, jd = int(np.argmax(col)), int(np.argmin(col))
    value = math.inf if col[jd] == 0 else float(log_ratio(col[jn], col[jd]))
    return value, k, jn, jd


def cdp_vector_fast(kernel: Any, shape: Sequence[int], atol: float = 1e-9) -> list[FastParameter]:
    """Definition 3: for each coordinate i, the max over inputs x, x' with ``x_-i = x'_-i`` and
    outputs y of ``log K[x, y] / K[x', y]``.

    Witness ``{"x": row, "x_prime": row, "output": col}``.  A coordinate with a single value has
    value 0 (witness: row 0 with itself, at its first positive output).
    """
    K = validate_kernel(kernel, atol)
    N, m = K.shape
    dims = validate_shape(shape, N)
    out: list[FastParameter] = []
    buf = np.empty(N * m // 2) if 2 in dims else None
    for i, n in enumerate(dims):
        A = math.prod(dims[:i])
        B = math.prod(dims[i + 1:])
        X = K.reshape(A, n, B * m)
        if n == 1:
            out.append(FastParameter(0.0, {"x": 0, "x_prime": 0,
                                           "output": int(np.argmax(K[0] > 0))}))
            continue
        if n == 2:
            res = _cdp_binary(X[:, 0, :], X[:, 1, :], buf)
            if res is None:  # pragma: no cover - rows sum to one
                out.append(FastParameter(0.0, None))
                continue
            value, k, a_num = res
            a_idx, c = divmod(k, B * m)
            b_idx, y = divmod(c, m)
            j_num, j_den = (0, 1) if a_num else (1, 0)
        else:
            res = _cdp_general(X)
            if res is None:  # pragma: no cover
                out.append(FastParameter(0.0, None))
                continue
            value, k, j_num, j_den = res
            a_idx, c = divmod(k, B * m)
            b_idx, y = divmod(c, m)
        row_num, row_den = (int((a_idx * n + j) * B + b_idx) for j in (j_num, j_den))
        out.append(FastParameter(value, {"x": row_num, "x_prime": row_den, "output": int(y)}))
    return out
