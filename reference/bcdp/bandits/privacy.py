"""Privacy pieces of the thesis Ch. 6 bandit algorithms: Laplace noise on batch reward sums (Alg 6.3.1
step 8), the local randomizer r + Lap(.) (Alg 6.3.2, Alg 6.4.1 step 9), their exact privacy, and parallel
composition across batches.

Neighbouring relation (thesis Sec. 6.2): two reward sequences R = (r_1, ..., r_T), R' that differ in one
reward r_k != r'_k; Assumption 6.2.1(2) bounds every reward by |r_t| <= 1 (``reward_bound`` B below).

**Erratum (App. E.1.1, eq. (E.1); App. E.3.1).**  The thesis bounds |r_k - r'_k| <= 1 from |r_k| <= 1 and
adds Lap(1/eps) (Lap(1/eps0) locally).  The exact sensitivity is sup |r - r'| = 2B = 2 (r = 1, r' = -1), and
the Laplace mechanism with scale b on values that differ by D has privacy loss exactly
sup_y log(p(y - s)/p(y - s')) = |s - s'|/b = D/b; so the printed Lap(1/eps) is exactly 2 eps-DP (and the
printed local randomizer 2 eps0-LDP).  Here the noise scale is Delta/eps with ``sensitivity`` Delta
defaulting to :data:`CORRECTED_SENSITIVITY` = 2 (= 2B for B = 1); the printed choice is
``sensitivity=PRINTED_SENSITIVITY`` (= 1), and the exact-privacy functions return what it really gives.

Exact functions take exact numbers (int, Fraction, sympy Rational, numeric strings; floats refused);
the samplers (``*_float``) are float64 and vectorised.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_fraction, to_float_input

#: The sensitivity printed in thesis App. E.1.1 (E.1) and E.3.1 (Lap(1/eps)): |r - r'| <= 1 (wrong for |r| <= 1).
PRINTED_SENSITIVITY = Fraction(1)
#: The exact sensitivity sup |r - r'| = 2 for rewards |r| <= 1 (Assumption 6.2.1(2)); the default here.
CORRECTED_SENSITIVITY = Fraction(2)


def _positive(value: Any, name: str) -> Fraction:
    f = to_fraction(value, name)
    if f <= 0:
        raise InvalidInputError(f"{name} must be > 0, got {f}")
    return f


def reward_sensitivity(reward_bound: Any = 1) -> Fraction:
    """sup |r - r'| over rewards |r|, |r'| <= B (thesis Assumption 6.2.1(2)): exactly 2B (r = B, r' = -B).

    A neighbouring pair of reward sequences differs in one reward, and each reward enters exactly one
    batch sum (App. E.1.1), so this is also the L1 sensitivity of the concatenated batch sums."""
    b = _positive(reward_bound, "reward_bound")
    return b - (-b)


def laplace_pair_epsilon(s: Any, s_prime: Any, scale: Any) -> Fraction:
    """Exact sup_y log(p_b(y - s)/p_b(y - s')) for Laplace densities p_b(x) = e^{-|x|/b}/(2b), b = ``scale``.

    For vectors (sequences) s, s' with independent Laplace noise per coordinate the log ratio is
    sum_j (|y_j - s'_j| - |y_j - s_j|)/b; each term is piecewise linear in y_j with breakpoints s_j, s'_j
    and constant outside them, so its sup is attained at a breakpoint and equals |s_j - s'_j|/b: the
    supremum is ||s - s'||_1 / b ([DMN06, Thm 3.6], the step used in thesis App. E.1.1)."""
    b = _positive(scale, "scale")
    sv = list(s) if isinstance(s, (list, tuple)) else [s]
    tv = list(s_prime) if isinstance(s_prime, (list, tuple)) else [s_prime]
    if len(sv) != len(tv) or not sv:
        raise InvalidInputError(f"s and s_prime must have the same non-zero length, got {len(sv)} and {len(tv)}")
    total = Fraction(0)
    for j, (x, y) in enumerate(zip(sv, tv)):
        x, y = to_fraction(x, f"s[{j}]"), to_fraction(y, f"s_prime[{j}]")
        # sup over the output u of (|u - y| - |u - x|): the breakpoints u = x and u = y
        total += max(abs(u - y) - abs(u - x) for u in (x, y))
    return total / b


def laplace_scale(eps: Any, *, sensitivity: Any = CORRECTED_SENSITIVITY) -> Fraction:
    """The Laplace scale Delta/eps of the batch-sum noise (Alg 6.3.1 step 8) or of the local randomizer
    (Alg 6.3.2; Alg 6.4.1 step 9 with eps = eps0^(i)); Delta = 2 by default (the erratum), 1 as printed."""
    return _positive(sensitivity, "sensitivity") / _positive(eps, "eps")


def batch_sums_epsilon(eps: Any, *, sensitivity: Any = CORRECTED_SENSITIVITY, reward_bound: Any = 1) -> Fraction:
    """Exact epsilon of releasing every batch reward sum of Alg 6.3.1 (all batches) with Lap(Delta/eps).

    The worst neighbouring pair changes one reward from B to -B, so one coordinate of the concatenated
    vector of sums moves by 2B (App. E.1.1): epsilon = laplace_pair_epsilon(B, -B, Delta/eps) = 2B eps/Delta.
    With the printed Delta = 1 and B = 1 this is 2 eps (the erratum); with Delta = 2B it is eps."""
    b = _positive(reward_bound, "reward_bound")
    return laplace_pair_epsilon(b, -b, laplace_scale(eps, sensitivity=sensitivity))


def local_randomizer_epsilon(eps0: Any, *, sensitivity: Any = CORRECTED_SENSITIVITY, reward_bound: Any = 1) -> Fraction:
    """Exact LDP epsilon of r -> r + Lap(Delta/eps0) on rewards |r| <= B (Alg 6.3.2, App. E.3.1; Alg 6.4.1
    step 9): sup over r, r' and outputs of the log density ratio, = 2B eps0/Delta (2 eps0 as printed)."""
    b = _positive(reward_bound, "reward_bound")
    return laplace_pair_epsilon(b, -b, laplace_scale(eps0, sensitivity=sensitivity))


def parallel_composition(guarantees: Sequence[Any]) -> tuple[Fraction, Fraction]:
    """(max eps_i, max delta_i) for mechanisms on disjoint users (each user's reward in exactly one batch:
    App. E.1.1, E.4.1).  ``guarantees``: a non-empty sequence of eps or (eps, delta) pairs (exact)."""
    if isinstance(guarantees, (str, bytes)) or not isinstance(guarantees, Sequence) or not guarantees:
        raise InvalidInputError("guarantees must be a non-empty sequence of eps or (eps, delta)")
    eps_max, delta_max = Fraction(-1), Fraction(0)
    for i, g in enumerate(guarantees):
        e, d = (g if isinstance(g, tuple) else (g, 0))
        e, d = to_fraction(e, f"eps[{i}]"), to_fraction(d, f"delta[{i}]")
        if e < 0 or not 0 <= d <= 1:
            raise InvalidInputError(f"guarantee {i} must have eps >= 0 and delta in [0, 1], got ({e}, {d})")
        eps_max, delta_max = max(eps_max, e), max(delta_max, d)
    return eps_max, delta_max


# -------------------------------------------------------------------------------------------- samplers
def _rewards_float(rewards: Any, reward_bound: float) -> np.ndarray:
    if not isinstance(rewards, np.ndarray) or rewards.ndim != 1:
        raise WrongTypeError("rewards must be a one-dimensional numpy array")
    r = rewards.astype(np.float64)
    if not np.all(np.isfinite(r)) or np.any(np.abs(r) > reward_bound):
        raise InvalidInputError(f"rewards must be finite with |r| <= reward_bound = {reward_bound}")
    return r


def _check_rng(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}")
    return rng


def noisy_batch_sums_float(rewards: np.ndarray, action_index: np.ndarray, n_actions: int, eps: float,
                           rng: np.random.Generator, *, sensitivity: float = 2.0,
                           reward_bound: float = 1.0) -> np.ndarray:
    """One batch of Alg 6.3.1 steps 7-8: r_hat_a = sum of the rewards of action a + Lap(Delta/eps).

    ``action_index[k]`` is the core-set action (in [0, n_actions)) that produced ``rewards[k]``.  Exactly
    (2 reward_bound eps / Delta)-DP (:func:`batch_sums_epsilon`); Delta = 2 by default (erratum
    App. E.1.1), 1 as printed.  Float64 sampler."""
    r = _rewards_float(rewards, to_float_input(reward_bound, "reward_bound"))
    idx = np.asarray(action_index)
    if idx.shape != r.shape or not np.issubdtype(idx.dtype, np.integer):
        raise InvalidInputError("action_index must be an integer array of the same length as rewards")
    if isinstance(n_actions, bool) or not isinstance(n_actions, (int, np.integer)) or n_actions < 1:
        raise InvalidInputError(f"n_actions must be an integer >= 1, got {n_actions!r}")
    if idx.size and (idx.min() < 0 or idx.max() >= n_actions):
        raise InvalidInputError(f"action_index entries must lie in [0, {n_actions})")
    e, delta = to_float_input(eps, "eps"), to_float_input(sensitivity, "sensitivity")
    if e <= 0 or delta <= 0:
        raise InvalidInputError(f"eps and sensitivity must be > 0, got {e}, {delta}")
    sums = np.bincount(idx, weights=r, minlength=int(n_actions))
    return sums + _check_rng(rng).laplace(0.0, delta / e, size=int(n_actions))


def local_randomizer_float(rewards: np.ndarray, eps0: float, rng: np.random.Generator, *,
                           sensitivity: float = 2.0, reward_bound: float = 1.0) -> np.ndarray:
    """r + Lap(Delta/eps0) for every reward (Alg 6.3.2; Alg 6.4.1 step 9): exactly
    (2 reward_bound eps0 / Delta)-LDP (:func:`local_randomizer_epsilon`).  Float64 sampler."""
    r = _rewards_float(rewards, to_float_input(reward_bound, "reward_bound"))
    e, delta = to_float_input(eps0, "eps0"), to_float_input(sensitivity, "sensitivity")
    if e <= 0 or delta <= 0:
        raise InvalidInputError(f"eps0 and sensitivity must be > 0, got {e}, {delta}")
    return r + _check_rng(rng).laplace(0.0, delta / e, size=r.shape)
