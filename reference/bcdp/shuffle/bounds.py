"""Renyi DP of n shuffled eps0-LDP reports: every closed-form bound of thesis Chapter 5.

Source: ``shared/papers/thesis.txt`` (Girgis, PhD thesis), Chapter 5 (lines 7848-11217) and
Appendix D (lines 19341-21881).  One function per theorem or equation, each with its provenance,
its validity conditions (checked, never assumed) and the neighbouring relation it speaks about.

Setting and conventions (thesis Sec. 5.2, Table 5.1)
----------------------------------------------------
* Each of n clients applies the same eps0-LDP randomizer R with a discrete range [B]; the shuffler
  releases the histogram h (eq. (5.1)-(5.2)).  The subsampled model (5.3) first draws k of the n
  clients uniformly without replacement, gamma = k/n.
* Neighbouring relation: **replacement of one record**, D = (d_1..d_n), D' = (d_1..d_{n-1}, d'_n).
  The RDP curve is eps(alpha) = sup over ordered neighbouring pairs of D_alpha(M(D) || M(D')),
  D_alpha(P||Q) = log(E_Q[(P/Q)^alpha])/(alpha-1) (natural log).  Every upper bound below bounds
  this supremum over *all* discrete eps0-LDP randomizers; the lower bounds are the exact value of
  one pair for binary randomized response (2RR) in one direction (stated per function).
* E = e^eps0, nbar = floor((n-1)/(2E)) + 1, kbar = floor((k-1)/(2E)) + 1.

Numerics
--------
Every ``*`` function evaluates in ``mpmath`` at ``dps`` decimal digits (default 60) and returns an
``mpmath.mpf``.  Sums have non-negative terms except where stated.  ``log1p`` is used for
log(1 + x) so that tiny bounds (n = 10^7) keep their relative accuracy.  Floors are decided with
guard digits (:func:`nbar`).  ``*_float`` functions are a float64 log-space path over arrays of
orders (``scipy.special.gammaln``/``logsumexp``), tested against the mpmath path.

Errors: ``InvalidInputError`` (a ``ValueError``) for alpha <= 1, eps0 < 0, n < 1, k > n,
NaN, non-integer alpha where the theorem needs an integer; ``ValidityConditionError`` (its
subclass) when a theorem's stated condition fails (e.g. Cor. 5.3.1's alpha^4 e^{5 eps0} < n/9).
eps0 = inf (no local privacy) gives +inf for every upper and lower bound (never NaN).

Options that are not in the thesis
----------------------------------
* ``cap=True`` returns min(bound, eps0).  Valid: one record changes one report, whose law moves by
  a factor at most e^{eps0}, and the shuffle (and the subsampling) is post-processing, so the
  released histogram is eps0-DP and D_alpha <= D_infinity <= eps0.  Off by default, as in the
  thesis, whose bounds can exceed eps0 (small n, large alpha).
* ``tail="refined"`` in Thm 5.3.1: the Chernoff split (5.14) only needs E_0 - 1 in place of E_0
  (E_m >= 1) and E_0 = E_{p'}[(p/p')^alpha] <= (E^alpha + E^{1-alpha})/(E+1) (convex function
  maximised at a vertex of T_eps0, i.e. at 2RR; the vertices are those of Lemma 5.3.5's proof),
  giving the tail ((E^alpha + E^{1-alpha})/(E+1) - 1) e^{-(n-1)/(8E)}.  This is what the proof of
  Cor. 5.3.1 needs for small eps0 (docs/errata.md, E-Thesis-D5).
* ``chernoff_gamma`` (Remark 5.3.3): the Chernoff parameter of (5.14); any value in (0, 1) is
  valid, with nbar = floor((1-gamma)(n-1)/E) + 1 and tail exponent -gamma^2 (n-1)/(2E).
  The thesis fixes gamma = 1/2 (the default).

Variants found in published code (anchors.md A4, A5) for Thm 5.4.1
-------------------------------------------------------------------
``variant="thesis"`` (default): as printed.  ``"girgis_code"``: the thesis author's
``privacy_computation.py`` (commit 11511d4): kbar without floor, j = 2 term
C(alpha,2) gamma^2 (E - 1/E)^2 / kbar, tail ((1 + gamma (E-1))^alpha - 1 - gamma (E-1)) e^{-(k-1)/(8E)}
with k = gamma n.  ``"koskela"``: DPBayes/PLD-Accountant ``girgis_upper.py`` (690c243): the thesis
formula with c/2 in place of c = E - 1/E in the tail.  All three are checked against the exact
oracle (:mod:`bcdp.shuffle.exact`) in ``proofs_checks/thm541_subsampled_upper.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Real
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
from scipy.special import gammaln, logsumexp

from bcdp.core.errors import InvalidInputError, ValidityConditionError

DEFAULT_DPS = 60

__all__ = [
    "BOUNDS", "BoundSpec", "DEFAULT_DPS", "binomial_central_moments", "cor531_condition", "cor531_upper", "cor532_lower",
    "efm19_upper", "efm19_upper_float", "interpolate_real_alpha", "kbar", "lemma541_subsampled",
    "nbar", "thm531_upper", "thm531_upper_float", "thm531_upper_real", "thm532_upper",
    "thm532_upper_float", "thm533_lower", "thm535_special_case", "thm536_special_case",
    "thm541_upper", "thm541_upper_float", "thm542_lower", "thm544_ternary",
    "thm546_ternary_special_case", "upsilon",
]


# -- argument checking ---------------------------------------------------------------------------

def _mp(x: Any) -> mpmath.mpf:
    """A real number as mpf at the current precision (Fractions exactly rounded once)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, str):
        return mpmath.mpf(x)
    return mpmath.mpf(x)


def _is_nan(x: Any) -> bool:
    try:
        return bool(mpmath.isnan(_mp(x)))
    except (TypeError, ValueError):
        return False


