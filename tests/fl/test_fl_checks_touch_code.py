"""The thesis Ch. 4 / Fig 5.7 accountant checks must touch the code: each bad twin (patched at the name the
check calls, undone after the test) turns the verdict to ``refuted`` (docs/testing.md, "Claim checks must
touch the code"); the real functions give the expected verdicts."""

from __future__ import annotations

import importlib
from dataclasses import replace

import pytest
from bcdp.fl import accountants, communication
from bcdp.shuffle import cldp_rdp
from check_verdicts import verdict

CHECKS = {"thm431_accountant": "confirmed", "thm441_accountant": "confirmed", "thm543_accountant": "confirmed",
          "fig57_epsilon": "confirmed", "sec46_communication": "confirmed"}


@pytest.fixture(autouse=True, scope="module")
def _imported():
    for name in CHECKS:
        importlib.import_module(f"bcdp.checks.thesis.{name}")


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


def test_cldp_with_an_unsplit_delta_is_refuted(monkeypatch):
    """Bad twin: delta~ = delta/(qT), delta' = delta (the split of the thesis dropped): total delta 2 delta."""
    real = accountants.cldp_sgd_accountant
    monkeypatch.setattr(accountants, "cldp_sgd_accountant",
                        lambda eps0, n, m, k, T, delta, **kw: real(eps0, n, m, k, T, min(2 * delta, 0.5), **kw))
    assert _verdict("thm431_accountant") == "refuted"


def test_cldp_with_the_client_rate_is_refuted(monkeypatch):
    """Bad twin: amplification by the rate k/n (m = 5 in one setting: 5x the printed q = k/(nm))."""
    real = accountants.subsampling_amplification
    monkeypatch.setattr(accountants, "subsampling_amplification", lambda e, d, rate: real(e, d, min(1.0, 5 * rate)))
    assert _verdict("thm431_accountant") == "refuted"


def test_cldp_with_half_the_epsilon_is_refuted(monkeypatch):
    real = accountants.cldp_sgd_accountant
    monkeypatch.setattr(accountants, "cldp_sgd_accountant",
                        lambda *a, **kw: replace(real(*a, **kw), epsilon=real(*a, **kw).epsilon / 2))
    assert _verdict("thm431_accountant") == "refuted"


def test_dss_rate_q_instead_of_u_over_nm_is_refuted(monkeypatch):
    """Bad twin: the per-round rate at the mean qn/(nm) instead of the window's top u/(nm)."""
    real = accountants.subsampling_amplification
    monkeypatch.setattr(accountants, "subsampling_amplification", lambda e, d, rate: real(e, d, rate * 2 / 3))
    assert _verdict("thm441_accountant") == "refuted"


def test_dss_without_the_tail_is_refuted(monkeypatch):
    monkeypatch.setattr(accountants, "binomial_outside_window", lambda n, q, lo, hi: (0.0, 0.0))
    assert _verdict("thm441_accountant") == "refuted"


def test_thm543_with_T_halved_is_refuted(monkeypatch):
    real = cldp_rdp.thm543_epsilon
    monkeypatch.setattr(cldp_rdp, "thm543_epsilon", lambda n, k, e, T, d, **kw: real(n, k, e, max(1, T // 2), d, **kw))
    assert _verdict("thm543_accountant") == "refuted"


def test_fig57_with_shifted_epochs_is_refuted(monkeypatch):
    real = cldp_rdp.first_units_reaching
    monkeypatch.setattr(cldp_rdp, "first_units_reaching", lambda *a, **kw: real(*a, **kw) + 3)
    assert _verdict("fig57_epsilon") == "refuted"


def test_fig57_with_the_unsubsampled_curve_is_refuted(monkeypatch):
    """Bad twin: the accountant run at gamma = 1 (n = k), the text's literal 'Theorem 5.3.1' reading."""
    real = cldp_rdp.thm543_epsilon
    monkeypatch.setattr(cldp_rdp, "thm543_epsilon", lambda n, k, *a, **kw: real(k, k, *a, **kw))
    assert _verdict("fig57_epsilon") == "refuted"


def test_histogram_count_without_the_minus_one_is_refuted(monkeypatch):
    """Bad twin: C(s + B, s) (multisets of size s from B + 1 bins)."""
    monkeypatch.setattr(communication, "histogram_count", lambda s, B: __import__("math").comb(s + B, s))
    assert _verdict("sec46_communication") == "refuted"


def test_bit_saving_without_the_sign_bit_is_refuted(monkeypatch):
    """Bad twin: 32 d / ceil(log2 d) (the + 1 of the sign bit dropped)."""
    from fractions import Fraction
    monkeypatch.setattr(communication, "bit_saving", lambda d: Fraction(32 * d, (d - 1).bit_length()))
    assert _verdict("sec46_communication") == "refuted"
