"""Pieces in t, root boxes and the box propagation of the optimal allocation (step 2 of the method).

What is checked, and against what (nothing here is a number copied from a run of the code):

* ``_nonempty_pieces``: the list of searched pieces and the count of skipped ones, against the
  criterion of the method docstring (piece j is non-empty iff L^{-1}(l_1) > l_j) evaluated
  independently with mpmath at 60 digits (instances chosen with wide margins), the q = 0 rule
  (only the last piece, t = l_m, is searched) and the q = 1 rule (every piece j >= 1 is empty;
  at j = 1 this is the exact tie L^{-1}(l_1) = l_1).
* ``Piece.root_box`` for q = 0: t is pinned to l_m (the dominance argument of step 2).
* ``Piece.propagate``: the returned box must contain every feasible point of the input box
  (soundness) and, on instances where the propagation rules are tight, must be the bounding box
  of the feasible set up to outward rounding.  The bounding box is computed independently: by
  linear programming (scipy ``linprog``) for the pure chain 0 <= z_1 <= ... <= t, and by closed
  forms worked out by hand (each one stated next to its assertion, evaluated with mpmath at 60
  digits) for the cuts z_g + L(t) <= l_g.
* ``Piece.F`` at a point with a zero partial sum S_1 is +inf and is decided without a float
  division by zero (no numpy warning).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.optimize import linprog

from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.search import _nonempty_pieces



def _L(q, t):
    """L(t) = log(1 + q (e^t - 1)) at 60 digits."""
    with mpmath.workdps(60):
        return mpmath.log(1 + mpmath.mpf(q) * (mpmath.exp(mpmath.mpf(t)) - 1))


def _Linv(q, v):
    """L^{-1}(v) = log(1 + (e^v - 1) / q) at 60 digits."""
    with mpmath.workdps(60):
        return mpmath.log(1 + (mpmath.exp(mpmath.mpf(v)) - 1) / mpmath.mpf(q))


def _mpq(x: Fraction):
    return mpmath.mpf(x.numerator) / x.denominator


def _F(x):
    return [Fraction(v) for v in x]


# ---------------------------------------------------------------- pieces


def _expected_pieces(levels, q):
    """j in 1..m-1 with L^{-1}(l_1) > l_j (l_j = levels[j-1]), decided at 60 digits with a margin."""
    with mpmath.workdps(60):
        linv = _Linv(_mpq(q), _mpq(levels[0]))
        out = []
        for j in range(1, len(levels)):
            diff = linv - _mpq(levels[j - 1])
            assert abs(diff) > mpmath.mpf(10) ** -6, "instance chosen with a clear margin"
            if diff > 0:
                out.append(j)
        return out


def test_pieces_q_positive_match_the_inverse_criterion():
    # l_1 = 1/2, q = 1/2: L^{-1}(1/2) = log(1 + 2 (e^{1/2} - 1)) = 0.8318..., so pieces 1 (l_1 = 1/2)
    # and 2 (l_2 = 3/4) are non-empty, pieces 3 (l_3 = 1) and 4 (l_4 = 2) are empty.
    levels = _F([Fraction(1, 2), Fraction(3, 4), 1, 2, 3])
    q = Fraction(1, 2)
    inst = Instance(levels, q)
    pieces, skipped = _nonempty_pieces(inst, q)
    expected = _expected_pieces(levels, q)
    assert expected == [1, 2]
    assert [pc.j for pc in pieces] == expected
    assert skipped == (inst.m - 1) - len(expected) == 2


def test_pieces_with_a_non_integer_first_level_and_repeated_levels():
    # l_1 = 3/10 (not an integer: numerator and denominator both matter), q = 1/3:
    # L^{-1}(0.3) = log(1 + 3 (e^{0.3} - 1)) = 0.7122...
    levels = _F([Fraction(3, 10), Fraction(3, 10), Fraction(1, 2), Fraction(1, 2), Fraction(9, 10), 1, 2])
    q = Fraction(1, 3)
    inst = Instance(levels, q)
    assert inst.levels == _F([Fraction(3, 10), Fraction(1, 2), Fraction(9, 10), 1, 2])
    pieces, skipped = _nonempty_pieces(inst, q)
    expected = _expected_pieces(inst.levels, q)
    assert expected == [1, 2]
    assert [pc.j for pc in pieces] == expected
    assert skipped == 2


def test_pieces_q_zero_only_the_last_piece():
    # method, step 2: for q = 0 only t = l_m (piece m - 1) is searched; the m - 2 others are skipped
    levels = _F([1, 2, 3, 4, 5])
    inst = Instance(levels, Fraction(0))
    pieces, skipped = _nonempty_pieces(inst, Fraction(0))
    assert [pc.j for pc in pieces] == [4]
    assert skipped == 3


def test_pieces_q_one_all_empty_including_the_exact_tie():
    # method, step 2: every piece j >= 1 is empty when q = 1 (L(t) = t); at j = 1,
    # L^{-1}(l_1) = l_1 exactly, a tie that must count as empty (criterion is a strict >).
    levels = _F([1, 2, 3])
    inst = Instance(levels, Fraction(1))
    pieces, skipped = _nonempty_pieces(inst, Fraction(1))
    assert pieces == []
    assert skipped == 2


# ---------------------------------------------------------------- root box


def test_root_box_q_zero_pins_t_to_the_top_level():
    # q = 0: the last piece searches t = l_m only; the x-bounds are 0 <= x_g <= l_g
    inst = Instance(_F([1, 2, 3]), Fraction(0))
    lo, hi = Piece(inst, 2).root_box()
    assert lo == [0.0, 0.0, 3.0]
    assert hi == [1.0, 2.0, 3.0]


def test_root_box_q_zero_levels_not_floats():
    # l = 1/3, 2/3, 7/3: t pinned to the largest float <= 7/3 from below and the smallest >= 7/3 above
    inst = Instance(_F([Fraction(1, 3), Fraction(2, 3), Fraction(7, 3)]), Fraction(0))
    lo, hi = Piece(inst, 2).root_box()
    assert Fraction(lo[-1]) <= Fraction(7, 3) <= Fraction(hi[-1])
    assert math.nextafter(lo[-1], math.inf) == hi[-1]
    assert Fraction(lo[-1]) > Fraction(2, 3) + Fraction(1, 10)


# ---------------------------------------------------------------- propagation: the chain (q = 0)


def _chain_bounding_box(lo, hi):
    """Bounding box of {lo <= z <= hi, 0 <= z_1 <= ... <= z_p} by linear programming."""
    p = len(lo)
    A = np.zeros((p - 1, p))
    for h in range(1, p):
        A[h - 1, h - 1], A[h - 1, h] = 1.0, -1.0
    bounds = [(max(0.0, lo[k]), hi[k]) for k in range(p)]
    blo, bhi = [], []
    for k in range(p):
        c = np.zeros(p)
        c[k] = 1.0
        r1 = linprog(c, A_ub=A, b_ub=np.zeros(p - 1), bounds=bounds, method="highs")
        r2 = linprog(-c, A_ub=A, b_ub=np.zeros(p - 1), bounds=bounds, method="highs")
        assert r1.status == 0 and r2.status == 0
        blo.append(r1.fun)
        bhi.append(-r2.fun)
    return blo, bhi


@pytest.mark.parametrize("lo,hi", [
    ([0.0, 0.0, 0.0, 0.0], [3.0, 3.0, 3.0, 1.0]),
    ([0.0, 0.0, 0.0, 0.0], [4.0, 0.5, 3.0, 2.0]),
    ([0.0, 0.0, 0.0, 0.0], [4.0, 4.0, 0.25, 4.0]),
    ([0.5, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]),
    ([0.0, 0.75, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]),
    ([-1.0, 0.0, 0.125, 0.0], [0.5, 0.5, 2.0, 1.5]),
])
def test_propagate_chain_is_the_bounding_box(lo, hi):
    inst = Instance(_F([1, 2, 3, 4]), Fraction(0))
    piece = Piece(inst, 3)
    out = piece.propagate(lo, hi)
    assert out is not None
    blo, bhi = _chain_bounding_box(lo, hi)
    assert out[0] == pytest.approx(blo, abs=1e-12)
    assert out[1] == pytest.approx(bhi, abs=1e-12)


def test_propagate_chain_detects_an_empty_box():
    inst = Instance(_F([1, 2, 3, 4]), Fraction(0))
    # z_1 >= 2 but t <= 1: no nondecreasing point
    assert Piece(inst, 3).propagate([2.0, 0.0, 0.0, 0.0], [3.0, 3.0, 3.0, 1.0]) is None


# ---------------------------------------------------------------- propagation: the cuts (q = 1/2)

Q = Fraction(1, 2)


def _sound_and_tight(value: float, true) -> None:
    """value is an outward-rounded upper bound of `true`: >= true, and within 1e-14 relative."""
    assert mpmath.mpf(value) >= true
    assert mpmath.mpf(value) <= true * (1 + mpmath.mpf(10) ** -14) + mpmath.mpf(10) ** -300


def test_root_box_with_cuts_is_the_bounding_box():
    # levels l = (2, 11/5, 3), q = 1/2, piece j = 2: z = (x_1, x_2, t), t in [11/5, 3],
    # x_1 + L(t) <= 2, x_2 + L(t) <= 11/5.  L^{-1}(2) = 2.62 < 3, so (by hand):
    #   sup x_1 = 2 - L(11/5)      (t = 11/5, x_2 = x_1; also 2 - L(11/5) = 0.39 <= 11/5 - L(11/5))
    #   sup x_2 = 11/5 - L(11/5)   (t = 11/5, x_1 = 0)
    #   sup t   = L^{-1}(2 - 0)    (x_1 = x_2 = 0; then x_2 + L(t) = 2 <= 11/5)
    levels = _F([2, Fraction(11, 5), 3])
    inst = Instance(levels, Q)
    box = Piece(inst, 2).root_box()
    assert box is not None
    lo, hi = box
    assert lo[:2] == [0.0, 0.0]
    assert Fraction(lo[2]) <= Fraction(11, 5) and math.nextafter(lo[2], math.inf) >= float(Fraction(11, 5))
    with mpmath.workdps(60):
        L22 = _L(0.5, _mpq(Fraction(11, 5)))
        _sound_and_tight(hi[0], 2 - L22)
        _sound_and_tight(hi[1], _mpq(Fraction(11, 5)) - L22)
        _sound_and_tight(hi[2], _Linv(0.5, 2))


def test_propagate_cut_on_x_when_the_incoming_bound_is_close():
    # Same piece, t_lo = 2.4 given directly (lo_1 = lo_2 = 0 < t_lo), hi_1 = 0.3 given:
    # sup x_1 = 2 - L(2.4) = 0.206... (t = 2.4, x_2 = x_1), below the incoming 0.3 (< twice it);
    # sup x_2 = min(11/5 - L(2.4), hi_2); sup t = L^{-1}(2).
    levels = _F([2, Fraction(11, 5), 3])
    inst = Instance(levels, Q)
    lo, hi = Piece(inst, 2).propagate([0.0, 0.0, 2.4], [0.3, 2.2, 3.0])
    with mpmath.workdps(60):
        Lt = _L(0.5, mpmath.mpf(2.4))
        assert 2 - Lt < mpmath.mpf(0.3) < 2 * (2 - Lt)
        _sound_and_tight(hi[0], 2 - Lt)
        _sound_and_tight(hi[1], _mpq(Fraction(11, 5)) - Lt)
        _sound_and_tight(hi[2], _Linv(0.5, 2))
    assert lo == [0.0, 0.0, 2.4]


def test_propagate_cut_on_t_uses_the_lower_ends_of_x():
    # lo_1 = 0.3 given: sup t = L^{-1}(2 - 0.3) (x_1 = 0.3, x_2 = 0.3: x_2 + L(t) = 2 <= 11/5);
    # incoming hi_t = L^{-1}(2) (above it, below L^{-1}(2 + 0.3)).
    levels = _F([2, Fraction(11, 5), 3])
    inst = Instance(levels, Q)
    hi_t = float(_Linv(0.5, 2))
    lo, hi = Piece(inst, 2).propagate([0.3, 0.0, 2.2], [2.0, 2.2, hi_t])
    assert lo[:2] == [0.3, 0.3]
    with mpmath.workdps(60):
        _sound_and_tight(hi[2], _Linv(0.5, 2 - mpmath.mpf(0.3)))


def test_propagate_small_values_tight_within_the_float_slack():
    # Small levels l = (1/50, 11/500, 3/100), q = 1/2, piece 2.  The incoming bounds sit 1e-12
    # above the true bounds: far above the 1e-12 *relative* slack of the float pre-check
    # (values ~ 0.01-0.04), so they must be cut down to the outward-rounded true bounds.
    #   sup t   = L^{-1}(1/50)            (x_1 = x_2 = 0)
    #   sup x_1 = 1/50 - L(t_lo)          (t = t_lo)
    levels = _F([Fraction(1, 50), Fraction(11, 500), Fraction(3, 100)])
    inst = Instance(levels, Q)
    with mpmath.workdps(60):
        t_true = _Linv(0.5, mpmath.mpf(1) / 50)
        assert 0.03 < t_true < 0.05
        t_lo = 0.0395
        x1_true = mpmath.mpf(1) / 50 - _L(0.5, mpmath.mpf(t_lo))
        assert 0 < x1_true < mpmath.mpf(0.001)
        hi_in = [float(x1_true + mpmath.mpf(10) ** -12), 0.022, float(t_true + mpmath.mpf(10) ** -12)]
        out = Piece(inst, 2).propagate([0.0, 0.0, t_lo], hi_in)
        assert out is not None
        lo, hi = out
        _sound_and_tight(hi[0], x1_true)
        _sound_and_tight(hi[2], t_true)


# ---------------------------------------------------------------- the float objective


def test_F_zero_first_partial_sum_is_infinite_without_division_by_zero():
    # z_1 = 0: S_1 = 0, so the term n_1 / S_1 makes F = +inf; decided before dividing
    inst = Instance(_F([1, 2, 3]), Fraction(1, 2))
    piece = Piece(inst, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            assert piece.F(np.array([0.0, 0.5, 2.5])) == math.inf
            # and a regular point: n = (1, 1, 1), N = (3, 2, 1); z = (1, 2, 4):
            # S = (1/3, 1/3 + 1/2, 1/3 + 1/2 + 4) -> F = 3 + 6/5 + 6/29
            val = piece.F(np.array([1.0, 2.0, 4.0]))
    assert val == pytest.approx(float(Fraction(3) + Fraction(6, 5) + Fraction(6, 29)), rel=1e-15)
