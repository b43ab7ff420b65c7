"""Renyi DP of the subsampled shuffle: the closed-form bounds of thesis Sec. 5.4 (high precision).

Model (thesis (5.3)): k of the n clients are drawn uniformly without replacement (gamma = k/n), each
applies the same eps0-LDP randomizer and the k reports are shuffled.  Neighbouring: replacement of
one record; upper bounds bound the sup over ordered pairs.  E = e^eps0, kbar = floor((k-1)/(2E)) + 1
(:func:`bcdp.shuffle.shuffled_bounds.kbar`).  Inputs as in :mod:`bcdp.shuffle.inputs` (floats
refused; float twin :func:`bcdp.shuffle.float_bounds.thm541_upper_float`).

Variants found in published code for Thm 5.4.1
----------------------------------------------
``variant="thesis"`` (default): as printed.  ``"girgis_code"``: the thesis author's
``privacy_computation.py`` (commit 11511d4): kbar without floor, j = 2 term
C(alpha,2) gamma^2 (E - 1/E)^2 / kbar, tail ((1 + gamma (E-1))^alpha - 1 - gamma (E-1)) e^{-(k-1)/(8E)}
with k = gamma n.  ``"koskela"``: DPBayes/PLD-Accountant ``girgis_upper.py`` (commit 690c243): the
thesis formula with c/2 in place of c = E - 1/E in the tail.  All three are checked against the
exact oracle (:mod:`bcdp.shuffle.exact`) in the claim check ``thesis_thm541_subsampled_upper``.
"""

from __future__ import annotations

from typing import Any, Callable

import mpmath

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import GUARD_DPS, MAX_DPS, MIN_DPS, check_precision
from bcdp.shuffle.inputs import (
    DEFAULT_DPS,
    cancellation_digits,
    capped,
    check_alpha,
    check_count,
    check_eps0,
    check_nk,
    log1p_over,
    read_gamma,
    read_mpf,
)
from bcdp.shuffle.shuffled_bounds import binomial_central_moments, kbar


