"""float64 fast path for the privacy parameters of a finite mechanism (numpy, vectorised).

This module mirrors :mod:`bcdp.bayesian.notions` and :mod:`bcdp.bayesian.hypothesis_testing` in floating point for
kernels far too large for the exact (Fraction) engine: LDP (Def. 1), BDP (Def. 2), coordinate DP
(Def. 3), Bayesian coordinate DP (Def. 4), coordinate dependence (eq. 13), the conditional output
laws (eq. 9) and the Neyman-Pearson trade-off curve.  It is independent of the exact modules (it
imports nothing from them, and they never import it); ``tests/test_fast_vs_exact.py`` checks it
against them.

Conventions
-----------
* ``kernel`` is an ``(n_inputs, n_outputs)`` array, row ``x`` the law of ``M(x)``; ``prior`` is a
  length-``n_inputs`` pmf; ``shape = (|X_1|, ..., |X_d|)`` with ``prod(shape) == n_inputs``, the
  inputs enumerated in lexicographic (C) order exactly as :class:`bcdp.core.spaces.ProductDomain` does.
* Every parameter is a :class:`FastParameter`: ``value`` is the natural-log privacy parameter
  (``math.inf`` for a ratio ``positive / 0``; never NaN) and ``witness`` a dict of integer indices
  (rows of the kernel, values of a coordinate as indices ``0..|X_i|-1``, output columns).
* The same finite reductions as the exact engine are used (see the docstring of
  :mod:`bcdp.bayesian.notions`): each supremum is a maximum over singleton events ``R = {y}`` and singleton
  conditioning sets, i.e. a per-output-column ``max / min``.  Pairs ``0/0`` are skipped, an
  all-zero column contributes nothing, ``positive/0`` is infinite.

Accuracy
--------
Inputs are floats, so the exact rationals are already rounded (relative error <= 2**-53 per
entry).  Beyond that:

* Ratios are never formed as ``log(a) - log(b)`` when ``a/b`` is close to one (that would lose all
  relative precision of a small epsilon).  :func:`_log_ratio_fe` writes ``a = fa 2**ea``,
  ``b = fb 2**eb`` (exact ``frexp``) and returns ``log1p((fa 2**(ea-eb) - fb) / fb)`` when
  ``|ea - eb| <= 1`` (the difference is exact by Sterbenz's lemma when ``a ~ b``) and
  ``log(fa/fb) + (ea-eb) log 2`` otherwise (then the value is >= log 2 and the relative error is a
  few ulps).  So every reported value has relative error O(eps) with respect to the float inputs,
  plus O(n eps) for the sums of non-negative terms in the BCDP laws.
* LDP/BDP/CDP select the extreme ratio with cheap linear-space quotients and recompute the value
  at the selected entries precisely.  A quotient that underflows to a subnormal (ratio > 2**1022)
  or overflows would rank candidates badly, so those candidates are re-ranked with exact
  exponents.  A near-tie (float quotients equal within 1 ulp) can pick an entry whose value is
  ~1e-16 below the true maximum; the witness always attains the reported value.
* BCDP needs ``P(M=y | x_i=v) = sum_{x: x_i=v} pi(x) K(x,y) / pi_i(v)``, where products such as
  ``1e-200 * 1e-200`` underflow in linear space.  Method (justification):

  0. *Per-column power-of-two scaling of K.*  A column whose maximum is below ``2**-100`` is
     multiplied by ``2**-e`` (``e`` the binary exponent of its maximum; ``ldexp`` is exact), so
     its largest entry lies in ``[1/2, 1)``.  Ratios within a column are unchanged and the
     exponent is added back at the end.
  1. *Per-group power-of-two scaling of the prior.*  For every coordinate value ``(i, v)`` the
     weights ``pi(x), x_i = v`` are multiplied by ``2**-e`` with ``e`` the largest binary
     exponent in the group (exact), so the largest weight lies in ``[1/2, 1)``.  The common
     factor cancels in ``P = S / m`` (``S`` the scaled numerator, ``m`` the scaled group mass), so
     tiny prior masses cost nothing.  All coordinates with at most 64 values are stacked into one
     ``(sum n_i) x n_inputs`` matrix and ``S`` is a single BLAS product ``W @ K`` (a coordinate
     with more values uses a grouped sum, also one pass over ``K``).
  2. *Underflow test.*  Every term is non-negative, so the float sum has relative error
     <= n eps, except for products that underflowed: each such term has absolute error
     <= 2**-1022 (even with flush-to-zero), hence at most ``n 2**-1022`` in total.  If
     ``S >= 2**-950`` this is below ``n 2**-72`` relative, so ``S`` keeps full relative precision.
  3. *Exact-exponent fallback.*  Entries with ``S < 2**-950`` that are not truly zero (a count of
     positive terms decides; true zeros are exact already) are recomputed for their columns only.
     Each term is ``pi(x) K(x,y) = G 2**(e_pi - 1)`` with ``G = 2 f_pi K`` (``f_pi`` the frexp
     mantissa of ``pi(x)``: ``G`` lies in ``[K, 2K)``, cannot underflow, and is rounded once; a
     subnormal ``K`` is first scaled by ``2**64``) and its binary exponent ``e_pi + e_K`` is known
     exactly (``e_K`` read from the exponent bits).
     Each group is shifted by *its own* largest exponent -- a base-2 log-sum-exp with integer
     exponents, so the shift (``ldexp``) is exact -- and summed: a mantissa in ``[1/4, n]`` with
     relative error O(n eps) and an integer exponent, whatever the magnitude (``1e-400``,
     ``1e-600``; only terms below ``2**-1022`` times the group's largest term are lost).
  4. The laws are kept as (mantissa, integer exponent) pairs; ratios between them are compared in
     that form and evaluated with :func:`_log_ratio_fe`.

  For a random kernel neither step 0 nor step 3 runs.  Step 3 costs a few passes over the
  affected columns per coordinate (about 0.6 s in the worst stress case of the benchmark).
* The dependence (eq. 13) uses the same per-group power-of-two scaling before normalising the
  conditionals, then ``TV = sum max(p - q, 0)``: absolute error O(n eps).

Performance (``python benchmarks/bench_engine.py``; 4096 inputs = 12 binary coordinates, 4096
outputs, a shared 2-core machine under load): all five quantities together take 0.6-1.2 s
(LDP ~0.05, BDP ~0.05, CDP 0.35-0.8, BCDP 0.2-0.25, dependence < 0.01; the spread comes from
first-touch page faults of the 64 MB work buffer and from machine load).  The adversarial
``--stress`` inputs take 0.9-1.4 s, and 1.0-2.5 s when the exact fallback of step 3 runs on half
of the columns.  There are no Python loops over inputs, outputs or input pairs; only over the
``d`` coordinates.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

__all__ = [
    "FastParameter", "validate_kernel", "validate_prior", "validate_shape", "ldp_epsilon_fast",
    "bdp_epsilon_fast", "cdp_vector_fast", "bcdp_vector_fast", "coordinate_dependence_fast",
    "conditional_output_laws_fast", "neyman_pearson_curve_fast", "smallest_delta_fast",
]

LN2 = math.log(2.0)
#: Smallest positive normal float64; quotients below it have lost relative precision.
TINY = np.finfo(np.float64).tiny
#: Scaled BCDP sums below this are recomputed exactly (see the module docstring, step 2).
UNDERFLOW_GUARD = 2.0 ** -950
#: Coordinates with at most this many values are handled by one stacked BLAS product.
MATMUL_MAX_VALUES = 64
_NEG = -(1 << 20)  # exponent standing for "zero entry" (below every float64 exponent)


@dataclass(frozen=True)
class FastParameter:
    """A float privacy parameter (natural log; ``math.inf`` allowed, never NaN) and its witness."""

    value: float
    witness: dict | None

    @property
    def is_infinite(self) -> bool:
        return self.value == math.inf


# ---------------------------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------------------------
def _as_float_array(obj: Any, what: str) -> np.ndarray:
    try:
        arr = np.asarray(obj, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not a numeric array: {exc}") from exc
    return arr


def _drop_negative_zeros(arr: np.ndarray) -> np.ndarray:
    # -0.0 passes ">= 0" but 1/-0.0 = -inf; replace by +0.0 (copy only when some -0.0 exists).
    if (arr.view(np.int64) == np.iinfo(np.int64).min).any():
        arr = arr + 0.0
    return arr


def validate_kernel(kernel: Any, atol: float = 1e-9) -> np.ndarray:
    """Return ``kernel`` as a 2-D float64 array after checking it is a Markov kernel.

    Raises ValueError naming the first offending entry (non-finite, then negative) or row (sum
    not within ``atol`` of one).  No copy is made for a valid C-contiguous float64 input.
    """
    K = _as_float_array(kernel, "kernel")
    if K.ndim != 2:
        raise ValueError(f"kernel must be a 2-D array (inputs x outputs), got shape {K.shape}")
    if K.shape[0] == 0 or K.shape[1] == 0:
        raise ValueError(f"kernel must have at least one input and one output, got shape {K.shape}")
    sums = K.sum(axis=1)
    lowest = K.min()
    if not (np.all(np.abs(sums - 1.0) <= atol) and lowest >= 0):
        bad = ~np.isfinite(K)
        if bad.any():
            r, c = (int(t) for t in np.argwhere(bad)[0])
            raise ValueError(f"kernel entry [{r}, {c}] is not finite ({float(K[r, c])!r})")
        neg = K < 0
        if neg.any():
            r, c = (int(t) for t in np.argwhere(neg)[0])
            raise ValueError(f"kernel entry [{r}, {c}] is negative ({float(K[r, c])!r})")
        r = int(np.argmax(~(np.abs(sums - 1.0) <= atol)))
        raise ValueError(f"kernel row {r} sums to {float(sums[r])!r}, not 1 (atol={atol})")
    K = np.ascontiguousarray(K)
    if lowest == 0:
        K = _drop_negative_zeros(K)
    return K


def validate_prior(prior: Any, n_inputs: int, atol: float = 1e-9) -> np.ndarray:
    """Return ``prior`` as a 1-D float64 pmf of length ``n_inputs`` (ValueError otherwise)."""
    p = _as_float_array(prior, "prior")
    if p.ndim != 1:
        raise ValueError(f"prior must be a 1-D array, got shape {p.shape}")
    if p.shape[0] != n_inputs:
        raise ValueError(f"prior has {p.shape[0]} entries but the kernel has {n_inputs} rows "
                         "(inputs)")
    bad = ~np.isfinite(p)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"prior entry {k} is not finite ({float(p[k])!r})")
    if (p < 0).any():
        k = int(np.argmax(p < 0))
        raise ValueError(f"prior entry {k} is negative ({float(p[k])!r})")
    total = p.sum()
    if not abs(total - 1.0) <= atol:
        raise ValueError(f"prior sums to {float(total)!r}, not 1 (atol={atol})")
    return _drop_negative_zeros(np.ascontiguousarray(p))


def validate_shape(shape: Any, n_inputs: int) -> tuple[int, ...]:
    """Coordinate sizes ``(|X_1|, ..., |X_d|)``, each >= 1, with product ``n_inputs``."""
    try:
        dims = tuple(int(s) for s in shape)
    except TypeError as exc:
        raise ValueError(f"shape must be a sequence of coordinate sizes, got {shape!r}") from exc
    if any(int(s) != s for s in shape):
        raise ValueError(f"shape entries must be integers, got {shape!r}")
    if not dims:
        raise ValueError("shape must list at least one coordinate size")
    if any(s < 1 for s in dims):
        raise ValueError(f"every coordinate needs at least one value, got shape {dims}")
    if math.prod(dims) != n_inputs:
        raise ValueError(f"shape {dims} describes {math.prod(dims)} inputs but there are "
                         f"{n_inputs} (kernel rows / prior entries)")
    return dims


def _validate_law(law: Any, what: str, atol: float) -> np.ndarray:
    p = _as_float_array(law, what)
    if p.ndim != 1 or p.size == 0:
        raise ValueError(f"{what} must be a non-empty 1-D array, got shape {p.shape}")
    bad = ~np.isfinite(p)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"{what} entry {k} is not finite ({float(p[k])!r})")
    if (p < 0).any():
        k = int(np.argmax(p < 0))
        raise ValueError(f"{what} entry {k} is negative ({float(p[k])!r})")
    total = p.sum()
    if not abs(total - 1.0) <= atol:
        raise ValueError(f"{what} sums to {float(total)!r}, not 1 (atol={atol})")
    return _drop_negative_zeros(np.ascontiguousarray(p))


# ---------------------------------------------------------------------------------------------
# precise log-ratios
# ---------------------------------------------------------------------------------------------
def _log_ratio_fe(fa, ea, fb, eb) -> np.ndarray:
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


def _log_ratio(a, b) -> np.ndarray:
    """log(a / b) for positive floats a, b (precise; no overflow or underflow)."""
    fa, ea = np.frexp(np.asarray(a, dtype=np.float64))
    fb, eb = np.frexp(np.asarray(b, dtype=np.float64))
    return _log_ratio_fe(fa, ea, fb, eb)


def _columnwise_max_ratio(X: np.ndarray) -> tuple[float, int, int, int] | None:
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
        vals[active] = _log_ratio(hi[active], lo[active])
        c = int(np.argmax(vals))
        value = float(vals[c])
    col = X[:, c]
    return value, int(np.argmax(col)), int(np.argmin(col)), c


# ---------------------------------------------------------------------------------------------
# LDP and BDP
# ---------------------------------------------------------------------------------------------
def ldp_epsilon_fast(kernel: Any, atol: float = 1e-9) -> FastParameter:
    """Definition 1: ``max_y log(max_x K[x, y] / min_x K[x, y])``.

    Witness ``{"x": row, "x_prime": row, "output": col}`` with ``K[x, y] / K[x_prime, y]`` the
    reported ratio (``x`` the numerator).
    """
    K = validate_kernel(kernel, atol)
    res = _columnwise_max_ratio(K)
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
    res = _columnwise_max_ratio(sub)
    if res is None:  # pragma: no cover - impossible for a valid prior and kernel
        return FastParameter(0.0, None)
    value, a, b, c = res
    return FastParameter(value, {"x": int(support[a]), "x_prime": int(support[b]), "output": c})


# ---------------------------------------------------------------------------------------------
# coordinate DP
# ---------------------------------------------------------------------------------------------
def _first_index(mask: np.ndarray) -> int:
    return int(np.argmax(mask.ravel()))


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
    p = _first_index(rf == vmax) if has_nan else int(rf.argmax())
    if vmax == np.inf:
        if take(b, p) == 0:
            return math.inf, p, True
        cands = np.flatnonzero(np.isposinf(rf))
        den = take(b, cands)
        zero = den == 0
        if zero.any():
            return math.inf, int(cands[np.argmax(zero)]), True
        vals = _log_ratio(take(a, cands), den)
        p, v1 = int(cands[np.argmax(vals)]), float(vals.max())
    else:
        v1 = float(_log_ratio(take(a, p), take(b, p)))
    # side 2: b / a largest (a quotient below TINY is a true zero, an underflow or imprecise)
    vmin = np.fmin.reduce(rf) if has_nan else rf.min()
    q = _first_index(rf == vmin) if has_nan else int(rf.argmin())
    if vmin < TINY:
        if take(a, q) == 0:
            return math.inf, q, False
        cands = np.flatnonzero(rf < TINY)
        den = take(a, cands)
        zero = den == 0
        if zero.any():
            return math.inf, int(cands[np.argmax(zero)]), False
        vals = _log_ratio(take(b, cands), den)
        q, v2 = int(cands[np.argmax(vals)]), float(vals.max())
    else:
        v2 = float(_log_ratio(take(b, q), take(a, q)))
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
        k = _first_index(uf == low)
    else:
        k = int(uf.argmin())
    A, n, C = X.shape
    if low < TINY and X[k // C, :, k % C].min() > 0:
        # no infinity at k: a subnormal or underflowed quotient; re-rank all such candidates
        cands = np.flatnonzero(uf < TINY)
        cols = X[cands // C, :, cands % C]  # (n_cands, n)
        chi, clo = cols.max(axis=1), cols.min(axis=1)
        zero = clo == 0
        if zero.any():
            k = int(cands[np.argmax(zero)])
        else:
            k = int(cands[np.argmax(_log_ratio(chi, clo))])
    a, c = divmod(k, C)
    col = X[a, :, c]
    jn, jd = int(np.argmax(col)), int(np.argmin(col))
    value = math.inf if col[jd] == 0 else float(_log_ratio(col[jn], col[jd]))
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
        row = lambda j: int((a_idx * n + j) * B + b_idx)  # noqa: E731
        out.append(FastParameter(value, {"x": row(j_num), "x_prime": row(j_den), "output": int(y)}))
    return out


# ---------------------------------------------------------------------------------------------
# conditional output laws and BCDP
# ---------------------------------------------------------------------------------------------
def _biased_exponents(x: np.ndarray) -> np.ndarray:
    """The 11-bit biased exponent field of non-negative float64 entries (int32; 0 for zeros and
    subnormals).  Reads the high 32-bit word in place: one pass, no frexp."""
    x = np.ascontiguousarray(x, dtype=np.float64)
    if sys.byteorder == "little":
        high = x.view(np.int32)[..., 1::2]
    else:  # pragma: no cover
        high = x.view(np.int32)[..., 0::2]
    return high >> 20


def _take_columns(M: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``M[:, cols]`` (``np.take`` is several times faster than fancy indexing on axis 1)."""
    if cols.size == M.shape[1]:
        return M
    return np.take(M, cols, axis=1)


