"""Float64 twins of the thesis Chapter 5 closed forms (log space, vectorised over orders).

Each ``*_float`` function evaluates the same formula as its high-precision namesake of
:mod:`bcdp.shuffle.shuffled_bounds` / :mod:`bcdp.shuffle.subsampled_bounds` in float64 log space
(``scipy.special.gammaln`` / ``logsumexp``), over an array of orders, and is tested against it
(tests/shuffle).  They take floats (:func:`bcdp.core.numbers.to_float_input`); an input float means
its exact binary value (floors such as nbar are decided for that value).  They are approximations
(relative error ~1e-12), used for figures and searches; the mpmath functions are the reference.

Twins: :func:`thm531_upper_float` (5.4), :func:`cor531_upper_float` (5.5), :func:`thm532_upper_float`
(5.7), :func:`efm19_upper_float` (5.8), :func:`thm533_lower_float` (5.9), :func:`cor532_lower_float`
(5.10), :func:`thm541_upper_float` (Thm 5.4.1).
"""

from __future__ import annotations

import math
from typing import Sequence

import mpmath
import numpy as np
from scipy.special import gammaln, logsumexp

from bcdp.core.errors import InvalidInputError
from bcdp.shuffle.inputs import (
    check_count,
    check_nk,
    float_eps0,
    float_orders,
    integer_orders_float,
)
from bcdp.shuffle.shuffled_bounds import kbar, nbar
from bcdp.shuffle.subsampled_bounds import THM541_VARIANTS


def _log1p_exp_over_array(lse: np.ndarray, a: np.ndarray) -> np.ndarray:
    """log(1 + e^lse)/(a - 1) elementwise, without overflow (the last step of the log-space twins)."""
    big = lse >= 700
    safe = np.where(big, 0.0, lse)
    return np.where(big, lse + np.log1p(np.exp(-np.where(big, lse, 0.0))), np.log1p(np.exp(safe))) / (a - 1)


#: most entries of the (orders x terms) table of :func:`thm531_upper_float` built at once
THM531_TABLE_ELEMS = 4_000_000


