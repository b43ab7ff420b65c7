"""Batched phased elimination with core sets: thesis Algs 6.3.1 (central eps-DP), 6.3.2 (local eps0-LDP),
6.4.1 (shuffled (eps, delta)-DP) and the non-private batched version ([LS20, Ch. 22]), simulated.

Neighbouring relation (thesis Sec. 6.2, Def. 6.2.1): reward sequences R, R' differing in one reward
r_t != r'_t, |r_t|, |r'_t| <= 1 (Assumption 6.2.1.2); one client per round.  Each reward enters exactly
one released statistic (the batch schedule is fixed before the batch, and every client plays once), so

* central (Alg 6.3.1 step 8): the released sums r_hat_ia = sum_k r_ia^(k) + Lap(b), b = Delta/eps, are
  eps-DP for Delta >= max |r - r'| = 2 (thesis App. E.1.1 (E.1) prints the bound 1 and Lap(1/eps):
  that is only 2 eps-DP, see :mod:`bcdp.bandits.privacy`; **Delta defaults to 2 here**);
* local (Alg 6.3.2 step 7): each client sends r + Lap(Delta/eps0), eps0-LDP (thesis App. E.3.1);
* shuffled (Alg 6.4.1 step 9): each client of batch i sends r + Lap(Delta/eps0^(i)) with
  eps0^(i) = max(eps, f^{-1}_{n_i, delta}(eps)), f of thesis eq. (6.10) (FMT21 Thm 3.1, inverted by
  :func:`bcdp.accounting.amplification.clones_closed_form_inverse`, variant "theorem-3.1", which keeps
  FMT's domain condition eps0 <= log(n/(16 log(2/delta))) that the thesis omits; through
  :func:`bcdp.bandits.shuffled.shuffled_local_budget`).  The max with eps is
  our choice: f^{-1} gives less than eps (or is empty) on the small first batches, and an eps-LDP
  randomizer is eps-DP after shuffling anyway (post-processing).  Batches hold disjoint clients, so
  the per-batch (eps, delta) guarantees compose in parallel (thesis App. E.4.1).

Everything the learner does afterwards (theta_hat, eliminations, actions) is post-processing.

Choices the thesis leaves open (all stated so that a reader can reproduce the runs):

* **Rewards.**  r_t = <theta*, a_t> + eta_t must lie in [-1, 1] for the privacy analysis; we draw
  r_t in {-1, +1} with P(r_t = 1) = (1 + <theta*, a_t>)/2 (||a||, ||theta*|| <= 1): eta_t is bounded,
  zero-mean and 1-sub-Gaussian (Hoeffding), as Assumption 6.2.1 asks; no clipping is needed.  Per
  action and batch the reward sum is sampled as 2 Binomial(n_ia, (1 + mu_a)/2) - n_ia (same law);
  the local / shuffled Laplace noise is drawn per pull (one vector per batch) and summed per action.
* **Actions.**  A is a finite set given as the rows of ``actions`` and is its own 1/T-net (Lemma 6.3.1
  is not needed): A_1 = A, |A_1| = K.
* **Core set.**  C_i, pi_i = the G-optimal design of A_i (:func:`bcdp.bandits.design.g_optimal_design_float`,
  Lemma 6.3.2), weights made exact (``Fraction``) and renormalised, pull counts by
  :func:`bcdp.bandits.schedule.pull_counts` (exact ceil(pi q^i)).
* **B** (Alg 6.3.1 step 5) defaults to (d + 1)/2, so that B d = d(d + 1)/2 is the Kiefer-Wolfowitz
  support bound [LS20, Thm 21.1].
* **gamma_i** (d is the ambient dimension, log natural, Delta multiplies the privacy term so that
  Delta = 1 gives the printed formulas):
  non-private sqrt(4d/q^i log(4|A_i|T^2));
  central (Alg 6.3.1 step 5, privacy term outside the root as in App. E.1.2)
  sqrt(4d/q^i log(4|A_i|T^2)) + Delta (2 B d^2 + 2 d log(4|A_i|T^2))/(eps q^i);
  local / shuffled (Alg 6.3.2 step 12, Alg 6.4.1 step 19; App. E.3 Lemma E.3.1 prints a different
  width, we follow the algorithm box) sqrt(log(4|A_i|T^2)) (sqrt(4d/q^i) + Delta 2 d sqrt(n_i)/(q^i eps0)).
* **Estimate.**  theta_hat_i = V^+ sum_a r_hat_ia a, V = sum_a n_ia a a^T (the pseudo-inverse when A_i
  spans a subspace; then <a, theta_hat> is the least-squares estimate for a in the span).
* **Elimination** keeps a in A_i with <a, theta_hat_i> >= max over **A_i** (the thesis prints A) of
  <alpha, theta_hat_i> - 2 gamma_i.
* **Batches and horizon**: L = floor(ln T) - 1 batches; a batch that does not fit is truncated and ends
  the run (:mod:`bcdp.bandits.schedule`).  After batch L the learner commits to argmax over A_{L+1} of
  <alpha, theta_hat_L>.  When a single action survives it is played to the end (what the algorithm
  would do; its noisy statistics are then irrelevant to the regret).
* **Regret** is (6.1): sum_t (max_a <theta*, a> - <theta*, a_t>) (the pseudo-regret of the actions played).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.numbers import to_fraction, to_float_input

from . import schedule

__all__ = ["MODELS", "BatchRecord", "RunResult", "batch_sums", "confidence_width_float", "laplace_scale", "laplace_scale_float",
           "local_releases", "run_elimination_float", "shuffled_local_epsilon_float"]

MODELS = ("nonprivate", "central", "local", "shuffled")


def laplace_scale(eps: Any, sensitivity: Any = 2) -> Fraction:
    """b = Delta/eps, the Laplace scale of the released statistics (central: per batch sum, Alg 6.3.1
    step 8; local: per reward, Alg 6.3.2 step 7), exactly; Delta defaults to 2 (|r - r'| <= 2 for
    |r| <= 1).  eps, Delta > 0 exact rationals; delegates to :func:`bcdp.bandits.privacy.laplace_scale`."""
    from bcdp.bandits import privacy

    return privacy.laplace_scale(eps, sensitivity=sensitivity)


def laplace_scale_float(eps: float, sensitivity: float = 2.0) -> float:
    """Float twin of :func:`laplace_scale` (b = Delta/eps), the scale the simulation draws with."""
    e, s = to_float_input(eps, "eps"), to_float_input(sensitivity, "sensitivity")
    if e <= 0 or s <= 0:
        raise InvalidInputError(f"eps and sensitivity must be > 0, got eps = {e}, sensitivity = {s}")
    return s / e


def _sequence(value: Any, name: str) -> Sequence:
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise WrongTypeError(f"{name} must be a sequence, got {type(value).__name__}")
    return value


def batch_sums(rewards: Sequence[Any], counts: Sequence[int]) -> tuple[Fraction, ...]:
    """r_bar_ia = sum_k r_ia^(k) (Alg 6.3.1 step 8) for a fixed schedule, exactly: ``rewards`` lists the
    batch's rewards action by action (the first counts[0] belong to the first action, ...), each in
    [-1, 1]; every reward enters exactly one sum."""
    rs = [to_fraction(r, "reward") for r in _sequence(rewards, "rewards")]
    counts = _sequence(counts, "counts")
    if any(abs(r) > 1 for r in rs):
        raise ValidityConditionError("rewards must lie in [-1, 1] (thesis Assumption 6.2.1.2)")
    if any(isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0 for n in counts):
        raise InvalidInputError(f"counts must be integers >= 0, got {list(counts)!r}")
    if sum(counts) != len(rs):
        raise InvalidInputError(f"counts sum to {sum(counts)} but {len(rs)} rewards were given")
    out, k = [], 0
    for n in counts:
        out.append(sum(rs[k:k + n], Fraction(0)))
        k += n
    return tuple(out)


def local_releases(rewards: Sequence[Any]) -> tuple[Fraction, ...]:
    """The means of the local releases r_hat = r + Lap(b) (Alg 6.3.2 step 7, Alg 6.4.1 step 9): one per
    client, the reward itself (exact, each in [-1, 1]); the server's per-action sums are post-processing."""
    rs = tuple(to_fraction(r, "reward") for r in _sequence(rewards, "rewards"))
    if any(abs(r) > 1 for r in rs):
        raise ValidityConditionError("rewards must lie in [-1, 1] (thesis Assumption 6.2.1.2)")
    return rs


