"""The arb re-check of a D* certificate (bcdp.partial.dstar._verify_with_intervals; partial DP paper
arXiv:2209.04053, Sec. 2, Def. 2), tested one inequality at a time on hand-built certificates,
written against the survivors of the mutation gate (package partial).

The re-check's contract (its docstring and the module docstring): (i) lower <= KL; (ii) on each
[a, b] of the cover the quadratic bound phi(a) + phi'(a) t + (V - 2 rho) t^2 / 2 of
phi_rho(lambda) = K(lambda) - rho lambda (lambda - 1) is <= 0 for t in [0, b - a] (divided by t
when a = 1: KL - rho + (V - 2 rho) t / 2), V = sum_y pi_a(y) (l_y - K'(a))^2 max(1, e^{(b - a)(l_y
- K'(a))}) (bcdp.core.divergences.LogMgf.curvature_bound); (iii) the tail at Lambda:
phi_rho(Lambda) <= 0 and D_inf - rho (2 Lambda - 1) <= 0; every decision on arb balls, so a ball
straddling a threshold fails.  A cover may list any items; each is checked on its own.

Oracle: the same quantities evaluated in the test with mpmath at 120 digits from the printed
formulas, K(lambda) = log sum_y P(y)^lambda Q(y)^(1 - lambda), K' the mean of l_y = log(P(y)/Q(y))
under the tilted law pi_lambda(y) ~ P(y)^lambda Q(y)^(1 - lambda); rho is solved in the test so
that the bound or tail quantity takes a chosen value just above or below 0.  For P = Q = (1,)
every quantity is exactly 0 (exact balls), which pins the non-strict inequalities.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from bcdp.partial.dstar import RECHECK_GUARD_BITS, _verify_with_intervals, recheck_bits
from dstar_oracle import DstarOracle

WDPS = 65
DIGITS = 120
#: interior maximiser, largest log-ratio first
A = ((F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6)))
#: the same kind of law with the largest log-ratio second
B = ((F(1, 2), F(1, 2)), (F(7, 8), F(1, 8)))
ONE = ((F(1),), (F(1),))


def solve_rho(fn, target, lo, hi):
    """rho in [lo, hi] with fn(rho) = target, fn decreasing (bisection at the current precision)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    assert fn(lo) > target > fn(hi)
    for _ in range(DIGITS * 4):
        mid = (lo + hi) / 2
        if fn(mid) > target:
            lo = mid
        else:
            hi = mid
    return hi if target < 0 else lo


def verify(case, rho, cover, lower=0):
    P, Q = case
    return _verify_with_intervals(P, Q, mpmath.mpf(lower), rho, None, cover, WDPS)


# -- exact zeros: P = Q = (1,) makes every ball a point ------------------------------------------

def test_exact_zero_certificate_is_accepted_by_every_check():
    # K = 0, KL = 0, D_inf = 0 exactly; rho = 0: lower = KL, phi = 0 on the tail, on [1, b] and on
    # [a, b]: each inequality holds with equality, and the checks are "<= 0"
    z = mpmath.mpf(0)
    assert verify(ONE, z, [], lower=z) is True                       # (i) lower <= KL
    assert verify(ONE, z, [("tail", mpmath.mpf(2))]) is True         # (iii)
    assert verify(ONE, z, [(mpmath.mpf(1), mpmath.mpf(2))]) is True  # (ii), divided bound
    assert verify(ONE, z, [(mpmath.mpf(2), mpmath.mpf(3))]) is True  # (ii)


def test_exact_zero_certificate_fails_on_the_wrong_side():
    z, tiny = mpmath.mpf(0), mpmath.mpf(2) ** -300
    assert verify(ONE, z, [], lower=tiny) is False                   # lower above KL = 0
    assert verify(ONE, -tiny, [("tail", mpmath.mpf(2))]) is False    # phi(2) = 2 tiny > 0
    assert verify(ONE, -tiny, [(mpmath.mpf(1), mpmath.mpf(2))]) is False
    assert verify(ONE, -tiny, [(mpmath.mpf(2), mpmath.mpf(3))]) is False


def test_recheck_precision_is_the_search_precision_plus_the_guard_bits():
    # recheck_bits: wdps decimal digits in bits (3.33 per digit, log2(10) = 3.3219...) plus the guard
    for wdps in (65, 80, 200, 1000):
        extra = recheck_bits(wdps) - RECHECK_GUARD_BITS
        assert wdps * mpmath.log(10, 2) - 1 <= extra <= wdps * mpmath.log(10, 2) * mpmath.mpf("1.003")


# -- the tail (iii) -------------------------------------------------------------------------------

def tail_case(case, lam, which, value):
    """rho with phi_rho(lam) = value ("phi") or D_inf - rho (2 lam - 1) = value ("slope")."""
    o = DstarOracle(case)
    if which == "phi":
        return o, solve_rho(lambda r: o.phi(r, lam), value, 0, 100)
    return o, (o.d_inf - value) / (2 * lam - 1)


@pytest.mark.parametrize("case", [A, B])
def test_tail_with_phi_slightly_positive_is_rejected(case):
    with mpmath.workdps(DIGITS):
        lam = mpmath.mpf(20)
        o, rho = tail_case(case, lam, "phi", mpmath.mpf("1e-6"))
        assert o.d_inf - rho * (2 * lam - 1) < -rho  # the slope condition holds with room
        assert verify(case, rho, [("tail", lam)]) is False


@pytest.mark.parametrize("case", [A, B])
def test_tail_with_slope_slightly_positive_is_rejected(case):
    with mpmath.workdps(DIGITS):
        lam = mpmath.mpf(2)
        o, rho = tail_case(case, lam, "slope", mpmath.mpf("1e-6"))
        assert o.phi(rho, lam) < -mpmath.mpf("1e-3")  # phi(Lambda) <= 0 with room
        assert verify(case, rho, [("tail", lam)]) is False


