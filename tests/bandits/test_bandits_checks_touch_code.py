"""The Ch. 6 claim checks must touch the code: a bad twin of a bcdp.bandits function (patched at the
name the check calls, undone after the test) turns the verdict to ``refuted``."""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest
from bcdp.bandits import privacy
from check_verdicts import verdict


def _v(name: str) -> str:
    importlib.import_module(f"bcdp.checks.thesis.{name}")
    return verdict(f"thesis.{name}")


def test_sensitivity_erratum_real_functions():
    assert _v("erratum_e11_bandit_sensitivity") == "erratum"


def test_sensitivity_erratum_refutes_the_printed_sensitivity_as_truth(monkeypatch):
    monkeypatch.setattr(privacy, "reward_sensitivity", lambda reward_bound=1: Fraction(reward_bound))
    assert _v("erratum_e11_bandit_sensitivity") == "refuted"


def test_sensitivity_erratum_refutes_a_wrong_default(monkeypatch):
    real = privacy.batch_sums_epsilon
    monkeypatch.setattr(privacy, "batch_sums_epsilon",
                        lambda eps, *, sensitivity=privacy.CORRECTED_SENSITIVITY, reward_bound=1:
                        real(eps, sensitivity=1 if sensitivity == 2 else sensitivity, reward_bound=reward_bound))
    assert _v("erratum_e11_bandit_sensitivity") == "refuted"


def test_sensitivity_erratum_refutes_a_halved_pair_epsilon(monkeypatch):
    real = privacy.laplace_pair_epsilon
    monkeypatch.setattr(privacy, "laplace_pair_epsilon", lambda s, t, b: real(s, t, b) / 2)
    assert _v("erratum_e11_bandit_sensitivity") == "refuted"


def test_calibration_real_functions():
    assert _v("eq610_shuffled_calibration") == "confirmed"


def test_calibration_refutes_an_uncapped_or_inflated_inverse(monkeypatch):
    from bcdp.bandits import shuffled
    real = shuffled.shuffled_local_budget
    monkeypatch.setattr(shuffled, "shuffled_local_budget", lambda eps, n, delta: real(eps, n, delta) * 1.001)
    assert _v("eq610_shuffled_calibration") == "refuted"


def test_calibration_refutes_a_wrong_scale(monkeypatch):
    from bcdp.bandits import shuffled
    real = shuffled.shuffled_batch_calibration
    monkeypatch.setattr(shuffled, "shuffled_batch_calibration",
                        lambda eps, delta, sizes, sensitivity=2.0: real(eps, delta, sizes, sensitivity=1.0))
    assert _v("eq610_shuffled_calibration") == "refuted"


def test_lemma_e12_real_functions():
    assert _v("erratum_lemma_e12_tail") == "erratum"


def test_lemma_e12_refutes_a_wrong_mgf(monkeypatch):
    from bcdp.bandits import concentration as conc
    monkeypatch.setattr(conc, "laplace_mgf", lambda lam, l, b: 1 / (1 - (Fraction(lam) * Fraction(l) / b) ** 2 / 2))
    assert _v("erratum_lemma_e12_tail") == "refuted"


def test_lemma_e12_refutes_the_printed_bound_as_correction(monkeypatch):
    from bcdp.bandits import concentration as conc
    monkeypatch.setattr(conc, "weighted_laplace_tail_bound_float", conc.printed_lemma_e12_bound_float)
    assert _v("erratum_lemma_e12_tail") == "refuted"


def test_lemma_e12_refutes_a_wrong_tail(monkeypatch):
    from bcdp.bandits import concentration as conc
    real = conc.iid_laplace_sum_tail_factor
    monkeypatch.setattr(conc, "iid_laplace_sum_tail_factor", lambda n, s: real(n, s) * Fraction(99, 100))
    assert _v("erratum_lemma_e12_tail") == "refuted"


def test_lemma_e12_refutes_a_loose_correction(monkeypatch):
    """A valid but 100x looser tail bound is not the stated correction."""
    from bcdp.bandits import concentration as conc
    real = conc.weighted_laplace_tail_bound_float
    monkeypatch.setattr(conc, "weighted_laplace_tail_bound_float", lambda *a, **k: min(1.0, 100 * real(*a, **k)))
    assert _v("erratum_lemma_e12_tail") == "refuted"


def test_lemma_e12_refutes_a_smaller_printed_bound(monkeypatch):
    """A printed (E.17) evaluated too small would manufacture the counterexample."""
    from bcdp.bandits import concentration as conc
    real = conc.printed_lemma_e12_bound_float
    monkeypatch.setattr(conc, "printed_lemma_e12_bound_float", lambda *a, **k: real(*a, **k) / 2)
    assert _v("erratum_lemma_e12_tail") == "refuted"


def test_nets_real_functions():
    assert _v("lemma631_nets") == "confirmed"


def test_nets_refutes_a_net_that_drops_a_centre(monkeypatch):
    from bcdp.bandits import nets
    real = nets.zeta_net_exact
    monkeypatch.setattr(nets, "zeta_net_exact", lambda pts, zeta: real(pts, zeta)[:-1])
    assert _v("lemma631_nets") == "refuted"


def test_nets_refutes_a_log2_batch_growth(monkeypatch):
    import sympy
    from bcdp.bandits import nets
    monkeypatch.setattr(nets, "batch_growth", lambda T: (2 * sympy.Integer(T)) ** (1 / sympy.log(T, 2)))
    assert _v("lemma631_nets") == "refuted"


def test_core_set_real_functions():
    assert _v("lemma632_core_set") == "confirmed"


def test_core_set_refutes_a_wrong_exact_g(monkeypatch):
    from bcdp.bandits import design
    real = design.g_optimal_design_exact

    def bad(acts, **kw):
        r = real(acts, **kw)
        return design.ExactDesign(r.support, r.weights, r.g_value * Fraction(9, 10), r.rank, r.optimal)
    monkeypatch.setattr(design, "g_optimal_design_exact", bad)
    assert _v("lemma632_core_set") == "refuted"


def test_core_set_refutes_uniform_weights_on_everything(monkeypatch):
    import numpy as np
    from bcdp.bandits import design
    real = design.g_optimal_design_float

    def bad(x, **kw):
        r = real(x, **kw)
        k = x.shape[0]
        return design.Design(np.arange(k), np.full(k, 1.0 / k), r.g_value, r.rank, r.iterations, r.converged)
    monkeypatch.setattr(design, "g_optimal_design_float", bad)
    assert _v("lemma632_core_set") == "refuted"
