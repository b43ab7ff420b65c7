"""Subsampled Renyi DP: the general transforms [WBK19, Thm 9] and [ZW19, Thm 6].

Provenance of the formulas (the two papers are not among the project sources; the statements
below are the published theorems as recalled by the implementer, cross-read against the public
``yuxiangw/autodp`` accountant (``rdp_acct.py``, read only) and the ZW19 abstract, which states
that the general bound is "optimal up to an additive constant of log(3)/(alpha-1)" -- the factor 3
below.  Their *soundness in the shuffle setting* is not taken on trust: it is checked against the
exact laws of :mod:`bcdp.shuffle.exact` in the claim check ``thesis_subsampled_rdp_transforms``.)

[WBK19] Wang, Balle, Kasiviswanathan, "Subsampled Renyi DP and analytical moments accountant",
AISTATS 2019 (arXiv:1808.00087), Theorem 9 (general upper bound).  Subsampling *without
replacement* of a gamma fraction (k = gamma n of the n records), **replace-one** neighbours.  If the
base mechanism is (j, eps(j))-RDP for replace-one neighbours of size-k datasets, then for integer
alpha >= 2

    eps'(alpha) <= 1/(alpha-1) log(1 + gamma^2 C(alpha,2) min{4(e^{eps(2)} - 1),
                                              e^{eps(2)} min{2, (e^{eps(inf)} - 1)^2}}
                                     + sum_{j=3}^alpha gamma^j C(alpha,j) e^{(j-1) eps(j)}
                                                       min{2, (e^{eps(inf)} - 1)^j}).

eps(inf) is the base's pure-DP parameter (+inf if unknown; then every min{2, .} is 2).  This is
NOT the thesis' Lemma 5.4.1 (:func:`bcdp.shuffle.bounds.lemma541_subsampled`), which is WBK19
Prop. 16 / Eq. (9) (the ternary-|chi|^lambda route, needing zeta(lambda)); Thm 9 needs only the RDP
curve.

[ZW19] Zhu, Wang, "Poisson subsampled Renyi differential privacy", ICML 2019, Theorem 6 (general
upper bound).  Poisson subsampling with rate gamma, **add/remove-one** neighbours.  If the base
mechanism is (l, eps(l))-RDP for add/remove neighbours, then for integer alpha >= 2

    eps'(alpha) <= 1/(alpha-1) log((1-gamma)^{alpha-1} (alpha gamma - gamma + 1)
                                   + C(alpha,2) gamma^2 (1-gamma)^{alpha-2} e^{eps(2)}
                                   + 3 sum_{l=3}^alpha C(alpha,l) gamma^l (1-gamma)^{alpha-l} e^{(l-1) eps(l)}).

Neighbouring-relation caveat: a curve for replacement neighbours must not be plugged into ZW19
(an add/remove theorem); for the shuffle model this is the erratum E-Thesis-Fig55-ZW19, and the
sound Poisson route for the shuffle is :mod:`bcdp.shuffle.subsampled`.

Numerics and inputs: the mpmath functions work at ``dps`` digits (default 60) and return
``mpmath.mpf``; gamma, alpha, eps_inf and the base values eps(j) are read under the high-precision
policy of :func:`bcdp.accounting.inputs.to_mpf` (floats refused; ``mpmath.mpf(x)`` for a float's
exact binary value).  The ``*_float`` twins are float64 log space over arrays of integer orders and
are tested against them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Sequence

import mpmath

from bcdp.accounting.inputs import (
    DEFAULT_DPS,
    check_rate,
    check_rdp_value,
    float_base_and_orders,
    float_rate,
    integer_order,
    log_over,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_float_input

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["WBK19_VARIANTS", "ZW19_VARIANTS", "rdp_values", "wbk19_thm9", "wbk19_thm9_float", "zw19_thm6",
           "zw19_thm6_float"]

#: "paper" = Thm 9 as stated; the others are bad twins (deliberately too small) for the checks.
WBK19_VARIANTS = ("paper", "exponent_j_minus_2", "quadratic_only", "gamma_cubed")
#: "paper" = Thm 6 as stated; "no_factor_3" (ZW19 Thm 8's form, valid only under an extra
#: condition) and "quadratic_only" are bad twins.
ZW19_VARIANTS = ("paper", "no_factor_3", "quadratic_only")


def rdp_values(eps_of: Callable[[int], Any], a: int) -> dict[int, mpmath.mpf]:
    """{j: eps(j)} for j = 2..a from a base curve, each checked (a real >= 0 or inf, high precision)."""
    return {j: check_rdp_value(eps_of(j), j) for j in range(2, a + 1)}


# -- [WBK19] Theorem 9 ---------------------------------------------------------------------------

def wbk19_thm9(eps_of: Callable[[int], Any], gamma: Any, alpha: Any, *, eps_inf: Any = mpmath.inf,
               variant: str = "paper", dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[WBK19, Theorem 9]: RDP of the gamma-subsampled (without replacement, replace-one
    neighbours) mechanism from the base curve ``eps_of(j)`` (j = 2..alpha, real >= 0 or inf) and
    the base pure-DP parameter ``eps_inf`` (default inf); integer alpha >= 2, gamma in (0, 1].
    Formula in the module docstring.  ``variant``: ``"paper"``, or a bad twin
    (``"exponent_j_minus_2"``: e^{(j-2) eps(j)} for j >= 3; ``"quadratic_only"``: drops j >= 3;
    ``"gamma_cubed"``: gamma^{j+1} in place of gamma^j)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    a = integer_order(alpha)
    if variant not in WBK19_VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} {WBK19_VARIANTS}")
    with mpmath.workdps(dps + 10):
        g = check_rate(gamma)
        einf = check_rdp_value(eps_inf, "inf")
        base = rdp_values(eps_of, a)
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
        val = log_over(x, a)
    with mpmath.workdps(dps):
        return +val


def wbk19_thm9_float(base: np.ndarray, gamma: float, alphas: Sequence[int] | np.ndarray, *,
                     eps_inf: float = math.inf) -> np.ndarray:
    """Float64 log-space twin of :func:`wbk19_thm9` (``"paper"``).  ``base[j]`` = eps(j) for
    j = 0..max(alphas) (entries 0, 1 ignored; inf allowed)."""
    import numpy as np
    from scipy.special import gammaln, logsumexp

    g = float_rate(gamma)
    base, arr = float_base_and_orders(base, alphas)
    eps_inf = to_float_input(eps_inf, "eps_inf", allow_inf=True)
    if eps_inf < 0:
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
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    a = integer_order(alpha)
    if variant not in ZW19_VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} {ZW19_VARIANTS}")
    with mpmath.workdps(dps + 10):
        g = check_rate(gamma)
        base = rdp_values(eps_of, a)
        h = 1 - g
        c3 = 1 if variant == "no_factor_3" else 3
        x = h ** (a - 1) * (a * g - g + 1)
        for ell in range(2, 3 if variant == "quadratic_only" else a + 1):
            w = h ** (a - ell)
            if w == 0:
                # gamma = 1, l < alpha: the term is absent (0 * e^{eps(l)}), also for eps(l) = inf
                continue
            # every other coefficient is > 0, so an infinite eps(l) makes x (and the bound) +inf
            x += (1 if ell == 2 else c3) * mpmath.binomial(a, ell) * g ** ell * w * mpmath.exp((ell - 1) * base[ell])
        val = log_over(x, a)
    with mpmath.workdps(dps):
        return +val


def zw19_thm6_float(base: np.ndarray, gamma: float, alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """Float64 log-space twin of :func:`zw19_thm6` (``"paper"``, gamma < 1)."""
    import numpy as np
    from scipy.special import gammaln, logsumexp

    g = float_rate(gamma)
    if g == 1:
        raise InvalidInputError("the float twin needs gamma < 1 (use zw19_thm6)")
    base, arr = float_base_and_orders(base, alphas)
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