def upsilon(alpha: int, x: Any, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """(1 + x)^alpha - 1 - alpha x = sum_{lambda=2}^alpha C(alpha, lambda) x^lambda (binomial
    theorem; the Upsilon of Thm 5.4.1 is upsilon(alpha, gamma (E - 1/E)) e^{-(k-1)/(8E)})."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    with mpmath.workdps(dps + 10):
        xx = read_mpf(x)
        val = mpmath.mpf(0)
        for lam in range(2, int(alpha) + 1):  # summed term by term: no cancellation for x >= 0
            val += mpmath.binomial(alpha, lam) * xx ** lam
    with mpmath.workdps(dps):
        return +val


def thm544_ternary(k: int, eps0: Any, lam: Any, *, kbar_floor: bool = True,
                   dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.4.4, eq. (5.43): zeta(lambda)^lambda bound for the ternary |chi|^lambda-DP of
    the shuffle of k reports (k >= 2, eps0 > 0, lambda >= 2):

        4(E-1)^2/(kbar E) + (E - 1/E)^lambda e^{-(k-1)/(8E)}                         (lambda = 2)
        lambda Gamma(lambda/2) (2(E^2-1)^2/(kbar E^2))^{lambda/2} + (E - 1/E)^lambda e^{-(k-1)/(8E)}.

    zeta(lambda)^lambda >= sup over triples D, D', D'' differing in one record of
    E_{M(D'')}|(M(D) - M(D'))/M(D'')|^lambda.  ``kbar_floor=False`` drops the floor (bad twin).
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    k = check_count(k, "k")
    e = check_eps0(eps0)
    lm = check_alpha(lam, integer=False)
    if lm < 2:
        raise InvalidInputError(f"lambda must be >= 2, got {lam!r}")
    if k < 2 or e == 0:
        raise ValidityConditionError(f"Thm 5.4.4 needs k >= 2 and eps0 > 0 (k={k}, eps0={eps0})")
    if mpmath.isinf(e) or mpmath.isinf(lm):
        return mpmath.inf
    kb = kbar(k, eps0, floor=kbar_floor, dps=dps)
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        lmb = read_mpf(lam)
        tail = (E - 1 / E) ** lmb * mpmath.exp(-(k - 1) / (8 * E))
        if lmb == 2:
            val = 4 * (E - 1) ** 2 / (kb * E) + tail
        else:
            val = lmb * mpmath.gamma(lmb / 2) * (2 * (E * E - 1) ** 2 / (kb * E * E)) ** (lmb / 2) + tail
    with mpmath.workdps(dps):
        return +val


def thm546_ternary_special_case(m: int, eps0: Any, lam: Any, *,
                                dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.4.6: for special triples (D''_m all equal to d'', D'_m, D_m changing its last
    record), E_{M(D_m)}|(M(D'_m) - M(D''_m))/M(D_m)|^lambda <= 4(E-1)^2/(m E) (lambda = 2),
    lambda Gamma(lambda/2)(2(E^2-1)^2/(m E^2))^{lambda/2} otherwise (integer lambda >= 2)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    m = check_count(m, "m")
    e = check_eps0(eps0)
    lmb = int(check_alpha(lam, integer=True))
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        if lmb == 2:
            val = 4 * (E - 1) ** 2 / (m * E)
        else:
            val = lmb * mpmath.gamma(mpmath.mpf(lmb) / 2) * (2 * (E * E - 1) ** 2 / (m * E * E)) ** (mpmath.mpf(lmb) / 2)
    with mpmath.workdps(dps):
        return +val


def lemma541_subsampled(zeta_pow: Callable[[int], Any], gamma: Any, alpha: Any, *,
                        dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Lemma 5.4.1 ([WBK19, Prop 16 and Eq. (9)]): if the shuffle of k reports is
    zeta-ternary-|chi|^lambda-DP, the k-of-n subsampled shuffle (gamma = k/n, without
    replacement, replacement neighbours) satisfies, for integer alpha >= 2,

        eps(alpha) <= 1/(alpha-1) log(1 + sum_{lambda=2}^alpha C(alpha,lambda) gamma^lambda zeta(lambda)^lambda).

    ``zeta_pow(lam)`` returns zeta(lam)^lam (a bound, or an exact sup for a given randomizer)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    a = int(check_alpha(alpha, integer=True))
    with mpmath.workdps(dps + 10):
        g = read_gamma(gamma)
        x = mpmath.mpf(0)
        for lam in range(2, a + 1):
            x += mpmath.binomial(a, lam) * g ** lam * read_mpf(zeta_pow(lam))
        val = log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


THM541_VARIANTS = ("thesis", "girgis_code", "koskela", "k_unbarred")


def thm541_upper(n: int, k: int, eps0: Any, alpha: Any, *, variant: str = "thesis",
                 kbar_floor: bool | None = None, cap: bool = False,
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.4.1 (subsampled shuffle, upper bound): for k <= n, gamma = k/n,
    integer alpha >= 2, c = (E^2-1)/E = E - 1/E,

        eps(alpha) <= 1/(alpha-1) log(1 + 4 C(alpha,2) gamma^2 (E-1)^2/(kbar E)
                        + sum_{j=3}^alpha C(alpha,j) gamma^j j Gamma(j/2) (2(E^2-1)^2/(kbar E^2))^{j/2}
                        + Upsilon),
        Upsilon = ((1 + gamma c)^alpha - 1 - alpha gamma c) e^{-(k-1)/(8E)},  kbar = floor((k-1)/(2E)) + 1.

    It is Lemma 5.4.1 applied to (5.43) (the tails sum to Upsilon by the binomial theorem).
    Neighbouring: replacement, k of n sampled without replacement (5.3).

    ``variant`` (module doc): ``"thesis"``, ``"girgis_code"`` (the author's code: no floor, j = 2
    term C(alpha,2) gamma^2 (E-1/E)^2/kbar, tail (1+gamma(E-1))^alpha - 1 - gamma(E-1), k = gamma n),
    ``"koskela"`` (PLD-Accountant: c/2 in the tail).  ``"k_unbarred"``: k in place of kbar (the other
    reading of the extraction; refuted by the exact subsampled 2RR value, see the check).
    ``kbar_floor`` overrides the variant's floor.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n, k = check_nk(n, k)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if variant not in THM541_VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} {THM541_VARIANTS}")
    if mpmath.isinf(e):
        return mpmath.inf
    floor = (variant != "girgis_code") if kbar_floor is None else kbar_floor
    kb = k if variant == "k_unbarred" else kbar(k, eps0, floor=floor, dps=dps)
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        g = mpmath.mpf(k) / n
        c = E - 1 / E
        if variant == "girgis_code":
            quad = mpmath.binomial(a, 2) * g ** 2 * c ** 2 / kb
        else:
            quad = 4 * mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kb * E)
        y = 2 * (E * E - 1) ** 2 / (kb * E * E)
        s = mpmath.mpf(0)
        for j in range(3, a + 1):
            s += mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * y ** (mpmath.mpf(j) / 2)
        decay = mpmath.exp(-(k - 1) / (8 * E))
        if variant in ("thesis", "k_unbarred"):
            tail = upsilon(a, g * c, dps=dps + 10) * decay
        elif variant == "koskela":
            tail = upsilon(a, g * c / 2, dps=dps + 10) * decay
        else:
            x = g * (E - 1)
            tail = ((1 + x) ** a - 1 - x) * decay
        val = log1p_over(quad + s + tail, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return capped(+val, eps0, cap)


def thm542_lower(n: int, k: int, eps0: Any, alpha: Any, *, variant: str = "thesis",
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.4.2 (subsampled shuffle, lower bound): for integer alpha >= 2, gamma = k/n,

        eps(alpha) >= 1/(alpha-1) log(1 + C(alpha,2) gamma^2 (E-1)^2/(k E)
                        + sum_{j=3}^alpha C(alpha,j) gamma^j ((E^2-1)/(k E))^j E[(m - k/(E+1))^j]),

    m ~ Bin(k, 1/(E+1)).  It is D_alpha(M_s(D') || M_s(D)) for 2RR, D = 0^n, D' = 0^{n-1}1:
    M_s(D')/M_s(D) = 1 + gamma (M_k(D'_k)/M_k(D_k) - 1).  ``variant="kbar"`` uses kbar in the
    coefficients (the other reading of the printed 'k'; refuted by the exact value).
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n, k = check_nk(n, k)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if variant not in ("thesis", "kbar"):
        raise InvalidInputError(f"unknown variant {variant!r} (thesis | kbar)")
    if mpmath.isinf(e):
        return mpmath.inf
    kk = k if variant == "thesis" else kbar(k, eps0, dps=dps)
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        g = mpmath.mpf(k) / n
        mu = binomial_central_moments(k, 1 / (E + 1), a, dps=dps + 10)
        c = (E * E - 1) / (kk * E)
        x = mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kk * E)
        for j in range(3, a + 1):
            x += mpmath.binomial(a, j) * g ** j * c ** j * mu[j]
        val = log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


__all__ = [
    "THM541_VARIANTS", "lemma541_subsampled", "thm541_upper", "thm542_lower", "thm544_ternary",
    "thm546_ternary_special_case", "upsilon",
]
