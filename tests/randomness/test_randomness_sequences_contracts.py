"""Contracts of bcdp.randomness.sequences: caps and validity boundaries on both sides, defaults, units,
provenance and details (the values are tested against oracles in test_randomness_sequences.py)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from bcdp.core.errors import InvalidInputError
from bcdp.randomness import sequences as S


def test_e_eps_boundary_both_sides():
    q = [F(1, 4)] * 4
    assert S.is_dp_distribution(q, 2, 2, 1)  # e_eps = 1 (eps = 0): the uniform law is 0-DP
    with pytest.raises(InvalidInputError, match="^e_eps = e\\^eps must be in \\[1, 10000\\], got"):
        S.is_dp_distribution(q, 2, 2, 1 - F(1, 10 ** 9))
    assert S.is_dp_distribution(q, 2, 2, S.MAX_EPS)
    with pytest.raises(InvalidInputError, match="e_eps"):
        S.is_dp_distribution(q, 2, 2, S.MAX_EPS + 1)
    assert S.min_key_entropy(2, 1, eps=0).lower <= F(6932, 10000)
    with pytest.raises(InvalidInputError, match="^eps must be in \\[0, 10000\\], got"):
        S.min_key_entropy(2, 1, eps=-F(1, 10 ** 9))


def test_size_caps_both_sides():
    assert len(S.neighbour_pairs(2, 12)) == 2 ** 12 * 12 // 2  # k^T = 4096 = MAX_DATABASES
    with pytest.raises(InvalidInputError, match="^k\\^T must be at most 4096 here"):
        S.neighbour_pairs(2, 13)
    assert next(S.lipschitz_labellings(2, 4)) == (0,) * 16  # k^T = 16 = MAX_ENUMERATED
    with pytest.raises(InvalidInputError, match="at most 16"):
        next(S.lipschitz_labellings(5, 2))
    assert S.find_dp_bijection([F(1, 9)] * 9, 3, 2, 2) == tuple(range(9))  # k^T = 9 = MAX_BIJECTION_SEARCH
    with pytest.raises(InvalidInputError, match="at most 9"):
        S.find_dp_bijection([F(1, 16)] * 16, 2, 4, 2)
    with pytest.raises(InvalidInputError, match="^T must be an integer >= 1"):
        S.databases(2, True)
    with pytest.raises(InvalidInputError, match="^k must be an integer >= 2"):
        S.databases(2.0, 1)


def test_min_key_entropy_contract():
    c = S.min_key_entropy(2, 2, eps=1)
    assert c.details["unit"] == "nats" and c.details["eps"] == 1 and c.details["k"] == 2 and c.details["T"] == 2
    assert c.details["vertices"] == 6 and c.argmin_all_products
    assert "Thm 7.6.1" in c.provenance and "Def 7.6.1" in c.provenance
    assert c.witness == ((0, 1, 1, 2), (1, 0, 2, 1), (1, 2, 0, 1), (2, 1, 1, 0))
    bits = S.min_key_entropy(2, 2, eps=1, unit="bits")
    assert float(bits.lower) == pytest.approx(float(c.lower) / math.log(2), rel=1e-14)
    assert S.min_key_entropy(2, 2, e_eps=3).details["e_eps"] == 3
    assert c.upper - c.lower < F(1, 10 ** 30)
    assert S.min_key_entropy(2, 2, eps=1, prec=300).upper - S.min_key_entropy(2, 2, eps=1, prec=300).lower < F(1, 10 ** 80)


def test_labelling_helpers_contract():
    assert S.labelling_law((0, 1), 3) == (F(1, 4), F(3, 4))
    with pytest.raises(InvalidInputError, match="^c must be"):
        S.labelling_law((), 3)
    with pytest.raises(InvalidInputError, match="^c must be"):
        S.labelling_law((0, -1), 3)
    with pytest.raises(InvalidInputError, match="^c must have k\\^T = 4 entries"):
        S.is_vertex_labelling((0, 1, 1), 2, 2)
    with pytest.raises(InvalidInputError, match="^c must have k\\^T = 4 entries"):
        S.is_product_labelling((0, 1, 1), 2, 2)
    assert S.dp_vertices(2, 1, 2) == [(F(1, 3), F(2, 3)), (F(2, 3), F(1, 3))]


def test_channel_contracts():
    with pytest.raises(InvalidInputError, match="rows of equal length"):
        S.is_dp_channel([[F(1)], [F(1)], [F(1)]], 2, 1, 2)
    with pytest.raises(InvalidInputError, match="outputs must have"):
        S.is_dp_rec([[0, 1]], [F(1, 2), F(1, 2)], 2, 1, 2)
    assert S.output_of((1, 0), 0, 2) == (1, 0) and S.decode((1, 0), 0, 2) == (1, 0)
    assert S.output_of((1, 1), 3, 2, f=[3, 2, 1, 0]) == (1, 1)  # f^{-1}(3) = (0, 0); (0,0) - (1,1) = (1,1)
