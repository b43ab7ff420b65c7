"""Baselines of the thesis' Chapter 5 figures (Figs 5.3-5.7): "hiding among the clones" and
optimal composition.

Two external results are implemented, each with its validity conditions enforced and every float
that is reported as a guarantee certified (see "Certification" below).

1. **FMT21 clones** -- V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and
   Nearly Optimal Analysis of Privacy Amplification by Shuffling", FOCS 2021 (arXiv:2012.12803),
   cited by the thesis as [FMT20]/[FMT22]:

   * :func:`clones_closed_form` -- the closed form of FMT21 Thm 3.1 (valid only for
     ``eps0 <= log(n / (16 log(2/delta)))``), in two labelled variants (see its docstring): the
     expression of the theorem as quoted by thesis eq. (6.10) (the paper text itself was not
     available here; the (e^eps0-1)/(e^eps0+1) form is also how secondary sources state it) and
     the slightly larger expression evaluated by the authors' code
     (apple/ml-shuffling-amplification@993d285, ``closedformanalysis``), which is the one behind
     the README number 0.5378040242374512;
   * :func:`clone_pair_delta` -- a certified enclosure of the hockey-stick divergence
     ``D_{e^eps}(P || Q)`` of the clone-reduction pair (FMT21 Thm 3.2; the algorithm of FMT21
     App. E evaluated for every value of C rather than in blocks of ``step`` values, so the
     authors' blocked bounds -- and the latent ``deltaq`` typo of their upper branch, anchors.md
     A1 -- play no role);
   * :func:`clones_numerical` -- the numerical clones bound: the smallest eps with
     ``D_{e^eps}(P || Q) <= delta``, returned as a certified bracket ``(lower, upper)``.

   The clone pair (FMT21 Thm 3.2): ``C ~ Bin(n-1, e^{-eps0})``, ``A ~ Bin(C, 1/2)``,
   ``Delta ~ Bern(e^{eps0}/(e^{eps0}+1))``, ``P = (A + Delta, C - A + 1 - Delta)``,
   ``Q = (A + 1 - Delta, C - A + Delta)``.  The shuffle of n eps0-DP local reports is
   (eps, delta)-DP whenever P and Q are (eps, delta)-indistinguishable.

2. **KOV15 optimal composition** -- P. Kairouz, S. Oh, P. Viswanath, "The Composition Theorem for
   Differential Privacy", ICML 2015 (arXiv:1311.0776): the k-fold adaptive composition of
   (eps, delta)-DP mechanisms is exactly as private as the k-fold product of the 4-point
   (eps, delta) randomized-response pair, so it is
   ``((k - 2i) eps, 1 - (1 - delta)^k (1 - delta_i))``-DP with
   ``delta_i = sum_{l=0}^{i-1} C(k,l) (e^{(k-l)eps} - e^{(k-2i+l)eps}) / (1 + e^eps)^k``, and this
   is tight.  (We cite the *statement*: it is Thm 3.3 of the ICML'15 proceedings as we read it;
   the project notes cite the optimal/closed-form pair as "Thm 3.4/3.5" -- the numbering differs
   between versions.)  :func:`kov_delta` evaluates the privacy profile of that pair at any
   eps_total (the formula above is its value at the grid points ``(k - 2i) eps``);
   :func:`kov_optimal_composition` inverts it.  Labelled simpler bounds: :func:`kov_closed_form`
   (KOV15's closed-form corollary, min of three terms) and :func:`advanced_composition`
   (Dwork-Rothblum-Vadhan FOCS 2010, Thm III.3; Dwork-Roth 2014 Thm 3.20 = thesis Lemma 2.1.2).

3. :func:`clones_kov_composition` -- the thesis' composed baseline "Clones [FMT20] + strong
   composition [KOV15]" (Figs 5.4, 5.6, 5.7): FMT21 per round, KOV15 across rounds, delta split
   chosen on a grid.

Certification
-------------
* Closed forms are evaluated in ``mpmath.iv`` interval arithmetic and the upper end is rounded
  outward to a float; validity conditions are decided on intervals (an undecidable comparison
  raises).
* :func:`clone_pair_delta` uses float64 interval arithmetic with outward rounding
  (``nextafter`` -- or, for non-negative operands in the hot loop, the equivalent
  ``x (1 +/- 2^-52) +/- 2^-1074`` -- after every IEEE-754 +, -, *, /, each correctly rounded;
  numpy's default, no flush-to-zero, is assumed), started from
  ``mpmath.iv`` enclosures of the transcendental constants; binomial tails are summed until a
  geometric remainder bound (valid because consecutive-term ratios decrease) is negligible and
  the remainder is added; the mass of C outside the summed range is bounded by a geometric tail and
  added to the upper bound.  The result ``(lower, upper)`` encloses the exact divergence.
* :func:`clones_numerical` and :func:`kov_optimal_composition` search in floats / mpmath, then
  certify the bracket: ``delta(upper) <= delta`` and ``delta(lower) > delta`` are both proved
  with the interval enclosures, so the exact smallest eps lies in ``(lower, upper]`` and
  ``upper`` is a valid privacy guarantee.
"""

from __future__ import annotations

import functools
import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

import mpmath
import numpy as np
from scipy import optimize, stats

from bcdp.core.errors import ValidityConditionError

__all__ = [
    "CLOSED_FORM_VARIANTS", "DeltaEnclosure", "EpsilonBracket", "advanced_composition", "clone_pair_delta", "clones_closed_form", "clones_closed_form_cap",
    "clones_kov_composition", "clones_numerical", "kov_closed_form", "kov_delta", "kov_optimal_composition",
]

_IV_PREC = 160  # bits for mpmath.iv enclosures of constants and closed forms
_TAIL_REL = 2.0 ** -60  # binomial tail sums stop when the remainder bound is below this fraction


@dataclass(frozen=True)
class DeltaEnclosure:
    """Certified enclosure ``lower <= delta <= upper`` of an exact privacy-profile value."""

    lower: float
    upper: float

    def __iter__(self) -> Iterator[float]:
        return iter((self.lower, self.upper))


