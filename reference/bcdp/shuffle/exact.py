"""Exact Renyi DP of n shuffled eps0-LDP reports (thesis Chapter 5): oracles and fast paths.

Setting (thesis Section 5.2, eq. (5.1)-(5.2)).  Each of n users applies the same eps0-LDP
randomizer R to its record; the shuffler outputs the multiset of reports, i.e. the histogram
h in A^n_B (eq. (5.2)); its law is the Poisson-multinomial F(P) of eq. (5.18).  The RDP curve is
eps(alpha) = sup over neighbouring D ~ D' (replacement of one record) of
D_alpha(M(D) || M(D')) = log E_{M(D')}[(M(D)/M(D'))^alpha] / (alpha - 1).

Binary randomized response (2RR).  A user with bit b reports b with probability E/(E+1),
E = e^{eps0}; write p = 1/(E+1), q = E/(E+1).  The shuffled output is the number k of ones.

* The lower-bound pair of Theorem 5.3.3 is D = 0^n, D' = 0^{n-1}1.  With k ~ Bin(n, p) = M(D),
  the likelihood ratio is affine in k (eq. (5.40), printed upside down in the thesis, see
  thesis_part1.md errata item 6):

      r(k) := M(D')(k) / M(D)(k) = ((n - k) E^{-1} + k E) / n = 1 + c (k - mu),
      c = (E^2 - 1) / (n E),   mu = n / (E + 1),

  so D_alpha(M(D') || M(D)) = log E_k[r^alpha] / (alpha-1)   ("DprimeD", = (5.9) exactly), and
  D_alpha(M(D) || M(D')) = log E_k[r^{1-alpha}] / (alpha-1)   ("DDprime").
  :func:`rr_pair_rdp_mp` (mpmath, any real alpha > 1) and :func:`rr_pair_rdp` (float64 log-space,
  vectorised over alpha) compute these.

* Every neighbouring pair.  If the other n-1 users hold j ones, the law of their count is
  pi_j = Bin(n-1-j, p) * Bin(j, q); the differing user's bit is 0 in D_j and 1 in D'_j, so
  M(D_j) = pi_j * Bern(p) and M(D'_j) = pi_j * Bern(q).  :func:`rr_worst_pair_rdp` maximises over
  j = 0..n-1 and both directions (the exact RDP curve of shuffled 2RR); see its docstring for the
  symmetry used (proved) and what was only observed (the maximiser).

General finite mechanisms, small n: :func:`shuffled_law` (exact Fractions, Poisson-multinomial by
convolution), :func:`subsampled_shuffled_law` (thesis (5.3): uniform k-of-n without replacement;
also Poisson sampling as used for Figure 5.5), :func:`shuffled_rdp_exact`, kernels
:func:`kary_rr_kernel` and :func:`random_ldp_kernel`.

Conventions.  Exact functions take ints, Fractions, strings ("1/3", "0.5", "log(2)"), sympy
numbers or mpmath mpf, and refuse Python floats; they return Fractions or mpmath values at the
stated ``dps``.  Float fast paths work in log space and are tested against the mpmath oracles.
Bad input (alpha <= 1, eps0 < 0, n < 1, NaN) raises ValueError; an infinite divergence is
reported as ``inf``, never NaN.
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction
from typing import Any, Iterable, Sequence

import mpmath
import numpy as np
import sympy

from bcdp.core.errors import FloatRefusedError
from bcdp.core.divergences import renyi_moment_exact  # noqa: F401  (re-exported)
from bcdp.core.numbers import to_fraction

__all__ = [
    "DIRECTIONS", "rr_pair_rdp_mp", "rr_pair_rdp", "rr_pair_log_moment", "rr_pair_over_j_mp",
    "rr_all_pairs_rdp", "rr_worst_pair_rdp", "rr_worst_vs_lower_pair",
    "shuffled_law", "subsampled_shuffled_law", "shuffled_rdp_exact", "subsampled_shuffled_rdp_exact",
    "renyi_moment_exact", "renyi_divergence_mp", "kary_rr_kernel", "random_ldp_kernel",
    "exact_exp_eps0", "log_binom_pmf",
]

#: "DprimeD" = D_alpha(M(D') || M(D)) (thesis (5.9)); "DDprime" = D_alpha(M(D) || M(D')).
DIRECTIONS = ("DprimeD", "DDprime")

Histogram = tuple


# =================================================================================================
# input validation
# =================================================================================================

def _check_direction(direction: str) -> str:
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    return direction


def _check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        if isinstance(n, float) and math.isfinite(n) and n == int(n):
            raise TypeError(f"n must be an int, got float {n!r}")
        raise TypeError(f"n must be an int, got {n!r}")
    n = int(n)
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return n


def _float_param(value: Any, name: str) -> float:
    if isinstance(value, bool):
        raise TypeError(f"{name}: booleans are not numbers")
    try:
        x = float(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: cannot read {value!r} as a number") from exc
    if math.isnan(x):
        raise ValueError(f"{name} is NaN")
    return x


def _check_eps0_float(eps0: Any) -> float:
    e = _float_param(eps0, "eps0")
    if e < 0:
        raise ValueError(f"eps0 must be >= 0, got {e}")
    if not math.isfinite(e):
        raise ValueError("eps0 must be finite")
    return e


def _check_alphas_float(alphas: Any) -> np.ndarray:
    a = np.atleast_1d(np.asarray(alphas, dtype=float))
    if a.ndim != 1:
        raise ValueError("alphas must be a scalar or a 1-d array")
    if np.isnan(a).any():
        raise ValueError("alpha is NaN")
    if (a <= 1).any():
        raise ValueError(f"alpha must be > 1, got {a[a <= 1][0]}")
    if not np.isfinite(a).all():
        raise ValueError("alpha must be finite")
    return a


def _exact_mp(value: Any, name: str, dps: int) -> mpmath.mpf:
    """An exact input (int, Fraction, decimal/ratio string, sympy expression such as log(2), or an
    mpf) rounded to ``dps`` digits; floats are refused."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: booleans are not numbers")
    if isinstance(value, (float, np.floating)):
        raise FloatRefusedError(f"{name}: floats are refused by exact functions (got {value!r}); "
                                "pass an int, a Fraction, a string such as '1/2' or 'log(2)', "
                                "a sympy number or an mpmath mpf")
    with mpmath.workdps(dps):
        if isinstance(value, mpmath.mpf):
            out = +value
        elif isinstance(value, (int, np.integer)):
            out = mpmath.mpf(int(value))
        elif isinstance(value, Fraction):
            out = mpmath.mpf(value.numerator) / value.denominator
        else:
            if isinstance(value, str):
                try:
                    out = _exact_mp(to_fraction(value, name), name, dps)
                except ValueError:
                    out = _exact_mp(sympy.sympify(value), name, dps)
            elif isinstance(value, sympy.Basic):
                if isinstance(value, sympy.Rational):
                    out = mpmath.mpf(int(value.p)) / int(value.q)
                else:
                    val = sympy.N(value, dps + 15)
                    if not val.is_real or not val.is_number:
                        raise ValueError(f"{name}: {value} is not a real number")
                    out = mpmath.mpf(str(val))
            else:
                out = _exact_mp(to_fraction(value, name), name, dps)
    if mpmath.isnan(out):
        raise ValueError(f"{name} is NaN")
    return out