def shuffled_local_epsilon_float(eps: float, n: int, delta: float) -> float:
    """eps0^(i) = max(eps, f^{-1}_{n,delta}(eps)) (Alg 6.4.1 step 8 with f of eq. (6.10); the max is our
    choice, see the module docstring).  The inverse is certified: f(eps0) <= eps whenever eps0 > eps."""
    from bcdp.bandits import shuffled

    e = to_float_input(eps, "eps")
    if e <= 0 or not 0 < delta < 1 or n < 1:
        raise InvalidInputError(f"need eps > 0, 0 < delta < 1, n >= 1; got eps = {eps}, delta = {delta}, n = {n}")
    try:
        inv = float(shuffled.shuffled_local_budget(e, int(n), float(delta)))
    except (InvalidInputError, ValidityConditionError):  # empty domain (cap < 0): no amplification
        inv = 0.0
    return max(e, inv)


def confidence_width_float(model: str, *, d: int, q_i: float, n_actions: int, T: int, eps: float | None,
                           n_i: int, B: float, sensitivity: float) -> float:
    """gamma_i of the module docstring (Alg 6.3.1 step 5, Alg 6.3.2 step 12, Alg 6.4.1 step 19); for the
    local and shuffled models ``eps`` is the local eps0 (eps0^(i))."""
    lg = math.log(4 * n_actions * T * T)
    if model == "nonprivate":
        return math.sqrt(4 * d / q_i * lg)
    if model == "central":
        return math.sqrt(4 * d / q_i * lg) + sensitivity * (2 * B * d * d + 2 * d * lg) / (eps * q_i)
    if model in ("local", "shuffled"):
        return math.sqrt(lg) * (math.sqrt(4 * d / q_i) + sensitivity * 2 * d * math.sqrt(n_i) / (q_i * eps))
    raise InvalidInputError(f"model must be one of {MODELS}, got {model!r}")