@dataclass(frozen=True)
class EpsilonBracket:
    """Smallest eps with ``delta(eps) <= delta`` for an exact privacy profile, bracketed.

    ``upper`` is certified: ``delta(upper) <= delta_at_upper <= delta``, so (upper, delta) is a
    valid guarantee.  ``lower`` is certified as a lower end: ``delta(lower) >= delta_at_lower >
    delta``, so the exact smallest eps is in ``(lower, upper]``; when ``lower == 0`` the lower end
    is trivial and ``delta_at_lower`` is just the certified lower bound on ``delta(0)``
    (``lower == upper == 0`` when eps = 0 already satisfies the target).  Unpacks as ``lower, upper = bracket``.  An infeasible
    target gives ``lower = upper = inf`` with the reason in ``note``.
    """

    lower: float
    upper: float
    delta: float
    delta_at_upper: float
    delta_at_lower: float
    method: str
    note: str = ""
    details: dict = field(default_factory=dict, compare=False)

    def __iter__(self) -> Iterator[float]:
        return iter((self.lower, self.upper))


# -- small helpers ---------------------------------------------------------------------------------

@contextmanager
def _iv_prec(bits: int = _IV_PREC):
    saved = mpmath.iv.prec
    mpmath.iv.prec = bits
    try:
        yield mpmath.iv
    finally:
        mpmath.iv.prec = saved


@contextmanager
def _mp_prec(bits: int):
    saved = mpmath.mp.prec
    mpmath.mp.prec = bits
    try:
        yield mpmath.mp
    finally:
        mpmath.mp.prec = saved


def _fl(x) -> tuple[float, float]:
    """Outward float enclosure of an mpmath.iv interval."""
    return math.nextafter(float(x.a), -math.inf), math.nextafter(float(x.b), math.inf)


def _up(x):
    return np.nextafter(x, np.inf)


def _dn(x):
    return np.nextafter(x, -np.inf)


_UPF = 1.0 + 2.0 ** -52
_DNF = 1.0 - 2.0 ** -52
_TINY = 2.0 ** -1074


def _up_pos(x):
    """A float > x for a float x >= 0, cheaper than nextafter (same guarantee).

    For normal x, x * (1 + 2^-52) is exactly >= x + ulp(x), so its round-to-nearest is >=
    nextafter(x, inf); for subnormal x the product rounds to >= x and adding 2^-1074 is exact.
    """
    return x * _UPF + _TINY


def _dn_pos(x):
    """A float in [0, x) (or 0) for a float x >= 0: the mirror of :func:`_up_pos`, clamped at 0."""
    return np.maximum(x * _DNF - _TINY, 0.0)


