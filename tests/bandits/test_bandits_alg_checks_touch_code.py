"""The Ch. 6 algorithm checks must touch the code (docs/testing.md, "Claim checks must touch the code"):
each bad twin of a :mod:`bcdp.bandits.schedule` / :mod:`bcdp.bandits.elimination` function (patched at the
name the check calls, undone after the test) turns the verdict to ``refuted``."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
from check_verdicts import verdict

from bcdp.bandits import elimination, schedule

CHECKS = {"alg631_schedule": "confirmed", "alg631_privacy": "confirmed", "alg632_privacy": "confirmed",
          "alg641_privacy": "confirmed"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert verdict(f"thesis.{name}") == CHECKS[name]


def test_floor_instead_of_ceil_is_refuted(monkeypatch):
    real = schedule.pull_counts
    monkeypatch.setattr(schedule, "pull_counts", lambda w, i, T: tuple(max(0, n - 1) for n in real(w, i, T)))
    assert verdict("thesis.alg631_schedule") == "refuted"


def test_one_batch_too_many_is_refuted(monkeypatch):
    real = schedule.number_of_batches
    monkeypatch.setattr(schedule, "number_of_batches", lambda T: real(T) + 1)
    assert verdict("thesis.alg631_schedule") == "refuted"


def test_lost_horizon_round_is_refuted(monkeypatch):
    real = schedule.horizon_plan
    monkeypatch.setattr(schedule, "horizon_plan",
                        lambda T, p: (lambda h: schedule.HorizonPlan(h.T, h.batch_lengths, h.truncated,
                                                                     max(0, h.commit_rounds - 1)))(real(T, p)))
    assert verdict("thesis.alg631_schedule") == "refuted"


@pytest.mark.parametrize("name", ["alg631_privacy", "alg632_privacy"])
def test_printed_sensitivity_one_is_refuted(monkeypatch, name):
    """Lap(1/eps) (the thesis's Delta = 1) is only 2 eps-DP: the exact part of the check catches it."""
    monkeypatch.setattr(elimination, "laplace_scale", lambda eps, sensitivity=2: Fraction(1) / Fraction(eps))
    assert verdict(f"thesis.{name}") == "refuted"


@pytest.mark.parametrize("name", ["alg631_privacy", "alg632_privacy", "alg641_privacy"])
def test_simulator_with_half_the_noise_is_refuted(monkeypatch, name):
    monkeypatch.setattr(elimination, "laplace_scale_float", lambda eps, sensitivity=2.0: 1.0 / eps)
    assert verdict(f"thesis.{name}") == "refuted"


def test_a_reward_counted_twice_is_refuted(monkeypatch):
    real = elimination.batch_sums
    monkeypatch.setattr(elimination, "batch_sums", lambda r, c: tuple(s + (r[0] if k == 0 else 0)
                                                                      for k, s in enumerate(real(r, c))))
    assert verdict("thesis.alg631_privacy") == "refuted"


def test_local_release_rescaled_is_refuted(monkeypatch):
    real = elimination.local_releases
    monkeypatch.setattr(elimination, "local_releases", lambda r: tuple(2 * x for x in real(r)))
    assert verdict("thesis.alg632_privacy") == "refuted"


def test_shuffled_eps0_too_large_is_refuted(monkeypatch):
    """eps0^(i) 10% above the calibrated value: f(eps0) > eps (or outside FMT's domain) somewhere."""
    real = elimination.shuffled_local_epsilon_float
    monkeypatch.setattr(elimination, "shuffled_local_epsilon_float", lambda e, n, d: real(e, n, d) * 1.1)
    assert verdict("thesis.alg641_privacy") == "refuted"


def test_shuffled_eps0_without_amplification_limit_is_refuted(monkeypatch):
    """Ignoring FMT's domain condition (inverting (6.10) beyond the cap) is refuted."""
    real = elimination.shuffled_local_epsilon_float
    monkeypatch.setattr(elimination, "shuffled_local_epsilon_float",
                        lambda e, n, d: real(e, n, d) if real(e, n, d) == e else real(e, n, d) + 0.5)
    assert verdict("thesis.alg641_privacy") == "refuted"


@pytest.mark.parametrize("name", ["alg631_privacy", "alg632_privacy", "alg641_privacy"])
def test_a_simulator_whose_batches_are_all_truncated_is_refuted(monkeypatch, name):
    """Bad twin: every batch marked truncated, so the simulated-release loop would inspect nothing."""
    import dataclasses
    real = elimination.run_elimination_float

    def twin(*a, **k):
        r = real(*a, **k)
        return dataclasses.replace(r, batches=tuple(dataclasses.replace(b, truncated=True) for b in r.batches))
    monkeypatch.setattr(elimination, "run_elimination_float", twin)
    assert verdict(f"thesis.{name}") == "refuted"
