"""bcdp.dme.calibration.achieved_epsilon at two edges found by the session-9 mutation triage: a tiny slope
rho (< 1e-10, where the absolute rho_up - rho fell under decide_le's 1e-40 margin and the function raised
UndecidedComparison) and alpha_max in (1, 1 + 1e-12] (where the rounded-down cap was <= 1 and the
conversion ran uncapped, over orders Lemma 3.3.2 does not give).  Oracles: the CKS conversion minimised
over alpha by mpmath (golden section at 60 digits) and LambertW (W e^W = n/16 pins alpha_max)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.core.errors import ValidityConditionError
from bcdp.dme import calibration as cal

DELTA = F(1, 10 ** 6)


def _cks(rho, L, a):
    return rho * a + (L + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)


def _cks_min(rho, L, a_max):
    lo, hi = mpmath.mpf(1) + mpmath.mpf(10) ** -30, mpmath.mpf(a_max)
    for _ in range(400):                                   # golden-section: convex in alpha
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        lo, hi = (lo, m2) if _cks(rho, L, m1) < _cks(rho, L, m2) else (m1, hi)
    return _cks(rho, L, (lo + hi) / 2)


@pytest.mark.parametrize("v2,delta", [(F(1, 10 ** 8), DELTA), (F(1, 10 ** 14), DELTA), (F(1, 10 ** 8), F(1, 10 ** 30))])
def test_tiny_rho_is_decided(v2, delta):
    s, n = 1, 10 ** 6                                      # rho = 48 v2/n = 4.8e-13, 4.8e-19
    got = cal.achieved_epsilon(v2, s, n, delta)
    with mpmath.workdps(60):
        rho = 48 * mpmath.mpf(v2.numerator) / v2.denominator / (s * n)
        v = mpmath.sqrt(mpmath.mpf(v2.numerator) / v2.denominator)
        em = 2 * mpmath.asinh(v / (2 * s))
        a_max = n / (16 * em * mpmath.exp(em))
        L = mpmath.log(mpmath.mpf(delta.denominator) / delta.numerator)
        raw = _cks_min(rho, L, a_max)
        oracle = max(0, raw)                               # a negative CKS value means eps = 0 suffices
        assert (raw > 0) == (delta < DELTA)                # (delta = 1e-30: eps ~ 2 sqrt(rho L) > 0)
        assert got.upper >= oracle
        assert got.upper <= oracle * (1 + mpmath.mpf(10) ** -9) + mpmath.mpf(10) ** -300


def test_alpha_max_just_above_one_is_refused():
    """alpha_max = 1 + 1e-13: the only orders Lemma 3.3.2 allows are within 1e-13 of 1, where
    L/(alpha - 1) > 1e14; the old code returned the uncapped CKS value 8.69 instead."""
    n = 100
    W = sympy.LambertW(sympy.Rational(n, 16) / (1 + sympy.Rational(1, 10 ** 13)))
    v2 = (2 * sympy.sinh(W / 2)) ** 2
    with mpmath.workdps(60):
        assert abs(cal.num(cal.lemma332_alpha_max(v2, 1, n)) - (1 + mpmath.mpf(10) ** -13)) < mpmath.mpf(10) ** -40
        assert _cks(48 * cal.num(v2) / n, mpmath.log(10 ** 6), 1 + mpmath.mpf(10) ** -13) > 10 ** 14
    with pytest.raises(ValidityConditionError) as info:
        cal.achieved_epsilon(v2, 1, n, DELTA)
    assert str(info.value).startswith("Lemma 3.3.2 gives no certifiable order alpha > 1")