@dataclass(frozen=True)
class BatchRecord:
    """Batch i: core set ``support`` (indices into the actions), ``counts`` n_ia, ``length`` (rounds
    played, < n_i iff ``truncated``), ``gamma`` and ``local_eps`` (eps0 or eps0^(i); None otherwise),
    ``survivors`` A_{i+1} (empty tuple if truncated), ``regret`` of its rounds and ``noise_scale``, the
    Laplace scale b of each released statistic (central: per action sum; local, shuffled: per reward;
    None for the non-private model and for a truncated batch, which releases nothing)."""

    index: int
    support: tuple[int, ...]
    counts: tuple[int, ...]
    length: int
    truncated: bool
    gamma: float | None
    local_eps: float | None
    survivors: tuple[int, ...]
    regret: float
    noise_scale: float | None = None


@dataclass(frozen=True)
class RunResult:
    """One run: total ``regret`` (6.1), the batches, the committed action (None if the run ended in a
    truncated batch), and the rounds of the commitment."""

    model: str
    T: int
    regret: float
    batches: tuple[BatchRecord, ...]
    committed: int | None
    commit_rounds: int


def _check_run_args(actions, theta, T, model, eps, delta, sensitivity):
    if model not in MODELS:
        raise InvalidInputError(f"model must be one of {MODELS}, got {model!r}")
    if not isinstance(actions, np.ndarray) or actions.ndim != 2 or actions.shape[0] < 1:
        raise InvalidInputError("actions must be a numpy array of shape (K, d), K >= 1")
    x = actions.astype(np.float64)
    th = np.asarray(theta, dtype=np.float64)
    if th.shape != (x.shape[1],):
        raise InvalidInputError(f"theta must have shape ({x.shape[1]},), got {th.shape}")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(th))):
        raise InvalidInputError("actions and theta must be finite")
    if np.any(np.linalg.norm(x, axis=1) > 1 + 1e-12) or np.linalg.norm(th) > 1 + 1e-12:
        raise ValidityConditionError("need ||a||_2 <= 1 and ||theta*||_2 <= 1 (thesis Assumption 6.2.1.2)")
    T = schedule.check_horizon(T)
    if model != "nonprivate":
        if eps is None or to_float_input(eps, "eps") <= 0:
            raise InvalidInputError(f"model {model!r} needs eps > 0, got {eps!r}")
    if model == "shuffled" and (delta is None or not 0 < float(delta) < 1):
        raise InvalidInputError(f"model 'shuffled' needs 0 < delta < 1, got {delta!r}")
    s = to_float_input(sensitivity, "sensitivity")
    if s < 2:
        raise ValidityConditionError(f"sensitivity must be >= 2 (|r - r'| <= 2 for rewards in [-1, 1]), got {s}")
    return x, th, T, s


def _exact_weights(w: np.ndarray) -> list[Fraction]:
    fr = [Fraction(float(v)) for v in w]
    tot = sum(fr)
    return [f / tot for f in fr]


