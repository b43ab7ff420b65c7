"""Adversarial review of the single-level Ch. 7 chain (thesis Sec. 7.3.1-7.3.2, App. F.1-F.2): work caps
of the P1 solver, the error class of an inverted enclosure, and bad twins the checks must catch (a loosened
classical bound, an LDP status that never says no)."""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction as F

import pytest
from bcdp.core.errors import CertificationError, InvalidInputError
from bcdp.randomness import hadamard, p1
from check_verdicts import verdict


def test_dual_branch_count_is_capped():
    # splits^(2 depth) branches, each a float LP: splits = 16 at depth 2 is 65536 LPs (minutes)
    with pytest.raises(InvalidInputError, match="branches"):
        p1.p1_dual_upper(3, 1, F(1, 2), splits=16, depth=2)
    with pytest.raises(InvalidInputError, match="splits"):
        p1.p1_dual_upper(3, 1, F(1, 2), splits=65)


@pytest.mark.slow
def test_the_largest_allowed_dual_grid_runs():
    # exactly MAX_BRANCHES = 8^4 branches (about 15 s): accepted, and still an upper bound on a feasible value
    a, b = p1.p1_feasible_point(3, 1, F(1, 2), starts=0)
    assert p1.p1_value(a, b) <= p1.p1_dual_upper(3, 1, F(1, 2), splits=8, depth=2).upper


def test_starts_are_capped():
    with pytest.raises(InvalidInputError, match="starts"):
        p1.p1_solve(2, 1, F(1, 2), starts=p1.MAX_STARTS + 1)
    with pytest.raises(InvalidInputError, match="starts"):
        p1.p1_feasible_point(2, 1, F(1, 2), starts=-1)


def test_inverted_enclosure_is_a_certification_error(monkeypatch):
    real = p1.classical_bound

    def twin(*args, **kwargs):       # a wrong, too small "upper bound"
        c = real(*args, **kwargs)
        return dataclasses.replace(c, upper=c.upper / 2)
    monkeypatch.setattr(p1, "classical_bound", twin)
    with pytest.raises(CertificationError, match="inverted"):
        p1.p1_solve(2, 1, F(9, 10), starts=0)


@pytest.fixture()
def _checks():
    for name in ("erratum_lemma732_p1_value", "erratum_thm731_low_randomness"):
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def test_lemma732_refutes_a_loosened_classical_bound(monkeypatch, _checks):
    real = p1.classical_bound

    def twin(*args, **kwargs):
        c = real(*args, **kwargs)
        return dataclasses.replace(c, lower=c.lower * F(101, 100), upper=c.upper * F(101, 100))
    monkeypatch.setattr(p1, "classical_bound", twin)
    assert verdict("thesis.erratum_lemma732_p1_value") == "refuted"


def test_thm731_refutes_an_ldp_status_that_never_says_no(monkeypatch, _checks):
    real = hadamard.ldp_status

    def twin(*args, **kwargs):
        return {**real(*args, **kwargs), "ldp": True, "randomness": True, "eps_r_ldp": True}
    monkeypatch.setattr(hadamard, "ldp_status", twin)
    assert verdict("thesis.erratum_thm731_low_randomness") == "refuted"


def test_ldp_status_refuses_negative_r():
    with pytest.raises(InvalidInputError, match="R must be"):
        hadamard.ldp_status(F(1, 2), 3, -1)


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8, 13, 100])
@pytest.mark.parametrize("q,E", [(F(1, 1000), F(27, 10)), (F(3, 5), F(2)), (F(7, 10), F(4)), (F(1, 2), F(3))])
def test_worst_case_value_is_the_risk_at_its_witness(k, q, E):
    # the closed-form worst case must equal the generic exact risk (fast Walsh-Hadamard) at its maximiser
    if q > E / (E + 1):
        return
    K = hadamard.hadamard_size(k)
    for coord in ("all", "first_k"):
        wc = hadamard.worst_case_risk(k, 3 * K, q, E, coordinates=coord)
        assert wc.exact == hadamard.exact_risk(wc.witness, 3 * K, q, E, coordinates=coord)


def test_worst_case_at_the_largest_alphabet_is_fast():
    import time
    k = hadamard.MAX_K
    start = time.perf_counter()
    wc = hadamard.worst_case_risk(k, k, F(1, 1000), F(27, 10))
    assert time.perf_counter() - start < 2
    # q <= 1/2: the point mass on symbol 0, risk 4 E^2 K (1-q)/(n q (E-1)^2) with n = K (derived in the module doc)
    assert wc.witness[0] == 1


def test_sampler_refuses_a_runs_times_groups_array_too_large_for_memory():
    import numpy as np
    from bcdp.randomness import hadamard_sim
    p = np.zeros(hadamard.MAX_K)
    p[0] = 1.0
    # 10^4 runs x 2^20 groups would be an 80 GB count array
    with pytest.raises(InvalidInputError, match="runs"):
        hadamard_sim.sample_counts(p, 10 ** 7, 0.5, 3.0, hadamard_sim.MAX_RUNS, np.random.default_rng(0))
    counts, m = hadamard_sim.sample_counts(p, 2 ** 21, 0.5, 3.0, 2, np.random.default_rng(0))
    assert counts.shape == (2, hadamard.MAX_K) and m == 2


def test_lemma733_refutes_a_loosened_dual_bound(monkeypatch):
    importlib.import_module("bcdp.checks.thesis.erratum_lemma733_binary")
    real = p1.p1_dual_upper

    def twin(*args, **kwargs):
        c = real(*args, **kwargs)
        return dataclasses.replace(c, upper=c.upper * F(101, 100))
    monkeypatch.setattr(p1, "p1_dual_upper", twin)
    assert verdict("thesis.erratum_lemma733_binary") == "refuted"


def test_thm732_refutes_a_q_below_p_r(monkeypatch):
    importlib.import_module("bcdp.checks.thesis.thm732_hr_upper")
    real = hadamard.choose_q

    def twin(*args, **kwargs):          # still a valid (eps, R)-LDP q, but not the q of (7.33)
        c = real(*args, **kwargs)
        if c.details["regime"] == "R >= H2":
            return c
        q = c.lower * F(99, 100)
        return dataclasses.replace(c, lower=q, details={**c.details, "usable_q": q})
    monkeypatch.setattr(hadamard, "choose_q", twin)
    assert verdict("thesis.thm732_hr_upper") == "refuted"