def _check_n(n: Any, name: str = "n") -> int:
    if isinstance(n, bool) or not isinstance(n, (Integral, Real)) or _is_nan(n):
        raise InvalidInputError(f"{name} must be a positive integer, got {n!r}")
    if not isinstance(n, Integral):
        if not mpmath.isfinite(_mp(n)) or _mp(n) != int(n):
            raise InvalidInputError(f"{name} must be a positive integer, got {n!r}")
    n = int(n)
    if n < 1:
        raise InvalidInputError(f"{name} must be >= 1, got {n}")
    return n


def _check_eps0(eps0: Any) -> mpmath.mpf:
    if isinstance(eps0, bool) or eps0 is None:
        raise InvalidInputError(f"eps0 must be a real number >= 0, got {eps0!r}")
    try:
        e = _mp(eps0)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"eps0 must be a real number >= 0, got {eps0!r}") from exc
    if mpmath.isnan(e):
        raise InvalidInputError("eps0 is NaN")
    if e < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    return e


def _check_alpha(alpha: Any, integer: bool) -> mpmath.mpf:
    """alpha > 1 (real) or an integer >= 2; +inf allowed only for real-order bounds."""
    if isinstance(alpha, bool) or alpha is None:
        raise InvalidInputError(f"alpha must be a real number > 1, got {alpha!r}")
    try:
        a = _mp(alpha)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"alpha must be a real number > 1, got {alpha!r}") from exc
    if mpmath.isnan(a):
        raise InvalidInputError("alpha is NaN")
    if a <= 1:
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    if integer:
        if mpmath.isinf(a) or a != mpmath.floor(a):
            raise InvalidInputError(
                f"this theorem holds for integer orders alpha >= 2 only, got {alpha!r} "
                "(use interpolate_real_alpha, Remark 5.3.2, for real orders)")
    return a


def _check_gamma_chernoff(g: Any) -> mpmath.mpf:
    gg = _mp(g)
    if mpmath.isnan(gg) or not (0 < gg < 1):
        raise InvalidInputError(f"chernoff_gamma must lie in (0, 1), got {g!r}")
    return gg


def _floor_certified(x_fn: Callable[[], mpmath.mpf], dps: int) -> int:
    """floor(x) where x_fn evaluates x at the current precision; the decision is repeated with
    more digits while x is within 10^-(digits-10) of an integer (exact integers, e.g. eps0 = 0,
    are recognised because mpmath evaluates them exactly)."""
    digits = dps + 20
    while True:
        with mpmath.workdps(digits):
            x = x_fn()
            r = mpmath.nint(x)
            if x == r:
                return int(r)
            if abs(x - r) > mpmath.mpf(10) ** (-(digits - 10)) * max(1, abs(x)):
                return int(mpmath.floor(x))
        if digits > 2000:
            raise ArithmeticError("floor undecided at 2000 digits")
        digits *= 2


def nbar(n: int, eps0: Any, *, floor: bool = True, chernoff_gamma: Any = Fraction(1, 2),
         dps: int = DEFAULT_DPS) -> int | mpmath.mpf:
    """nbar = floor((1-gamma)(n-1)/e^eps0) + 1, gamma = 1/2: floor((n-1)/(2 e^eps0)) + 1.

    Thesis (5.4) (line 8192, the bar lost in extraction), (5.7), (5.15): nbar - 1 is the index
    m0 = floor((1-gamma) q (n-1)) (q = e^-eps0) of the Chernoff split (5.14), and Thm 5.3.5 is
    applied to the special case on m0 + 1 = nbar points, so nbar is an integer.  ``floor=False``
    gives (1-gamma)(n-1)/E + 1, which is what App. D.1 (D.1)/(D.9) uses; it is *not* justified by
    the proof (it is a bad twin in the checks).  eps0 = inf gives 1.
    """
    n = _check_n(n)
    e = _check_eps0(eps0)
    _check_gamma_chernoff(chernoff_gamma)
    if mpmath.isinf(e):
        return 1 if floor else mpmath.mpf(1)

    def x() -> mpmath.mpf:
        return (1 - _mp(chernoff_gamma)) * (n - 1) / mpmath.exp(_mp(eps0))

    if floor:
        return _floor_certified(x, dps) + 1
    with mpmath.workdps(dps):
        return +(x() + 1)


def kbar(k: int, eps0: Any, *, floor: bool = True, dps: int = DEFAULT_DPS) -> int | mpmath.mpf:
    """kbar = floor((k-1)/(2 e^eps0)) + 1 (Thm 5.4.1, Thm 5.4.4 (5.43)); ``floor=False`` is the
    thesis author's code (anchors.md A4)."""
    return nbar(k, eps0, floor=floor, dps=dps)


def _capped(value: mpmath.mpf, e: mpmath.mpf, cap: bool) -> mpmath.mpf:
    if cap and value > e:
        return +e
    return value


def _log1p_over(x: mpmath.mpf, a: mpmath.mpf) -> mpmath.mpf:
    """log(1 + x)/(a - 1), inf for x = inf."""
    if mpmath.isinf(x):
        return mpmath.inf
    return mpmath.log1p(x) / (a - 1)


# -- provenance ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class BoundSpec:
    """Provenance of one bound: what it bounds, where it is printed, when it holds."""

    name: str
    kind: str  # "upper" | "lower" | "moment-upper" | "ternary-upper" | "transform"
    source: str
    equation: str
    orders: str
    validity: str
    neighbouring: str
    direction: str
    notes: str = ""


_REPLACE = "replacement of one record (D, D' differ in the last entry); sup over ordered pairs"

