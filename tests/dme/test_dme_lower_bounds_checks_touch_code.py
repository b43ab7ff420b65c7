"""The lower-bound claim checks must touch the code: each bad twin of a library function (patched at
the name the check or the library calls, undone after the test) turns the verdict to ``refuted``
(docs/testing.md, "Claim checks must touch the code"); the real functions give the expected verdicts."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from bcdp.dme import binary_vector as bv
from bcdp.dme import central_lower as cl
from bcdp.dme import linf
from bcdp.dme import lower_bounds as lb
from check_verdicts import verdict


def _verdict(name: str) -> str:
    return verdict(f"thesis.{name}")


CHECKS = {"dme_lower_bound_steps": "confirmed", "erratum_thm363_step_e": "erratum",
          "thm364_central_lower": "confirmed"}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_real_functions_give_the_expected_verdicts(name):
    assert _verdict(name) == CHECKS[name]


# -- dme_lower_bound_steps ------------------------------------------------------------------------

def test_steps_refute_a_loosened_ch7_constant(monkeypatch):
    real = lb.ch7_simplex_lower_bound
    monkeypatch.setattr(lb, "ch7_simplex_lower_bound", lambda k, n, E, reading="corrected": 2 * real(k, n, E, reading))
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_the_printed_constant_as_default(monkeypatch):
    real = lb.ch7_simplex_lower_bound
    monkeypatch.setattr(lb, "ch7_simplex_lower_bound", lambda k, n, E, reading="printed": real(k, n, E, reading))
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_a_bound_above_the_schemes(monkeypatch):
    real = lb.thm343_explicit_lower_bound
    monkeypatch.setattr(lb, "thm343_explicit_lower_bound", lambda n, d, r, E: 300 * real(n, d, r, E))  # the smallest worst-MSE / bound ratio is 284.4
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_a_hadamard_mse_made_smaller(monkeypatch):
    real = lb.l1_hadamard_mse
    monkeypatch.setattr(lb, "l1_hadamard_mse", lambda x, r1, E: real(x, r1, E) / 2)
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_a_binary_vector_mse_without_the_sampling_term(monkeypatch):
    monkeypatch.setattr(bv, "mse_truncated",
                        lambda b, params: params.d * params.a * bv.two_rr_variance(params.p))
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_an_l_inf_mse_without_the_quantizer_part(monkeypatch):
    monkeypatch.setattr(linf, "linf_mse_formula", lambda z, m, s, ps: Fraction(0))
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_a_uniform_split(monkeypatch):
    monkeypatch.setattr(linf, "water_filling_split", lambda m: (sympy.Rational(1, m),) * m)
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_a_wrong_worst_input(monkeypatch):
    monkeypatch.setattr(lb, "linf_worst_input", lambda d, m, s: (Fraction(1, 2),) * d)
    assert _verdict("dme_lower_bound_steps") == "refuted"


def test_steps_refute_a_bernoulli_error_without_1_over_n(monkeypatch):
    real = lb.bernoulli_mean_error
    monkeypatch.setattr(lb, "bernoulli_mean_error", lambda th, p, n: real(th, p, n) * n)
    assert _verdict("dme_lower_bound_steps") == "refuted"


# -- erratum_thm363_step_e ------------------------------------------------------------------------

def test_step_e_refutes_a_biased_grid_rr(monkeypatch):
    real = lb.grid_rr_law
    monkeypatch.setattr(lb, "grid_rr_law", lambda x, E, K: {v * Fraction(11, 10): p for v, p in real(x, E, K).items()})
    assert _verdict("erratum_thm363_step_e") == "refuted"


def test_step_e_refutes_a_variance_bound_with_a_dropped_term(monkeypatch):
    E_, K_ = Fraction(10 ** 6), 100
    real = lb.grid_rr_sup_variance_bound
    first = Fraction(K_ + 1) / (E_ - 1)
    monkeypatch.setattr(lb, "grid_rr_sup_variance_bound", lambda E, K: real(E, K) - first)
    assert _verdict("erratum_thm363_step_e") == "refuted"


def test_step_e_refutes_a_condition_without_the_half(monkeypatch):
    def wrong(c, c_prime, n, d, eps0):
        m = min(Fraction(eps0), Fraction(eps0) ** 2)
        return (Fraction(c) - Fraction(c_prime)) * min(Fraction(1), Fraction(d) / (n * m)) >= Fraction(1, n)
    monkeypatch.setattr(lb, "thm363_step_e_holds", wrong)
    assert _verdict("erratum_thm363_step_e") == "refuted"


# -- thm364_central_lower -------------------------------------------------------------------------

def test_rem362_refutes_a_dropped_sampling_term(monkeypatch):
    real = cl.thm362_explicit_mse

    def dropped(n, d, r2, eps, delta, beta, s, m, calibration=cl.CORRECTED_CALIBRATION):
        extra = 4 * cl.clip_radius_squared(r2, d, n, beta) * sympy.Rational(4 * d * d, 3 * n) * (
            sympy.Rational(1, s) - sympy.Rational(1, d))
        return real(n, d, r2, eps, delta, beta, s, m, calibration) - extra
    monkeypatch.setattr(cl, "thm362_explicit_mse", dropped)
    assert _verdict("thm364_central_lower") == "refuted"


def test_rem362_refutes_unused_bits(monkeypatch):
    real = cl.rem362_parameters
    monkeypatch.setattr(cl, "rem362_parameters", lambda d, b: (d, 1) if b > d else real(d, b))
    assert _verdict("thm364_central_lower") == "refuted"


def test_rem362_refutes_a_bound_without_the_privacy_term(monkeypatch):
    monkeypatch.setattr(cl, "rem362_ratio_bound",
                        lambda n, d, eps, beta, b, calibration=432: 400 * sympy.log(sympy.Integer(n * d) / sympy.Rational(
                            Fraction(beta).numerator, Fraction(beta).denominator)) * 2)
    assert _verdict("thm364_central_lower") == "refuted"


def test_rem362_refutes_a_quantizer_at_the_wrong_level(monkeypatch):
    real = cl.quantizer_only_worst_mse
    monkeypatch.setattr(cl, "quantizer_only_worst_mse", lambda n, d, m, r: real(n, d, m + 1, r))
    assert _verdict("thm364_central_lower") == "refuted"
