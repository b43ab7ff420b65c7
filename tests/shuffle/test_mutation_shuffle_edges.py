"""Mutation kills for the high-precision closed forms of thesis Ch. 5 and the shuffle input checks:
values pinned against the printed statements evaluated here with mpmath at dps + 40 digits (so a
lowered working precision is caught: the tolerance is 10^-(dps-3) relative), the argument named in
each error message, integer vs real orders, the cap, the infinite order, the sampling fraction's
range (0, 1], the closed-form filter, and the options passed on to the helpers (dps, kwargs).

Printed statements used (thesis Ch. 5; E = e^eps0):
* (5.13) Thm 5.3.5: 1 + C(a,2)(E-1)^2/(mE) + sum_{i=3}^a C(a,i) i Gamma(i/2) ((E^2-1)^2/(2 m E^2))^{i/2};
* (5.16) Thm 5.3.6: exp(a^2 (E-1)^2/m);
* (5.8)  [EFM19] as quoted: 2 a e^{4 eps0}(E-1)^2/n;
* (5.10) Cor 5.3.2: log(1 + C(a,2)(E-1)^2/(nE))/(a-1);
* (5.4)  Thm 5.3.1: log(1 + C(a,2)(E-1)^2/(nbar E) + sum_{i=3}^a C(a,i) i Gamma(i/2) ((E^2-1)^2/(2E^2 nbar))^{i/2}
  + e^{eps0 a - (n-1)/(8E)})/(a-1), nbar = floor((n-1)/(2E)) + 1; (5.6) Remark 5.3.2: with w = ceil(a) - a,
  eps(a) <= [w (floor(a)-1) eps(floor(a)) + (1-w)(ceil(a)-1) eps(ceil(a))]/(a-1);
* Thm 5.4.2: log(1 + C(a,2) g^2 (E-1)^2/(kE) + sum_{j=3}^a C(a,j) g^j ((E^2-1)/(kE))^j E[(m - k/(E+1))^j])/(a-1),
  m ~ Bin(k, 1/(E+1)), g = k/n;
* Lemma 5.4.1: log(1 + sum_{l=2}^a C(a,l) g^l zeta(l)^l)/(a-1);
* Upsilon of Thm 5.4.1: (1 + x)^a - 1 - a x;
* Lemma 3.3.1 [GDD21e]: a^4 e^{5 eps0} <= n/9 (and eps0 > 0), value log(1 + 2a(a-1)(E-1)^2/n)/(a-1);
* kbar = floor((k-1)/(2E)) + 1 (Thm 5.4.1), (k-1)/(2E) + 1 unfloored;
* the Poisson identity (*) of bcdp.shuffle.subsampled: log(sum_{t=0}^n Bin(n,g)(t) e^{(a-1) eps_U(t)})/(a-1),
  eps_U(0) = 0."""

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import GUARD_DPS, MAX_DPS
from bcdp.shuffle import inputs
from bcdp.shuffle import shuffled_bounds as sh
from bcdp.shuffle import subsampled as sr
from bcdp.shuffle import subsampled_bounds as sb


def _q(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)


def _E(eps0):
    return mpmath.exp(_q(eps0))


def _close(got, ref, dps):
    with mpmath.workdps(dps + 40):
        assert abs(got - ref) <= mpmath.mpf(10) ** (-(dps - 3)) * abs(ref), (got, ref)


