"""The float twins of the optimal allocation's instance against 50-digit mpmath, and their exact edges.

BCDP paper (arXiv:2410.18404), Sec. 4 (the allocation problem behind eq. (17)): the log constraint
L(t) = log(1 + q (e^t - 1)), its derivatives L'(t) = q e^t / (1 + q (e^t - 1)) and
L''(t) = q (1 - q) e^t / (1 + q (e^t - 1))^2, and its inverse L^{-1}(v) = log(1 + (e^v - 1) / q).
The search uses float versions of them (``Instance.L``, ``Lp``, ``Lpp``, ``Linv``; the certificate
re-evaluates in arb balls).  The oracle is the printed formula evaluated with mpmath at 50 digits,
written here, at points on both sides of the switch to the large-t form (t = 30) and far beyond the
float overflow of e^t.  A correctly rounded-ish float form is within a few ulps; every term flipped
or dropped moves the value by far more than the 8-ulp tolerance.

Also: for q = 0 the piece has no cut rows (the log constraint is vacuous), and ``project`` keeps a
point on the boundary x_1 = l_1 - L(t) (a subnormal level, where the 1e-13 safety shrink of the
clip is absorbed by rounding).  Written against survivors of the mutation gate
(benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import constraints, project

QS = [F(1, 1000), F(1, 10), F(1, 2), F(9, 10)]
TS = [0.25, 3.0, 29.5, 30.0, 30.5, 31.5, 45.0, 800.0]


def _mp(f):
    with mpmath.workdps(50):
        return f()


def _L(q: F, t: float) -> mpmath.mpf:
    return _mp(lambda: mpmath.log(1 + mpmath.mpf(q.numerator) / q.denominator * mpmath.expm1(t)))


def _Lp(q: F, t: float) -> mpmath.mpf:
    def f():
        qm, et = mpmath.mpf(q.numerator) / q.denominator, mpmath.exp(t)
        return qm * et / (1 + qm * (et - 1))
    return _mp(f)


def _Lpp(q: F, t: float) -> mpmath.mpf:
    def f():
        qm, et = mpmath.mpf(q.numerator) / q.denominator, mpmath.exp(t)
        return qm * (1 - qm) * et / (1 + qm * (et - 1)) ** 2
    return _mp(f)


def _Linv(q: F, v: float) -> mpmath.mpf:
    return _mp(lambda: mpmath.log(1 + mpmath.expm1(v) * q.denominator / q.numerator))


def _close(got: float, want: mpmath.mpf, ulps: int = 8) -> bool:
    if want == 0:
        return got == 0.0
    return abs(mpmath.mpf(got) - want) <= ulps * 2.0 ** -52 * abs(want)


@pytest.mark.parametrize("q", QS)
@pytest.mark.parametrize("t", TS)
def test_float_L_and_derivatives_match_the_printed_formulas(q, t):
    inst = Instance([F(1)], q)
    assert _close(inst.L(t), _L(q, t)), (inst.L(t), _L(q, t))
    assert _close(inst.Lp(t), _Lp(q, t)), (inst.Lp(t), _Lp(q, t))
    want_pp = _Lpp(q, t)
    if want_pp > 1e-300:                 # below, the float form underflows to 0 (its documented range)
        assert _close(inst.Lpp(t), want_pp, ulps=16), (inst.Lpp(t), want_pp)


@pytest.mark.parametrize("q", QS)
@pytest.mark.parametrize("v", [0.01, 2.0, 29.5, 30.5, 60.0])
def test_float_Linv_matches_the_printed_inverse(q, v):
    assert _close(Instance([F(1)], q).Linv(v), _Linv(q, v))


@pytest.mark.parametrize("t", [0.5, 31.0, 800.0])
def test_derivative_is_exactly_zero_for_q_zero_and_one_for_q_one(t):
    """L'(t) = 0 for q = 0 and 1 for q = 1 exactly, also where e^-t underflows (no 0/0)."""
    assert math.exp(-800.0) == 0.0
    assert Instance([F(1)], F(0)).Lp(t) == 0.0
    assert Instance([F(1)], F(1)).Lp(t) == 1.0


def test_no_cut_rows_for_q_zero():
    """q = 0: L = 0, the log constraint is the box itself; the piece has the chain rows only."""
    for j in (1, 2):
        piece = Piece(Instance([F(1, 4), F(1, 2), F(1)], F(0)), j)
        rows, rhs = constraints(piece, 0, 0)
        assert len(rows) == piece.p - 1 and rhs == [0] * (piece.p - 1)
    piece = Piece(Instance([F(1, 4), F(1, 2), F(1)], F(1, 2)), 2)
    assert len(constraints(piece, F(1, 2), 0)[0]) == piece.p - 1 + piece.j


def test_project_keeps_a_point_on_the_log_constraint_boundary():
    """l_1 = 2^-1040 (an exact subnormal float), q = 0: the clip x_1 <= (l_1 - L(t)) (1 - 1e-13) rounds
    back to l_1, so the projected point lies on the boundary x_1 = l_1 - L(t), which is feasible."""
    level = F(2) ** -1040
    piece = Piece(Instance([level, F(1)], F(0)), 1)
    got = project(piece, [1.0, 0.5])
    assert got is not None
    x1, t = got[1]
    assert F(x1) == level and F(t) == F(1, 2)          # on the boundary, exactly feasible (L = 0)