BOUNDS: dict[str, BoundSpec] = {
    "thm531_upper": BoundSpec(
        "thm531_upper", "upper", "thesis Ch. 5, Thm 5.3.1 (Upper Bound 1), line 8178", "(5.4)",
        "integer alpha >= 2", "n >= 1, eps0 >= 0 (any discrete eps0-LDP randomizer)", _REPLACE,
        "sup over both directions",
        "nbar = floor((n-1)/(2E)) + 1 in the first two terms (bar lost in the extraction; the "
        "proof (5.15) applies Thm 5.3.5 with m = nbar); true n in the tail (n-1)/(8E)"),
    "cor531_upper": BoundSpec(
        "cor531_upper", "upper", "thesis Ch. 5, Cor 5.3.1; proof App. D.1", "(5.5); (D.1)",
        "integer alpha >= 2", "alpha^4 e^{5 eps0} < n/9 (enforced)", _REPLACE,
        "sup over both directions",
        "the D.1 proof derives it from (5.4); steps (D.5) and (D.9) fail for some admissible "
        "(n, eps0, alpha): docs/errata.md"),
    "interpolate_real_alpha": BoundSpec(
        "interpolate_real_alpha", "transform", "thesis Ch. 5, Remark 5.3.2", "(5.6)",
        "real alpha > 1", "convexity of (alpha-1) D_alpha in alpha [EH14, Cor 2]", _REPLACE,
        "any (applies to each pair, hence to the sup)"),
    "thm532_upper": BoundSpec(
        "thm532_upper", "upper", "thesis Ch. 5, Thm 5.3.2 (Upper Bound 2), line 8240", "(5.7)",
        "real alpha > 1", "n >= 1, eps0 >= 0", _REPLACE, "sup over both directions",
        "printed 'any alpha >= 1'; at alpha = 1 the expression is +inf (vacuous), so alpha > 1"),
    "efm19_upper": BoundSpec(
        "efm19_upper", "upper", "[EFM19, Remark 1] as quoted in thesis Ch. 5, line 8300", "(5.8)",
        "real alpha > 1", "none stated in the thesis", _REPLACE, "sup over both directions",
        "obtained in EFM19 by a DP-to-RDP conversion"),
    "thm533_lower": BoundSpec(
        "thm533_lower", "lower", "thesis Ch. 5, Thm 5.3.3, line 8310; proof Sec. 5.3.4", "(5.9)",
        "integer alpha >= 2", "n >= 1, eps0 >= 0", _REPLACE,
        "D_alpha(M(D') || M(D)), 2RR, D = 0^n, D' = 0^{n-1}1 (the smaller direction; the "
        "reverse one is the true 2RR RDP)",
        "k ~ Bin(n, 1/(E+1)); n (not nbar): equality with the exact 2RR value decides it"),
    "cor532_lower": BoundSpec(
        "cor532_lower", "lower", "thesis Ch. 5, Cor 5.3.2", "(5.10)", "integer alpha >= 2",
        "n >= 1, eps0 >= 0", _REPLACE, "as (5.9)",
        "needs odd central moments of Bin(n, 1/(E+1)) >= 0; the printed Jensen argument is "
        "invalid for odd powers, the claim holds (multinomial expansion, see function doc)"),
    "thm535_special_case": BoundSpec(
        "thm535_special_case", "moment-upper", "thesis Ch. 5, Thm 5.3.5", "(5.13)",
        "integer alpha >= 2", "m >= 1", "special pairs D_m = (d..d), D'_m = (d..d,d')",
        "E_{M(D_m)}[(M(D'_m)/M(D_m))^alpha] (a moment, not an RDP value)",
        "equality at alpha = 2 for 2RR"),
    "thm536_special_case": BoundSpec(
        "thm536_special_case", "moment-upper", "thesis Ch. 5, Thm 5.3.6; proof App. D.2.2",
        "(5.16)", "real alpha >= 2 (proof valid for alpha > 0)", "m >= 1",
        "special pairs as (5.13)", "moment as (5.13)"),
    "thm541_upper": BoundSpec(
        "thm541_upper", "upper", "thesis Ch. 5, Thm 5.4.1, line 10160; proof Sec. 5.4.1",
        "Thm 5.4.1 (unnumbered)", "integer alpha >= 2",
        "1 <= k <= n, eps0 >= 0 (Thm 5.4.4 needs k >= 2, eps0 > 0; k = 1 and eps0 = 0 are "
        "accepted because they are checked against the exact oracle)",
        "replacement of one record, subsampling k of n without replacement (5.3)",
        "sup over both directions", "kbar = floor((k-1)/(2E)) + 1; variants girgis_code, koskela"),
    "thm542_lower": BoundSpec(
        "thm542_lower", "lower", "thesis Ch. 5, Thm 5.4.2", "Thm 5.4.2 (unnumbered)",
        "integer alpha >= 2", "1 <= k <= n, eps0 >= 0",
        "replacement, subsampling k of n without replacement",
        "D_alpha(M_s(D') || M_s(D)), 2RR, D = 0^n, D' = 0^{n-1}1",
        "k (not kbar): equality with the exact subsampled 2RR value decides it"),
    "thm544_ternary": BoundSpec(
        "thm544_ternary", "ternary-upper", "thesis Ch. 5, Thm 5.4.4", "(5.43)",
        "lambda >= 2 (real; the integer case is what Lemma 5.4.1 uses)", "k >= 2, eps0 > 0",
        "three datasets differing in the last entry (D, D', D'')",
        "zeta(lambda)^lambda >= E_{M(D'')} |(M(D) - M(D'))/M(D'')|^lambda"),
    "thm546_ternary_special_case": BoundSpec(
        "thm546_ternary_special_case", "ternary-upper", "thesis Ch. 5, Thm 5.4.6", "Thm 5.4.6",
        "integer lambda >= 2", "m >= 1", "special triples (D''_m all equal)", "ternary moment"),
    "lemma541_subsampled": BoundSpec(
        "lemma541_subsampled", "transform", "thesis Ch. 5, Lemma 5.4.1 ([WBK19, Prop 16, Eq. (9)])",
        "Lemma 5.4.1", "integer alpha >= 2", "1 <= k <= n, gamma = k/n",
        "replacement, subsampling without replacement", "sup over both directions"),
}


