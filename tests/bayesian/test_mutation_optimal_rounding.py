"""Step 4 of the optimal allocation (the certified rational point) and the instance helpers it uses,
each checked against an independent computation written here.

BCDP paper (arXiv:2410.18404), Sec. 4, Theorem 2 and eq. (17); the privacy constraints of the proof
of Theorem 2 (App. B.2): 0 <= c_1 <= ... <= c_d = t <= eps and, for every i, t <= delta~_i or
c_i + L(t) <= delta~_i, L(t) = log(1 + q (e^t - 1)).

* ``_floor_log10`` against integer comparisons with powers of ten (at the powers and next to them);
* ``certify_feasible`` against the constraints checked in Fractions and 80-digit mpmath, on points
  10^-40 inside and outside the log constraint;
* ``Instance.Lpp`` / ``Linv`` (float search helpers) against 50-digit mpmath (a numerical second
  derivative, a root of L(t) = v); the ball versions and the outward-rounded floats against
  60-digit references;
* ``rational_point`` against its docstring: t snaps to an end of the piece within 1e-9 (relative,
  inclusive), else keeps 16 digits (decimal module); an active x_g is a 26-digit rational lower bound
  of (l_g - L(t)) (1 - 10^-(24 - 4 attempt)); a merged x_g equals x_{g+1}; an interior x_g keeps 16
  digits; the point is feasible (exact check);
* ``polish`` against an independent minimiser of the same reduced problem (nested golden sections for
  two variables, scipy's trust-constr for three), on pieces at unit, tiny and large scale.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import decimal
import math
import warnings
from fractions import Fraction as F

import mpmath as mp
import numpy as np
import pytest
import sympy
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece, cancellation_bits
from bcdp.bayesian.optimal_allocation.relaxation import _cut_slope, bound_formula, constraints, crude_bound
from bcdp.bayesian.optimal_allocation.rounding import (
    _floor_log10,
    certify_feasible,
    expand_groups,
    polish,
    rational_point,
)
from bcdp.core.intervals import arb_precision, ball_ends, ball_of

# ---------------------------------------------------------------- independent references


def exact_floor_log10(x: F) -> int:
    """The largest e with 10^e <= x, by integer comparisons only."""
    n, d = x.numerator, x.denominator
    if n >= d:
        e = 0
        while n >= d * 10 ** (e + 1):
            e += 1
        return e
    e = -1
    while n * 10 ** (-e) < d:
        e -= 1
    return e


def decimal_round(x: float | F, digits: int = 16) -> F:
    """x to ``digits`` significant digits, half to even (the decimal module, not bcdp)."""
    x = F(x)
    ctx = decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_EVEN, Emin=-10**6, Emax=10**6)
    return F(ctx.divide(decimal.Decimal(x.numerator), decimal.Decimal(x.denominator)))


def mp_L(t, q):
    """L(t) = log(1 + q (e^t - 1)) at the current mpmath precision."""
    return mp.log(1 + mp.mpf(q.numerator) / q.denominator * mp.expm1(mp.mpf(t.numerator) / t.denominator))


def feasible_oracle(c: list[F], tilde: list[F], eps: F, q: F) -> bool:
    """The constraints of the proof of Theorem 2: Fractions for the chain, 80-digit mpmath for the logs
    (the test points are 10^-40 away from equality, far beyond 10^-80)."""
    if c[0] < 0 or any(a > b for a, b in zip(c, c[1:])) or c[-1] > eps:
        return False
    t = c[-1]
    with mp.workdps(80):
        Lt = mp_L(t, q)
        return all(t <= dt or mp.mpf(ci.numerator) / ci.denominator + Lt <= mp.mpf(dt.numerator) / dt.denominator
                   for ci, dt in zip(c, tilde))


def sig_digits_at_most(x: F, digits: int) -> bool:
    """x has at most ``digits`` significant decimal digits."""
    k = digits - 1 - exact_floor_log10(abs(x))
    return (x * F(10) ** k).denominator == 1


# ---------------------------------------------------------------- _floor_log10


@pytest.mark.parametrize("k", [-40, -17, -3, -1, 0, 1, 2, 5, 16, 40])
def test_floor_log10_at_powers_of_ten_and_their_neighbours(k):
    p = F(10) ** k
    for x in (p, p * (1 + F(1, 10**20)), p * (1 - F(1, 10**20)), p * F(99, 10), p * F(11, 10)):
        assert _floor_log10(x) == exact_floor_log10(x)


@pytest.mark.parametrize("x", [F(93, 1000), F(91, 1000), F(9, 1000), F(99, 10000), F(1, 11), F(95, 1000)])
def test_floor_log10_between_eleven_and_ten_to_a_negative_power(x):
    # 11^(e+1) <= x < 10^(e+1) for e < -1: only the base 10 tells e from e + 1
    assert _floor_log10(x) == exact_floor_log10(x)


# ---------------------------------------------------------------- certify_feasible

Q = F(3, 10)
HALF = F(1, 2)


def _edge(dt: F, t: F, q: F, side: int) -> F:
    """A 40-digit rational 10^-40 below (side -1) or above (side +1) dt - L(t)."""
    with mp.workdps(80):
        v = mp.mpf(dt.numerator) / dt.denominator - mp_L(t, q)
        base = F(int(mp.floor(v * mp.mpf(10) ** 40)), 10**40)
    return base - F(1, 10**40) if side < 0 else base + F(2, 10**40)


@pytest.mark.parametrize(("c", "tilde", "eps"), [
    ([F(-1, 10), F(1, 5), HALF], [F(1)] * 3, F(1)),              # negative first budget
    ([F(0), F(1, 5), HALF], [F(1)] * 3, F(1)),                    # c_1 = 0 is allowed (>= 0)
    ([F(1, 10), HALF, F(2, 5)], [F(1)] * 3, F(1)),                # the last pair decreases
    ([F(1, 10), F(1, 5), F(2)], [F(1)] * 3, F(1)),                # t > eps
    ([F(1, 10), F(1, 5), F(1)], [F(1)] * 3, F(1)),                # t = eps: allowed
])
def test_certify_feasible_chain_sign_and_eps(c, tilde, eps):
    assert certify_feasible(c, tilde, eps, Q) is feasible_oracle(c, tilde, eps, Q)


@pytest.mark.parametrize("side", [-1, 1])
def test_certify_feasible_log_constraint_at_its_edge(side):
    dt = F(3, 10)
    c1 = _edge(dt, HALF, Q, side)
    c = [c1, c1, HALF]
    tilde = [dt, dt, F(1)]
    expected = feasible_oracle(c, tilde, F(1), Q)
    assert expected is (side < 0)
    assert certify_feasible(c, tilde, F(1), Q) is expected


def test_certify_feasible_checks_every_distinct_pair_after_a_repeat():
    # the repeated pair (1/10, 3/10) is feasible; the third coordinate violates its log constraint
    c3 = _edge(F(2, 5), HALF, Q, +1)
    c = [F(1, 10), F(1, 10), c3, HALF]
    tilde = [F(3, 10), F(3, 10), F(2, 5), F(1)]
    assert feasible_oracle(c, tilde, F(1), Q) is False
    assert certify_feasible(c, tilde, F(1), Q) is False
    c3 = _edge(F(2, 5), HALF, Q, -1)
    c = [F(1, 10), F(1, 10), c3, HALF]
    assert feasible_oracle(c, tilde, F(1), Q) is True
    assert certify_feasible(c, tilde, F(1), Q) is True


def test_expand_groups_without_a_piece_is_the_piece_zero_point():
    inst = Instance([F(1, 4), F(1, 4), F(1, 2)], Q)
    assert expand_groups(inst, None, [], F(1, 4)) == [F(1, 4)] * 3


# ---------------------------------------------------------------- Instance helpers


def _mp_L_float(t, q):
    return mp.log(1 + mp.mpf(q) * mp.expm1(t))


@pytest.mark.parametrize("q", [F(1, 10), F(1, 2), F(9, 10)])
@pytest.mark.parametrize("t", [0.0, 0.5, 3.0, 40.0])
def test_Lpp_is_the_second_derivative_of_L(q, t):
    inst = Instance([F(1)], q)
    with mp.workdps(50):
        ref = mp.diff(lambda s: _mp_L_float(s, float(q)), mp.mpf(t), 2)
        assert abs(inst.Lpp(t) - ref) <= 1e-13 * abs(ref) + 1e-300


def test_Lpp_is_zero_for_q_zero_and_one():
    assert Instance([F(1)], F(0)).Lpp(400.0) == 0.0        # e^-2t underflows: no 0/0
    assert Instance([F(1)], F(0)).Lpp(0.5) == 0.0
    assert Instance([F(1)], F(1)).Lpp(3.0) == 0.0
    assert Instance([F(1)], F(1)).Lpp(-800.0) == 0.0      # L(t) = t for every real t


def _ulps(a: float, b) -> float:
    return abs(mp.mpf(a) - b) / math.ulp(float(b))


@pytest.mark.parametrize("q", [F(1, 10), F(1, 2), F(9, 10)])
@pytest.mark.parametrize("v", [0.1, 2.0, 29.5, 30.5, 45.0])
def test_Linv_inverts_L(q, v):
    inst = Instance([F(1)], q)
    with mp.workdps(50):
        ref = mp.findroot(lambda s: _mp_L_float(s, float(q)) - v, mp.mpf(v) + mp.log(1 / mp.mpf(float(q))))
        assert _ulps(inst.Linv(v), ref) <= 4


def test_Linv_edges_of_q():
    assert Instance([F(1)], F(0)).Linv(0.5) == math.inf
    one = Instance([F(1)], F(1))
    # L(t) = t for q = 1: the identity, returned exactly (log1p(expm1(v)) is not v for these floats)
    for v in (0.12441625857819272, 0.2300340220927577, 0.426701922130579, 0.5, 35.0):
        assert one.Linv(v) == v


def _contains(ball, ref) -> bool:
    lo, hi = ball_ends(ball)
    return mp.mpf(lo.numerator) / lo.denominator <= ref <= mp.mpf(hi.numerator) / hi.denominator


@pytest.mark.parametrize("q", [F(0), F(1, 3), F(1)])
def test_ball_L_and_Linv_enclose_60_digit_references(q):
    inst = Instance([F(1)], q)
    t = F(1, 7)
    with mp.workdps(60), arb_precision(128):
        assert _contains(inst.ball_L(ball_of(t)), mp_L(t, q))
        if q > 0:
            ref = mp.log(1 + mp.expm1(mp.mpf(1) / 7) / (mp.mpf(q.numerator) / q.denominator))
            assert _contains(inst.ball_Linv(ball_of(t)), ref)


def test_ball_L_and_Linv_are_exact_for_q_one():
    # L is the identity for q = 1: no rounding at all (the q = 1 pieces use these bounds as exact)
    inst = Instance([F(1)], F(1))
    with arb_precision(128):
        for f in (inst.ball_L, inst.ball_Linv):
            assert ball_ends(f(ball_of(F(1, 7)))) == ball_ends(ball_of(F(1, 7)))
            assert ball_ends(f(ball_of(F(1, 4)))) == (F(1, 4), F(1, 4))


def _next_up(x: float) -> float:
    return math.nextafter(x, math.inf)


@pytest.mark.parametrize(("level", "t_lo"), [(F(1, 3), 0.25), (F(7, 10), 0.6), (F(2), 1e-9)])
def test_clip_up_is_the_smallest_float_above_level_minus_L(level, t_lo):
    inst = Instance([F(1)], F(1, 3))
    with mp.workdps(60):
        ref = mp.mpf(level.numerator) / level.denominator - mp.log(1 + mp.expm1(mp.mpf(t_lo)) / 3)
        got = inst.clip_up(level, t_lo)
        assert got >= ref and math.nextafter(math.nextafter(got, -math.inf), -math.inf) < ref


@pytest.mark.parametrize(("level", "lo"), [(F(1, 3), 0.25), (F(7, 10), 0.0), (F(1, 2), 0.5 - 2.0 ** -50)])
def test_tmax_up_is_a_tight_float_above_Linv(level, lo):
    inst = Instance([F(1)], F(1, 3))
    with mp.workdps(60):
        v = mp.mpf(level.numerator) / level.denominator - mp.mpf(lo)
        ref = mp.log(1 + 3 * mp.expm1(v))
        got = inst.tmax_up(level, lo)
        assert got >= ref and math.nextafter(math.nextafter(got, -math.inf), -math.inf) < ref


@pytest.mark.parametrize(("x", "k"), [
    (F(0), 0), (F(1), 0), (F(3, 2), 0), (F(-5), 0),             # no cancellation at 0 or |x| >= 1
    (F(1, 2), 0), (F(-1, 2), 0), (F(1, 3), 1), (F(1, 4), 1),
    (F(1, 2**10), 9), (F(3, 2**11), 9), (F(1, 10**300), 996),
    (F(1, 10**400), 4000),                                      # below the float range: the cap
])
def test_cancellation_bits_is_log2_of_one_over_x(x, k):
    # oracle: -e for the integer e with 2^(e-1) <= |x| < 2^e (exact comparisons), capped at 4000, and
    # the cap itself when x is not 0 but below the float range
    if 0 < abs(x) < 1:
        e = 0
        while F(2) ** (e - 1) > abs(x):
            e -= 1
        assert (min(4000, -e) if float(x) != 0 else 4000) == k
    assert cancellation_bits(x) == k


def _mp(x: F):
    return mp.mpf(x.numerator) / x.denominator


@pytest.mark.parametrize(("q", "t_lo", "t_hi", "a"), [
    (F(1, 3), 0.25, 0.75, F(1, 5)),
    (F(1, 3), 0.25, 0.75, F(9, 10)),
    (F(9, 10), 2.0, 2.5, F(1, 2)),
    (F(1, 10), 1e-30, 3e-30, F(1, 20)),        # tiny t: the cancellation in e^t - 1 needs extra bits
    (F(1), 0.5, 0.75, F(2)),                   # q = 1, a != 1: L(t) - a t = -t, min -3/4
])
def test_cut_offset_is_the_midpoint_tangent_bound(q, t_lo, t_hi, a):
    """m <= min over [t_lo, t_hi] of L(t) - a t (L convex: above its tangent at the midpoint t0), and m
    is that tangent bound L(t0) - a t0 - |L'(t0) - a| w (w the half width), up to rounding."""
    inst = Instance([F(1)], q)
    m = inst.cut_offset(t_lo, t_hi, a)
    with mp.workdps(80):
        qq, aa = _mp(q), _mp(a)
        g = lambda t: mp.log(1 + qq * mp.expm1(t)) - aa * t
        lo, hi = mp.mpf(t_lo), mp.mpf(t_hi)
        true_min = min(g(lo), g(hi))
        dg = lambda t: qq * mp.exp(t) / (1 + qq * mp.expm1(t)) - aa
        if dg(lo) < 0 < dg(hi):
            true_min = g(mp.findroot(dg, (lo, hi), solver="bisect"))
        t0, w = (lo + hi) / 2, (hi - lo) / 2
        ref = g(t0) - abs(dg(t0)) * w
        assert _mp(m) <= true_min
        assert ref - mp.mpf(2) ** -80 * (abs(ref) + abs(t0)) <= _mp(m) <= ref


