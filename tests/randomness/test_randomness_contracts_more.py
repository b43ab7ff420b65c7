"""Contracts found missing by the partial mutation run of session 11: multilevel.key_probabilities_certified
(defaults, provenance, details), hadamard_sim.clip_renormalise (rows, zero rows, sums in (0, 1)),
heavy_hitters.linf_risk (its size cap computed from the histogram counts, a user-given estimator)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.randomness import hadamard_sim, heavy_hitters, multilevel


def test_key_probabilities_certified_contract():
    qs = multilevel.key_probabilities_certified((2, 1))
    assert [q.details for q in qs] == [{"eps": (2, 1), "level": 1}, {"eps": (2, 1), "level": 2}]
    assert [q.provenance for q in qs] == ["q_1, thesis eq. (7.36)", "q_2, thesis eq. (7.36)"]
    with pytest.raises(ValidityConditionError):  # equal levels are refused unless merged
        multilevel.key_probabilities_certified((1, 1))
    merged = multilevel.key_probabilities_certified((1, 1), merge_equal=True)
    assert merged[1].upper == 0
    with pytest.raises(InvalidInputError, match="^prec must be an integer in"):
        multilevel.key_probabilities_certified((2, 1), prec=10)
    # q_1 = z_1 = 1/(e^2 + 1) at the default precision: an enclosure narrower than 2^-100
    assert qs[0].lower <= F(1) / (F(math.e ** 2) + 1) + F(1, 10 ** 12)
    assert qs[0].upper - qs[0].lower < F(1, 2 ** 100)


def test_clip_renormalise_rows():
    v = np.array([[0.2, -0.1, 0.3], [-1.0, -2.0, -3.0], [0.1, 0.1, 0.0], [3.0, 1.0, 0.0]])
    out = hadamard_sim.clip_renormalise(v)
    np.testing.assert_allclose(out[0], [0.4, 0.0, 0.6])
    np.testing.assert_allclose(out[1], [1 / 3] * 3)          # all clipped: uniform
    np.testing.assert_allclose(out[2], [0.5, 0.5, 0.0])      # a sum in (0, 1) is scaled up, not kept
    np.testing.assert_allclose(out[3], [0.75, 0.25, 0.0])
    np.testing.assert_allclose(hadamard_sim.clip_renormalise([1, 3]), [0.25, 0.75])   # ints accepted
    np.testing.assert_allclose(hadamard_sim.clip_renormalise(np.zeros((2, 4))), np.full((2, 4), 0.25))


def test_linf_risk_cap_counts_histograms(monkeypatch):
    rr = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    n = 3
    pairs = math.comb(n + 1, 1) * math.comb(n + 1, 1)      # input and output histograms of 3 users on 2 symbols
    monkeypatch.setattr(heavy_hitters, "MAX_HISTOGRAM_PAIRS", pairs)
    heavy_hitters.linf_risk(rr, n)
    monkeypatch.setattr(heavy_hitters, "MAX_HISTOGRAM_PAIRS", pairs - 1)
    with pytest.raises(InvalidInputError, match=f"means {pairs} histogram pairs"):
        heavy_hitters.linf_risk(rr, n)


def test_linf_risk_with_a_given_estimator():
    rr = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    identity = [[1, 0], [0, 1]]                               # p_hat = the output frequencies
    got = heavy_hitters.linf_risk(rr, 1, estimator=identity)
    # n = 1, x = 0: output 0 w.p. 3/4 (error 0), output 1 w.p. 1/4 (error 1): risk 1/4 on both inputs
    assert got["risk"] == F(1, 4)
    assert set(got["per_counts"]) == {(1, 0), (0, 1)}
    assert got["worst_counts"] in got["per_counts"]
    with pytest.raises(InvalidInputError, match="^estimator entry"):
        heavy_hitters.linf_risk(rr, 1, estimator=[[0.5, 0], [0, 1]])
    with pytest.raises(InvalidInputError, match="one row per input symbol"):
        heavy_hitters.linf_risk(rr, 1, estimator=[[1, 0]])
    with pytest.raises(InvalidInputError, match="one row per input symbol"):
        heavy_hitters.linf_risk(rr, 1, estimator=[[1, 0], [0]])
    for bad in (0, True, 1.0):
        with pytest.raises(InvalidInputError, match="^n must be an integer"):
            heavy_hitters.linf_risk(rr, bad)


def test_is_eps_r_ldp_with_exact_eps_and_in_nats():
    from bcdp.randomness import model

    rr = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]   # ratio 2 = e^0.693..., H2(1/3) = 0.918 bits = 0.637 nats
    assert model.is_eps_r_ldp(rr, F(7, 10), 1) is True
    assert model.is_eps_r_ldp(rr, F(69, 100), 1) is False            # eps below log 2
    assert model.is_eps_r_ldp(rr, F(7, 10), F(64, 100), "nats") is True
    assert model.is_eps_r_ldp(rr, F(7, 10), F(63, 100), "nats") is False
    assert model.is_eps_r_ldp(rr, F(7, 10), F(64, 100)) is False     # default unit bits: 0.918 > 0.64
    with pytest.raises(InvalidInputError, match="^R"):
        model.is_eps_r_ldp(rr, F(7, 10), "x")


def test_chi2_chain_accepts_e_eps_one_only_for_identical_rows():
    from bcdp.randomness import assouad

    same = [[F(1, 2), F(1, 2)]] * 4
    out = assouad.chi2_chain(same, 4, F(1, 8), 1, (1, 1), 1)           # e^eps = 1 is allowed (eps = 0)
    assert out["chi2"] == 0
    with pytest.raises(InvalidInputError, match="^e_eps"):
        assouad.chi2_chain(same, 4, F(1, 8), 1, (1, 1), F(99, 100))


def test_hadamard_size_caps_and_group_index():
    from bcdp.randomness import hadamard

    assert len(hadamard.sylvester(8)) == 8
    with pytest.raises(InvalidInputError, match="^K "):
        hadamard.sylvester(2 ** 13)
    assert len(hadamard.channel(4, 0, F(1, 2), 2)) == 4
    assert len(hadamard.channel(4, 3, F(1, 2), 2)) == 4               # j in [0, K - 1], both ends
    with pytest.raises(InvalidInputError, match="^j "):
        hadamard.channel(4, 4, F(1, 2), 2)
    with pytest.raises(InvalidInputError, match="^j "):
        hadamard.channel(4, -1, F(1, 2), 2)
