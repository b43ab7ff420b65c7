"""Independent mpmath oracles for the Sec. 7.3.1 / App. F checks of problem P1 (not a check itself).

Written from the printed statements, at 50 decimal digits, without the library: the binary entropy
in bits, its inverse ``p_R`` by bisection, the printed bound (7.19)/(7.23), ``2 c^2``, the corrected
bound ``V_bar`` and the objective (7.20).  Fractions are converted exactly (``mpf(p)/mpf(q)``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import mpmath

DPS = 50


def mp(x: Fraction | int) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def h2_bits(p: mpmath.mpf) -> mpmath.mpf:
    if p <= 0 or p >= 1:
        return mpmath.mpf(0)
    return -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)


def entropy_bits(pmf: Sequence[Fraction]) -> mpmath.mpf:
    return -sum((mp(p) * mpmath.log(mp(p)) for p in pmf if p), mpmath.mpf(0)) / mpmath.log(2)


def p_r(r_bits: Fraction) -> mpmath.mpf:
    """H2^{-1}(R) in [0, 1/2] by 200 bisection steps (R in bits)."""
    lo, hi, target = mpmath.mpf(0), mpmath.mpf(1) / 2, mp(r_bits)
    for _ in range(200):
        mid = (lo + hi) / 2
        if h2_bits(mid) <= target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def critical_bits(eps: Fraction) -> mpmath.mpf:
    big = mpmath.exp(mp(eps))
    return h2_bits(big / (big + 1))


def classical(eps: Fraction) -> mpmath.mpf:
    big = mpmath.exp(mp(eps))
    return 2 * (big - 1) ** 2 / (big + 1) ** 2


def printed(eps: Fraction, r_bits: Fraction) -> mpmath.mpf:
    """The printed right side of (7.19): 2c^2 if R >= H2, else 2 p_R^2 (E-1)^2 / E^2."""
    if mp(r_bits) >= critical_bits(eps):
        return classical(eps)
    big = mpmath.exp(mp(eps))
    return 2 * p_r(r_bits) ** 2 * (big - 1) ** 2 / big ** 2


def corrected(eps: Fraction, r_bits: Fraction) -> mpmath.mpf:
    big, p = mpmath.exp(mp(eps)), p_r(r_bits)
    return 2 * p * ((big - 1) / (big + 1)) ** 2 + p ** 2 / (2 * (1 - p))


def value(a: Sequence[Fraction], b: Sequence[Fraction]) -> Fraction:
    """(7.20) exactly, written here from the printed objective."""
    out = Fraction(0)
    for x, y in zip(a, b):
        if x + y:
            out += (Fraction(x) - Fraction(y)) ** 2 / (Fraction(x) + Fraction(y))
    return out


def feasible(a: Sequence[Fraction], b: Sequence[Fraction], eps: Fraction, r_bits: Fraction,
             margin: mpmath.mpf = mpmath.mpf(10) ** -30) -> bool:
    """(7.21) with a margin far above the 50-digit error: pmfs, entropies <= R, ratios in [e^-eps, e^eps]."""
    if sum(a) != 1 or sum(b) != 1 or min(a) < 0 or min(b) < 0:
        return False
    if entropy_bits(a) > mp(r_bits) - margin or entropy_bits(b) > mp(r_bits) - margin:
        return False
    big = mpmath.exp(mp(eps))
    for x, y in zip(a, b):
        if (x == 0) != (y == 0):
            return False
        if x and (mp(x) > big * mp(y) * (1 - margin) or mp(y) > big * mp(x) * (1 - margin)):
            return False
    return True
