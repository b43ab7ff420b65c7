"""2RR (thesis Alg 2.2.1, Thm 2.4.1, Lemma 2.4.1) against independent oracles: sympy over a symbolic p,
mpmath at 60 digits, brute-force enumeration of gamma, and seeded binomial bounds (alpha = 1e-6)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import (
    FloatRefusedError,
    InvalidInputError,
    ValidityConditionError,
    WrongTypeError,
)
from bcdp.core.numbers import INFINITY
from bcdp.dme import two_rr as tr
from scipy import stats

P_GRID = [F(0), F(1, 5), F(1, 3), F(1, 10), F(49, 100), F(2, 7)]


def oracle_law(b: int, p: F) -> dict:
    """Enumerate gamma in {0, 1}: the bit sent is b XOR gamma, debiased as (bit - p)/(1 - 2p)."""
    out: dict = {}
    for gamma, w in ((0, 1 - p), (1, p)):
        sent = b ^ gamma
        y = (sent - p) / (1 - 2 * p)
        out[y] = out.get(y, F(0)) + w
    return out


def test_law_matches_enumeration_and_is_unbiased():
    for p in P_GRID:
        for b in (0, 1):
            assert tr.two_rr_law(b, p) == oracle_law(b, p)
            assert tr.two_rr_mean(b, p) == b


def test_variance_formula_against_sympy_symbolic_enumeration():
    ps = sympy.symbols("p", positive=True)
    for b in (0, 1):
        law = [((b - ps) / (1 - 2 * ps), 1 - ps), ((1 - b - ps) / (1 - 2 * ps), ps)]
        mean = sum(y * w for y, w in law)
        mse = sum((y - b) ** 2 * w for y, w in law)
        assert sympy.simplify(mean - b) == 0
        for p in P_GRID:
            exact = sympy.Rational(p.numerator, p.denominator)
            assert tr.two_rr_mse(b, p) == F(str(sympy.nsimplify(mse.subs(ps, exact))))
            assert tr.two_rr_variance(p) == tr.two_rr_mse(b, p)
    # a wrong variant (the printed MSE without the square in the denominator) differs
    assert tr.two_rr_variance(F(1, 5)) != F(1, 5) * F(4, 5) / F(3, 5)


def test_ldp_ratio_and_epsilon():
    for p in P_GRID[1:]:
        brute = max(oracle_law(b, p)[y] / oracle_law(c, p)[y] for b in (0, 1) for c in (0, 1)
                    for y in oracle_law(b, p))
        assert tr.two_rr_ldp_ratio(p) == brute == (1 - p) / p
        with mpmath.workdps(60):
            assert mpmath.almosteq(mpmath.mpf(sympy.N(tr.two_rr_epsilon(p), 70)),
                                   mpmath.log((1 - mpmath.mpf(p.numerator) / p.denominator)
                                              / (mpmath.mpf(p.numerator) / p.denominator)), 1e-55)
    assert tr.two_rr_ldp_ratio(0) == INFINITY
    assert tr.two_rr_epsilon(0) == sympy.oo


@pytest.mark.parametrize("t", [F(5, 4), F(3, 2), F(2), F(3), F(10), F(101, 100)])
def test_rational_budget_p_and_epsilon(t):
    v, p = tr.rational_budget(t)
    assert v == t - 1 / t
    # oracle: p solves (1 - 2p)^2/(p(1-p)) = v^2 with p < 1/2 (sympy), and (1-p)/p = t^2
    ps = sympy.symbols("p")
    sv = sympy.Rational(v.numerator, v.denominator)
    roots = [r for r in sympy.solve(sympy.Eq((1 - 2 * ps) ** 2, sv ** 2 * ps * (1 - ps)), ps) if r < sympy.Rational(1, 2)]
    assert len(roots) == 1 and sympy.Rational(p.numerator, p.denominator) == roots[0]
    assert tr.budget_p(v) == p
    assert (1 - p) / p == t * t
    assert tr.two_rr_ldp_ratio(p) == t * t
    assert sympy.simplify(tr.budget_p_sympy(v) - sympy.Rational(p.numerator, p.denominator)) == 0
    with mpmath.workdps(60):
        eps = mpmath.mpf(sympy.N(tr.budget_epsilon(v), 70))
        assert mpmath.almosteq(eps, 2 * mpmath.log(mpmath.mpf(t.numerator) / t.denominator), 1e-55)
        assert eps < mpmath.mpf(v.numerator) / v.denominator


@pytest.mark.parametrize("v", [F(1), F(1, 3), F(5), F(7, 2)])
def test_irrational_budget_p_is_sympy_and_matches_mpmath(v):
    p = tr.budget_p(v)
    assert not isinstance(p, F)
    with mpmath.workdps(60):
        vm = mpmath.mpf(v.numerator) / v.denominator
        pm = (1 - mpmath.sqrt(vm ** 2 / (vm ** 2 + 4))) / 2
        assert mpmath.almosteq(mpmath.mpf(sympy.N(p, 70)), pm, 1e-55)
        assert mpmath.almosteq(mpmath.log((1 - pm) / pm), 2 * mpmath.asinh(vm / 2), 1e-55)
        assert mpmath.almosteq(mpmath.mpf(sympy.N(tr.budget_epsilon(v), 70)), mpmath.log((1 - pm) / pm), 1e-55)


@pytest.mark.parametrize("v", [F(3, 2), F(1), F(1, 100), F(20), F(1, 3)])
def test_certificate_is_valid(v):
    cert = tr.certify_epsilon_below_budget(v)
    with mpmath.workdps(60):
        vm = mpmath.mpf(v.numerator) / v.denominator
        e_eps0 = ((mpmath.sqrt(vm ** 2 + 4) + vm) / 2) ** 2
        U, L = cert["upper_exp_eps0"], cert["lower_exp_v"]
        assert mpmath.mpf(U.numerator) / U.denominator >= e_eps0 * (1 - mpmath.mpf(10) ** -50)
        assert mpmath.mpf(L.numerator) / L.denominator <= mpmath.exp(vm)
    assert U < L


def test_validity_boundaries():
    tr.check_p(0)
    tr.check_p(F(1, 2) - F(1, 10 ** 9))
    for bad in (F(1, 2), F(-1, 100), 1):
        with pytest.raises(ValidityConditionError):
            tr.check_p(bad)
    with pytest.raises(FloatRefusedError):
        tr.two_rr_law(0, 0.2)
    with pytest.raises(WrongTypeError):
        tr.two_rr_law(True, F(1, 5))
    with pytest.raises(InvalidInputError):
        tr.two_rr_law(2, F(1, 5))
    tr.budget_p(F(1, 10 ** 6))
    for bad in (0, F(-1)):
        with pytest.raises(ValidityConditionError):
            tr.budget_p(bad)
    with pytest.raises(FloatRefusedError):
        tr.budget_p(1.5)
    tr.rational_budget(F(1) + F(1, 10 ** 6))
    with pytest.raises(ValidityConditionError):
        tr.rational_budget(1)


def _binomial_accepts(k: int, n: int, p: float, alpha: float = 1e-6) -> bool:
    lo, hi = stats.binom.ppf(alpha / 2, n, p), stats.binom.isf(alpha / 2, n, p)
    return lo <= k <= hi


def test_sampler_law_binomial_bound():
    rng = np.random.default_rng(20240531)
    n = 200_000
    bits = np.array([0, 1] * (n // 2))
    p = F(1, 5)
    gamma, y = tr.sample_two_rr(rng, bits, "1/5")
    low, high = tr.two_rr_values(p)
    for b in (0, 1):
        ys = y[bits == b]
        # every output is one of the two exact values (to float rounding)
        assert np.all(np.isclose(ys, float(low)) | np.isclose(ys, float(high)))
        k = int(np.sum(np.isclose(ys, float(high))))
        p_high = float(tr.two_rr_law(b, p)[high])
        assert _binomial_accepts(k, ys.size, p_high)          # false-failure rate <= 1e-6
        wrong = float(tr.two_rr_law(b, F(1, 4))[(1 - F(1, 4)) / (1 - 2 * F(1, 4))])
        assert not _binomial_accepts(k, ys.size, wrong)         # the test can fail
    assert np.array_equal(gamma, np.isclose(y, float(high)).astype(int) != bits)


def test_sampler_refuses_bad_inputs():
    rng = np.random.default_rng(0)
    with pytest.raises(ValidityConditionError):
        tr.sample_two_rr(rng, np.array([0, 1]), 0.5)
    with pytest.raises(InvalidInputError):
        tr.sample_two_rr(rng, np.array([0, 2]), 0.2)
    with pytest.raises(WrongTypeError):
        tr.sample_two_rr(np.random.RandomState(0), np.array([0, 1]), 0.2)
    tr.sample_two_rr(rng, np.array([0, 1]), 0.0)
