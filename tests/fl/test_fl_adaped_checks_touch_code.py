"""The Thm 4.5.1 claim check must touch the code: each bad twin of a :mod:`bcdp.fl.adaped` or
:mod:`bcdp.accounting.sampled_gaussian` function (patched at the name the library calls, undone after
the test) turns the verdict to ``refuted`` (docs/testing.md, "Claim checks must touch the code")."""

from __future__ import annotations

import importlib
from fractions import Fraction

from bcdp.accounting import sampled_gaussian
from bcdp.fl import adaped
from check_verdicts import verdict

NAME = "thesis.erratum_thm451_adaped"
importlib.import_module(f"bcdp.checks.{NAME}")


def test_real_functions_give_erratum():
    assert verdict(NAME) == "erratum"


def test_a_printed_formula_off_by_a_factor_is_refuted(monkeypatch):
    real = adaped.thm451_epsilon
    monkeypatch.setattr(adaped, "thm451_epsilon", lambda *a: real(*a) * Fraction(1001, 1000))
    assert verdict(NAME) == "refuted"


def test_the_mtz19_closed_form_in_place_of_the_exact_sum_is_refuted(monkeypatch):
    def closed_form(q, variance, alpha, *, bits=128):
        from bcdp.core.intervals import arb_precision, ball_of

        with arb_precision(bits):
            return ball_of(2 * Fraction(q) ** 2 * alpha / Fraction(variance))

    monkeypatch.setattr(sampled_gaussian, "sgm_rdp_ball_var", closed_form)
    assert verdict(NAME) == "refuted"


def test_the_printed_sensitivity_as_worst_case_is_refuted(monkeypatch):
    real = adaped.round_noise_variance
    monkeypatch.setattr(adaped, "round_noise_variance", lambda C, s, K, tau, sensitivity="worst_case":
                        real(C, s, K, tau, sensitivity="printed"))
    assert verdict(NAME) == "refuted"


def test_a_regime_test_that_accepts_everything_is_refuted(monkeypatch):
    monkeypatch.setattr(sampled_gaussian, "mtz19_regime_var", lambda q, v, a: True)
    assert verdict(NAME) == "refuted"


def test_a_loose_corrected_formula_is_refuted(monkeypatch):
    """A valid but looser corrected bound (x 100) is not the stated correction."""
    real = adaped.thm451_epsilon_corrected
    monkeypatch.setattr(adaped, "thm451_epsilon_corrected", lambda *a: real(*a) * 100)
    assert verdict(NAME) == "refuted"
