"""Unbiased binary randomized response 2RR (thesis Alg 2.2.1, Thm 2.4.1, Lemma 2.4.1, Sec. 2.4), exact.

2RR with public parameter p in [0, 1/2) maps a bit b to y = (b - p)/(1 - 2p) with probability 1 - p
and to y = (1 - b - p)/(1 - 2p) with probability p (thesis Alg 2.2.1).  Its two output values are
``low = -p/(1-2p)`` and ``high = (1-p)/(1-2p)``; it is unbiased, E[y] = b, with variance
p(1-p)/(1-2p)^2 for both bits (thesis Thm 2.4.1, eq. (2.5)) and LDP ratio (1-p)/p.

Lemma 2.4.1 chooses p from a budget v > 0: p = (1 - sqrt(v^2/(v^2+4)))/2, which gives
eps0 = log((1-p)/p) = 2 asinh(v/2) <= v, with equality only at v = 0 (so eps0 < v for every v > 0:
the lemma's budget is an upper bound, never attained).  p is rational exactly when v^2 + 4 is the
square of a rational, i.e. v = t - 1/t for a rational t > 1; then p = 1/(1 + t^2) and
e^{eps0} = t^2 (:func:`rational_budget`).  Otherwise :func:`budget_p` returns a sympy expression.

Exact functions take exact numbers (floats are refused); :func:`sample_two_rr` is the vectorised
float64 sampler (numpy Generator).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import INFINITY, to_float_input, to_fraction

__all__ = [
    "budget_epsilon", "budget_p", "budget_p_sympy", "certify_epsilon_below_budget", "check_bit", "check_p",
    "rational_budget", "rational_sqrt", "sample_two_rr", "two_rr_epsilon", "two_rr_law", "two_rr_ldp_ratio",
    "two_rr_mean", "two_rr_mse", "two_rr_values", "two_rr_variance",
]

HALF = Fraction(1, 2)


def check_p(p: Any, name: str = "p") -> Fraction:
    """The 2RR parameter as an exact Fraction in [0, 1/2) (thesis Alg 2.2.1, Thm 2.4.1: p in [0, 1/2))."""
    q = to_fraction(p, name)
    if not 0 <= q < HALF:
        raise ValidityConditionError(f"{name} = {q} is outside [0, 1/2), the range of thesis Thm 2.4.1 (2RR)")
    return q


def check_bit(b: Any, name: str = "b") -> int:
    """An input bit of 2RR: the int 0 or 1 (bools and other types refused)."""
    if isinstance(b, bool) or not isinstance(b, (int, np.integer)):
        raise WrongTypeError(f"{name} must be the int 0 or 1, got {type(b).__name__} {b!r}")
    if b not in (0, 1):
        raise InvalidInputError(f"{name} must be 0 or 1, got {b}")
    return int(b)


def two_rr_values(p: Any) -> tuple[Fraction, Fraction]:
    """The two output values (low, high) = (-p/(1-2p), (1-p)/(1-2p)) of 2RR (thesis Alg 2.2.1, lines 5-7)."""
    q = check_p(p)
    return -q / (1 - 2 * q), (1 - q) / (1 - 2 * q)


def two_rr_law(b: Any, p: Any) -> dict[Fraction, Fraction]:
    """Exact law {y: P[y]} of 2RR on bit b (thesis Alg 2.2.1): gamma ~ Ber(p); gamma = 0 sends
    (b - p)/(1 - 2p), gamma = 1 sends (1 - b - p)/(1 - 2p).  Both values are keys (probability 0
    when p = 0)."""
    bit, q = check_bit(b), check_p(p)
    keep = (bit - q) / (1 - 2 * q)
    flip = (1 - bit - q) / (1 - 2 * q)
    return {keep: 1 - q, flip: q}


def two_rr_mean(b: Any, p: Any) -> Fraction:
    """E[y] of 2RR on bit b from its exact law (= b: unbiasedness, thesis Thm 2.4.1)."""
    return sum((y * w for y, w in two_rr_law(b, p).items()), Fraction(0))


def two_rr_mse(b: Any, p: Any) -> Fraction:
    """E[(y - b)^2] of 2RR on bit b from its exact law (thesis Thm 2.4.1, eq. (2.5))."""
    bit = check_bit(b)
    return sum(((y - bit) ** 2 * w for y, w in two_rr_law(bit, p).items()), Fraction(0))


def two_rr_variance(p: Any) -> Fraction:
    """The printed MSE of 2RR, p(1-p)/(1-2p)^2 (thesis Thm 2.4.1, eq. (2.5)); equal to
    :func:`two_rr_mse` for both bits."""
    q = check_p(p)
    return q * (1 - q) / (1 - 2 * q) ** 2


def two_rr_ldp_ratio(p: Any) -> Fraction | float:
    """Exact LDP ratio e^{eps0} of 2RR: max over bits b, b' and outputs y of P[y | b]/P[y | b'],
    computed from the two laws (thesis Def 2.2.1, Thm 2.4.1: (1-p)/p); INFINITY when p = 0."""
    laws = [two_rr_law(0, p), two_rr_law(1, p)]
    best: Fraction | float = Fraction(1)
    for num in laws:
        for den in laws:
            for y, w in num.items():
                w2 = den.get(y, Fraction(0))
                if w2 == 0:
                    if w > 0:
                        return INFINITY
                    continue
                best = max(best, w / w2)
    return best


def two_rr_epsilon(p: Any) -> Any:
    """eps0 = log((1-p)/p) as an exact sympy expression (thesis Thm 2.4.1); sympy ``oo`` at p = 0."""
    import sympy

    q = check_p(p)
    if q == 0:
        return sympy.oo
    r = (1 - q) / q
    return sympy.log(sympy.Rational(r.numerator, r.denominator))


def _check_budget(v: Any, name: str = "v") -> Fraction:
    w = to_fraction(v, name)
    if w <= 0:
        raise ValidityConditionError(f"{name} = {w} must be > 0 (thesis Lemma 2.4.1: 'for any v > 0')")
    return w


def rational_sqrt(x: Fraction) -> Fraction | None:
    """sqrt(x) as a Fraction when x >= 0 is the square of a rational, else None."""
    if x < 0:
        return None
    n, d = x.numerator, x.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return Fraction(rn, rd)
    return None


def budget_p(v: Any) -> Fraction | Any:
    """Lemma 2.4.1's p = (1 - sqrt(v^2/(v^2+4)))/2 for a budget v > 0 (thesis Lemma 2.4.1): a Fraction
    when v^2 + 4 is a rational square (v = t - 1/t, see :func:`rational_budget`), otherwise the exact
    sympy expression (:func:`budget_p_sympy`)."""
    w = _check_budget(v)
    root = rational_sqrt(w * w + 4)
    if root is None:
        return budget_p_sympy(w)
    return (1 - w / root) / 2


def budget_p_sympy(v: Any) -> Any:
    """Lemma 2.4.1's p = (1 - sqrt(v^2/(v^2+4)))/2 as an exact sympy expression (thesis Lemma 2.4.1)."""
    import sympy

    w = _check_budget(v)
    sv = sympy.Rational(w.numerator, w.denominator)
    return (1 - sympy.sqrt(sv ** 2 / (sv ** 2 + 4))) / 2


