"""Remark 3.7.3: the central user-level DP baseline of [LSA21] (beta_c, the error rate) next to Thm 3.7.1, exact.

Thesis Ch. 3, Sec. 3.7.1, Remark 3.7.3: [LSA21]'s central user-level DP mean estimator has error
O(tau^2/(n^2 eps^2)) with probability 1 - beta_c, beta_c = min{1, gamma + (B/tau) e^{-n eps/8}};
Thm 3.7.1 (3.49) has beta = min{1, gamma + (2B/tau) exp(-n (E_h-1)^2/(200 (E_h+1)^2))}, E_h =
e^{eps0/2} (:func:`bcdp.dme.user_level.thm371_beta`), and the local error is O(tau^2/(n eps0^2)).  The
remark says the confidences are "almost same" and that a shuffler closes the O(n) gap in the error.

* :func:`lsa21_beta_c` is beta_c with E = e^{eps} rational and n a multiple of 8, so that
  e^{-n eps/8} = E^{-n/8} is a rational: the whole expression is exact.
* :func:`beta_exponents` gives the two exponents (n (E_h-1)^2/(200 (E_h+1)^2) and n eps/8 at the same
  eps = eps0 = 2 log E_h) as sympy numbers; their ratio 25 eps/tanh(eps/4)^2 is >= 171 for every eps > 0
  (the comparison is in THESIS-Rem3.7.3).
* :func:`second_stage_worst_mse` is the worst case over y~ in [a, b] (b - a = 6 tau) of the error of the
  second stage of Mean_scalar averaged over n users, 9 tau^2 C^2/n with C = (E+1)/(E-1) (attained at the
  centre of [a, b]); a shuffler permutes the messages and leaves the average, hence this error, unchanged,
  and only the central privacy parameter changes (computed with the shuffle package in the check).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import to_fraction
from bcdp.dme import user_level


def _count(n: Any, multiple: int = 1) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 1:
        raise InvalidInputError(f"n must be an integer >= 1, got {n!r}")
    if int(n) % multiple:
        raise InvalidInputError(f"n must be a multiple of {multiple} (exact e^(-n eps/8) = E^(-n/8)), got {n}")
    return int(n)


def _rat(f: Fraction) -> sympy.Rational:
    return sympy.Rational(f.numerator, f.denominator)


def lsa21_beta_c(n: Any, B: Any, tau: Any, E: Any, gamma: Any = 0) -> sympy.Expr:
    """beta_c = min{1, gamma + (B/tau) e^{-n eps/8}} of [LSA21] as quoted in Remark 3.7.3, with E = e^{eps} > 1
    rational and n a multiple of 8 (then e^{-n eps/8} = E^{-n/8} is rational); gamma in [0, 1].  Exact."""
    n = _count(n, 8)
    B, tau = to_fraction(B, "B"), to_fraction(tau, "tau")
    if B <= 0 or tau <= 0:
        raise InvalidInputError(f"B and tau must be > 0, got B = {B}, tau = {tau}")
    E = to_fraction(E, "E")
    if E <= 1:
        raise InvalidInputError(f"E = e^eps must be > 1, got {E}")
    g = to_fraction(gamma, "gamma")
    if not 0 <= g <= 1:
        raise InvalidInputError(f"gamma must be in [0, 1], got {g}")
    return sympy.Min(1, _rat(g + B / tau / E ** (n // 8)))


def beta_exponents(n: Any, E_half: Any) -> tuple[sympy.Expr, sympy.Expr]:
    """(n (E_h-1)^2/(200 (E_h+1)^2), n eps/8) with eps = 2 log E_h: the exponents of beta (Thm 3.7.1 (3.49)) and
    of beta_c (Remark 3.7.3) at the same privacy parameter eps = eps0, E_h = e^{eps0/2} > 1 rational."""
    n = _count(n)
    Eh = to_fraction(E_half, "E_half")
    if Eh <= 1:
        raise InvalidInputError(f"E_half must be > 1, got {Eh}")
    r = _rat((Eh - 1) / (Eh + 1))
    return n * r ** 2 / 200, n * 2 * sympy.log(_rat(Eh)) / 8


def second_stage_worst_mse(n: Any, tau: Any, E: Any) -> Fraction:
    """max over y~_1..y~_n in [a, b] (b - a = 6 tau) of E|(1/n) sum_i z_i - (1/n) sum_i y~_i|^2 for the second
    stage of Mean_scalar (Alg 3.7.4 with the d = 1 Hadamard R at E = e^{eps}): (1/n) max_y E|R(y) - y|^2, the
    maximum at y~ = (a+b)/2, from :func:`bcdp.dme.user_level.second_stage_mse`.  Unchanged by shuffling."""
    n = _count(n)
    t = to_fraction(tau, "tau")
    if t <= 0:
        raise InvalidInputError(f"tau must be > 0, got {t}")
    return user_level.second_stage_mse(0, -3 * t, 3 * t, E) / n
