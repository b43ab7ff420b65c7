"""bcdp.accounting.subsampling: the general transforms WBK19 Thm 9 and ZW19 Thm 6.

Independent references: sympy re-derivations of the printed formulas (exact rationals and exact
exp/log, evaluated to 50 digits); the float twins against the mpmath functions.  The shuffle-specific
routes (GDD21e (3.5), the Poisson mixture) are tested in tests/shuffle/test_shuffle_subsampled.py."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from bcdp.accounting import subsampling as sr
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.shuffle import bounds as sb
from hypothesis import given, settings
from hypothesis import strategies as st


def _sym_wbk19(base, g, a, einf):
    """WBK19 Thm 9 written out in sympy from the paper statement (independent of the code)."""
    e = {j: sp.Rational(base[j]) for j in base}
    ci = sp.exp(sp.Rational(einf)) - 1
    m2 = sp.Min(4 * (sp.exp(e[2]) - 1), sp.exp(e[2]) * sp.Min(2, ci ** 2))
    x = 1 + sp.Rational(g) ** 2 * sp.binomial(a, 2) * m2
    for j in range(3, a + 1):
        x += sp.Rational(g) ** j * sp.binomial(a, j) * sp.exp((j - 1) * e[j]) * sp.Min(2, ci ** j)
    return sp.log(x) / (a - 1)


def _sym_zw19(base, g, a):
    e = {j: sp.Rational(base[j]) for j in base}
    g = sp.Rational(g)
    x = (1 - g) ** (a - 1) * (a * g - g + 1) + sp.binomial(a, 2) * g ** 2 * (1 - g) ** (a - 2) * sp.exp(e[2])
    for ell in range(3, a + 1):
        x += 3 * sp.binomial(a, ell) * g ** ell * (1 - g) ** (a - ell) * sp.exp((ell - 1) * e[ell])
    return sp.log(x) / (a - 1)


def _mpf(q):
    return mpmath.mpf(q.numerator) / q.denominator


BASES = [{2: Fraction(1, 10), 3: Fraction(1, 7), 4: Fraction(1, 5)},
         {2: Fraction(3, 2), 3: Fraction(2), 4: Fraction(9, 4)},
         {2: Fraction(0), 3: Fraction(1, 1000), 4: Fraction(1, 100)}]


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("g", [Fraction(1, 100), Fraction(1, 3), Fraction(1)])
@pytest.mark.parametrize("a", [2, 3, 4])
@pytest.mark.parametrize("einf", [Fraction(1, 2), Fraction(3)])
def test_wbk19_matches_sympy(base, g, a, einf):
    with mpmath.workdps(60):
        got = sr.wbk19_thm9(lambda j: _mpf(base[j]), g, a, eps_inf=_mpf(einf))
    ref = sp.N(_sym_wbk19(base, g, a, einf), 50)
    with mpmath.workdps(60):
        assert abs(got - mpmath.mpf(str(ref))) <= mpmath.mpf(10) ** -40 * max(1, abs(got))


@pytest.mark.parametrize("base", BASES)
@pytest.mark.parametrize("g", [Fraction(1, 100), Fraction(1, 3), Fraction(9, 10)])
@pytest.mark.parametrize("a", [2, 3, 4])
def test_zw19_matches_sympy(base, g, a):
    with mpmath.workdps(60):
        got = sr.zw19_thm6(lambda j: _mpf(base[j]), g, a)
    ref = sp.N(_sym_zw19(base, g, a), 50)
    with mpmath.workdps(60):
        assert abs(got - mpmath.mpf(str(ref))) <= mpmath.mpf(10) ** -40 * max(1, abs(got))


def test_zw19_gamma_one_reduces_to_base_plus_log3():
    with mpmath.workdps(60):
        base = {2: mpmath.mpf("0.3"), 3: mpmath.mpf("0.4"), 4: mpmath.mpf("0.7")}
        assert abs(sr.zw19_thm6(base.get, 1, 2) - base[2]) < mpmath.mpf(10) ** -50
        for a in (3, 4):  # only the l = alpha term survives: eps(alpha) + log(3)/(alpha-1)
            assert abs(sr.zw19_thm6(base.get, 1, a) - (base[a] + mpmath.log(3) / (a - 1))) < mpmath.mpf(10) ** -50


def test_wbk19_gamma_one_and_small_eps_inf_closed_form():
    # gamma = 1, eps(j) = 0 for all j, eps_inf = 0: every min{} term vanishes -> 0 (the formula
    # does not reduce to the base in general, only here).
    assert sr.wbk19_thm9(lambda j: 0, 1, 5, eps_inf=0) == 0


@pytest.mark.parametrize("bad", [0, "-0.1", "1.5", -0.1, 1.5, float("nan"), mpmath.nan, None, True])
def test_gamma_validation(bad):
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: "0.1", bad, 2)
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6(lambda j: "0.1", bad, 2)


@pytest.mark.parametrize("alpha", [1, 0, "5/2", 2.5, float("nan"), mpmath.nan, float("inf"), "inf"])
def test_alpha_validation(alpha):
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: "0.1", "0.5", alpha)
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6(lambda j: "0.1", "0.5", alpha)


@pytest.mark.parametrize("val", ["-0.1", -0.1, float("nan"), mpmath.nan, None, "x"])
def test_base_validation(val):
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: val, "0.5", 3)
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6(lambda j: val, "0.5", 3)
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: "0.1", "0.5", 3, eps_inf=-1)


def test_float_policy_mpmath_transforms_refuse_floats_twins_accept_them():
    with pytest.raises(FloatRefusedError):
        sr.wbk19_thm9(lambda j: Fraction(1, 10), 0.5, 3)
    with pytest.raises(FloatRefusedError):
        sr.wbk19_thm9(lambda j: Fraction(1, 10), Fraction(1, 2), 3, eps_inf=1.0)
    with pytest.raises(FloatRefusedError):
        sr.zw19_thm6(lambda j: 0.1, Fraction(1, 2), 3)
    with pytest.raises(FloatRefusedError):
        sr.zw19_thm6(lambda j: Fraction(1, 10), Fraction(1, 2), 3.0)
    # the float twins take floats; on the exact binary values they agree with the mpmath transforms
    base = np.array([0.0, 0.0, 0.1, 0.1, 0.1])
    fw = sr.wbk19_thm9_float(base, 0.5, [3], eps_inf=1.0)[0]
    mw = sr.wbk19_thm9(lambda j: mpmath.mpf(base[j]), Fraction(1, 2), 3, eps_inf=1)
    assert abs(fw - float(mw)) <= 1e-12 * float(mw)
    fz = sr.zw19_thm6_float(base, "0.5", [4])[0]
    mz = sr.zw19_thm6(lambda j: mpmath.mpf(base[j]), "1/2", 4)
    assert abs(fz - float(mz)) <= 1e-12 * float(mz)
    # math.inf is the library's infinity sentinel (accepted), and the boundary gamma = 1 is inside
    assert sr.wbk19_thm9(lambda j: 0, 1, 5, eps_inf=float("inf")) == sr.wbk19_thm9(lambda j: 0, 1, 5)


def test_infinite_base_gives_infinity_not_nan():
    assert sr.wbk19_thm9(lambda j: mpmath.inf, "0.5", 3) == mpmath.inf
    assert sr.zw19_thm6(lambda j: mpmath.inf, "0.5", 3) == mpmath.inf


@settings(max_examples=40, deadline=None)
@given(st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)),
       st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)),
       st.integers(2, 12), st.floats(0, 3))
def test_monotone_in_gamma(g1, g2, a, slope):
    lo, hi = min(g1, g2), max(g1, g2)
    # a non-decreasing base curve eps(j) = slope * j (like a zCDP curve); slope's exact binary value
    base = lambda j: mpmath.mpf(slope) * j  # noqa: E731
    with mpmath.workdps(60):
        tol = mpmath.mpf(10) ** -45
        assert sr.wbk19_thm9(base, lo, a) <= sr.wbk19_thm9(base, hi, a) + tol
        # ZW19: E[c_L], L ~ Bin(a, gamma) with c_l non-decreasing in l -> non-decreasing in gamma
        assert sr.zw19_thm6(base, lo, a) <= sr.zw19_thm6(base, hi, a) + tol


def test_float_twins_match_mpmath():
    orders = np.array([2, 3, 7, 20, 39])
    base = np.zeros(40)
    base[2:] = sb.thm531_upper_float(100, 1.0, np.arange(2, 40))
    for g in (0.01, 0.3):
        fw = sr.wbk19_thm9_float(base, g, orders, eps_inf=1.0)
        fz = sr.zw19_thm6_float(base, g, orders)
        for i, a in enumerate(orders.tolist()):
            # the mpmath transforms refuse floats: give them the exact binary values of the floats
            mw = sr.wbk19_thm9(lambda j: mpmath.mpf(base[j]), mpmath.mpf(g), a, eps_inf=1)
            mz = sr.zw19_thm6(lambda j: mpmath.mpf(base[j]), mpmath.mpf(g), a)
            assert abs(fw[i] - float(mw)) <= 1e-11 * float(mw)
            assert abs(fz[i] - float(mz)) <= 1e-11 * float(mz)
