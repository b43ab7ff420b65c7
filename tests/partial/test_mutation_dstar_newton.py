"""The safeguarded Newton iteration of the D* maximiser search (bcdp.partial.dstar._newton; partial
DP paper arXiv:2209.04053, Sec. 2, Def. 2: D* = sup_{lambda > 1} D_lambda/lambda) where the earlier
tests do not reach: 200 digits, maximisers at lambda ~ 400 to 40000, a maximiser 4e-4 above
lambda = 1, and a start where h' vanishes.  Written against the survivors of the mutation gate
(benchmarks/mutation_gate.py, package partial).

Contract (docstring of _newton and of tests/partial/test_mutation_dstar_search.py): the root of
h = K' lambda (lambda - 1) - K (2 lambda - 1) in [lo, hi] with h(lo) > 0 > h(hi), to 10^-(dps - 5)
relative, converging quadratically from the 5% brackets the climb produces (a few dozen
evaluations of (K, K', K''), where bisection would need about 3.3 dps halvings); safeguarded:
every start in the bracket is allowed.

Oracle: K(lambda) = log sum_y P(y)^lambda Q(y)^(1 - lambda) and its derivative from the printed
definition, with mpmath at dps + 60 digits; the root by mpmath.findroot between grid points where h
changes sign from + to -.
"""

from __future__ import annotations

import functools
from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.divergences import LogMgf, exact_pair
from bcdp.partial import dstar as dstar_module

BUDGET = 40
STEP = mpmath.mpf("1.05")
# brackets (lo, hi) = 1 + (root - 1) * (STEP^a, STEP^b), b - a = 1: the 5% steps of the climb
BRACKETS = [(-0.3, 0.7), (-0.9, 0.1), (-0.1, 0.9)]

CASES = {
    "c1": ((F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6))),
    "c2": ((F(1, 10), F(9, 10)), (F(1, 1000), F(999, 1000))),
    "c3": ((F(1, 5), F(3, 10), F(1, 2)), (F(1, 10 ** 4), F(1, 10), 1 - F(1, 10) - F(1, 10 ** 4))),
    # P = (1/10, 9/10) against Q = (b, 1 - b), b -> 1/10: the maximiser moves out like 4/(1/10 - b)
    "far3": ((F(1, 10), F(9, 10)), (F(99, 1000), F(901, 1000))),
    "far4": ((F(1, 10), F(9, 10)), (F(999, 10000), F(9001, 10000))),
    "far5": ((F(1, 10), F(9, 10)), (F(9999, 100000), F(90001, 100000))),
    # P = (a, 1 - a), Q = (1/4, 3/4) with a 1e-4 below a_c = 0.5885456908..., where K''(1)/2 = KL:
    # the maximiser is 4.3e-4 above lambda = 1
    "near1": ((F(5884456908417788067571347428171583749578, 10 ** 40),
               1 - F(5884456908417788067571347428171583749578, 10 ** 40)), (F(1, 4), F(3, 4))),
}


@functools.lru_cache(maxsize=None)
def root(name, dps):
    """The maximiser of g at dps + 60 digits (grid: 20 points per decade of lambda - 1 from 1e-5 to 1e6)."""
    P, Q = CASES[name]
    with mpmath.workdps(dps + 60):
        p = [mpmath.mpf(x.numerator) / x.denominator for x in P]
        q = [mpmath.mpf(x.numerator) / x.denominator for x in Q]

        def h(lam):
            w = [a ** lam * b ** (1 - lam) for a, b in zip(p, q)]
            K = mpmath.log(mpmath.fsum(w))
            K1 = mpmath.fsum(x * mpmath.log(a / b) for x, a, b in zip(w, p, q)) / mpmath.fsum(w)
            return K1 * lam * (lam - 1) - K * (2 * lam - 1)
        grid = [1 + mpmath.mpf(10) ** (mpmath.mpf(k) / 20 - 5) for k in range(221)]
        hs = [h(x) for x in grid]
        roots = [mpmath.findroot(h, (a, b), solver="anderson")
                 for a, b, ha, hb in zip(grid, grid[1:], hs, hs[1:]) if ha > 0 >= hb]
        assert len(roots) == 1
        return roots[0]


class CountingModel:
    """A LogMgf that counts evaluations of (K, K', K'')."""

    def __init__(self, model):
        self._model = model
        self.calls = 0

    def derivs(self, lam):
        self.calls += 1
        return self._model.derivs(lam)

    def __getattr__(self, name):
        return getattr(self._model, name)


