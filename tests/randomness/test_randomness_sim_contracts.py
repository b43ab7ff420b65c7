"""Contracts of the float Hadamard-response estimator (bcdp.randomness.hadamard_sim) and of model's
eps check, from the partial mutation run of session 11: parameter ranges and names, the defaults
"raw" / "first_k", row-wise projection, and the eps cap."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.randomness import hadamard_sim, model


def _exact_counts(p, m, q, e):
    """Expected group counts m s_j, s_j = q/E + p(B_j) q (E-1)/E (7.29), K = 4, p(B) = (H p + 1)/2 (7.30)."""
    h = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]], dtype=float)
    pb = (h @ np.asarray(p, dtype=float) + 1) / 2
    return m * (q / e + pb * q * (e - 1) / e)


def test_estimator_inverts_the_expected_counts_with_defaults():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    counts = _exact_counts(p, 1000, 0.6, 2.0)
    np.testing.assert_allclose(hadamard_sim.estimate_float(counts, 1000, 0.6, 2.0, 4), p, atol=1e-12)
    np.testing.assert_allclose(hadamard_sim.estimate_float(counts.tolist(), 1000, 0.6, 2.0, 3), p[:3], atol=1e-12)
    both = np.stack([counts, _exact_counts([0.7, 0.1, 0.1, 0.1], 1000, 0.6, 2.0)])
    np.testing.assert_allclose(hadamard_sim.estimate_float(both, 1000, 0.6, 2.0, 4, post="project"),
                               [p, [0.7, 0.1, 0.1, 0.1]], atol=1e-12)
    np.testing.assert_allclose(hadamard_sim.estimate_float(both, 1000, 0.6, 2.0, 4, post="clip"),
                               [p, [0.7, 0.1, 0.1, 0.1]], atol=1e-12)


def test_estimator_parameter_ranges():
    counts = _exact_counts([0.25] * 4, 10, 0.5, 2.0)
    hadamard_sim.estimate_float(counts, 1, 1.0, 2.0, 4)            # q = 1 and m = 1 are allowed
    with pytest.raises(InvalidInputError, match="^q must be in"):
        hadamard_sim.estimate_float(counts, 10, 0.0, 2.0, 4)
    with pytest.raises(InvalidInputError, match="^q must be in"):
        hadamard_sim.estimate_float(counts, 10, 1.5, 2.0, 4)
    with pytest.raises(ValidityConditionError, match="^e_eps must be > 1"):
        hadamard_sim.estimate_float(counts, 10, 0.5, 1.0, 4)
    with pytest.raises(InvalidInputError, match="^q"):
        hadamard_sim.estimate_float(counts, 10, "x", 2.0, 4)
    with pytest.raises(InvalidInputError, match="^e_eps"):
        hadamard_sim.estimate_float(counts, 10, 0.5, "x", 4)
    for bad in (0, True, 2.5):
        with pytest.raises(InvalidInputError, match="^m must be a positive integer"):
            hadamard_sim.estimate_float(counts, bad, 0.5, 2.0, 4)


def test_project_simplex_rowwise_and_1d():
    rows = np.array([[0.5, 0.5, 0.5], [2.0, 0.0, 0.0], [-1.0, 0.2, 0.4]])
    out = hadamard_sim.project_simplex(rows)
    np.testing.assert_allclose(out, [[1 / 3] * 3, [1.0, 0.0, 0.0], [0.0, 0.4, 0.6]], atol=1e-12)
    np.testing.assert_allclose(hadamard_sim.project_simplex([0.5, 0.5, 0.5]), [1 / 3] * 3)
    assert hadamard_sim.project_simplex([0.5, 0.5, 0.5]).shape == (3,)
    np.testing.assert_allclose(hadamard_sim.project_simplex([[1, 3]]), [[0.0, 1.0]])   # ints accepted


def test_model_eps_range():
    rr = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]
    assert model.is_eps_ldp([[1], [1]], 0) is True                    # eps = 0 allowed
    assert model.is_eps_ldp(rr, 10_000) is True                       # the cap itself
    for bad in (-1, 10_001):
        with pytest.raises(InvalidInputError, match="^eps"):
            model.is_eps_ldp(rr, bad)
    with pytest.raises(InvalidInputError, match="^eps"):
        model.is_eps_ldp(rr, "x")


def test_choose_q_contract_in_both_regimes():
    from bcdp.randomness import entropy, hadamard

    high = hadamard.choose_q(3, 1)                                     # H2(3/4) = 0.811 bits <= 1
    assert (high.lower, high.upper, high.exact) == (F(3, 4), F(3, 4), F(3, 4))
    assert high.details["regime"] == "R >= H2" and high.details["usable_q"] == F(3, 4)
    crit = entropy.binary_entropy(F(1, 4))
    assert (high.details["critical"].lower, high.details["critical"].upper) == (crit.lower, crit.upper)
    assert high.provenance.startswith("q = e^eps/(e^eps+1)")
    low = hadamard.choose_q(3, F(1, 2))
    pr = entropy.inverse_binary_entropy(F(1, 2))
    assert (low.lower, low.upper) == (pr.lower, pr.upper) and low.exact is None
    assert low.details["regime"] == "R < H2" and low.details["usable_q"] == pr.lower
    assert "critical" in low.details and low.provenance.startswith("q = p_R")
    # units: 0.6 nats = 0.866 bits is above H2(3/4) = 0.811 bits = 0.562 nats, while 0.6 bits is below
    assert hadamard.choose_q(3, F(6, 10), "nats").details["regime"] == "R >= H2"
    assert hadamard.choose_q(3, F(6, 10)).details["regime"] == "R < H2"
    with pytest.raises(InvalidInputError, match="^R"):
        hadamard.choose_q(3, "x")
