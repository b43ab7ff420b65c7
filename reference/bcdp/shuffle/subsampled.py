"""The subsampled shuffle model beyond thesis Sec. 5.4: the [GDD21e] baseline and a sound route for
Poisson subsampling (thesis Ch. 5, Sec. 5.5, Figs 5.5 and 5.6).

Neighbouring-relation caveat (found here, see the claim check ``thesis_subsampled_rdp_transforms``):
the shuffled histogram reveals how many reports it holds, so the shuffle is *not* RDP for add/remove
neighbours (eps = inf); the thesis' Fig. 5.5 route "Thm 5.3.1 (replacement RDP) + [ZW19, Thm 6]"
plugs a replacement-RDP curve into an add/remove theorem
(:func:`bcdp.accounting.subsampling.zw19_thm6`).  With the exact laws (Poisson subsampling,
replacement neighbours, sample size visible) that combination is violated, e.g. binary RR with
e^{eps0} = 8, n = 2, gamma = 1/4, alpha = 2.  ZW19 is therefore used for Fig. 5.5 only as "the
thesis' reading", never as a guarantee (erratum E-Thesis-Fig55-ZW19).

A sound Poisson route (derived here; elementary): a Poisson(gamma) sample of the n records,
conditioned on its size t, is a uniformly random t-subset.  The released histogram shows t, and t
has the same Bin(n, gamma) law under both neighbours, so for every pair D, D' (replacement)

    E_Q[(P/Q)^alpha] = sum_{t=0}^n Bin(n, gamma)(t) E_{Q_t}[(P_t/Q_t)^alpha]                  (*)

with P_t, Q_t the laws of the t-of-n uniformly subsampled shuffle (the thesis' model (5.3)); t = 0
contributes 1.  Hence any bound eps_U(alpha; n, t) on that model (Thm 5.4.1, or [WBK19, Thm 9]
composed with a shuffle bound at t) gives
eps_Poisson(alpha) <= log(sum_t Bin(t) e^{(alpha-1) eps_U(t)})/(alpha-1).  (*) is checked with exact
Fractions against ``subsampled_shuffled_law(..., "poisson")`` of :mod:`bcdp.shuffle.exact`.

[GDD21e] as quoted in thesis Sec. 3.3.1, Lemma 3.3.1, eq. (3.5): for eps0 > 0 and
alpha^4 e^{5 eps0} <= n/9, the shuffle of n eps0-LDP reports has
eps(alpha) <= log(1 + 2 alpha(alpha-1)(e^{eps0}-1)^2/n)/(alpha-1) (<= 2 alpha (e^{eps0}-1)^2/n).
The text extraction prints the coefficient as "alpha(alpha-1) 2"; the reading 2 alpha(alpha-1) is
the one consistent with the printed second inequality (log(1+x)/(alpha-1) <= x/(alpha-1) =
2 alpha (E-1)^2/n) and with Cor 5.3.1 (5.5), 4 C(alpha,2) = 2 alpha(alpha-1).  Outside the
condition the value is not a claim: :func:`gdd21e_rdp` raises ``ValidityConditionError``; the
float twin returns +inf.

Numerics and inputs: the mpmath functions work at ``dps`` digits (default 60), return
``mpmath.mpf`` and refuse floats (:mod:`bcdp.shuffle.inputs`); the ``*_float`` functions are
float64 log space over arrays of integer orders, tested against them.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import mpmath
import numpy as np

from bcdp.accounting.inputs import (
    check_rate,
    check_rdp_value,
    float_rate,
    integer_order,
    integer_orders,
    log_over,
)
from bcdp.core.errors import ValidityConditionError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision
from bcdp.shuffle.inputs import (
    DEFAULT_DPS,
    check_alpha,
    check_count,
    check_eps0,
    condition_gap_sign,
    float_eps0,
)
from bcdp.shuffle.shuffled_bounds import cor531_upper

__all__ = ["gdd21e_condition", "gdd21e_rdp", "gdd21e_rdp_float", "poisson_mixture_rdp", "thm541_poisson_float"]


# -- [GDD21e] Lemma 3.3.1 / (3.5) -------------------------------------------------------------------

def gdd21e_condition(n: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> bool:
    """alpha^4 e^{5 eps0} <= n/9 (thesis Sec. 3.3.1, Lemma 3.3.1; note <=, Cor 5.3.1 has <), decided
    exactly at eps0 = 0 and on arb balls otherwise (:func:`~bcdp.shuffle.inputs.condition_gap_sign`:
    certified, so ``dps`` only validates the signature)."""
    check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = check_alpha(alpha, integer=True)
    if mpmath.isinf(e):
        return False
    if e == 0:
        return 9 * int(a) ** 4 <= n
    return condition_gap_sign(n, eps0, int(a)) <= 0


def gdd21e_rdp(n: int, eps0: Any, alpha: Any, *, enforce: bool = True,
               dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[GDD21e] as quoted in thesis Lemma 3.3.1, eq. (3.5): for eps0 > 0, integer alpha >= 2 and
    alpha^4 e^{5 eps0} <= n/9, the shuffle of n eps0-LDP reports (replacement neighbours) has
    eps(alpha) <= log(1 + 2 alpha(alpha-1)(e^{eps0}-1)^2/n)/(alpha-1).  Outside the condition a
    ``ValidityConditionError`` is raised (``enforce=False`` evaluates the formula anyway; the
    value is then NOT a bound and is used only to report what ignoring the condition would give)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if enforce and e == 0:
        raise ValidityConditionError("Lemma 3.3.1 is stated for eps0 > 0")
    if enforce and not gdd21e_condition(n, eps0, a, dps=dps):
        raise ValidityConditionError(
            f"Lemma 3.3.1 [GDD21e] needs alpha^4 e^(5 eps0) <= n/9; alpha={a}, eps0={eps0}, n={n} violate it")
    # 2 alpha (alpha - 1) = 4 C(alpha, 2): the value is Cor 5.3.1's (5.5); only the validity
    # condition (<= here, < there) and eps0 > 0 differ, and they are enforced above.
    return cor531_upper(n, eps0, a, form="5.5", enforce=False, dps=dps)


def gdd21e_rdp_float(n: int, eps0: float, alphas: Sequence[int] | np.ndarray, *,
                     enforce: bool = True) -> np.ndarray:
    """Float twin of :func:`gdd21e_rdp`; +inf at orders outside the validity condition (decided
    with a 1e-12 relative guard towards 'invalid') unless ``enforce=False``."""
    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = integer_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    a = arr.astype(float)
    from bcdp.shuffle.float_bounds import cor531_upper_float  # scipy: only when a float twin runs

    out = cor531_upper_float(n, e, arr, enforce=False)  # (3.5) is Cor 5.3.1's (5.5); own condition below
    if enforce:
        ok = (4 * np.log(a) + 5 * e) * (1 + 1e-12) <= math.log(n / 9)
        if e == 0:
            ok = np.zeros(arr.shape, dtype=bool)
        out = np.where(ok, out, np.inf)
    return out


# -- sound Poisson route (*) ------------------------------------------------------------------------

def poisson_mixture_rdp(n: int, gamma: Any, alpha: Any, eps_uniform: Callable[[int], Any], *,
                        dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Identity (*) of the module docstring as a bound: eps_Poisson(alpha) <=
    log(sum_{t=0}^n Bin(n, gamma)(t) e^{(alpha-1) eps_U(t)})/(alpha-1), with ``eps_uniform(t)``
    (t = 1..n) any bound on the t-of-n uniformly subsampled shuffle (replacement neighbours) and
    the t = 0 term equal to 1.  Exact sum over all t (use for small n); gamma in (0, 1]."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    a = integer_order(alpha)
    with mpmath.workdps(dps + 10):
        g = check_rate(gamma)
        x = (1 - g) ** n
        for t in range(1, n + 1):
            v = check_rdp_value(eps_uniform(t), f"U,t={t}")
            w = mpmath.binomial(n, t) * g ** t * (1 - g) ** (n - t)
            if w == 0:
                continue
            if mpmath.isinf(v):
                return mpmath.inf
            x += w * mpmath.exp((a - 1) * v)
        val = log_over(x, a)
    with mpmath.workdps(dps):
        return +val


def _thm541_log_moment_t(n: int, t: np.ndarray, eps0: float, a: int) -> np.ndarray:
    """log of the Thm 5.4.1 moment bound 1 + quad + sum + Upsilon at order a for k = t (t >= 1),
    gamma = t/n, vectorised over t (float64, log space).  kbar is floored with a relative guard
    that can only lower it (a looser bound)."""
    from scipy.special import gammaln, logsumexp

    inv_E = math.exp(-eps0)
    tt = t.astype(float)
    kb = np.floor((tt - 1) / 2 * inv_E * (1 - 1e-12)) + 1
    lg = np.log(tt / n)
    log_em1 = eps0 + math.log(-math.expm1(-eps0))  # log(E - 1), no overflow at large eps0
    lquad = math.log(2 * a * (a - 1)) + 2 * lg + 2 * log_em1 - np.log(kb) - eps0
    cols = [np.zeros_like(tt), lquad]
    log_1m = math.log(-math.expm1(-2 * eps0))    # log(1 - E^-2), accurate for tiny and large eps0
    log_c = eps0 + log_1m                         # log(E - 1/E)
    lam = np.arange(2, a + 1, dtype=float)
    lcomb = gammaln(a + 1) - gammaln(lam + 1) - gammaln(a - lam + 1)
    # Upsilon = sum_{l=2}^a C(a,l) (gamma c)^l, times e^{-(t-1)/(8E)}
    ltail = logsumexp(lcomb[None, :] + lam[None, :] * (lg[:, None] + log_c), axis=1) - (tt - 1) * inv_E / 8
    cols.append(ltail)
    if a >= 3:
        j = np.arange(3, a + 1, dtype=float)
        log_y_half = (math.log(2) + 2 * eps0 + 2 * log_1m - np.log(kb)) / 2
        spec = (lcomb[1:][None, :] + np.log(j)[None, :] + gammaln(j / 2)[None, :]
                + j[None, :] * (log_y_half[:, None] + lg[:, None]))
        cols.append(logsumexp(spec, axis=1))
    return logsumexp(np.vstack(cols), axis=0)


def thm541_poisson_float(n: int, gamma: float, eps0: float, alphas: Sequence[int] | np.ndarray, *,
                         window_sd: float | None = None) -> np.ndarray:
    """Sound Poisson-subsampled shuffle RDP bound (float64): identity (*) with Thm 5.4.1 at
    (n, t) for t in a window of +-``window_sd`` standard deviations around n gamma (default
    sqrt(2((max alpha - 1) eps0 + 50)), at least 15, so that the charged tail is negligible at
    every requested order), each moment
    capped at e^{(alpha-1) eps0} (the subsampled shuffle is eps0-DP), and the Bin(n, gamma) mass
    outside the window charged e^{(alpha-1) eps0} (so the window only costs tightness)."""
    from scipy.special import logsumexp
    from scipy.stats import binom

    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    g = float_rate(gamma)
    arr = integer_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    if e == 0:
        return np.zeros(arr.shape)
    if window_sd is None:
        window_sd = max(15.0, math.sqrt(2 * ((int(arr.max()) - 1) * e + 50)))
    mean, sd = n * g, math.sqrt(n * g * (1 - g))
    lo = max(0, int(math.floor(mean - window_sd * sd)))
    hi = min(n, int(math.ceil(mean + window_sd * sd)))
    t = np.arange(lo, hi + 1)
    lpmf = binom.logpmf(t, n, g)
    l_below = binom.logcdf(lo - 1, n, g) if lo > 0 else -math.inf
    l_out = float(np.logaddexp(l_below, binom.logsf(hi, n, g)))
    pos = t >= 1
    out = np.empty(arr.shape)
    for idx, a in enumerate(arr):
        a = int(a)
        lm = np.zeros(t.shape)  # t = 0: both neighbours release the empty histogram, moment 1
        lm[pos] = np.minimum(_thm541_log_moment_t(n, t[pos], e, a), (a - 1) * e)
        # The Bin(n, gamma) weights sum to 1, so the mixture is 1 + sum_t w_t (M_t - 1) + P_out (cap - 1):
        # summing the excesses (log(M - 1) = lm + log(1 - e^{-lm})) and adding the 1 exactly keeps the
        # value relatively accurate; summing w_t M_t in log space lost it to the rounding of the
        # weights (at n = 10^6, gamma = 1e-6 scipy's pmf sums to 1 - 7e-11, an excess of 6e-11
        # was returned as 0: below the Thm 5.4.1 mixture it claims to bound).
        with np.errstate(divide="ignore"):
            lx = lm + np.log(-np.expm1(-lm))
            lcap = (a - 1) * e + math.log(-math.expm1(-(a - 1) * e))
        lexcess = float(logsumexp(np.append(lpmf + lx, l_out + lcap)))
        out[idx] = float(np.logaddexp(0.0, lexcess)) / (a - 1)
    return out
