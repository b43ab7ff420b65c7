"""The rounding guards, the tail check and the interval budget of the D* certification search
(bcdp.partial.dstar._certify; partial DP paper arXiv:2209.04053, Sec. 2, Def. 2), written against
the survivors of the mutation gate (package partial).

Contract (module docstring): the search runs at ``wdps`` digits and "every decision keeps an explicit
guard of 10^-(wdps - 8) times the magnitudes involved"; the magnitudes are at least the scale of the
log-ratios, scale = 1 + max |l_y| + max |log Q(y)| (bcdp.core.divergences.LogMgf's docstring: what
callers multiply by the unit roundoff for their guards), and at the tail point Lambda the terms of
phi_rho(Lambda) are of size Lambda^2.  So a decision whose bound is within unit * scale / 8
(unit = 10^-(wdps - 8)) of 0, or a tail value within unit * Lambda^2 / 8 of 0, is never certified;
one far from 0 is.  _certify's docstring: the tail is checked first (a failure returns
(False, 0, Lambda)), at most ``max_intervals`` intervals are examined (the count includes bisected
ones), and a refusal names the midpoint of the interval the search stopped on.

Oracle: K(lambda) = log sum_y P(y)^lambda Q(y)^(1 - lambda), K' (tilted mean of l_y), the curvature
bound V of LogMgf.curvature_bound's docstring and the quadratic bound of the module docstring, with
mpmath at 120 digits; rho is solved in the test (bisection) so that a bound takes a chosen value.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.divergences import LogMgf, exact_pair
from bcdp.partial.dstar import _certify
from dstar_oracle import Counting, DstarOracle

WDPS = 65
DIGITS = 120
RR = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))                           # D* = KL, the limit lambda -> 1+
RB = ((F(999, 1000), F(1, 1000)), (F(1, 1000), F(999, 1000)))           # D* = KL, KL >> Var_P(l)
RA = ((F(1, 2), F(1, 2)), (F(1, 100), F(99, 100)))                       # Var_P(l) >> KL
RC = ((F(9, 10), F(1, 10)), (F(1, 500), F(499, 500)))                     # KL + 3/4 < Var_P(l) < 2 KL
INT = ((F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6)))    # interior maximiser, D* ~ 2.47
C4 = ((F(1, 2), F(1, 2)), (F(1, 8), F(7, 8)))                            # interior maximiser, D* ~ 0.43


def solve_rho(fn, target, lo, hi):
    """rho in [lo, hi] with fn(rho) = target, fn decreasing (bisection)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    assert fn(lo) > target > fn(hi)
    for _ in range(DIGITS * 4):
        mid = (lo + hi) / 2
        if fn(mid) > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def run(case, rho, grid, max_intervals=100000, done=None, counts=None):
    """_certify at WDPS digits with the documented unit 10^-(WDPS - 8) (rho kept at full precision)."""
    with mpmath.workdps(WDPS):
        model = Counting(LogMgf(*exact_pair(*case)))
        unit = mpmath.mpf(10) ** (-(WDPS - 8))
        out = _certify(model, rho, [+mpmath.mpf(x) for x in grid], None, unit, max_intervals, done)
    if counts is not None:
        counts.append(model.examined)
    return out


UNIT = mpmath.mpf(10) ** (-(WDPS - 8))


# -- the guard of the first interval [1, b] ------------------------------------------------------

@pytest.mark.parametrize("case", [RR, RB, RA, RC])
def test_first_interval_within_the_guard_is_never_certified(case):
    # rho = KL + unit * scale / 8: on [1, b] the divided bound is >= KL - rho = -unit * scale / 8
    # for every b, inside the guard, so no interval starting at 1 is ever kept and the search
    # stops on an interval at 1 (for RR and RB the claim D* <= rho is even true)
    o = DstarOracle(case, DIGITS)
    with mpmath.workdps(DIGITS):
        rho = o.kl + UNIT * o.scale / 8
    cover = []
    ok, n, suspect = run(case, rho, [2], done=cover)
    assert ok is False and n > 0 and suspect > 1
    assert cover[0][0] == "tail" and not any(item[0] == 1 for item in cover[1:])


@pytest.mark.parametrize("case", [RR, RB])
def test_first_interval_beyond_the_guard_is_certified(case):
    o = DstarOracle(case, DIGITS)
    with mpmath.workdps(DIGITS):
        rho = o.kl * (1 + mpmath.mpf("1e-45"))  # 1e-45 KL >> unit * scale * (1 + V + rho)
    assert run(case, rho, [2])[0] is True


# -- the guard of an interval [a, b], a > 1 ------------------------------------------------------