# -- binomial central moments --------------------------------------------------------------------

def binomial_central_moments(n: int, p: Any, r_max: int, *, dps: int = DEFAULT_DPS,
                             method: str = "auto") -> list[mpmath.mpf]:
    """[mu_0, ..., mu_{r_max}], mu_r = E[(k - n p)^r] for k ~ Bin(n, p), at ``dps`` digits.

    ``method="direct"`` sums pmf(k) (k - np)^r over k = 0..n (n + 1 terms; odd r mix signs, the
    absolute error is <= ~n 10^-dps E|k - np|^r).  ``method="cumulant"``: the Bernoulli central
    moments b_j = p q^j + q (-p)^j give the Bernoulli cumulants c_j (moment-cumulant recursion),
    the binomial cumulants are n c_j, and the central moments follow from
    mu_r = sum_{j=2}^r C(r-1, j-1) n c_j mu_{r-j}; O(r_max^2) operations, computed with
    r_max + 30 guard digits.  ``auto``: direct for n <= 200, cumulant above.  Both are tested
    against exact Fractions for rational p.
    """
    n = _check_n(n)
    if r_max < 0:
        raise InvalidInputError("r_max must be >= 0")
    if method == "auto":
        method = "direct" if n <= 200 else "cumulant"
    if method == "direct":
        with mpmath.workdps(dps + 20):
            pp = _mp(p)
            qq = 1 - pp
            mean = n * pp
            out = [mpmath.mpf(0)] * (r_max + 1)
            logp, logq = (mpmath.log(pp) if pp > 0 else None), (mpmath.log(qq) if qq > 0 else None)
            for k in range(n + 1):
                if (k > 0 and logp is None) or (k < n and logq is None):
                    continue
                lw = mpmath.log(mpmath.binomial(n, k))
                if k:
                    lw += k * logp
                if n - k:
                    lw += (n - k) * logq
                w = mpmath.exp(lw)
                t = k - mean
                acc = w
                for r in range(r_max + 1):
                    out[r] += acc
                    acc *= t
            return [+x for x in out]
    if method != "cumulant":
        raise InvalidInputError(f"unknown method {method!r}")
    with mpmath.workdps(dps + r_max + 30):
        pp = _mp(p)
        qq = 1 - pp
        b = [mpmath.mpf(1)] + [pp * qq ** j + qq * (-pp) ** j for j in range(1, r_max + 1)]
        c = [mpmath.mpf(0)] * (r_max + 1)
        for r in range(2, r_max + 1):
            s = b[r]
            for j in range(2, r - 1):
                s -= mpmath.binomial(r - 1, j - 1) * c[j] * b[r - j]
            c[r] = s
        mu = [mpmath.mpf(1), mpmath.mpf(0)] + [mpmath.mpf(0)] * max(0, r_max - 1)
        for r in range(2, r_max + 1):
            s = mpmath.mpf(0)
            for j in range(2, r + 1):
                s += mpmath.binomial(r - 1, j - 1) * n * c[j] * mu[r - j]
            mu[r] = s
        return [+x for x in mu[: r_max + 1]]


# -- Thm 5.3.5 / 5.3.6: the special case ---------------------------------------------------------

