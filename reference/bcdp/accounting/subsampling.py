"""Subsampled Renyi DP: general transforms [WBK19] and [ZW19], the [GDD21e] baseline, and a sound
Poisson route for the shuffle model (thesis Ch. 5, Sec. 5.5, Figs 5.5 and 5.6).

Provenance of the formulas (the two papers are not among the project sources; the statements
below are the published theorems as recalled by the implementer, cross-read against the public
``yuxiangw/autodp`` accountant (``rdp_acct.py``, read only) and the ZW19 abstract, which states
that the general bound is "optimal up to an additive constant of log(3)/(alpha-1)" -- the factor 3
below.  Their *soundness in this code's setting* is not taken on trust: it is checked against the
exact laws of :mod:`bcdp.shuffle.exact` in ``proofs_checks/thesis_subsampled_rdp_transforms.py``.)

[WBK19] Wang, Balle, Kasiviswanathan, "Subsampled Renyi DP and analytical moments accountant",
AISTATS 2019, Theorem 9 (general upper bound).  Subsampling *without replacement* of a gamma
fraction (k = gamma n of the n records), **replace-one** neighbours.  If the base mechanism is
(j, eps(j))-RDP for replace-one neighbours of size-k datasets, then for integer alpha >= 2

    eps'(alpha) <= 1/(alpha-1) log(1 + gamma^2 C(alpha,2) min{4(e^{eps(2)} - 1),
                                              e^{eps(2)} min{2, (e^{eps(inf)} - 1)^2}}
                                     + sum_{j=3}^alpha gamma^j C(alpha,j) e^{(j-1) eps(j)}
                                                       min{2, (e^{eps(inf)} - 1)^j}).

eps(inf) is the base's pure-DP parameter (+inf if unknown; then every min{2, .} is 2).  This is
NOT the thesis' Lemma 5.4.1 (``shuffle_bounds.lemma541_subsampled``), which is WBK19 Prop. 16 /
Eq. (9) (the ternary-|chi|^lambda route, needing zeta(lambda)); Thm 9 needs only the RDP curve.

[ZW19] Zhu, Wang, "Poisson subsampled Renyi differential privacy", ICML 2019, Theorem 6 (general
upper bound).  Poisson subsampling with rate gamma, **add/remove-one** neighbours.  If the base
mechanism is (l, eps(l))-RDP for add/remove neighbours, then for integer alpha >= 2

    eps'(alpha) <= 1/(alpha-1) log((1-gamma)^{alpha-1} (alpha gamma - gamma + 1)
                                   + C(alpha,2) gamma^2 (1-gamma)^{alpha-2} e^{eps(2)}
                                   + 3 sum_{l=3}^alpha C(alpha,l) gamma^l (1-gamma)^{alpha-l} e^{(l-1) eps(l)}).

Neighbouring-relation caveat (found here, see the check): the shuffled histogram reveals how many
reports it holds, so the shuffle is *not* RDP for add/remove neighbours (eps = inf); the thesis'
Fig. 5.5 route "Thm 5.3.1 (replacement RDP) + ZW19" plugs a replacement-RDP curve into an
add/remove theorem.  With the exact laws (Poisson subsampling, replacement neighbours, sample size
visible) that combination is violated, e.g. binary RR with e^{eps0} = 8, n = 2, gamma = 1/4,
alpha = 2 (``proofs_checks/thesis_subsampled_rdp_transforms.py``).  :func:`zw19_thm6` is therefore
implemented as the theorem states it (for add/remove base curves) and used for Fig. 5.5 only as
"the thesis' reading", never as a guarantee.

A sound Poisson route (derived here; elementary): a Poisson(gamma) sample of the n records,
conditioned on its size t, is a uniformly random t-subset.  The released histogram shows t, and t
has the same Bin(n, gamma) law under both neighbours, so for every pair D, D' (replacement)

    E_Q[(P/Q)^alpha] = sum_{t=0}^n Bin(n, gamma)(t) E_{Q_t}[(P_t/Q_t)^alpha]                  (*)

with P_t, Q_t the laws of the t-of-n uniformly subsampled shuffle (the thesis' model (5.3)); t = 0
contributes 1.  Hence any bound eps_U(alpha; n, t) on that model (Thm 5.4.1, or WBK19 composed
with a shuffle bound at t) gives eps_Poisson(alpha) <= log(sum_t Bin(t) e^{(alpha-1) eps_U(t)})/(alpha-1).
(*) is checked with exact Fractions against ``subsampled_shuffled_law(..., "poisson")``.

[GDD21e] thesis Lemma 3.3.1, eq. (3.5), line 1371: for eps0 > 0 and alpha^4 e^{5 eps0} <= n/9, the
shuffle of n eps0-LDP reports has eps(alpha) <= log(1 + 2 alpha(alpha-1)(e^{eps0}-1)^2/n)/(alpha-1)
(<= 2 alpha (e^{eps0}-1)^2/n).  The extraction prints the coefficient as "alpha(alpha-1) 2"; the
reading 2 alpha(alpha-1) is the one consistent with the printed second inequality
(log(1+x)/(alpha-1) <= x/(alpha-1) = 2 alpha (E-1)^2/n) and with Cor 5.3.1 (5.5),
4 C(alpha,2) = 2 alpha(alpha-1).  Outside the condition the value is not a claim:
:func:`gdd21e_rdp` raises ``ValidityConditionError``; the float twin returns +inf.

Numerics: ``*`` functions use mpmath at ``dps`` digits (default 60) and return ``mpmath.mpf``;
``*_float`` functions are float64 log-space over arrays of integer orders, tested against them.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
from scipy.special import gammaln, logsumexp
from scipy.stats import binom

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.shuffle.bounds import (
    DEFAULT_DPS,
    _check_alpha,
    _check_eps0,
    _check_n,
    _mp,
    cor531_upper,
)

__all__ = [
    "WBK19_VARIANTS", "ZW19_VARIANTS", "gdd21e_condition", "gdd21e_rdp", "gdd21e_rdp_float",
    "poisson_mixture_rdp", "thm541_poisson_float", "wbk19_thm9", "wbk19_thm9_float",
    "zw19_thm6", "zw19_thm6_float",
]

#: "paper" = Thm 9 as stated; the others are bad twins (deliberately too small) for the checks.
WBK19_VARIANTS = ("paper", "exponent_j_minus_2", "quadratic_only", "gamma_cubed")
#: "paper" = Thm 6 as stated; "no_factor_3" (ZW19 Thm 8's form, valid only under an extra
#: condition) and "quadratic_only" are bad twins.
ZW19_VARIANTS = ("paper", "no_factor_3", "quadratic_only")


# -- argument checking ---------------------------------------------------------------------------

def _checked_real(value: Any, ok: Callable[[mpmath.mpf], bool], requirement: str) -> mpmath.mpf:
    """``value`` as an mpf if it is a real number (not bool/None, convertible, not NaN) with
    ``ok(value)``; otherwise ``InvalidInputError("<requirement>, got <value!r>")``."""
    if isinstance(value, bool) or value is None:
        raise InvalidInputError(f"{requirement}, got {value!r}")
    try:
        v = _mp(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{requirement}, got {value!r}") from exc
    if mpmath.isnan(v) or not ok(v):
        raise InvalidInputError(f"{requirement}, got {value!r}")
    return v


def _check_gamma(gamma: Any) -> mpmath.mpf:
    return _checked_real(gamma, lambda g: 0 < g <= 1, "gamma must lie in (0, 1]")


def _check_base(value: Any, j: Any) -> mpmath.mpf:
    """A base RDP value eps(j): a real >= 0 or +inf (never NaN, never negative)."""
    return _checked_real(value, lambda v: v >= 0, f"base eps({j}) must be a real >= 0 or inf")


def _base_values(eps_of: Callable[[int], Any], a: int) -> dict[int, mpmath.mpf]:
    return {j: _check_base(eps_of(j), j) for j in range(2, a + 1)}


def _integer_orders(alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """The float twins' orders as an int64 array (at least 1-d); all must be >= 2."""
    arr = np.atleast_1d(np.asarray(alphas)).astype(np.int64)
    if np.any(arr < 2):
        raise InvalidInputError("integer orders alpha >= 2 required")
    return arr


