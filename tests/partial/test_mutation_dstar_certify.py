"""The certification search of D* (bcdp.partial.dstar._certify; partial DP paper arXiv:2209.04053,
Sec. 2, Def. 2: D* = sup_{lambda > 1} D_lambda/lambda, and D* <= rho iff phi_rho(lambda) =
K(lambda) - rho lambda (lambda - 1) <= 0 on (1, inf)), written against the survivors of the mutation
gate (package partial).

Contract (module and function docstrings): _certify returns ok = True only when phi_rho <= 0 is
certified on (1, inf): a claim rho below D* is refused, a claim above D* by far more than the
working precision is certified; the certificate it writes into ``done`` covers (1, inf): the tail
("tail", Lambda) with phi_rho(Lambda) <= 0 and D_inf - rho (2 Lambda - 1) <= 0, then intervals
[a, b] from 1 to Lambda, each with its quadratic bound <= 0, and it passes the arb re-check; on a
refusal the suspicious lambda lies where the claim fails.

Oracle: K(lambda) = log sum_y P(y)^lambda Q(y)^(1 - lambda), K' (the tilted mean of
l_y = log(P(y)/Q(y))), the curvature bound V of LogMgf.curvature_bound's docstring and the
quadratic bound of the module docstring, evaluated in the test with mpmath at 120 digits; D* and
its maximiser from mpmath.findroot on g'(lambda) = 0 (g = K/(lambda(lambda - 1))), or D* = KL
when g decreases from lambda = 1+.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.divergences import LogMgf, exact_pair
from bcdp.partial.dstar import _certify, _verify_with_intervals
from dstar_oracle import Counting, DstarOracle

WDPS = 65
DIGITS = 120
RR = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))                     # D* = KL (limit lambda -> 1+)
INT = ((F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6)))  # interior maximiser ~ 2.37
C4 = ((F(1, 2), F(1, 2)), (F(1, 8), F(7, 8)))                       # interior maximiser ~ 1.47
#: D_inf / D* ~ 9.9 (maximiser ~ 5.45): the tail point is set by the slope condition, not the grid
SK = ((F(1, 10 ** 8), 1 - F(1, 10 ** 8)), (F(1, 10 ** 12), 1 - F(1, 10 ** 12)))
CASES = [RR, INT, C4, SK]


ORACLE = {}


def oracle(case):
    if case not in ORACLE:
        with mpmath.workdps(DIGITS):
            o = DstarOracle(case)
            ORACLE[case] = (o, *o.dstar())
    return ORACLE[case]


def run(case, rho, grid, lam_hat=None, max_intervals=100000, done=None, counts=None):
    """_certify at WDPS digits on exact rows (rho, grid, lam_hat rounded to WDPS digits), with the
    documented guard unit 10^-(WDPS - 8); the number of intervals examined is appended to counts."""
    with mpmath.workdps(WDPS):
        model = Counting(LogMgf(*exact_pair(*case)))
        unit = mpmath.mpf(10) ** (-(WDPS - 8))
        lam = None if lam_hat is None else +mpmath.mpf(lam_hat)
        out = _certify(model, +mpmath.mpf(rho), [+mpmath.mpf(x) for x in grid], lam, unit, max_intervals, done)
    if counts is not None:
        counts.append(model.examined)
    return out


# -- verdicts -------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("delta", ["1e-3", "1e-20", "1e-45"])
def test_claims_below_dstar_are_refused_where_they_fail(case, delta):
    o, lam, value = oracle(case)
    with mpmath.workdps(DIGITS):
        rho = value * (1 - mpmath.mpf(delta))
    for grid in ([2], [40]):
        for lam_hat in (None, lam):
            ok, n, suspect = run(case, rho, grid, lam_hat)
            assert ok is False and n > 0
            with mpmath.workdps(DIGITS):
                # the search stopped on an interval of width <= 1000 unit b around a point where
                # the claim fails or nearly fails
                assert suspect > 1 and o.phi(rho, suspect) > -mpmath.mpf(10) ** -(WDPS - 20)


def check_certificate(case, rho, cover):
    """The cover is a certificate of phi_rho <= 0 on (1, inf) by the oracle, and passes the re-check."""
    o, _lam, _value = oracle(case)
    assert cover[0][0] == "tail"
    tail, items = cover[0][1], sorted(cover[1:])
    with mpmath.workdps(DIGITS):
        assert o.phi(rho, tail) <= 0 and o.d_inf - rho * (2 * tail - 1) <= 0
        assert items[0][0] == 1 and items[-1][1] == tail
        assert all(x[1] == y[0] for x, y in zip(items, items[1:]))
        assert all(o.bound(rho, a, b) <= 0 for a, b in items)
    P, Q = case
    with mpmath.workdps(WDPS):
        assert _verify_with_intervals(P, Q, mpmath.mpf(0), +mpmath.mpf(rho), None, cover, WDPS) is True


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("delta", ["1e-30", "1e-45"])
def test_claims_above_dstar_are_certified_with_a_valid_cover(case, delta):
    _o, lam, value = oracle(case)
    with mpmath.workdps(DIGITS):
        rho = +(value * (1 + mpmath.mpf(delta)))
    for grid in ([2], [3], [40]):
        cover, counts = [("stale", 0)], []
        ok, n, suspect = run(case, rho, grid, lam, done=cover, counts=counts)
        assert ok is True and suspect is None
        assert n == counts[0] >= len(cover) - 1  # intervals examined: the cover's and the bisected ones
        check_certificate(case, rho, cover)


# -- the decision on one interval: kept if its bound is <= 0, bisected if not -----------------------

# (case, rho / D*, a, b); the grid is [a, b] (b also bounds the tail point from below), so [a, b] is
# an initial interval of the cover; the claim rho > D* holds, so every interval is examined
DECISIONS = [
    (INT, "1.01", "1", "1.3"),     # [1, b]: the divided bound
    (C4, "1.001", "1", "1.2"),
    (INT, "1.01", "1.5", "1.7"),   # convex bound, maximum at t = b - a
    (INT, "1.01", "2", "2.3"),     # concave, maximum at an end
    (INT, "1.001", "2.1", "2.3"),
    (INT, "1.01", "2", "2.2"),
    (INT, "1.01", "2.2", "2.6"),   # concave, maximum at the vertex
]


@pytest.mark.parametrize("case,factor,a,b", DECISIONS)
def test_an_interval_is_kept_exactly_when_its_bound_is_not_positive(case, factor, a, b):
    o, _lam, value = oracle(case)
    with mpmath.workdps(WDPS):  # the points as the search holds them
        a, b = mpmath.mpf(a), mpmath.mpf(b)
    with mpmath.workdps(DIGITS):
        rho = +(value * mpmath.mpf(factor))
        bound = o.bound(rho, a, b)
        assert abs(bound) > mpmath.mpf("1e-6")
    cover = []
    grid = [b] if a == 1 else [a, b]
    ok, _n, _s = run(case, rho, grid, done=cover)
    assert ok is True
    inside = sorted(x for x in cover[1:] if a <= x[0] and x[1] <= b)
    if bound < 0:
        assert inside == [(a, b)]
    else:  # bisected: several intervals cover [a, b]
        assert len(inside) > 1 and inside[0][0] == a and inside[-1][1] == b


def test_the_maximiser_estimate_is_a_breakpoint_of_the_cover():
    # _certify's docstring: the initial intervals are cut at 1, the grid, lam_hat and the tail point
    _o, _lam, value = oracle(INT)
    for lam_hat in ("1.7", "2.05", "3.3"):
        cover = []
        with mpmath.workdps(WDPS):
            x = +mpmath.mpf(lam_hat)
        assert run(INT, value * mpmath.mpf("1.01"), [40], x, done=cover)[0] is True
        assert any(item[0] == x for item in cover[1:]) and any(item[1] == x for item in cover[1:])


def test_a_bound_with_zero_curvature_is_decided():
    # rho = V/2 on [a, b] makes the quadratic term of the bound vanish exactly (V from the model's
    # own curvature_bound at the same precision): the bound is linear, f0 + f1 t, and the claim
    # (rho ~ 38 >> D* ~ 2.47) holds
    with mpmath.workdps(WDPS):
        a, b = mpmath.mpf("1.5"), mpmath.mpf("1.9")
        rho = LogMgf(*exact_pair(*INT)).curvature_bound(a, b) / 2
    _o, _lam, value = oracle(INT)
    assert rho > 10 * value
    cover = []
    assert run(INT, rho, [a, b], done=cover)[0] is True
    check_certificate(INT, rho, cover)
