"""Exact RDP of shuffled binary randomized response for the pair D = 0^n, D' = 0^{n-1}1 (thesis
Sec. 5.3.4): a high-precision oracle and a float64 fast path.

Binary randomized response (2RR): a user with bit b reports b with probability E/(E+1),
E = e^{eps0}; p = 1/(E+1), q = E/(E+1).  The shuffled output is the number k of ones.  With
k ~ Bin(n, p) = M(D) the likelihood ratio is affine in k (eq. (5.40), printed upside down in the
thesis: docs/errata.md, E-Thesis-5.40):

    r(k) := M(D')(k) / M(D)(k) = ((n - k) E^{-1} + k E) / n = 1 + c (k - mu),
    c = (E^2 - 1) / (n E),   mu = n / (E + 1),

so D_alpha(M(D') || M(D)) = log E_k[r^alpha] / (alpha-1) ("DprimeD", = (5.9) exactly) and
D_alpha(M(D) || M(D')) = log E_k[r^{1-alpha}] / (alpha-1) ("DDprime").  :func:`rr_pair_rdp_mp`
(mpmath, any real alpha > 1; exact inputs, floats refused) and :func:`rr_pair_rdp` (float64 log
space, vectorised over alpha; float inputs) compute these.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np

from bcdp.core.errors import CertificationError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision
from bcdp.shuffle.inputs import (
    check_count,
    check_direction,
    exact_alpha,
    exact_eps0,
    float_eps0,
    float_orders,
)
from bcdp.shuffle.logspace import (
    bernstein_halfwidth,
    log1p_exp,
    log_binom_pmf,
    log_g,
    logsumexp_rows,
)

# -- the pair 0^n vs 0^{n-1}1: mpmath oracle ----------------------------------------------------------

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
    n = check_count(n)
    check_direction(direction)
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    wp = dps + 20
    e0 = exact_eps0(eps0, wp + 30)
    a = exact_alpha(alpha, wp + 30)
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
    raise CertificationError("rr_pair_rdp_mp: could not resolve S - 1 (precision loop)")


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
    t = bernstein_halfwidth(var, L) + 2
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
        # tail == 0: the window is all of [0, n], S is the whole sum (S - 1 may round to <= 0 at wp
        # digits for a tiny eps0: the caller then raises the precision)
        if tail == 0 or tail <= mpmath.mpf(10) ** (-(dps + 10)) * (S - 1):
            return S + tail / 2  # midpoint of the enclosure [S, S + tail]
        t *= 1.5
    raise CertificationError("rr_pair_rdp_mp: window did not converge")


# -- the pair: float64 log-space fast path ------------------------------------------------------------

def rr_pair_log_moment(n: int, eps0: float, alphas: Any, direction: str = "DprimeD") -> np.ndarray:
    """log(E_{k~Bin(n,p)}[r^beta] - 1) for each alpha (float64; beta = alpha or 1 - alpha).

    Sums b(k) * g_beta(r(k) - 1) with g_beta(x) = (1+x)^beta - 1 - beta x >= 0 (E[r - 1] = 0 makes
    the two sums equal), so values down to 1e-300 keep full relative accuracy.  log b(k) is Loader's
    saddle-point form (:func:`log_binom_pmf`), x = r - 1 = c (k - mu) with c = 2 sinh(eps0)/n and
    mu = n/(E+1) (eq. (5.40)).  The k-window is chosen by Bernstein's inequality for the largest
    |beta| and checked a posteriori: neglected <= 2 e^{-L} (E^{|beta|} + |beta| E) must be below
    1e-17 of the sum (else the window is widened)."""
    n = check_count(n)
    check_direction(direction)
    e0 = float_eps0(eps0, allow_inf=False)
    a = float_orders(alphas, finite=True)
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

    tmax = bernstein_halfwidth(var, float(Ls.max())) + 2
    window(max(0, int(math.floor(mu - tmax))), min(n, int(math.ceil(mu + tmax))))
    for i in range(a.size):
        L = float(Ls[i])
        for _ in range(20):
            t = bernstein_halfwidth(var, L) + 2
            klo = max(0, int(math.floor(mu - t)))
            khi = min(n, int(math.ceil(mu + t)))
            ell, x = window(klo, khi)
            val = float(logsumexp_rows((ell + log_g(np.float64(beta[i]), x))[None, :])[0])
            if klo == 0 and khi == n:
                break
            b = abs(float(beta[i]))
            log_neglect = math.log(2) - L + float(np.logaddexp(b * e0, math.log(b) + e0))
            if log_neglect <= val - 39.0:
                break
            L += 40.0 + log_neglect - val
        else:
            raise CertificationError("rr_pair_log_moment: window did not converge")
        logS[i] = val
    return logS


def rr_pair_rdp(n: int, eps0: float, alphas: Any, direction: str = "DprimeD") -> np.ndarray:
    """Float64 RDP of the 2RR pair D = 0^n, D' = 0^{n-1}1 for an array of real alphas > 1.

    Same quantity as :func:`rr_pair_rdp_mp` ("DprimeD" = eq. (5.9) exactly): log(1 + X)/(alpha-1)
    with log X from :func:`rr_pair_log_moment` (log-space, no overflow, no cancellation).
    Benchmark (benchmarks/bench_shuffle_exact.py): n = 1e6, alpha = 2..256 in 0.04-0.4 s CPU
    (eps0 = 10 / 0.01 / 1); max relative deviation from the mpmath oracle 8e-13 on the grid
    n in {2, 10, 1e3, 1e5, 1e7} x eps0 in [0.01, 10] x alpha in [1.01, 256], both directions."""
    a = float_orders(alphas, finite=True)
    logX = rr_pair_log_moment(n, eps0, a, direction)
    return log1p_exp(logX) / (a - 1.0)


__all__ = ["rr_pair_log_moment", "rr_pair_rdp", "rr_pair_rdp_mp"]