def eq513(m, eps0, a):
    E = _E(eps0)
    s = 1 + mpmath.binomial(a, 2) * (E - 1) ** 2 / (m * E)
    for i in range(3, a + 1):
        s += mpmath.binomial(a, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * ((E * E - 1) ** 2 / (2 * m * E * E)) ** (mpmath.mpf(i) / 2)
    return s


def eq516(m, eps0, a):
    return mpmath.exp(_q(a) ** 2 * (_E(eps0) - 1) ** 2 / m)


def eq58(n, eps0, a):
    E = _E(eps0)
    return 2 * _q(a) * E ** 4 * (E - 1) ** 2 / n


def eq510(n, eps0, a):
    E = _E(eps0)
    return mpmath.log1p(mpmath.binomial(a, 2) * (E - 1) ** 2 / (n * E)) / (a - 1)


def eq54(n, eps0, a):
    E = _E(eps0)
    nbar = mpmath.floor((n - 1) / (2 * E)) + 1
    s = mpmath.binomial(a, 2) * (E - 1) ** 2 / (nbar * E) + mpmath.exp(_q(eps0) * a - (n - 1) / (8 * E))
    for i in range(3, a + 1):
        s += mpmath.binomial(a, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * ((E * E - 1) ** 2 / (2 * E * E * nbar)) ** (mpmath.mpf(i) / 2)
    return mpmath.log1p(s) / (a - 1)


def thm542(n, k, eps0, a):
    E = _E(eps0)
    p = 1 / (E + 1)
    g = mpmath.mpf(k) / n

    def central(j):   # E[(m - k p)^j], m ~ Bin(k, p), summed over every m
        return mpmath.fsum(mpmath.binomial(k, m) * p ** m * (1 - p) ** (k - m) * (m - k * p) ** j for m in range(k + 1))

    x = mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (k * E)
    for j in range(3, a + 1):
        x += mpmath.binomial(a, j) * g ** j * ((E * E - 1) / (k * E)) ** j * central(j)
    return mpmath.log1p(x) / (a - 1)


# -- the argument named in the error messages ----------------------------------------------------------

DPS_CALLS = {
    "thm535": lambda dps: sh.thm535_special_case(5, 1, 3, dps=dps),
    "thm536": lambda dps: sh.thm536_special_case(5, 1, 3, dps=dps),
    "cor532": lambda dps: sh.cor532_lower(50, 1, 3, dps=dps),
    "efm19": lambda dps: sh.efm19_upper(50, 1, 3, dps=dps),
    "interpolate": lambda dps: sh.interpolate_real_alpha(lambda j: 1, Fraction(5, 2), dps=dps),
    "kbar": lambda dps: sh.kbar(50, 1, dps=dps),
    "gdd21e_condition": lambda dps: sr.gdd21e_condition(10**6, 1, 2, dps=dps),
    "gdd21e_rdp": lambda dps: sr.gdd21e_rdp(10**6, 1, 2, dps=dps),
    "poisson_mixture": lambda dps: sr.poisson_mixture_rdp(3, Fraction(1, 2), 2, lambda t: 0, dps=dps),
    "lemma541": lambda dps: sb.lemma541_subsampled(lambda lam: 1, Fraction(1, 2), 3, dps=dps),
    "thm542": lambda dps: sb.thm542_lower(10, 5, 1, 3, dps=dps),
    "upsilon": lambda dps: sb.upsilon(3, Fraction(1, 2), dps=dps),
}


@pytest.mark.parametrize("name", sorted(DPS_CALLS))
def test_precision_errors_name_dps(name):
    with pytest.raises(InvalidInputError, match="^dps must be an integer in"):
        DPS_CALLS[name](5)


@pytest.mark.parametrize("f", [sh.thm535_special_case, sh.thm536_special_case])
def test_special_case_errors_name_m(f):
    with pytest.raises(InvalidInputError, match="^m must be >= 1"):
        f(0, 1, 2)


INTEGER_ONLY = {
    "thm535": lambda a: sh.thm535_special_case(5, 1, a),
    "gdd21e_condition": lambda a: sr.gdd21e_condition(10**6, 1, a),
    "gdd21e_rdp": lambda a: sr.gdd21e_rdp(10**6, 1, a),
    "lemma541": lambda a: sb.lemma541_subsampled(lambda lam: 1, Fraction(1, 2), a),
    "thm542": lambda a: sb.thm542_lower(10, 5, 1, a),
}


@pytest.mark.parametrize("name", sorted(INTEGER_ONLY))
def test_integer_order_theorems_refuse_real_orders(name):
    INTEGER_ONLY[name](3)   # an integer order is accepted
    with pytest.raises(InvalidInputError, match="^this theorem holds for integer orders"):
        INTEGER_ONLY[name](Fraction(5, 2))


# -- Thm 5.3.5 / 5.3.6 -------------------------------------------------------------------------------

@pytest.mark.parametrize("dps", [60, 100])
@pytest.mark.parametrize("m, eps0", [(7, Fraction(1, 2)), (300, Fraction(3, 2))])
def test_thm535_printed_formula(m, eps0, dps):
    for a in (2, 3, 6):
        got = sh.thm535_special_case(m, eps0, a, dps=dps)
        with mpmath.workdps(dps + 40):
            _close(got, eq513(m, eps0, a), dps)


@pytest.mark.parametrize("dps", [60, 100])
@pytest.mark.parametrize("m, eps0", [(7, Fraction(1, 2)), (300, Fraction(3, 2))])
def test_thm536_printed_formula_at_real_orders(m, eps0, dps):
    for a in (Fraction(3, 2), 2, Fraction(7, 3), 5):
        got = sh.thm536_special_case(m, eps0, a, dps=dps)
        with mpmath.workdps(dps + 40):
            _close(got, eq516(m, eps0, a), dps)


def test_thm536_and_efm19_at_an_infinite_order():
    # alpha = inf: +inf (an upper bound), also at eps0 = 0 where the formula would read inf * 0
    for eps0 in (0, 1):
        v = sh.thm536_special_case(5, eps0, mpmath.inf)
        assert not mpmath.isnan(v) and v == mpmath.inf
        v = sh.efm19_upper(50, eps0, mpmath.inf)
        assert not mpmath.isnan(v) and v == mpmath.inf
    assert sh.efm19_upper(50, mpmath.inf, 2) == mpmath.inf


# -- (5.8), (5.10) -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dps", [60, 100])
def test_efm19_and_cor532_printed_formulas(dps):
    for n, eps0, a in [(1000, Fraction(1, 3), 2), (10**6, Fraction(5, 2), 7)]:
        with mpmath.workdps(dps + 40):
            r58, r510 = eq58(n, eps0, a), eq510(n, eps0, a)
        _close(sh.efm19_upper(n, eps0, a, dps=dps), r58, dps)
        _close(sh.cor532_lower(n, eps0, a, dps=dps), r510, dps)
    with mpmath.workdps(dps + 40):
        _close(sh.efm19_upper(1000, Fraction(1, 3), Fraction(5, 2), dps=dps), eq58(1000, Fraction(1, 3), Fraction(5, 2)), dps)


def test_efm19_cap():
    # n = 10, eps0 = 1, alpha = 2: 4 e^4 (e-1)^2/10 = 64.5 > 1
    with mpmath.workdps(100):
        ref = eq58(10, 1, 2)
    assert ref > 1
    _close(sh.efm19_upper(10, 1, 2), ref, 60)
    _close(sh.efm19_upper(10, 1, 2, cap=False), ref, 60)
    assert sh.efm19_upper(10, 1, 2, cap=True) == 1
    assert sh.efm19_upper(10, Fraction(1, 2), 2, cap=True) == mpmath.mpf(1) / 2
    small = sh.efm19_upper(10**9, 1, 2, cap=True)    # below eps0: unchanged
    with mpmath.workdps(100):
        _close(small, eq58(10**9, 1, 2), 60)


# -- Remark 5.3.2 (5.6) on Thm 5.3.1 (5.4), kbar ---------------------------------------------------------

@pytest.mark.parametrize("dps", [60, 100])
def test_thm531_upper_real_interpolates_the_printed_bound_at_the_callers_precision(dps):
    n, eps0, a = 1000, Fraction(1, 2), Fraction(5, 2)
    got = sh.thm531_upper_real(n, eps0, a, dps=dps)
    with mpmath.workdps(dps + 40):
        w = mpmath.mpf(1) / 2                      # ceil(5/2) - 5/2
        ref = (w * 1 * eq54(n, eps0, 2) + (1 - w) * 2 * eq54(n, eps0, 3)) / (_q(a) - 1)
        _close(got, ref, dps)
    # kwargs reach the integer-order bound: cap=True caps each eps(j) at eps0 (both are above it here)
    capped = sh.thm531_upper_real(3, eps0, a, cap=True, dps=dps)
    with mpmath.workdps(dps + 40):
        assert eq54(3, eps0, 2) > _q(eps0) and eq54(3, eps0, 3) > _q(eps0)
        _close(capped, (w * _q(eps0) + (1 - w) * 2 * _q(eps0)) / (_q(a) - 1), dps)


def test_kbar_unfloored_at_the_callers_precision():
    for dps in (60, 100):
        got = sh.kbar(100, Fraction(1, 3), floor=False, dps=dps)
        with mpmath.workdps(dps + 40):
            _close(got, 99 / (2 * _E(Fraction(1, 3))) + 1, dps)
    assert sh.kbar(100, Fraction(1, 3)) == 36      # floor(99/(2 e^(1/3))) + 1 = floor(35.47) + 1


# -- Thm 5.4.2, Lemma 5.4.1, Upsilon --------------------------------------------------------------------

@pytest.mark.parametrize("dps", [60, 100])
def test_thm542_printed_formula(dps):
    for n, k, eps0, a in [(10, 6, Fraction(1, 2), 4), (40, 9, Fraction(2), 6)]:
        got = sb.thm542_lower(n, k, eps0, a, dps=dps)
        with mpmath.workdps(dps + 40):
            _close(got, thm542(n, k, eps0, a), dps)


@pytest.mark.parametrize("dps", [60, 100])
def test_lemma541_printed_formula_asks_zeta_only_at_orders_up_to_alpha(dps):
    zeta = {2: Fraction(3, 2), 3: Fraction(7, 5), 4: Fraction(9, 4), 5: Fraction(11, 2)}  # zeta(l)^l, l = 2..5
    g = Fraction(2, 7)
    got = sb.lemma541_subsampled(zeta.__getitem__, g, 5, dps=dps)
    x = sum(math.comb(5, lam) * g ** lam * zeta[lam] for lam in range(2, 6))
    with mpmath.workdps(dps + 40):
        _close(got, mpmath.log1p(_q(x)) / 4, dps)


def test_read_gamma_range_is_zero_excluded_one_included():
    assert inputs.read_gamma(1) == 1
    assert inputs.read_gamma(Fraction(1, 3)) == mpmath.mpf(1) / 3
    for bad in (0, Fraction(-1, 2), Fraction(1000001, 10**6), 2, Fraction(3, 2)):
        with pytest.raises(InvalidInputError, match=r"^gamma must lie in \(0, 1\]"):
            inputs.read_gamma(bad)
    for bad in (True, "abc"):
        with pytest.raises(InvalidInputError, match="^gamma: "):
            inputs.read_gamma(bad)


def test_upsilon_exact_values_and_its_precision_range():
    for a, x in [(3, Fraction(1, 2)), (7, Fraction(1, 3)), (12, Fraction(5, 4))]:
        exact = (1 + x) ** a - 1 - a * x
        for dps in (60, 100):
            got = sb.upsilon(a, x, dps=dps)
            with mpmath.workdps(dps + 40):
                _close(got, _q(exact), dps)
    # thm541_upper calls it at dps + 10 digits: up to MAX_DPS + GUARD_DPS is accepted
    got = sb.upsilon(3, Fraction(1, 2), dps=MAX_DPS + GUARD_DPS)
    assert got == mpmath.mpf(7) / 8
    with pytest.raises(InvalidInputError, match="^dps must be an integer in"):
        sb.upsilon(3, Fraction(1, 2), dps=MAX_DPS + GUARD_DPS + 1)


# -- the Poisson identity (*) ------------------------------------------------------------------------

@pytest.mark.parametrize("dps", [60, 100])
def test_poisson_mixture_printed_identity(dps):
    n, g, a = 6, Fraction(1, 3), 3

    def eps_u(t):
        return Fraction(t, 10)

    got = sr.poisson_mixture_rdp(n, g, a, eps_u, dps=dps)
    with mpmath.workdps(dps + 40):
        gg = _q(g)
        s = mpmath.fsum(mpmath.binomial(n, t) * gg ** t * (1 - gg) ** (n - t) * mpmath.exp((a - 1) * _q(eps_u(t)))
                        for t in range(n + 1))
        _close(got, mpmath.log(s) / (a - 1), dps)


def test_poisson_mixture_names_the_bad_t():
    with pytest.raises(InvalidInputError, match=r"U,t=2"):
        sr.poisson_mixture_rdp(4, Fraction(1, 2), 2, lambda t: -1 if t == 2 else 0)


# -- [GDD21e] Lemma 3.3.1 ------------------------------------------------------------------------------

def test_gdd21e_condition_boundaries():
    # eps0 = 0: 9 a^4 <= n exactly (<=, not <): n = 144 = 9 * 2^4 is inside, 143 outside
    assert sr.gdd21e_condition(144, 0, 2) and not sr.gdd21e_condition(143, 0, 2)
    # eps0 = 1: 9 * 2^4 e^5 = 21371.49..., so n = 21372 is inside, 21371 outside
    assert sr.gdd21e_condition(21372, 1, 2) and not sr.gdd21e_condition(21371, 1, 2)
    assert not sr.gdd21e_condition(144, 1, 2)            # e^5 matters at eps0 = 1
    assert not sr.gdd21e_condition(10**30, mpmath.inf, 2)


def _threshold_eps0(n, a, offset, digits):
    """A rational eps0 within 10^-digits of log(n/(9 a^4))/5 + offset (offset relative to n/9)."""
    with mpmath.workdps(digits + 40):
        x = mpmath.log(mpmath.mpf(n) * (1 + offset) / (9 * mpmath.mpf(a) ** 4)) / 5
        return Fraction(int(mpmath.nint(x * 10 ** digits)), 10 ** digits)


def _side(n, a, eps0):
    with mpmath.workdps(200):
        return mpmath.sign(mpmath.mpf(a) ** 4 * mpmath.exp(5 * _q(eps0)) - mpmath.mpf(n) / 9)


def test_gdd21e_condition_decided_at_the_callers_precision_near_its_boundary():
    n, a = 10**6, 3
    for off in (mpmath.mpf(10) ** -65, -mpmath.mpf(10) ** -65):
        e0 = _threshold_eps0(n, a, off, 120)
        truth = _side(n, a, e0) <= 0
        assert _side(n, a, e0) != 0 and truth == (off < 0)
        assert sr.gdd21e_condition(n, e0, a) == truth
        assert sh.cor531_condition(n, e0, a) == truth


def test_gdd21e_rdp_is_cor531_value_with_its_own_condition():
    n, eps0, a = 10**6, Fraction(1, 2), 5
    with mpmath.workdps(100):
        ref = mpmath.log1p(2 * a * (a - 1) * (_E(eps0) - 1) ** 2 / n) / (a - 1)
    _close(sr.gdd21e_rdp(n, eps0, a), ref, 60)
    for dps in (60, 100):
        with mpmath.workdps(dps + 40):
            ref = mpmath.log1p(2 * a * (a - 1) * (_E(eps0) - 1) ** 2 / n) / (a - 1)
        _close(sr.gdd21e_rdp(n, eps0, a, dps=dps), ref, dps)
    # outside the condition: refused, or evaluated with enforce=False (then not a bound)
    with pytest.raises(ValidityConditionError, match="^Lemma 3.3.1 .GDD21e. needs"):
        sr.gdd21e_rdp(100, 1, 2)
    with mpmath.workdps(100):
        ref = mpmath.log1p(4 * (_E(1) - 1) ** 2 / 100)
    _close(sr.gdd21e_rdp(100, 1, 2, enforce=False), ref, 60)
    with pytest.raises(ValidityConditionError, match="^Lemma 3.3.1 is stated for eps0 > 0"):
        sr.gdd21e_rdp(10**6, 0, 2)


# -- the closed-form filter ----------------------------------------------------------------------------

def test_closed_form_filter():
    # every allowed name at once is accepted: log(E) exp(0) sqrt(pi) = sqrt(pi)
    got = inputs.read_exact_mpf("log(E)*exp(0)*sqrt(pi)", "x", 50)
    with mpmath.workdps(90):
        _close(got, mpmath.sqrt(mpmath.pi), 50)
    _close(inputs.read_exact_mpf("E", "x", 50), mpmath.e, 50)
    # another name (lower or upper case) or another character is refused before sympy reads it
    for text in ("sin(1)", "S(2)", "I", "2^3", "2,3"):
        with pytest.raises(InvalidInputError, match=r"^x: cannot read .* as a number or a closed form \(allowed names"):
            inputs.read_exact_mpf(text, "x", 50)