def _float_base_and_orders(base: np.ndarray, alphas: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A float twin's base curve (eps(j) >= 0 or inf for j = 2..max(alpha)) and orders."""
    base = np.asarray(base, dtype=float)
    arr = _integer_orders(alphas)
    if base.shape[0] <= int(arr.max()) or np.any(np.isnan(base[2:])) or np.any(base[2:] < 0):
        raise InvalidInputError("base must hold eps(j) >= 0 (or inf) for j = 2..max(alpha)")
    return base, arr


def _log_over(x: mpmath.mpf, a: int) -> mpmath.mpf:
    if mpmath.isinf(x):
        return mpmath.inf
    return mpmath.log(x) / (a - 1)


# -- [WBK19] Theorem 9 ---------------------------------------------------------------------------

def wbk19_thm9(eps_of: Callable[[int], Any], gamma: Any, alpha: Any, *, eps_inf: Any = mpmath.inf,
               variant: str = "paper", dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[WBK19, Theorem 9]: RDP of the gamma-subsampled (without replacement, replace-one
    neighbours) mechanism from the base curve ``eps_of(j)`` (j = 2..alpha, real >= 0 or inf) and
    the base pure-DP parameter ``eps_inf`` (default inf); integer alpha >= 2, gamma in (0, 1].
    Formula in the module docstring.  ``variant``: ``"paper"``, or a bad twin
    (``"exponent_j_minus_2"``: e^{(j-2) eps(j)} for j >= 3; ``"quadratic_only"``: drops j >= 3;
    ``"gamma_cubed"``: gamma^{j+1} in place of gamma^j)."""
    a = int(_check_alpha(alpha, integer=True))
    if variant not in WBK19_VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} {WBK19_VARIANTS}")
    with mpmath.workdps(dps + 10):
        g = _check_gamma(gamma)
        einf = _check_base(eps_inf, "inf")
        base = _base_values(eps_of, a)
        two, four = mpmath.mpf(2), mpmath.mpf(4)
        shift = 2 if variant == "exponent_j_minus_2" else 1
        gexp = (lambda j: j + 1) if variant == "gamma_cubed" else (lambda j: j)
        if any(mpmath.isinf(base[j]) for j in base):
            # e^{(j-1) eps(j)} = inf with a positive coefficient (gamma > 0) -> vacuous bound
            return mpmath.inf
        cinf = mpmath.inf if mpmath.isinf(einf) else mpmath.expm1(einf)
        e2 = base[2]
        m2 = min(four * mpmath.expm1(e2), mpmath.exp(e2) * min(two, cinf ** 2))
        x = 1 + g ** gexp(2) * mpmath.binomial(a, 2) * m2
        if variant != "quadratic_only":
            for j in range(3, a + 1):
                x += g ** gexp(j) * mpmath.binomial(a, j) * mpmath.exp((j - shift) * base[j]) * min(two, cinf ** j)
        val = _log_over(x, a)
    with mpmath.workdps(dps):
        return +val


def wbk19_thm9_float(base: np.ndarray, gamma: float, alphas: Sequence[int] | np.ndarray, *,
                     eps_inf: float = math.inf) -> np.ndarray:
    """Float64 log-space twin of :func:`wbk19_thm9` (``"paper"``).  ``base[j]`` = eps(j) for
    j = 0..max(alphas) (entries 0, 1 ignored; inf allowed)."""
    g = float(_check_gamma(gamma))
    base, arr = _float_base_and_orders(base, alphas)
    if math.isnan(eps_inf) or eps_inf < 0:
        raise InvalidInputError("eps_inf must be >= 0 or inf")
    lg = math.log(g)
    log_cinf = math.inf if math.isinf(eps_inf) else (math.log(math.expm1(eps_inf)) if eps_inf > 0 else -math.inf)
    out = np.empty(arr.shape)
    for idx, a in enumerate(arr):
        a = int(a)
        if np.any(np.isinf(base[2:a + 1])):
            out[idx] = math.inf
            continue
        e2 = float(base[2])
        l_m2 = min(math.log(4) + (math.log(math.expm1(e2)) if e2 > 0 else -math.inf),
                   e2 + min(math.log(2), 2 * log_cinf))
        terms = [0.0, 2 * lg + math.log(a * (a - 1) / 2) + l_m2]
        if a >= 3:
            j = np.arange(3, a + 1, dtype=float)
            terms.extend(j * lg + gammaln(a + 1) - gammaln(j + 1) - gammaln(a - j + 1)
                         + (j - 1) * base[3:a + 1] + np.minimum(math.log(2), j * log_cinf))
        out[idx] = float(logsumexp(terms)) / (a - 1)
    return out


# -- [ZW19] Theorem 6 ----------------------------------------------------------------------------

def zw19_thm6(eps_of: Callable[[int], Any], gamma: Any, alpha: Any, *, variant: str = "paper",
              dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[ZW19, Theorem 6]: RDP of the Poisson(gamma)-subsampled mechanism (add/remove neighbours)
    from the base add/remove curve ``eps_of(l)``, l = 2..alpha; integer alpha >= 2, gamma in
    (0, 1].  At gamma = 1 only the l = alpha term survives: log(3 e^{(alpha-1) eps(alpha)})/(alpha-1)
    = eps(alpha) + log(3)/(alpha-1) for alpha >= 3 and eps(2) at alpha = 2.  ``variant``:
    ``"paper"`` or a bad twin (``"no_factor_3"``, ``"quadratic_only"``: drops l >= 3)."""
    a = int(_check_alpha(alpha, integer=True))
    if variant not in ZW19_VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} {ZW19_VARIANTS}")
    with mpmath.workdps(dps + 10):
        g = _check_gamma(gamma)
        base = _base_values(eps_of, a)
        if any(mpmath.isinf(base[j]) for j in base if not (g == 1 and j < a)):
            return mpmath.inf
        h = 1 - g
        c3 = 1 if variant == "no_factor_3" else 3
        x = h ** (a - 1) * (a * g - g + 1) + mpmath.binomial(a, 2) * g ** 2 * h ** (a - 2) * mpmath.exp(base[2])
        if variant != "quadratic_only":
            for ell in range(3, a + 1):
                x += c3 * mpmath.binomial(a, ell) * g ** ell * h ** (a - ell) * mpmath.exp((ell - 1) * base[ell])
        val = _log_over(x, a)
    with mpmath.workdps(dps):
        return +val


def zw19_thm6_float(base: np.ndarray, gamma: float, alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """Float64 log-space twin of :func:`zw19_thm6` (``"paper"``, gamma < 1)."""
    g = float(_check_gamma(gamma))
    if g == 1:
        raise InvalidInputError("the float twin needs gamma < 1 (use zw19_thm6)")
    base, arr = _float_base_and_orders(base, alphas)
    lg, lh = math.log(g), math.log1p(-g)
    out = np.empty(arr.shape)
    for idx, a in enumerate(arr):
        a = int(a)
        if np.any(np.isinf(base[2:a + 1])):
            out[idx] = math.inf
            continue
        terms = [(a - 1) * lh + math.log1p((a - 1) * g),
                 math.log(a * (a - 1) / 2) + 2 * lg + (a - 2) * lh + float(base[2])]
        if a >= 3:
            ell = np.arange(3, a + 1, dtype=float)
            terms.extend(math.log(3) + gammaln(a + 1) - gammaln(ell + 1) - gammaln(a - ell + 1)
                         + ell * lg + (a - ell) * lh + (ell - 1) * base[3:a + 1])
        out[idx] = max(0.0, float(logsumexp(terms)) / (a - 1))
    return out


# -- [GDD21e] Lemma 3.3.1 / (3.5) ----------------------------------------------------------------

def gdd21e_condition(n: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> bool:
    """alpha^4 e^{5 eps0} <= n/9 (thesis Lemma 3.3.1, line 1371; note <=, Cor 5.3.1 has <)."""
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = _check_alpha(alpha, integer=True)
    if mpmath.isinf(e):
        return False
    if e == 0:
        return 9 * int(a) ** 4 <= n
    with mpmath.workdps(dps + 20):
        return bool(a ** 4 * mpmath.exp(5 * _mp(eps0)) <= mpmath.mpf(n) / 9)


def gdd21e_rdp(n: int, eps0: Any, alpha: Any, *, enforce: bool = True,
               dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[GDD21e] as quoted in thesis Lemma 3.3.1, eq. (3.5): for eps0 > 0, integer alpha >= 2 and
    alpha^4 e^{5 eps0} <= n/9, the shuffle of n eps0-LDP reports (replacement neighbours) has
    eps(alpha) <= log(1 + 2 alpha(alpha-1)(e^{eps0}-1)^2/n)/(alpha-1).  Outside the condition a
    ``ValidityConditionError`` is raised (``enforce=False`` evaluates the formula anyway; the
    value is then NOT a bound and is used only to report what ignoring the condition would give)."""
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
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
    n = _check_n(n)
    e = float(_check_eps0(eps0))
    arr = _integer_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    a = arr.astype(float)
    out = np.log1p(2 * a * (a - 1) * math.expm1(e) ** 2 / n) / (a - 1)
    if enforce:
        ok = (4 * np.log(a) + 5 * e) * (1 + 1e-12) <= math.log(n / 9)
        if e == 0:
            ok = np.zeros(arr.shape, dtype=bool)
        out = np.where(ok, out, np.inf)
    return out


# -- sound Poisson route (*) ---------------------------------------------------------------------

def poisson_mixture_rdp(n: int, gamma: Any, alpha: Any, eps_uniform: Callable[[int], Any], *,
                        dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Identity (*) of the module docstring as a bound: eps_Poisson(alpha) <=
    log(sum_{t=0}^n Bin(n, gamma)(t) e^{(alpha-1) eps_U(t)})/(alpha-1), with ``eps_uniform(t)``
    (t = 1..n) any bound on the t-of-n uniformly subsampled shuffle (replacement neighbours) and
    the t = 0 term equal to 1.  Exact sum over all t (use for small n); gamma in (0, 1]."""
    n = _check_n(n)
    a = int(_check_alpha(alpha, integer=True))
    with mpmath.workdps(dps + 10):
        g = _check_gamma(gamma)
        x = (1 - g) ** n
        for t in range(1, n + 1):
            v = _check_base(eps_uniform(t), f"U,t={t}")
            w = mpmath.binomial(n, t) * g ** t * (1 - g) ** (n - t)
            if w == 0:
                continue
            if mpmath.isinf(v):
                return mpmath.inf
            x += w * mpmath.exp((a - 1) * v)
        val = _log_over(x, a)
    with mpmath.workdps(dps):
        return +val


def _thm541_log_moment_t(n: int, t: np.ndarray, eps0: float, a: int) -> np.ndarray:
    """log of the Thm 5.4.1 moment bound 1 + quad + sum + Upsilon at order a for k = t (t >= 1),
    gamma = t/n, vectorised over t (float64, log space).  kbar is floored with a relative guard
    that can only lower it (a looser bound)."""
    E = math.exp(eps0)
    tt = t.astype(float)
    kb = np.floor((tt - 1) / (2 * E) * (1 - 1e-12)) + 1
    lg = np.log(tt / n)
    lquad = math.log(2 * a * (a - 1)) + 2 * lg + 2 * math.log(math.expm1(eps0)) - np.log(kb * E)
    cols = [np.zeros_like(tt), lquad]
    c = E - 1 / E
    lam = np.arange(2, a + 1, dtype=float)
    lcomb = gammaln(a + 1) - gammaln(lam + 1) - gammaln(a - lam + 1)
    # Upsilon = sum_{l=2}^a C(a,l) (gamma c)^l, times e^{-(t-1)/(8E)}
    ltail = logsumexp(lcomb[None, :] + lam[None, :] * (lg[:, None] + math.log(c)), axis=1) - (tt - 1) / (8 * E)
    cols.append(ltail)
    if a >= 3:
        j = np.arange(3, a + 1, dtype=float)
        log_y_half = (math.log(2) + 2 * math.log(E * E - 1) - np.log(kb * E * E)) / 2
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
    n = _check_n(n)
    e = float(_check_eps0(eps0))
    g = float(_check_gamma(gamma))
    arr = _integer_orders(alphas)
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
        total = float(logsumexp(np.append(lpmf + lm, l_out + (a - 1) * e)))
        out[idx] = max(0.0, total) / (a - 1)
    return out