def test_cut_offset_is_exact_when_L_minus_t_vanishes():
    # q = 1, a = 1: L(t) - t is identically 0, and so is the offset
    assert Instance([F(1)], F(1)).cut_offset(0.25, 0.75, F(1)) == 0


# ---------------------------------------------------------------- rational_point


def _piece(levels_counts: list[tuple[F, int]], q: F, j: int) -> Piece:
    tilde = [lv for lv, n in levels_counts for _ in range(n)]
    return Piece(Instance(tilde, q), j)


def _check_feasible_point(piece: Piece, out: list[F]) -> None:
    """0 <= x_1 <= ... <= x_j <= t, t in [l_j, l_{j+1}], x_g + L(t) <= l_g (80-digit mpmath)."""
    t = out[-1]
    assert out[0] >= 0 and all(a <= b for a, b in zip(out, out[1:]))
    assert piece.t_lo_exact <= t <= piece.t_hi_exact
    with mp.workdps(80):
        Lt = mp_L(t, piece.inst.q)
        for g in range(piece.j):
            assert mp.mpf(out[g].numerator) / out[g].denominator + Lt <= mp.mpf(piece.ell[g].numerator) / piece.ell[g].denominator


@pytest.mark.parametrize("attempt", [0, 1, 2, 3])
def test_rational_point_active_bound_is_a_26_digit_lower_bound_with_the_margin(attempt):
    # q = 3/10, levels 1/3 < 1/2: piece 1 has t in [1/3, 1/2] (L^{-1}(1/3) = 0.84 caps nothing)
    piece = _piece([(F(1, 3), 2), (F(1, 2), 3)], Q, 1)
    tf = 0.41234567890123456
    with mp.workdps(60):
        bf = float(mp.mpf(1) / 3 - mp_L(F(tf), Q))
    out = rational_point(piece, [bf, tf], attempt)
    assert out[-1] == decimal_round(tf)                   # interior t: 16 digits
    margin = F(1, 10 ** (24 - 4 * attempt))
    with mp.workdps(80):
        b = mp.mpf(1) / 3 - mp_L(out[-1], Q)
        x = mp.mpf(out[0].numerator) / out[0].denominator
        top = b * (1 - mp.mpf(margin.numerator) / margin.denominator)
        assert top * (1 - mp.mpf(10) ** -25) <= x <= top   # 26 digits below (l - L(t)) (1 - margin)
    assert sig_digits_at_most(out[0], 26) and not sig_digits_at_most(out[0], 20)
    _check_feasible_point(piece, out)


