"""Float64 log-space kernels of the exact shuffled-2RR paths (thesis Ch. 5): a log-binomial pmf
accurate for huge n, log g_beta(x) = log((1+x)^beta - 1 - beta x) without cancellation, and small
helpers (log(1 + e^v), row-wise log-sum-exp, Bernstein window half-widths).

These are the hot-loop primitives of :mod:`bcdp.shuffle.rr_pair` and :mod:`bcdp.shuffle.rr_all_pairs`
(numpy, vectorised); they are tested against mpmath in tests/shuffle/test_shuffle_exact.py through
those modules.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np

# -- float64 log-binomial pmf (Loader's saddle-point form; accurate for huge n) ----------------------

def _stirlerr_table() -> np.ndarray:
    with mpmath.workdps(40):
        return np.array([float(mpmath.loggamma(k + 1) - (k + mpmath.mpf(1) / 2) * mpmath.log(k)
                               + k - mpmath.log(2 * mpmath.pi) / 2) if k > 0 else 0.0
                         for k in range(16)])


_STIRLERR = _stirlerr_table()


def _stirlerr(k: np.ndarray) -> np.ndarray:
    """log(k!) - log(sqrt(2 pi k) (k/e)^k) for integer k >= 1 (0 at k = 0, unused)."""
    k = np.asarray(k, dtype=float)
    out = np.empty_like(k)
    small = k <= 15
    out[small] = _STIRLERR[k[small].astype(int)]
    kk = k[~small]
    nn = kk * kk
    s0, s1, s2, s3, s4 = 1 / 12, 1 / 360, 1 / 1260, 1 / 1680, 1 / 1188
    out[~small] = (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / kk
    return out


def _bd0(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    """x log(x/m) + m - x without cancellation (Loader 2000)."""
    x = np.asarray(x, dtype=float)
    m = np.broadcast_to(np.asarray(m, dtype=float), x.shape)
    out = np.empty_like(x)
    near = np.abs(x - m) < 0.1 * (x + m)
    xs, ms = x[near], m[near]
    v = (xs - ms) / (xs + ms)
    s = (xs - ms) * v
    ej = 2 * xs * v
    v2 = v * v
    for j in range(1, 12):
        ej = ej * v2
        s = s + ej / (2 * j + 1)
    out[near] = s
    xf, mf = x[~near], m[~near]
    with np.errstate(divide="ignore", invalid="ignore"):
        out[~near] = np.where(xf > 0, xf * np.log(xf / mf), 0.0) + mf - xf
    return out


def log_binom_pmf(k: Any, n: int, p: float) -> np.ndarray:
    """log P[Bin(n, p) = k], float64, for integer arrays k (-inf outside 0..n).

    Loader's form  stirlerr(n) - stirlerr(k) - stirlerr(n-k) - bd0(k, np) - bd0(n-k, nq)
    - log(2 pi k (n-k)/n)/2: absolute error ~1e-15 even at n = 1e7, where
    lgamma(n+1) - lgamma(k+1) - lgamma(n-k+1) loses ~1e-8 to cancellation."""
    k = np.asarray(k, dtype=float)
    q = 1.0 - p if p < 0.25 else None
    out = np.full(k.shape, -np.inf)
    inside = (k >= 0) & (k <= n)
    kk = k[inside]
    res = np.empty_like(kk)
    lq = math.log1p(-p)
    lp = math.log(p)
    if q is None:
        q = 1.0 - p
    e0 = kk == 0
    en = kk == n
    res[e0] = n * lq
    res[en] = n * lp
    mid = ~(e0 | en)
    km = kk[mid]
    lc = (_stirlerr(np.array([n]))[0] - _stirlerr(km) - _stirlerr(n - km)
          - _bd0(km, n * p) - _bd0(n - km, n * q))
    lf = math.log(2 * math.pi) + np.log(km) + np.log1p(-km / n)
    res[mid] = lc - 0.5 * lf
    out[inside] = res
    return out


# -- log g_beta(x) = log((1+x)^beta - 1 - beta x), beta not in (0, 1), x > -1, no cancellation ------

_INV_FACT = np.array([1.0 / math.factorial(m + 2) for m in range(15)])  # 1/(m+2)!, |y| <= 1/2


def _n_terms(z: np.ndarray, cap: int) -> int:
    """Number of series terms so that max|z|^terms < 1e-17 (the series used have coefficient
    ratios <= 1, and are only used for |z| <= 1/2), at most ``cap``."""
    if z.size == 0:
        return 0
    zm = float(np.max(np.abs(z)))
    if zm <= 1e-300:
        return 1
    return int(min(cap, max(1, math.ceil(17.0 / -math.log10(zm)) + 1)))


def _log_h1(y: np.ndarray) -> np.ndarray:
    """log(e^y - 1 - y) (>= 0 argument; -inf at y = 0)."""
    out = np.empty_like(y)
    small = np.abs(y) <= 0.5
    ys = y[small]
    acc = np.zeros_like(ys)
    nt = _n_terms(ys, len(_INV_FACT))
    for c in _INV_FACT[:nt][::-1]:
        acc = acc * ys + c
    with np.errstate(divide="ignore"):
        out[small] = 2 * np.log(np.abs(ys)) + np.log(acc)
    big = y > 0.5
    yb = y[big]
    out[big] = yb + np.log1p(-(1 + yb) * np.exp(-yb))
    neg = y < -0.5
    yn = y[neg]
    out[neg] = np.log(-yn - 1 + np.exp(yn))
    return out


def _log_abs_h2(x: np.ndarray) -> np.ndarray:
    """log(x - log1p(x)) for x > -1 (-inf at x = 0, +inf as x -> -1)."""
    out = np.empty_like(x)
    small = np.abs(x) <= 0.1
    xs = x[small]
    acc = np.zeros_like(xs)
    for m in range(_n_terms(xs, 17) - 1, -1, -1):   # 0.1^17/19 < 1e-18
        acc = acc * (-xs) + 1.0 / (m + 2)
    with np.errstate(divide="ignore"):
        out[small] = 2 * np.log(np.abs(xs)) + np.log(acc)
    xb = x[~small]
    with np.errstate(divide="ignore"):
        out[~small] = np.log(xb - np.log1p(xb))
    return out


def _log_phi(x: np.ndarray) -> np.ndarray:
    """log((1+x) log1p(x) - x) for x > -1 (the function is >= 0; -inf at 0).  Series
    sum_{m>=2} (-x)^m / (m (m-1)) for |x| <= 1/10, direct otherwise (<= ~20 ulps lost)."""
    out = np.empty_like(x)
    small = np.abs(x) <= 0.1
    xs = x[small]
    acc = np.zeros_like(xs)
    for m in range(_n_terms(xs, 17) + 1, 1, -1):       # coefficients 1/(m(m-1)), m >= 2
        acc = acc * (-xs) + 1.0 / (m * (m - 1))
    with np.errstate(divide="ignore"):
        out[small] = 2 * np.log(np.abs(xs)) + np.log(acc)
        xb = x[~small]
        out[~small] = np.log((1 + xb) * np.log1p(xb) - xb)
    return out


def log_g(beta: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Elementwise log((1+x)^beta - 1 - beta*x) for x >= -1, beta > 1 or beta <= 0 (broadcast).

    The function is >= 0 (convex minus its tangent at x = 0), and E_mu[g(r - 1)] = E_mu[r^beta] - 1
    when E_mu[r] = 1, so summing it avoids the cancellation in E[r^beta] - 1.  With u = log1p(x)
    and h1(z) = e^z - 1 - z >= 0 it is written as a sum of two non-negative terms:
      beta > 1:  g = (beta-1) [(1+x) u - x] + (1+x) h1((beta-1) u)   (from (1+x)^beta = (1+x) e^{(beta-1)u});
      beta <= 0: g = h1(beta u) + |beta| (x - u).
    Each piece is evaluated by a series near 0 (:func:`_log_phi`, :func:`_log_h1`,
    :func:`_log_abs_h2`), so there is no cancellation, even as beta -> 1."""
    beta, x = np.broadcast_arrays(np.asarray(beta, dtype=float), np.asarray(x, dtype=float))
    beta = beta.astype(float)
    x = x.astype(float)
    out = np.empty(x.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = np.log1p(x)
        pos = beta > 0
        if pos.any():
            xp, bp, up = x[pos], beta[pos], u[pos]
            z = (bp - 1) * up
            lh1 = np.full(z.shape, np.inf)
            fin = np.isfinite(z)
            lh1[fin] = _log_h1(z[fin])
            res = np.logaddexp(np.log(bp - 1) + _log_phi(xp), up + lh1)
            res[xp == 0] = -np.inf
            out[pos] = res
        neg = ~pos
        if neg.any():
            xn, bn, un = x[neg], beta[neg], u[neg]
            y = bn * un
            lh1 = np.full(y.shape, np.inf)
            fin = np.isfinite(y)
            lh1[fin] = _log_h1(y[fin])
            res = np.logaddexp(lh1, np.log(np.abs(bn)) + _log_abs_h2(xn))
            res[xn == 0] = -np.inf
            out[neg] = res
    return out


def log1p_exp(v: np.ndarray) -> np.ndarray:
    """log(1 + e^v), accurate for all v (-inf -> 0)."""
    v = np.asarray(v, dtype=float)
    with np.errstate(over="ignore"):
        return np.where(v > 0, v + np.log1p(np.exp(-np.abs(v))), np.log1p(np.exp(np.minimum(v, 0))))


def logsumexp_rows(a: np.ndarray) -> np.ndarray:
    m = np.max(a, axis=-1)
    mm = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return mm + np.log(np.sum(np.exp(a - mm[..., None]), axis=-1))


def bernstein_halfwidth(var: float, L: float) -> float:
    """t with exp(-t^2 / (2 (var + t/3))) <= e^{-L} (Bernstein's inequality for sums of
    independent Bernoulli variables with total variance var)."""
    return L / 3 + math.sqrt(L * L / 9 + 2 * var * L)


__all__ = ["bernstein_halfwidth", "log1p_exp", "log_binom_pmf", "log_g", "logsumexp_rows"]
