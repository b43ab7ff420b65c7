"""bcdp.accounting.subsampling: WBK19 Thm 9, ZW19 Thm 6, GDD21e (3.5), the sound Poisson mixture route.

Independent references: sympy re-derivations of the printed formulas (exact rationals and exact
exp/log, evaluated to 50 digits), exact Fraction laws of bcdp.shuffle.exact, and the existing
mpmath Thm 5.4.1 / Cor 5.3.1 implementations of bcdp.shuffle.bounds."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from bcdp.accounting import subsampling as sr
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.shuffle import bounds as sb
from bcdp.shuffle import exact as se
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


@pytest.mark.parametrize("bad", [0, -0.1, 1.5, float("nan"), None, True])
def test_gamma_validation(bad):
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: 0.1, bad, 2)
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6(lambda j: 0.1, bad, 2)


@pytest.mark.parametrize("alpha", [1, 0, 2.5, float("nan"), float("inf")])
def test_alpha_validation(alpha):
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: 0.1, 0.5, alpha)
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6(lambda j: 0.1, 0.5, alpha)


@pytest.mark.parametrize("val", [-0.1, float("nan"), None, "x"])
def test_base_validation(val):
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: val, 0.5, 3)
    with pytest.raises(InvalidInputError):
        sr.zw19_thm6(lambda j: val, 0.5, 3)
    with pytest.raises(InvalidInputError):
        sr.wbk19_thm9(lambda j: 0.1, 0.5, 3, eps_inf=-1)


def test_infinite_base_gives_infinity_not_nan():
    assert sr.wbk19_thm9(lambda j: mpmath.inf, 0.5, 3) == mpmath.inf
    assert sr.zw19_thm6(lambda j: mpmath.inf, 0.5, 3) == mpmath.inf


@settings(max_examples=40, deadline=None)
@given(st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)),
       st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)),
       st.integers(2, 12), st.floats(0, 3))
def test_monotone_in_gamma(g1, g2, a, slope):
    lo, hi = min(g1, g2), max(g1, g2)
    # a non-decreasing base curve eps(j) = slope * j (like a zCDP curve)
    base = lambda j: slope * j  # noqa: E731
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
            mw = sr.wbk19_thm9(lambda j: base[j], g, a, eps_inf=1.0)
            mz = sr.zw19_thm6(lambda j: base[j], g, a)
            assert abs(fw[i] - float(mw)) <= 1e-11 * float(mw)
            assert abs(fz[i] - float(mz)) <= 1e-11 * float(mz)


def test_gdd21e_validity_and_agreement_with_cor531():
    with pytest.raises(ValidityConditionError):
        sr.gdd21e_rdp(1000, 2, 2)          # 16 e^10 > 1000/9
    with pytest.raises(ValidityConditionError):
        sr.gdd21e_rdp(10**6, 0, 2)         # stated for eps0 > 0
    assert np.all(np.isinf(sr.gdd21e_rdp_float(1000, 2.0, [2, 3])))
    assert np.all(np.isinf(sr.gdd21e_rdp_float(10**6, 2.0, [2])))  # the 2.5x setting even at k = n
    for n, e0, a in [(10**6, Fraction(1, 2), 5), (10**8, Fraction(1), 7), (10**6, Fraction(1, 10), 9)]:
        assert sr.gdd21e_condition(n, e0, a)
        v = sr.gdd21e_rdp(n, e0, a)
        assert abs(v - sb.cor531_upper(n, e0, a)) <= mpmath.mpf(10) ** -50 * v
        ref = sp.N(sp.log(1 + 2 * a * (a - 1) * (sp.exp(sp.Rational(e0)) - 1) ** 2 / n) / (a - 1), 50)
        with mpmath.workdps(60):
            assert abs(v - mpmath.mpf(str(ref))) <= mpmath.mpf(10) ** -40 * v
        assert abs(sr.gdd21e_rdp_float(n, float(e0), [a])[0] - float(v)) <= 1e-12 * float(v)


def test_poisson_identity_exact_small_instance():
    ker = se.kary_rr_kernel(2, exp_eps0=Fraction(3))
    g = Fraction(2, 5)
    D, Dp = (0, 1, 0), (0, 1, 1)
    P, Q = (se.subsampled_shuffled_law(ker, x, "poisson", g) for x in (D, Dp))
    for a in (2, 3):
        rhs = (1 - g) ** 3
        for t in range(1, 4):
            Pt, Qt = (se.subsampled_shuffled_law(ker, x, "uniform", t) for x in (D, Dp))
            rhs += math.comb(3, t) * g ** t * (1 - g) ** (3 - t) * se.renyi_moment_exact(Pt, Qt, a)
        assert se.renyi_moment_exact(P, Q, a) == rhs


def test_poisson_mixture_gamma_one_is_the_uniform_bound_at_n():
    v = sr.poisson_mixture_rdp(5, 1, 3, lambda t: mpmath.mpf(t) / 10)
    assert abs(v - mpmath.mpf("0.5")) < mpmath.mpf(10) ** -50


def test_thm541_poisson_float_matches_mpmath_mixture():
    n, g, e0 = 60, 0.25, 1.0
    got = sr.thm541_poisson_float(n, g, e0, [2, 3, 6], window_sd=100)   # window = all t >= 1
    for i, a in enumerate((2, 3, 6)):
        ref = sr.poisson_mixture_rdp(n, Fraction(1, 4), a, lambda t: min(sb.thm541_upper(n, t, e0, a), mpmath.mpf(e0)))
        assert abs(got[i] - float(ref)) <= 1e-10 * float(ref)


def test_check_accepts_sound_routes_rejects_twins_and_zw19_reading():
    from bcdp.checks.thesis.subsampled_rdp_transforms import check

    r = check()
    assert r.verdict == "erratum", r.key_figure
    ev = r.evidence
    assert ev["identity_mismatches"] == 0 and not ev["wbk19_violations"] and not ev["poisson_mixture_violations"]
    assert all(c > 0 for c in ev["bad_twin_rejections"].values())
    assert ev["zw19_replacement_violations"] > 0
