"""Renyi DP of n shuffled eps0-LDP reports: the closed-form bounds of thesis Sec. 5.3 (high precision).

Source: Girgis, PhD thesis, Chapter 5 (Sec. 5.3, "RDP of the shuffle model") and Appendix D.1-D.2.
One function per theorem or equation, each with its provenance, its validity conditions (checked,
never assumed) and the neighbouring relation it speaks about; the registry of these facts is
:data:`bcdp.shuffle.registry.BOUNDS`.

Setting and conventions (thesis Sec. 5.2, Table 5.1)
----------------------------------------------------
* Each of n clients applies the same eps0-LDP randomizer R with a discrete range [B]; the shuffler
  releases the histogram h (eq. (5.1)-(5.2)).
* Neighbouring relation: **replacement of one record**, D = (d_1..d_n), D' = (d_1..d_{n-1}, d'_n).
  The RDP curve is eps(alpha) = sup over ordered neighbouring pairs of D_alpha(M(D) || M(D')),
  D_alpha(P||Q) = log(E_Q[(P/Q)^alpha])/(alpha-1) (natural log).  Every upper bound below bounds
  this supremum over *all* discrete eps0-LDP randomizers; the lower bounds are the exact value of
  one pair for binary randomized response (2RR) in one direction (stated per function).
* E = e^eps0, nbar = floor((n-1)/(2E)) + 1.

Numerics and inputs
-------------------
Every function evaluates in ``mpmath`` at ``dps`` decimal digits (default 60) and returns an
``mpmath.mpf``.  Inputs follow :mod:`bcdp.shuffle.inputs`: exact values or mpf, **floats refused**
(the float64 twins ``*_float`` are in :mod:`bcdp.shuffle.float_bounds`).  Sums have non-negative
terms except where stated.  ``log1p`` is used for log(1 + x) so that tiny bounds (n = 10^7) keep
their relative accuracy.  Floors are decided with guard digits (:func:`nbar`).  eps0 = inf (no
local privacy) gives +inf for every upper and lower bound (never NaN).

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
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import mpmath

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import GUARD_DPS, MAX_DPS, MIN_DPS, check_precision
from bcdp.shuffle.inputs import (
    DEFAULT_DPS,
    cancellation_digits,
    capped,
    check_alpha,
    check_chernoff_gamma,
    check_count,
    check_eps0,
    condition_gap_sign,
    floor_certified,
    log1p_over,
    read_mpf,
)

# -- nbar ---------------------------------------------------------------------------------------------

def nbar(n: int, eps0: Any, *, floor: bool = True, chernoff_gamma: Any = Fraction(1, 2),
         dps: int = DEFAULT_DPS) -> int | mpmath.mpf:
    """nbar = floor((1-gamma)(n-1)/e^eps0) + 1, gamma = 1/2: floor((n-1)/(2 e^eps0)) + 1.

    Thesis Sec. 5.3.1, (5.4) (the bar is lost in the text extraction), (5.7), (5.15): nbar - 1 is the index
    m0 = floor((1-gamma) q (n-1)) (q = e^-eps0) of the Chernoff split (5.14), and Thm 5.3.5 is
    applied to the special case on m0 + 1 = nbar points, so nbar is an integer.  ``floor=False``
    gives (1-gamma)(n-1)/E + 1, which is what App. D.1 (D.1)/(D.9) uses; it is *not* justified by
    the proof (it is a bad twin in the checks).  eps0 = inf gives 1.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    check_chernoff_gamma(chernoff_gamma)
    if mpmath.isinf(e):
        return 1 if floor else mpmath.mpf(1)

    if floor:
        from bcdp.accounting.inputs import enclose

        def x_ball():   # (1 - gamma)(n - 1)/e^eps0 with the inputs read exactly ("1e-110" is not an mpf)
            return (1 - enclose(chernoff_gamma, "chernoff_gamma")) * (n - 1) / enclose(eps0, "eps0").exp()

        return floor_certified(x_ball) + 1
    with mpmath.workdps(dps):
        return +((1 - read_mpf(chernoff_gamma)) * (n - 1) / mpmath.exp(read_mpf(eps0)) + 1)


