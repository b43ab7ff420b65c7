"""The batch schedule of thesis Algs 6.3.1, 6.3.2, 6.4.1 (Sec. 6.3-6.5), exactly: q, the number of
batches, the pull counts n_ia = ceil(pi_i(a) q^i) and the horizon bookkeeping.

Printed (thesis Alg 6.3.1 steps 3-7, Alg 6.3.2 steps 3, 9, 11, Alg 6.4.1 steps 3, 15): q = (2T)^{1/log T}
with log the natural logarithm (footnote to Sec. 6.3: e <= q <= e^2), batches i = 1, ..., log(T) - 1,
and batch i pulls each core-set action a exactly n_ia = ceil(pi_i(a) q^i) times, n_i = sum_a n_ia.

Choices the thesis leaves open, made here and used by :mod:`bcdp.bandits.elimination`:

* **Number of batches.**  log T is not an integer; we run L(T) = floor(ln T) - 1 batches
  (:func:`number_of_batches`), and require T >= 8 so that L >= 1 (ln 8 > 2).
* **Horizon.**  sum_i n_i can exceed T (sum_{i <= L} q^i is about 2T/(q - 1), up to ~1.16 T, plus the
  ceilings), so a batch that does not fit in the remaining rounds is *truncated*: it makes only the
  remaining pulls (in the enumeration order of the multiset of its pulls), its rewards are never used
  and the run ends; otherwise, after batch L the learner commits to its best action for the
  T - sum_i n_i remaining rounds (:func:`horizon_plan`).

q^i = exp(i ln(2T)/ln T) is irrational for T >= 2, so ceil(pi q^i) is decided with certified arb balls
(:mod:`bcdp.core.intervals`), the precision doubled until the ball contains no integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, UndecidedComparison, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import to_fraction

__all__ = ["MIN_HORIZON", "HorizonPlan", "check_horizon", "horizon_plan", "number_of_batches", "pull_counts",
           "q_float"]

#: the smallest horizon with at least one batch (floor(ln 8) - 1 = 1)
MIN_HORIZON = 8

_PRECISIONS = (64, 128, 256, 512, 1024, 4096)


def check_horizon(T: Any) -> int:
    """T as a plain int >= :data:`MIN_HORIZON` (bools and floats refused)."""
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)):
        raise WrongTypeError(f"T must be an integer, got {type(T).__name__} {T!r}")
    if int(T) < MIN_HORIZON:
        raise ValidityConditionError(f"T must be >= {MIN_HORIZON} (floor(ln T) - 1 >= 1 batch), got {int(T)}")
    return int(T)


def _floor_ln(T: int) -> int:
    """floor(ln T) for an integer T >= 1, certified (e^k != T for k >= 1: e is transcendental)."""
    for bits in _PRECISIONS:
        with arb_precision(bits) as arb:
            lo, hi = ball_ends(arb(T).log())
            k = lo.numerator // lo.denominator
            if hi < k + 1:  # ln T in [lo, hi] within [k, k + 1)
                return int(k)
    raise UndecidedComparison(f"floor(ln {T}) undecided at {_PRECISIONS[-1]} bits")


def number_of_batches(T: Any) -> int:
    """L(T) = floor(ln T) - 1, the batches i = 1, ..., L of thesis Alg 6.3.1 step 4 ("for i = 1 : log(T) - 1",
    natural log, rounded down); T >= 8 (ValidityConditionError below)."""
    return _floor_ln(check_horizon(T)) - 1


def q_float(T: Any) -> float:
    """q = (2T)^{1/ln T} (thesis Alg 6.3.1 step 3) in float64, for the confidence widths gamma_i
    (:func:`bcdp.bandits.nets.batch_growth_float` after the horizon check T >= 8)."""
    from bcdp.bandits import nets

    return nets.batch_growth_float(check_horizon(T))


def _ceil_pi_q_power(pi: Fraction, i: int, T: int) -> int:
    if pi == 0:
        return 0
    for bits in _PRECISIONS:
        with arb_precision(bits) as arb:
            x = ball_of(pi) * (arb(i) * arb(2 * T).log() / arb(T).log()).exp()
            lo, hi = ball_ends(x)
            fl = lo.numerator // lo.denominator
            if fl < lo and hi < fl + 1:  # no integer in [lo, hi]
                return fl + 1
    raise UndecidedComparison(f"ceil({pi} q^{i}) undecided at {_PRECISIONS[-1]} bits (T = {T})")


def pull_counts(weights: Sequence[Any], i: Any, T: Any) -> tuple[int, ...]:
    """n_ia = ceil(pi_i(a) q^i), q = (2T)^{1/ln T}: thesis Alg 6.3.1 step 7 (= Alg 6.3.2 step 9, Alg 6.4.1
    step 15), exactly, for the design weights ``weights`` = (pi_i(a))_a (exact rationals >= 0 summing to
    1; a float design must be converted by the caller, e.g. with ``Fraction(w)``), batch index
    1 <= i <= L(T)."""
    T = check_horizon(T)
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
        raise WrongTypeError(f"i must be an integer, got {type(i).__name__} {i!r}")
    L = number_of_batches(T)
    if not 1 <= int(i) <= L:
        raise InvalidInputError(f"batch index i must be in [1, {L}] for T = {T}, got {int(i)}")
    pis = [to_fraction(w, "weight") for w in weights]
    if not pis or any(p < 0 for p in pis) or sum(pis) != 1:
        raise InvalidInputError(f"weights must be >= 0 and sum to 1, got sum {sum(pis)} over {len(pis)} actions")
    return tuple(_ceil_pi_q_power(p, int(i), T) for p in pis)


@dataclass(frozen=True)
class HorizonPlan:
    """How the T rounds are spent: ``batch_lengths[k]`` rounds in batch k + 1 (the last one possibly
    truncated), ``truncated`` whether it was, and ``commit_rounds`` rounds of the final commitment."""

    T: int
    batch_lengths: tuple[int, ...]
    truncated: bool
    commit_rounds: int


def horizon_plan(T: Any, planned: Sequence[int]) -> HorizonPlan:
    """Spend the horizon T on the planned batch sizes n_1, n_2, ... in order (module docstring,
    "Horizon"): full batches while they fit, then a truncated one if any rounds remain and batches are
    left, then the commitment rounds; the lengths always sum to T exactly."""
    T = check_horizon(T)
    if isinstance(planned, (str, bytes)) or not isinstance(planned, (Sequence, np.ndarray)):
        raise WrongTypeError(f"planned must be a sequence of batch sizes, got {type(planned).__name__}")
    lengths, left, truncated = [], T, False
    for n in planned:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
            raise InvalidInputError(f"planned batch sizes must be integers >= 0, got {n!r}")
        if left == 0:
            break
        if n > left:
            lengths.append(left)
            left, truncated = 0, True
            break
        lengths.append(int(n))
        left -= int(n)
    return HorizonPlan(T, tuple(lengths), truncated, left)
