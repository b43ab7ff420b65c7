"""Mutation kills for Cor 5.3.1 (thesis Sec. 5.3, Simplified Upper Bound 1, eq. (5.5) and the
intermediate statement (D.1) of App. D.1) and the [GDD21e] float twin (thesis Lemma 3.3.1, eq. (3.5)):
values against the printed formulas evaluated here with mpmath at dps + 40 digits, both sides of the
validity conditions alpha^4 e^{5 eps0} < n/9 (Cor 5.3.1) and <= n/9 (Lemma 3.3.1), cap, forms and the
argument checks.

Printed: (5.5) log(1 + 4 C(a,2)(E-1)^2/n)/(a-1); (D.1) log(1 + a^2 (E-1)^2/(nbar E))/(a-1),
nbar = floor((n-1)/(2E)) + 1 (Thm 5.3.1); (3.5) log(1 + 2 a(a-1)(E-1)^2/n)/(a-1)."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import float_bounds as fb
from bcdp.shuffle import shuffled_bounds as sh
from bcdp.shuffle import subsampled as sr


def _f(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)


def _eq55(n, e0, a):
    E = mpmath.exp(_f(e0))
    return mpmath.log1p(4 * mpmath.binomial(a, 2) * (E - 1) ** 2 / n) / (a - 1)


def _d1(n, e0, a):
    E = mpmath.exp(_f(e0))
    nbar = mpmath.floor((n - 1) / (2 * E)) + 1
    return mpmath.log1p(mpmath.mpf(a) ** 2 * (E - 1) ** 2 / (nbar * E)) / (a - 1)


def _close(got, ref, dps):
    assert abs(got - ref) <= mpmath.mpf(10) ** (-(dps - 3)) * abs(ref), (got, ref)


@pytest.mark.parametrize("dps", [60, 100])
@pytest.mark.parametrize("n, e0, a", [(10**6, Fraction(1, 2), 5), (10**8, Fraction(1), 7), (10**6, Fraction(1, 10), 9)])
def test_cor531_both_forms_printed(n, e0, a, dps):
    with mpmath.workdps(dps + 40):
        _close(sh.cor531_upper(n, e0, a, dps=dps), _eq55(n, e0, a), dps)
        _close(sh.cor531_upper(n, e0, a, form="D.1", dps=dps), _d1(n, e0, a), dps)
        _close(sh.cor531_upper(n, e0, a, form="D.1", enforce=False, dps=dps), _d1(n, e0, a), dps)


def test_cor531_unknown_form_is_refused():
    with pytest.raises(InvalidInputError, match="unknown form"):
        sh.cor531_upper(10**6, Fraction(1, 2), 5, form="x")


def test_cor531_cap_default_off_and_on():
    # n = 1, eps0 = 1, a = 2 (outside the condition, evaluated with enforce=False): log(1 + 4(e-1)^2) = 2.55 > 1
    with mpmath.workdps(100):
        ref = _eq55(1, Fraction(1), 2)
    v = sh.cor531_upper(1, Fraction(1), 2, enforce=False)
    assert ref > 1
    _close(v, ref, 60)
    assert sh.cor531_upper(1, Fraction(1), 2, enforce=False, cap=True) == 1
    f = fb.cor531_upper_float(1, 1.0, [2, 3], enforce=False)
    assert f[0] > 1 and abs(f[0] - float(ref)) <= 4e-16 * float(ref)
    assert np.array_equal(fb.cor531_upper_float(1, 1.0, [2, 3], enforce=False, cap=True), [1.0, 1.0])


def test_cor531_argument_checks():
    with pytest.raises(InvalidInputError, match="^dps must"):
        sh.cor531_upper(10**6, Fraction(1, 2), 5, dps=5)
    with pytest.raises(InvalidInputError, match="^dps must"):
        sh.cor531_condition(10**6, Fraction(1, 2), 5, dps=5)
    with pytest.raises(InvalidInputError, match="integer orders"):
        sh.cor531_upper(10**6, Fraction(1, 2), Fraction(5, 2))


def test_cor531_condition_real_orders_and_infinities():
    # the condition itself is stated for real alpha: at eps0 = 0 it is 9 alpha^4 < n, 9 (5/2)^4 = 351.56
    assert sh.cor531_condition(352, 0, Fraction(5, 2)) and not sh.cor531_condition(351, 0, Fraction(5, 2))
    assert not sh.cor531_condition(200, 0, Fraction(5, 2))          # 9 * 2^4 = 144 < 200 but alpha is 5/2
    assert sh.cor531_condition(145, 0, 2) and not sh.cor531_condition(144, 0, 2)
    assert not sh.cor531_condition(10**9, "inf", 2)
    assert not sh.cor531_condition(10**9, Fraction(1), "inf")
    assert sh.cor531_condition(10**9, Fraction(1), 3)


def _boundary_eps0(n, a, rel):
    """eps0 with (4 log a + 5 eps0) = log(n/9) (1 + rel), as a float (mpmath at 50 digits)."""
    with mpmath.workdps(50):
        return float((mpmath.log(mpmath.mpf(n) / 9) * (1 + rel) - 4 * mpmath.log(a)) / 5)


@pytest.mark.parametrize("n, a", [(10**6, 2), (10**8, 5), (10**12, 30)])
def test_float_conditions_just_inside_and_just_outside(n, a):
    inside, outside = _boundary_eps0(n, a, -1e-9), _boundary_eps0(n, a, 1e-9)
    with mpmath.workdps(60):
        assert mpmath.mpf(a) ** 4 * mpmath.exp(5 * mpmath.mpf(inside)) < mpmath.mpf(n) / 9
        assert mpmath.mpf(a) ** 4 * mpmath.exp(5 * mpmath.mpf(outside)) > mpmath.mpf(n) / 9
        ref = float(_eq55(n, inside, a))
    for f in (fb.cor531_upper_float, sr.gdd21e_rdp_float):
        v = f(n, inside, [a])
        assert abs(v[0] - ref) <= 1e-14 * ref
        assert np.isposinf(f(n, outside, [a])[0])
    # within the 1e-12 relative guard: refused (the guard leans towards 'invalid')
    guard = _boundary_eps0(n, a, -1e-13)
    assert np.isposinf(fb.cor531_upper_float(n, guard, [a])[0]) and np.isposinf(sr.gdd21e_rdp_float(n, guard, [a])[0])
    # enforce=False evaluates (3.5) = (5.5) outside the condition
    with mpmath.workdps(60):
        ref_out = float(_eq55(n, outside, a))
    assert abs(sr.gdd21e_rdp_float(n, outside, [a], enforce=False)[0] - ref_out) <= 1e-14 * ref_out


def test_float_twins_edges():
    for f in (fb.cor531_upper_float, sr.gdd21e_rdp_float):
        inf = f(10**6, math.inf, [2, 3, 4])
        assert inf.shape == (3,) and np.all(np.isposinf(inf))
        assert np.array_equal(f(10**6 * 1.0, 0.5, [2, 3]), f(10**6, 0.5, [2, 3]))
    z = sr.gdd21e_rdp_float(10**6, 0.0, [2, 3])                     # Lemma 3.3.1 is stated for eps0 > 0
    assert z.shape == (2,) and np.all(np.isposinf(z))
    assert np.array_equal(fb.cor531_upper_float(145, 0.0, [2]), [0.0])
    assert np.isposinf(fb.cor531_upper_float(144, 0.0, [2])[0])