def test_rational_point_interior_and_merged_coordinates():
    # q = 3/10, levels 1/3 < 1/2 < 3/5: piece 2 has (x_1, x_2, t), t in [1/2, 3/5]
    piece = _piece([(F(1, 3), 1), (F(1, 2), 1), (F(3, 5), 4)], Q, 2)
    tf = 0.55
    # interior: both well below their bounds (about 0.135 and 0.30) and below the next value
    out = rational_point(piece, [0.0512345678901234567, 0.101234567890123456, tf], 0)
    assert out == [decimal_round(0.0512345678901234567), decimal_round(0.101234567890123456), decimal_round(tf)]
    # merged: x_1 within 1e-9 (relative, inclusive) below x_2 takes x_2's value
    x2 = 0.1
    for x1 in (x2 * (1 - 0.5e-9), float(F(1, 10)) * (1 - 1e-9)):
        out = rational_point(piece, [x1, x2, tf], 0)
        assert out[0] == out[1] == F(1, 10)
    # just outside the window: x_1 keeps its own 16 digits
    x1 = x2 * (1 - 3e-9)
    out = rational_point(piece, [x1, x2, tf], 0)
    assert out[0] == decimal_round(x1) < out[1]
    _check_feasible_point(piece, out)


def test_rational_point_keeps_the_chain_when_the_next_value_is_lower():
    # x_1 sits on its bound (about 0.113) but x_2 = 0.05 is interior: x_1 becomes x_2
    piece = _piece([(F(1, 3), 1), (F(1, 2), 1), (F(1), 4)], Q, 2)
    tf = 0.6
    with mp.workdps(60):
        b1 = float(mp.mpf(1) / 3 - mp_L(F(tf), Q))
    out = rational_point(piece, [b1, 0.05, tf], 0)
    assert out == [F(1, 20), F(1, 20), F(3, 5)]
    _check_feasible_point(piece, out)


