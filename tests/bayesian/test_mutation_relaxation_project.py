"""``relaxation.project``: a feasible point of a piece near a proposal, or None.

BCDP paper (arXiv:2410.18404), Sec. 4; the reduced problem of piece j in
:mod:`bcdp.bayesian.optimal_allocation`: 0 < x_1 <= ... <= x_j <= t, t in [l_j, l_{j+1}],
x_g + L(t) <= l_g, L(t) = log(1 + q (e^t - 1)).  A proposal already inside is kept; a first coordinate
at 0 has no positive projection (None).  Feasibility is checked with mpmath at 60 digits.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath as mp
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import project


def _L(t: float, q: F):
    return mp.log(1 + mp.mpf(q.numerator) / q.denominator * mp.expm1(mp.mpf(t)))


def _feasible(levels, q: F, j: int, z) -> bool:
    with mp.workdps(60):
        Lt = _L(z[-1], q)
        return (z[0] > 0 and all(a <= b for a, b in zip(z, z[1:]))
                and levels[j - 1] <= F(z[-1]) <= levels[j]
                and all(mp.mpf(z[g]) + Lt <= mp.mpf(levels[g].numerator) / levels[g].denominator
                        for g in range(j)))


def test_a_proposal_inside_the_piece_is_kept():
    # levels 1/8, 1/4, 1/2, q = 1/4, j = 2: at t = 1/4, L(t) = log(1 + (e^(1/4) - 1)/4) ~ 0.0687,
    # so x_1 <= 0.0563 and x_2 <= 0.1813; (0.01, 0.05, 0.25) is inside
    levels, q = [F(1, 8), F(1, 4), F(1, 2)], F(1, 4)
    z = [0.01, 0.05, 0.25]
    assert _feasible(levels, q, 2, z)
    out = project(Piece(Instance(levels, q), 2), z)
    assert out is not None and out[1] == z


def test_a_first_coordinate_at_zero_has_no_projection():
    levels, q = [F(1, 8), F(1, 4), F(1, 2)], F(1, 4)
    piece = Piece(Instance(levels, q), 2)
    for z in ([0.0, 0.05, 0.25], [-1.0, 0.05, 0.25]):
        assert project(piece, z) is None

