"""The checks THESIS-Thm3.6.1, THESIS-Thm3.6.2 and THESIS-Thm3.4.2 touch the library and can fail (bad twins)."""

from __future__ import annotations

from fractions import Fraction as F

from bcdp.checks.thesis import thm342_l1_shuffle, thm361_l2_ldp, thm362_l2_mms
from bcdp.dme import hadamard, l2_linf


def _small_361(monkeypatch):
    monkeypatch.setattr(thm361_l2_ldp, "X_GRID", {2: ((F(1, 2), F(1, 4)),),
                                                  4: ((F(1, 3), F(-1, 2), F(0), F(1, 5)),)})
    monkeypatch.setattr(thm361_l2_ldp, "SIGNS", {2: ((1, -1),), 4: ((1, -1, 1, 1),)})
    monkeypatch.setattr(thm361_l2_ldp, "T_GRID", (F(2),))


def test_thm361_small_grid_confirms_and_inflated_mse_refutes(monkeypatch):
    _small_361(monkeypatch)
    assert thm361_l2_ldp.check().verdict == "confirmed"
    real = l2_linf.l2_linf_mse_closed_form
    monkeypatch.setattr(l2_linf, "l2_linf_mse_closed_form", lambda *a: 20 * real(*a))
    res = thm361_l2_ldp.check()
    assert res.verdict == "refuted"
    assert {f.get("what") for f in res.evidence["failures"]} & {"MSE > bound", "closed form"}


def test_thm361_bound_function_is_compared_with_the_printed_form(monkeypatch):
    _small_361(monkeypatch)
    real = l2_linf.thm361_mse_bound
    monkeypatch.setattr(l2_linf, "thm361_mse_bound", lambda *a: real(*a) * F(3, 2))
    assert thm361_l2_ldp.check().verdict == "refuted"


def test_thm362_printed_constant_in_the_library_is_caught(monkeypatch):
    monkeypatch.setattr(thm362_l2_mms, "XS", thm362_l2_mms.XS[:1])
    real = l2_linf.thm362_mse_bound
    monkeypatch.setattr(l2_linf, "thm362_mse_bound", lambda *a: real(*a[:-1], F(1)))  # 5 C = 5: the printed (3.34)
    res = thm362_l2_mms.check()
    assert res.verdict == "refuted"
    assert res.evidence["failures"]


def test_thm342_wrong_estimator_mse_refutes(monkeypatch):
    assert thm342_l1_shuffle.check().verdict == "confirmed"
    real = hadamard.l1_hadamard_estimator_mse
    # a 1/n instead of 1/n^2 twin
    monkeypatch.setattr(hadamard, "l1_hadamard_estimator_mse", lambda xs, r1, E: real(xs, r1, E) * len(xs))
    assert thm342_l1_shuffle.check().verdict == "refuted"
