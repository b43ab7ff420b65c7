"""The thesis Ch. 4 claim checks must touch the code: each bad twin of a :mod:`bcdp.fl` function
(patched at the name the check calls, undone after the test) turns the verdict to ``refuted``
(docs/testing.md, "Claim checks must touch the code"); the real functions give the expected verdicts."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
from bcdp.fl import kernels, rounds
from bcdp.fl import self_sampling as ss
from check_verdicts import verdict

CHECKS = {"alg431_cldp_round": "confirmed", "lemma431_amplification": "confirmed", "appc12_minibatch": "confirmed",
          "lemma432_second_moment": "confirmed", "claim441_dss_unbiased": "confirmed",
          "erratum_lemma442_factor2": "erratum", "erratum_lemma431_eps0_condition": "erratum",
          "lemma441_dss_reduction": "confirmed", "appc1_conditionals": "confirmed"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


def _noiseless(real):
    """output_law with the randomizer replaced by the identity (no privacy, same mean)."""
    def twin(dataset, kernel, k, s, **kw):
        ker = kernels.check_kernel(kernel)
        return real(dataset, {x: {x: Fraction(1)} for x in ker}, k, s, **{**kw, "_cache": {}})
    return twin


@pytest.mark.parametrize("name", ["alg431_cldp_round", "lemma431_amplification", "lemma432_second_moment"])
def test_a_noiseless_round_is_refuted(monkeypatch, name):
    monkeypatch.setattr(rounds, "output_law", _noiseless(rounds.output_law))
    assert _verdict(name) == "refuted"


def test_uniform_record_sampling_is_refuted(monkeypatch):
    """Twin: co-occurrence as if ks records were drawn uniformly from all mn."""
    monkeypatch.setattr(rounds, "co_occurrence_probability",
                        lambda n, m, k, s: Fraction(k * s * (k * s - 1), m * n * (m * n - 1)))
    assert _verdict("alg431_cldp_round") == "refuted"


def test_lemma431_with_client_rate_is_refuted(monkeypatch):
    real = rounds.lemma431_parameters
    monkeypatch.setattr(rounds, "lemma431_parameters",
                        lambda n, m, k, s, r, d: (1 + Fraction(k, n) * (r - 1), real(n, m, k, s, r, d)[1]))
    assert _verdict("lemma431_amplification") == "refuted"


def test_appc12_with_q_instead_of_q2_is_refuted(monkeypatch):
    monkeypatch.setattr(rounds, "appc12_parameters",
                        lambda n, m, k, s, r, d: (1 + Fraction(k * s, m * n) * (r - 1), Fraction(k * s, m * n) * d))
    assert _verdict("appc12_minibatch") == "refuted"


def test_lemma432_without_the_noise_term_is_refuted(monkeypatch):
    monkeypatch.setattr(rounds, "lemma432_bound", lambda L2, fp, n, m, k, s: Fraction(L2))
    assert _verdict("lemma432_second_moment") == "refuted"


def test_claim441_unconditional_mean_is_refuted(monkeypatch):
    monkeypatch.setattr(ss, "mean_given_participation", ss.mean_with_skip)
    assert _verdict("claim441_dss_unbiased") == "refuted"


def test_claim441_wrong_empty_probability_is_refuted(monkeypatch):
    monkeypatch.setattr(ss, "empty_probability", lambda n, q: (1 - Fraction(q)) ** (n - 1))
    assert _verdict("claim441_dss_unbiased") == "refuted"


def test_lemma442_with_the_printed_bound_as_correction_is_refuted(monkeypatch):
    monkeypatch.setattr(ss, "c36_bound", lambda L2, fp, q, n: Fraction(L2) * (1 + Fraction(fp) / (Fraction(q) * n)))
    assert _verdict("erratum_lemma442_factor2") == "refuted"


def test_lemma442_wrong_second_moment_is_refuted(monkeypatch):
    real = ss.second_moment
    monkeypatch.setattr(ss, "second_moment", lambda D, ker, q: real(D, ker, q) / (1 - (1 - Fraction(q)) ** len(D)))
    assert _verdict("erratum_lemma442_factor2") == "refuted"


def test_lemma442_wrong_fp_is_refuted(monkeypatch):
    real = kernels.kernel_fp
    monkeypatch.setattr(kernels, "kernel_fp", lambda ker, L2=None: real(ker, L2) / 2)
    assert _verdict("erratum_lemma442_factor2") == "refuted"


def test_lemma441_noiseless_dss_round_is_refuted(monkeypatch):
    real = ss.output_law
    monkeypatch.setattr(ss, "output_law", lambda D, ker, q, **kw: real(
        D, {x: {x: Fraction(1)} for x in kernels.check_kernel(ker)}, q))
    assert _verdict("lemma441_dss_reduction") == "refuted"


def test_lemma441_wrong_participation_law_is_refuted(monkeypatch):
    monkeypatch.setattr(ss, "participation_law", lambda n, q: {k: Fraction(1, n + 1) for k in range(n + 1)})
    assert _verdict("lemma441_dss_reduction") == "refuted"


def test_c6_c8_with_swapped_conditionals_is_refuted(monkeypatch):
    real = rounds.conditional_laws

    def twin(D, ker, k, s):
        A = real(D, ker, k, s)
        if "A0" in A and "A10" in A:
            A["A0"], A["A10"] = A["A10"], A["A0"]
        return A
    monkeypatch.setattr(rounds, "conditional_laws", twin)
    assert _verdict("appc1_conditionals") == "refuted"


def test_c6_c8_with_a_halved_shuffle_profile_is_refuted(monkeypatch):
    real = rounds.shuffle_profile
    monkeypatch.setattr(rounds, "shuffle_profile", lambda ker, c, rs: {
        r: {**v, "delta": v["delta"] / 2} for r, v in real(ker, c, rs).items()})
    assert _verdict("appc1_conditionals") == "refuted"
