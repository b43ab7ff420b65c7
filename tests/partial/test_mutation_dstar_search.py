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
