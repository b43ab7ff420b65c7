"""Exact tests of :mod:`bcdp.dme.user_level_central` (thesis Remark 3.7.3 next to Thm 3.7.1 (3.49)).

Oracles: beta_c = min{1, gamma + (B/tau) e^{-n eps/8}} at 60-digit mpmath with eps = log E; the exponents
from the printed formulas at 60 digits; the worst second-stage MSE by brute force over a grid of inputs
with the Alg 3.7.4 probabilities written from the box.  Each test rejects a wrong variant.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.dme import user_level as ul
from bcdp.dme import user_level_central as uc


def mp(v) -> mpmath.mpf:
    return mpmath.mpf(v.numerator) / v.denominator


@pytest.mark.parametrize("n, B, tau, E, gamma", [(8, 4, 1, F(2), 0), (800, 4, 1, F(9, 4), F(1, 100)),
                                                  (8000, 64, 1, F(11, 10), 0), (16, 1, F(1, 2), F(3), F(1, 2))])
def test_beta_c_matches_the_printed_formula(n, B, tau, E, gamma):
    with mpmath.workdps(60):
        want = min(mpmath.mpf(1), mp(F(gamma)) + mp(F(B)) / mp(F(tau)) * mpmath.exp(-n * mpmath.log(mp(E)) / 8))
        got = uc.lsa21_beta_c(n, B, tau, E, gamma)
        assert abs(mpmath.mpf(sympy.N(got, 60)) - want) <= mpmath.mpf(10) ** -55 * max(want, mpmath.mpf(10) ** -300)
        # bad twin: e^{-n eps/4} is a different number unless beta_c = 1
        wrong = min(mpmath.mpf(1), mp(F(gamma)) + mp(F(B)) / mp(F(tau)) * mpmath.exp(-n * mpmath.log(mp(E)) / 4))
        assert want == 1 or abs(wrong - want) > mpmath.mpf(10) ** -50 * want


def test_beta_c_inputs():
    with pytest.raises(InvalidInputError):
        uc.lsa21_beta_c(12, 4, 1, 2)
    with pytest.raises(InvalidInputError):
        uc.lsa21_beta_c(8, 4, 1, 1)
    with pytest.raises(InvalidInputError):
        uc.lsa21_beta_c(8, 4, 1, 2, F(3, 2))
    with pytest.raises(FloatRefusedError):
        uc.lsa21_beta_c(8, 4, 1, 2.0)
    assert uc.lsa21_beta_c(8, 4, 1, F(3)) == 1  # 4/3 capped at 1
    assert uc.lsa21_beta_c(8, 4, 1, F(5)) == sympy.Rational(4, 5)


@pytest.mark.parametrize("n, Eh", [(1, F(2)), (1000, F(3, 2)), (40000, F(11, 10))])
def test_beta_exponents(n, Eh):
    a, b = uc.beta_exponents(n, Eh)
    with mpmath.workdps(60):
        r = (mp(Eh) - 1) / (mp(Eh) + 1)
        assert abs(mpmath.mpf(sympy.N(a, 60)) - n * r ** 2 / 200) < mpmath.mpf(10) ** -50
        assert abs(mpmath.mpf(sympy.N(b, 60)) - n * 2 * mpmath.log(mp(Eh)) / 8) < mpmath.mpf(10) ** -50
        # the exponent of thm371_beta is the first one: beta = min{1, (2B/tau) e^{-a}}
        beta = mpmath.mpf(sympy.N(ul.thm371_beta(n, 4, 1, Eh), 60))
        assert abs(beta - min(1, 8 * mpmath.exp(-mpmath.mpf(sympy.N(a, 60))))) < mpmath.mpf(10) ** -50
    assert sympy.N(b - a, 30) > 0  # the central exponent is the larger one


@pytest.mark.parametrize("n, tau, E", [(1, 1, F(2)), (7, F(1, 3), F(3, 2)), (100, 2, F(9))])
def test_second_stage_worst_mse_by_brute_force(n, tau, E):
    tau = F(tau)
    a, b = -3 * tau, 3 * tau
    o, h, c = (a + b) / 2, (b - a) / 2, (E + 1) / (E - 1)
    worst = F(0)
    for i in range(25):
        y = a + (b - a) * F(i, 24)
        p = F(1, 2) + (y - o) / (2 * h * c)
        mse = p * (o + h * c - y) ** 2 + (1 - p) * (o - h * c - y) ** 2
        worst = max(worst, mse)
    assert uc.second_stage_worst_mse(n, tau, E) == worst / n
    assert n == 1 or uc.second_stage_worst_mse(n, tau, E) != worst / (n * n)
    with pytest.raises(InvalidInputError):
        uc.second_stage_worst_mse(0, tau, E)