def kbar(k: int, eps0: Any, *, floor: bool = True, dps: int = DEFAULT_DPS) -> int | mpmath.mpf:
    """kbar = floor((k-1)/(2 e^eps0)) + 1 (Thm 5.4.1, Thm 5.4.4 (5.43)); ``floor=False`` is what the
    thesis author's code evaluates (``privacy_computation.py``, commit 11511d4)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    return nbar(k, eps0, floor=floor, dps=dps)


# -- binomial central moments -----------------------------------------------------------------------

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
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    n = check_count(n)
    if r_max < 0:
        raise InvalidInputError("r_max must be >= 0")
    with mpmath.workdps(dps + 20):
        if not 0 <= read_mpf(p, "p") <= 1:
            raise InvalidInputError(f"p must lie in [0, 1], got {p!r}")
    if method == "auto":
        method = "direct" if n <= 200 else "cumulant"
    if method == "direct":
        with mpmath.workdps(dps + 20):
            pp = read_mpf(p)
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
        pp = read_mpf(p)
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

def special_sum(m: Any, E: mpmath.mpf, a: int, *, i_from: int = 3) -> mpmath.mpf:
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
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    m = check_count(m, "m")
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        val = 1 + mpmath.binomial(a, 2) * (E - 1) ** 2 / (m * E) + special_sum(m, E, a)
    with mpmath.workdps(dps):
        return +val


def thm536_special_case(m: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.6, eq. (5.16): the same moment as (5.13) is <= exp(alpha^2 (E-1)^2/m) for
    real alpha >= 2 (the App. D.2.2 proof uses no integrality and no alpha >= 2; real alpha > 1
    is accepted)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    m = check_count(m, "m")
    e = check_eps0(eps0)
    a = check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return mpmath.inf
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        val = mpmath.exp(read_mpf(alpha) ** 2 * (E - 1) ** 2 / m)
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
    """Thesis Thm 5.3.1 (Upper Bound 1), eq. (5.4): for any n >= 1, eps0 >= 0, integer
    alpha >= 2 and any discrete eps0-LDP randomizer, the shuffled mechanism satisfies

        eps(alpha) <= 1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(nbar E)
                         + sum_{i=3}^alpha C(alpha,i) i Gamma(i/2) ((E^2-1)^2/(2 E^2 nbar))^{i/2}
                         + e^{eps0 alpha - (n-1)/(8E)}),       nbar = floor((n-1)/(2E)) + 1.

    Neighbouring: replacement; the bound is on the sup over ordered pairs (both directions).

    ``variant``: ``"thesis"`` (nbar as above) or ``"n_unbarred"`` (the other reading of the
    extraction, n in place of nbar; refuted by the exact shuffled 2RR value, e.g. n = 1000,
    eps0 = 2, alpha = 2: see the check ``thesis_thm531_upper``; kept to re-run that
    decision).  ``tail``: ``"thesis"`` or ``"refined"`` (module doc; not in the thesis).
    ``chernoff_gamma``: Remark 5.3.3 (default 1/2 as printed).  ``cap``: min(., eps0).
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    check_chernoff_gamma(chernoff_gamma)
    if variant not in ("thesis", "n_unbarred"):
        raise InvalidInputError(f"unknown variant {variant!r} (thesis | n_unbarred)")
    if mpmath.isinf(e):
        return mpmath.inf
    nb = n if variant == "n_unbarred" else nbar(n, eps0, chernoff_gamma=chernoff_gamma, dps=dps)
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        ee = read_mpf(eps0)
        E = mpmath.exp(ee)
        inner = (mpmath.binomial(a, 2) * (E - 1) ** 2 / (nb * E) + special_sum(nb, E, a)
                 + _tail_531(n, E, ee, mpmath.mpf(a), tail, read_mpf(chernoff_gamma)))
        val = log1p_over(inner, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return capped(+val, eps0, cap)


def thm531_upper_real(n: int, eps0: Any, alpha: Any, **kwargs: Any) -> mpmath.mpf:
    """(5.4) at a real order alpha > 1 through the interpolation (5.6) of Remark 5.3.2."""
    a = check_alpha(alpha, integer=False)
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
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    a = check_alpha(alpha, integer=False)
    if mpmath.isinf(a):
        raise InvalidInputError("alpha = inf cannot be interpolated")
    with mpmath.workdps(dps + 10):
        aa = read_mpf(alpha)
        lo, hi = int(mpmath.floor(aa)), int(mpmath.ceil(aa))
        if lo == hi:
            val = read_mpf(eps_at_integer(lo))
        else:
            w = hi - aa
            term_lo = mpmath.mpf(0) if lo == 1 else w * (lo - 1) * read_mpf(eps_at_integer(lo))
            val = (term_lo + (1 - w) * (hi - 1) * read_mpf(eps_at_integer(hi))) / (aa - 1)
    with mpmath.workdps(dps):
        return +val


def cor531_condition(n: int, eps0: Any, alpha: Any, *, dps: int = DEFAULT_DPS) -> bool:
    """alpha^4 e^{5 eps0} < n/9 (Cor 5.3.1), decided exactly for eps0 = 0 and integer alpha
    (9 alpha^4 < n) and on arb balls otherwise (:func:`~bcdp.shuffle.inputs.condition_gap_sign`:
    certified, so ``dps`` only validates the signature; equality is impossible for eps0 > 0, as
    e^{5 eps0} is irrational for rational eps0 != 0)."""
    check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return False
    if e == 0 and a == mpmath.floor(a):
        return 9 * int(a) ** 4 < n
    return condition_gap_sign(n, eps0, alpha) < 0


def cor531_upper(n: int, eps0: Any, alpha: Any, *, form: str = "5.5", enforce: bool = True,
                 cap: bool = False, dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Cor 5.3.1 (Simplified Upper Bound 1), eq. (5.5): if alpha^4 e^{5 eps0} < n/9
    (integer alpha >= 2), eps(alpha) <= 1/(alpha-1) log(1 + 4 C(alpha,2)(E-1)^2/n).

    ``form="D.1"``: the intermediate statement (D.1) of App. D.1,
    1/(alpha-1) log(1 + alpha^2 (E-1)^2/(nbar E)) with nbar floored (D.1 prints it unfloored).
    The condition is enforced (``ValidityConditionError``) unless ``enforce=False`` (used only by
    the checks that probe the bound outside its stated range).  Neighbouring: replacement.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if enforce and not cor531_condition(n, eps0, a, dps=dps):
        raise ValidityConditionError(
            f"Cor 5.3.1 needs alpha^4 e^(5 eps0) < n/9; alpha={a}, eps0={eps0}, n={n} violate it")
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        if form == "5.5":
            x = 4 * mpmath.binomial(a, 2) * (E - 1) ** 2 / n
        elif form == "D.1":
            x = mpmath.mpf(a) ** 2 * (E - 1) ** 2 / (nbar(n, eps0, dps=dps) * E)
        else:
            raise InvalidInputError(f"unknown form {form!r} (5.5 | D.1)")
        val = log1p_over(x, mpmath.mpf(a))
    with mpmath.workdps(dps):
        return capped(+val, eps0, cap)


def thm532_upper(n: int, eps0: Any, alpha: Any, *, cap: bool = False,
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.2 (Upper Bound 2), eq. (5.7): for any real alpha > 1,

        eps(alpha) <= 1/(alpha-1) log(e^{alpha^2 (E-1)^2/nbar} + e^{eps0 alpha - (n-1)/(8E)}).

    Printed for "any alpha >= 1"; at alpha = 1 the right side is +inf, so alpha > 1 is required.
    The proof (Sec. 5.3.1.2) uses Thm 5.3.6 (App. D.2.2, valid for real alpha) in (5.15).
    Neighbouring: replacement.  alpha = inf gives inf.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return mpmath.inf
    nb = nbar(n, eps0, dps=dps)
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        ee, aa = read_mpf(eps0), read_mpf(alpha)
        E = mpmath.exp(ee)
        # log(e^u + e^v) - 0, with u >= 0: log(e^u + e^v) = u + log1p(e^{v-u})
        u = aa * aa * (E - 1) ** 2 / nb
        v = ee * aa - (n - 1) / (8 * E)
        hi, lo = (u, v) if u >= v else (v, u)
        val = (hi + mpmath.log1p(mpmath.exp(lo - hi))) / (aa - 1)
    with mpmath.workdps(dps):
        return capped(+val, eps0, cap)


def efm19_upper(n: int, eps0: Any, alpha: Any, *, cap: bool = False,
                dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """[EFM19, Remark 1] as quoted in thesis eq. (5.8): eps(alpha) = 2 alpha e^{4 eps0}(E-1)^2/n
    for any alpha > 1 (no condition stated in the thesis).  Neighbouring: replacement."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = check_alpha(alpha, integer=False)
    if mpmath.isinf(e) or mpmath.isinf(a):
        return mpmath.inf
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        ee = read_mpf(eps0)
        val = 2 * read_mpf(alpha) * mpmath.exp(4 * ee) * mpmath.expm1(ee) ** 2 / n
    with mpmath.workdps(dps):
        return capped(+val, eps0, cap)


# -- lower bounds Thm 5.3.3, Cor 5.3.2 -----------------------------------------------------------

def thm533_lower(n: int, eps0: Any, alpha: Any, *, variant: str = "thesis",
                 dps: int = DEFAULT_DPS) -> mpmath.mpf:
    """Thesis Thm 5.3.3 (Lower Bound), eq. (5.9): for integer alpha >= 2,

        eps(alpha) >= 1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(n E)
                        + sum_{i=3}^alpha C(alpha,i) ((E^2-1)/(n E))^i E[(k - n/(E+1))^i]),

    k ~ Bin(n, 1/(E+1)), evaluated from the exact central moments
    (:func:`binomial_central_moments`).  It is D_alpha(M(D') || M(D)) for shuffled 2RR with
    D = 0^n, D' = 0^{n-1}1 (Sec. 5.3.4, identity (5.40) with the ratio the right way up).  The
    reverse direction D_alpha(M(D) || M(D')) is larger here: (5.9) is a valid but not the best
    2RR lower bound.  ``variant="nbar"`` puts nbar in place of n in the coefficients (the other
    reading of the extraction; refuted, see the check).  eps0 = inf gives inf.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if variant not in ("thesis", "nbar"):
        raise InvalidInputError(f"unknown variant {variant!r} (thesis | nbar)")
    if mpmath.isinf(e):
        return mpmath.inf
    nn = n if variant == "thesis" else nbar(n, eps0, dps=dps)
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        p = 1 / (E + 1)
        mu = binomial_central_moments(n, p, a, dps=dps + 10)
        c = (E * E - 1) / (nn * E)
        x = mpmath.binomial(a, 2) * (E - 1) ** 2 / (nn * E)
        for i in range(3, a + 1):
            x += mpmath.binomial(a, i) * c ** i * mu[i]
        val = log1p_over(x, mpmath.mpf(a))
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
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    e = check_eps0(eps0)
    a = int(check_alpha(alpha, integer=True))
    if mpmath.isinf(e):
        return mpmath.inf
    with mpmath.workdps(dps + 10 + cancellation_digits(eps0)):
        E = mpmath.exp(read_mpf(eps0))
        val = log1p_over(mpmath.binomial(a, 2) * (E - 1) ** 2 / (n * E), mpmath.mpf(a))
    with mpmath.workdps(dps):
        return +val


__all__ = [
    "binomial_central_moments", "cor531_condition", "cor531_upper", "cor532_lower", "efm19_upper",
    "interpolate_real_alpha", "kbar", "nbar", "special_sum", "thm531_upper", "thm531_upper_real",
    "thm532_upper", "thm533_lower", "thm535_special_case", "thm536_special_case",
]