def run_elimination_float(actions: np.ndarray, theta: Any, T: int, model: str, *, eps: float | None = None,
                          delta: float | None = None, sensitivity: float = 2.0, B: float | None = None,
                          rng: np.random.Generator | int = 0, design_cache: dict | None = None,
                          core_set: bool = True) -> RunResult:
    """One seeded run of the batched elimination of the module docstring (``model`` in :data:`MODELS`):
    the rows of ``actions`` (K x d, ||a|| <= 1), ``theta`` = theta* (||theta*|| <= 1), horizon T >= 8,
    ``eps`` (central eps, local eps0, shuffled central eps), ``delta`` (shuffled only), sensitivity
    Delta >= 2.  ``design_cache`` (optional dict) memoises the core sets by surviving set.
    ``core_set=False`` is the "no-core-set" variant of Fig. 6.2(b): every surviving action is played,
    pi_i uniform on A_i (then a noisy sum per surviving action is released)."""
    from bcdp.bandits import design

    x, th, T, sens = _check_run_args(actions, theta, T, model, eps, delta, sensitivity)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    K, d = x.shape
    b_const = (d + 1) / 2 if B is None else to_float_input(B, "B")
    mu = x @ th
    gaps = float(mu.max()) - mu
    L = schedule.number_of_batches(T)
    q = schedule.q_float(T)
    alive = np.arange(K)
    left, regret, records = T, 0.0, []
    cache = {} if design_cache is None else design_cache
    e = None if eps is None else to_float_input(eps, "eps")
    theta_hat = None
    for i in range(1, L + 1):
        if alive.size == 1 or left == 0:
            break
        key = tuple(alive.tolist())
        if not core_set:
            support, weights = alive, [Fraction(1, alive.size)] * alive.size
        elif key not in cache:
            des = design.g_optimal_design_float(x[alive], tol=1e-9, max_iter=10000)
            cache[key] = (alive[np.asarray(des.support)], _exact_weights(np.asarray(des.weights)))
        if core_set:
            support, weights = cache[key]
        counts = np.asarray(schedule.pull_counts(weights, i, T), dtype=np.int64)
        n_i = int(counts.sum())
        if n_i > left:  # truncated: the first `left` pulls of the enumeration, rewards never used
            played = np.repeat(support, counts)[:left]
            reg = float(gaps[played].sum())
            regret += reg
            records.append(BatchRecord(i, tuple(support.tolist()), tuple(counts.tolist()), left, True, None,
                                       None, (), reg))
            left = 0
            break
        sums = 2.0 * gen.binomial(counts, (1.0 + mu[support]) / 2.0) - counts
        local_eps, scale = None, None
        if model == "central":
            scale = laplace_scale_float(e, sens)
            sums = sums + gen.laplace(0.0, scale, size=support.size)
        elif model in ("local", "shuffled"):
            local_eps = e if model == "local" else shuffled_local_epsilon_float(e, n_i, float(delta))
            scale = laplace_scale_float(local_eps, sens)
            noise = gen.laplace(0.0, scale, size=n_i)
            sums = sums + np.add.reduceat(noise, np.concatenate(([0], np.cumsum(counts)[:-1])))
        A = x[support]
        V = (A * counts[:, None]).T @ A
        theta_hat = np.linalg.pinv(V) @ (A.T @ sums)
        gamma = confidence_width_float(model, d=d, q_i=q ** i, n_actions=alive.size, T=T,
                                       eps=local_eps if local_eps is not None else e, n_i=n_i, B=b_const,
                                       sensitivity=sens)
        est = x[alive] @ theta_hat
        alive = alive[est >= est.max() - 2.0 * gamma]
        reg = float((counts * gaps[support]).sum())
        regret += reg
        left -= n_i
        records.append(BatchRecord(i, tuple(support.tolist()), tuple(counts.tolist()), n_i, False, gamma,
                                   local_eps, tuple(alive.tolist()), reg, scale))
    committed = None
    if left > 0:
        committed = int(alive[0]) if alive.size == 1 or theta_hat is None else \
            int(alive[int(np.argmax(x[alive] @ theta_hat))])
        regret += left * float(gaps[committed])
    elif records and not records[-1].truncated:
        committed = int(alive[0]) if alive.size == 1 else int(alive[int(np.argmax(x[alive] @ theta_hat))])
    return RunResult(model, T, regret, tuple(records), committed, left)
