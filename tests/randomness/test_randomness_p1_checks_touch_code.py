"""The problem-P1 claim checks (thesis Sec. 7.3.1, App. F.1-F.2) must touch the code: each bad twin of a
:mod:`bcdp.randomness.p1` function (patched at the name the check calls, undone after the test) turns
the verdict to ``refuted``; the real functions give the expected verdicts."""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction

import pytest
from bcdp.randomness import p1
from check_verdicts import verdict

CHECKS = {"erratum_lemma732_p1_value": "erratum", "erratum_lemma733_binary": "erratum",
          "erratum_lemmaf21_merge": "erratum", "lemma732_corrected": "confirmed",
          "erratum_lemmaf11_fisher": "erratum"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


def _scaled_upper(real, factor):
    def twin(*args, **kwargs):
        c = real(*args, **kwargs)
        return dataclasses.replace(c, upper=c.upper * Fraction(factor))
    return twin


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


def test_lemma732_refutes_a_tightened_enclosure(monkeypatch):
    real = p1.p1_solve

    def twin(*args, **kwargs):
        c = real(*args, **kwargs)
        return dataclasses.replace(c, upper=c.lower)       # drops the true optimum 2c^2
    monkeypatch.setattr(p1, "p1_solve", twin)
    assert _verdict("erratum_lemma732_p1_value") == "refuted"


def test_lemma732_refutes_a_loosened_enclosure(monkeypatch):
    monkeypatch.setattr(p1, "p1_solve", _scaled_upper(p1.p1_solve, Fraction(1001, 1000)))
    assert _verdict("erratum_lemma732_p1_value") == "refuted"


def test_lemma732_refutes_the_objective_without_denominators(monkeypatch):
    monkeypatch.setattr(p1, "p1_value", lambda a, b: sum((Fraction(x) - Fraction(y)) ** 2 for x, y in zip(a, b)))
    assert _verdict("erratum_lemma732_p1_value") == "refuted"


@pytest.mark.parametrize("fn", ["p1_binary_upper", "p1_dual_upper"])
def test_lemma733_refutes_a_loose_binary_bound(monkeypatch, fn):
    monkeypatch.setattr(p1, fn, _scaled_upper(getattr(p1, fn), 2))
    assert _verdict("erratum_lemma733_binary") == "refuted"


def test_f21_refutes_a_superadditive_objective(monkeypatch):
    real = p1.p1_value
    monkeypatch.setattr(p1, "p1_value", lambda a, b: -real(a, b))
    assert _verdict("erratum_lemmaf21_merge") == "refuted"


def test_corrected_refutes_a_halved_bound(monkeypatch):
    real = p1.corrected_lemma732_bound

    def twin(*args, **kwargs):
        c = real(*args, **kwargs)
        return dataclasses.replace(c, lower=c.lower / 2, upper=c.upper / 2)
    monkeypatch.setattr(p1, "corrected_lemma732_bound", twin)
    assert _verdict("lemma732_corrected") == "refuted"


def test_corrected_refutes_a_loose_dual_bound(monkeypatch):
    monkeypatch.setattr(p1, "p1_dual_upper", _scaled_upper(p1.p1_dual_upper, Fraction(3, 2)))
    assert _verdict("lemma732_corrected") == "refuted"


def test_f11_refutes_a_wrong_fisher_trace(monkeypatch):
    real = p1.fisher_trace
    monkeypatch.setattr(p1, "fisher_trace", lambda ch, p: real(ch, p) / 100)
    assert _verdict("erratum_lemmaf11_fisher") == "refuted"


def test_f11_refutes_a_too_tight_p1_bound(monkeypatch):
    monkeypatch.setattr(p1, "p1_dual_upper", _scaled_upper(p1.p1_dual_upper, Fraction(1, 10)))
    assert _verdict("erratum_lemmaf11_fisher") == "refuted"
