"""Mutation kills for the Sec. 5.3 closed forms of bcdp.shuffle.shuffled_bounds (thm532_upper,
thm533_lower, thm531_upper with tail="none") and the warning-free float twin thm541_poisson_float.

Oracles, written here from the thesis' printed formulas and evaluated with mpmath at
dps + 40 (+ the digits eps0 cancels) digits, never from the code under test:
* (5.7)  eps(alpha) <= 1/(alpha-1) log(e^{alpha^2 (E-1)^2/nbar} + e^{eps0 alpha - (n-1)/(8E)}),
  nbar = floor((n-1)/(2E)) + 1;
* (5.9)  1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(nE) + sum_{i=3}^alpha C(alpha,i) ((E^2-1)/(nE))^i mu_i),
  mu_i the central moments of Bin(n, 1/(E+1)) summed term by term;
* (5.4) without its tail term: 1/(alpha-1) log(1 + C(alpha,2)(E-1)^2/(nbar E)
  + sum_{i=3}^alpha C(alpha,i) i Gamma(i/2) ((E^2-1)^2/(2 E^2 nbar))^{i/2});
* the cap contract min(., eps0);
* the float twin's contract: a finite value in [0, eps0] for valid inputs, without a RuntimeWarning."""

import warnings
from fractions import Fraction

import mpmath
import pytest
from bcdp.shuffle import shuffled_bounds as sb
from bcdp.shuffle import subsampled as sr


def _mp(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _nbar(n, E):
    return mpmath.floor((n - 1) / (2 * E)) + 1


def _eq57(n, eps0, alpha):
    e, a = _mp(eps0), _mp(alpha)
    E = mpmath.exp(e)
    u = a * a * (E - 1) ** 2 / _nbar(n, E)
    v = e * a - (n - 1) / (8 * E)
    return mpmath.log(mpmath.exp(u) + mpmath.exp(v)) / (a - 1)


def _eq59(n, eps0, a):
    E = mpmath.exp(_mp(eps0))
    p = 1 / (E + 1)
    mu = [mpmath.fsum(mpmath.binomial(n, k) * p ** k * (1 - p) ** (n - k) * (k - n * p) ** i
                      for k in range(n + 1)) for i in range(a + 1)]
    c = (E * E - 1) / (n * E)
    x = mpmath.binomial(a, 2) * (E - 1) ** 2 / (n * E)
    x += mpmath.fsum(mpmath.binomial(a, i) * c ** i * mu[i] for i in range(3, a + 1))
    return mpmath.log1p(x) / (a - 1)


def _eq54_no_tail(n, eps0, a):
    E = mpmath.exp(_mp(eps0))
    nb = _nbar(n, E)
    x = mpmath.binomial(a, 2) * (E - 1) ** 2 / (nb * E)
    y = (E * E - 1) ** 2 / (2 * E * E * nb)
    x += mpmath.fsum(mpmath.binomial(a, i) * i * mpmath.gamma(mpmath.mpf(i) / 2) * y ** (mpmath.mpf(i) / 2)
                     for i in range(3, a + 1))
    return mpmath.log1p(x) / (a - 1)


def _agree(got, want, dps):
    return abs(got - want) <= mpmath.mpf(10) ** -(dps - 3) * abs(want)


@pytest.mark.parametrize("n,eps0,alpha", [(10, Fraction(1, 2), 3), (1000, 1, Fraction(5, 2)),
                                          (50, Fraction(1, 2), 40)])
@pytest.mark.parametrize("dps", [30, 45])
def test_thm532_against_eq57(n, eps0, alpha, dps):
    got = sb.thm532_upper(n, eps0, alpha, dps=dps)
    with mpmath.workdps(dps + 40):
        want = _eq57(n, eps0, alpha)
        assert _agree(got, want, dps)


def test_thm532_cap():
    dps = 30
    # (5.7) at n = 10, eps0 = 1/2, alpha = 40 is far above eps0: capped to eps0 exactly
    with mpmath.workdps(dps + 40):
        assert _eq57(10, Fraction(1, 2), 40) > 1
    assert sb.thm532_upper(10, Fraction(1, 2), 40, cap=True, dps=dps) == mpmath.mpf(1) / 2
    # below eps0 the cap changes nothing
    got = sb.thm532_upper(10 ** 6, 1, 2, cap=True, dps=dps)
    with mpmath.workdps(dps + 40):
        want = _eq57(10 ** 6, 1, 2)
        assert want < 1 and _agree(got, want, dps)


@pytest.mark.parametrize("n,eps0,alpha,dps", [
    (10, Fraction(1, 2), 5, 30),     # working precision must be dps + 10 + ...
    (5, 2, 6, 30),                   # the moments' share of the sum is large: their precision shows
    (5, 2, 6, 100),                  # moments at dps + 10, not the default 60 digits
    (12, Fraction(1, 10 ** 30), 4, 30),   # 32 digits of E - 1 cancel: added, not subtracted
])
def test_thm533_against_eq59(n, eps0, alpha, dps):
    got = sb.thm533_lower(n, eps0, alpha, dps=dps)
    with mpmath.workdps(dps + 80):
        want = _eq59(n, eps0, alpha)
        assert _agree(got, want, dps)


@pytest.mark.parametrize("n,eps0,alpha", [(10, Fraction(1, 2), 4), (200, 1, 2), (31, 2, 7)])
def test_thm531_tail_none(n, eps0, alpha):
    dps = 30
    got = sb.thm531_upper(n, eps0, alpha, tail="none", dps=dps)
    with mpmath.workdps(dps + 40):
        want = _eq54_no_tail(n, eps0, alpha)
        assert _agree(got, want, dps)
    # the thesis tail is a positive addition
    assert sb.thm531_upper(n, eps0, alpha, dps=dps) > got


def test_thm531_unknown_tail_refused():
    from bcdp.core.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="unknown tail"):
        sb.thm531_upper(10, 1, 2, tail="bogus")


def test_thm541_poisson_float_no_warning():
    # t = 0 is in the window (tiny mean): its moment is 1, log(1 - e^0) = -inf must stay silent
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = sr.thm541_poisson_float(20, 0.05, 1.0, [2, 3, 8])
    assert all(0 <= float(x) <= 1.0 for x in out)
