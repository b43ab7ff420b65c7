"""The fields of a D* enclosure (bcdp.partial.dstar.d_star, partial DP paper arXiv:2209.04053,
Sec. 2, Def. 2), written against the survivors of the mutation gate (package partial).

Contract (docstring of _dstar_result): ``witness`` is None for an exact value (P = Q: D* = 0; an
output with P(y) > 0 = Q(y): D* = inf), {"lambda": "1+"} when the supremum is the limit
lambda -> 1+, {"lambda": lambda_hat} for an interior maximiser; ``rel_tol`` is the requested width,
exact; ``intervals`` is the number of lambda intervals the certification examined (those of the
certificate and those bisected on the way).

Oracles: the exact cases from the definition; the interior maximiser from mpmath.findroot at 100
digits on g'(lambda) = 0 with g(lambda) = K(lambda)/(lambda(lambda - 1)),
K(lambda) = log sum_y P(y)^lambda Q(y)^(1 - lambda); binary randomized response with e^eps = 3 has
D* = KL = eps tanh(eps/2) (Bun and Steinke 2016) at the limit lambda -> 1+; the number of intervals
examined is counted in the test (one curvature bound per interval) on the search's own model.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from bcdp.core.numbers import INFINITY
from bcdp.partial import dstar as dstar_module
from bcdp.partial.dstar import d_star

RR = ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)))
INT = ((F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6)))


def maximiser(P, Q):
    with mpmath.workdps(100):
        p = [mpmath.mpf(x.numerator) / x.denominator for x in P]
        q = [mpmath.mpf(x.numerator) / x.denominator for x in Q]

        def K(lam):
            return mpmath.log(mpmath.fsum(a ** lam * b ** (1 - lam) for a, b in zip(p, q)))

        def K1(lam):
            w = [a ** lam * b ** (1 - lam) for a, b in zip(p, q)]
            return mpmath.fsum(x * mpmath.log(a / b) for x, a, b in zip(w, p, q)) / mpmath.fsum(w)

        return mpmath.findroot(lambda x: K1(x) * x * (x - 1) - K(x) * (2 * x - 1), mpmath.mpf("2.3"))


@pytest.mark.parametrize("P,Q,value", [
    ((F(1, 3), F(2, 3)), (F(1, 3), F(2, 3)), 0),
    ((F(1, 2), F(1, 2)), (F(1), F(0)), INFINITY),
])
def test_exact_values_have_no_witness(P, Q, value):
    res = d_star(P, Q)
    assert res.exact == value and res.lower == value == res.upper
    assert res.witness is None
    assert res.rel_tol == F(1, 10 ** 30)


def test_limit_one_witness():
    res = d_star(*RR, rel_tol="1e-20")
    with mpmath.workdps(60):
        assert res.lower <= mpmath.log(3) / 2 <= res.upper
    assert res.at_limit_one and res.maximiser is None
    assert res.witness == {"lambda": "1+"}
    assert res.rel_tol == F(1, 10 ** 20)


def test_interior_witness_names_the_maximiser():
    res = d_star(*INT, rel_tol=F(1, 10 ** 25))
    lam = maximiser(*INT)
    assert not res.at_limit_one and res.witness == {"lambda": res.maximiser}
    with mpmath.workdps(100):
        assert abs(res.witness["lambda"] - lam) <= lam * mpmath.mpf(10) ** -40
    assert res.rel_tol == F(1, 10 ** 25) and isinstance(res.rel_tol, F)


@pytest.mark.parametrize("case", [RR, INT])
def test_intervals_counts_every_interval_the_certification_examined(case, monkeypatch):
    # regression: the docstring called it the size of the certificate, but the intervals bisected
    # on the way are counted too (so it is larger whenever an interval was bisected, as for INT)
    examined, covers = [], []
    certify = dstar_module._certify

    class Counting:
        def __init__(self, model):
            self._model, self.n = model, 0

        def curvature_bound(self, a, b):
            self.n += 1
            return self._model.curvature_bound(a, b)

        def __getattr__(self, name):
            return getattr(self._model, name)

    def spy(model, rho, grid, lam_hat, unit, max_intervals, done=None):
        counted = Counting(model)
        out = certify(counted, rho, grid, lam_hat, unit, max_intervals, done)
        examined.append(counted.n)
        covers.append(list(done))
        return out

    monkeypatch.setattr(dstar_module, "_certify", spy)
    dstar_module._d_star_cached.cache_clear()
    res = d_star(*case)
    dstar_module._d_star_cached.cache_clear()
    assert res.intervals == examined[-1]
    certificate = len(covers[-1]) - 1  # without the tail
    assert res.intervals >= certificate
    if case == INT:
        assert res.intervals > certificate