@pytest.mark.parametrize("case,a,b", [(INT, "1.5", "1.9"), (C4, "1.1", "4")])
def test_interval_within_the_guard_is_bisected(case, a, b):
    # rho solved so that the bound on [a, b] is -unit * scale / 8; rho is far above D*, so the
    # claim holds and the halves of [a, b] are certified, but [a, b] itself is not kept
    o = DstarOracle(case, DIGITS)
    with mpmath.workdps(WDPS):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
    with mpmath.workdps(DIGITS):
        rho = solve_rho(lambda r: o.bound(r, a, b), -UNIT * o.scale / 8, 0, 100)
        assert rho > 2 * o.gmax(1 + mpmath.mpf("1e-3"), 20)
    cover = []
    ok, _n, _s = run(case, rho, [a, b], done=cover)
    assert ok is True and (a, b) not in cover
    inside = sorted(x for x in cover[1:] if a <= x[0] and x[1] <= b)
    assert len(inside) > 1 and inside[0][0] == a and inside[-1][1] == b


@pytest.mark.parametrize("case,a,b", [(INT, "1.5", "1.9"), (C4, "1.1", "4")])
def test_interval_beyond_the_guard_is_kept(case, a, b):
    o = DstarOracle(case, DIGITS)
    with mpmath.workdps(WDPS):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
    with mpmath.workdps(DIGITS):
        rho = solve_rho(lambda r: o.bound(r, a, b), -mpmath.mpf("1e-40"), 0, 100)
    cover = []
    assert run(case, rho, [a, b], done=cover)[0] is True and (a, b) in cover


# -- the tail ------------------------------------------------------------------------------------

def tail_rho(value):
    """rho with phi_rho(40) = value for INT (then 40 already meets the slope condition of a tail
    point: D_inf - rho (2 * 40 - 1) < 0, since rho ~ g(40) ~ 0.2 > D_inf / 79)."""
    o = DstarOracle(INT, DIGITS)
    lam = mpmath.mpf(40)
    with mpmath.workdps(DIGITS):
        rho = solve_rho(lambda r: o.phi(r, lam), value, 0, 10)
        assert o.ell[0] - rho * (2 * lam - 1) < 0
    return rho


def check_tail(rho, lam, cover, ok, n, suspect, counts):
    """Lambda >= grid[-1] = lam; a failed tail check examines nothing and names Lambda; a tail point
    that was accepted (recorded first in the certificate) has phi_rho(Lambda) beyond the guard."""
    with mpmath.workdps(DIGITS):
        if n == 0:
            assert ok is False and counts == [0] and suspect >= lam and cover == []
        else:
            assert cover and cover[0][0] == "tail" and cover[0][1] >= lam
            tail = cover[0][1]
            assert DstarOracle(INT, DIGITS).phi(rho, tail) < -UNIT * tail * tail / 2


@pytest.mark.parametrize("value", ["-guard", "1e-6"])
def test_tail_inside_the_guard_is_not_certified(value):
    # phi_rho(40) inside the guard (-unit 40^2 / 8) or positive: 40 is not accepted as the tail point
    lam = mpmath.mpf(40)
    rho = tail_rho(-UNIT * lam * lam / 8 if value == "-guard" else mpmath.mpf(value))
    cover, counts = [], []
    ok, n, suspect = run(INT, rho, [lam], done=cover, counts=counts)
    assert ok is False  # rho ~ 0.2 is far below D* ~ 2.47 anyway
    check_tail(rho, lam, cover, ok, n, suspect, counts)


def test_tail_beyond_the_guard_lets_the_search_go_on():
    # phi_rho(40) = -1e-6: the tail is certified; rho ~ g(40) ~ 0.2 is far below D* ~ 2.47, so the
    # search then fails on an interval near the maximiser
    lam = mpmath.mpf(40)
    rho = tail_rho(-mpmath.mpf("1e-6"))
    cover, counts = [], []
    ok, n, suspect = run(INT, rho, [lam], done=cover, counts=counts)
    assert ok is False and n > 0 and 1 < suspect < lam
    check_tail(rho, lam, cover, ok, n, suspect, counts)


# -- the interval budget -------------------------------------------------------------------------

def test_budget_counts_every_examined_interval():
    # RR with rho = 2 KL = log 3 and grid [3/2]: the initial intervals are [1, 3/2] and
    # [3/2, Lambda] (Lambda from the certificate); their bounds are far below 0 (oracle), so the
    # search examines exactly these two, from lambda = 1 upward
    o = DstarOracle(RR, DIGITS)
    with mpmath.workdps(DIGITS):
        rho = 2 * o.kl
    first = []
    assert run(RR, rho, ["1.5"], done=first)[0] is True
    lam = first[0][1]
    with mpmath.workdps(WDPS):
        b = mpmath.mpf("1.5")
    with mpmath.workdps(DIGITS):
        assert o.bound(rho, mpmath.mpf(1), b) < -mpmath.mpf("0.1") and o.bound(rho, b, lam) < -mpmath.mpf("0.1")
    counts = []
    assert run(RR, rho, ["1.5"], max_intervals=2, counts=counts) == (True, 2, None) and counts == [2]
    counts = []
    ok, n, suspect = run(RR, rho, ["1.5"], max_intervals=1, counts=counts)
    assert (ok, n) == (False, 2) and counts == [1]  # the second interval is not examined
    with mpmath.workdps(WDPS):
        assert suspect == (b + lam) / 2                 # its midpoint is named