def _exact_alpha(alpha: Any, dps: int) -> mpmath.mpf:
    a = _exact_mp(alpha, "alpha", dps)
    if not a > 1:
        raise ValueError(f"alpha must be > 1, got {alpha!r}")
    if mpmath.isinf(a):
        raise ValueError("alpha must be finite")
    return a


def _exact_eps0(eps0: Any, dps: int) -> mpmath.mpf:
    e = _exact_mp(eps0, "eps0", dps)
    if e < 0:
        raise ValueError(f"eps0 must be >= 0, got {eps0!r}")
    if mpmath.isinf(e):
        raise ValueError("eps0 must be finite")
    return e


def exact_exp_eps0(eps0: Any = None, *, exp_eps0: Any = None) -> Fraction:
    """E = e^{eps0} as an exact Fraction.  Give either ``eps0`` as the log of a rational
    (``sympy.log(3)``, the string ``"log(3)"``, or 0) or ``exp_eps0`` = E itself (rational >= 1)."""
    if (eps0 is None) == (exp_eps0 is None):
        raise ValueError("give exactly one of eps0 (log of a rational) and exp_eps0")
    if exp_eps0 is not None:
        E = to_fraction(exp_eps0, "exp_eps0")
    else:
        if isinstance(eps0, (float, np.floating)):
            raise FloatRefusedError("eps0: floats are refused; pass sympy.log(r) or 'log(r)'")
        expr = sympy.sympify(eps0) if isinstance(eps0, str) else sympy.sympify(eps0)
        if expr.has(sympy.nan):
            raise ValueError("eps0 is NaN")
        val = sympy.simplify(sympy.exp(expr))
        if not isinstance(val, sympy.Rational):
            raise ValueError(f"eps0 = {eps0} is not the log of a rational number (e^eps0 = {val}); "
                             "pass e.g. sympy.log(3) or 'log(3/2)', or exp_eps0=Fraction(3)")
        E = Fraction(int(val.p), int(val.q))
    if E < 1:
        raise ValueError(f"eps0 must be >= 0 (e^eps0 = {E} < 1)")
    return E


# =================================================================================================
# float64 log-binomial pmf (Loader's saddle-point form; accurate for huge n)
# =================================================================================================

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


# =================================================================================================
# log g_beta(x) = log((1+x)^beta - 1 - beta x), beta not in (0, 1), x > -1, without cancellation
# =================================================================================================

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


def _log_g(beta: np.ndarray, x: np.ndarray) -> np.ndarray:
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


def _log1p_exp(v: np.ndarray) -> np.ndarray:
    """log(1 + e^v), accurate for all v (-inf -> 0)."""
    v = np.asarray(v, dtype=float)
    with np.errstate(over="ignore"):
        return np.where(v > 0, v + np.log1p(np.exp(-np.abs(v))), np.log1p(np.exp(np.minimum(v, 0))))


def _logsumexp_rows(a: np.ndarray) -> np.ndarray:
    m = np.max(a, axis=-1)
    mm = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return mm + np.log(np.sum(np.exp(a - mm[..., None]), axis=-1))


def _bernstein_halfwidth(var: float, L: float) -> float:
    """t with exp(-t^2 / (2 (var + t/3))) <= e^{-L} (Bernstein's inequality for sums of
    independent Bernoulli variables with total variance var)."""
    return L / 3 + math.sqrt(L * L / 9 + 2 * var * L)


# =================================================================================================
# 2RR, pair 0^n vs 0^{n-1}1: mpmath oracle
# =================================================================================================

def rr_pair_rdp_mp(n: int, eps0: Any, alpha: Any, direction: str = "DprimeD",
                   dps: int = 60) -> mpmath.mpf:
    """Exact RDP of the 2RR pair D = 0^n, D' = 0^{n-1}1, at ``dps`` digits (mpmath).

    ``direction="DprimeD"``: D_alpha(M(D') || M(D)) = log E_{k~Bin(n,p)}[r(k)^alpha]/(alpha-1),
    which is thesis Theorem 5.3.3, eq. (5.9), exactly; ``"DDprime"``: D_alpha(M(D) || M(D'))
    = log E_{k~Bin(n,p)}[r(k)^(1-alpha)]/(alpha-1); r(k) = ((n-k)/E + kE)/n is eq. (5.40).
    Any real alpha > 1.  eps0 and alpha are exact (int, Fraction, str, sympy, mpf; no floats).

    The sum is over k in a window [k_lo, k_hi] around the mode; the neglected tails are bounded
    rigorously: the binomial ratio b(k+1)/b(k) = (n-k)p/((k+1)q) decreases in k, so beyond a point
    where it is rho < 1 the tail mass is <= b * rho/(1-rho) (geometric series), and r^beta is
    monotone in k, so it is bounded by its value at an end of the tail.  The window is widened
    until this bound is below 10^-(dps+10) * (S - 1), S the windowed sum; the working precision is
    raised until S - 1 carries dps+5 correct digits.  Cost ~ (window length) mpmath operations:
    about sqrt(2 n p q (|beta| eps0 + 2.3 dps)) terms each side (4e4 at n = 1e6, eps0 = 1)."""
    n = _check_n(n)
    _check_direction(direction)
    if not isinstance(dps, int) or dps < 15:
        raise ValueError("dps must be an int >= 15")
    wp = dps + 20
    e0 = _exact_eps0(eps0, wp + 30)
    a = _exact_alpha(alpha, wp + 30)
    if e0 == 0:
        return mpmath.mpf(0)
    for _ in range(8):
        with mpmath.workdps(wp):
            S = _rr_pair_moment_mp(n, e0, a, direction, wp, dps)
            excess = S - 1
            # S is accurate to ~10^-(wp-3) absolute; need dps+5 digits of S - 1
            if excess > 0 and excess > mpmath.mpf(10) ** (-(wp - dps - 8)):
                res = mpmath.log(S) / (a - 1)
                with mpmath.workdps(dps):
                    return +res
            need = -int(mpmath.floor(mpmath.log10(excess))) if excess > 0 else wp
            wp = wp + need + 10
    raise ArithmeticError("rr_pair_rdp_mp: could not resolve S - 1 (precision loop)")