def _group_exponents(p: np.ndarray, dims: tuple[int, ...], i: int) -> np.ndarray:
    """Largest binary exponent (frexp convention) of the positive prior entries of each value of
    coordinate i (``_NEG`` for a value without prior mass)."""
    _, e = np.frexp(p)
    e = np.where(p > 0, e, _NEG).astype(np.int64)
    A, n, B = math.prod(dims[:i]), dims[i], math.prod(dims[i + 1:])
    return e.reshape(A, n, B).max(axis=(0, 2))


def _stacked_indicator(weights_by_coord: dict[int, np.ndarray], dims: tuple[int, ...], N: int,
                       dtype=np.float64) -> tuple[np.ndarray | None, dict[int, int]]:
    """Stack, for every coordinate i with at most MATMUL_MAX_VALUES values, the n_i x N matrix
    ``W[v, x] = weights_i[x] [x_i = v]``; returns the stack and each coordinate's first row."""
    blocks, offsets, off = [], {}, 0
    cols = np.arange(N)
    for i, w in weights_by_coord.items():
        n, B = dims[i], math.prod(dims[i + 1:])
        if n > MATMUL_MAX_VALUES:
            continue
        W = np.zeros((n, N), dtype=dtype)
        W[(cols // B) % n, cols] = w
        blocks.append(W)
        offsets[i] = off
        off += n
    return (np.vstack(blocks) if blocks else None), offsets


def _grouped_sums(weights_by_coord: dict[int, np.ndarray], M: np.ndarray,
                  dims: tuple[int, ...]) -> dict[int, np.ndarray]:
    """``out[i][v, :] = sum_{x: x_i = v} weights_i[x] M[x, :]`` for every coordinate i given.

    Coordinates with few values share one BLAS product (one pass over M); a coordinate with many
    values uses an elementwise product and a grouped sum (also one pass, cost independent of n_i).
    """
    N = M.shape[0]
    W, offsets = _stacked_indicator(weights_by_coord, dims, N, M.dtype)
    stacked = W @ M if W is not None else None
    out = {}
    for i, w in weights_by_coord.items():
        n = dims[i]
        if i in offsets:
            out[i] = stacked[offsets[i]:offsets[i] + n]
        else:
            A, B = math.prod(dims[:i]), math.prod(dims[i + 1:])
            Z = (w.astype(M.dtype)[:, None] * M).reshape(A, n, B, M.shape[1])
            out[i] = Z.sum(axis=(0, 2))
    return out


class _ExactTerms:
    """The terms pi(x) K(x, y) of some columns of K, prepared once for all coordinates so that
    any grouping can be summed with exact power-of-two shifts.

    With ``pi(x) = fp 2**ep`` (frexp), ``K(x, y) = fk 2**eK`` (eK read from the exponent bits) and
    ``Kn = K 2**s`` (``s = 64`` for a subnormal entry, else 0: exact, makes ``Kn`` normal), the
    term is ``G 2**(ep - 1 - s)`` with ``G = 2 fp Kn`` in ``[Kn, 2 Kn)`` (normal, rounded once),
    and its frexp exponent is ``Eg = ep + eK`` or ``Eg - 1``.
    """

    def __init__(self, K: np.ndarray, p: np.ndarray, cols: np.ndarray):
        Kc = _take_columns(K, cols)
        fp, ep = np.frexp(p)
        ep = np.where(p > 0, ep, _NEG).astype(np.int32)
        eK = _biased_exponents(Kc) - np.int32(1022)
        self.s = None
        odd = eK == -1022  # zero or subnormal entries: fix them individually
        if odd.any():
            r, c = np.nonzero(odd)
            vals = Kc[r, c]
            sub = vals > 0
            _, e_sub = np.frexp(vals)
            eK[r, c] = np.where(sub, e_sub, _NEG).astype(np.int32)
            if sub.any():
                Kc = np.array(Kc, dtype=np.float64, copy=True)
                self.s = np.zeros(Kc.shape, dtype=np.int32)
                Kc[r[sub], c[sub]] = vals[sub] * 2.0 ** 64
                self.s[r[sub], c[sub]] = 64
        self.G = Kc * (2.0 * fp)[:, None]
        self.Eg = np.maximum(eK + ep[:, None], np.int32(_NEG))
        self.ep = ep
        self.cols = cols

    def group_sums(self, dims: tuple[int, ...], i: int) -> tuple[np.ndarray, np.ndarray]:
        """``sum_{x_i = v} pi(x) K(x, y) = mant * 2**expo`` (n_i x len(cols)).

        Each group is shifted by its own largest exponent T (a base-2 log-sum-exp with integer
        exponents: the shifts are exact), so ``mant`` is in [1/4, n] or 0 and has relative error
        O(n eps) however small the terms are; only terms below 2**-1022 times the group's largest
        term are lost.
        """
        A, n, B = math.prod(dims[:i]), dims[i], math.prod(dims[i + 1:])
        F = self.cols.size
        T = self.Eg.reshape(A, n, B, F).max(axis=(0, 2))  # (n, F)
        shift = (self.ep.reshape(A, n, B)[:, :, :, None] - np.int32(1)) - T[None, :, None, :]
        if self.s is not None:
            shift = shift - self.s.reshape(A, n, B, F)
        shift = np.clip(shift, -4096, 4096).astype(np.int32)
        with np.errstate(under="ignore", over="ignore"):
            sc = np.ldexp(self.G.reshape(A, n, B, F), shift)
        return sc.sum(axis=(0, 2)), T.astype(np.int64)


def _conditional_laws_fe(K: np.ndarray, p: np.ndarray, dims: tuple[int, ...],
                         coords: Sequence[int]) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each coordinate i in ``coords``: ``(values, f, e)`` with ``values`` the supported value
    indices and ``P(M = y | x_i = values[r]) = f[r, y] * 2**e[r, y]`` (``f`` in [1/2, 1) or 0).

    See the module docstring (BCDP accuracy) for the method.
    """
    N, m = K.shape
    pos = p > 0
    # (0) power-of-two scaling of the columns whose maximum is tiny (exact, one ldexp pass)
    _, ecol = np.frexp(K.max(axis=0))
    col_shift = np.where(ecol < -100, ecol, 0).astype(np.int64)
    Ks = np.ldexp(K, (-col_shift).astype(np.int32)[None, :]) if col_shift.any() else K
    # (1) per-group power-of-two scaling of the prior; all coordinates in one product
    weights, info = {}, {}
    for i in coords:
        n, B = dims[i], math.prod(dims[i + 1:])
        gexp = _group_exponents(p, dims, i)
        vidx = (np.arange(N) // B) % n
        with np.errstate(over="ignore", under="ignore"):
            w = np.ldexp(p, np.clip(-gexp[vidx], -4096, 4096).astype(np.int32))
        w = np.where(pos, w, 0.0)
        weights[i] = w
        info[i] = (gexp, np.bincount(vidx, weights=w, minlength=n))  # scaled pi_i(v)
    sums = _grouped_sums(weights, Ks, dims)
    out: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    cands: dict[int, np.ndarray] = {}
    for i in coords:
        gexp, mass = info[i]
        values = np.flatnonzero(mass > 0)
        S = sums[i][values]
        with np.errstate(all="ignore"):
            f, e = np.frexp(S / mass[values][:, None])  # small (n_i x m) arrays
        out[i] = (values, f, e.astype(np.int64) + col_shift[None, :])
        cand = S < UNDERFLOW_GUARD  # (2) possibly inaccurate: true zero or underflow
        if cand.any():
            cands[i] = cand
    if not cands:
        return out
    # (2') true zeros (no positive term) are exact already: count positive terms
    ccols = np.flatnonzero(np.logical_or.reduce([c.any(axis=0) for c in cands.values()]))
    wide = 2 * ccols.size > m  # gathering most columns costs more than using them all
    posK = ((K if wide else _take_columns(K, ccols)) > 0).astype(np.float32)
    counts = _grouped_sums({i: pos.astype(np.float32) for i in cands}, posK, dims)
    flagged = {}
    for i, cand in cands.items():
        values = out[i][0]
        cnt = counts[i][values][:, ccols] if wide else counts[i][values]
        fl = cand[:, ccols] & (cnt > 0)
        if fl.any():
            flagged[i] = fl
    if not flagged:
        return out
    # (3) exact fallback for the flagged entries; the terms are prepared once
    fcols_local = np.flatnonzero(np.logical_or.reduce([fl.any(axis=0) for fl in flagged.values()]))
    fcols = ccols[fcols_local]
    wide = 2 * fcols.size > m
    terms = _ExactTerms(K, p, np.arange(m) if wide else fcols)
    for i, fl_all in flagged.items():
        values, f, e = out[i]
        gexp, mass = info[i]
        fl = fl_all[:, fcols_local]
        mant, expo = terms.group_sums(dims, i)
        mant, expo = mant[values], expo[values]
        if wide:
            mant, expo = mant[:, fcols], expo[:, fcols]
        fm, em = np.frexp(mass[values])
        fq, eq = np.frexp(mant / fm[:, None])  # mant / fm in [1/4, 2n]
        # P = mant 2**expo / (mass 2**gexp), mass = fm 2**em
        eq = eq.astype(np.int64) + expo - em[:, None] - gexp[values][:, None]
        fsub, esub = f[:, fcols], e[:, fcols]
        fsub[fl], esub[fl] = fq[fl], eq[fl]
        f[:, fcols], e[:, fcols] = fsub, esub
    return out


def conditional_output_laws_fast(kernel: Any, prior: Any, shape: Sequence[int], i: int,
                                 atol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """eq. (9): the laws ``P(M = y | x_i = v)`` for the values v of coordinate i with
    ``pi(x_i = v) > 0``, as NATURAL-LOG probabilities.

    Returns ``(values, log_laws)``: ``values`` the supported value indices (increasing) and
    ``log_laws[r, y] = log P(M = y | x_i = values[r])`` (``-inf`` for probability zero).  Logs
    are returned because the probabilities may be far below the float64 range (e.g. 1e-400);
    ``np.exp(log_laws)`` gives the probabilities when they are representable.
    """
    K = validate_kernel(kernel, atol)
    p = validate_prior(prior, K.shape[0], atol)
    dims = validate_shape(shape, K.shape[0])
    if not 0 <= i < len(dims):
        raise ValueError(f"coordinate {i} out of range for shape {dims}")
    values, f, e = _conditional_laws_fe(K, p, dims, [i])[i]
    with np.errstate(divide="ignore"):
        logs = np.where(f > 0, np.log(f) + e * LN2, -np.inf)
    return values, logs


def _fe_columnwise_extremes(f: np.ndarray, e: np.ndarray):
    """Per column, the row of the largest and of the smallest value ``f 2**e`` (zeros lowest)."""
    em = np.where(f > 0, e, _NEG)
    emax = em.max(axis=0)
    fmax_mask = np.where(em == emax[None, :], f, -1.0)
    ihi = fmax_mask.argmax(axis=0)
    emin = em.min(axis=0)
    fmin_mask = np.where(em == emin[None, :], f, 2.0)
    ilo = fmin_mask.argmin(axis=0)
    return ihi, ilo


def bcdp_vector_fast(kernel: Any, prior: Any, shape: Sequence[int],
                     atol: float = 1e-9) -> list[FastParameter]:
    """Definition 4: for each coordinate i, ``max_{v, v', y} log P(y | x_i=v) / P(y | x_i=v')``
    over supported values v, v' (``pi(x_i = v) > 0``).

    Witness ``{"coordinate": i, "value": v, "value_prime": v', "output": y}`` (value indices; v
    the numerator).  A coordinate with one supported value has value 0.
    """
    K = validate_kernel(kernel, atol)
    p = validate_prior(prior, K.shape[0], atol)
    dims = validate_shape(shape, K.shape[0])
    laws = _conditional_laws_fe(K, p, dims, list(range(len(dims))))
    out = []
    for i in range(len(dims)):
        values, f, e = laws[i]
        ihi, ilo = _fe_columnwise_extremes(f, e)
        cols = np.arange(f.shape[1])
        fh, eh = f[ihi, cols], e[ihi, cols]
        fl, el = f[ilo, cols], e[ilo, cols]
        active = fh > 0
        if not active.any():  # pragma: no cover - laws sum to one
            out.append(FastParameter(0.0, None))
            continue
        inf_cols = active & (fl == 0)
        if inf_cols.any():
            c = int(np.argmax(inf_cols))
            value = math.inf
        else:
            vals = np.full(f.shape[1], -np.inf)
            vals[active] = _log_ratio_fe(fh[active], eh[active], fl[active], el[active])
            c = int(np.argmax(vals))
            value = float(vals[c])
        out.append(FastParameter(value, {"coordinate": i, "value": int(values[ihi[c]]),
                                         "value_prime": int(values[ilo[c]]), "output": c}))
    return out


# ---------------------------------------------------------------------------------------------
# dependence
# ---------------------------------------------------------------------------------------------
def coordinate_dependence_fast(prior: Any, shape: Sequence[int],
                               atol: float = 1e-9) -> list[FastParameter]:
    """eq. (13): ``q_i = max_{v, v'} TV(pi_{x_-i | x_i=v}, pi_{x_-i | x_i=v'})`` over supported
    values.

    Witness ``{"coordinate": i, "value": v, "value_prime": v'}`` (the first pair attaining the
    maximum, in row-major order); ``None`` with value 0 when coordinate i has one supported value.
    """
    p = _as_float_array(prior, "prior")
    if p.ndim != 1:
        raise ValueError(f"prior must be a 1-D array, got shape {p.shape}")
    dims = validate_shape(shape, p.shape[0])
    p = validate_prior(p, p.shape[0], atol)
    out = []
    for i, n in enumerate(dims):
        A, B = math.prod(dims[:i]), math.prod(dims[i + 1:])
        gexp = _group_exponents(p, dims, i)
        pr = p.reshape(A, n, B).transpose(1, 0, 2).reshape(n, A * B)
        values = np.flatnonzero(gexp > _NEG)
        if values.size < 2:
            out.append(FastParameter(0.0, None))
            continue
        with np.errstate(under="ignore"):
            sc = np.ldexp(pr[values], (-gexp[values]).astype(np.int32)[:, None])
        cond = sc / sc.sum(axis=1, keepdims=True)
        diff = cond[:, None, :] - cond[None, :, :]
        tv = np.maximum(diff, 0.0).sum(axis=2)
        np.fill_diagonal(tv, -1.0)
        k = int(np.argmax(tv))
        a, b = divmod(k, values.size)
        out.append(FastParameter(float(tv[a, b]), {"coordinate": i, "value": int(values[a]),
                                                   "value_prime": int(values[b])}))
    return out


# ---------------------------------------------------------------------------------------------
# hypothesis testing
# ---------------------------------------------------------------------------------------------
def _likelihood_keys(p0: np.ndarray, p1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Class (0: p0=0<p1, 1: p0>0, 2: 0/0) and log(p1/p0) for class 1 (-inf when p1 = 0)."""
    cls = np.where(p0 > 0, 1, np.where(p1 > 0, 0, 2))
    key = np.zeros(p0.shape)
    both = (p0 > 0) & (p1 > 0)
    key[both] = _log_ratio(p1[both], p0[both])
    key[(p0 > 0) & (p1 == 0)] = -np.inf
    return cls, key


def neyman_pearson_curve_fast(null_law: Any, alt_law: Any, tie_tol: float = 1e-12,
                              atol: float = 1e-9) -> tuple[np.ndarray, np.ndarray]:
    """Vertices ``(alpha, beta)`` of the optimal trade-off curve of H0: Y ~ null_law against
    H1: Y ~ alt_law (Neyman-Pearson): outputs enter the rejection region by decreasing likelihood
    ratio ``p1/p0`` (infinite first); ratios whose logs differ by at most
    ``tie_tol * max(1, |log ratio|)`` are one segment.

    The first vertex is ``(0, 1)``.  Outputs with ``p0 = p1 = 0`` do not move the curve and give
    no vertex (the exact :func:`bcdp.bayesian.hypothesis_testing.neyman_pearson_curve` repeats the last
    vertex for them).  ``beta`` is computed as the remaining alternative mass (a suffix sum), so
    small type II errors keep their relative precision.
    """
    p0 = _validate_law(null_law, "null_law", atol)
    p1 = _validate_law(alt_law, "alt_law", atol)
    if p0.shape != p1.shape:
        raise ValueError(f"the two laws must be over the same outputs: {p0.size} != {p1.size}")
    cls, key = _likelihood_keys(p0, p1)
    keep = cls < 2
    idx = np.flatnonzero(keep)
    order = idx[np.lexsort((-key[idx], cls[idx]))]
    c_s, k_s = cls[order], key[order]
    q0, q1 = p0[order], p1[order]
    n = order.size
    if n == 0:
        return np.array([0.0]), np.array([1.0])
    with np.errstate(invalid="ignore"):
        same = (c_s[1:] == c_s[:-1]) & (
            (k_s[1:] == k_s[:-1])
            | (np.abs(k_s[1:] - k_s[:-1]) <= tie_tol * np.maximum(1.0, np.abs(k_s[:-1]))))
    ends = np.flatnonzero(np.append(~same, True))  # last index of each tie group
    alpha = np.cumsum(q0)[ends]
    suffix = np.cumsum(q1[::-1])[::-1]  # suffix[k] = sum_{j >= k} q1[j]
    beta = np.append(suffix[1:], 0.0)[ends]
    return np.concatenate(([0.0], alpha)), np.concatenate(([1.0], beta))


def smallest_delta_fast(null_law: Any, alt_law: Any, atol: float = 1e-9) -> FastParameter:
    """Smallest delta >= 0 with ``e^delta alpha + beta >= 1`` for every test (Theorem 1, eq. 12):
    ``max_y log p1(y)/p0(y)`` (infinite if some ``p0(y) = 0 < p1(y)``; 0/0 skipped).

    Witness ``{"output": y}``.  The value is clamped at 0 (for two pmfs the maximum is >= 0 up
    to rounding); witness None when every output is 0/0.
    """
    p0 = _validate_law(null_law, "null_law", atol)
    p1 = _validate_law(alt_law, "alt_law", atol)
    if p0.shape != p1.shape:
        raise ValueError(f"the two laws must be over the same outputs: {p0.size} != {p1.size}")
    inf = (p0 == 0) & (p1 > 0)
    if inf.any():
        return FastParameter(math.inf, {"output": int(np.argmax(inf))})
    both = (p0 > 0) & (p1 > 0)
    if not both.any():
        return FastParameter(0.0, None)
    vals = np.full(p0.shape, -np.inf)
    vals[both] = _log_ratio(p1[both], p0[both])
    y = int(np.argmax(vals))
    return FastParameter(max(0.0, float(vals[y])), {"output": y})
