"""FMT21 "hiding among the clones" (the clones baseline of thesis Ch. 5 Figs 5.3-5.7), certified.

V. Feldman, A. McMillan, K. Talwar, "Hiding Among the Clones: A Simple and Nearly Optimal Analysis
of Privacy Amplification by Shuffling", FOCS 2021 (arXiv:2012.12803), cited by the thesis as
[FMT20]/[FMT22]:

* :func:`~bcdp.accounting.amplification.clones_closed_form` -- the closed form of FMT21 Thm 3.1
  (valid only for ``eps0 <= log(n / (16 log(2/delta)))``), in two labelled variants: the
  expression of the theorem as quoted by thesis eq. (6.10) and the slightly larger expression
  evaluated by the authors' code (apple/ml-shuffling-amplification@993d285,
  ``closedformanalysis``), behind the README number 0.5378040242374512.  It lives in
  :mod:`bcdp.accounting.amplification` (Chs. 4 and 6 use it too);
* :func:`clone_pair_delta` -- a certified enclosure of the hockey-stick divergence
  ``D_{e^eps}(P || Q)`` of the clone-reduction pair (FMT21 Thm 3.2; the algorithm of FMT21 App. E
  evaluated for every value of C rather than in blocks of ``step`` values, so the authors' blocked
  bounds -- and the latent ``deltaq`` typo of their upper branch -- play no role);
* :func:`clones_numerical` -- the numerical clones bound: the smallest eps with
  ``D_{e^eps}(P || Q) <= delta``, returned as a certified bracket ``(lower, upper)``.

The clone pair (FMT21 Thm 3.2): ``C ~ Bin(n-1, e^{-eps0})``, ``A ~ Bin(C, 1/2)``,
``Delta ~ Bern(e^{eps0}/(e^{eps0}+1))``, ``P = (A + Delta, C - A + 1 - Delta)``,
``Q = (A + 1 - Delta, C - A + Delta)``.  The shuffle of n eps0-DP local reports is
(eps, delta)-DP whenever P and Q are (eps, delta)-indistinguishable.

Inputs are floats (certified at their exact binary values; :mod:`bcdp.accounting.certified_floats`).

Certification
-------------
* The closed form is evaluated in arb ball arithmetic (python-flint, :mod:`bcdp.core.intervals`,
  :data:`~bcdp.accounting.certified_floats.IV_PREC` bits) and the upper end is rounded outward to a
  float; validity conditions are decided on balls (an undecidable comparison raises).
* :func:`clone_pair_delta` uses float64 interval arithmetic with outward rounding (``nextafter`` --
  or, for non-negative operands in the hot loop, the equivalent ``x (1 +/- 2^-52) +/- 2^-1074`` --
  after every IEEE-754 +, -, *, /, each correctly rounded; numpy's default, no flush-to-zero, is
  assumed), started from arb ball enclosures of the transcendental constants.  These
  vectorised numpy helpers (:func:`_up`, :func:`_dn`, :func:`_up_pos`, :func:`_dn_pos`) stay here
  rather than in :mod:`bcdp.core.intervals`: they round whole float64 arrays by one ulp in the hot
  loop over C, which the scalar exact-mpf rounding of the core (``float_up``/``float_down``) would
  make orders of magnitude slower.  Binomial tails are summed until a geometric remainder bound
  (valid because consecutive-term ratios decrease) is negligible and the remainder is added; the
  mass of C outside the summed range is bounded by a geometric tail and added to the upper bound.
  The result ``(lower, upper)`` encloses the exact divergence.
* :func:`clones_numerical` searches in floats, then certifies the bracket: ``delta(upper) <= delta``
  and ``delta(lower) > delta`` are both proved with the interval enclosures, so the exact smallest
  eps lies in ``(lower, upper]`` and ``upper`` is a valid privacy guarantee.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from bcdp.core.errors import (
    CertificationError,
    InvalidInputError,
)
from bcdp.core.intervals import arb_precision, ball_of
from bcdp.core.results import Certified
from bcdp.accounting.certified_floats import (
    IV_PREC,
    check_count,
    check_nonneg,
    check_prob,
    delta_enclosure,
    epsilon_bracket,
    outward_by_one_ulp,
)

_TAIL_REL = 2.0 ** -60  # binomial tail sums stop when the remainder bound is below this fraction
_CLONE_DELTA = "FMT21 Thm 3.2 clone pair: hockey-stick divergence, outward-rounded float64 interval arithmetic"


# -- float64 directed rounding for the hot loop (see the module docstring) ---------------------------

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


# -- FMT21 numerical clones bound (Thm 3.2, App. E) -------------------------------------------------

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
    with arb_precision(IV_PREC):
        e0 = ball_of(eps0)
        p = (-e0).exp()
        log1mp = (1 - p).log()
        rho = p / (1 - p)
        c = c_lo
        logw = (ball_of(m + 1).lgamma() - ball_of(c + 1).lgamma() - ball_of(m - c + 1).lgamma()
                - c * e0 + (m - c) * log1mp)
        w0 = logw.exp()
    lo, hi = outward_by_one_ulp(w0)
    lo = max(lo, 0.0)
    r_lo, r_hi = outward_by_one_ulp(rho)
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
    with arb_precision(IV_PREC):
        E = ball_of(eps).exp()
        a = 1 / (1 + (-ball_of(eps0)).exp())
        ab = 1 / (1 + ball_of(eps0).exp())
        k1 = a - E * ab
        k3 = E * a - ab
        k2 = E - 1
        beta = k3 / (k1 + k3)
        if not (k1 > 0):  # arb: True only if the whole ball is positive
            return None
    return outward_by_one_ulp(k1), outward_by_one_ulp(k2), outward_by_one_ulp(k3), outward_by_one_ulp(beta)


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
    from scipy import stats

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
        raise CertificationError(f"cannot decide e^eps < e^eps0 at eps={eps!r}, eps0={eps0!r}")
    (k1l, k1h), (k2l, k2h), (k3l, k3h), (bl, bh) = consts
    cs = grid.cs
    cf = cs.astype(float)
    # Threshold: P(y|c) > E Q(y|c)  <=>  y > beta (c+1); y* = floor(beta (c+1)) + 1.
    y_lo = np.floor(_dn(bl * (cf + 1))) + 1
    y_hi = np.floor(_up(bh * (cf + 1))) + 1
    y_lo = np.clip(y_lo, 1, cf + 1)
    y_hi = np.clip(y_hi, 1, cf + 1)
    if np.any(y_hi - y_lo > 1) or np.any(np.diff(y_lo) < 0):
        raise CertificationError("threshold enclosure too wide; increase precision")
    ys = y_lo.astype(np.int64)
    # b_c(y*-1) = C(c, y*-1) / 2^c along c by exact-ratio recurrences, outward rounded.
    size = len(cs)
    bm_lo = np.empty(size)
    bm_hi = np.empty(size)
    nxt = math.nextafter
    ninf, pinf = -math.inf, math.inf

    def start(c: int, k: int) -> tuple[float, float]:
        with arb_precision(IV_PREC):
            v = (ball_of(c + 1).lgamma() - ball_of(k + 1).lgamma()
                 - ball_of(c - k + 1).lgamma() - c * ball_of(2).log()).exp()
        lo_, hi_ = outward_by_one_ulp(v)
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
        else:  # (only possible when beta is within rounding of 1) restart from a ball enclosure
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


def clone_pair_delta(eps0: float, n: int, eps: float, *, tail_tol: float = 1e-30) -> Certified:
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
    eps0 = check_nonneg("eps0", eps0)
    n = check_count("n", n)
    eps = check_nonneg("eps", eps)
    if eps >= eps0:
        return delta_enclosure(0.0, 0.0, _CLONE_DELTA)
    lo, hi = _clone_delta_interval(eps, eps0, _clone_grid(eps0, n, float(tail_tol)))
    return delta_enclosure(lo, hi, _CLONE_DELTA)


def clones_numerical(eps0: float, n: int, delta: float, *, rel_tol: float = 1e-9,
                     tail_tol: float | None = None) -> Certified:
    """Numerical FMT21 clones bound: smallest eps with ``D_{e^eps}(P || Q) <= delta``, certified.

    Source: FMT21 (FOCS 2021, arXiv:2012.12803) Thm 3.2 (the clone reduction, valid for every n and
    every eps0-DP local randomizer, no range condition) and App. E (binary search on eps of the
    pair's divergence; implemented by the authors in apple/ml-shuffling-amplification@993d285 with
    blocks of ``step`` values of C -- the README bracket [0.1675385583317841, 0.172790550755978]
    at n = 1e5, eps0 = 4, delta = 1e-6 comes from that blocked version).  Here the divergence is
    summed for every value of C (:func:`clone_pair_delta`), so the bracket is the exact
    clone-pair epsilon to ``rel_tol``.

    Method: float64 bisection (scipy binomial tails) to locate the root, then certification of
    ``upper = root + tol`` (``delta(upper) <= delta`` proved) and ``lower = root - tol``
    (``delta(lower) > delta`` proved), widening ``tol`` tenfold until both hold.

    ``lower`` bounds the clone pair's epsilon from below; it is *not* a privacy lower bound for any
    particular local randomizer (the clone pair is itself an upper-bounding reduction).
    """
    eps0 = check_nonneg("eps0", eps0)
    n = check_count("n", n)
    delta = check_prob("delta", delta)
    if not (0 < rel_tol < 1e-2):
        raise InvalidInputError(f"rel_tol must be in (0, 1e-2), got {rel_tol!r}")
    method = "FMT21 Thm 3.2 clone pair, exact divergence, float search + interval certification"
    if eps0 == 0:
        return epsilon_bracket(0.0, 0.0, delta, 0.0, 0.0, method, note="eps0 = 0: P = Q")
    ttol = float(tail_tol) if tail_tol is not None else min(1e-30, 1e-12 * delta)
    grid = _clone_grid(eps0, n, ttol)
    # float search
    if _clone_delta_float(0.0, eps0, grid) <= delta:
        root = 0.0
    else:
        from scipy import optimize

        root = optimize.brentq(lambda e: _clone_delta_float(e, eps0, grid) - delta, 0.0, eps0,
                               xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    details = {"float_root": root, "c_range": [int(grid.cs[0]), int(grid.cs[-1])],
               "c_tail_mass_bound": grid.tail_hi}
    if root == 0.0:
        d0 = _clone_delta_interval(0.0, eps0, grid)[1]
        if d0 <= delta:
            return epsilon_bracket(0.0, 0.0, delta, float(d0), float(d0), method, details=details)
    tol_up = tol_lo = max(rel_tol * root, 1e-300)
    for _ in range(12):
        upper = min(eps0, root + tol_up)
        lower = max(0.0, root - tol_lo) if root > 0 else 0.0
        d_up = _clone_delta_interval(upper, eps0, grid)[1] if upper < eps0 else 0.0
        ok_up = d_up <= delta
        d_lo = _clone_delta_interval(lower, eps0, grid)[0]
        ok_lo = d_lo > delta or lower == 0.0  # lower = 0 is a trivial lower end
        if ok_up and ok_lo:
            return epsilon_bracket(lower, upper, delta, float(d_up), float(d_lo), method, details=details)
        if not ok_up:
            tol_up *= 10
        if not ok_lo:
            tol_lo *= 10
    raise CertificationError(f"could not certify a bracket for eps0={eps0}, n={n}, delta={delta}")


__all__ = ["clone_pair_delta",
           "clones_numerical"]