def _check_prob(name: str, value: float, *, allow_zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    lo_ok = value >= 0 if allow_zero else value > 0
    if not (math.isfinite(value) and lo_ok and value < 1):
        raise ValueError(f"{name} must be in {'[0, 1)' if allow_zero else '(0, 1)'}, got {value!r}")
    return value


def _check_nonneg(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return value


def _check_count(name: str, value: int, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


# == 1. FMT21 closed form ==========================================================================

#: ``"author-code"``: the expression of apple/ml-shuffling-amplification@993d285
#: ``closedformanalysis`` (reproduces the README's 0.5378040242374512); ``"theorem-3.1"``: the
#: expression printed in FMT21 Thm 3.1 and in thesis eq. (6.10).
CLOSED_FORM_VARIANTS = ("author-code", "theorem-3.1")


def clones_closed_form_cap(n: int, delta: float) -> float:
    """FMT21 Thm 3.1 validity cap ``log(n / (16 log(2/delta)))`` (a float enclosure's lower end).

    The theorem holds for ``eps0 <= cap``; thesis eq. (6.10) omits this condition (thesis_part1.md
    "[MISSING CONDITION]"), and the authors' code checks the stricter ``log(n/(16 log(4/delta)))``.
    """
    n = _check_count("n", n)
    delta = _check_prob("delta", delta)
    with _iv_prec() as iv:
        cap = iv.log(iv.mpf(n) / (16 * iv.log(2 / iv.mpf(delta))))
    return _fl(cap)[0]


def clones_closed_form(eps0: float, n: int, delta: float, *, variant: str = "author-code",
                       outside: str = "raise") -> float:
    """FMT21 Thm 3.1 closed-form bound: the shuffle of n eps0-DP local reports is (eps, delta)-DP.

    Source: Feldman, McMillan, Talwar, FOCS 2021 (arXiv:2012.12803), Thm 3.1: for
    ``eps0 <= log(n / (16 log(2/delta)))``,
    ``eps <= log(1 + (e^eps0 - 1)/(e^eps0 + 1) * (8 sqrt(e^eps0 log(4/delta)) / sqrt(n)
    + 8 e^eps0 / n))``  (``variant="theorem-3.1"``; the same expression is thesis eq. (6.10)).

    ``variant="author-code"`` (default) evaluates the expression of the authors' code
    (apple/ml-shuffling-amplification@993d285, ``closedformanalysis``): with
    ``a = 8 sqrt(e^eps0 log(4/delta)/n)``, ``c = 8 e^eps0 / n`` and ``e1 = log(1 + a + c)``,
    ``eps = log(1 + (1 - e^-eps0) / (1 + e^{-eps0-e1}) * (a + c))``.  This is the expression
    behind the README's published 0.5378040242374512 [PUB] and the anchors' [AUTHOR-CODE] values.
    Since ``1 + e^{-eps0-e1} <= 1 + e^{-eps0}`` it is never smaller than the theorem's expression
    (e.g. 0.10468 vs 0.09387 at n = 1e4, eps0 = 0.5, delta = 1e-6), hence it is the conservative
    choice and a valid bound wherever Thm 3.1 is.

    Validity: ``eps0 <= log(n / (16 log(2/delta)))`` (the theorem's condition; decided with
    interval arithmetic).  Outside it, ``outside="raise"`` raises :class:`ValidityConditionError`
    and ``outside="inf"`` returns ``math.inf`` (no guarantee from this theorem).

    Returns a float that is >= the exact value of the chosen expression (interval evaluation,
    upper end rounded outward).
    """
    eps0 = _check_nonneg("eps0", eps0)
    n = _check_count("n", n)
    delta = _check_prob("delta", delta)
    if variant not in CLOSED_FORM_VARIANTS:
        raise ValueError(f"variant must be one of {CLOSED_FORM_VARIANTS}, got {variant!r}")
    if outside not in ("raise", "inf"):
        raise ValueError(f"outside must be 'raise' or 'inf', got {outside!r}")
    with _iv_prec() as iv:
        e0 = iv.mpf(eps0)
        cap = iv.log(iv.mpf(n) / (16 * iv.log(2 / iv.mpf(delta))))
        valid = e0 <= cap  # True / False / None (undecided)
        if valid is not True:
            reason = (f"FMT21 Thm 3.1 needs eps0 <= log(n/(16 log(2/delta))) = {float(cap.b):.6g}"
                      f" for n={n}, delta={delta:g}; got eps0={eps0:g}"
                      + ("" if valid is False else " (comparison undecidable at this precision)"))
            if outside == "inf":
                return math.inf
            raise ValidityConditionError(reason)
        E = iv.exp(e0)
        lg = iv.log(4 / iv.mpf(delta))
        a = 8 * iv.sqrt(E * lg) / iv.sqrt(iv.mpf(n))
        c = 8 * E / n
        if variant == "theorem-3.1":
            val = iv.log(1 + (E - 1) / (E + 1) * (a + c))
        else:
            e1 = iv.log(1 + a + c)
            val = iv.log(1 + (1 - iv.exp(-e0)) / (1 + iv.exp(-e0 - e1)) * (a + c))
    return _fl(val)[1]


# == 1b. FMT21 numerical clones bound ==============================================================

@dataclass(frozen=True)
class _CloneGrid:
    """Support of C ~ Bin(n-1, e^-eps0) that is summed, with certified weights and tail mass."""

    cs: np.ndarray  # int64 values c_lo..c_hi
    w_lo: np.ndarray
    w_hi: np.ndarray
    tail_hi: float  # certified upper bound on P{C outside [c_lo, c_hi]}
    w_mid: np.ndarray  # float weights for the (uncertified) search


def _weights_interval(m: int, eps0: float, c_lo: int, c_hi: int) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Float intervals of Bin(m, e^-eps0) pmf on [c_lo, c_hi] and the ratio p/(1-p)."""
    with _iv_prec() as iv:
        e0 = iv.mpf(eps0)
        p = iv.exp(-e0)
        log1mp = iv.log(1 - p)
        rho = p / (1 - p)
        c = c_lo
        logw = (iv.loggamma(iv.mpf(m + 1)) - iv.loggamma(iv.mpf(c + 1)) - iv.loggamma(iv.mpf(m - c + 1))
                - c * e0 + (m - c) * log1mp)
        w0 = iv.exp(logw)
    lo, hi = _fl(w0)
    lo = max(lo, 0.0)
    r_lo, r_hi = _fl(rho)
    size = c_hi - c_lo + 1
    w_lo = np.empty(size)
    w_hi = np.empty(size)
    w_lo[0], w_hi[0] = lo, hi
    nxt = math.nextafter
    for i in range(1, size):
        cp = c_lo + i - 1  # w_{cp+1} = w_cp * (m - cp)/(cp + 1) * rho
        lo = nxt(nxt(nxt(lo * (m - cp), -math.inf) / (cp + 1), -math.inf) * r_lo, -math.inf)
        hi = nxt(nxt(nxt(hi * (m - cp), math.inf) / (cp + 1), math.inf) * r_hi, math.inf)
        w_lo[i], w_hi[i] = max(lo, 0.0), hi
    return w_lo, w_hi, r_lo, r_hi


@functools.lru_cache(maxsize=64)
def _clone_grid(eps0: float, n: int, tail_tol: float) -> _CloneGrid:
    m = n - 1
    if m == 0:
        one = np.ones(1)
        return _CloneGrid(np.zeros(1, dtype=np.int64), one, one, 0.0, one)
    p = math.exp(-eps0)
    mu = m * p
    sd = math.sqrt(m * p * (1 - p))
    K = 8.0
    while True:
        c_lo = max(0, int(math.floor(mu - K * sd - 2)))
        c_hi = min(m, int(math.ceil(mu + K * sd + K * K + 2)))
        w_lo, w_hi, r_lo, r_hi = _weights_interval(m, eps0, c_lo, c_hi)
        tail = 0.0
        ok = True
        if c_lo > 0:  # sum_{c < c_lo} w_c <= w_{c_lo} r/(1-r), r = c_lo / ((m - c_lo + 1) rho)
            r = _up(c_lo / _dn((m - c_lo + 1) * r_lo))
            ok &= r < 1
            tail = _up(tail + _up(w_hi[0] * _up(r / _dn(1 - r)))) if r < 1 else math.inf
        if c_hi < m:  # sum_{c > c_hi} w_c <= w_{c_hi} r/(1-r), r = (m - c_hi) rho / (c_hi + 1)
            r = _up(_up((m - c_hi) * r_hi) / (c_hi + 1))
            ok &= r < 1
            tail = _up(tail + _up(w_hi[-1] * _up(r / _dn(1 - r)))) if r < 1 else math.inf
        if ok and tail <= tail_tol:
            cs = np.arange(c_lo, c_hi + 1, dtype=np.int64)
            return _CloneGrid(cs, w_lo, w_hi, float(tail), 0.5 * (w_lo + w_hi))
        K *= 1.5


def _clone_constants(eps: float, eps0: float):
    """Float intervals of alpha-derived constants at e^eps (all positive for 0 <= eps < eps0).

    k1 = alpha - E(1-alpha), k3 = E alpha - (1-alpha), k2 = E - 1, beta = k3/(k1 + k3), where
    alpha = e^eps0/(e^eps0 + 1) and E = e^eps.
    """
    with _iv_prec() as iv:
        E = iv.exp(iv.mpf(eps))
        a = 1 / (1 + iv.exp(-iv.mpf(eps0)))
        ab = 1 / (1 + iv.exp(iv.mpf(eps0)))
        k1 = a - E * ab
        k3 = E * a - ab
        k2 = E - 1
        beta = k3 / (k1 + k3)
        if not (k1 > 0):
            return None
    return _fl(k1), _fl(k2), _fl(k3), _fl(beta)


def _clone_delta_float(eps: float, eps0: float, grid: _CloneGrid) -> float:
    """Uncertified float64 value of D_{e^eps}(P || Q) (used only to locate the root)."""
    E = math.exp(eps)
    a = 1 / (1 + math.exp(-eps0))
    ab = 1 / (1 + math.exp(eps0))
    k1 = a - E * ab
    if k1 <= 0:
        return 0.0
    k3 = E * a - ab
    cs = grid.cs
    ys = np.floor(k3 / (k1 + k3) * (cs + 1.0)) + 1
    S = stats.binom.sf(ys - 1, cs, 0.5)
    b = stats.binom.pmf(ys - 1, cs, 0.5)
    g = np.maximum(b * k1 - S * (E - 1), 0.0)
    return float(np.dot(grid.w_mid, g))


def _clone_delta_interval(eps: float, eps0: float, grid: _CloneGrid) -> tuple[float, float]:
    """Certified enclosure of D_{e^eps}(P || Q) for the FMT21 clone pair (see clone_pair_delta)."""
    consts = _clone_constants(eps, eps0)
    if consts is None:  # E >= e^eps0 (or undecidable at the boundary): treat as eps >= eps0
        if eps >= eps0:
            return 0.0, 0.0
        raise ArithmeticError(f"cannot decide e^eps < e^eps0 at eps={eps!r}, eps0={eps0!r}")
    (k1l, k1h), (k2l, k2h), (k3l, k3h), (bl, bh) = consts
    cs = grid.cs
    cf = cs.astype(float)
    # Threshold: P(y|c) > E Q(y|c)  <=>  y > beta (c+1); y* = floor(beta (c+1)) + 1.
    y_lo = np.floor(_dn(bl * (cf + 1))) + 1
    y_hi = np.floor(_up(bh * (cf + 1))) + 1
    y_lo = np.clip(y_lo, 1, cf + 1)
    y_hi = np.clip(y_hi, 1, cf + 1)
    if np.any(y_hi - y_lo > 1) or np.any(np.diff(y_lo) < 0):
        raise ArithmeticError("threshold enclosure too wide; increase precision")
    ys = y_lo.astype(np.int64)
    # b_c(y*-1) = C(c, y*-1) / 2^c along c by exact-ratio recurrences, outward rounded.
    size = len(cs)
    bm_lo = np.empty(size)
    bm_hi = np.empty(size)
    nxt = math.nextafter
    ninf, pinf = -math.inf, math.inf

    def start(c: int, k: int) -> tuple[float, float]:
        with _iv_prec() as iv:
            v = iv.exp(iv.loggamma(iv.mpf(c + 1)) - iv.loggamma(iv.mpf(k + 1))
                       - iv.loggamma(iv.mpf(c - k + 1)) - c * iv.log(iv.mpf(2)))
        lo_, hi_ = _fl(v)
        return max(lo_, 0.0), hi_

    lo, hi = start(int(cs[0]), int(ys[0]) - 1)
    bm_lo[0], bm_hi[0] = lo, hi
    for i in range(1, size):
        c = int(cs[i - 1])
        k = int(ys[i - 1]) - 1
        step = int(ys[i] - ys[i - 1])
        if step == 0:  # b_{c+1}(k) = b_c(k) (c+1) / (2 (c+1-k))
            den = 2 * (c + 1 - k)
        elif step == 1:  # b_{c+1}(k+1) = b_c(k) (c+1) / (2 (k+1))
            den = 2 * (k + 1)
        else:  # (only possible when beta is within rounding of 1) restart from an iv enclosure
            lo, hi = start(c + 1, int(ys[i]) - 1)
            bm_lo[i], bm_hi[i] = lo, hi
            continue
        lo = nxt(nxt(lo * (c + 1), ninf) / den, ninf)
        hi = nxt(nxt(hi * (c + 1), pinf) / den, pinf)
        bm_lo[i], bm_hi[i] = max(lo, 0.0), hi
    yf = ys.astype(float)
    # b_c(y*) = b_c(y*-1) (c - y* + 1) / y*
    num = cf - yf + 1
    b0_lo = np.maximum(_dn(_dn(bm_lo * num) / yf), 0.0)
    b0_hi = _up(_up(bm_hi * num) / yf)
    # S = P{Bin(c, 1/2) >= y*} = sum_{j >= y*} b_c(j), with a geometric remainder bound.
    # All quantities in this loop are >= 0, so the cheap directed roundings apply.
    t_lo, t_hi = b0_lo.copy(), b0_hi.copy()
    s_lo = np.zeros(size)
    s_hi = np.zeros(size)
    j = yf.copy()
    it = 0
    while True:
        s_lo = _dn_pos(s_lo + t_lo)
        s_hi = _up_pos(s_hi + t_hi)
        nj = np.maximum(cf - j, 0.0)  # next/current = (c - j)/(j + 1), decreasing in j; exact
        if it % 8 == 0:
            r_hi = _up_pos(nj / (j + 1))
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                # nj == 0: every further term is exactly 0 (j >= c)
                rem = np.where(nj == 0, 0.0,
                               np.where(r_hi < 1, _up(t_hi * _up(r_hi / _dn(1 - r_hi))), np.inf))
            if np.all(rem <= np.maximum(_TAIL_REL * s_lo, 1e-300)):
                break
        t_lo = _dn_pos(_dn_pos(t_lo * nj) / (j + 1))
        t_hi = _up_pos(_up_pos(t_hi * nj) / (j + 1))
        j = j + 1
        it += 1
    S_lo = s_lo
    S_hi = _up(s_hi + rem)
    # g = P(Y >= y*) - E Q(Y >= y*) = k1 b(y*-1) - k2 S(y*)  (for the set S = {y >= y*}).
    g_hi = _up(_up(k1h * bm_hi) - _dn(k2l * S_lo))
    g_lo = np.maximum(_dn(_dn(k1l * bm_lo) - _up(k2h * S_hi)), 0.0)
    # Where the threshold is uncertain (true y** may be y*+1), the exact divergence may exceed
    # g(S) by -(P - E Q)(y*) = k3 b(y*) - k1 b(y*-1) >= 0; add its upper bound there.
    unsure = y_hi > y_lo
    if np.any(unsure):
        corr = np.maximum(_up(_up(k3h * b0_hi) - _dn(k1l * bm_lo)), 0.0)
        g_hi = np.where(unsure, _up(g_hi + corr), g_hi)
    g_hi = np.maximum(g_hi, 0.0)
    upper = _up(math.fsum(_up(grid.w_hi * g_hi).tolist()))
    upper = float(_up(upper + grid.tail_hi))
    lower = float(max(_dn(math.fsum(np.maximum(_dn(grid.w_lo * g_lo), 0.0).tolist())), 0.0))
    return lower, min(upper, 1.0)


def clone_pair_delta(eps0: float, n: int, eps: float, *, tail_tol: float = 1e-30) -> DeltaEnclosure:
    """Certified enclosure of ``D_{e^eps}(P || Q)`` for the FMT21 clone pair (Thm 3.2).

    Source: FMT21 (FOCS 2021, arXiv:2012.12803) Thm 3.2: with ``C ~ Bin(n-1, e^-eps0)``,
    ``A ~ Bin(C, 1/2)``, ``Delta ~ Bern(alpha)``, ``alpha = e^eps0/(e^eps0+1)``, the pair
    ``P = (A + Delta, C - A + 1 - Delta)``, ``Q = (A + 1 - Delta, C - A + Delta)``.  Given C = c the
    pair is determined by its first coordinate Y, with ``P(y|c) = alpha b_c(y-1) + (1-alpha) b_c(y)``
    and ``Q(y|c) = (1-alpha) b_c(y-1) + alpha b_c(y)`` (``b_c`` the Bin(c, 1/2) pmf).  The ratio
    P/Q is increasing in y, so the optimal event is ``{y >= y*_c}`` and
    ``delta = sum_c P{C=c} [k1 b_c(y*-1) - (e^eps - 1) P{Bin(c,1/2) >= y*}]``,
    ``k1 = alpha - e^eps (1 - alpha)`` -- the quantity FMT21 App. E evaluates in blocks
    ("B"/``onestep``); here every c in a range of C with tail mass <= ``tail_tol`` is summed
    exactly and the rest bounded.  By symmetry of Bin(c, 1/2), ``D(P||Q) = D(Q||P)``.
    For ``eps >= eps0`` the divergence is exactly 0 (likelihood ratio <= e^eps0).

    Certified with outward-rounded float64 interval arithmetic (module docstring).
    """
    eps0 = _check_nonneg("eps0", eps0)
    n = _check_count("n", n)
    eps = _check_nonneg("eps", eps)
    if eps >= eps0:
        return DeltaEnclosure(0.0, 0.0)
    lo, hi = _clone_delta_interval(eps, eps0, _clone_grid(eps0, n, float(tail_tol)))
    return DeltaEnclosure(lo, hi)


def clones_numerical(eps0: float, n: int, delta: float, *, rel_tol: float = 1e-9,
                     tail_tol: float | None = None) -> EpsilonBracket:
    """Numerical FMT21 clones bound: smallest eps with ``D_{e^eps}(P || Q) <= delta``, certified.

    Source: FMT21 (FOCS 2021, arXiv:2012.12803) Thm 3.2 (the clone reduction, valid for every n and
    every eps0-DP local randomizer, no range condition) and App. E (binary search on eps of the
    pair's divergence; implemented by the authors in apple/ml-shuffling-amplification@993d285 with
    blocks of ``step`` values of C -- the README bracket [0.1675385583317841, 0.172790550755978]
    at n = 1e5, eps0 = 4, delta = 1e-6 comes from that blocked version).  Here the divergence is
    summed for every value of C (:func:`clone_pair_delta`), so the bracket is the exact
    clone-pair epsilon (the anchors' "[HERE] exact clone-pair eps" table) to ``rel_tol``.

    Method: float64 bisection (scipy binomial tails) to locate the root, then certification of
    ``upper = root + tol`` (``delta(upper) <= delta`` proved) and ``lower = root - tol``
    (``delta(lower) > delta`` proved), widening ``tol`` tenfold until both hold.

    ``lower`` bounds the clone pair's epsilon from below; it is *not* a privacy lower bound for any
    particular local randomizer (the clone pair is itself an upper-bounding reduction).
    """
    eps0 = _check_nonneg("eps0", eps0)
    n = _check_count("n", n)
    delta = _check_prob("delta", delta)
    if not (0 < rel_tol < 1e-2):
        raise ValueError(f"rel_tol must be in (0, 1e-2), got {rel_tol!r}")
    method = "FMT21 Thm 3.2 clone pair, exact divergence, float search + interval certification"
    if eps0 == 0:
        return EpsilonBracket(0.0, 0.0, delta, 0.0, 0.0, method, note="eps0 = 0: P = Q")
    ttol = float(tail_tol) if tail_tol is not None else min(1e-30, 1e-12 * delta)
    grid = _clone_grid(eps0, n, ttol)
    # float search
    if _clone_delta_float(0.0, eps0, grid) <= delta:
        root = 0.0
    else:
        root = optimize.brentq(lambda e: _clone_delta_float(e, eps0, grid) - delta, 0.0, eps0,
                               xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    details = {"float_root": root, "c_range": [int(grid.cs[0]), int(grid.cs[-1])],
               "c_tail_mass_bound": grid.tail_hi}
    if root == 0.0:
        d0 = _clone_delta_interval(0.0, eps0, grid)[1]
        if d0 <= delta:
            return EpsilonBracket(0.0, 0.0, delta, float(d0), float(d0), method, details=details)
    tol_up = tol_lo = max(rel_tol * root, 1e-300)
    for _ in range(12):
        upper = min(eps0, root + tol_up)
        lower = max(0.0, root - tol_lo) if root > 0 else 0.0
        d_up = _clone_delta_interval(upper, eps0, grid)[1] if upper < eps0 else 0.0
        ok_up = d_up <= delta
        d_lo = _clone_delta_interval(lower, eps0, grid)[0]
        ok_lo = d_lo > delta or lower == 0.0  # lower = 0 is a trivial lower end
        if ok_up and ok_lo:
            return EpsilonBracket(lower, upper, delta, float(d_up), float(d_lo), method, details=details)
        if not ok_up:
            tol_up *= 10
        if not ok_lo:
            tol_lo *= 10
    raise ArithmeticError(f"could not certify a bracket for eps0={eps0}, n={n}, delta={delta}")


# == 2. KOV15 optimal composition ==================================================================

def _kov_range(eps: float, T: int, tail_tol: float) -> tuple[int, int]:
    """Index range of Bin(T, q), q = 1/(1+e^eps), whose complement has mass << tail_tol."""
    q = 1.0 / (1.0 + math.exp(eps))
    mu = T * q
    sd = math.sqrt(T * q * (1 - q))
    K = math.sqrt(2 * math.log(1 / tail_tol)) + 3
    return max(0, int(math.floor(mu - K * sd - 2))), min(T, int(math.ceil(mu + K * sd + K * K + 2)))


def _kov_rr_delta_iv(eps: float, T: int, eps_total: float, tail_tol: float):
    """mpmath.iv enclosure of the hockey-stick of the T-fold eps-RR pair at e^{eps_total}.

    P_l = C(T,l) q^l (1-q)^{T-l}, q = 1/(1+e^eps) (l = number of flips), privacy loss
    lambda_l = (T - 2l) eps; delta_RR = sum_{lambda_l > eps'} P_l (1 - e^{eps' - lambda_l}).
    Terms outside [l0, l1] are bounded by geometric tails of the P_l (ratios are monotone).
    """
    for _ in range(20):
        l0, l1 = _kov_range(eps, T, tail_tol)
        with _iv_prec() as iv:
            e = iv.mpf(eps)
            q = 1 / (1 + iv.exp(e))
            P = iv.exp(iv.loggamma(iv.mpf(T + 1)) - iv.loggamma(iv.mpf(l0 + 1))
                       - iv.loggamma(iv.mpf(T - l0 + 1)) + l0 * iv.log(q) + (T - l0) * iv.log(1 - q))
            ratio = iv.exp(-e)  # P_{l+1}/P_l = (T-l)/(l+1) e^{-eps}
            f = iv.exp(iv.mpf(eps_total) - (T - 2 * l0) * e)  # e^{eps' - lambda_l}
            g2 = iv.exp(2 * e)
            total = iv.mpf(0)
            ok = True
            left = iv.mpf(0)
            if l0 > 0:  # sum_{l < l0} P_l <= P_l0 r/(1-r), r = P_{l0-1}/P_l0 (ratios shrink leftwards)
                r = iv.mpf(l0) * iv.exp(e) / (T - l0 + 1)
                ok = r < 1
                if ok:
                    left = iv.mpf([0, (P * r / (1 - r)).b])
            stopped = False  # True once 1 - e^{eps' - lambda_l} <= 0 (and for all larger l)
            P_l = P
            for l in range(l0, l1 + 1):
                fac = 1 - f
                if fac.b <= 0:
                    stopped = True
                    break
                if fac.a < 0:
                    fac = iv.mpf([0, fac.b])
                total = total + P * fac
                P_l = P
                if l < l1:
                    P = P * (T - l) / (l + 1) * ratio
                    f = f * g2
            right = iv.mpf(0)
            if not stopped and l1 < T:  # sum_{l > l1} P_l <= P_l1 r/(1-r), r = P_{l1+1}/P_l1
                r = iv.mpf(T - l1) * ratio / (l1 + 1)
                ok = ok and (r < 1)
                if r < 1:
                    right = iv.mpf([0, (P_l * r / (1 - r)).b])
            if ok and left.b <= tail_tol and right.b <= tail_tol:
                return total + left + right
        tail_tol /= 1e10
    raise ArithmeticError("could not bound the binomial tails of the RR composition")


def kov_delta(eps: float, delta: float, T: int, eps_total: float) -> DeltaEnclosure:
    """Certified enclosure of the exact delta of the T-fold composition of (eps, delta)-DP at eps_total.

    Source: KOV15 (ICML 2015, arXiv:1311.0776), optimal composition theorem: the worst case of the
    T-fold adaptive composition of (eps, delta)-DP mechanisms is the T-fold product of the 4-point
    pair ``P~0 = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0)``,
    ``P~1 = (0, (1-delta)/(1+e^eps), (1-delta) e^eps/(1+e^eps), delta)``, whose profile is
    ``delta_T(eps') = 1 - (1-delta)^T (1 - delta_RR(eps'))`` with
    ``delta_RR(eps') = sum_l C(T,l) max(0, e^{(T-l)eps} - e^{eps'} e^{l eps}) / (1+e^eps)^T``
    (the hockey-stick of T-fold binary randomized response).  At ``eps' = (T - 2i) eps`` this is
    KOV's ``1 - (1-delta)^T (1 - delta_i)``.  For ``eps_total >= T eps``, ``delta_RR = 0``.

    Certified: ``mpmath.iv`` interval arithmetic, binomial mass outside the summed range bounded by
    geometric tails.
    """
    eps = _check_nonneg("eps", eps)
    delta = _check_prob("delta", delta, allow_zero=True)
    T = _check_count("T", T)
    eps_total = _check_nonneg("eps_total", eps_total)
    with _iv_prec() as iv:
        beyond = iv.mpf(eps_total) >= T * iv.mpf(eps)  # then delta_RR = 0 exactly
    rr = 0 if beyond is True else _kov_rr_delta_iv(eps, T, eps_total, 1e-40)
    with _iv_prec() as iv:
        tot = 1 - (1 - iv.mpf(delta)) ** T * (1 - rr)
    lo, hi = _fl(tot)
    return DeltaEnclosure(max(lo, 0.0), min(hi, 1.0))


def _kov_solve_mp(eps: float, T: int, target_rr, tail_tol: float):
    """Smallest eps' >= 0 with delta_RR(eps') <= target_rr, in mpmath at the caller's precision.

    delta_RR is piecewise of the form A - e^{eps'} B between consecutive losses lambda_l =
    (T-2l) eps, so the root is found segment-wise and solved in closed form.
    """
    mp = mpmath.mp
    e = mp.mpf(eps)
    if eps == 0:
        return mp.mpf(0)
    q = 1 / (1 + mp.exp(e))
    l0, l1 = _kov_range(eps, T, tail_tol)
    half = (T + 1) // 2  # the first l with lambda_l = (T - 2l) eps <= 0
    l1 = max(l1, half)  # the scan below stops at l = half at the latest
    P = mp.exp(mp.loggamma(T + 1) - mp.loggamma(l0 + 1) - mp.loggamma(T - l0 + 1)
               + l0 * mp.log(q) + (T - l0) * mp.log(1 - q))
    ratio = mp.exp(-e)
    A = mp.mpf(0)  # sum_{l0 <= l < j} P_l
    B = mp.mpf(0)  # sum_{l0 <= l < j} P_l e^{-lambda_l}
    em = mp.exp(-(T - 2 * l0) * e)
    g2 = mp.exp(2 * e)
    # V(j) = delta_RR(lambda_j) = A_j - e^{lambda_j} B_j is increasing in j; find the segment.
    l = l0
    while True:
        lam = (T - 2 * l) * e
        if lam <= 0:  # the answer is in [0, lambda_{l-1}]: evaluate at eps' = 0
            V0 = A - B
            if V0 <= target_rr:
                return mp.mpf(0)
            return mp.log((A - target_rr) / B)
        V = A - mp.exp(lam) * B
        if V > target_rr:  # root in (lambda_l, lambda_{l-1}]: included terms are l' < l
            return mp.log((A - target_rr) / B)
        if l > l1:
            raise ArithmeticError("KOV search left the summed range")
        A += P
        B += P * em
        P = P * (T - l) / (l + 1) * ratio
        em *= g2
        l += 1


def kov_optimal_composition(eps: float, delta: float, T: int, delta_target: float) -> EpsilonBracket:
    """Smallest eps_total with ``delta_T(eps_total) <= delta_target`` (KOV15 optimal composition).

    Source: KOV15 (ICML 2015, arXiv:1311.0776), optimal (tight) composition theorem for T-fold
    composition of (eps, delta)-DP mechanisms; profile as in :func:`kov_delta`.  Feasible iff
    ``delta_target >= 1 - (1 - delta)^T``; otherwise returns an infinite bracket with the reason.

    The root is computed in mpmath (200 bits) segment by segment (on each segment between
    consecutive privacy losses the profile is ``A - e^{eps'} B``, solved in closed form), then
    certified: ``delta_T(upper) <= delta_target`` and ``delta_T(lower) > delta_target`` are proved
    with :func:`kov_delta`'s interval enclosures.
    """
    eps = _check_nonneg("eps", eps)
    delta = _check_prob("delta", delta, allow_zero=True)
    T = _check_count("T", T)
    delta_target = _check_prob("delta_target", delta_target)
    method = "KOV15 optimal composition (exact profile of T-fold (eps,delta)-RR), mpmath root + iv certification"
    with _iv_prec() as iv:
        floor_delta = 1 - (1 - iv.mpf(delta)) ** T
        feasible = iv.mpf(delta_target) > floor_delta
    if feasible is not True:
        return EpsilonBracket(math.inf, math.inf, delta_target, math.inf, math.inf, method,
                              note=f"infeasible: delta_target must exceed 1-(1-delta)^T = {float(floor_delta.b):.6g}")
    with _mp_prec(200) as mp:
        target_rr = 1 - (1 - mp.mpf(delta_target)) / (1 - mp.mpf(delta)) ** T
        root = _kov_solve_mp(eps, T, target_rr, max(min(1e-40, 1e-20 * float(target_rr)), 1e-300))
        root_f = float(root)
    if root_f <= 0:
        d0 = kov_delta(eps, delta, T, 0.0)
        if d0.upper <= delta_target:
            return EpsilonBracket(0.0, 0.0, delta_target, d0.upper, d0.upper, method)
    step = max(abs(root_f) * 1e-15, 5e-324)
    up_step = lo_step = step
    for _ in range(40):
        upper = root_f + up_step
        lower = max(0.0, root_f - lo_step)
        d_up = kov_delta(eps, delta, T, upper).upper
        ok_up = d_up <= delta_target
        d_lo = kov_delta(eps, delta, T, lower).lower
        ok_lo = d_lo > delta_target or lower == 0.0  # lower = 0 is a trivial lower end
        if ok_up and ok_lo:
            return EpsilonBracket(lower, upper, delta_target, d_up, d_lo, method,
                                  details={"mp_root": mpmath.nstr(root, 30)})
        if not ok_up:
            up_step *= 4
        if not ok_lo:
            lo_step *= 4
    raise ArithmeticError(f"could not certify the KOV root for eps={eps}, delta={delta}, T={T}")


def kov_closed_form(eps: float, delta: float, T: int, delta_tilde: float) -> tuple[float, float]:
    """KOV15 closed-form composition bound (labelled "KOV15 closed form"): ``(eps_tot, delta_tot)``.

    Source: KOV15 (ICML 2015, arXiv:1311.0776), closed-form corollary of the optimal composition
    theorem: for any ``delta_tilde in (0, 1]`` the T-fold composition of (eps, delta)-DP
    mechanisms is ``(eps_tot, 1 - (1-delta)^T (1 - delta_tilde))``-DP with
    ``eps_tot = min{T eps, T eps (e^eps-1)/(e^eps+1) + eps sqrt(2T log(e + sqrt(T eps^2)/delta_tilde)),
    T eps (e^eps-1)/(e^eps+1) + eps sqrt(2T log(1/delta_tilde))}``.
    Evaluated in interval arithmetic; returns outward-rounded upper ends.
    """
    eps = _check_nonneg("eps", eps)
    delta = _check_prob("delta", delta, allow_zero=True)
    T = _check_count("T", T)
    if not (0 < delta_tilde <= 1):
        raise ValueError(f"delta_tilde must be in (0, 1], got {delta_tilde!r}")
    with _iv_prec() as iv:
        e = iv.mpf(eps)
        dt = iv.mpf(delta_tilde)
        E = iv.exp(e)
        base = T * e * (E - 1) / (E + 1)
        a = T * e
        b = base + e * iv.sqrt(2 * T * iv.log(iv.e + iv.sqrt(T * e * e) / dt))
        c = base + e * iv.sqrt(2 * T * iv.log(1 / dt))
        d_tot = 1 - (1 - iv.mpf(delta)) ** T * (1 - dt)
        ub = min(_fl(a)[1], _fl(b)[1], _fl(c)[1])
    return ub, min(_fl(d_tot)[1], 1.0)


def advanced_composition(eps: float, delta: float, T: int, delta_prime: float) -> tuple[float, float]:
    """Advanced composition (labelled "DRV10"): ``(eps_tot, delta_tot)`` for T-fold (eps, delta)-DP.

    Source: Dwork, Rothblum, Vadhan, FOCS 2010, Thm III.3; Dwork-Roth 2014 Thm 3.20; thesis
    Lemma 2.1.2: ``eps_tot = sqrt(2 T log(1/delta')) eps + T eps (e^eps - 1)``,
    ``delta_tot = T delta + delta'``.  Evaluated in interval arithmetic; outward-rounded upper ends.
    """
    eps = _check_nonneg("eps", eps)
    delta = _check_prob("delta", delta, allow_zero=True)
    T = _check_count("T", T)
    delta_prime = _check_prob("delta_prime", delta_prime)
    with _iv_prec() as iv:
        e = iv.mpf(eps)
        val = iv.sqrt(2 * T * iv.log(1 / iv.mpf(delta_prime))) * e + T * e * (iv.exp(e) - 1)
        d_tot = T * iv.mpf(delta) + iv.mpf(delta_prime)
    return _fl(val)[1], _fl(d_tot)[1]


# == 3. The thesis' composed baseline ==============================================================

def clones_kov_composition(eps0: float, n: int, T: int, delta: float, *,
                           per_round: str = "numerical", split_grid=(0.1, 0.3, 0.5, 0.7, 0.9)
                           ) -> EpsilonBracket:
    """Thesis Figs 5.4-5.7 baseline "Clones [FMT20] + strong composition [KOV15]", certified.

    Each of the T rounds is a shuffle of n eps0-DP reports, (eps~, delta~)-DP by FMT21 with
    ``delta~ = x delta / T``; the T rounds are composed with KOV15's optimal composition at total
    ``delta`` (KOV: ``1 - (1 - delta~)^T (1 - delta_RR) <= delta``).  The split ``x`` is chosen
    from ``split_grid`` (the thesis does not state its split; thesis_part2.md Sec. 3.4 optimised x
    on a grid).  ``per_round``: ``"numerical"`` (:func:`clones_numerical`, certified upper end;
    the thesis text says its FMT baseline was "computed numerically"), ``"author-code"`` or
    ``"theorem-3.1"`` (:func:`clones_closed_form`; split points outside Thm 3.1's range are
    skipped).  Returns the KOV bracket of the best split, with ``details`` recording the split,
    the per-round eps~ and every split tried.  ``upper`` is a certified guarantee; ``lower`` is the
    lower end of the KOV bracket *for that per-round eps~* (not a lower bound on the privacy of
    the shuffled protocol).
    """
    eps0 = _check_nonneg("eps0", eps0)
    n = _check_count("n", n)
    T = _check_count("T", T)
    delta = _check_prob("delta", delta)
    if per_round not in ("numerical",) + CLOSED_FORM_VARIANTS:
        raise ValueError(f"per_round must be 'numerical' or one of {CLOSED_FORM_VARIANTS}")
    grid = [float(x) for x in split_grid]
    if not grid or any(not (0 < x < 1) for x in grid):
        raise ValueError("split_grid must be a non-empty sequence of numbers in (0, 1)")
    best = None
    tried = []
    for x in grid:
        dt = x * delta / T
        if per_round == "numerical":
            et = clones_numerical(eps0, n, dt).upper
        else:
            et = clones_closed_form(eps0, n, dt, variant=per_round, outside="inf")
            if et == math.inf:
                tried.append({"x": x, "per_round_eps": "outside Thm 3.1 range"})
                continue
        b = kov_optimal_composition(et, dt, T, delta)
        tried.append({"x": x, "per_round_eps": et, "eps_total": b.upper})
        if best is None or b.upper < best[0].upper:
            best = (b, x, et)
    if best is None:
        return EpsilonBracket(math.inf, math.inf, delta, math.inf, math.inf,
                              f"FMT21 ({per_round}) + KOV15", note="no split point in the validity range",
                              details={"tried": tried})
    b, x, et = best
    return EpsilonBracket(b.lower, b.upper, delta, b.delta_at_upper, b.delta_at_lower,
                          f"FMT21 ({per_round}) per round + KOV15 optimal composition",
                          details={"split_x": x, "per_round_eps": et, "per_round_delta": x * delta / T,
                                   "tried": tried})