def run(name, dps, a, b, where):
    """_newton on the bracket 1 + (root - 1) (STEP^a, STEP^b) from its middle, or 1/1000 of its
    width inside an end; returns (result, evaluations, root)."""
    lam = root(name, dps)
    with mpmath.workdps(dps):
        model = CountingModel(LogMgf(*exact_pair(*CASES[name])))
        lo, hi = 1 + (+lam - 1) * STEP ** a, 1 + (+lam - 1) * STEP ** b
        start = {"mid": (lo + hi) / 2, "lo": lo + (hi - lo) / 1000, "hi": hi - (hi - lo) / 1000}[where]
        x = dstar_module._newton(model, lo, hi, start)
    return x, model.calls, lam


@pytest.mark.parametrize("name", ["c1", "c2", "c3"])
def test_200_digits_within_the_budget(name):
    for a, b in BRACKETS:
        for where in ["mid", "lo", "hi"]:
            x, calls, lam = run(name, 200, a, b, where)
            with mpmath.workdps(260):
                assert abs(x - lam) <= lam * mpmath.mpf(10) ** -(200 - 6), (a, where)
            assert calls <= BUDGET, (a, where, calls)


@pytest.mark.parametrize("dps", [50, 60])
@pytest.mark.parametrize("name", ["far3", "far4", "far5"])
def test_maximisers_far_from_one_within_the_budget(name, dps):
    assert 300 < root(name, dps) < 10 ** 5
    for a, b in BRACKETS + [(-0.5, 0.5)]:
        for where in ["mid", "lo", "hi"]:
            x, calls, lam = run(name, dps, a, b, where)
            with mpmath.workdps(dps + 60):
                assert abs(x - lam) <= lam * mpmath.mpf(10) ** -(dps - 6), (a, where)
            assert calls <= BUDGET, (a, where, calls)


@pytest.mark.parametrize("dps", [50, 60, 120, 200])
def test_a_maximiser_near_one_never_slower_than_bisection(dps):
    """lambda* - 1 = 4.3e-4: K and h = O((lambda - 1)^2) near 1 cost about 3 log10(1/(lambda* - 1))
    = 10 of the working digits, hence the tolerance 10^-(dps - 16); there the rounding floor of h
    is above the stopping tolerance of the Newton step, and the safeguard (bisection when |h| stops
    halving, exit when the bracket is below 10^-(dps - 5) relative) must still end the iteration
    within the evaluations of plain bisection of the bracket, plus a few Newton steps."""
    lam = root("near1", dps)
    with mpmath.workdps(dps + 60):
        assert mpmath.mpf("4e-4") < lam - 1 < mpmath.mpf("5e-4")
        half, two = mpmath.log(mpmath.mpf(1) / 2, STEP), mpmath.log(2, STEP)
    for a, b in BRACKETS + [(half, two)]:
        with mpmath.workdps(dps + 60):
            width = (lam - 1) * (STEP ** b - STEP ** a)
            halvings = int(mpmath.log(width / (lam * mpmath.mpf(10) ** -(dps - 5)), 2)) + 1
        for where in ["mid", "lo", "hi"]:
            x, calls, lam = run("near1", dps, a, b, where)
            with mpmath.workdps(dps + 60):
                assert abs(x - lam) <= lam * mpmath.mpf(10) ** -(dps - 16), (a, where)
            assert calls <= halvings + 20, (a, where, calls, halvings)


def test_a_start_where_h_prime_vanishes():
    """At 55 digits, this start (c2, lambda = 1.8955...) is where the computed
    h' = K'' lambda (lambda - 1) - 2K is exactly 0; Newton's step is undefined there and the
    iteration must still find the root (2.3259) of the bracket [3/2, 3]."""
    dps = 55
    lam = root("c2", dps)
    with mpmath.workdps(dps):
        model = LogMgf(*exact_pair(*CASES["c2"]))
        start = mpmath.mpf((46478535688548926476454490246797503100447752733504061027, -184))
        k0, _k1, k2 = model.derivs(start)
        assert k2 * start * (start - 1) - 2 * k0 == 0
        counting = CountingModel(LogMgf(*exact_pair(*CASES["c2"])))
        x = dstar_module._newton(counting, mpmath.mpf("1.5"), mpmath.mpf(3), start)
    with mpmath.workdps(dps + 60):
        assert mpmath.mpf("1.5") < start < lam < 3
        assert abs(x - lam) <= lam * mpmath.mpf(10) ** -(dps - 6)
    assert counting.calls <= BUDGET