def test_rational_point_active_test_is_relative_and_inclusive():
    # q = 0: the bound of x_1 is l_1 = 1/3 exactly; active iff x >= bf - 1e-9 |bf| (bf = float(1/3))
    piece = _piece([(F(1, 3), 2), (F(1), 3)], F(0), 1)
    bf = float(F(1, 3))
    out = rational_point(piece, [bf - 1e-9 * abs(bf), 0.8], 0)
    assert out[0] == F(1, 3)
    x = bf - 1e-9                      # 3e-9 relative below: not active, keeps 16 digits
    out = rational_point(piece, [x, 0.8], 0)
    assert out[0] == decimal_round(x)
    _check_feasible_point(piece, out)


def _snap_edge_floats(sign: int) -> tuple[float, float]:
    """(tf, h) with |tf - h| == 1e-9 |tf| exactly in floats, tf below h (sign 1) or above it (-1)."""
    for K in range(9_000_000, 9_000_400):
        tol = K * 2.0 ** -53                      # a multiple of ulp(tf) for tf in [1/2, 1)
        tf = tol / 1e-9
        if 0.5 <= tf < 1 and 1e-9 * abs(tf) == tol:
            h = tf + sign * tol
            if abs(tf - h) == 1e-9 * abs(tf):
                return tf, h
    raise AssertionError("no edge float found")


