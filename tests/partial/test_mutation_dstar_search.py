"""The maximiser search of bcdp.partial.dstar (partial DP paper arXiv:2209.04053, Sec. 2, Def. 2:
D* = sup_{lambda > 1} D_lambda/lambda), tested at interior maxima against an independent
computation, written against the survivors of the mutation gate (package partial).

Reference: g(lambda) = K(lambda)/(lambda(lambda - 1)) with K(lambda) = log sum_y P(y)^lambda
Q(y)^(1 - lambda) (the printed Renyi divergence D_lambda = K/(lambda - 1), divided by lambda); an
interior maximiser solves g'(lambda) = 0, i.e. K'(lambda) lambda (lambda - 1) = K(lambda)(2 lambda - 1)
(quotient rule), solved here with mpmath.findroot at 100 digits from the best point of a coarse
grid.  The result must name that maximiser to 10^-40 relative (the search stops at 10^-(dps + 10)
relative), enclose D* = g(lambda*), and meet the requested width.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from bcdp.partial.dstar import d_star

CASES = [
    ((F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6))),
    ((F(1, 10), F(9, 10)), (F(1, 1000), F(999, 1000))),
    ((F(1, 5), F(3, 10), F(1, 2)), (F(1, 10 ** 4), F(1, 10), 1 - F(1, 10) - F(1, 10 ** 4))),
]


def oracle(P, Q):
    with mpmath.workdps(100):
        p = [mpmath.mpf(x.numerator) / x.denominator for x in P]
        q = [mpmath.mpf(x.numerator) / x.denominator for x in Q]

        def K(lam):
            return mpmath.log(mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(p, q)))

        def K1(lam):
            w = [a ** lam * b ** (1 - lam) for a, b in zip(p, q)]
            return mpmath.fsum(x * mpmath.log(a / b) for x, a, b in zip(w, p, q)) / mpmath.fsum(w)

        def g(lam):
            return K(lam) / (lam * (lam - 1))
        grid = [1 + mpmath.mpf(10) ** (mpmath.mpf(k) / 50 - 3) for k in range(301)]
        start = max(grid, key=g)
        lam = mpmath.findroot(lambda x: K1(x) * x * (x - 1) - K(x) * (2 * x - 1), start)
        return lam, g(lam)


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("dps,tol", [(50, "1e-30"), (70, "1e-50")])
def test_interior_maximiser_is_found_to_full_precision(case, dps, tol):
    P, Q = CASES[case]
    lam, value = oracle(P, Q)
    res = d_star(P, Q, tol, dps)
    with mpmath.workdps(100):
        assert res.maximiser is not None and not res.at_limit_one
        assert abs(res.maximiser - lam) <= lam * mpmath.mpf(10) ** -40
        assert res.lower <= value <= res.upper
        assert res.upper - res.lower <= res.upper * mpmath.mpf(tol)
        assert abs(res.value - value) <= value * mpmath.mpf(10) ** -(dps + 5)


# --- the search's pieces, one at a time -----------------------------------------------------------
# Their contracts (docstrings of bcdp.partial.dstar): the float scan samples g on a geometric grid of
# lambda - 1 from 1e-4 to lam_max; the safeguarded Newton iteration finds the root of
# h = K' lambda(lambda - 1) - K(2 lambda - 1) in a bracket to 10^-(dps - 5) relative, converging
# quadratically (so in a few dozen evaluations where bisection would need about 3.3 dps halvings);
# the climb returns the local maximiser of g and its value, or (None, None) when g increases towards
# lambda -> 1+.  Evaluations are counted on the model (one `derivs` call per h).

from bcdp.core.divergences import LogMgf, exact_pair
from bcdp.partial import dstar as dstar_module

NEWTON_BUDGET = 40  # quadratic convergence from a bracket: ~10 steps; bisection: ~3.3 * dps > 150


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


def _model(P, Q):
    return CountingModel(LogMgf(*exact_pair(P, Q)))


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("where", ["middle", "near_lo", "near_hi"])
def test_newton_finds_the_root_quadratically(case, where):
    P, Q = CASES[case]
    root, _ = oracle(P, Q)
    dps = 60
    with mpmath.workdps(dps):
        model = _model(P, Q)
        lo, hi = 1 + (root - 1) / 2, 1 + 2 * (root - 1)
        start = {"middle": (lo + hi) / 2, "near_lo": lo + (hi - lo) / 1000, "near_hi": hi - (hi - lo) / 1000}[where]
        x = dstar_module._newton(model, lo, hi, start)
        calls = model.calls
    with mpmath.workdps(100):
        assert abs(x - root) <= root * mpmath.mpf(10) ** -(dps - 6)
    assert calls <= NEWTON_BUDGET


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("factor", [3, mpmath.mpf(1) / 3, mpmath.mpf("1.01"), mpmath.mpf("0.99")])
def test_climb_reaches_the_local_maximiser_from_either_side(case, factor):
    P, Q = CASES[case]
    root, value = oracle(P, Q)
    dps = 60
    with mpmath.workdps(dps):
        model = _model(P, Q)
        r, gr = dstar_module._local_max(model, 1 + (root - 1) * factor)
        calls = model.calls
    assert r is not None
    with mpmath.workdps(100):
        assert abs(r - root) <= root * mpmath.mpf(10) ** -(dps - 6)
        assert abs(gr - value) <= value * mpmath.mpf(10) ** -(dps - 6)
    # 5% steps: log(3)/log(1.05) ~ 23 to bracket, then the Newton budget
    assert calls <= 30 + NEWTON_BUDGET


@pytest.mark.parametrize("dps", [50, 60])
@pytest.mark.parametrize("start", ["1.5", "3", "40"])
def test_climb_reports_the_limit_one_when_g_decreases(dps, start):
    # binary randomized response: g(lambda) = D_lambda/lambda decreases on (1, inf), D* = KL (the limit
    # lambda -> 1+), so there is no interior maximiser to return
    P, Q = (F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))
    with mpmath.workdps(dps):
        assert dstar_module._local_max(_model(P, Q), mpmath.mpf(start)) == (None, None)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_float_scan_samples_g_on_the_documented_grid(case):
    P, Q = CASES[case]
    with mpmath.workdps(60):
        model = LogMgf(*exact_pair(P, Q))
    lam_max = 37.5
    lam, g = dstar_module._float_scan(model, lam_max)
    assert lam[0] == pytest.approx(1 + 1e-4, rel=1e-15) and lam[-1] == pytest.approx(1 + lam_max, rel=1e-15)
    steps = [(b - 1) / (a - 1) for a, b in zip(lam, lam[1:])]
    assert max(steps) == pytest.approx(min(steps), rel=1e-9)  # geometric in lambda - 1
    with mpmath.workdps(50):
        p = [mpmath.mpf(x.numerator) / x.denominator for x in P]
        q = [mpmath.mpf(x.numerator) / x.denominator for x in Q]
        for k in range(0, len(lam), 17):
            x = mpmath.mpf(lam[k])
            want = mpmath.log(mpmath.fsum(a ** x * b ** (1 - x) for a, b in zip(p, q))) / (x * (x - 1))
            assert g[k] == pytest.approx(float(want), rel=1e-6)
