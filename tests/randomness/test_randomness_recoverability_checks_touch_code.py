"""The Sec. 7.5 / App. F.5-F.9 claim checks must touch the code: each bad twin of a bcdp.randomness function
(patched at the module attribute the check calls, undone after the test) turns the verdict to ``refuted``
(docs/testing.md, "Claim checks must touch the code"); the real functions give the expected verdicts."""

from __future__ import annotations

import dataclasses
import importlib
from fractions import Fraction

import pytest
from bcdp.randomness import keys
from bcdp.randomness import recoverability as rec
from bcdp.randomness import recoverability_bounds as rb
from check_verdicts import verdict

CHECKS = {"lemma751_shift": "confirmed", "thm751_key_entropy": "confirmed", "lemma752_reduction": "confirmed",
          "lemmaf51_trimming": "confirmed", "examplef51_reduction": "confirmed", "appf6_ratio": "confirmed",
          "rem752_secrecy": "confirmed", "thm752_hr_recoverability": "erratum", "thm752_corrected": "confirmed",
          "erratum_eq752": "erratum", "eq752_corrected": "confirmed", "fig73_storage": "confirmed"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


def test_lemma751_refutes_a_strict_ratio_condition(monkeypatch):
    monkeypatch.setattr(rec, "lemma751_condition", lambda q, e: min(q) > 0 and max(q) < e * min(q))
    assert _verdict("lemma751_shift") == "refuted"


def test_lemma751_refutes_the_reversed_shift(monkeypatch):
    monkeypatch.setattr(rec, "shift_mechanism", lambda k: tuple(tuple((x - u) % k for u in range(k)) for x in range(k)))
    assert _verdict("lemma751_shift") == "refuted"


def test_thm751_refutes_a_rule_that_ignores_the_ceiling(monkeypatch):
    real = rb.s_star
    monkeypatch.setattr(rb, "s_star", lambda k, eps, prec=128: dataclasses.replace(
        real(k, eps), witness=max(1, min(k - 1, int(Fraction(real(k, eps).witness) - 1) or 1))))
    assert _verdict("thm751_key_entropy") == "refuted"


def test_thm751_refutes_a_minimum_without_s_equal_1(monkeypatch):
    real = keys.min_two_level_entropy

    def bad(k, eps, unit="nats", prec=128):
        if k < 3:
            return real(k, eps, unit, prec)
        lows = [keys.two_level_entropy(k, s, eps, unit) for s in range(2, k)]
        return dataclasses.replace(real(k, eps, unit, prec), lower=min(c.lower for c in lows),
                                   upper=min(c.upper for c in lows))
    monkeypatch.setattr(keys, "min_two_level_entropy", bad)
    assert _verdict("thm751_key_entropy") == "refuted"


def test_thm751_refutes_ldp_rec_without_recoverability(monkeypatch):
    monkeypatch.setattr(rec, "is_ldp_rec", lambda f, q, e: rec.ldp_ratio(rec.induced_channel(f, q)) <= Fraction(e))
    assert _verdict("thm751_key_entropy") == "refuted"


def test_lemma752_refutes_a_uniform_reduced_key(monkeypatch):
    monkeypatch.setattr(rec, "reduce_key", lambda f, q: tuple([Fraction(1, len(f))] * len(f)))
    assert _verdict("lemma752_reduction") == "refuted"


def test_lemmaf51_refutes_trimming_the_most_likely_symbol(monkeypatch):
    def bad(q):
        q = tuple(Fraction(p) for p in q)
        i = q.index(max(q))
        return tuple(p / (1 - q[i]) for j, p in enumerate(q) if j != i)
    monkeypatch.setattr(rec, "trim_least_likely", bad)
    assert _verdict("lemmaf51_trimming") == "refuted"


def test_example_f51_refutes_a_column_that_keeps_one_key_per_input(monkeypatch):
    real = rec.reduce_column
    monkeypatch.setattr(rec, "reduce_column", lambda q, sets, k: real(q, [list(s)[:1] for s in sets], k))
    assert _verdict("examplef51_reduction") == "refuted"


def test_appf6_refutes_a_lenient_ldp_rec(monkeypatch):
    real = rec.is_ldp_rec
    monkeypatch.setattr(rec, "is_ldp_rec", lambda f, q, e: real(f, q, 2 * Fraction(e)))
    assert _verdict("appf6_ratio") == "refuted"


def test_rem752_refutes_a_capacity_without_the_key_entropy(monkeypatch):
    real = rec.shift_capacity
    monkeypatch.setattr(rec, "shift_capacity", lambda q, unit="nats", prec=128: dataclasses.replace(
        real(q, unit), lower=real(q, unit).lower / 2, upper=real(q, unit).upper / 2))
    assert _verdict("rem752_secrecy") == "refuted"


def test_thm752_refutes_when_the_sets_are_cyclic(monkeypatch):
    real = rb.hr_sets
    monkeypatch.setattr(rb, "hr_sets", lambda k, B, b, rule="asz19": real(k, B, b, "cyclic"))
    assert _verdict("thm752_hr_recoverability") == "refuted"


def test_thm752_refutes_a_wrong_column_sum(monkeypatch):
    monkeypatch.setattr(rb, "max_column_sum", lambda chan: Fraction(1))
    assert _verdict("thm752_hr_recoverability") == "refuted"


def test_thm752_corrected_refutes_a_bound_751_off_by_a_nat(monkeypatch):
    real = rb.hr_upper_bound_751
    monkeypatch.setattr(rb, "hr_upper_bound_751", lambda k, eps, unit="nats", split="none", prec=128: dataclasses.replace(
        real(k, eps, unit, split), lower=real(k, eps, unit, split).lower - 1, upper=real(k, eps, unit, split).upper - 1))
    assert _verdict("thm752_corrected") == "refuted"


def test_thm752_corrected_refutes_a_realisation_with_swapped_rows(monkeypatch):
    real = rb.hr_key_realisation

    def bad(sets, big_k):
        f = real(sets, big_k)
        return None if f is None else (f[1], f[0]) + tuple(f[2:])
    monkeypatch.setattr(rb, "hr_key_realisation", bad)
    assert _verdict("thm752_corrected") == "refuted"


def test_erratum_752_refutes_a_library_that_evaluates_the_corrected_form(monkeypatch):
    real = rb.lower_bound_752
    monkeypatch.setattr(rb, "lower_bound_752", lambda k, eps, unit="nats", reading="printed", prec=128:
                        real(k, eps, unit, "corrected"))
    assert _verdict("erratum_eq752") == "refuted"


def test_corrected_752_refutes_the_printed_reading(monkeypatch):
    real = rb.lower_bound_752
    monkeypatch.setattr(rb, "lower_bound_752", lambda k, eps, unit="nats", reading="printed", prec=128:
                        real(k, eps, unit, "printed"))
    assert _verdict("eq752_corrected") == "refuted"


def test_fig73_refutes_a_gain_in_the_wrong_unit(monkeypatch):
    real = rb.storage_gain
    monkeypatch.setattr(rb, "storage_gain", lambda k, eps, prec=128: dataclasses.replace(
        real(k, eps), lower=real(k, eps).lower * Fraction(69, 100), upper=real(k, eps).upper * Fraction(69, 100)))
    assert _verdict("fig73_storage") == "refuted"