def test_rational_point_t_snaps_to_the_ends_of_the_piece():
    # q = 0 (no cap from L^{-1}): piece 1 has t in [1/3, 7/10]
    piece = _piece([(F(1, 3), 1), (F(7, 10), 2)], F(0), 1)
    x = 0.1
    assert rational_point(piece, [x, float(F(7, 10)) * (1 - 0.5e-9)], 0)[-1] == F(7, 10)
    assert rational_point(piece, [x, float(F(1, 3)) * (1 + 0.5e-9)], 0)[-1] == F(1, 3)
    tf = float(F(7, 10)) - 1e-9                   # 1.4e-9 relative: not snapped
    assert rational_point(piece, [x, tf], 0)[-1] == decimal_round(tf)
    tf = float(F(1, 3)) + 1e-9
    assert rational_point(piece, [x, tf], 0)[-1] == decimal_round(tf)
    # exactly at the tolerance: snapped (inclusive)
    tf, h = _snap_edge_floats(1)
    piece = _piece([(F(1, 3), 1), (F(h), 2)], F(0), 1)
    assert rational_point(piece, [x, tf], 0)[-1] == F(h) != decimal_round(tf)
    tf, h = _snap_edge_floats(-1)
    piece = _piece([(F(h), 1), (F(1), 2)], F(0), 1)
    assert rational_point(piece, [x, tf], 0)[-1] == F(h) != decimal_round(tf)


def test_rational_point_caps_t_at_L_inverse_of_the_first_level():
    # q = 1/2, levels 1/10 < 1: x_1 > 0 needs t < L^{-1}(1/10) = 0.1909...
    piece = _piece([(F(1, 10), 1), (F(1), 2)], HALF, 1)
    out = rational_point(piece, [0.05, 0.5], 0)
    with mp.workdps(60):
        ref = mp.log(1 + 2 * mp.expm1(mp.mpf(1) / 10))
        t = mp.mpf(out[-1].numerator) / out[-1].denominator
        assert ref * (1 - mp.mpf(2) ** -100) <= t <= ref
    _check_feasible_point(piece, out)


def test_rational_point_at_tiny_levels_keeps_full_accuracy():
    # levels 1e-30 < 3e-30, q = 1/10: the cancellation in e^t - 1 needs the extra working bits
    piece = _piece([(F(1, 10**30), 1), (F(3, 10**30), 2)], F(1, 10), 1)
    tf = 2e-30
    out = rational_point(piece, [1e-30, tf], 0)
    assert out[-1] == decimal_round(tf)
    with mp.workdps(80):
        b = mp.mpf(10) ** -30 - mp_L(out[-1], F(1, 10))
        x = mp.mpf(out[0].numerator) / out[0].denominator
        assert b * (1 - mp.mpf(10) ** -23) <= x <= b
    _check_feasible_point(piece, out)


