"""The small exact grid of Hadamard-response instances shared by the Thm 7.5.2 checks (not a check).

``e_eps`` is an exact rational ratio e^eps (eps = log e_eps); [ASZ19]'s parameters depend on eps only through
ceil(log2 min{e^eps, 2k}), so :func:`bcdp.randomness.keys.asz19_parameters` is called at a rational eps_r close
to log e_eps whose e^{eps_r} is certified to lie in the same bracket (``same_bracket``).
"""

from __future__ import annotations

import math
from fractions import Fraction

from bcdp.core.intervals import arb_precision, ball_ends, ball_of

KS = tuple(range(2, 13))
RATIOS = (Fraction(5, 4), Fraction(3, 2), Fraction(2), Fraction(5, 2), Fraction(13, 4), Fraction(4), Fraction(6),
          Fraction(10), Fraction(30))


def eps_near(e_eps: Fraction) -> Fraction:
    return Fraction(math.log(e_eps)).limit_denominator(10 ** 6)


def same_bracket(e_eps: Fraction, eps_r: Fraction, k: int) -> bool:
    """Certified: min{e^{eps_r}, 2k} and min{e_eps, 2k} have the same ceil(log2 .)."""
    with arb_precision(128):
        lo, hi = ball_ends(ball_of(eps_r).exp())
    two_k = Fraction(2 * k)
    a_lo, a_hi, b = min(lo, two_k), min(hi, two_k), min(e_eps, two_k)

    def cl(x: Fraction) -> int:
        j = 0
        while Fraction(2) ** j < x:
            j += 1
        while Fraction(2) ** (j - 1) >= x:
            j -= 1
        return j
    return cl(a_lo) == cl(a_hi) == cl(b)
