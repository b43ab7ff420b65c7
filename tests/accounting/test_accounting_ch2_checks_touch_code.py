"""The thesis Ch. 2 (group "background") claim checks must touch the code: each bad twin of a library
function (patched at the name the check calls, undone after the test) turns the verdict to ``refuted``
(docs/testing.md, "Claim checks must touch the code"); the real functions give the expected verdicts."""

from __future__ import annotations

import dataclasses
import importlib
import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.accounting import amplification, curves
from bcdp.accounting import subsampling_exact as se
from bcdp.core import divergences
from bcdp.core.errors import ValidityConditionError
from bcdp.dme import two_rr
from bcdp.shuffle import composition, efm19_dp
from check_verdicts import verdict

CHECKS = {"lemma211_subsampling": "confirmed", "lemma212_strong_composition": "confirmed",
          "lemma214_rdp_composition": "confirmed", "lemma231_efm19_cor9": "confirmed",
          "thm241_2rr_sympy": "confirmed", "erratum_def212_iff": "erratum"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


# -- Lemma 2.1.1 ---------------------------------------------------------------------------------------

def test_lemma211_refutes_a_linear_amplified_epsilon(monkeypatch):
    # q eps < log(1 + q(e^eps - 1)) (concavity of log): too small, and the lemma is attained
    monkeypatch.setattr(amplification, "subsampling_amplification", lambda eps, delta, q: (q * eps, q * delta))
    assert _verdict("lemma211_subsampling") == "refuted"


def test_lemma211_refutes_a_smaller_delta(monkeypatch):
    real = amplification.subsampling_amplification
    monkeypatch.setattr(amplification, "subsampling_amplification",
                        lambda eps, delta, q: (real(eps, delta, q)[0], 0.9 * real(eps, delta, q)[1]))
    assert _verdict("lemma211_subsampling") == "refuted"


def test_lemma211_refutes_an_unamplified_pair(monkeypatch):
    # (eps, delta) itself is a valid but loose guarantee of M o samp: not the lemma's pair
    monkeypatch.setattr(amplification, "subsampling_amplification", lambda eps, delta, q: (eps, delta))
    assert _verdict("lemma211_subsampling") == "refuted"


def test_lemma211_refutes_a_slightly_loose_epsilon(monkeypatch):
    real = amplification.subsampling_amplification
    monkeypatch.setattr(amplification, "subsampling_amplification",
                        lambda eps, delta, q: (real(eps, delta, q)[0] * (1 + 1e-9), real(eps, delta, q)[1]))
    assert _verdict("lemma211_subsampling") == "refuted"


def test_lemma211_refutes_a_wrong_exact_ratio(monkeypatch):
    real = se.max_privacy_ratio
    monkeypatch.setattr(se, "max_privacy_ratio", lambda mech, n=None: (real(mech, n)[0] * Fraction(11, 10), {}))
    assert _verdict("lemma211_subsampling") == "refuted"


# -- Lemma 2.1.2 ---------------------------------------------------------------------------------------

def test_lemma212_refutes_advanced_composition_without_its_linear_term(monkeypatch):
    monkeypatch.setattr(amplification, "advanced_composition",
                        lambda eps, delta, T, dp: (math.sqrt(2 * T * math.log(1 / dp)) * eps, T * delta + dp))
    assert _verdict("lemma212_strong_composition") == "refuted"


def test_lemma212_refutes_a_loose_advanced_composition(monkeypatch):
    # T eps + 1 is still a valid epsilon (>= basic composition) but not the printed one
    real = amplification.advanced_composition
    monkeypatch.setattr(amplification, "advanced_composition",
                        lambda eps, delta, T, dp: (real(eps, delta, T, dp)[0] + T * eps, real(eps, delta, T, dp)[1]))
    assert _verdict("lemma212_strong_composition") == "refuted"


def test_lemma212_refutes_a_kov_delta_off_the_oracle(monkeypatch):
    real = composition.kov_delta

    def twin(eps, delta, T, eps_total):
        enc = real(eps, delta, T, eps_total)
        return dataclasses.replace(enc, lower=enc.lower * 2 + 1e-300, upper=enc.upper * 2 + 1e-300)
    monkeypatch.setattr(composition, "kov_delta", twin)
    assert _verdict("lemma212_strong_composition") == "refuted"


# -- Lemma 2.1.4 ---------------------------------------------------------------------------------------

def test_lemma214_refutes_a_composition_that_drops_a_curve(monkeypatch):
    real = curves.compose
    monkeypatch.setattr(curves, "compose", lambda *cs: real(*cs[:-1]))
    assert _verdict("lemma214_rdp_composition") == "refuted"


def test_lemma214_refutes_a_wrong_moment(monkeypatch):
    real = divergences.renyi_moment_exact
    monkeypatch.setattr(divergences, "renyi_moment_exact", lambda P, Q, a: real(P, Q, a) * Fraction(1001, 1000))
    assert _verdict("lemma214_rdp_composition") == "refuted"


# -- Lemma 2.3.1 (2) -----------------------------------------------------------------------------------

def test_lemma231_refutes_the_formula_without_the_square_root(monkeypatch):
    def mpf(x):
        return x if isinstance(x, mpmath.mpf) else mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator

    def twin(eps0, n, delta, dps=50):
        return 12 * mpf(eps0) * mpmath.log(1 / mpf(delta)) / n
    monkeypatch.setattr(efm19_dp, "efm19_cor9_epsilon", twin)
    assert _verdict("lemma231_efm19_cor9") == "refuted"


def test_lemma231_refutes_a_formula_that_ignores_its_validity_conditions(monkeypatch):
    real = efm19_dp.efm19_cor9_epsilon

    def twin(eps0, n, delta, dps=50):
        try:
            return real(eps0, n, delta, dps)
        except ValidityConditionError:
            return mpmath.mpf(1)
    monkeypatch.setattr(efm19_dp, "efm19_cor9_epsilon", twin)
    assert _verdict("lemma231_efm19_cor9") == "refuted"


def test_lemma231_refutes_a_wrong_pair_profile(monkeypatch):
    real = efm19_dp.rr_shuffled_pair_delta
    monkeypatch.setattr(efm19_dp, "rr_shuffled_pair_delta",
                        lambda n, r, eps, ones=0, dps=50: real(n, r, eps, ones, dps) / 2)
    assert _verdict("lemma231_efm19_cor9") == "refuted"


# -- Thm 2.4.1 -----------------------------------------------------------------------------------------

def test_thm241_refutes_a_rr_curve_at_the_wrong_p(monkeypatch):
    real = curves.randomized_response_rdp
    monkeypatch.setattr(curves, "randomized_response_rdp", lambda p: real(Fraction(p) * Fraction(101, 100)))
    assert _verdict("thm241_2rr_sympy") == "refuted"


def test_thm241_refutes_a_biased_mse(monkeypatch):
    real = two_rr.two_rr_mse
    monkeypatch.setattr(two_rr, "two_rr_mse", lambda b, p: real(b, p) + Fraction(p) ** 2)
    assert _verdict("thm241_2rr_sympy") == "refuted"


# -- Sec. 2.1.1, after Def. 2.1.2 ---------------------------------------------------------------------

def test_def212_refutes_a_tail_equal_to_the_hockey_stick(monkeypatch):
    monkeypatch.setattr(divergences, "privacy_loss_tail_exact", divergences.hockey_stick_exact)
    assert _verdict("erratum_def212_iff") == "refuted"
