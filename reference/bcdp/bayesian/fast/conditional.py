"""float64 conditional output laws (eq. 9) and Bayesian coordinate DP (Def. 4), underflow-safe.

BCDP paper, eq. (9) and Definition 4 (reduced as in :mod:`bcdp.bayesian.notions`, (R1)-(R2)):
``delta_i = max_{v, v', y} log P(y | x_i = v) / P(y | x_i = v')`` over supported values.

Method (justification).  ``P(M=y | x_i=v) = sum_{x: x_i=v} pi(x) K(x,y) / pi_i(v)``, where products
such as ``1e-200 * 1e-200`` underflow in linear space.

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
     that form and evaluated with :func:`bcdp.bayesian.fast.log_ratios.log_ratio_fe`.

For a random kernel neither step 0 nor step 3 runs.  Step 3 costs a few passes over the affected
columns per coordinate (about 0.6 s in the worst stress case of ``benchmarks/bench_engine.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from bcdp.bayesian.fast.log_ratios import (
    LN2,
    NEG,
    biased_exponents,
    group_exponents,
    log_ratio_fe,
)
from bcdp.bayesian.fast.validation import (
    FastParameter,
    validate_kernel,
    validate_prior,
    validate_shape,
)
from bcdp.core.errors import InvalidInputError

#: Scaled BCDP sums below this are recomputed exactly (see the module docstring, step 2).
UNDERFLOW_GUARD = 2.0 ** -950
#: Coordinates with at most this many values are handled by one stacked BLAS product.
MATMUL_MAX_VALUES = 64


def _take_columns(M: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """``M[:, cols]`` (``np.take`` is several times faster than fancy indexing on axis 1)."""
    if cols.size == M.shape[1]:
        return M
    return np.take(M, cols, axis=1)


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
        ep = np.where(p > 0, ep, NEG).astype(np.int32)
        eK = biased_exponents(Kc) - np.int32(1022)
        self.s = None
        odd = eK == -1022  # zero or subnormal entries: fix them individually
        if odd.any():
            r, c = np.nonzero(odd)
            vals = Kc[r, c]
            sub = vals > 0
            _, e_sub = np.frexp(vals)
            eK[r, c] = np.where(sub, e_sub, NEG).astype(np.int32)
            if sub.any():
                Kc = np.array(Kc, dtype=np.float64, copy=True)
                self.s = np.zeros(Kc.shape, dtype=np.int32)
                Kc[r[sub], c[sub]] = vals[sub] * 2.0 ** 64
                self.s[r[sub], c[sub]] = 64
        self.G = Kc * (2.0 * fp)[:, None]
        self.Eg = np.maximum(eK + ep[:, None], np.int32(NEG))
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
        gexp = group_exponents(p, dims, i)
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
        raise InvalidInputError(f"coordinate {i} out of range for shape {dims}")
    values, f, e = _conditional_laws_fe(K, p, dims, [i])[i]
    with np.errstate(divide="ignore"):
        logs = np.where(f > 0, np.log(f) + e * LN2, -np.inf)
    return values, logs


def _fe_columnwise_extremes(f: np.ndarray, e: np.ndarray):
    """Per column, the row of the largest and of the smallest value ``f 2**e`` (zeros lowest)."""
    em = np.where(f > 0, e, NEG)
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
            vals[active] = log_ratio_fe(fh[active], eh[active], fl[active], el[active])
            c = int(np.argmax(vals))
            value = float(vals[c])
        out.append(FastParameter(value, {"coordinate": i, "value": int(values[ihi[c]]),
                                         "value_prime": int(values[ilo[c]]), "output": c}))
    return out
