"""The stochastic binary-expansion quantizer (thesis Sec. 3.5.1, Lemma 3.5.1, Cor 3.5.1), exact, with the x = 1 clamp.

For x in [0, 1] (thesis Sec. 3.5.1): x^(0) = 0, b_k = floor(2^k (x - x^(k-1))), x^(k) = sum_{l<=k}
b_l 2^{-l} (the text's upper limit "s" is a typo for k), and the m-bit estimate is
x~^(m) = sum_{k<m} b_k 2^{-k} + u 2^{-(m-1)} with u ~ Bern(pi), pi = 2^{m-1}(x - x^(m-1)).

Erratum E-Thesis-Lemma3.5.1-x1 (docs/errata.md): at x = 1 and m >= 2 the printed recursion gives
b_1 = floor(2) = 2, not a bit (the l_inf mechanism then feeds 2 into R^Bin, whose input is binary).
The library clamps, b_k = min(1, floor(...)) (:func:`binary_digits`); this changes only x = 1, where
all bits are 1 and pi = 1, so the estimate stays exact (= 1).  The printed recursion is kept as
:func:`printed_digits` to exhibit the erratum.  With the clamp, x^(m-1) = min(floor(2^{m-1} x),
2^{m-1} - 1)/2^{m-1}, pi in [0, 1], and E(x~ - x)^2 = 4^{-(m-1)} pi (1 - pi) <= 4^{-m} (Lemma 3.5.1,
eq. (3.22); equality iff pi = 1/2).  The vector version (Cor 3.5.1) quantizes each coordinate
independently: MSE = sum_j 4^{-(m-1)} pi_j (1 - pi_j) <= d/4^m.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import to_float_input, to_fraction

__all__ = [
    "MAX_LEVELS", "binary_digits", "printed_digits", "quantize_law", "quantize_mean", "quantize_mse",
    "quantize_mse_formula", "quantize_vector_mse", "sample_quantize",
]

#: Largest number of levels m accepted (the exact digits are Fractions with denominators 2^m).
MAX_LEVELS = 64


def _check_levels(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)):
        raise WrongTypeError(f"m must be an int, got {type(m).__name__} {m!r}")
    if not 1 <= m <= MAX_LEVELS:
        raise InvalidInputError(f"m must be in [1, {MAX_LEVELS}] (levels of thesis Sec. 3.5.1), got {m}")
    return int(m)


def _check_unit(x: Any, name: str = "x") -> Fraction:
    q = to_fraction(x, name)
    if not 0 <= q <= 1:
        raise ValidityConditionError(f"{name} = {q} is outside [0, 1], the domain of thesis Lemma 3.5.1")
    return q


def _floor(q: Fraction) -> int:
    return q.numerator // q.denominator


def binary_digits(x: Any, m: Any) -> tuple[tuple[int, ...], Fraction]:
    """(b_1, ..., b_{m-1}, pi) of the quantizer (thesis Sec. 3.5.1) with the clamp b_k = min(1, floor(2^k
    (x - x^(k-1)))) (erratum E-Thesis-Lemma3.5.1-x1); pi = 2^{m-1}(x - x^(m-1)) in [0, 1]."""
    q, mm = _check_unit(x), _check_levels(m)
    bits: list[int] = []
    partial = Fraction(0)
    for k in range(1, mm):
        b = min(1, _floor(2 ** k * (q - partial)))
        bits.append(b)
        partial += Fraction(b, 2 ** k)
    return tuple(bits), 2 ** (mm - 1) * (q - partial)


def printed_digits(x: Any, m: Any) -> tuple[tuple[int, ...], Fraction]:
    """The printed recursion b_k = floor(2^k (x - x^(k-1))) without the clamp (thesis Sec. 3.5.1), kept
    to exhibit erratum E-Thesis-Lemma3.5.1-x1: at x = 1, m >= 2 it returns b_1 = 2."""
    q, mm = _check_unit(x), _check_levels(m)
    bits: list[int] = []
    partial = Fraction(0)
    for k in range(1, mm):
        b = _floor(2 ** k * (q - partial))
        bits.append(b)
        partial += Fraction(b, 2 ** k)
    return tuple(bits), 2 ** (mm - 1) * (q - partial)


def quantize_law(x: Any, m: Any) -> dict[Fraction, Fraction]:
    """Exact law {x~: P} of the m-bit estimate x~^(m) = sum_{k<m} b_k 2^{-k} + u 2^{-(m-1)}, u ~ Bern(pi)
    (thesis Sec. 3.5.1, with the clamp).  Both values are keys (one may have probability 0)."""
    mm = _check_levels(m)
    bits, pi = binary_digits(x, mm)
    base = sum((Fraction(b, 2 ** k) for k, b in enumerate(bits, start=1)), Fraction(0))
    step = Fraction(1, 2 ** (mm - 1))
    return {base: 1 - pi, base + step: pi}


def quantize_mean(x: Any, m: Any) -> Fraction:
    """E[x~^(m)] from the exact law (thesis Lemma 3.5.1, eq. (3.23): equals x)."""
    return sum((y * w for y, w in quantize_law(x, m).items()), Fraction(0))


def quantize_mse(x: Any, m: Any) -> Fraction:
    """E[(x~^(m) - x)^2] from the exact law (thesis Lemma 3.5.1, eq. (3.24), left side)."""
    q = _check_unit(x)
    return sum(((y - q) ** 2 * w for y, w in quantize_law(q, m).items()), Fraction(0))


def quantize_mse_formula(x: Any, m: Any) -> Fraction:
    """4^{-(m-1)} pi (1 - pi), pi = 2^{m-1}(x - x^(m-1)) (thesis (3.24) before step (a)) <= 4^{-m}."""
    mm = _check_levels(m)
    _, pi = binary_digits(x, mm)
    return pi * (1 - pi) / Fraction(4) ** (mm - 1)


def quantize_vector_mse(z: Sequence[Any], m: Any, max_dim: int = 12) -> Fraction:
    """E||z~^(m) - z||^2 of the coordinate-wise quantizer (thesis Cor 3.5.1) by enumerating the 2^d
    joint outcomes of the independent u_j (d <= ``max_dim``); Cor 3.5.1 bounds it by d/4^m."""
    if isinstance(z, (str, bytes)):
        raise WrongTypeError("z must be a sequence of numbers in [0, 1]")
    coords = [_check_unit(x, "z[j]") for x in z]
    if not 1 <= len(coords) <= max_dim:
        raise InvalidInputError(f"z must have 1 to {max_dim} coordinates, got {len(coords)}")
    laws = [sorted(quantize_law(x, m).items()) for x in coords]
    total = Fraction(0)
    for outcome in itertools.product(*laws):
        w = Fraction(1)
        err = Fraction(0)
        for (y, p), x in zip(outcome, coords):
            w *= p
            err += (y - x) ** 2
        total += w * err
    return total


def sample_quantize(rng: np.random.Generator, x: Any, m: Any) -> np.ndarray:
    """Vectorised m-bit quantizer (thesis Sec. 3.5.1, with the clamp) on an array of x in [0, 1]:
    returns (K + u)/2^{m-1} with K = min(floor(2^{m-1} x), 2^{m-1} - 1) and u ~ Bern(2^{m-1} x - K)."""
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    mm = _check_levels(m)
    if mm > 53:
        raise InvalidInputError(f"m = {mm} levels exceed float64 precision (at most 53 in the sampler)")
    arr = np.asarray(x, dtype=float) if not np.isscalar(x) else np.asarray(to_float_input(x, "x"))
    if np.isnan(arr).any() or (arr < 0).any() or (arr > 1).any():
        raise ValidityConditionError("x must lie in [0, 1], the domain of thesis Lemma 3.5.1")
    scale = float(2 ** (mm - 1))
    scaled = arr * scale
    K = np.minimum(np.floor(scaled), scale - 1)
    u = rng.random(arr.shape) < (scaled - K)
    return (K + u) / scale