def test_rational_point_q_one_uses_the_exact_bound():
    # q = 1: L(t) = t, so the bound l_1 - t is rational and used as it is (no margin); t is capped
    # at a lower bound of L^{-1}(1/10) = 1/10
    piece = _piece([(F(1, 10), 1), (F(1), 2)], F(1), 1)
    out = rational_point(piece, [0.05, 0.5], 0)
    t = out[-1]
    assert F(1, 10) - F(1, 2**120) <= t <= F(1, 10)
    assert out[0] == F(1, 10) - t


# ---------------------------------------------------------------- polish


def _golden(g, a: float, b: float, iters: int = 90) -> tuple[float, float]:
    r = (math.sqrt(5) - 1) / 2
    c, d = b - r * (b - a), a + r * (b - a)
    gc, gd = g(c), g(d)
    for _ in range(iters):
        if gc < gd:
            b, d, gd = d, c, gc
            c = b - r * (b - a)
            gc = g(c)
        else:
            a, c, gc = c, d, gd
            d = a + r * (b - a)
            gd = g(d)
    x = (a + b) / 2
    return x, g(x)


def _L_float(t: float, q: float) -> float:
    if q == 0:
        return 0.0
    return math.log1p(q * math.expm1(t))


def _two_variable_minimum(n1: int, n2: int, q: float, l1: float, t_lo: float, t_hi: float) -> float:
    """min of n1/S_1 + n2/S_2 (S_1 = x^2/(n1+n2), S_2 = S_1 + (t-x)^2/n2) over 0 < x <= l1 - L(t),
    t in [t_lo, t_hi]: golden section in x inside a grid-then-golden search in t."""
    N1, N2 = n1 + n2, n2

    def inner(t: float) -> float:
        u = min(l1 - _L_float(t, q), t)
        if u <= 0:
            return math.inf
        return _golden(lambda x: n1 / (x * x / N1) + n2 / (x * x / N1 + (t - x) ** 2 / N2), 0.0, u)[1]

    ts = np.linspace(t_lo, t_hi, 101)
    vals = [inner(t) for t in ts]
    k = int(np.argmin(vals))
    return min(vals[k], _golden(inner, ts[max(k - 1, 0)], ts[min(k + 1, 100)])[1])


def _objective(n: list[int], z: list[float]) -> float:
    """sum_g n_g / S_g with S_g = sum_{h<=g} (z_h - z_{h-1})^2 / N_h (eq. (17) on the groups)."""
    N = [sum(n[g:]) for g in range(len(n))]
    S, tot, prev = 0.0, 0.0, 0.0
    for g, zg in enumerate(z):
        S += (zg - prev) ** 2 / N[g]
        prev = zg
        tot += n[g] / S
    return tot


def _assert_float_feasible(piece: Piece, z: list[float]) -> None:
    zf = [F(v) for v in z]
    assert zf[0] > 0 and all(a <= b for a, b in zip(zf, zf[1:]))
    assert piece.t_lo_exact <= zf[-1] <= piece.t_hi_exact
    with mp.workdps(60):
        Lt = mp_L(zf[-1], piece.inst.q)
        assert all(mp.mpf(z[g]) + Lt <= mp.mpf(piece.ell[g].numerator) / piece.ell[g].denominator
                   for g in range(piece.j))


@pytest.mark.parametrize(("levels", "q", "starts"), [
    ([(F(1, 2), 2), (F(1), 3)], F(1, 4), [[0.25, 0.75], [0.1, 0.55], [1e-4, 0.75]]),  # t interior, x on its bound
    ([(F(1, 2 * 10**6), 2), (F(1, 10**6), 3)], F(1, 4), [[0.25e-6, 0.75e-6]]),  # tiny scale
    ([(F(1, 2 * 10**145), 2), (F(1, 10**145), 3)], F(1, 4), [[0.25e-145, 0.75e-145]]),  # F near 1e292
    ([(F(500), 2), (F(1000), 3)], F(0), [[250.0, 750.0]]),                        # large scale, F < 1
    ([(F(5 * 10**5), 2), (F(10**6), 3)], F(0), [[2.5e5, 7.5e5]]),                 # F near 1e-11
])
def test_polish_reaches_the_minimum_of_a_two_variable_piece(levels, q, starts):
    piece = _piece(levels, q, 1)
    n1, n2 = levels[0][1], levels[1][1]
    best = _two_variable_minimum(n1, n2, float(q), float(levels[0][0]), float(levels[0][0]), float(levels[1][0]))
    for z0 in starts:
        z = polish(piece, z0)
        _assert_float_feasible(piece, z)
        value = _objective([n1, n2], z)
        assert value <= _objective([n1, n2], z0)
        assert abs(value - best) <= 1e-11 * best