def rational_budget(t: Any) -> tuple[Fraction, Fraction]:
    """(v, p) = (t - 1/t, 1/(1 + t^2)) for a rational t > 1: the budgets of thesis Lemma 2.4.1 whose p
    is rational; then e^{eps0} = (1-p)/p = t^2 exactly."""
    r = to_fraction(t, "t")
    if r <= 1:
        raise ValidityConditionError(f"t = {r} must be > 1 (v = t - 1/t > 0, thesis Lemma 2.4.1)")
    return r - 1 / r, 1 / (1 + r * r)


def budget_epsilon(v: Any) -> Any:
    """The exact eps0 = log((1-p)/p) of Lemma 2.4.1's p, in closed form 2 asinh(v/2) (sympy; thesis
    Lemma 2.4.1 states only eps0 <= v)."""
    import sympy

    w = _check_budget(v)
    return 2 * sympy.asinh(sympy.Rational(w.numerator, w.denominator) / 2)


def certify_epsilon_below_budget(v: Any, max_rounds: int = 40) -> dict[str, Any]:
    """Certify eps0 < v for Lemma 2.4.1's p (thesis Lemma 2.4.1) by exact rational bounds.

    e^{eps0} = ((sqrt(v^2+4) + v)/2)^2; an upper bound U uses a rational R >= sqrt(v^2+4) (integer
    square roots at 2^k binary digits), a lower bound L <= e^v the Taylor partial sum of e^v.
    Returns {"certified": True, "upper_exp_eps0": U, "lower_exp_v": L, "terms": J, "bits": k} once
    U < L; raises InvalidInputError if ``max_rounds`` doublings do not separate them (v very small)."""
    w = _check_budget(v)
    x = w * w + 4
    bits, terms = 16, 8
    for _ in range(max_rounds):
        scale = 1 << bits
        # R = ceil(sqrt(x) * scale)/scale >= sqrt(x)
        num = x.numerator * x.denominator * scale * scale
        r = math.isqrt(num)
        if r * r < num:
            r += 1
        root_upper = Fraction(r, x.denominator * scale)
        upper = ((root_upper + w) / 2) ** 2
        lower = Fraction(0)
        term = Fraction(1)
        for j in range(terms + 1):
            lower += term
            term = term * w / (j + 1)
        if upper < lower:
            return {"certified": True, "upper_exp_eps0": upper, "lower_exp_v": lower, "terms": terms, "bits": bits}
        bits *= 2
        terms *= 2
    raise InvalidInputError(f"could not separate e^eps0 from e^v at v = {w} within {max_rounds} rounds")


def sample_two_rr(rng: np.random.Generator, bits: Any, p: Any) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised 2RR sampler (thesis Alg 2.2.1) on an array of bits: returns (gamma, y), gamma the
    Ber(p) flips (bool array) and y the float64 outputs (b - p)/(1 - 2p) or (1 - b - p)/(1 - 2p)."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    q = to_float_input(p, "p")
    if not 0 <= q < 0.5:
        raise ValidityConditionError(f"p = {q} is outside [0, 1/2), the range of thesis Thm 2.4.1 (2RR)")
    b = np.asarray(bits)
    if b.dtype == bool or not np.issubdtype(b.dtype, np.integer) or ((b != 0) & (b != 1)).any():
        raise InvalidInputError("bits must be an integer array of 0s and 1s")
    gamma = rng.random(b.shape) < q
    sent = np.where(gamma, 1 - b, b)
    return gamma, (sent - q) / (1 - 2 * q)
