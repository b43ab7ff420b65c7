"""bcdp.bandits.elimination: inputs and validity conditions, the exact release pieces against oracles
written here, the bookkeeping of a run recomputed from its records, and (seeded, with a stated
failure rate) the good event of thesis App. E.1.2: the optimal action is never eliminated."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from bcdp.bandits import elimination as el
from bcdp.bandits import schedule, simulate
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError


def instance(seed: int, K: int = 10, d: int = 2):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((K, d))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    th = rng.standard_normal(d)
    return a, th / np.linalg.norm(th)


def test_laplace_scale_exact_and_float_twin():
    assert el.laplace_scale(Fraction(1, 3)) == 6
    assert el.laplace_scale(2, sensitivity=1) == Fraction(1, 2)
    assert el.laplace_scale_float(0.5) == 4.0
    with pytest.raises(FloatRefusedError):
        el.laplace_scale(0.5)
    with pytest.raises(InvalidInputError):
        el.laplace_scale(0)
    with pytest.raises(InvalidInputError):
        el.laplace_scale_float(-1.0)


def test_batch_sums_and_reward_range_boundary():
    r = [Fraction(1), Fraction(-1), Fraction(1, 2), Fraction(0)]
    assert el.batch_sums(r, (1, 3)) == (Fraction(1), Fraction(-1, 2))
    assert el.batch_sums(r, (0, 4)) == (Fraction(0), Fraction(1, 2))
    with pytest.raises(ValidityConditionError):
        el.batch_sums([Fraction(101, 100)], (1,))
    with pytest.raises(ValidityConditionError):
        el.local_releases([Fraction(-101, 100)])
    with pytest.raises(InvalidInputError, match="counts sum"):
        el.batch_sums(r, (1, 2))


def test_run_validity_conditions_both_sides():
    a, th = instance(0)
    el.run_elimination_float(a, th, 100, "central", eps=1.0, sensitivity=2.0)
    with pytest.raises(ValidityConditionError, match="sensitivity"):
        el.run_elimination_float(a, th, 100, "central", eps=1.0, sensitivity=1.999)
    el.run_elimination_float(a, th, 8, "nonprivate")
    with pytest.raises(ValidityConditionError):
        el.run_elimination_float(a, th, 7, "nonprivate")
    with pytest.raises(ValidityConditionError):
        el.run_elimination_float(a * 1.01, th, 100, "nonprivate")
    with pytest.raises(ValidityConditionError):
        el.run_elimination_float(a, th * 1.01, 100, "nonprivate")
    with pytest.raises(InvalidInputError, match="model"):
        el.run_elimination_float(a, th, 100, "federated", eps=1.0)
    with pytest.raises(InvalidInputError, match="eps"):
        el.run_elimination_float(a, th, 100, "local")
    with pytest.raises(InvalidInputError, match="delta"):
        el.run_elimination_float(a, th, 100, "shuffled", eps=1.0)
    with pytest.raises(InvalidInputError):
        el.run_elimination_float(a, th[:1], 100, "nonprivate")


@pytest.mark.parametrize("model", ["nonprivate", "central", "local"])
def test_run_bookkeeping_recomputed_from_records(model):
    a, th = instance(3)
    T = 20000
    res = el.run_elimination_float(a, th, T, model, eps=1.0, rng=11)
    again = el.run_elimination_float(a, th, T, model, eps=1.0, rng=11)
    assert res == again  # seeded: byte-identical
    mu = a @ th
    gap = mu.max() - mu
    total = 0.0
    for rec in res.batches:
        assert rec.length == sum(rec.counts) and not rec.truncated
        assert rec.regret == pytest.approx(sum(n * gap[j] for j, n in zip(rec.support, rec.counts)), rel=1e-12)
        assert set(rec.survivors) <= set(range(len(a)))
        total += rec.regret
    assert sum(rec.length for rec in res.batches) + res.commit_rounds == T
    total += res.commit_rounds * gap[res.committed]
    assert res.regret == pytest.approx(total, rel=1e-12)
    assert 0 <= res.regret <= T * gap.max()
    survivors = [set(range(len(a)))] + [set(r.survivors) for r in res.batches]
    assert all(b <= s for s, b in zip(survivors, survivors[1:]))  # A_{i+1} subset of A_i


@pytest.mark.parametrize("model", ["nonprivate", "central", "local"])
def test_the_best_action_survives(model):
    """Good event G (App. E.1.2, Lemma E.1.1: probability >= 1 - 1/T): over 40 seeded instances at
    T = 10^4 the best action is never eliminated.  If G fails with probability <= 1/T per run, the chance
    that this test sees a failure is <= 40/10^4 = 0.4% (seeded, so it is deterministic in practice)."""
    for seed in range(40):
        a, th = instance(100 + seed)
        best = int(np.argmax(a @ th))
        res = el.run_elimination_float(a, th, 10 ** 4, model, eps=1.0, rng=seed)
        for rec in res.batches:
            assert best in rec.survivors or len(rec.survivors) == 0, (seed, rec)


def test_no_core_set_variant_plays_every_survivor_uniformly():
    """Fig. 6.2(b)'s 'no-core-set' variant: batch i pulls every a in A_i ceil(q^i/|A_i|) times (oracle:
    mpmath at 50 digits)."""
    import mpmath

    a, th = instance(5, K=6)
    T = 5000
    res = el.run_elimination_float(a, th, T, "central", eps=1.0, rng=2, core_set=False)
    alive = tuple(range(6))
    with mpmath.workdps(50):
        q = mpmath.power(2 * T, 1 / mpmath.log(T))
        for rec in res.batches:
            assert rec.support == alive
            expected = int(mpmath.ceil(q ** rec.index / len(alive)))
            assert rec.counts == (expected,) * len(alive)
            alive = rec.survivors


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_rewards = st.fractions(min_value=-1, max_value=1, max_denominator=12)


@settings(max_examples=80, deadline=None)
@given(counts=st.lists(st.integers(0, 4), min_size=1, max_size=4).filter(lambda c: sum(c) > 0),
       data=st.data(), eps=st.fractions(min_value=Fraction(1, 10), max_value=5, max_denominator=10))
def test_fixed_schedule_release_is_eps_dp_for_neighbours(counts, data, eps):
    """Property (thesis App. E.1.1 with Delta = 2): for a fixed schedule and neighbouring reward vectors
    (one reward changed, both in [-1, 1]) the exact Laplace log-density ratio bound ||S r - S r'||_1 / b
    is <= eps; S r is recomputed here by slicing, b = 2/eps."""
    n = sum(counts)
    r = data.draw(st.lists(_rewards, min_size=n, max_size=n))
    t = data.draw(st.integers(0, n - 1))
    r2 = list(r)
    r2[t] = data.draw(_rewards)
    s, s2 = el.batch_sums(r, counts), el.batch_sums(r2, counts)
    bounds = [0]
    for c in counts:
        bounds.append(bounds[-1] + c)
    assert s == tuple(sum(r[bounds[j]:bounds[j + 1]], Fraction(0)) for j in range(len(counts)))
    l1 = sum(abs(a - b) for a, b in zip(s, s2))
    assert l1 == abs(r[t] - r2[t]) <= 2
    assert l1 / el.laplace_scale(eps) <= eps


@pytest.mark.parametrize("call", [
    lambda: el.batch_sums(3, (1,)), lambda: el.batch_sums([1], 3), lambda: el.local_releases(3),
    lambda: schedule.horizon_plan(100, 5),
    lambda: simulate.random_instance_float(10, 2, float("nan")),
    lambda: simulate.mean_regrets_float("central", 100, 5, eps=1.0),
])
def test_non_sequences_and_non_integer_seeds_are_wrong_types(call):
    """Were TypeError tracebacks ('int' object is not iterable, SeedSequence on nan)."""
    with pytest.raises(WrongTypeError) as info:
        call()
    assert "\n" not in str(info.value)
