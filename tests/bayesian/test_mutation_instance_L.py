"""The float L(t) = log(1 + q (e^t - 1)) of the optimal allocation's instance at q = 0 and q = 1.

BCDP paper (arXiv:2410.18404), Sec. 4 (the log constraint of the allocation problem): L(t) = 0 for
q = 0 and L(t) = t for q = 1, exactly (no rounding of exp/log, no overflow or log(0) at large t).  The
values of t below are ones where the generic float form log1p(expm1(t)) is one ulp off t (found by a
search with the math module), so a q = 1 that fell through to it would show.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from bcdp.bayesian.optimal_allocation.instance import Instance


@pytest.mark.parametrize("t", [0.22431519126402732, 1.8241392608837004, 1.6700163372499521])
def test_L_is_exactly_t_for_q_one(t):
    assert math.log1p(math.expm1(t)) != t          # the generic form would be off here
    assert Instance([F(1)], F(1)).L(t) == t


@pytest.mark.parametrize("t", [0.5, 31.0, 800.0])
def test_L_is_exactly_zero_for_q_zero(t):
    assert Instance([F(1)], F(0)).L(t) == 0.0
