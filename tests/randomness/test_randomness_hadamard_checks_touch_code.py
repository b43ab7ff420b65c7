"""The Sec. 7.3 / 7.7 Hadamard-response checks must touch the code: a bad twin of a
:mod:`bcdp.randomness.hadamard` / :mod:`bcdp.randomness.hadamard_sim` function (patched at the name the
check calls, undone after the test) turns the verdict to ``refuted``; the real functions give the
expected verdicts."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
from bcdp.randomness import hadamard, hadamard_sim
from check_verdicts import verdict

CHECKS = {"lemma734_hr_risk": "confirmed", "thm732_hr_upper": "confirmed",
          "erratum_thm731_low_randomness": "erratum", "erratum_cor731_rate": "erratum",
          "cor731_corrected_upper": "confirmed", "erratum_rem732_rate": "erratum",
          "erratum_rem733_sample_complexity": "erratum", "fig77_hr_reading": "confirmed"}
WORST_CASE_USERS = sorted(set(CHECKS) - {"fig77_hr_reading", "cor731_corrected_upper"})  # the latter: corrected_upper twin


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


@pytest.mark.parametrize("name", ["lemma734_hr_risk", "erratum_thm731_low_randomness"])
def test_real_functions_give_the_expected_verdicts(name):
    # every check's real verdict is also asserted by tests/claims
    assert verdict(f"thesis.{name}") == CHECKS[name]


@pytest.mark.parametrize("name", WORST_CASE_USERS)
def test_worst_case_at_the_uniform_pmf_is_refuted(monkeypatch, name):
    real = hadamard.worst_case_risk

    def bad(k, n, q, e_eps, split="exact", coordinates="all"):
        uniform = (Fraction(1, k),) * k
        value = hadamard.exact_risk(uniform, n, q, e_eps, split, coordinates)
        res = real(k, n, q, e_eps, split, coordinates)
        return type(res)(lower=value, upper=value, exact=value, witness=uniform, provenance="bad", details=res.details)

    monkeypatch.setattr(hadamard, "worst_case_risk", bad)
    assert verdict(f"thesis.{name}") == "refuted"


@pytest.mark.parametrize("name", ["lemma734_hr_risk", "erratum_thm731_low_randomness"])
def test_risk_with_twice_the_constant_is_refuted(monkeypatch, name):
    real = hadamard.exact_risk
    monkeypatch.setattr(hadamard, "exact_risk", lambda *a, **kw: 2 * real(*a, **kw))
    assert verdict(f"thesis.{name}") == "refuted"


def test_choose_q_ignoring_the_threshold_is_refuted(monkeypatch):
    real = hadamard.choose_q

    def bad(e_eps, r, unit="bits", prec=128):
        e = Fraction(e_eps)
        q = e / (e + 1)  # always the R >= H2 choice: too much randomness when R < H2
        res = real(e_eps, r, unit, prec)
        return type(res)(lower=q, upper=q, exact=q, provenance="bad", details={**res.details, "usable_q": q,
                                                                                 "regime": "R >= H2"})

    monkeypatch.setattr(hadamard, "choose_q", bad)
    assert verdict("thesis.thm732_hr_upper") == "refuted"
    assert verdict("thesis.erratum_rem732_rate") == "refuted"


def test_corrected_upper_with_a_wrong_constant_is_refuted(monkeypatch):
    real = hadamard.corrected_upper
    monkeypatch.setattr(hadamard, "corrected_upper", lambda *a: real(*a) / 2)
    assert verdict("thesis.cor731_corrected_upper") == "refuted"


def test_raw_estimator_is_refuted_for_fig77(monkeypatch):
    real = hadamard_sim.estimate_float
    monkeypatch.setattr(hadamard_sim, "estimate_float",
                        lambda counts, m, q, e, k, post="raw", coordinates="first_k": real(counts, m, q, e, k, "raw",
                                                                                           coordinates))
    assert verdict("thesis.fig77_hr_reading") == "refuted"


def test_sampler_with_wrong_rates_is_refuted_for_fig77(monkeypatch):
    real = hadamard_sim.sample_counts
    monkeypatch.setattr(hadamard_sim, "sample_counts",
                        lambda p, n, q, e, runs, rng, split="floor": real(p, n // 4, q, e, runs, rng, split))
    assert verdict("thesis.fig77_hr_reading") == "refuted"
