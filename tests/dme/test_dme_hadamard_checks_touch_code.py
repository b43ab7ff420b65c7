"""The Sec. 3.4 claim checks must touch the code: each bad twin of a :mod:`bcdp.dme.hadamard`
function (patched at the name the check calls, undone after the test) turns the verdict to
``refuted`` (docs/testing.md, "Claim checks must touch the code"); the real functions give the
expected verdicts."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
from bcdp.dme import hadamard
from check_verdicts import verdict

CHECKS = {"lemma341_hadamard": "confirmed", "erratum_rem341_inclusion": "erratum",
          "erratum_alg341_scale": "erratum"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


def _law_at_E_squared(real):
    return lambda x, r1, E: real(x, r1, Fraction(E) ** 2)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_law_at_the_wrong_budget_is_refuted(monkeypatch, name):
    monkeypatch.setattr(hadamard, "l1_hadamard_law", _law_at_E_squared(hadamard.l1_hadamard_law))
    assert _verdict(name) == "refuted"


def test_lemma341_refutes_an_error_without_the_norm_term(monkeypatch):
    real = hadamard.l1_hadamard_mse
    monkeypatch.setattr(hadamard, "l1_hadamard_mse",
                        lambda x, r1, E: real(x, r1, E) + sum(Fraction(v) ** 2 for v in x))
    assert _verdict("lemma341_hadamard") == "refuted"


def test_lemma341_refutes_outputs_with_the_wrong_scale(monkeypatch):
    real = hadamard.l1_hadamard_output
    monkeypatch.setattr(hadamard, "l1_hadamard_output",
                        lambda m, d, r1, E: tuple(2 * v if m[1] < 0 else v for v in real(m, d, r1, E)))
    assert _verdict("lemma341_hadamard") == "refuted"


def test_rem341_refutes_the_printed_radius(monkeypatch):
    monkeypatch.setattr(hadamard, "lp_ball_l1_radius", lambda d, r, p: __import__("sympy").Integer(1) * r)
    assert _verdict("erratum_rem341_inclusion") == "refuted"


def test_alg341_refutes_plus_outputs_with_the_wrong_scale(monkeypatch):
    real = hadamard.l1_hadamard_output
    monkeypatch.setattr(hadamard, "l1_hadamard_output", lambda m, d, r1, E: tuple(2 * v for v in real(m, d, r1, E)))
    assert _verdict("erratum_alg341_scale") == "refuted"
