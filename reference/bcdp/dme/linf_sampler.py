"""Vectorised float64 sampler of R^{l_inf}_{v,m,s} + A^{l_inf} (thesis Algs 3.5.1-3.5.2) and of the l2 mechanism built on it (Algs 3.6.1-3.6.2).

Client i (thesis Alg 3.5.1) on x_i in [-r, r]^d: z_i = (x_i + r)/(2r) in [0, 1]^d; the quantizer of
thesis Sec. 3.5.1 (with the x = 1 clamp of :mod:`bcdp.dme.quantizer`) gives the digits
b^(1..m-1) of K = min(floor(2^{m-1} z), 2^{m-1} - 1) and the last coin u ~ Bern(2^{m-1} z - K);
level k sends its bit vector through R^Bin_{v_k,s} (:func:`bcdp.dme.binary_vector.sample_binary_vector`,
thesis Alg 3.3.1) with its own 2RR parameter p_k.  Server (Alg 3.5.2):
z_hat = sum_{k<m} 2^{-k} b_hat^(k) + 2^{-(m-1)} u_hat, x_hat = 2 r z_hat - r (the MMS proof of the
thesis drops the 2^{-k}; docs/errata.md notes on Sec. 3.5 -- :func:`linf_level_estimates` exposes the
unweighted levels so that tests can show that variant is rejected).

The p_k are given directly (``ps``) or from a total budget v by the water-filling split of thesis
eq. (3.26): v_k = f_k v, per-message budget v_k/s, p_k = (1 - sqrt(w^2/(w^2 + 4)))/2 at w = v_k/s
(Lemma 2.4.1).  Loops run over the m levels only; users and coordinates are numpy arrays.

:func:`l2_linf_mechanism_float` is Algs 3.6.1-3.6.2 with this real l_inf step: shared rotation
U = H_d D/sqrt(d), w_i = U x_i, clipping at r_inf (Thm 3.6.5 radius of
:func:`bcdp.dme.l2.clip_radius_float` unless given), R^{l_inf}, A^{l_inf}, x_hat = U^T w_hat_bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import to_float_input

from . import binary_vector as bv
from . import l2, linf

__all__ = ["l2_linf_mechanism_float", "level_ps_float", "linf_level_estimates", "linf_sample_float"]


def _check_rng(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _check_levels(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise WrongTypeError(f"m must be an int, got {type(m).__name__} {m!r}")
    if not 1 <= int(m) <= 53:
        raise InvalidInputError(f"m must be in [1, 53] (levels of thesis Alg 3.5.1 in float64), got {m}")
    return int(m)


def level_ps_float(m: Any, s: Any, v: Any) -> np.ndarray:
    """The m per-level 2RR parameters of R^{l_inf}_{v,m,s} in float64: p_k = (1 - sqrt(w^2/(w^2+4)))/2
    at w = f_k v/s, f_k of the water-filling split (thesis eq. (3.26), Lemma 2.4.1, Alg 3.5.1); v > 0."""
    mm = _check_levels(m)
    ss = _check_s(s)
    vv = to_float_input(v, "v")
    if not vv > 0:
        raise ValidityConditionError(f"v = {vv} must be > 0 (thesis Lemma 2.4.1)")
    f = np.array([float(x) for x in linf.water_filling_split(mm)])
    w = f * vv / ss
    # (1 - w/sqrt(w^2+4))/2 = 2/(sqrt(w^2+4)(sqrt(w^2+4) + w)): no cancellation for large w
    root = np.sqrt(w * w + 4.0)
    return 2.0 / (root * (root + w))


def _ps(m: int, s: int, ps: Sequence[Any] | None, v: Any) -> np.ndarray:
    if (ps is None) == (v is None):
        raise InvalidInputError("give exactly one of ps (per-level 2RR parameters) and v (total budget)")
    if v is not None:
        return level_ps_float(m, s, v)
    arr = np.array([to_float_input(p, "ps[k]") for p in ps], dtype=float)
    if arr.shape != (m,):
        raise InvalidInputError(f"ps must give one 2RR parameter per level ({m}), got {len(ps)}")
    if ((arr < 0) | (arr >= 0.5)).any():
        raise ValidityConditionError("every p_k must be in [0, 1/2), the range of thesis Thm 2.4.1 (2RR)")
    return arr


def _check_cube(x: Any, r: Any) -> tuple[np.ndarray, float]:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise InvalidInputError("x must be a finite (n, d) array")
    rr = to_float_input(r, "r")
    if not rr > 0:
        raise ValidityConditionError(f"r = {rr} must be > 0 (thesis Alg 3.5.1)")
    if (np.abs(arr) > rr).any():
        raise ValidityConditionError("x must lie in [-r, r]^d, the input of thesis Alg 3.5.1")
    return arr, rr


def linf_level_estimates(rng: np.random.Generator, z: Any, m: Any, s: Any, ps: Sequence[Any]) -> np.ndarray:
    """The m unweighted per-level decoded estimates (b_hat^(1), ..., b_hat^(m-1), u_hat) of every client,
    an (m, n, d) float64 array (thesis Alg 3.5.1 quantizer digits, each level through R^Bin with its
    p_k, decoded per client as in Alg 3.3.2, truncated to the d real coordinates); z is (n, d) in [0, 1]."""
    _check_rng(rng)
    mm = _check_levels(m)
    zz = np.asarray(z, dtype=float)
    if zz.ndim != 2 or zz.size == 0 or np.isnan(zz).any() or (zz < 0).any() or (zz > 1).any():
        raise InvalidInputError("z must be an (n, d) array in [0, 1]")
    pk = _ps(mm, _check_s(s), ps, None)
    n, d = zz.shape
    scale = float(2 ** (mm - 1))
    K = np.minimum(np.floor(zz * scale), scale - 1)
    u = (rng.random(zz.shape) < (zz * scale - K)).astype(np.int64)
    Ki = K.astype(np.int64)
    out = np.empty((mm, n, d))
    a = -(-d // int(s))
    for k in range(1, mm + 1):
        bits = (Ki >> (mm - 1 - k)) & 1 if k < mm else u
        coords, _, y = bv.sample_binary_vector(rng, bits, s, pk[k - 1])
        est = np.zeros((n, int(s) * a))
        np.put_along_axis(est, coords, y, axis=1)
        out[k - 1] = est[:, :d]
    return out


def linf_sample_float(rng: np.random.Generator, x: Any, r: Any, m: Any, s: Any, *, ps: Sequence[Any] | None = None,
                      v: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """(x_hat_bar, x_hat_i) of R^{l_inf}_{v,m,s} + A^{l_inf} (thesis Algs 3.5.1-3.5.2) for the n rows of x
    in [-r, r]^d: per-client estimates x_hat_i = 2 r z_hat_i - r with z_hat_i = sum_{k<m} 2^{-k}
    b_hat^(k) + 2^{-(m-1)} u_hat ((n, d) array) and their mean (the aggregate, (d,) array).  Give the
    per-level 2RR parameters ``ps`` or the total budget ``v`` (water-filling split, eq. (3.26))."""
    arr, rr = _check_cube(x, r)
    mm = _check_levels(m)
    ss = _check_s(s)
    pk = _ps(mm, ss, ps, v)
    if ss > arr.shape[1]:
        raise ValidityConditionError(f"s = {s} must be in {{1, ..., d}} (thesis Alg 3.3.1)")
    levels = linf_level_estimates(rng, np.clip((arr + rr) / (2 * rr), 0.0, 1.0), mm, ss, pk)
    weights = np.array([2.0 ** -k for k in range(1, mm)] + [2.0 ** -(mm - 1)])
    z_hat = np.tensordot(weights, levels, axes=1)
    per_client = 2 * rr * z_hat - rr
    return per_client.mean(axis=0), per_client


def _check_s(s: Any) -> int:
    if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or int(s) < 1:
        raise InvalidInputError(f"s must be an integer >= 1, got {s!r}")
    return int(s)


def l2_linf_mechanism_float(rng: np.random.Generator, x: Any, r2: Any, m: Any, s: Any, *, ps: Sequence[Any] | None = None,
                            v: Any = None, beta: Any = None, r_inf: Any = None,
                            signs: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """(x_hat, x_hat_i) of R^{l2}_{v,m,s} + A^{l2} (thesis Algs 3.6.1-3.6.2) with the real l_inf step:
    shared signs (drawn from ``rng`` unless given), w_i = U x_i, clipping at r_inf (Thm 3.6.5 /
    (3.41) radius 10 r2 sqrt(log(dn/beta)/d) from ``beta``, or an explicit ``r_inf``), w_hat_i of
    :func:`linf_sample_float`, x_hat = U^T (mean_i w_hat_i) and the per-client x_hat_i = U^T w_hat_i.
    Rows of x must lie in B_2(r2); d a power of 2."""
    _check_rng(rng)
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 2 or arr.size == 0 or not np.all(np.isfinite(arr)):
        raise InvalidInputError("x must be a finite (n, d) array")
    n, d = arr.shape
    if d & (d - 1):
        raise InvalidInputError(f"d = {d} must be a power of 2 (the Hadamard rotation of Alg 3.6.1); pad with zeros")
    r2f = to_float_input(r2, "r2")
    if not r2f > 0:
        raise ValidityConditionError(f"r2 = {r2f} must be > 0")
    if np.any(np.linalg.norm(arr, axis=1) > r2f * (1 + 1e-12)):
        raise ValidityConditionError("a row is outside B_2(r2) (thesis Alg 3.6.1 input)")
    if (beta is None) == (r_inf is None):
        raise InvalidInputError("give exactly one of beta (Thm 3.6.5 radius) and r_inf (explicit radius)")
    r = l2.clip_radius_float(r2f, d, n, beta) if r_inf is None else to_float_input(r_inf, "r_inf")
    if not r > 0:
        raise ValidityConditionError(f"r_inf = {r} must be > 0")
    sg = rng.choice(np.array([-1.0, 1.0]), size=d) if signs is None else np.asarray(signs, dtype=float)
    w = np.clip(l2.rotate_float(arr, sg), -r, r)
    _, w_hat = linf_sample_float(rng, w, r, m, s, ps=ps, v=v)
    per_client = l2.inverse_rotate_float(w_hat, sg)
    return per_client.mean(axis=0), per_client
