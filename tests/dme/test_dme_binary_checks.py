"""The thesis Ch. 2-3 binary checks touch the code: each check's verdict turns when a library function
it calls is replaced by a deliberately wrong twin (monkeypatch), and is the expected one otherwise."""

from __future__ import annotations

import importlib
from fractions import Fraction as F

from check_verdicts import verdict

TR = importlib.import_module("bcdp.dme.two_rr")
BV = importlib.import_module("bcdp.dme.binary_vector")


def _verdict(name: str) -> str:
    importlib.import_module(f"bcdp.checks.thesis.{name}")
    return verdict(f"thesis.{name}")


def test_expected_verdicts_with_the_real_library():
    assert _verdict("lemma241_2rr") == "confirmed"
    assert _verdict("thm331_binary_vector") == "confirmed"
    assert _verdict("eq310_padding") == "erratum"


def test_lemma241_refutes_a_p_without_the_half(monkeypatch):
    real = TR.budget_p

    def no_half(v):
        p = real(v)
        return 2 * p if isinstance(p, F) else p * 2

    monkeypatch.setattr(TR, "budget_p", no_half)
    assert _verdict("lemma241_2rr") == "refuted"


def test_lemma241_refutes_a_biased_rr_law(monkeypatch):
    def biased(b, p):                       # classical RR: sends the bit, not the debiased value
        q = F(p)
        return {F(b): 1 - q, F(1 - b): q}

    monkeypatch.setattr(TR, "two_rr_law", biased)
    assert _verdict("lemma241_2rr") == "refuted"


def test_thm331_refutes_a_block_size_off_by_one_in_the_message(monkeypatch):
    real = BV.message_law

    def scaled(b, params):                  # y = (a + 1) 2RR(b): biased, MSE too large
        out = {}
        for msg, w in real(b, params).items():
            key = tuple((c, y * (params.a + 1) / params.a) for c, y in msg)
            out[key] = out.get(key, F(0)) + w
        return out

    monkeypatch.setattr(BV, "message_law", scaled)
    assert _verdict("thm331_binary_vector") == "refuted"


def test_thm331_refutes_an_ldp_ratio_over_the_budget(monkeypatch):
    real = BV.ldp_ratio
    monkeypatch.setattr(BV, "ldp_ratio", lambda params: real(params) * 2)
    assert _verdict("thm331_binary_vector") == "refuted"


def test_eq310_is_not_an_erratum_when_the_library_mse_is_too_small(monkeypatch):
    real = BV.client_mse
    monkeypatch.setattr(BV, "client_mse", lambda b, params, truncate=True: real(b, params, truncate) / 4)
    assert _verdict("eq310_padding") == "confirmed"


def test_eq310_refutes_when_the_padded_bound_fails(monkeypatch):
    real = BV.client_mse
    monkeypatch.setattr(BV, "client_mse", lambda b, params, truncate=True: real(b, params, truncate) + 100)
    assert _verdict("eq310_padding") == "refuted"


QZ = importlib.import_module("bcdp.dme.quantizer")


def test_lemma351_expected_verdict_and_twins(monkeypatch):
    assert _verdict("lemma351_quantizer") == "erratum"
    real = QZ.quantize_law

    def no_clamp_law(x, m):                 # the estimate of the printed recursion is fine, but a bad law is not
        law = real(x, m)
        return {y + F(1, 2 ** (m + 1)): w for y, w in law.items()}

    monkeypatch.setattr(QZ, "quantize_law", no_clamp_law)
    assert _verdict("lemma351_quantizer") == "refuted"


def test_lemma351_refutes_an_unclamped_library(monkeypatch):
    monkeypatch.setattr(QZ, "binary_digits", QZ.printed_digits)
    assert _verdict("lemma351_quantizer") == "refuted"


LI = importlib.import_module("bcdp.dme.linf")


def test_thm351_expected_verdict_and_a_wrong_split(monkeypatch):
    assert _verdict("thm351_linf") == "confirmed"
    import sympy

    # the naive uniform split f_k = 1/m sums to 1 but is not (3.26) nor the KKT optimum (m >= 3)
    monkeypatch.setattr(LI, "water_filling_split", lambda m: tuple(sympy.Rational(1, m) for _ in range(m)))
    assert _verdict("thm351_linf") == "refuted"


def test_thm351_refutes_a_library_mse_ten_times_too_large(monkeypatch):
    real = LI.linf_mse
    monkeypatch.setattr(LI, "linf_mse", lambda z, m, s, ps: real(z, m, s, ps) * 10)
    assert _verdict("thm351_linf") == "refuted"
