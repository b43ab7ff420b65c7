"""bcdp.dme.calibration: input contracts (error class and the one-line message naming the argument),
exact boundaries (delta in (0, 1), eps > 0, alpha_max = 1 exactly, the decision margin), a proven tie
for decide_le, and achieved_epsilon where Lemma 3.3.2's order range binds, against independent oracles:
the Gaussian privacy curve by quadrature of the privacy loss (mpmath), LambertW (W e^W = n/16 makes
alpha_max = 1 exactly), and the CKS conversion minimised over alpha by mpmath at 60-80 digits."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.core.errors import (
    FloatRefusedError,
    InvalidInputError,
    UndecidedComparison,
    ValidityConditionError,
    WrongTypeError,
)
from bcdp.core.numbers import MIN_DPS
from bcdp.dme import calibration as cal
from mutation_support import raised

DELTA = F(1, 10 ** 6)


# -- argument names in the one-line messages ------------------------------------------------------

def test_int_arguments_refuse_floats_bools_and_name_the_argument():
    assert raised(WrongTypeError, cal.printed_v2, 2.5, 10, 1, DELTA) == "s must be an int >= 1, got float 2.5"
    assert raised(WrongTypeError, cal.printed_v2, True, 10, 1, DELTA) == "s must be an int >= 1, got bool True"
    assert raised(WrongTypeError, cal.printed_v2, 2, 10.0, 1, DELTA) == "n must be an int >= 1, got float 10.0"
    assert raised(WrongTypeError, cal.corrected_v2, 2.5, 10, 1, DELTA).startswith("s must be an int >= 1")
    assert raised(WrongTypeError, cal.corrected_v2, 2, 10.0, 1, DELTA).startswith("n must be an int >= 1")
    assert raised(WrongTypeError, cal.shuffled_rho, 1, 2.5, 10).startswith("s must be an int >= 1")
    assert raised(WrongTypeError, cal.shuffled_rho, 1, 2, 10.0).startswith("n must be an int >= 1")
    assert raised(WrongTypeError, cal.message_epsilon, 1, 2.5).startswith("s must be an int >= 1")
    assert raised(WrongTypeError, cal.lemma332_alpha_max, 1, 2, 10.0).startswith("n must be an int >= 1")
    assert raised(InvalidInputError, cal.printed_v2, 0, 10, 1, DELTA) == "s must be an int >= 1, got 0"


def test_rational_arguments_name_the_argument():
    for fn, args in ((cal.printed_v2, (2, 10, 0.5, DELTA)), (cal.corrected_v2, (2, 10, 0.5, DELTA))):
        assert raised(FloatRefusedError, fn, *args).startswith("eps: floats are refused")
    assert raised(FloatRefusedError, cal.lemma215_epsilon, 0.5, DELTA).startswith("rho: floats are refused")
    assert raised(FloatRefusedError, cal.gaussian_exact_delta, 0.5, 1).startswith("rho: floats are refused")
    assert raised(FloatRefusedError, cal.gaussian_exact_delta, 1, 0.5).startswith("eps: floats are refused")
    assert raised(FloatRefusedError, cal.log_inv, 0.5).startswith("delta: floats are refused")
    assert raised(FloatRefusedError, cal.achieved_epsilon, F(1, 10), 10, 10 ** 6, 0.5) \
        .startswith("delta: floats are refused")
    assert raised(WrongTypeError, cal.gaussian_exact_delta, 1, 1, dps=20.0) \
        .startswith("dps must be an integer in [")


def test_eps_and_rho_must_be_positive_zero_excluded():
    assert raised(InvalidInputError, cal.printed_v2, 2, 10, 0, DELTA) == "eps must be > 0, got 0"
    assert raised(InvalidInputError, cal.lemma215_epsilon, 0, DELTA) == "rho must be > 0, got 0"
    assert cal.printed_v2(1, 1, F(1, 10 ** 30), DELTA) != 0


def test_delta_is_in_the_open_unit_interval_both_ends():
    for bad in (0, 1, F(3, 2), F(-1, 2)):
        assert raised(InvalidInputError, cal.log_inv, bad) == f"delta must lie in (0, 1), got {F(bad)}"
    # just inside both ends: L = log(1/delta) exactly
    assert cal.log_inv(F(1, 10 ** 30)) == sympy.log(10 ** 30)
    assert cal.log_inv(F(10 ** 30 - 1, 10 ** 30)) == sympy.log(sympy.Rational(10 ** 30, 10 ** 30 - 1))


# -- num / decide_le ------------------------------------------------------------------------------

def test_num_keeps_more_than_fifty_digits():
    with mpmath.workdps(100):
        for expr, ref in ((sympy.pi, mpmath.pi), (sympy.sqrt(2), mpmath.sqrt(2)), (sympy.log(3), mpmath.log(3))):
            assert abs(cal.num(expr) - ref) < mpmath.mpf(10) ** -55


def test_decide_le_proven_ties_are_true_both_ways():
    # log 4 = 2 log 2 and sqrt(8) = 2 sqrt(2) (sympy keeps log(4) and 2 log(2) apart): provably equal
    for a, b in ((sympy.log(4), 2 * sympy.log(2)), (sympy.asinh(1), sympy.log(1 + sympy.sqrt(2)))):
        assert sympy.N(a - b, 80) == 0 or abs(sympy.N(a - b, 80)) < 1e-70
        assert cal.decide_le(a, b) is True
        assert cal.decide_le(b, a) is True


def test_decide_le_at_exactly_the_margin_decides():
    man, exp = cal._MARGIN.man_exp            # the documented threshold 1e-40 as held by the module
    m = sympy.Rational(man) * sympy.Rational(2) ** exp
    assert abs(float(m) - 1e-40) < 1e-55
    assert cal.decide_le(0, m) is True          # |a - b| is exactly the margin: decided, not undecided
    assert cal.decide_le(m, 0) is False
    with pytest.raises(UndecidedComparison):   # below the margin and not provably 0
        cal.decide_le(0, m / 2)


# -- Gaussian curve -------------------------------------------------------------------------------

def _gauss_delta_quadrature(rho: F, eps: F):
    """delta = E[(1 - e^{eps - Z})_+], Z ~ N(rho, 2 rho) the privacy loss of the Gaussian mechanism."""
    with mpmath.workdps(40):
        r, e = mpmath.mpf(rho.numerator) / rho.denominator, mpmath.mpf(eps.numerator) / eps.denominator
        sd = mpmath.sqrt(2 * r)
        f = lambda z: (1 - mpmath.exp(e - z)) * mpmath.npdf(z, r, sd)   # noqa: E731
        return mpmath.quad(f, [e, e + 5 * sd, e + 40 * sd, mpmath.inf])


@pytest.mark.parametrize("rho,eps", [(F(1), F(1, 2)), (F(1, 10), F(3, 7)), (F(2), F(5, 2))])
def test_gaussian_exact_delta_fractional_eps_and_low_dps(rho, eps):
    oracle = _gauss_delta_quadrature(rho, eps)
    assert oracle > mpmath.mpf(10) ** -3
    for dps in (MIN_DPS, 50):
        got = cal.gaussian_exact_delta(rho, eps, dps=dps)
        assert abs(got - oracle) <= oracle * mpmath.mpf(10) ** -(MIN_DPS - 1)


# -- calibration ----------------------------------------------------------------------------------

@pytest.mark.parametrize("s,n,eps", [(3, 1000, F(1, 2)), (7, 10 ** 5, F(3)), (1, 2, F(1, 10))])
def test_corrected_v2_gives_rho_L_min_eps2_eps_over_9(s, n, eps):
    """Erratum E-Thesis-3.8: with 432 = 9 x 48, rho L = 48 v^2 L/(s n) = min{eps^2, eps}/9 (mpmath, 60 digits)."""
    v2 = cal.corrected_v2(s, n, eps, DELTA)
    with mpmath.workdps(60):
        e = mpmath.mpf(eps.numerator) / eps.denominator
        L = mpmath.log(10 ** 6)
        rho_L = 48 * mpmath.mpf(sympy.N(v2, 70)) * L / (s * n)
        assert abs(rho_L - min(e * e, e) / 9) < mpmath.mpf(10) ** -45


# -- achieved_epsilon -----------------------------------------------------------------------------

def _lambert_v2(n: int, target):
    """v^2 = (2 sinh(W/2))^2 with W e^W = n/(16 target): then eps_msg = W (s = 1) and
    alpha_max = n/(16 W e^W) = target exactly."""
    W = sympy.LambertW(sympy.Rational(n, 16) / target)
    return (2 * sympy.sinh(W / 2)) ** 2


def test_achieved_epsilon_refuses_alpha_max_exactly_one():
    v2 = _lambert_v2(100, 1)
    with mpmath.workdps(60):
        assert abs(cal.num(cal.lemma332_alpha_max(v2, 1, 100)) - 1) < mpmath.mpf(10) ** -50
    msg = raised(ValidityConditionError, cal.achieved_epsilon, v2, 1, 100, DELTA)
    assert msg.startswith("Lemma 3.3.2 gives no order alpha > 1")


def _cks(rho, L, a):
    return rho * a + (L + (a - 1) * mpmath.log(1 - 1 / a) - mpmath.log(a)) / (a - 1)


def test_achieved_epsilon_where_the_order_range_binds():
    """alpha_max = 3/2 (in (1, 2]) below the unconstrained CKS order: the certified eps is the CKS value at
    alpha_max itself (f convex, decreasing there), never below it (no order beyond alpha_max may be used)."""
    n, s = 100, 1
    v2 = _lambert_v2(n, sympy.Rational(3, 2))
    got = cal.achieved_epsilon(v2, s, n, DELTA)
    with mpmath.workdps(60):
        rho = 48 * mpmath.mpf(sympy.N(v2, 70)) / (s * n)
        L = mpmath.log(10 ** 6)
        a_max = mpmath.mpf(3) / 2
        h = mpmath.mpf(10) ** -20
        assert (_cks(rho, L, a_max + h) - _cks(rho, L, a_max - h)) / (2 * h) < -1   # decreasing at alpha_max
        oracle = _cks(rho, L, a_max)
        assert got.lower >= oracle
        assert got.upper <= oracle * (1 + mpmath.mpf(10) ** -9)


def test_achieved_epsilon_huge_rho_has_a_certified_upper_bound():
    """s = 2^125, v = s, n = 100: rho = 48 s/100 ~ 2e37, alpha_max ~ 2.5; the CKS infimum (mpmath, 80 digits,
    golden section on alpha in (1, 2]) is rho + O(sqrt(rho L))."""
    s, n = 2 ** 125, 100
    got = cal.achieved_epsilon(s * s, s, n, DELTA)
    with mpmath.workdps(80):
        rho = mpmath.mpf(48 * s) / n
        L = mpmath.log(10 ** 6)
        lo, hi = 1 + mpmath.mpf(10) ** -40, mpmath.mpf(2)
        for _ in range(400):
            m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
            lo, hi = (lo, m2) if _cks(rho, L, m1) < _cks(rho, L, m2) else (m1, hi)
        oracle = _cks(rho, L, (lo + hi) / 2)
        assert rho < oracle < rho * (1 + mpmath.mpf(10) ** -15)
        assert got.upper >= oracle
        assert got.upper <= oracle * (1 + mpmath.mpf(10) ** -12)


# -- Lemma 2.1.5's proof chain (A.1)-(A.2) ----------------------------------------------------------

@pytest.mark.parametrize("rho,delta", [(F(1, 10), DELTA), (F(3), F(1, 3)), (F(1, 1000), F(1, 10 ** 12))])
def test_lemma215_chain_terms_from_the_printed_formulas(rho, delta):
    """thesis (A.1) at alpha* = 1 + sqrt(L/rho): rho a + L/(a-1) + log(1 - 1/a) <= rho + 2 sqrt(rho L)
    <= rho L + 2 sqrt(rho L) (needs L >= 1) <= 3 max{rho L, sqrt(rho L)}; mpmath at 60 digits."""
    chain = cal.lemma215_chain(rho, delta)
    assert set(chain) == {"alpha_star", "A1", "bun_steinke", "after_L_ge_1", "printed"}
    with mpmath.workdps(60):
        r = mpmath.mpf(rho.numerator) / rho.denominator
        L = mpmath.log(mpmath.mpf(delta.denominator) / delta.numerator)
        a = 1 + mpmath.sqrt(L / r)
        x = r * L
        oracle = {"alpha_star": a, "A1": r * a + L / (a - 1) + mpmath.log(1 - 1 / a),
                  "bun_steinke": r + 2 * mpmath.sqrt(x), "after_L_ge_1": x + 2 * mpmath.sqrt(x),
                  "printed": 3 * max(x, mpmath.sqrt(x))}
        got = {k: mpmath.mpf(sympy.N(v, 70)) for k, v in chain.items()}
        for k in oracle:
            assert abs(got[k] - oracle[k]) <= abs(oracle[k]) * mpmath.mpf(10) ** -50, k
        assert got["A1"] <= got["bun_steinke"] <= got["after_L_ge_1"] <= got["printed"]


def test_lemma215_chain_input_messages():
    assert raised(FloatRefusedError, cal.lemma215_chain, 0.5, DELTA).startswith("rho: floats are refused")
    assert raised(InvalidInputError, cal.lemma215_chain, 0, DELTA) == "rho must be > 0, got 0"
    assert raised(InvalidInputError, cal.lemma215_chain, 1, 1) == "delta must lie in (0, 1), got 1"