@pytest.mark.parametrize(("n", "z0", "rel"), [
    ([1, 1, 20], [0.25, 0.3, 0.8], 1e-11),
    ([1, 5, 20], [0.25, 0.3, 0.8], 1e-11),
    ([3, 1, 20], [0.25, 0.3, 0.8], 1e-11),
    ([1, 5, 20], [1e-4, 1e-4, 0.8], 1e-9),      # far from the minimum (objective 4e7 at the start)
])
def test_polish_reaches_the_minimum_of_a_three_variable_piece_with_merged_groups(n, z0, rel):
    # levels 1/2, 3/5 and 1 (n_1, n_2, n_3 = 20 coordinates), q = 1/10, piece 2: at the minimum
    # x_1 = x_2 (the chain constraint is active; without it x_2 would drop below x_1) and t = 1
    from scipy.optimize import Bounds, LinearConstraint, NonlinearConstraint, minimize

    piece = _piece([(F(1, 2), n[0]), (F(3, 5), n[1]), (F(1), n[2])], F(1, 10), 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = minimize(lambda z: _objective(n, list(z)), [0.2, 0.3, 0.8], method="trust-constr",
                       constraints=[LinearConstraint([[1, -1, 0], [0, 1, -1]], -np.inf, 0),
                                    NonlinearConstraint(lambda z: [z[0] + _L_float(z[2], 0.1),
                                                                   z[1] + _L_float(z[2], 0.1)], -np.inf, [0.5, 0.6])],
                       bounds=Bounds([1e-9, 1e-9, 0.6], [1.0, 1.0, 1.0]),
                       options={"gtol": 1e-14, "xtol": 1e-15, "maxiter": 3000})
    assert ref.constr_violation <= 1e-15
    z = polish(piece, z0)
    _assert_float_feasible(piece, z)
    assert abs(_objective(n, z) - ref.fun) <= rel * ref.fun
    assert abs(z[0] - z[1]) <= 1e-9 * z[1] and z[2] == 1.0


def test_polish_of_a_polished_point_keeps_the_polished_point_at_a_tie():
    # the docstring: the polished point is returned when its objective is not above F(z), ties included
    piece = _piece([(F(1, 2), 2), (F(1), 3)], F(1, 4), 1)
    z1 = polish(piece, [0.25, 0.75])
    z2 = polish(piece, z1)
    assert piece.F(np.array(z2)) <= piece.F(np.array(z1))
    assert z2 is not z1


def test_polish_returns_the_start_when_its_objective_is_infinite():
    # x_1 = 0: S_1 = 0, the objective is +inf and cannot be used as a scale
    piece = _piece([(F(1, 2), 2), (F(1), 3)], F(1, 4), 1)
    z0 = [0.0, 0.75]
    assert polish(piece, z0) is z0


def test_polish_does_not_return_a_worse_point():
    # a start that is not feasible (x_1 above its bound) has a smaller objective than any feasible
    # point of the piece: the polished (feasible) point is worse, so the start is returned
    piece = _piece([(F(1, 2), 2), (F(1), 3)], F(1, 4), 1)
    z0 = [0.45, 0.99]
    assert polish(piece, z0) is z0


# ---------------------------------------------------------------- the step-3 bound (relaxation)


def _three_group_piece() -> Piece:
    return _piece([(F(1, 2), 1), (F(3, 5), 1), (F(1), 20)], F(1, 10), 2)


def test_constraints_are_the_chain_and_the_cuts():
    # z_{h-1} - z_h <= 0 for h = 2, 3; z_g + a t <= l_g - m for g = 1, 2 (method, step 3)
    a, m = F(1, 3), F(1, 50)
    rows, rhs = constraints(_three_group_piece(), a, m)
    assert rows == [[1, -1, 0], [0, 1, -1], [1, 0, a], [0, 1, a]]
    assert rhs == [0, 0, F(1, 2) - m, F(3, 5) - m]
    # q = 0: no cuts
    rows, rhs = constraints(_piece([(F(1, 2), 1), (F(3, 5), 1), (F(1), 20)], F(0), 2), a, m)
    assert rows == [[1, -1, 0], [0, 1, -1]] and rhs == [0, 0]


def _sympy_bound(n, N, lo, hi, s, o, rows, rhs, z, y):
    """R(z) + y.(A z - b) + sum_h [min(r_h lo_h, r_h hi_h) - r_h z_h], r = grad R + A^T y, with
    R = sum_g n_g / T_g and T_g = sum_{h<=g} (s_h (z_h - z_{h-1}) - o_h) / N_h (method, step 3);
    the gradient by sympy's differentiation."""
    p = len(z)
    zs = sympy.symbols(f"z0:{p}")
    R_expr, T, prev = 0, 0, 0
    for h in range(p):
        T = T + (sympy.Rational(s[h]) * (zs[h] - prev) - sympy.Rational(o[h])) / N[h]
        prev = zs[h]
        R_expr = R_expr + sympy.Rational(n[h]) / T
    at = {zs[k]: sympy.Rational(z[k]) for k in range(p)}
    r = [sympy.diff(R_expr, zs[k]).subs(at) for k in range(p)]
    total = R_expr.subs(at)
    for i, row in enumerate(rows):
        total += sympy.Rational(y[i]) * (sum(sympy.Rational(row[k]) * at[zs[k]] for k in range(p)) - sympy.Rational(rhs[i]))
        r = [r[k] + sympy.Rational(y[i]) * sympy.Rational(row[k]) for k in range(p)]
    for k in range(p):
        total += min(r[k] * sympy.Rational(lo[k]), r[k] * sympy.Rational(hi[k])) - r[k] * at[zs[k]]
    return F(int(sympy.fraction(total)[0]), int(sympy.fraction(total)[1]))


def test_bound_formula_in_fractions_against_sympy():
    piece = _three_group_piece()
    a, m = F(1, 3), F(1, 50)
    rows = [[1, -1, 0], [0, 1, -1], [1, 0, a], [0, 1, a]]
    rhs = [F(0), F(0), F(1, 2) - m, F(3, 5) - m]
    lo, hi = [F(1, 4), F(1, 3), F(3, 4)], [F(1, 3), F(1, 2), F(1)]
    s, o = [F(3, 2), F(7, 5), F(9, 4)], [F(1, 10), F(1, 20), F(1, 30)]
    z = [F(3, 10), F(2, 5), F(4, 5)]
    for y in ([F(0), F(1), F(1, 2), F(2)], [F(1, 3), F(0), F(0), F(1)]):
        got = bound_formula(piece, lo, hi, s, o, rows, rhs, z, y)
        assert got == _sympy_bound(piece.n_int, piece.N_int, lo, hi, s, o, rows, rhs, z, y)


def test_bound_formula_outside_E_is_none():
    # T_1 = (s_1 z_1 - o_1) / N_1 = 0 at z_1 = o_1 / s_1: z^ is not in E
    piece = _three_group_piece()
    rows, rhs = [[1, -1, 0], [0, 1, -1]], [F(0), F(0)]
    lo, hi = [F(0), F(0), F(3, 5)], [F(1), F(1), F(1)]
    s, o = [F(3, 2), F(7, 5), F(9, 4)], [F(1, 10), F(1, 20), F(1, 30)]
    assert bound_formula(piece, lo, hi, s, o, rows, rhs, [F(1, 15), F(2, 5), F(4, 5)], [F(0), F(0)]) is None
    assert bound_formula(piece, lo, hi, s, o, rows, rhs, [F(1, 20), F(2, 5), F(4, 5)], [F(0), F(0)]) is None


@pytest.mark.parametrize(("lo", "hi"), [
    ([F(1, 4), F(1, 3), F(3, 4)], [F(1, 3), F(1, 2), F(1)]),
    ([F(1, 10), F(1, 2), F(3, 5)], [F(1, 5), F(2, 5), F(7, 10)]),    # hi_2 < lo_1: Dmax_2 = 0
])
def test_crude_bound_in_fractions(lo, hi):
    # sum_g n_g / sum_{h<=g} Dmax_h^2 / N_h, Dmax_h = max(hi_h - lo_{h-1}, 0), lo_0 = 0 (method, step 3)
    piece = _three_group_piece()
    n, N = [1, 1, 20], [22, 21, 20]
    dmax = [max(hi[h] - (lo[h - 1] if h else 0), 0) for h in range(3)]
    expected = sum(F(n[g]) / sum(dmax[h] ** 2 / N[h] for h in range(g + 1)) for g in range(3))
    assert crude_bound(piece, lo, hi) == expected


def test_crude_bound_is_infinite_when_a_box_allows_no_increment():
    piece = _three_group_piece()
    assert crude_bound(piece, [F(0), F(0), F(1, 2)], [F(0), F(1, 2), F(1)]) == math.inf


@pytest.mark.parametrize("q", [F(1, 10), F(1, 2), F(1)])
def test_cut_slope_is_L_prime_at_the_midpoint(q):
    piece = _piece([(F(1, 2), 1), (F(3, 5), 1), (F(1), 20)], q, 2)
    with mp.workdps(50):
        ref = mp.diff(lambda t: _mp_L_float(t, float(q)), mp.mpf(0.7))
    got = _cut_slope(piece, 0.6, 0.8)
    assert abs(got - ref) <= 1e-15 * ref
    if q == 1:
        assert got == 1.0