def _special_sum(m: Any, E: mpmath.mpf, a: int, *, i_from: int = 3) -> mpmath.mpf:
    """sum_{i=i_from}^{a} C(a,i) i Gamma(i/2) ((E^2-1)^2/(2 E^2 m))^{i/2} (m may be non-integer)."""
    x = (E * E - 1) ** 2 / (2 * E * E * m)
    s = mpmath.mpf(0)
    for i in range(i_from, a + 1):
        s += mpmath.binomial(a, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * x ** (mpmath.mpf(i) / 2)
    return s


def thm535_special_case(m: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.5, eq. (5.13): for special pairs D_m = (d, ..., d), D'_m = (d, ..., d, d')
    of m records and any eps0-LDP randomizer,

        E_{h ~ M(D_m)}[(M(D'_m)(h)/M(D_m)(h))^alpha]
            <= 1 + C(alpha,2)(E-1)^2/(m E) + sum_{i=3}^alpha C(alpha,i) i Gamma(i/2) ((E^2-1)^2/(2 m E^2))^{i/2}.

    Integer alpha >= 2, m >= 1.  Returns the moment bound (not an RDP value).  At alpha = 2 it is
    attained by 2RR (Lemma 5.3.5: chi^2 = (E-1)^2/E).  Neighbouring: the last record replaced.
    """
    m = _check_n(m, "m")
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        val = 1 + mpmath.binomial(a, 2) * (E - 1) ** 2 / (m * E) + _special_sum(m, E, a)
    with mpmath.workdps(dps):
        return +val


def thm536_special_case(m: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.6, eq. (5.16): the same moment as (5.13) is <= exp(alpha^2 (E-1)^2/m) for
    real alpha >= 2 (the App. D.2.2 proof uses no integrality and no alpha >= 2; real alpha > 1
    is accepted)."""
    m = _check_n(m, "m")
    e = _check_eps0(eps0)
    a = _check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return mpmath.inf
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        val = mpmath.exp(_mp(alpha) ** 2 * (E - 1) ** 2 / m)
    with mpmath.workdps(dps):
        return +val


# -- Thm 5.3.1, Cor 5.3.1, Remark 5.3.2, Thm 5.3.2, EFM19 ----------------------------------------

def _tail_531(n: int, E: mpmath.mpf, eps0: mpmath.mpf, a: mpmath.mpf, tail: str,
              g: mpmath.mpf) -> mpmath.mpf:
    chern = -g * g * (n - 1) / (2 * E)  # gamma = 1/2: -(n-1)/(8E)
    if tail == "thesis":
        return mpmath.exp(eps0 * a + chern)
    if tail == "refined":
        e0 = (E ** a + E ** (1 - a)) / (E + 1)
        return (e0 - 1) * mpmath.exp(chern)
    if tail == "none":
        return mpmath.mpf(0)
    raise InvalidInputError(f"unknown tail {tail!r} (thesis | refined)")


def thm531_upper(n: int, eps0: Any, alpha: Any, *, variant: str = "thesis", tail: str = "thesis",
                 chernoff_gamma: Any = Fraction(1, 2), cap: bool = False,
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.1 (Upper Bound 1), eq. (5.4), line 8178: for any n >= 1, eps0 >= 0, integer
    alpha >= 2 and any discrete eps0-LDP randomizer, the shuffled mechanism satisfies

        eps(alpha) <= 1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(nbar E)
                         + sum_{i=3}^alpha C(alpha,i) i Gamma(i/2) ((E^2-1)^2/(2 E^2 nbar))^{i/2}
                         + e^{eps0 alpha - (n-1)/(8E)}),       nbar = floor((n-1)/(2E)) + 1.

    Neighbouring: replacement; the bound is on the sup over ordered pairs (both directions).

    ``variant``: ``"thesis"`` (nbar as above) or ``"n_unbarred"`` (the other reading of the
    extraction, n in place of nbar; refuted by the exact shuffled 2RR value, e.g. n = 1000,
    eps0 = 2, alpha = 2: see ``proofs_checks/thm531_upper_bound.py``; kept to re-run that
    decision).  ``tail``: ``"thesis"`` or ``"refined"`` (module doc; not in the thesis).
    ``chernoff_gamma``: Remark 5.3.3 (default 1/2 as printed).  ``cap``: min(., eps0).
    """
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    g = _check_gamma_chernoff(chernoff_gamma)
    if variant not in ("thesis", "n_unbarred"):
        raise InvalidInputError(f"unknown variant {variant!r} (thesis | n_unbarred)")
    if mpmath.isinf(e):
        return mpmath.inf
    nb = n if variant == "n_unbarred" else nbar(n, eps0, chernoff_gamma=chernoff_gamma, dps=dps)
    with mpmath.workdps(dps + 10):
        ee = _mp(eps0)
        E = mpmath.exp(ee)
        inner = (mpmath.binomial(a, 2) * (E - 1) ** 2 / (nb * E) + _special_sum(nb, E, a)
                 + _tail_531(n, E, ee, mpmath.mpf(a), tail, _mp(chernoff_gamma)))
        val = _log1p_over(inner, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return _capped(+val, +e, cap)


def thm531_upper_real(n: int, eps0: Any, alpha: Any, **kwargs: Any) -> mpmath.mpf:
    """(5.4) at a real order alpha > 1 through the interpolation (5.6) of Remark 5.3.2."""
    a = _check_alpha(alpha, integer=False)
    if mpmath.isinf(a):
        return mpmath.inf
    return interpolate_real_alpha(lambda j: thm531_upper(n, eps0, j, **kwargs), alpha,
                                  dps=kwargs.get("dps", DEFAULT_DPS))


def interpolate_real_alpha(eps_at_integer: Callable[[int], Any], alpha: Any, *,
                           dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Remark 5.3.2, eq. (5.6): for real alpha > 1, with a = ceil(alpha) - alpha,

        eps(alpha) <= [a (floor(alpha)-1) eps(floor(alpha)) + (1-a)(ceil(alpha)-1) eps(ceil(alpha))]/(alpha-1),

    valid because (alpha - 1) D_alpha(P||Q) is convex in alpha [EH14, Cor 2] (per pair, hence for
    upper bounds on the sup).  For 1 < alpha < 2 the floor(alpha) = 1 term is 0 ((alpha-1)D_alpha
    -> 0 as alpha -> 1 for the finite-support pure-DP laws here).  Integer alpha returns
    eps_at_integer(alpha).  ``eps_at_integer`` must be an upper bound valid at integer orders.
    """
    a = _check_alpha(alpha, integer=False)
    if mpmath.isinf(a):
        raise InvalidInputError("alpha = inf cannot be interpolated")
    with mpmath.workdps(dps + 10):
        aa = _mp(alpha)
        lo, hi = int(mpmath.floor(aa)), int(mpmath.ceil(aa))
        if lo == hi:
            val = _mp(eps_at_integer(lo))
        else:
            w = hi - aa
            term_lo = mpmath.mpf(0) if lo == 1 else w * (lo - 1) * _mp(eps_at_integer(lo))
            val = (term_lo + (1 - w) * (hi - 1) * _mp(eps_at_integer(hi))) / (aa - 1)
    with mpmath.workdps(dps):
        return +val


def cor531_condition(n: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> bool:
    """alpha^4 e^{5 eps0} < n/9 (Cor 5.3.1), decided exactly for eps0 = 0 (9 alpha^4 < n) and
    with guard digits otherwise (equality is impossible for eps0 > 0 rational-in-floats)."""
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = _check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return False
    if e == 0 and a == mpmath.floor(a):
        return 9 * int(a) ** 4 < n
    with mpmath.workdps(dps + 20):
        return bool(_mp(alpha) ** 4 * mpmath.exp(5 * _mp(eps0)) < mpmath.mpf(n) / 9)


def cor531_upper(n: int, eps0: Any, alpha: Any, *, form: str = "5.5", enforce: bool = True,
                 cap: bool = False, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Cor 5.3.1 (Simplified Upper Bound 1), eq. (5.5): if alpha^4 e^{5 eps0} < n/9
    (integer alpha >= 2), eps(alpha) <= 1/(alpha-1) log(1 + 4 C(alpha,2)(E-1)^2/n).

    ``form="D.1"``: the intermediate statement (D.1) of App. D.1,
    1/(alpha-1) log(1 + alpha^2 (E-1)^2/(nbar E)) with nbar floored (D.1 prints it unfloored).
    The condition is enforced (``ValidityConditionError``) unless ``enforce=False`` (used only by
    the checks that probe the bound outside its stated range).  Neighbouring: replacement.
    """
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    if enforce and not cor531_condition(n, eps0, a, dps=dps):
        raise ValidityConditionError(
            f"Cor 5.3.1 needs alpha^4 e^(5 eps0) < n/9; alpha={a}, eps0={eps0}, n={n} violate it")
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        if form == "5.5":
            x = 4 * mpmath.binomial(a, 2) * (E - 1) ** 2 / n
        elif form == "D.1":
            x = mpmath.mpf(a) ** 2 * (E - 1) ** 2 / (nbar(n, eps0, dps=dps) * E)
        else:
            raise InvalidInputError(f"unknown form {form!r} (5.5 | D.1)")
        val = _log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return _capped(+val, +e, cap)


def thm532_upper(n: int, eps0: Any, alpha: Any, *, cap: bool = False,
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.2 (Upper Bound 2), eq. (5.7): for any real alpha > 1,

        eps(alpha) <= 1/(alpha-1) log(e^{alpha^2 (E-1)^2/nbar} + e^{eps0 alpha - (n-1)/(8E)}).

    Printed for "any alpha >= 1"; at alpha = 1 the right side is +inf, so alpha > 1 is required.
    The proof (Sec. 5.3.1.2) uses Thm 5.3.6 (App. D.2.2, valid for real alpha) in (5.15).
    Neighbouring: replacement.  alpha = inf gives inf.
    """
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = _check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return mpmath.inf
    nb = nbar(n, eps0, dps=dps)
    with mpmath.workdps(dps + 10):
        ee, aa = _mp(eps0), _mp(alpha)
        E = mpmath.exp(ee)
        # log(e^u + e^v) - 0, with u >= 0: log(e^u + e^v) = u + log1p(e^{v-u})
        u = aa * aa * (E - 1) ** 2 / nb
        v = ee * aa - (n - 1) / (8 * E)
        hi, lo = (u, v) if u >= v else (v, u)
        val = (hi + mpmath.log1p(mpmath.exp(lo - hi))) / (aa - 1)
    with mpmath.workdps(dps):
        return _capped(+val, +e, cap)


def efm19_upper(n: int, eps0: Any, alpha: Any, *, cap: bool = False,
                dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[EFM19, Remark 1] as quoted in thesis eq. (5.8): eps(alpha) = 2 alpha e^{4 eps0}(E-1)^2/n
    for any alpha > 1 (no condition stated in the thesis).  Neighbouring: replacement."""
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = _check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return mpmath.inf
    with mpmath.workdps(dps + 10):
        ee = _mp(eps0)
        val = 2 * _mp(alpha) * mpmath.exp(4 * ee) * mpmath.expm1(ee) ** 2 / n
    with mpmath.workdps(dps):
        return _capped(+val, +e, cap)


# -- lower bounds Thm 5.3.3, Cor 5.3.2 -----------------------------------------------------------

def thm533_lower(n: int, eps0: Any, alpha: Any, *, variant: str = "thesis",
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.3 (Lower Bound), eq. (5.9), line 8310: for integer alpha >= 2,

        eps(alpha) >= 1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(n E)
                        + sum_{i=3}^alpha C(alpha,i) ((E^2-1)/(n E))^i E[(k - n/(E+1))^i]),

    k ~ Bin(n, 1/(E+1)), evaluated from the exact central moments
    (:func:`binomial_central_moments`).  It is D_alpha(M(D') || M(D)) for shuffled 2RR with
    D = 0^n, D' = 0^{n-1}1 (Sec. 5.3.4, identity (5.40) with the ratio the right way up).  The
    reverse direction D_alpha(M(D) || M(D')) is larger here: (5.9) is a valid but not the best
    2RR lower bound.  ``variant="nbar"`` puts nbar in place of n in the coefficients (the other
    reading of the extraction; refuted, see the check).  eps0 = inf gives inf.
    """
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    if variant not in ("thesis", "nbar"):
        raise InvalidInputError(f"unknown variant {variant!r} (thesis | nbar)")
    if mpmath.isinf(e):
        return mpmath.inf
    nn = n if variant == "thesis" else nbar(n, eps0, dps=dps)
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        p = 1 / (E + 1)
        mu = binomial_central_moments(n, p, a, dps=dps + 10)
        c = (E * E - 1) / (nn * E)
        x = mpmath.binomial(a, 2) * (E - 1) ** 2 / (nn * E)
        for i in range(3, a + 1):
            x += mpmath.binomial(a, i) * c ** i * mu[i]
        val = _log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


def cor532_lower(n: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Cor 5.3.2, eq. (5.10): eps(alpha) >= 1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(n E)).

    Follows from (5.9) once every odd central moment of k ~ Bin(n, p), p = 1/(E+1) <= 1/2, is
    >= 0.  The printed argument (Jensen for x^i) is invalid for odd i (x^i is not convex on R).
    A correct argument: k - np = sum_j X_j with X_j = B_j - p i.i.d.; expanding (sum_j X_j)^i
    multinomially and using independence, E[(k-np)^i] is a sum of products of the Bernoulli
    central moments E[X^r] = p q^r + q (-p)^r, which are all >= 0 when p <= q (for odd r it is
    p q (q^{r-1} - p^{r-1})).  Sympy-checked in :mod:`bcdp.shuffle.symbolic`.
    """
    n = _check_n(n)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        val = _log1p_over(mpmath.binomial(a, 2) * (E - 1) ** 2 / (n * E), mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


# -- subsampled shuffle: Thm 5.4.1, 5.4.2, 5.4.4, 5.4.6, Lemma 5.4.1 ------------------------------

def _check_nk(n: Any, k: Any) -> tuple[int, int]:
    n = _check_n(n)
    k = _check_n(k, "k")
    if k > n:
        raise InvalidInputError(f"k must be <= n, got k={k}, n={n}")
    return n, k


def upsilon(alpha: int, x: Any, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """(1 + x)^alpha - 1 - alpha x = sum_{lambda=2}^alpha C(alpha, lambda) x^lambda (binomial
    theorem; the Upsilon of Thm 5.4.1 is upsilon(alpha, gamma (E - 1/E)) e^{-(k-1)/(8E)})."""
    with mpmath.workdps(dps + 10):
        xx = _mp(x)
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
    k = _check_n(k, "k")
    e = _check_eps0(eps0)
    lm = _check_alpha(lam, integer=False)
    if lm < 2:
        raise InvalidInputError(f"lambda must be >= 2, got {lam!r}")
    if k < 2 or e == 0:
        raise ValidityConditionError(f"Thm 5.4.4 needs k >= 2 and eps0 > 0 (k={k}, eps0={eps0})")
    if mpmath.isinf(e) or mpmath.isinf(lm):
        return mpmath.inf
    kb = kbar(k, eps0, floor=kbar_floor, dps=dps)
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        lmb = _mp(lam)
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
    m = _check_n(m, "m")
    e = _check_eps0(eps0)
    lmb = int(_check_alpha(lam, integer=True))
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
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
    a = int(_check_alpha(alpha, integer=True))
    with mpmath.workdps(dps + 10):
        g = _mp(gamma)
        if mpmath.isnan(g) or not (0 < g <= 1):
            raise InvalidInputError(f"gamma must lie in (0, 1], got {gamma!r}")
        x = mpmath.mpf(0)
        for lam in range(2, a + 1):
            x += mpmath.binomial(a, lam) * g ** lam * _mp(zeta_pow(lam))
        val = _log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


THM541_VARIANTS = ("thesis", "girgis_code", "koskela", "k_unbarred")


def thm541_upper(n: int, k: int, eps0: Any, alpha: Any, *, variant: str = "thesis",
                 kbar_floor: bool | None = None, cap: bool = False,
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.4.1 (subsampled shuffle, upper bound), line 10160: for k <= n, gamma = k/n,
    integer alpha >= 2, c = (E^2-1)/E = E - 1/E,

        eps(alpha) <= 1/(alpha-1) log(1 + 4 C(alpha,2) gamma^2 (E-1)^2/(kbar E)
                        + sum_{j=3}^alpha C(alpha,j) gamma^j j Gamma(j/2) (2(E^2-1)^2/(kbar E^2))^{j/2}
                        + Upsilon),
        Upsilon = ((1 + gamma c)^alpha - 1 - alpha gamma c) e^{-(k-1)/(8E)},  kbar = floor((k-1)/(2E)) + 1.

    It is Lemma 5.4.1 applied to (5.43) (the tails sum to Upsilon by the binomial theorem).
    Neighbouring: replacement, k of n sampled without replacement (5.3).

    ``variant`` (module doc): ``"thesis"``, ``"girgis_code"`` (anchors.md A4: no floor, j = 2 term
    C(alpha,2) gamma^2 (E-1/E)^2/kbar, tail (1+gamma(E-1))^alpha - 1 - gamma(E-1), k = gamma n),
    ``"koskela"`` (anchors.md A5: c/2 in the tail).  ``"k_unbarred"``: k in place of kbar (the other
    reading of the extraction; refuted by the exact subsampled 2RR value, see the check).
    ``kbar_floor`` overrides the variant's floor.
    """
    n, k = _check_nk(n, k)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    if variant not in THM541_VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} {THM541_VARIANTS}")
    if mpmath.isinf(e):
        return mpmath.inf
    floor = (variant != "girgis_code") if kbar_floor is None else kbar_floor
    kb = k if variant == "k_unbarred" else kbar(k, eps0, floor=floor, dps=dps)
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
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
        val = _log1p_over(quad + s + tail, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return _capped(+val, +e, cap)


def thm542_lower(n: int, k: int, eps0: Any, alpha: Any, *, variant: str = "thesis",
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.4.2 (subsampled shuffle, lower bound): for integer alpha >= 2, gamma = k/n,

        eps(alpha) >= 1/(alpha-1) log(1 + C(alpha,2) gamma^2 (E-1)^2/(k E)
                        + sum_{j=3}^alpha C(alpha,j) gamma^j ((E^2-1)/(k E))^j E[(m - k/(E+1))^j]),

    m ~ Bin(k, 1/(E+1)).  It is D_alpha(M_s(D') || M_s(D)) for 2RR, D = 0^n, D' = 0^{n-1}1:
    M_s(D')/M_s(D) = 1 + gamma (M_k(D'_k)/M_k(D_k) - 1).  ``variant="kbar"`` uses kbar in the
    coefficients (the other reading of the printed 'k'; refuted by the exact value).
    """
    n, k = _check_nk(n, k)
    e = _check_eps0(eps0)
    a = int(_check_alpha(alpha, integer=True))
    if variant not in ("thesis", "kbar"):
        raise InvalidInputError(f"unknown variant {variant!r} (thesis | kbar)")
    if mpmath.isinf(e):
        return mpmath.inf
    kk = k if variant == "thesis" else kbar(k, eps0, dps=dps)
    with mpmath.workdps(dps + 10):
        E = mpmath.exp(_mp(eps0))
        g = mpmath.mpf(k) / n
        mu = binomial_central_moments(k, 1 / (E + 1), a, dps=dps + 10)
        c = (E * E - 1) / (kk * E)
        x = mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kk * E)
        for j in range(3, a + 1):
            x += mpmath.binomial(a, j) * g ** j * c ** j * mu[j]
        val = _log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


# -- float64 path (log-space, arrays of integer orders) ------------------------------------------

def _alphas_int(alphas: Sequence[int] | np.ndarray | int) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(alphas))
    if arr.dtype.kind == "f":
        if np.any(np.isnan(arr)):
            raise InvalidInputError("alpha is NaN")
        if np.any(arr != np.floor(arr)) or np.any(~np.isfinite(arr)):
            raise InvalidInputError("integer orders alpha >= 2 required")
    arr = arr.astype(np.int64)
    if np.any(arr < 2):
        raise InvalidInputError("alpha must be an integer >= 2")
    return arr


def _log_special_terms(a: int, log_x_half: float, start: int = 3) -> np.ndarray:
    """log of C(a,i) i Gamma(i/2) x^{i/2}, i = start..a, given log(x)/2."""
    i = np.arange(start, a + 1, dtype=float)
    return (gammaln(a + 1) - gammaln(i + 1) - gammaln(a - i + 1) + np.log(i) + gammaln(i / 2)
            + i * log_x_half)


def _float_orders(alphas: Sequence[float] | np.ndarray) -> np.ndarray:
    """Orders for the float twins: a 1-D float array, every entry > 1 and not NaN."""
    arr = np.atleast_1d(np.asarray(alphas, dtype=float))
    if np.any(np.isnan(arr)) or np.any(arr <= 1):
        raise InvalidInputError("alpha must be > 1 (and not NaN)")
    return arr


def _log1p_exp_over(lse: float, a: float) -> float:
    """log(1 + e^lse)/(a - 1) in float64 without overflow (the last step of the log-space twins)."""
    return math.log1p(math.exp(lse)) / (a - 1) if lse < 700 else (lse + math.log1p(math.exp(-lse))) / (a - 1)


def thm531_upper_float(n: int, eps0: float, alphas: Sequence[int] | np.ndarray, *,
                       cap: bool = False) -> np.ndarray:
    """Float64 log-space twin of :func:`thm531_upper` (thesis variant, thesis tail)."""
    n = _check_n(n)
    e = float(_check_eps0(eps0))
    arr = _alphas_int(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    E = math.exp(e)
    nb = nbar(n, eps0)
    out = np.empty(arr.shape)
    log_q = 2 * math.log(math.expm1(e)) - math.log(nb * E) if e > 0 else -np.inf
    log_x_half = (2 * math.log((E * E - 1)) - math.log(2 * E * E * nb)) / 2 if e > 0 else -np.inf
    for idx, a in enumerate(arr):
        terms = [math.log(a * (a - 1) / 2) + log_q, e * a - (n - 1) / (8 * E)]
        if a >= 3 and e > 0:
            terms.extend(_log_special_terms(int(a), log_x_half))
        lse = float(logsumexp(terms))
        out[idx] = _log1p_exp_over(lse, a)
    if cap:
        out = np.minimum(out, e)
    return out


def thm532_upper_float(n: int, eps0: float, alphas: Sequence[float] | np.ndarray, *,
                       cap: bool = False) -> np.ndarray:
    """Float64 twin of :func:`thm532_upper` (real orders > 1)."""
    n = _check_n(n)
    e = float(_check_eps0(eps0))
    arr = _float_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    E = math.exp(e)
    nb = nbar(n, eps0)
    u = arr ** 2 * math.expm1(e) ** 2 / nb
    v = e * arr - (n - 1) / (8 * E)
    out = np.logaddexp(u, v) / (arr - 1)
    out = np.where(np.isinf(arr), np.inf, out)
    return np.minimum(out, e) if cap else out


def efm19_upper_float(n: int, eps0: float, alphas: Sequence[float] | np.ndarray, *,
                      cap: bool = False) -> np.ndarray:
    """Float64 twin of :func:`efm19_upper`."""
    n = _check_n(n)
    e = float(_check_eps0(eps0))
    arr = _float_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    out = 2 * arr * math.exp(4 * e) * math.expm1(e) ** 2 / n
    return np.minimum(out, e) if cap else out


def thm541_upper_float(n: int, k: int, eps0: float, alphas: Sequence[int] | np.ndarray, *,
                       variant: str = "thesis", cap: bool = False) -> np.ndarray:
    """Float64 log-space twin of :func:`thm541_upper` (all three variants)."""
    n, k = _check_nk(n, k)
    e = float(_check_eps0(eps0))
    arr = _alphas_int(alphas)
    if variant not in THM541_VARIANTS[:3]:
        raise InvalidInputError(f"unknown variant {variant!r} {THM541_VARIANTS[:3]}")
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    if e == 0:
        return np.zeros(arr.shape)
    E = math.exp(e)
    kb = float(kbar(k, eps0, floor=(variant != "girgis_code")))
    g = k / n
    c = E - 1 / E
    lg = math.log(g)
    out = np.empty(arr.shape)
    log_y_half = (math.log(2) + 2 * math.log(E * E - 1) - math.log(kb * E * E)) / 2
    decay = -(k - 1) / (8 * E)
    for idx, a in enumerate(arr):
        a = int(a)
        if variant == "girgis_code":
            lquad = math.log(a * (a - 1) / 2) + 2 * lg + 2 * math.log(c) - math.log(kb)
            x = g * (E - 1)
            ltail = math.log(math.expm1(a * math.log1p(x)) - x) + decay
        else:
            lquad = math.log(2 * a * (a - 1)) + 2 * lg + 2 * math.log(math.expm1(e)) - math.log(kb * E)
            x = g * c if variant == "thesis" else g * c / 2
            # (1+x)^a - 1 - a x = sum_{l>=2} C(a,l) x^l, summed in log space (no cancellation)
            l_ = np.arange(2, a + 1, dtype=float)
            ltail = float(logsumexp(gammaln(a + 1) - gammaln(l_ + 1) - gammaln(a - l_ + 1)
                                    + l_ * math.log(x))) + decay
        terms = [lquad, ltail]
        if a >= 3:
            terms.extend(_log_special_terms(a, log_y_half) + np.arange(3, a + 1) * lg)
        lse = float(logsumexp(terms))
        out[idx] = _log1p_exp_over(lse, a)
    return np.minimum(out, e) if cap else out
