"""The Sec. 7.4 claim checks must touch the code: each bad twin of a :mod:`bcdp.randomness.multilevel`
function (patched at the module attribute the checks call, undone after the test) turns the verdict to
``refuted`` (docs/testing.md, "Claim checks must touch the code"); the real functions give ``confirmed``."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from bcdp.core.results import Certified
from bcdp.randomness import multilevel
from check_verdicts import verdict

CHECKS = ("lemma741_cascade_law", "thm741_multilevel_randomness", "rem741_qj_closed_form", "fig79_two_levels",
          "fig710_d_levels")


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", CHECKS)
def test_real_functions_confirm(name):
    assert _verdict(name) == "confirmed"


def _q_without_denominator(e_eps, merge_equal=False):
    z = multilevel.flip_probabilities(e_eps, merge_equal)
    return (z[0],) + tuple(z[j] - z[j - 1] for j in range(1, len(z)))


@pytest.mark.parametrize("name", ["lemma741_cascade_law", "thm741_multilevel_randomness", "rem741_qj_closed_form"])
def test_q_without_the_denominator_of_736_is_refuted(monkeypatch, name):
    monkeypatch.setattr(multilevel, "key_probabilities", _q_without_denominator)
    assert _verdict(name) == "refuted"


def test_keys_shifted_by_one_level_are_refuted(monkeypatch):
    real = multilevel.cascade_outputs

    def shifted(in_b, keys):  # L^j = U^j xor ... xor U^d: leaks the analyst's own key level
        y, _ = real(in_b, keys)
        u = np.asarray(keys, dtype=np.int8)
        return y, np.bitwise_xor.accumulate(u[:, ::-1], axis=1)[:, ::-1]

    monkeypatch.setattr(multilevel, "cascade_outputs", shifted)
    assert _verdict("lemma741_cascade_law") == "refuted"


def test_a_view_ratio_that_ignores_the_key_is_refuted(monkeypatch):
    monkeypatch.setattr(multilevel, "view_ldp_ratio", lambda view: 1)
    assert _verdict("lemma741_cascade_law") == "refuted"


def test_certified_q_off_by_a_bit_is_refuted(monkeypatch):
    real = multilevel.key_probabilities_certified

    def shifted(eps, prec=128, merge_equal=False):
        return tuple(Certified(lower=c.lower * 2, upper=c.upper * 2) for c in real(eps, prec, merge_equal))

    monkeypatch.setattr(multilevel, "key_probabilities_certified", shifted)
    assert _verdict("thm741_multilevel_randomness") == "refuted"
    assert _verdict("rem741_qj_closed_form") == "refuted"


@pytest.mark.parametrize("name", ["thm741_multilevel_randomness", "fig79_two_levels", "fig710_d_levels"])
def test_proposed_equal_to_trivial_is_refuted(monkeypatch, name):
    real = multilevel.total_randomness

    def trivial_always(levels, scheme="proposed", *args, **kwargs):
        return real(levels, "trivial", *args, **kwargs)

    monkeypatch.setattr(multilevel, "total_randomness", trivial_always)
    assert _verdict(name) == "refuted"


@pytest.mark.parametrize("name", ["fig79_two_levels", "fig710_d_levels"])
def test_a_float_twin_in_nats_is_refuted(monkeypatch, name):
    real = multilevel.total_randomness_float
    monkeypatch.setattr(multilevel, "total_randomness_float", lambda eps, scheme="proposed", unit="bits":
                        real(eps, scheme, "nats"))
    assert _verdict(name) == "refuted"
