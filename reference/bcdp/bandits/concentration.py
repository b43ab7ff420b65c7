"""Tails of weighted sums of Laplace noise: thesis Lemma E.1.2 (eqs. (E.17)-(E.20), App. E.2), corrected.

Setting (thesis Lemma E.1.2): x_bar = sum_i l_i z_i with z_i i.i.d. Lap(1/b) (density (b/2) e^{-b|z|}),
constants l_i and c^2 >= sum_i l_i^2, l_max = max_i |l_i|.  The lemma is used for the Laplace part of the
estimation error in Lemmas E.1.1 and E.3.1 (the widths gamma_i of Algs 6.3.1, 6.3.2, 6.4.1).

**Erratum (step (c) of (E.19), E-Thesis-LemmaE.1.2).**  The proof bounds E e^{lambda l z} by
e^{lambda^2 l^2/(2 b^2)} for 0 <= lambda <= b/l_max.  The exact moment generating function is
E e^{lambda l z} = 1/(1 - lambda^2 l^2/b^2) for |lambda l| < b (:func:`laplace_mgf`), which is > e^{x} >
e^{x/2} (x = lambda^2 l^2/b^2) for every lambda != 0 and infinite at lambda = b/l_max.  The conclusion
(E.17) fails too: for n = 7, l_i = 1, b = 1, c^2 = 7, t = 7 (= c^2/(b l_max), the first case),
P[x_bar >= 7] = e^{-7} R with R rational (:func:`iid_laplace_sum_tail_factor`) is 1.055 times the
printed exp(-t^2 b^2/(2 c^2)) = e^{-7/2}.

**Correction (implemented).**  1/(1 - x) <= e^{2x} for 0 <= x <= 1/2 (-log(1 - x) is convex and equals
2 log 2 x <= 2x at x = 1/2), so E e^{lambda l z} <= exp(2 lambda^2 l^2/b^2) for |lambda l| <= b/sqrt 2
(:func:`laplace_mgf_bound_exponent`), and Chernoff gives (:func:`weighted_laplace_tail_bound_float`)

    P[x_bar >= t] <= exp(-t^2 b^2/(8 c^2))                        if t <= 2 sqrt(2) c^2/(b l_max),
                     exp(c^2/l_max^2 - b t/(sqrt(2) l_max))        otherwise.

Compared with (E.17) the sub-Gaussian exponent is 4 times smaller (the variance of l z is 2 l^2/b^2,
not l^2/(2 b^2)): the widths gamma_i built on (E.17) must grow by a factor 2 in their Laplace terms.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb, factorial
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import INFINITY, to_fraction, to_float_input

#: Largest n accepted by :func:`iid_laplace_sum_tail_factor` (an O(n^2) exact double sum).
MAX_TAIL_N = 400


def _pos(value: Any, name: str) -> Fraction:
    f = to_fraction(value, name)
    if f <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {f}")
    return f


def laplace_mgf(lam: Any, l: Any, b: Any) -> Fraction | float:
    """Exact E exp(lam l z), z ~ Lap(1/b) (density (b/2) e^{-b|z|}): 1/(1 - lam^2 l^2/b^2) for |lam l| < b,
    INFINITY (math.inf) for |lam l| >= b.  Exact rationals in, a Fraction out."""
    x = (to_fraction(lam, "lam") * to_fraction(l, "l") / _pos(b, "b")) ** 2
    return INFINITY if x >= 1 else 1 / (1 - x)


def laplace_mgf_bound_exponent(lam: Any, l: Any, b: Any) -> Fraction:
    """The corrected step (c) of thesis (E.19): log E exp(lam l z) <= 2 lam^2 l^2/b^2, valid for
    lam^2 l^2 <= b^2/2 (|lam l| <= b/sqrt 2; ValidityConditionError outside).  Returns the exponent
    2 lam^2 l^2/b^2 (exact)."""
    x = (to_fraction(lam, "lam") * to_fraction(l, "l") / _pos(b, "b")) ** 2
    if x > Fraction(1, 2):
        raise ValidityConditionError(f"the bound E e^(lam l z) <= e^(2 lam^2 l^2/b^2) needs lam^2 l^2 <= b^2/2 "
                                     f"(corrected thesis (E.19)(c)), got lam^2 l^2/b^2 = {x}")
    return 2 * x


def _weights(l: Sequence[Any]) -> list[float]:
    if isinstance(l, (str, bytes)) or not isinstance(l, Sequence) or not l:
        raise InvalidInputError("l must be a non-empty sequence of weights")
    w = [to_float_input(v, f"l[{i}]") for i, v in enumerate(l)]
    if max(abs(v) for v in w) == 0:
        raise InvalidInputError("l must have a non-zero weight")
    return w


def _c2(w: list[float], c: Any) -> float:
    s = sum(v * v for v in w)
    if c is None:
        return s
    cf = to_float_input(c, "c")
    if cf * cf < s:
        raise ValidityConditionError(f"Lemma E.1.2 needs c^2 >= sum l_i^2 = {s:.6g}, got c^2 = {cf * cf:.6g}")
    return cf * cf


def weighted_laplace_tail_bound_float(t: float, l: Sequence[Any], b: float, c: Any = None) -> float:
    """Corrected thesis Lemma E.1.2: an upper bound on P[sum_i l_i z_i >= t], z_i i.i.d. Lap(1/b).

    exp(-t^2 b^2/(8 c^2)) for t <= 2 sqrt(2) c^2/(b l_max), else exp(c^2/l_max^2 - b t/(sqrt 2 l_max));
    c^2 >= sum l_i^2 (default: equality), l_max = max |l_i|; 1 for t <= 0.  Float (a bound evaluated in
    double precision; the exponent is rounded up by a relative 1e-12 to stay an upper bound)."""
    tt, bb = to_float_input(t, "t"), to_float_input(b, "b")
    if bb <= 0:
        raise InvalidInputError(f"b must be > 0, got {bb}")
    w = _weights(l)
    c2 = _c2(w, c)
    lmax = max(abs(v) for v in w)
    if tt <= 0:
        return 1.0
    if tt <= 2 * math.sqrt(2) * c2 / (bb * lmax):
        expo = -tt * tt * bb * bb / (8 * c2)
    else:
        expo = c2 / lmax ** 2 - bb * tt / (math.sqrt(2) * lmax)
    return min(1.0, math.exp(expo * (1 - 1e-12) if expo < 0 else expo * (1 + 1e-12)))


def printed_lemma_e12_bound_float(t: float, l: Sequence[Any], b: float, c: Any = None) -> float:
    """The bound (E.17) as printed (not a valid bound: see the module docstring):
    exp(-t^2 b^2/(2 c^2)) for t <= c^2/(b l_max), else exp(c^2/(2 l_max^2) - b t/l_max)."""
    tt, bb = to_float_input(t, "t"), to_float_input(b, "b")
    if bb <= 0:
        raise InvalidInputError(f"b must be > 0, got {bb}")
    w = _weights(l)
    c2 = _c2(w, c)
    lmax = max(abs(v) for v in w)
    if tt <= c2 / (bb * lmax):
        return math.exp(-tt * tt * bb * bb / (2 * c2))
    return math.exp(c2 / (2 * lmax ** 2) - bb * tt / lmax)


def iid_laplace_sum_tail_factor(n: int, s: Any) -> Fraction:
    """Exact R with P[z_1 + ... + z_n >= s / b] = e^{-s} R for z_i i.i.d. Lap(1/b) and s >= 0 (rational).

    b (z_1 + ... + z_n) = G - G' with G, G' i.i.d. Gamma(n, 1), so for s >= 0
    P = E[P(G >= s + G')] = e^{-s} sum_{k<n} sum_{j<=k} C(k, j) s^{k-j} (n-1+j)! / (k! (n-1)! 2^{n+j})
    (P(G >= x) = e^{-x} sum_{k<n} x^k/k!, then integrate against G' with int y^m e^{-2y} dy = m!/2^{m+1})."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_TAIL_N:
        raise InvalidInputError(f"n must be an integer in [1, {MAX_TAIL_N}], got {n!r}")
    sf = to_fraction(s, "s")
    if sf < 0:
        raise InvalidInputError(f"s must be >= 0 (use the symmetry of the sum for negative s), got {sf}")
    total = Fraction(0)
    fn = factorial(n - 1)
    for k in range(n):
        for j in range(k + 1):
            total += comb(k, j) * sf ** (k - j) * Fraction(factorial(n - 1 + j), factorial(k) * fn * 2 ** (n + j))
    return total