def _rr_pair_moment_mp(n: int, e0: mpmath.mpf, a: mpmath.mpf, direction: str, wp: int,
                       dps: int) -> mpmath.mpf:
    """S = E_{k~Bin(n,p)}[r(k)^beta] at working precision wp (window + rigorous tail bound)."""
    E = mpmath.exp(e0)
    p = 1 / (E + 1)
    q = E / (E + 1)
    beta = a if direction == "DprimeD" else 1 - a
    rho_pq = p / q
    var = float(n * p * q)
    chi2_guess = float(abs(beta * (beta - 1)) / 2 * (E - 1) ** 2 / (E * n))
    L = float(abs(beta) * e0) + 2.31 * (dps + 12) + max(0.0, -math.log(max(chi2_guess, 1e-300)))
    t = _bernstein_halfwidth(var, L) + 2
    mode = int(mpmath.floor((n + 1) * p))
    mode = min(max(mode, 0), n)
    invE = 1 / E

    def r_of(k):
        return ((n - k) * invE + k * E) / n

    for _ in range(40):
        klo = max(0, int(math.floor(float(mode) - t)))
        khi = min(n, int(math.ceil(float(mode) + t)))
        with mpmath.workdps(wp + 15):
            logb = (mpmath.loggamma(n + 1) - mpmath.loggamma(klo + 1) - mpmath.loggamma(n - klo + 1)
                    + klo * mpmath.log(p) + (n - klo) * mpmath.log(q))
            b = mpmath.exp(logb)
        terms = []
        for k in range(klo, khi + 1):
            terms.append(b * mpmath.exp(beta * mpmath.log(r_of(k))))
            if k < n:
                b = b * (n - k) / (k + 1) * rho_pq
        S = mpmath.fsum(terms)
        # rigorous tail bounds
        tail = mpmath.mpf(0)
        if khi < n:
            # b now holds b(khi+1); ratio at khi+1
            rho = mpmath.mpf(n - khi - 1) / (khi + 2) * rho_pq
            if rho >= 1:
                t *= 2
                continue
            rmax = max(r_of(khi + 1) ** beta, r_of(n) ** beta)
            tail += b / (1 - rho) * rmax
        if klo > 0:
            with mpmath.workdps(wp + 15):
                logb_lo = (mpmath.loggamma(n + 1) - mpmath.loggamma(klo) - mpmath.loggamma(n - klo + 2)
                           + (klo - 1) * mpmath.log(p) + (n - klo + 1) * mpmath.log(q))
            b_lo = mpmath.exp(logb_lo)
            rho = mpmath.mpf(klo - 1) / (n - klo + 2) / rho_pq  # b(klo-2)/b(klo-1)
            if rho >= 1:
                t *= 2
                continue
            rmax = max(r_of(klo - 1) ** beta, r_of(0) ** beta)
            tail += b_lo / (1 - rho) * rmax
        if tail <= mpmath.mpf(10) ** (-(dps + 10)) * (S - 1):
            return S + tail / 2  # midpoint of the enclosure [S, S + tail]
        t *= 1.5
    raise ArithmeticError("rr_pair_rdp_mp: window did not converge")


# =================================================================================================
# 2RR pair: float64 log-space fast path
# =================================================================================================

def rr_pair_log_moment(n: int, eps0: float, alphas: Any, direction: str = "DprimeD") -> np.ndarray:
    """log(E_{k~Bin(n,p)}[r^beta] - 1) for each alpha (float64; beta = alpha or 1 - alpha).

    Sums b(k) * g_beta(r(k) - 1) with g_beta(x) = (1+x)^beta - 1 - beta x >= 0 (E[r - 1] = 0 makes
    the two sums equal), so values down to 1e-300 keep full relative accuracy.  log b(k) is Loader's
    saddle-point form (:func:`log_binom_pmf`), x = r - 1 = c (k - mu) with c = 2 sinh(eps0)/n and
    mu = n/(E+1) (eq. (5.40)).  The k-window is chosen by Bernstein's inequality for the largest
    |beta| and checked a posteriori: neglected <= 2 e^{-L} (E^{|beta|} + |beta| E) must be below
    1e-17 of the sum (else the window is widened)."""
    n = _check_n(n)
    _check_direction(direction)
    e0 = _check_eps0_float(eps0)
    a = _check_alphas_float(alphas)
    if e0 == 0:
        return np.full(a.shape, -np.inf)
    beta = a if direction == "DprimeD" else 1.0 - a
    E = math.exp(e0)
    p = 1.0 / (1.0 + E)
    q = 1.0 / (1.0 + 1.0 / E)
    var = n * p * q
    mu = n * p
    c = 2 * math.sinh(e0) / n
    # per-alpha window: L_i = |beta_i| eps0 + 40 + log(1/(chi_i * 1e-3)), chi_i ~ the excess
    chi = np.abs(beta * (beta - 1)) / 2 * (math.expm1(e0) ** 2) / (E * n)
    Ls = np.abs(beta) * e0 + 40.0 + np.maximum(0.0, -np.log(np.maximum(chi * 1e-3, 1e-300)))
    logS = np.empty(a.shape)
    cache = {"lo": 0, "hi": -1, "ell": np.empty(0), "x": np.empty(0)}

    def window(klo: int, khi: int) -> tuple[np.ndarray, np.ndarray]:
        if not (cache["lo"] <= klo and khi <= cache["hi"]):
            k = np.arange(klo, khi + 1, dtype=float)
            cache.update(lo=klo, hi=khi, ell=log_binom_pmf(k, n, p), x=c * (k - mu))
        o = klo - cache["lo"]
        return cache["ell"][o:o + khi - klo + 1], cache["x"][o:o + khi - klo + 1]

    tmax = _bernstein_halfwidth(var, float(Ls.max())) + 2
    window(max(0, int(math.floor(mu - tmax))), min(n, int(math.ceil(mu + tmax))))
    for i in range(a.size):
        L = float(Ls[i])
        for _ in range(20):
            t = _bernstein_halfwidth(var, L) + 2
            klo = max(0, int(math.floor(mu - t)))
            khi = min(n, int(math.ceil(mu + t)))
            ell, x = window(klo, khi)
            val = float(_logsumexp_rows((ell + _log_g(np.float64(beta[i]), x))[None, :])[0])
            if klo == 0 and khi == n:
                break
            b = abs(float(beta[i]))
            log_neglect = math.log(2) - L + float(np.logaddexp(b * e0, math.log(b) + e0))
            if log_neglect <= val - 39.0:
                break
            L += 40.0 + log_neglect - val
        else:
            raise ArithmeticError("rr_pair_log_moment: window did not converge")
        logS[i] = val
    return logS


