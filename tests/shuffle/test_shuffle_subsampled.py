"""bcdp.shuffle.subsampled: the GDD21e (3.5) baseline and the sound Poisson mixture route (identity (*)).

Independent references: sympy re-derivations of the printed formulas (exact rationals and exact
exp/log, evaluated to 50 digits), exact Fraction laws of bcdp.shuffle.exact, and the mpmath
Thm 5.4.1 / Cor 5.3.1 implementations of bcdp.shuffle.bounds."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from bcdp.core.errors import FloatRefusedError, ValidityConditionError
from bcdp.shuffle import bounds as sb
from bcdp.shuffle import exact as se
from bcdp.shuffle import subsampled as sr


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
        ref = sr.poisson_mixture_rdp(n, Fraction(1, 4), a,
                                     lambda t: min(sb.thm541_upper(n, t, Fraction(e0), a), mpmath.mpf(e0)))
        assert abs(got[i] - float(ref)) <= 1e-10 * float(ref)


def test_check_accepts_sound_routes_rejects_twins_and_zw19_reading():
    from bcdp.checks.thesis.subsampled_rdp_transforms import check

    r = check()
    assert r.verdict == "erratum", r.key_figure
    ev = r.evidence
    assert ev["identity_mismatches"] == 0 and not ev["wbk19_violations"] and not ev["poisson_mixture_violations"]
    assert all(c > 0 for c in ev["bad_twin_rejections"].values())
    assert ev["zw19_replacement_violations"] > 0


def test_float_policy_exact_functions_refuse_floats_twins_accept_them():
    # high-precision functions refuse floats (0.5 here), the float twins take them
    with pytest.raises(FloatRefusedError):
        sr.gdd21e_rdp(10**6, 0.5, 5)
    with pytest.raises(FloatRefusedError):
        sr.gdd21e_condition(10**6, 0.5, 5)
    with pytest.raises(FloatRefusedError):
        sr.poisson_mixture_rdp(5, 0.5, 3, lambda t: mpmath.mpf(t) / 10)
    with pytest.raises(FloatRefusedError):
        sr.poisson_mixture_rdp(5, Fraction(1, 2), 3, lambda t: t / 10)   # a float base value
    # the same values given exactly (the float's exact binary value) agree with the float twins
    v = sr.gdd21e_rdp(10**6, Fraction(0.5), 5)
    assert abs(sr.gdd21e_rdp_float(10**6, 0.5, [5])[0] - float(v)) <= 1e-12 * float(v)
    ref = sr.poisson_mixture_rdp(40, Fraction(0.25), 3,
                                 lambda t: min(sb.thm541_upper(40, t, mpmath.mpf(0.7), 3), mpmath.mpf(0.7)))
    got = sr.thm541_poisson_float(40, 0.25, 0.7, [3], window_sd=100)[0]
    assert abs(got - float(ref)) <= 1e-10 * float(ref)


def test_gdd21e_condition_just_inside_and_outside():
    # alpha^4 e^{5 eps0} <= n/9 with eps0 = 0 is 9 alpha^4 <= n: n = 144 holds at alpha = 2 (equality),
    # n = 143 does not (<= here, while Cor 5.3.1 needs the strict <)
    assert sr.gdd21e_condition(144, 0, 2) and not sr.gdd21e_condition(143, 0, 2)
    assert not sb.cor531_condition(144, 0, 2)
    # eps0 = log 2: 2^4 e^{5 log 2} = 512, so the condition is n >= 9 * 512 = 4608
    with mpmath.workdps(80):
        log2 = mpmath.log(2)
    assert sr.gdd21e_condition(4609, log2, 2) and not sr.gdd21e_condition(4607, log2, 2)
    with pytest.raises(ValidityConditionError):
        sr.gdd21e_rdp(4607, log2, 2)
    assert sr.gdd21e_rdp(4609, log2, 2) > 0