def thm531_upper_float(n: int, eps0: float, alphas: Sequence[int] | np.ndarray, *,
                       cap: bool = False) -> np.ndarray:
    """Float64 log-space twin of :func:`thm531_upper` (thesis variant, thesis tail), vectorised over
    the orders: the terms log(C(a,i) i Gamma(i/2) x^{i/2}), i = 3..a, of every order a form one
    (orders x i) table (entries with i > a masked to -inf), reduced by one logsumexp per row, in
    blocks of at most :data:`THM531_TABLE_ELEMS` entries."""
    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = integer_orders_float(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    E = math.exp(e)
    nb = nbar(n, mpmath.mpf(e))
    flat = arr.reshape(-1)
    out = np.empty(flat.shape)
    log_q = 2 * math.log(math.expm1(e)) - math.log(nb * E) if e > 0 else -np.inf
    log_x_half = (2 * math.log((E * E - 1)) - math.log(2 * E * E * nb)) / 2 if e > 0 else -np.inf
    first = np.log(flat * (flat - 1) / 2) + log_q
    second = e * flat - (n - 1) / (8 * E)
    top = int(flat.max()) if flat.size else 0
    if e > 0 and top >= 3:
        i = np.arange(3, top + 1, dtype=float)
        fixed = np.log(i) + gammaln(i / 2) + i * log_x_half - gammaln(i + 1)
        rows = max(1, THM531_TABLE_ELEMS // len(i))
        for start in range(0, flat.size, rows):
            a = flat[start:start + rows, None]
            inside = i[None, :] <= a
            table = np.where(inside, gammaln(a + 1) - gammaln(np.where(inside, a - i[None, :], 0.0) + 1)
                             + fixed[None, :], -np.inf)
            table = np.concatenate([first[start:start + rows, None], second[start:start + rows, None], table], axis=1)
            out[start:start + rows] = logsumexp(table, axis=1)
    else:
        out[:] = np.logaddexp(first, second)
    out = _log1p_exp_over_array(out, flat).reshape(arr.shape)
    if cap:
        out = np.minimum(out, e)
    return out


def thm532_upper_float(n: int, eps0: float, alphas: Sequence[float] | np.ndarray, *,
                       cap: bool = False) -> np.ndarray:
    """Float64 twin of :func:`thm532_upper` (real orders > 1)."""
    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = float_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    E = math.exp(e)
    nb = nbar(n, mpmath.mpf(e))
    u = arr ** 2 * math.expm1(e) ** 2 / nb
    v = e * arr - (n - 1) / (8 * E)
    out = np.logaddexp(u, v) / (arr - 1)
    out = np.where(np.isinf(arr), np.inf, out)
    return np.minimum(out, e) if cap else out


def efm19_upper_float(n: int, eps0: float, alphas: Sequence[float] | np.ndarray, *,
                      cap: bool = False) -> np.ndarray:
    """Float64 twin of :func:`efm19_upper`."""
    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = float_orders(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    out = 2 * arr * math.exp(4 * e) * math.expm1(e) ** 2 / n
    return np.minimum(out, e) if cap else out


def _log_binomial_rows(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """(rows x terms) table log C(a, i) for the column vector of orders ``a`` and the row vector of
    indices ``idx``, -inf where i > a."""
    inside = idx[None, :] <= a
    return np.where(inside, gammaln(a + 1) - gammaln(idx[None, :] + 1)
                    - gammaln(np.where(inside, a - idx[None, :], 0.0) + 1), -np.inf)


def _log_power_excess(a: np.ndarray, x: float) -> np.ndarray:
    """log((1 + x)^a - 1 - x) for x > 0 and orders a >= 2, without overflow: y = a log1p(x);
    log(expm1(y) - x) for y <= 30, else y + log1p(-(1 + x) e^{-y})."""
    y = a * math.log1p(x)
    small = np.minimum(y, 30.0)
    with np.errstate(divide="ignore", invalid="ignore"):      # (the branch not taken may be NaN)
        return np.where(y > 30.0, y + np.log1p(-(1 + x) * np.exp(-np.maximum(y, 30.0))),
                        np.log(np.expm1(small) - x))


#: Above this eps0 the float twins of Thm 5.4.1 return +inf (e^eps0 is within a factor e^10 of the
#: float64 range; the certified balls of :mod:`bcdp.shuffle.subsampled_balls` are unaffected).
FLOAT_EPS0_MAX = 700.0


def thm541_upper_float(n: int, k: int, eps0: float, alphas: Sequence[int] | np.ndarray, *,
                       variant: str = "thesis", cap: bool = False) -> np.ndarray:
    """Float64 log-space twin of :func:`thm541_upper` (all three variants), vectorised over the
    orders: every term of every order (the j = 2 term, the tail Upsilon, the sums over j = 3..alpha
    and, for "thesis"/"koskela", the binomial tail sum_{l>=2} C(alpha,l) x^l) is one entry of an
    (orders x terms) table reduced by one logsumexp per row, in blocks of at most
    :data:`THM531_TABLE_ELEMS` entries.  The "girgis_code" tail (1+x)^alpha - 1 - x is taken in log
    space (no overflow at large orders)."""
    n, k = check_nk(n, k, allow_float=True)
    e = float_eps0(eps0)
    arr = integer_orders_float(alphas)
    if variant not in THM541_VARIANTS[:3]:
        raise InvalidInputError(f"unknown variant {variant!r} {THM541_VARIANTS[:3]}")
    if math.isinf(e) or e > FLOAT_EPS0_MAX:      # e^eps0 (nearly) overflows: +inf, a sound float reading
        out = np.full(arr.shape, np.inf)
        return np.minimum(out, e) if cap else out
    if e == 0:
        return np.zeros(arr.shape)
    kb = float(kbar(k, mpmath.mpf(e), floor=(variant != "girgis_code")))
    g = k / n
    log_1m = math.log(-math.expm1(-2 * e))      # log(1 - E^-2), accurate for tiny and large eps0
    log_c = e + log_1m                            # log(E - 1/E), no cancellation at tiny eps0
    lg = math.log(g)
    flat = arr.reshape(-1).astype(float)
    out = np.empty(flat.shape)
    log_y_half = (math.log(2) + 2 * e + 2 * log_1m - math.log(kb)) / 2   # log(2 (E^2 - 1)^2/(kb E^2))/2
    decay = -(k - 1) * math.exp(-e) / 8
    if variant == "girgis_code":
        lquad = np.log(flat * (flat - 1) / 2) + 2 * lg + 2 * log_c - math.log(kb)
        ltail_closed = _log_power_excess(flat, g * math.expm1(e)) + decay
    else:
        lquad = np.log(2 * flat * (flat - 1)) + 2 * lg + 2 * math.log(math.expm1(e)) - math.log(kb) - e
        log_x = lg + log_c if variant == "thesis" else lg + log_c - math.log(2)
    top = int(flat.max()) if flat.size else 0
    ls = np.arange(2, top + 1, dtype=float)          # binomial tail indices l = 2..top
    js = np.arange(3, top + 1, dtype=float)          # special-term indices j = 3..top
    special = np.log(js) + gammaln(js / 2) + js * (log_y_half + lg)
    rows = max(1, THM531_TABLE_ELEMS // max(1, 2 * len(ls)))
    for start in range(0, flat.size, rows):
        a = flat[start:start + rows, None]
        cols = [lquad[start:start + rows, None]]
        if variant == "girgis_code":
            cols.append(ltail_closed[start:start + rows, None])
        else:
            tail = _log_binomial_rows(a, ls) + ls[None, :] * log_x
            cols.append((logsumexp(tail, axis=1) + decay)[:, None])
        if js.size:
            cols.append(_log_binomial_rows(a, js) + special[None, :])
        out[start:start + rows] = logsumexp(np.concatenate(cols, axis=1), axis=1)
    out = _log1p_exp_over_array(out, flat).reshape(arr.shape)
    return np.minimum(out, e) if cap else out


def cor531_upper_float(n: int, eps0: float, alphas: Sequence[int] | np.ndarray, *, enforce: bool = True,
                       cap: bool = False) -> np.ndarray:
    """Float64 twin of :func:`~bcdp.shuffle.shuffled_bounds.cor531_upper` (form (5.5)):
    log(1 + 2 alpha (alpha-1)(E-1)^2/n)/(alpha-1).  Where the condition alpha^4 e^{5 eps0} < n/9
    fails the value is +inf (not a bound) unless ``enforce=False``; the condition is decided exactly
    (9 alpha^4 < n) at eps0 = 0 and otherwise with a 1e-12 relative guard towards 'invalid'."""
    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = integer_orders_float(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    a = arr.astype(float)
    out = np.log1p(2 * a * (a - 1) * math.expm1(e) ** 2 / n) / (a - 1)
    if enforce:
        if e == 0:
            ok = np.array([9 * int(x) ** 4 < n for x in arr], dtype=bool)
        else:
            ok = (4 * np.log(a) + 5 * e) * (1 + 1e-12) < math.log(n / 9)
        out = np.where(ok, out, np.inf)
    return np.minimum(out, e) if cap else out


def _log_expm1(e: float) -> float:
    """log(e^e - 1) for e > 0 without overflow."""
    return math.log(math.expm1(e)) if e < 1 else e + math.log1p(-math.exp(-e))


def cor532_lower_float(n: int, eps0: float, alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """Float64 twin of :func:`~bcdp.shuffle.shuffled_bounds.cor532_lower`, (5.10):
    log(1 + C(alpha,2)(E-1)^2/(n E))/(alpha-1), in log space (no overflow at large eps0)."""
    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = integer_orders_float(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    if e == 0:
        return np.zeros(arr.shape)
    base = 2 * _log_expm1(e) - math.log(n) - e
    a = arr.astype(float)
    return _log1p_exp_over_array(np.log(a * (a - 1) / 2) + base, a)


def thm533_lower_float(n: int, eps0: float, alphas: Sequence[int] | np.ndarray) -> np.ndarray:
    """Float64 twin of :func:`~bcdp.shuffle.shuffled_bounds.thm533_lower`, (5.9), at integer orders.

    (5.9) is exactly D_alpha(M(D') || M(D)) for shuffled 2RR with D = 0^n, D' = 0^{n-1}1 (thesis
    Sec. 5.3.4 and (5.40) the right way up; checked by ``thesis_thm533_lower``), so it is evaluated
    by the float64 log-space sum of :func:`bcdp.shuffle.rr_pair.rr_pair_rdp` (no cancellation,
    unlike the central-moment expansion)."""
    from bcdp.shuffle.rr_pair import rr_pair_rdp

    n = check_count(n, allow_float=True)
    e = float_eps0(eps0)
    arr = integer_orders_float(alphas)
    if math.isinf(e):
        return np.full(arr.shape, np.inf)
    return rr_pair_rdp(n, e, arr.astype(float), "DprimeD")


__all__ = [
    "cor531_upper_float", "cor532_lower_float", "efm19_upper_float", "thm531_upper_float",
    "thm532_upper_float", "thm533_lower_float", "thm541_upper_float",
]