def rr_pair_rdp(n: int, eps0: float, alphas: Any, direction: str = "DprimeD") -> np.ndarray:
    """Float64 RDP of the 2RR pair D = 0^n, D' = 0^{n-1}1 for an array of real alphas > 1.

    Same quantity as :func:`rr_pair_rdp_mp` ("DprimeD" = eq. (5.9) exactly): log(1 + X)/(alpha-1)
    with log X from :func:`rr_pair_log_moment` (log-space, no overflow, no cancellation).
    Benchmark (benchmarks/bench_shuffle_exact.py): n = 1e6, alpha = 2..256 in 0.04-0.4 s CPU
    (eps0 = 10 / 0.01 / 1); max relative deviation from the mpmath oracle 8e-13 on the grid
    n in {2, 10, 1e3, 1e5, 1e7} x eps0 in [0.01, 10] x alpha in [1.01, 256], both directions."""
    a = _check_alphas_float(alphas)
    logX = rr_pair_log_moment(n, eps0, a, direction)
    return _log1p_exp(logX) / (a - 1.0)


# =================================================================================================
# 2RR, all neighbouring pairs: mpmath brute force (small n) and float64 search over j
# =================================================================================================

def _mp_conv(a: list, b: list) -> list:
    out = [mpmath.mpf(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0:
            continue
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def renyi_divergence_mp(P: Sequence, Q: Sequence, alpha: mpmath.mpf) -> mpmath.mpf:
    """D_alpha(P || Q) for two pmfs on the same index set (mpmath values, current precision);
    inf if P puts mass where Q does not."""
    s = mpmath.mpf(0)
    for pk, qk in zip(P, Q):
        if pk == 0:
            continue
        if qk == 0:
            return mpmath.inf
        s += pk ** alpha * qk ** (1 - alpha)
    return mpmath.log(s) / (alpha - 1)


def rr_pair_over_j_mp(n: int, eps0: Any, alpha: Any, dps: int = 50) -> list[tuple]:
    """Brute force (mpmath, O(n^3)): for every j = 0..n-1 the pair D_j = (j ones among the other
    n-1 users, differing user 0), D'_j = (same, differing user 1); returns
    [(D_alpha(M(D_j)||M(D'_j)), D_alpha(M(D'_j)||M(D_j))) for j] ("DDprime", "DprimeD").
    Reference for :func:`rr_all_pairs_rdp`; small n only."""
    n = _check_n(n)
    with mpmath.workdps(dps + 20):
        e0 = _exact_eps0(eps0, dps + 20)
        a = _exact_alpha(alpha, dps + 20)
        E = mpmath.exp(e0)
        p, q = 1 / (E + 1), E / (E + 1)
        N = n - 1
        out = []
        for j in range(n):
            A = [mpmath.binomial(N - j, k) * p ** k * q ** (N - j - k) for k in range(N - j + 1)]
            B = [mpmath.binomial(j, k) * q ** k * p ** (j - k) for k in range(j + 1)]
            pi = _mp_conv(A, B)
            P = _mp_conv(pi, [q, p])
            Q = _mp_conv(pi, [p, q])
            out.append((renyi_divergence_mp(P, Q, a), renyi_divergence_mp(Q, P, a)))
    with mpmath.workdps(dps):
        return [(+x, +y) for x, y in out]


def _log_h1_fast(z: np.ndarray) -> np.ndarray:
    """log(e^z - 1 - z) directly (expm1; log form for z > 30); ~2 eps/|z| relative error."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if z.size == 0 or not np.max(z) > 30.0:
            return np.log(np.maximum(np.expm1(z) - z, 0.0))
        return np.where(z > 30.0, z + np.log1p(-(1.0 + z) * np.exp(-np.maximum(z, 30.0))),
                        np.log(np.maximum(np.expm1(np.minimum(z, 30.0)) - z, 0.0)))


def _log_g_fast(beta: float, x: np.ndarray) -> np.ndarray:
    """Cheap log((1+x)^beta - 1 - beta x): the two non-negative pieces of :func:`_log_g` evaluated
    directly (no series).  Measured relative error <= 2e-14/|x| per term, independent of beta
    (<= 1e-11 on sums dominated by |x| ~ 1/sqrt(n) at n = 1e7).  Used for the scan over j; the candidate
    maximisers are re-evaluated with :func:`_log_g`."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = np.log1p(x)
        if beta > 0:
            phi = np.log(np.maximum((1 + x) * u - x, 0.0))
            return np.logaddexp(math.log(beta - 1) + phi, u + _log_h1_fast((beta - 1) * u))
        h2 = np.log(np.maximum(x - u, 0.0))
        return np.logaddexp(_log_h1_fast(beta * u), math.log(-beta) + h2)


def _all_pairs_chunk(N: int, p: float, q: float, e0: float, a: float, jj: np.ndarray, t: float,
                     info: dict, accurate: bool = False,
                     bracket_steps: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """log(H - 1) for both directions (DDprime, DprimeD), for the pairs j in ``jj`` (ascending,
    all <= N/2).  See :func:`rr_all_pairs_rdp`.

    Recurrence.  pi_j = Bin(a, p) * Bin(b, q) (a = N - j, b = j) has generating function
    G = (q + p z)^a (p + q z)^b, and G'(z) (q+pz)(p+qz) = G(z) (a p (p+qz) + b q (q+pz)).  Comparing
    coefficients, with g_k = pi_j(k) and c_k = a p^2 + b q^2 - (p^2 + q^2) k:

        p q (k+1) g_{k+1} = c_k g_k + p q (N - k + 1) g_{k-1}.

    Forward, w_k = g_k/g_{k-1}:   w_{k+1} = (c_k + pq(N-k+1)/w_k) / (pq(k+1))   (all terms >= 0 while
    c_k >= 0, i.e. k <= k* = (a p^2 + b q^2)/(p^2 + q^2)).  Backward, v_k = g_k/g_{k+1}:
    v_{k-1} = (pq(k+1)/v_k - c_k) / (pq(N-k+1))   (all terms >= 0 while k >= k*).  Exact starts:
    w_0 = +inf (g_{-1} = 0), v_N = +inf (g_{N+1} = 0).  Each step is a decreasing map of the
    previous ratio, so starting M steps before the window from the bracket [c_{k-1}/(pq k), +inf]
    (resp. [-c_{k+1}/(pq(N-k)), +inf]) gives lower and upper ratios enclosing the true one at every
    later step; the enclosure must be < 4e-15 relative when the window is reached (it only
    tightens inside the positive region), otherwise the exact start is used.  Forward and
    backward ratios overlap at g_{m+1}/g_m, m = floor(k*), and must agree
    (info['max_junction_mismatch'])."""
    jc = jj.size
    s2 = p * p + q * q
    pq = p * q
    A = N - jj
    Bc = jj
    c0 = A * p * p + Bc * q * q
    kstar = c0 / s2
    m = np.clip(np.floor(kstar), 0, N).astype(np.int64)         # non-decreasing in j
    mean = A * p + Bc * q
    klo = np.maximum(0, np.floor(mean - t)).astype(np.int64)
    khi = np.minimum(N, np.ceil(mean + t)).astype(np.int64)
    Wj = khi - klo + 1
    Wc = int(Wj.max())
    K0 = int(klo.min())
    K1 = int(khi.max())
    buf = np.full((K1 - K0 + 2, jc), np.nan)    # buf[K - K0, j] = log pi_j(K)/pi_j(K-1)
    M = bracket_steps if bracket_steps is not None else max(200, Wc // 4)
    tol = 4e-15

    # ---------------- forward over K in [f_lo, f_hi]
    need_f = m >= klo + 1
    junc_f = None
    if need_f.any():
        f_lo = int(klo[need_f].min()) + 1
        f_hi = min(K1 + 1, int(m[need_f].max()) + 1)
        starts = [max(0, f_lo - 1 - M), 0] if f_lo - 1 - M > 0 else [0]
        for ks in starts:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                lo = np.full(jc, np.inf) if ks == 0 else np.maximum(c0 - s2 * (ks - 1), 0.0) / (pq * ks)
                hi = np.full(jc, np.inf)
                single = ks == 0
                failed = False
                for k in range(ks, f_hi):
                    ck = c0 - s2 * k
                    d = pq * (N - k + 1)
                    e = 1.0 / (pq * (k + 1))
                    if single:
                        lo = (ck + d / lo) * e
                    else:
                        lo, hi = (ck + d / hi) * e, (ck + d / lo) * e
                    K = k + 1
                    if K == f_lo and not single:
                        if np.any((hi - lo)[need_f] > tol * lo[need_f]):
                            failed = True
                            break
                        single = True
                    if K >= f_lo:
                        buf[K - K0] = np.log(lo)
            if not failed:
                info["bracket_starts" if ks > 0 else "exact_starts"] += 1
                break
        idx = np.clip(m + 1 - K0, 0, buf.shape[0] - 1)
        junc_f = buf[idx, np.arange(jc)].copy()

    # ---------------- backward over K in [b_bot, b_top]: writes log pi(K)/pi(K-1) = -log v_{K-1}
    first = np.maximum(m + 1, klo + 1)
    need_b = first <= khi
    if need_b.any():
        b_top = int(khi[need_b].max())
        b_bot = int(first[need_b].min())
        # j with m_j + 1 <= K form a prefix of the chunk (m is non-decreasing in j)
        starts = [min(N, b_top + M), N] if b_top + M < N else [N]
        for ke in starts:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                lo = np.full(jc, np.inf) if ke == N else np.maximum(-(c0 - s2 * (ke + 1)), 0.0) / (pq * (N - ke))
                hi = np.full(jc, np.inf)
                single = ke == N
                failed = False
                for k in range(ke, b_bot - 1, -1):
                    ck = c0 - s2 * k
                    e = 1.0 / (pq * (N - k + 1))
                    u = pq * (k + 1)
                    if single:
                        lo = (u / lo - ck) * e
                    else:
                        lo, hi = (u / hi - ck) * e, (u / lo - ck) * e
                    if k == b_top and not single:
                        if np.any((hi - lo)[need_b] > tol * lo[need_b]):
                            failed = True
                            break
                        single = True
                    if k <= b_top + 1:
                        cut = int(np.searchsorted(m, k - 1, side="right"))   # m_j <= k-1
                        if cut:
                            buf[k - K0, :cut] = -np.log(lo[:cut])
            if not failed:
                info["bracket_starts" if ke < N else "exact_starts"] += 1
                break
        if junc_f is not None:
            idx = np.clip(m + 1 - K0, 0, buf.shape[0] - 1)
            junc_b = buf[idx, np.arange(jc)]
            both = need_f & need_b & (m + 1 >= klo + 1) & (m + 1 <= khi)
            if both.any():
                mis = float(np.max(np.abs(junc_f[both] - junc_b[both])))
                info["max_junction_mismatch"] = max(info["max_junction_mismatch"], mis)
                if not mis <= 1e-8:
                    raise ArithmeticError(f"forward/backward recurrences disagree at the junction ({mis})")

    # ---------------- terms
    lq, lp = math.log(q), math.log(p)
    qmp = q - p
    x0, xN = -qmp / q, qmp / p
    out_dpd = np.empty(jc)
    out_dd = np.empty(jc)
    lg_fn = _log_g if accurate else _log_g_fast
    step = max(1, int(2_000_000 // Wc))
    cols = np.arange(Wc)
    for r0 in range(0, jc, step):
        rs = np.arange(r0, min(jc, r0 + step))
        Kmat = klo[rs, None] + cols[None, :]
        valid = cols[None, :] < Wj[rs, None]
        Rm = buf[np.clip(Kmat - K0, 0, buf.shape[0] - 1), rs[:, None]]
        Rm[:, 0] = 0.0
        Rm[~valid] = -np.inf
        lpi = np.cumsum(Rm, axis=1)
        lpi -= _logsumexp_rows(lpi)[:, None]
        d = Rm[:, 1:]                         # log pi(k)/pi(k-1), k = klo+1 .. klo+Wc-1
        v = valid[:, 1:]
        lP = np.logaddexp(lq + lpi[:, 1:], lp + lpi[:, :-1])
        with np.errstate(invalid="ignore", over="ignore"):
            ad = np.where(v, np.abs(d), 0.0)
            ed = np.exp(-ad)
            em = np.expm1(-ad)                # t - 1 if d >= 0, else (1 - t)/t
            x = np.where(d >= 0, qmp * em / (q + p * ed), -qmp * em / (q * ed + p))
        x = np.where(v, x, 0.0)
        # boundary outputs: k = 0 if klo = 0 (P(0) = q pi(0)); k = N+1 if khi = N (P = p pi(N))
        b0 = np.where(klo[rs] == 0, lq + lpi[:, 0], -np.inf)
        bN = np.where(khi[rs] == N, lp + lpi[np.arange(rs.size), Wj[rs] - 1], -np.inf)
        for beta, out in ((a, out_dpd), (1.0 - a, out_dd)):
            lg = lg_fn(np.float64(beta), x)
            terms = np.where(v, lP + lg, -np.inf)
            lg0 = float(_log_g(np.float64(beta), np.array([x0]))[0])
            lgN = float(_log_g(np.float64(beta), np.array([xN]))[0])
            allt = np.concatenate([terms, (b0 + lg0)[:, None], (bN + lgN)[:, None]], axis=1)
            out[rs] = _logsumexp_rows(allt)
    return out_dd, out_dpd


def rr_all_pairs_rdp(n: int, eps0: float, alpha: float, *, chunk_elems: int = 40_000_000,
                     accurate: bool = False, return_info: bool = False):
    """Float64 RDP of every neighbouring 2RR pair: arrays DD[j], DpD[j], j = 0..n-1, with
    DD[j] = D_alpha(M(D_j) || M(D'_j)) and DpD[j] = D_alpha(M(D'_j) || M(D_j)), where the other
    n-1 users hold j ones and the differing user holds 0 in D_j, 1 in D'_j (so j = 0 is the
    thesis' pair 0^n vs 0^{n-1}1 and DpD[0] is (5.9)).

    Symmetry (proved): flipping every bit maps D_j to D'_{n-1-j} and the output k to n - k (a
    bijection), so DpD[j] = DD[n-1-j].  Hence only j <= (n-1)/2 are computed, both directions at
    once (same base measure M(D_j)).

    Method per j: pi_j = Bin(n-1-j, p) * Bin(j, q) is built on the k-window [mean_j - t, mean_j + t]
    (Bernstein half-width t; the variance (n-1)pq is the same for all j) by the positive
    three-term recurrence of :func:`_all_pairs_chunk` (forward below k*_j, backward above, no
    subtraction; bracketed starts), vectorised over j.  Then M(D_j)(k) = q pi(k) + p pi(k-1) and
    x = M(D'_j)/M(D_j) - 1 = (q-p)(t-1)/(q+pt), t = pi(k-1)/pi(k); log(E[(1+x)^beta] - 1) is a
    log-sum-exp of log M(D_j) + log g_beta(x), beta = alpha (DprimeD) or 1 - alpha (DDprime).
    Neglected tails are bounded by 2 e^{-L} (E^alpha + alpha E) and checked against every sum.

    The scan over j uses the cheap :func:`_log_g_fast` (relative error <= 2e-14/|x| per term) unless
    ``accurate=True``; j = 0 and every j within 1e-9 (relative) of a direction's maximum are then
    recomputed with the accurate :func:`_log_g`."""
    n = _check_n(n)
    e0 = _check_eps0_float(eps0)
    a = float(_check_alphas_float(alpha)[0])
    t0 = time.perf_counter()
    info = {"max_junction_mismatch": 0.0, "exact_starts": 0, "bracket_starts": 0, "refined": []}
    if e0 == 0:
        z = np.zeros(n)
        info["seconds"] = 0.0
        return (z, z.copy(), info) if return_info else (z, z.copy())
    E = math.exp(e0)
    p = 1.0 / (1.0 + E)
    q = 1.0 / (1.0 + 1.0 / E)
    N = n - 1
    J = N // 2 + 1  # j = 0..floor(N/2)
    js = np.arange(J, dtype=float)
    var = N * p * q
    chi = a * (a - 1) / 2 * math.expm1(e0) ** 2 / (E * n)
    L = a * e0 + 40.0 + max(0.0, -math.log(max(chi * 1e-4, 1e-300)))

    def run(jvals: np.ndarray, L: float, accurate_flag: bool) -> tuple[np.ndarray, np.ndarray, float]:
        out_dd = np.empty(jvals.size)
        out_dpd = np.empty(jvals.size)
        t = _bernstein_halfwidth(var, L) + 2 if N > 0 else 0.0
        W = 2 * t + 4
        qp = q - p
        C = float(chunk_elems)
        jc = int((-W + math.sqrt(W * W + 4 * qp * C)) / (2 * qp)) if qp > 0 else int(C / W)
        jc = max(1, min(jvals.size, jc))
        for j0 in range(0, jvals.size, jc):
            dd, dpd = _all_pairs_chunk(N, p, q, e0, a, jvals[j0:j0 + jc], t, info, accurate_flag)
            out_dd[j0:j0 + jc] = dd
            out_dpd[j0:j0 + jc] = dpd
        return out_dd, out_dpd, t

    log_neg_base = math.log(2) + float(np.logaddexp(a * e0, math.log(a) + e0))
    for _ in range(10):
        logX_dd, logX_dpd, t = run(js, L, accurate)
        if N == 0:
            break
        worst = float(np.max(log_neg_base - L - np.minimum(logX_dd, logX_dpd)))
        if worst <= -36.0:
            break
        L += worst + 40.0
    else:
        raise ArithmeticError("rr_all_pairs_rdp: window did not converge")
    if not accurate and N > 0:
        cands = {0}
        for arr in (logX_dd, logX_dpd):
            mx = float(np.max(arr))
            cands.update(int(i) for i in np.nonzero(arr >= mx + math.log1p(-1e-8))[0][:8])
        cj = np.array(sorted(cands), dtype=float)
        rdd, rdpd, _ = run(cj, L, True)
        logX_dd[cj.astype(int)] = rdd
        logX_dpd[cj.astype(int)] = rdpd
        info["refined"] = [int(c) for c in cj]
    rdp_dd = _log1p_exp(logX_dd) / (a - 1)
    rdp_dpd = _log1p_exp(logX_dpd) / (a - 1)
    full_dd = np.empty(n)
    full_dpd = np.empty(n)
    full_dd[:J] = rdp_dd
    full_dpd[:J] = rdp_dpd
    rest = np.arange(J, n)          # symmetry: DpD[j] = DD[N - j], DD[j] = DpD[N - j]
    full_dd[rest] = rdp_dpd[N - rest]
    full_dpd[rest] = rdp_dd[N - rest]
    info["seconds"] = time.perf_counter() - t0
    info["window_halfwidth"] = t
    if return_info:
        return full_dd, full_dpd, info
    return full_dd, full_dpd


def rr_worst_pair_rdp(n: int, eps0: float, alpha: float) -> tuple[float, tuple[int, str]]:
    """The exact RDP curve of shuffled 2RR at one alpha: sup over all neighbouring pairs and both
    directions, with an attaining pair.  Returns (epsilon, (j, direction)): j = number of ones
    among the n-1 users that do not change, direction as in :data:`DIRECTIONS` with D = D_j
    (differing user 0) and D' = D'_j (differing user 1).  Float64.

    Reduction of the search (proved): (i) by symmetry of the users only the count j of ones among
    the others matters, and since the output is the count of ones, a dataset and its one-record
    neighbour are (j, 0 -> 1) for some j (a 1 -> 0 change is the same pair read in the other
    direction); (ii) flipping every bit maps (D_j, D'_j) to (D'_{n-1-j}, D_{n-1-j}) and the output
    k to n-k, so DprimeD(j) = DDprime(n-1-j).  So j <= (n-1)/2, both directions, covers all pairs.
    No further reduction is used: the search over j is complete (:func:`rr_all_pairs_rdp`,
    vectorised log-space recurrence), and ties go to the smallest j, "DDprime" first.

    Observed, not proved (tests/test_shuffle_exact.py, brute force in mpmath over all j for
    n <= 45 and the float search up to n = 1e5): j -> exp((alpha-1) DDprime(j)) is convex, so the
    maximum over j and both directions is at an end; it is attained at j = 0, "DDprime", i.e.
    D_alpha(M(0^n) || M(0^{n-1}1)) — the reverse of the thesis' lower-bound direction (5.9)
    (thesis_part2.md Section 3.1).  The convexity step, phi(Bp*Bp) + phi(Bq*Bq) >= 2 phi(Bp*Bq) for
    phi(mu) = H(sigma*mu), fails for some non-log-concave sigma, so a proof would have to use the
    log-concavity of the Poisson-binomial law of the other users.

    Runtime: O(n * window) with window ~ 2 sqrt(2 n p q (alpha eps0 + 60)); at n = 1e5,
    7-31 s of CPU time for alpha in [2, 256] (benchmarks/bench_shuffle_exact.py)."""
    dd, dpd = rr_all_pairs_rdp(n, eps0, alpha)
    return _argmax_pair(dd, dpd)


def rr_worst_vs_lower_pair(n: int, eps0: float, alpha: float) -> dict:
    """Worst pair vs the thesis' lower-bound pair (D = 0^n, D' = 0^{n-1}1, direction "DprimeD",
    eq. (5.9)): a dict with 'worst', 'worst_pair', 'lower_pair' (= (5.9)), 'lower_pair_reverse'
    (same datasets, "DDprime"), 'difference' = worst - lower_pair, 'ratio' = worst / lower_pair,
    'seconds' (search time)."""
    dd, dpd, info = rr_all_pairs_rdp(n, eps0, alpha, return_info=True)
    worst, pair = _argmax_pair(dd, dpd)
    low = float(dpd[0])
    return {"worst": worst, "worst_pair": pair, "lower_pair": low,
            "lower_pair_reverse": float(dd[0]), "difference": worst - low,
            "ratio": worst / low if low > 0 else math.inf, "seconds": info["seconds"],
            "info": info}


def _argmax_pair(dd: np.ndarray, dpd: np.ndarray) -> tuple[float, tuple[int, str]]:
    i_dd = int(np.argmax(dd))
    i_dpd = int(np.argmax(dpd))
    if dd[i_dd] >= dpd[i_dpd]:
        return float(dd[i_dd]), (i_dd, "DDprime")
    return float(dpd[i_dpd]), (i_dpd, "DprimeD")


# =================================================================================================
# general finite eps0-LDP mechanisms, small n (exact Fractions)
# =================================================================================================

def _check_kernel(kernel: Sequence[Sequence[Any]]) -> tuple[tuple[Fraction, ...], ...]:
    rows = tuple(tuple(to_fraction(x, "kernel entry") for x in row) for row in kernel)
    if not rows:
        raise ValueError("kernel has no rows")
    B = len(rows[0])
    if B == 0:
        raise ValueError("kernel has no outputs")
    for v, row in enumerate(rows):
        if len(row) != B:
            raise ValueError(f"kernel row {v} has {len(row)} entries, row 0 has {B}")
        if any(x < 0 for x in row):
            raise ValueError(f"kernel row {v} has a negative entry")
        if sum(row) != 1:
            raise ValueError(f"kernel row {v} sums to {sum(row)}, not 1")
    return rows


def _check_dataset(dataset: Sequence[int], n_inputs: int, name: str = "dataset") -> tuple[int, ...]:
    out = []
    for x in dataset:
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
            raise TypeError(f"{name}: records are input indices (ints), got {x!r}")
        if not 0 <= int(x) < n_inputs:
            raise ValueError(f"{name}: record {x} is not an input index 0..{n_inputs - 1}")
        out.append(int(x))
    return tuple(out)


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first,) + rest


def _multinomial_law(row: tuple[Fraction, ...], count: int) -> dict[Histogram, Fraction]:
    """Law of the histogram of ``count`` i.i.d. draws from ``row`` (exact)."""
    law: dict[Histogram, Fraction] = {}
    fact = math.factorial
    for h in _compositions(count, len(row)):
        coef = fact(count)
        pr = Fraction(1)
        for hj, pj in zip(h, row):
            coef //= fact(hj)
            if hj:
                pr *= pj ** hj
        if pr:
            law[h] = coef * pr
    return law


def _convolve_laws(a: dict[Histogram, Fraction], b: dict[Histogram, Fraction]) -> dict:
    out: dict[Histogram, Fraction] = {}
    for ha, pa in a.items():
        for hb, pb in b.items():
            h = tuple(x + y for x, y in zip(ha, hb))
            out[h] = out.get(h, Fraction(0)) + pa * pb
    return out


def shuffled_law(kernel: Sequence[Sequence[Any]], dataset: Sequence[int]) -> dict[Histogram, Fraction]:
    """Exact law of the shuffled output (the histogram h in A^n_B, thesis (5.2)) of ``dataset``:
    the Poisson-multinomial F(P) of thesis (5.18).  ``kernel[v][y]`` = P(R(v) = y) (Fractions;
    floats refused); ``dataset`` = sequence of input indices.  Computed by grouping equal records
    (a multinomial per input value) and convolving the groups.  Histograms of probability 0 are
    omitted; an empty dataset gives {(0,...,0): 1}."""
    rows = _check_kernel(kernel)
    data = _check_dataset(dataset, len(rows))
    B = len(rows[0])
    law: dict[Histogram, Fraction] = {(0,) * B: Fraction(1)}
    for v in sorted(set(data)):
        law = _convolve_laws(law, _multinomial_law(rows[v], data.count(v)))
    return law


def subsampled_shuffled_law(kernel: Sequence[Sequence[Any]], dataset: Sequence[int],
                            scheme: str = "uniform", rate_or_k: Any = None) -> dict[Histogram, Fraction]:
    """Exact law of the subsampled shuffled output.

    ``scheme="uniform"`` (thesis (5.3), Section 5.4, Theorems 5.4.1-5.4.2): a uniformly random
    subset of exactly k = ``rate_or_k`` of the n records (without replacement) is randomized and
    shuffled; the output is the histogram of the k reports (sums to k).  gamma = k/n.
    ``scheme="poisson"`` (Figure 5.5, "Poisson sub-sampling"): each record is included
    independently with probability gamma = ``rate_or_k`` (exact rational in [0, 1]); the output is
    the histogram of the included reports (its total, the sample size, is visible).  Computed as
    the shuffled law of the kernel extended by a "not sampled" output (dropped afterwards).
    The uniform law is the multivariate-hypergeometric mixture over which records are sampled."""
    rows = _check_kernel(kernel)
    data = _check_dataset(dataset, len(rows))
    n = len(data)
    B = len(rows[0])
    if scheme == "poisson":
        g = to_fraction(rate_or_k, "rate")
        if not 0 <= g <= 1:
            raise ValueError(f"Poisson rate must be in [0, 1], got {g}")
        ext = [tuple(g * x for x in row) + (1 - g,) for row in rows]
        law_ext = shuffled_law(ext, data)
        out: dict[Histogram, Fraction] = {}
        for h, pr in law_ext.items():
            out[h[:B]] = out.get(h[:B], Fraction(0)) + pr
        return out
    if scheme == "uniform":
        if isinstance(rate_or_k, bool) or not isinstance(rate_or_k, (int, np.integer)):
            raise TypeError(f"uniform subsampling takes the sample size k (int), got {rate_or_k!r}")
        k = int(rate_or_k)
        if not 0 <= k <= n:
            raise ValueError(f"sample size k must be in 0..{n}, got {k}")
        values = sorted(set(data))
        counts = [data.count(v) for v in values]
        total = math.comb(n, k)
        out = {}
        for s in itertools.product(*[range(c + 1) for c in counts]):
            if sum(s) != k:
                continue
            w = Fraction(math.prod(math.comb(c, si) for c, si in zip(counts, s)), total)
            sub = [v for v, si in zip(values, s) for _ in range(si)]
            for h, pr in shuffled_law(rows, sub).items():
                out[h] = out.get(h, Fraction(0)) + w * pr
        return out
    raise ValueError(f"scheme must be 'uniform' or 'poisson', got {scheme!r}")


def _renyi_laws_mp(P: dict, Q: dict, alpha: Any, dps: int) -> mpmath.mpf:
    """D_alpha(P || Q) of two exact laws (dicts of Fractions) at ``dps`` digits."""
    wp = dps + 20
    a = _exact_alpha(alpha, wp)
    for _ in range(6):
        with mpmath.workdps(wp):
            s = mpmath.mpf(0)
            for h, ph in P.items():
                if ph == 0:
                    continue
                qh = Q.get(h, Fraction(0))
                if qh == 0:
                    return mpmath.inf
                pm = mpmath.mpf(ph.numerator) / ph.denominator
                qm = mpmath.mpf(qh.numerator) / qh.denominator
                s += pm * mpmath.exp((a - 1) * (mpmath.log(pm) - mpmath.log(qm)))
            ex = s - 1
            if ex == 0 or ex > mpmath.mpf(10) ** (-(wp - dps - 8)):
                res = mpmath.log(s) / (a - 1)
                with mpmath.workdps(dps):
                    return +res
            wp += -int(mpmath.floor(mpmath.log10(abs(ex)))) + 10
    raise ArithmeticError("could not resolve the Renyi moment")


def shuffled_rdp_exact(kernel: Sequence[Sequence[Any]], D: Sequence[int], Dprime: Sequence[int],
                       alpha: Any, dps: int = 60, direction: str = "DDprime") -> mpmath.mpf:
    """Exact RDP of the shuffled mechanism for one pair of datasets (mpmath at ``dps`` digits, from
    the exact Fraction laws of :func:`shuffled_law`).  ``direction="DDprime"`` (default):
    D_alpha(M(D) || M(D')); ``"DprimeD"``: D_alpha(M(D') || M(D)).  Any real alpha > 1 (exact).
    Returns mpmath.inf when the first law is not absolutely continuous w.r.t. the second."""
    _check_direction(direction)
    if len(D) != len(Dprime):
        raise ValueError("D and D' must have the same size (replacement neighbours)")
    P, Q = shuffled_law(kernel, D), shuffled_law(kernel, Dprime)
    if direction == "DprimeD":
        P, Q = Q, P
    return _renyi_laws_mp(P, Q, alpha, dps)


def subsampled_shuffled_rdp_exact(kernel: Sequence[Sequence[Any]], D: Sequence[int],
                                  Dprime: Sequence[int], alpha: Any, scheme: str, rate_or_k: Any,
                                  dps: int = 60, direction: str = "DDprime") -> mpmath.mpf:
    """As :func:`shuffled_rdp_exact` for :func:`subsampled_shuffled_law` (same directions)."""
    _check_direction(direction)
    if len(D) != len(Dprime):
        raise ValueError("D and D' must have the same size (replacement neighbours)")
    P = subsampled_shuffled_law(kernel, D, scheme, rate_or_k)
    Q = subsampled_shuffled_law(kernel, Dprime, scheme, rate_or_k)
    if direction == "DprimeD":
        P, Q = Q, P
    return _renyi_laws_mp(P, Q, alpha, dps)


def kary_rr_kernel(K: int, eps0: Any = None, *, exp_eps0: Any = None) -> list[list[Fraction]]:
    """K-ary randomized response: P(y = x) = E/(E + K - 1), P(y = x') = 1/(E + K - 1), exact
    Fractions (E = e^{eps0} must be rational: eps0 = log(rational), or give exp_eps0).  K = 2 is
    the 2RR of this module (report the true bit w.p. E/(E+1))."""
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 2:
        raise ValueError(f"K must be an int >= 2, got {K!r}")
    E = exact_exp_eps0(eps0, exp_eps0=exp_eps0)
    Z = E + K - 1
    return [[E / Z if y == x else 1 / Z for y in range(K)] for x in range(K)]


def _rand_fraction(rng: Any, denom: int = 64) -> Fraction:
    return Fraction(int(rng.integers(0, denom + 1)), denom)


def random_ldp_kernel(rng: Any, K: int, eps0: Any = None, *, exp_eps0: Any = None,
                      n_outputs: int | None = None) -> list[list[Fraction]]:
    """A random eps0-LDP kernel with K inputs and ``n_outputs`` (default K) outputs, exact
    Fractions: every column satisfies max/min <= E = e^{eps0} (E rational: eps0 = log(rational),
    or give exp_eps0).  ``rng`` is a numpy Generator.

    Construction: a random positive base a_y with s = sum a in [1/E, 1]; every row is
    r_v(y) = a_y (1 + (E-1) phi_v(y)) with phi_v in [0,1]^B rescaled so that sum r_v = 1.  Then
    a_y <= r_v(y) <= E a_y, so any two rows have ratio <= E; the scale of phi is random, so the
    bound is often nearly attained."""
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or K < 1:
        raise ValueError(f"K must be an int >= 1, got {K!r}")
    B = K if n_outputs is None else int(n_outputs)
    if B < 1:
        raise ValueError("n_outputs must be >= 1")
    E = exact_exp_eps0(eps0, exp_eps0=exp_eps0)
    raw = [Fraction(int(rng.integers(1, 65)), 64) for _ in range(B)]
    if E == 1:
        tot = sum(raw)
        row = [x / tot for x in raw]
        return [list(row) for _ in range(K)]
    u = _rand_fraction(rng)
    s = 1 / E + (1 - 1 / E) * u
    tot = sum(raw)
    base = [s * x / tot for x in raw]
    target = (1 - s) / (E - 1)          # need sum_y base_y phi_y = target, 0 <= target <= s
    rows = []
    for _ in range(K):
        phi = [_rand_fraction(rng) for _ in range(B)]
        acc = sum(b * f for b, f in zip(base, phi))
        if acc > target:
            phi = [f * target / acc for f in phi]
        elif acc < target:
            lam = (s - target) / (s - acc)
            phi = [1 - (1 - f) * lam for f in phi]
        row = [b * (1 + (E - 1) * f) for b, f in zip(base, phi)]
        assert sum(row) == 1
        rows.append(row)
    return rows