@pytest.mark.parametrize("case", [A, B])
def test_tail_valid_by_a_small_margin_is_accepted(case):
    with mpmath.workdps(DIGITS):
        lam = mpmath.mpf(20)
        o, rho = tail_case(case, lam, "phi", mpmath.mpf("-1e-6"))
        assert o.d_inf - rho * (2 * lam - 1) < -rho
        assert verify(case, rho, [("tail", lam)]) is True
        lam = mpmath.mpf(2)
        o, rho = tail_case(case, lam, "slope", mpmath.mpf("-1e-6"))
        assert o.phi(rho, lam) < -mpmath.mpf("1e-3")
        assert verify(case, rho, [("tail", lam)]) is True


@pytest.mark.parametrize("case", [A, B])
def test_tail_slope_straddling_its_threshold_is_rejected(case):
    # rho (2 Lambda - 1) just below D_inf = max l_y, by far less than the width of arb's ball of
    # l_y at the re-check precision: the slope condition is false, and only an upper end of the
    # ball of the largest l_y shows it
    with mpmath.workdps(DIGITS):
        o = DstarOracle(case)
        lam = mpmath.mpf("1.5")  # 2 Lambda - 1 = 2: R (2 Lambda - 1) is exact
        rho = o.d_inf * (1 - mpmath.mpf(2) ** -(recheck_bits(WDPS) + 24)) / 2
        assert o.d_inf - rho * (2 * lam - 1) > 0 and o.phi(rho, lam) < 0
        assert verify(case, rho, [("tail", lam)]) is False


# -- one interval of the cover (ii) --------------------------------------------------------------

def interval_rho(o, a, b, value):
    """rho at which the bound on [a, b] (maximum over t) equals value."""
    return solve_rho(lambda r: o.bound(r, a, b), value, 0, 50)


MARGIN = "1e-6"  # how far the bound is from 0: far above the width of arb's balls (~1e-75 here)
# (case, a, b): [1, b] with V - 2 rho > 0 at the solved rho; [a, b] convex (V > 2 rho); [a, b]
# concave (V < 2 rho) with the maximum of the bound at its vertex, inside (0, b - a)
DIVIDED = [(A, "1", "1.25"), (B, "1", "1.5")]
CONVEX = [(A, "1.5", "1.9"), (B, "1.2", "2")]
CONCAVE = [(A, "2.2", "2.6"), (A, "2", "2.8")]


def shape(o, rho, a, b):
    """(f0, f1, curvature) of the bound on [a, b] for a > 1."""
    k0, k1, _pi = o.tilted(a)
    return k0 - rho * a * (a - 1), k1 - rho * (2 * a - 1), o.V(a, b) - 2 * rho


@pytest.mark.parametrize("case,a,b", DIVIDED)
@pytest.mark.parametrize("sign", [1, -1])
def test_divided_bound_on_the_first_interval(case, a, b, sign):
    with mpmath.workdps(DIGITS):
        o, a, b = DstarOracle(case), mpmath.mpf(a), mpmath.mpf(b)
        rho = interval_rho(o, a, b, sign * mpmath.mpf(MARGIN))
        assert o.kl - rho < 0 < o.V(a, b) - 2 * rho  # the maximum is at t = b - 1
        assert verify(case, rho, [(a, b)]) is (sign < 0)


@pytest.mark.parametrize("case,a,b", CONVEX)
@pytest.mark.parametrize("sign", [1, -1])
def test_convex_bound_on_an_interval(case, a, b, sign):
    with mpmath.workdps(DIGITS):
        o, a, b = DstarOracle(case), mpmath.mpf(a), mpmath.mpf(b)
        rho = interval_rho(o, a, b, sign * mpmath.mpf(MARGIN))
        f0, _f1, c = shape(o, rho, a, b)
        assert f0 < 0 < c  # the maximum is at t = b - a
        assert verify(case, rho, [(a, b)]) is (sign < 0)


@pytest.mark.parametrize("case,a,b", CONCAVE)
@pytest.mark.parametrize("sign", [1, -1])
def test_concave_bound_with_its_vertex_inside(case, a, b, sign):
    with mpmath.workdps(DIGITS):
        o, a, b = DstarOracle(case), mpmath.mpf(a), mpmath.mpf(b)
        rho = interval_rho(o, a, b, sign * mpmath.mpf(MARGIN))
        f0, f1, c = shape(o, rho, a, b)
        T = b - a
        assert c < 0 < f1 and f1 / (-c) < T and f0 < 0 and f0 + f1 * T + c * T * T / 2 < 0
        assert verify(case, rho, [(a, b)]) is (sign < 0)


@pytest.mark.parametrize("a,b", [("3", "3.2"), ("2.2", "2.6"), ("1.5", "1.9")])
def test_bound_exceeded_by_less_than_a_ball_width_is_rejected(a, b):
    # the bound on [a, b] is 2^-(re-check bits + 12) above 0 (at a = 3 through phi(3) itself, g
    # decreasing there; on [2.2, 2.6] at the vertex; on [1.5, 1.9] at t = b - a, convex): far below
    # the radius of arb's balls of phi, phi' and V, so only their upper ends can show it
    with mpmath.workdps(DIGITS):
        o, a, b = DstarOracle(A), mpmath.mpf(a), mpmath.mpf(b)
        eps = mpmath.mpf(2) ** -(recheck_bits(WDPS) + 12)
        rho = interval_rho(o, a, b, eps)
        assert 0 < o.bound(rho, a, b) < 2 * eps
        assert verify(A, rho, [(a, b)]) is False
