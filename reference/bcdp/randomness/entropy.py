"""Shannon entropy with an explicit unit, certified and as float twins (thesis Ch. 7).

The thesis mixes units (Sec. 7.2-7.3 write the randomness budget R and the threshold
``H2(e^eps/(e^eps+1))`` in bits; eqs. (7.47), (7.51), (7.52) and Table 7.1 write key entropies in
nats).  Every function here therefore takes ``unit="bits"`` or ``unit="nats"``; there is no default
guess hidden in a formula.

- :func:`entropy` / :func:`entropy_float`: ``H(p) = -sum_i p_i log p_i`` (``0 log 0 = 0``) of a pmf.
- :func:`binary_entropy` / :func:`binary_entropy_float`: ``H2(p) = H(p, 1 - p)``.
- :func:`inverse_binary_entropy` / :func:`inverse_binary_entropy_float`: ``p_R = H2^{-1}(R)`` on
  ``[0, 1/2]`` (Thm 7.3.1, Sec. 7.3), the largest probability of the less likely symbol of a binary
  key with entropy ``R``; ``p_R = 1/2`` for ``R >= 1`` bit (``log 2`` nats).
- :func:`critical_randomness`: ``H2(e^eps/(e^eps + 1))``, the randomness of binary randomized
  response (Remark 7.3.2), for exact ``eps``.
- :func:`entropy_at_most`: the certified decision ``H(p) <= R`` (``None`` when undecided, e.g. at a
  tie), the per-row constraint of (eps, R)-LDP, eq. (7.2).

Certified values are :class:`~bcdp.core.results.Certified` enclosures computed with arb balls
(:mod:`bcdp.core.intervals`); exact inputs only (floats refused).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import (
    MAX_PREC_BITS,
    MIN_PREC_BITS,
    brief_number,
    check_precision,
    to_fraction,
    to_probability,
)
from bcdp.core.results import Certified, decide_le

UNITS = ("bits", "nats")
#: Largest pmf length the exact functions accept (the float twins take any numpy array).
MAX_SUPPORT = 1_000_000
#: Iterations of the float bisection for ``H2^{-1}`` (interval width 2^-1 / 2^64: below float resolution).
_FLOAT_BISECTIONS = 64


#: Most bisection steps of :func:`inverse_binary_entropy` (its enclosure is at most 2^-1025 wide).
MAX_BISECTIONS = 1024


def _prec(prec: int) -> int:
    return check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)


def check_unit(unit: str) -> str:
    """``unit`` if it is 'bits' or 'nats'; InvalidInputError otherwise."""
    if unit not in UNITS:
        raise InvalidInputError(f"unit must be 'bits' or 'nats', got {unit!r}")
    return unit


def exact_pmf(pmf: Sequence[Any], name: str = "pmf") -> tuple[Fraction, ...]:
    """``pmf`` as exact Fractions, checked: non-empty, at most :data:`MAX_SUPPORT` entries, entries
    in [0, 1] summing to exactly 1 (floats refused)."""
    try:
        size = len(pmf)
    except TypeError as exc:
        raise InvalidInputError(f"{name} must be a sequence of probabilities") from exc
    if size == 0 or size > MAX_SUPPORT:
        raise InvalidInputError(f"{name} must have 1..{MAX_SUPPORT} entries, got {size}")
    probs = tuple(to_probability(p, f"{name}[{i}]") for i, p in enumerate(pmf))
    total = sum(probs)
    if total != 1:
        raise InvalidInputError(f"{name} sums to {brief_number(total)}, not 1")
    return probs


def entropy_ball(pmf: Sequence[Fraction], unit: str = "bits") -> Any:
    """The arb ball of ``H(pmf)`` at the current arb precision (inside :func:`arb_precision`);
    ``pmf`` must already be exact (see :func:`exact_pmf`)."""
    check_unit(unit)
    total = ball_of(0)
    for p in pmf:
        if p:
            b = ball_of(p)
            total -= b * b.log()
    if unit == "bits":
        total /= ball_of(2).log()
    return total


def _certified(ball: Any, provenance: str, **details: Any) -> Certified:
    lo, hi = ball_ends(ball)
    lo = max(lo, Fraction(0))  # an entropy is >= 0: the clamp keeps the enclosure sound and tighter
    return Certified(lower=lo, upper=hi, provenance=provenance, details=details)


def entropy(pmf: Sequence[Any], unit: str = "bits", prec: int = 128) -> Certified:
    """Certified ``H(pmf) = -sum_i p_i log p_i`` in ``unit`` (bits: log base 2; nats: natural log)."""
    prec = _prec(prec)
    probs = exact_pmf(pmf)
    with arb_precision(prec):
        ball = entropy_ball(probs, unit)
    return _certified(ball, f"Shannon entropy in {unit}", unit=unit)


def binary_entropy(p: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """Certified ``H2(p) = -p log p - (1 - p) log(1 - p)`` in ``unit``."""
    prec = _prec(prec)
    q = to_probability(p, "p")
    with arb_precision(prec):
        ball = entropy_ball((q, 1 - q), unit)
    return _certified(ball, f"binary entropy H2 in {unit}", unit=unit)


def critical_randomness(eps: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """Certified ``H2(e^eps / (e^eps + 1))`` for exact ``eps >= 0``: the randomness of binary
    randomized response, the threshold of Thm 7.3.1 / Remark 7.3.2 (thesis Sec. 7.3)."""
    prec = _prec(prec)
    e = to_fraction(eps, "eps")
    if e < 0:
        raise InvalidInputError(f"eps must be >= 0, got {brief_number(e)}")
    if e > 10_000:
        raise InvalidInputError("eps must be at most 10000 here")
    check_unit(unit)
    with arb_precision(prec):
        big = ball_of(e).exp()
        p = 1 / (big + 1)  # the smaller probability; H2 is symmetric
        # H2 = p log(e^eps + 1) + (1 - p) log(1 + e^-eps): positive terms, no cancellation for large eps
        ball = p * (big + 1).log() + (1 - p) * (1 / big).log1p()
        if unit == "bits":
            ball /= ball_of(2).log()
    return _certified(ball, "H2(e^eps/(e^eps+1)), thesis Thm 7.3.1 / Remark 7.3.2", unit=unit, eps=e)


def inverse_binary_entropy(r: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """Certified ``p_R = H2^{-1}(R)`` in ``[0, 1/2]`` for exact ``R >= 0`` (thesis Thm 7.3.1: the
    less likely symbol's probability of a binary key of entropy R).

    Bisection on dyadic points with certified comparisons ``H2(mid) <=> R``: the returned ``lower``
    and ``upper`` are exact dyadics with ``H2(lower) < R < H2(upper)`` proved (or equality at an end
    when ``R`` is 0 or at least the maximum entropy), so ``lower <= p_R <= upper``.
    """
    prec = _prec(prec)
    rr = to_fraction(r, "R")
    check_unit(unit)
    if rr < 0:
        raise InvalidInputError(f"R must be >= 0, got {brief_number(rr)}")
    if rr == 0:
        return Certified(lower=Fraction(0), upper=Fraction(0), exact=Fraction(0),
                         provenance="H2^{-1}(0) = 0", details={"unit": unit})
    with arb_precision(prec):
        top = ball_of(1) if unit == "bits" else ball_of(2).log()
        verdict = decide_le(top, ball_of(rr))
        if verdict:
            return Certified(lower=Fraction(1, 2), upper=Fraction(1, 2), exact=Fraction(1, 2),
                             provenance="H2^{-1}(R) = 1/2 for R >= max entropy", details={"unit": unit})
        lo, hi = Fraction(0), Fraction(1, 2)
        target = ball_of(rr)
        for _ in range(min(prec, MAX_BISECTIONS)):
            mid = (lo + hi) / 2
            verdict = decide_le(entropy_ball((mid, 1 - mid), unit), target)
            if verdict is None:
                break
            if verdict:
                lo = mid
            else:
                hi = mid
    return Certified(lower=lo, upper=hi, provenance="p_R = H2^{-1}(R), thesis Thm 7.3.1",
                     details={"unit": unit, "R": rr})


def entropy_at_most(pmf: Sequence[Any], r: Any, unit: str = "bits", prec: int = 128) -> bool | None:
    """Certified decision of ``H(pmf) <= R`` (one row of eq. (7.2)); ``None`` when the enclosures
    do not decide (a tie is never guessed)."""
    prec = _prec(prec)
    probs = exact_pmf(pmf)
    rr = to_fraction(r, "R")
    with arb_precision(prec):
        return decide_le(entropy_ball(probs, unit), ball_of(rr))


# -- float twins ------------------------------------------------------------------------------------

def _log_unit(unit: str) -> float:
    return float(np.log(2.0)) if check_unit(unit) == "bits" else 1.0


def entropy_float(pmf: Any, unit: str = "bits") -> Any:
    """Float twin of :func:`entropy`, vectorised over the last axis (``0 log 0 = 0``); no checks
    beyond finiteness and the range [0, 1] of the entries."""
    from scipy.special import xlogy  # xlogy(0, 0) = 0

    arr = np.asarray(pmf, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise InvalidInputError("pmf entries must be finite probabilities in [0, 1]")
    terms = -xlogy(arr, arr)
    return terms.sum(axis=-1) / _log_unit(unit)


def binary_entropy_float(p: Any, unit: str = "bits") -> Any:
    """Float twin of :func:`binary_entropy`, vectorised."""
    arr = np.asarray(p, dtype=float)
    return entropy_float(np.stack([arr, 1.0 - arr], axis=-1), unit)


def inverse_binary_entropy_float(r: Any, unit: str = "bits") -> Any:
    """Float twin of :func:`inverse_binary_entropy`, vectorised (bisection on all entries at once)."""
    arr = np.asarray(r, dtype=float)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise InvalidInputError("R must be finite and >= 0")
    lo = np.zeros_like(arr)
    hi = np.full_like(arr, 0.5)
    for _ in range(_FLOAT_BISECTIONS):
        mid = (lo + hi) / 2
        below = binary_entropy_float(mid, unit) <= arr
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    # for R at or above the maximum entropy every step moves lo up, and the midpoint rounds to 0.5
    return np.where(arr == 0, 0.0, (lo + hi) / 2)
