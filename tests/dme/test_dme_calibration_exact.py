"""bcdp.dme.calibration against independent oracles: mpmath (50 digits) re-computations of Lemma 2.1.5,
the Gaussian privacy curve by quadrature of the privacy loss, the CKS conversion minimised over alpha
by mpmath, and sympy for the (3.34) substitution."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.dme import calibration as cal

F = Fraction
mpmath.mp.dps = 50
DELTA = F(1, 10 ** 6)


def mp(x) -> mpmath.mpf:
    return mpmath.mpf(sympy.N(x, 60))


# -- (3.34) ---------------------------------------------------------------------------------------

def test_eq334_coefficient_is_720_not_5():
    assert cal.eq334_middle_coefficient() == 720
    assert cal.eq334_middle_coefficient() != 5


def test_two_rr_variance_is_one_over_v2():
    for v2 in (F(1, 100), F(3, 7), F(25)):
        with mpmath.workdps(50):
            v = mpmath.sqrt(mpmath.mpf(v2.numerator) / v2.denominator)
            p = (1 - mpmath.sqrt(v * v / (v * v + 4))) / 2
            oracle = p * (1 - p) / (1 - 2 * p) ** 2
            got = mp(cal.two_rr_variance_at_v(sympy.Rational(v2.numerator, v2.denominator)))
            assert abs(got - oracle) < mpmath.mpf(10) ** -40
            assert abs(oracle - 1 / (v * v)) < mpmath.mpf(10) ** -40


# -- Lemma 2.1.5 ----------------------------------------------------------------------------------

def test_lemma215_requires_delta_le_inv_e_both_sides():
    cal.lemma215_epsilon(1, F(367879, 10 ** 6))            # 0.367879 < 1/e = 0.3678794...
    with pytest.raises(ValidityConditionError):
        cal.lemma215_epsilon(1, F(367880, 10 ** 6))
    with pytest.raises(FloatRefusedError):
        cal.lemma215_epsilon(0.5, DELTA)
    with pytest.raises(InvalidInputError):
        cal.lemma215_epsilon(1, 1)


def _gauss_delta_quadrature(rho, eps):
    """delta = E[(1 - e^{eps - Z})_+], Z ~ N(rho, 2 rho) the privacy loss of the Gaussian mechanism."""
    rho, eps = mpmath.mpf(rho.numerator) / rho.denominator, mpmath.mpf(eps.numerator) / eps.denominator
    sd = mpmath.sqrt(2 * rho)
    f = lambda z: (1 - mpmath.exp(eps - z)) * mpmath.npdf(z, rho, sd)   # noqa: E731
    return mpmath.quad(f, [eps, rho + 40 * sd if rho + 40 * sd > eps else eps + 40 * sd, mpmath.inf])


@pytest.mark.parametrize("rho,eps", [(F(1, 10), F(1)), (F(2), F(5)), (F(1000), F(31, 10))])
def test_gaussian_exact_delta_matches_quadrature(rho, eps):
    got = cal.gaussian_exact_delta(rho, eps)
    assert abs(got - _gauss_delta_quadrature(rho, eps)) < mpmath.mpf(10) ** -20


def test_lemma215_holds_for_gaussian_when_delta_le_inv_e():
    for rho in (F(1, 1000), F(1, 10), F(1), F(10), F(1000)):
        for delta in (F(1, 3), F(1, 100), DELTA):
            eps = mp(cal.lemma215_epsilon(rho, delta))
            assert cal.gaussian_exact_delta(rho, F(str(mpmath.nstr(eps * (1 - mpmath.mpf(10) ** -20), 30)))) \
                <= mpmath.mpf(delta.numerator) / delta.denominator


def test_lemma215_false_for_delta_close_to_one():
    rho, delta = F(1000), F(999, 1000)
    printed = cal.lemma215_epsilon(rho, delta, require_delta_le_inv_e=False)
    assert mp(printed) < mpmath.mpf(31) / 10
    assert cal.gaussian_exact_delta(rho, F(31, 10)) > mpmath.mpf(delta.numerator) / delta.denominator


# -- calibration ----------------------------------------------------------------------------------

@pytest.mark.parametrize("eps,golden", [(F(1, 10), "0.1732"), (F(1, 2), "0.8660"), (F(1), "1.7321"),
                                        (F(2), "2.4495"), (F(3), "3.0"), (F(5), "5.0")])
def test_printed_calibration_implied_epsilon(eps, golden):
    s, n = 4, 10 ** 5
    implied = mp(cal.eq38_epsilon(cal.printed_v2(s, n, eps, DELTA), s, n, DELTA))
    e = mpmath.mpf(eps.numerator) / eps.denominator
    x = min(e * e, e) / 3                                  # rho L with 144 = 3 x 48
    oracle = 3 * max(x, mpmath.sqrt(x))
    assert abs(implied - oracle) < mpmath.mpf(10) ** -40
    assert mpmath.nstr(implied, len(golden) - 1) == golden or abs(implied - mpmath.mpf(golden)) < 1e-4
    assert (implied <= e) == (eps >= 3)


@pytest.mark.parametrize("eps", [F(1, 100), F(1, 2), F(1), F(3, 2), F(3), F(10)])
def test_corrected_calibration_certifies_eps(eps):
    s, n = 4, 10 ** 5
    implied = mp(cal.eq38_epsilon(cal.corrected_v2(s, n, eps, DELTA), s, n, DELTA))
    assert implied <= mpmath.mpf(eps.numerator) / eps.denominator * (1 + mpmath.mpf(10) ** -40)
    # the printed constant 144 does not, for eps < 3
    if eps < 3:
        assert mp(cal.eq38_epsilon(cal.printed_v2(s, n, eps, DELTA), s, n, DELTA)) > mpmath.mpf(eps.numerator) / eps.denominator


def _alpha_max_oracle(v2, s, n):
    v = mpmath.sqrt(v2)
    em = 2 * mpmath.asinh(v / (2 * s))
    return n / (16 * em * mpmath.exp(em))


def test_alpha_range_condition_both_sides():
    with mpmath.workdps(60):
        L = mpmath.log(10 ** 6)
    for s, n, holds in ((1, 100, False), (1, 10 ** 6, False), (10, 10 ** 6, True)):
        res = cal.alpha_range_condition(cal.printed_v2(s, n, 1, DELTA), s, n, DELTA)
        with mpmath.workdps(60):                   # (the oracle at its own precision, not the global one)
            v2 = s * n / (144 * L)
            a_star = 1 + mpmath.sqrt(L / (48 * v2 / (s * n)))
            assert abs(mp(res["alpha_star"]) - a_star) < mpmath.mpf(10) ** -40
            assert abs(mp(res["alpha_max"]) - _alpha_max_oracle(v2, s, n)) < mpmath.mpf(10) ** -35
            assert res["holds"] is holds is bool(a_star <= _alpha_max_oracle(v2, s, n))


def _cks_min(rho, L, a_max):
    f = lambda a: rho * a + (L + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)   # noqa: E731
    lo, hi = mpmath.mpf(1) + mpmath.mpf(10) ** -6, mpmath.mpf(a_max)
    for _ in range(200):                                   # golden-section: f is convex in alpha
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        lo, hi = (lo, m2) if f(m1) < f(m2) else (m1, hi)
    return f((lo + hi) / 2)


@pytest.mark.parametrize("s,eps", [(1, F(1)), (10, F(1)), (10, F(1, 2))])
def test_achieved_epsilon_is_the_cks_minimum_on_the_alpha_range(s, eps):
    n = 10 ** 6
    v2 = cal.printed_v2(s, n, eps, DELTA)
    got = cal.achieved_epsilon(v2, s, n, DELTA)
    L = mpmath.log(10 ** 6)
    rho = 48 * mp(v2) / (s * n)
    oracle = _cks_min(rho, L, _alpha_max_oracle(mp(v2), s, n))
    assert got.upper >= oracle * (1 - mpmath.mpf(10) ** -9)
    assert abs(got.upper - oracle) < 1e-6
    assert got.upper < mp(cal.eq38_epsilon(v2, s, n, DELTA))        # tighter than (3.8)


def test_achieved_epsilon_refuses_empty_alpha_range():
    with pytest.raises(ValidityConditionError):
        cal.achieved_epsilon(cal.printed_v2(1, 10, 10 ** 4, DELTA), 1, 10, DELTA)
