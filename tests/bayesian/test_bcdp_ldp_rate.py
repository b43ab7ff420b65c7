"""The remark after Thm 2 at zeta = 1 (bcdp.bayesian.ldp_rate) against independent mpmath/sympy oracles."""

from __future__ import annotations

import mpmath
import pytest
import sympy

from bcdp.bayesian import ldp_rate as lr
from bcdp.core.errors import FloatRefusedError, InvalidInputError


def _mp(expr) -> mpmath.mpf:
    return mpmath.mpf(sympy.N(expr, 60)._to_mpmath(mpmath.mp.prec))


def _oracle_ratio(d: int, eps: mpmath.mpf) -> mpmath.mpf:
    """One stage, sphere of R^d: E|Y|^2 = B^2 with B = sqrt(d) coth(eps/2) sqrt(pi) Gamma((d+1)/2)/Gamma(d/2)
    (printed Mechanism 2, unbiased constant); n MSE = B^2 at x = 0; ratio = B^2 eps^2/d^2."""
    B = mpmath.sqrt(d) * mpmath.coth(eps / 2) * mpmath.sqrt(mpmath.pi) * mpmath.gamma(mpmath.mpf(d + 1) / 2) / mpmath.gamma(mpmath.mpf(d) / 2)
    return B ** 2 * eps ** 2 / d ** 2


@pytest.mark.parametrize("d", [1, 2, 4, 7])
@pytest.mark.parametrize("eps", ["1/3", "1", "5"])
def test_ratio_matches_sphere_oracle(d, eps):
    with mpmath.workdps(50):
        e = mpmath.mpf(sympy.Rational(eps).p) / sympy.Rational(eps).q
        assert abs(_mp(lr.remark_ratio(d, eps)) - _oracle_ratio(d, e)) < mpmath.mpf(10) ** -40
        # a wrong twin (the proof's s = 1/w per stage, i.e. ratio exactly 1) is far off
        assert abs(_oracle_ratio(d, e) - 1) > 1


@pytest.mark.parametrize("q", ["0", "1/10", "1"])
def test_allocation_is_eps_everywhere(q):
    alloc = lr.no_demand_allocation(4, "3/2", q)
    assert all(sympy.simplify(c - sympy.Rational(3, 2)) == 0 for c in alloc.c)


def test_small_eps_supremum_and_growth():
    with mpmath.workdps(50):
        sup = mpmath.pi / 2 * mpmath.coth(mpmath.mpf(1) / 2) ** 2
        assert abs(_mp(lr.small_eps_supremum()) - sup) < mpmath.mpf(10) ** -40
        # boundary eps = 1 inside the regime, approached as d grows; eps just above 1 exceeds it for large d
        assert _mp(lr.remark_ratio(30, 1)) < sup
        assert _oracle_ratio(10 ** 6, mpmath.mpf(1)) > sup - mpmath.mpf(10) ** -5
        assert _oracle_ratio(10 ** 6, mpmath.mpf(11) / 10) > sup
        assert _mp(lr.remark_ratio(3, 100)) > 100 ** 2


def test_gap_to_ldp_rate_hand_values():
    # d = 3, eps = 1/2, n = 10: rate = min(3, 9/(10/4)) = 3; sup MSE/n > 12 so the bound is 4d = 12
    assert lr.gap_to_ldp_rate(3, "1/2", 10) == 4
    assert lr.ldp_rate(3, "1/2", 10) == 3
    # large n: gap = ratio R (the rate is d^2/(n eps^2), the bound sup MSE / n)
    with mpmath.workdps(50):
        assert abs(_mp(lr.gap_to_ldp_rate(2, 1, 10 ** 6)) - _oracle_ratio(2, mpmath.mpf(1))) < mpmath.mpf(10) ** -40


def test_inputs_refused():
    with pytest.raises(FloatRefusedError):
        lr.remark_ratio(2, 0.5)
    with pytest.raises(InvalidInputError):
        lr.remark_ratio(0, 1)
    with pytest.raises(InvalidInputError):
        lr.ldp_rate(2, 0, 1)
    with pytest.raises(InvalidInputError):
        lr.ldp_rate(2, 1, "1/2")
    assert lr.ldp_rate(2, 1, 1) == 2  # n = 1 allowed
