"""Exact worst-pair Renyi DP of shuffled K-ary randomized response (K-RR) over *every* neighbouring
pair, through the Poisson-multinomial law (thesis Ch. 5, Sec. 5.2 (the shuffle model), eq. (5.18)
(Poisson-multinomial)).

Setting.  n users each apply K-RR with E = e^{eps0} (report the true symbol w.p. E/(E+K-1), each
other symbol w.p. 1/(E+K-1)); the shuffler releases the histogram of the n reports.  Neighbouring
datasets differ in one user's symbol (replacement).

Reduction of the search (proved).  Permuting the K symbols permutes the output coordinates (a
bijection), so WLOG the differing user holds 0 in D and 1 in D'.  The other n-1 users enter only
through their count vector c = (c_0, ..., c_{K-1}), sum n-1; symbols 2..K-1 are exchangeable, so
c_2 >= c_3 >= ... >= c_{K-1}; swapping symbols 0 and 1 maps (c, "DDprime") to (c with c_0, c_1
swapped, "DprimeD"), so c_0 >= c_1 with both directions covers every pair.  "DDprime" is
D_alpha(M(D) || M(D')), "DprimeD" is D_alpha(M(D') || M(D)).  The law of the others' histogram is the
Poisson-multinomial of eq. (5.18): the convolution over symbols s of Multinomial(c_s, row_s); M(D)
and M(D') are that law convolved with row 0 and row 1.  Every reduced configuration is evaluated
(no maximiser is assumed).

* :func:`kary_worst_pair_exact` -- exact Fraction laws, divergences by
  :func:`bcdp.core.divergences.renyi_divergence` (small n; the oracle);
* :func:`kary_worst_pair_float` -- float64, numpy-vectorised over the output grid and over the
  configurations sharing a prefix;
* :func:`kary_worst_pair_ball` -- certified arb enclosure (python-flint), precision doubling.

Observed, not proved (float scan over K = 3..5, eps0 in 0.05..6, alpha in 1.1..64, and the exact
tests): the maximiser is always one of two "pure" configurations.  For K >= 3 and small to moderate
alpha eps0 it is c = (0, 0, n-1, 0, ...): every other user at a *third* symbol (then "DDprime" and
"DprimeD" tie exactly, the swap of 0 and 1 fixes c); for large alpha eps0 (e.g. alpha = 64, or alpha = 8
at eps0 = 3) it is c = (n-1, 0, ..., 0), "DDprime", the K = 2 maximiser of
:mod:`bcdp.shuffle.rr_all_pairs`.  So c = (n-1, 0, ..., 0) is *not* the worst case in general.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from numbers import Integral
from typing import Any, Iterator

import mpmath
import numpy as np

from bcdp.core.errors import CertificationError, InvalidInputError, WrongTypeError
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision, to_float_input, to_fraction
from bcdp.shuffle.inputs import check_count, float_eps0, float_orders

Histogram = tuple


def _check_K(K: Any) -> int:
    if isinstance(K, bool) or not isinstance(K, Integral):
        raise WrongTypeError(f"K must be an int >= 2, got {K!r}")
    if K < 2:
        raise InvalidInputError(f"K must be an int >= 2, got {K!r}")
    return int(K)


def reduced_configurations(n: int, K: int) -> Iterator[tuple[int, ...]]:
    """The configurations searched, in scan order: count vectors c of the n-1 users that do not
    change, sum n-1, with c_2 >= ... >= c_{K-1} and c_0 >= c_1 (module docstring)."""
    for c, _ in _walk(n, K, None, None, None):
        yield c


def _walk(n: int, K: int, add: Any, empty: Any, rows: Any) -> Iterator[tuple[tuple[int, ...], Any]]:
    """(c, law of the others' histogram) for every reduced configuration, the laws built by adding one
    user at a time (``add(law, row)``; ``add=None`` walks the configurations only).  Symbols 2..K-1
    first (non-increasing counts), then c_0 = R..ceil(R/2) and c_1 = R - c_0."""

    def others(law: Any, s: int, remaining: int, cap: int, prefix: tuple) -> Iterator:
        if s == K:
            cur = law
            chain = []
            for c0 in range(remaining + 1):
                if c0 and add is not None:
                    cur = add(cur, rows[0])
                if 2 * c0 >= remaining:
                    chain.append((c0, cur))
            for c0, lw in reversed(chain):
                for _ in range(remaining - c0):
                    lw = add(lw, rows[1]) if add is not None else None
                yield (c0, remaining - c0) + prefix, lw
            return
        cur = law
        for cs in range(min(cap, remaining) + 1):
            if cs and add is not None:
                cur = add(cur, rows[s])
            yield from others(cur, s + 1, remaining - cs, cs, prefix + (cs,))

    yield from others(empty, 2, n - 1, n - 1, ())


def _add_dict(law: dict, row: Any) -> dict:
    """The law of the histogram after one more user whose report has law ``row`` (dict laws; exact
    Fractions or arb balls)."""
    out: dict = {}
    K = len(row)
    for h, p in law.items():
        for y in range(K):
            hh = h[:y] + (h[y] + 1,) + h[y + 1:]
            v = p * row[y]
            out[hh] = out[hh] + v if hh in out else v
    return out


# -- exact oracle ----------------------------------------------------------------------------------

def kary_worst_pair_exact(n: Any, K: int, exp_eps0: Any, alpha: Any, dps: int = 60) -> tuple:
    """Exact worst-pair RDP of shuffled K-RR at order alpha (thesis Ch. 5, Sec. 5.2 (the shuffle
    model), eq. (5.18) (Poisson-multinomial)): (value, (c, direction)), the sup over every
    neighbouring pair and both directions and a configuration attaining it (first in the scan order of
    :func:`reduced_configurations`, "DDprime" first).  E = ``exp_eps0`` (= e^{eps0}) and ``alpha`` are
    exact rationals (int, Fraction, "3/2"; floats refused), E >= 1, alpha > 1.  The laws are exact
    Fractions; each divergence is :func:`bcdp.core.divergences.renyi_divergence` at the exact alpha,
    returned as mpmath at ``dps`` digits.  Small n only (the number of histograms is C(n+K-1, K-1))."""
    from bcdp.core.divergences import MIN_DPS as DIVERGENCE_MIN_DPS
    from bcdp.core.divergences import renyi_divergence
    from bcdp.shuffle.finite_laws import kary_rr_kernel

    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    n = check_count(n)
    K = _check_K(K)
    E = to_fraction(exp_eps0, "exp_eps0")
    if E < 1:
        raise InvalidInputError(f"exp_eps0 = e^eps0 must be >= 1, got {E}")
    a = to_fraction(alpha, "alpha")
    if not a > 1:
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    rows = kary_rr_kernel(K, exp_eps0=E)
    best, arg = None, None
    work = max(dps, DIVERGENCE_MIN_DPS) + 10
    for c, law in _walk(n, K, _add_dict, {(0,) * K: Fraction(1)}, rows):
        P, Q = _add_dict(law, rows[0]), _add_dict(law, rows[1])
        for direction, X, Y in (("DDprime", P, Q), ("DprimeD", Q, P)):
            v = mpmath.mpf(0) if X == Y else renyi_divergence(X, Y, a, dps=work)   # E = 1: P = Q exactly
            if best is None or v > best:
                best, arg = v, (c, direction)
    with mpmath.workdps(dps):
        return +best, arg


# -- float64 ---------------------------------------------------------------------------------------

#: cells of M(D) or M(D') below this are charged by a bound instead of evaluated (float underflow)
_TINY = 1e-290


def _add_grid(L: np.ndarray, s: int, K: int, lo: float, hi: float) -> np.ndarray:
    """One more user with symbol s on histogram arrays whose last K-1 axes are the counts of symbols
    0..K-2 (symbol K-1 implicit); leading axes are a batch.  lo = 1/(E+K-1), hi = E/(E+K-1)."""
    out = L * (hi if s == K - 1 else lo)
    nd = L.ndim
    for y in range(K - 1):
        axis = nd - (K - 1) + y
        dst = [slice(None)] * nd
        src = [slice(None)] * nd
        dst[axis] = slice(1, None)
        src[axis] = slice(None, -1)
        out[tuple(dst)] += (hi if y == s else lo) * L[tuple(src)]
    return out


def _float_divergences(L: np.ndarray, K: int, lo: float, hi: float, a: float, e0: float,
                       support: int, info: dict) -> tuple[float, float]:
    """(DDprime, DprimeD) of one configuration from the others' law L (float64)."""
    P = _add_grid(L, 0, K, lo, hi)
    Q = _add_grid(L, 1, K, lo, hi)
    v = (P > _TINY) & (Q > _TINY)
    p, q = P[v], Q[v]
    lr = np.log(p) - np.log(q)                    # |lr| <= eps0: M(D)/M(D') lies in [1/E, E]
    masked = support - int(v.sum())
    if not p.size:
        raise CertificationError(f"kary_worst_pair_float: every output cell underflows float64 (eps0 = {e0}, "
                                 f"alpha = {a}); use kary_worst_pair_ball")
    out = []
    for w, t in ((p, (a - 1) * lr), (q, -(a - 1) * lr)):
        if float(np.max(np.abs(t))) < 700:        # sum w (ratio^(a-1) - 1), no cancellation
            x = float(np.sum(w * np.expm1(t)))
            val = math.log1p(max(x, 0.0)) / (a - 1)
            logx = math.log(x) if x > 0 else -math.inf
        else:
            m = float(np.max(np.log(w) + t))
            logs = m + math.log(float(np.sum(np.exp(np.log(w) + t - m))))
            val = logs / (a - 1)
            logx = logs + math.log(-math.expm1(-logs)) if logs > 0 else -math.inf
        if masked:
            # each neglected cell moves the sum by at most max(P, Q) E^(a-1) <= 2 TINY E^a
            log_bound = math.log(2 * masked * _TINY) + a * e0
            info["max_log_neglected"] = max(info["max_log_neglected"], log_bound - logx)
            if not log_bound - logx < math.log(1e-15):
                raise CertificationError(f"kary_worst_pair_float: {masked} output cells underflow float64 and may "
                                         f"matter (eps0 = {e0}, alpha = {a}); use kary_worst_pair_ball")
        out.append(val)
    return out[0], out[1]


def kary_worst_pair_float(n: Any, K: int, eps0: Any, alpha: Any, *, return_info: bool = False):
    """Float64 twin of :func:`kary_worst_pair_exact` (thesis Ch. 5, Sec. 5.2 (the shuffle model),
    eq. (5.18) (Poisson-multinomial)): (value, (c, direction)) over every reduced configuration and
    both directions, ties to the first in this function's scan order.

    Method.  Histograms of n reports live on the grid {0..n}^(K-1) (counts of symbols 0..K-2; the
    count of K-1 is implicit; cells beyond n are 0).  A law gains one user of symbol s by one
    multiply-add per shifted copy (:func:`_add_grid`: positive terms only, so every cell keeps its
    relative accuracy, about n ulp after n users).  The Poisson-multinomial of each configuration is
    built this way: the counts of symbols 2..K-1 by a depth-first walk (one addition per step), then,
    for R = n-1-c_2-...-c_{K-1}, the laws with c_0 = ceil(R/2)..R are stacked in one batch array and
    symbol-1 users are added to the whole batch at once (after k additions the member c_0 = R-k is
    complete and evaluated).  Divergences: with r = M(D)/M(D') (|log r| <= eps0),
    D_alpha(M(D)||M(D')) = log1p(sum M(D) expm1((alpha-1) log r))/(alpha-1) (log-sum-exp when
    (alpha-1)|log r| exceeds 700).  Cells of M(D) or M(D') below 1e-290 (float underflow) are dropped
    and charged: each moves the sum by at most 2e-290 E^alpha; a
    :class:`~bcdp.core.errors.CertificationError` is raised unless their total is below 1e-15 of the
    sum.

    Cost: (number of configurations, ~ n^(K-1)/(2 (K-2)!)) x (about n/4 batch additions each) x
    (n+1)^(K-1) grid cells; K = 3: ~ n^5/24 cell updates.  Measured (2 cores shared with another
    heavy job; eps0 = 1, alpha = 4): K = 3, n = 100 in 1.7 s, n = 150 in 15 s, n = 200 in 87 s;
    K = 4, n = 30 in 1.9 s, n = 40 in 12 s."""
    n = check_count(n, allow_float=True)
    K = _check_K(K)
    e0 = float_eps0(eps0, allow_inf=False)
    a = float(float_orders(alpha, finite=True)[0])
    t0 = time.perf_counter()
    info = {"configurations": 0, "max_log_neglected": -math.inf}
    first = (n - 1,) + (0,) * (K - 1)
    if e0 == 0:
        info["seconds"] = 0.0
        return (0.0, (first, "DDprime"), info) if return_info else (0.0, (first, "DDprime"))
    if e0 > 700 or math.exp(e0) == 1.0:
        raise InvalidInputError(f"eps0 = {e0!r} is outside what float64 resolves here (e^eps0 rounds to 1 or "
                                f"overflows); use kary_worst_pair_ball")
    E = math.exp(e0)
    lo = 1.0 / (E + K - 1)
    hi = E * lo
    shape = (n + 1,) * (K - 1)
    idx = np.indices(shape).sum(axis=0) if K > 1 else None
    support = int(np.count_nonzero(idx <= n))
    empty = np.zeros(shape)
    empty[(0,) * (K - 1)] = 1.0
    best = [-math.inf, None]

    def consider(c: tuple, L: np.ndarray) -> None:
        dd, dpd = _float_divergences(L, K, lo, hi, a, e0, support, info)
        info["configurations"] += 1
        for v, direction in ((dd, "DDprime"), (dpd, "DprimeD")):
            if v > best[0]:
                best[0], best[1] = v, (c, direction)

    def walk(law: np.ndarray, s: int, remaining: int, cap: int, prefix: tuple) -> None:
        if s == K:
            R = remaining
            lo0 = (R + 1) // 2
            members = []
            cur = law
            for c0 in range(R + 1):
                if c0:
                    cur = _add_grid(cur, 0, K, lo, hi)
                if c0 >= lo0:
                    members.append(cur)
            B = np.stack(members)                  # c_0 = lo0..R
            for k in range(R - lo0 + 1):           # k symbol-1 users added so far
                consider((R - k, k) + prefix, B[-1])
                B = B[:-1]
                if B.shape[0]:
                    B = _add_grid(B, 1, K, lo, hi)
            return
        cur = law
        for cs in range(min(cap, remaining) + 1):
            if cs:
                cur = _add_grid(cur, s, K, lo, hi)
            walk(cur, s + 1, remaining - cs, cs, prefix + (cs,))

    walk(empty, 2, n - 1, n - 1, ())
    info["seconds"] = time.perf_counter() - t0
    out = (float(best[0]), best[1])
    return out + (info,) if return_info else out


# -- certified enclosure (arb balls) ---------------------------------------------------------------

#: Largest arb working precision tried by :func:`kary_worst_pair_ball` before giving up.
MAX_CERT_PREC = 8192


def _config_balls(n: int, K: int, E: Any, A: Any) -> list:
    """[((c, direction), arb ball of D_alpha)] for every reduced configuration and both directions, at
    the arb precision set by the caller; E = e^{eps0} and A = alpha are balls."""
    import flint

    Z = E + (K - 1)
    lo = flint.arb(1) / Z
    hi = E / Z
    rows = [[hi if y == x else lo for y in range(K)] for x in range(K)]
    am1 = A - 1
    out = []
    for c, law in _walk(n, K, _add_dict, {(0,) * K: flint.arb(1)}, rows):
        P, Q = _add_dict(law, rows[0]), _add_dict(law, rows[1])
        keys = list(P)
        lP = [P[h].log() for h in keys]
        lQ = [Q[h].log() for h in keys]
        for direction, la, lb in (("DDprime", lP, lQ), ("DprimeD", lQ, lP)):
            s = flint.arb(0)
            for x, y in zip(la, lb):
                s += (x + am1 * (x - y)).exp()     # = P^alpha Q^(1-alpha); alpha's radius meets only x - y
            out.append(((c, direction), s.log() / am1))
    return out


def kary_worst_pair_ball(n: Any, K: int, eps0: Any = None, alpha: Any = None, *, exp_eps0: Any = None,
                         rel: float = 1e-20, with_pair: bool = False):
    """Certified enclosure (an arb ball, python-flint) of the worst-pair RDP of shuffled K-RR at order
    alpha (thesis Ch. 5, Sec. 5.2 (the shuffle model), eq. (5.18) (Poisson-multinomial)): every
    reduced configuration and both directions evaluated in ball arithmetic (laws built user by user,
    D_alpha(P||Q) = log(sum exp(alpha log P + (1-alpha) log Q))/(alpha-1)), the sup = the ball max of
    them all.  Give ``eps0`` (read exactly: strings as the decimals they spell, floats at their binary
    value, :func:`bcdp.accounting.inputs.enclose`) or ``exp_eps0`` = E = e^{eps0} (an exact rational
    >= 1; then log E need not be rational-friendly).  Precision: as
    :func:`bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball` (start at 128 bits plus about
    2.2 log2(1/eps0) for eps0 < 1, doubled until the radius is below ``rel`` times the midpoint, until
    a doubling no longer shrinks it 1000-fold, or up to :data:`MAX_CERT_PREC`).

    ``with_pair=True`` returns (ball, (c, direction), unique): the first configuration in the scan
    order of :func:`reduced_configurations` whose ball reaches the lower end of the max, and whether it
    is the only one (exact ties, e.g. c_0 = c_1, leave it False).  Small n: the work is about
    (number of configurations) x (n/4 additions) x C(n+K-2, K-1) ball operations.  Measured (eps0 =
    1, alpha = 4, 2 cores shared with another job; a single 128-bit pass): K = 3, n = 20 in 0.4 s,
    n = 35 in 3.7 s, n = 45 in 10.6 s; K = 4, n = 12 in 0.5 s, n = 18 in 6.1 s."""
    import flint

    from bcdp.accounting.inputs import enclose, exact_value
    from bcdp.core.intervals import arb_precision
    from bcdp.shuffle.rr_all_pairs import _sup_and_pair

    n = check_count(n)
    K = _check_K(K)
    if (eps0 is None) == (exp_eps0 is None):
        raise InvalidInputError("give exactly one of eps0 and exp_eps0")
    if alpha is None:
        raise InvalidInputError("alpha is required")
    qa = exact_value(alpha, "alpha")
    if not (qa > 1 if qa is not None else to_float_input(alpha, "alpha") > 1):
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    if exp_eps0 is not None:
        E_exact = to_fraction(exp_eps0, "exp_eps0")
        if E_exact < 1:
            raise InvalidInputError(f"exp_eps0 = e^eps0 must be >= 1, got {E_exact}")
        small = E_exact - 1                       # ~ eps0 when eps0 is small
    else:
        q0 = exact_value(eps0, "eps0")
        if q0 is not None and q0 < 0:
            raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
        float_eps0(eps0, allow_inf=False)          # NaN, negative, inf
        small = q0 if q0 is not None else Fraction(to_float_input(eps0, "eps0"))
    first = (n - 1,) + (0,) * (K - 1)
    prec = 128
    if 0 < small < 1:
        bits_lost = 2.2 * (small.denominator.bit_length() - small.numerator.bit_length() + 1)
        while prec < 128 + bits_lost:
            prec *= 2
    last_rad = None
    while True:
        with arb_precision(prec):
            A = enclose(alpha, "alpha")
            if small == 0:
                out, pair, unique = flint.arb(0), (first, "DDprime"), False   # every pair is 0: a tie
            else:
                E = enclose(E_exact, "exp_eps0") if exp_eps0 is not None else enclose(eps0, "eps0").exp()
                out, pair, unique = _sup_and_pair(_config_balls(n, K, E, A))
        ok = out.is_finite() and (out.rad() <= abs(out.mid()) * rel or out.rad() == 0)
        stuck = out.is_finite() and last_rad is not None and out.rad() * 1000 > last_rad
        if ok or stuck or (out.is_finite() and prec >= MAX_CERT_PREC):
            return (out, pair, unique) if with_pair else out
        last_rad = out.rad() if out.is_finite() else None
        if prec >= MAX_CERT_PREC:
            raise CertificationError(f"no finite enclosure of the shuffled K-RR RDP at n={n}, K={K}, "
                                     f"alpha={alpha} within {MAX_CERT_PREC} bits")
        prec *= 2


__all__ = ["MAX_CERT_PREC", "kary_worst_pair_ball", "kary_worst_pair_exact", "kary_worst_pair_float",
           "reduced_configurations"]
