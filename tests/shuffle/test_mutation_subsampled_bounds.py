"""Mutation kills for bcdp.shuffle.subsampled_bounds: Thm 5.4.6, Thm 5.4.4 (5.43) and Thm 5.4.1 of the
thesis (Sec. 5.4, subsampled shuffle) pinned at several points against their printed statements,
evaluated here with mpmath at the caller's precision + 40 digits, to a relative error far below
the requested ``dps`` (so a lowered working precision is caught too); the argument checks (the
argument named in the message, integer vs real orders) and the options (kbar_floor, variant, cap).

Printed statements used (thesis Sec. 5.4):
* Thm 5.4.6: 4(E-1)^2/(m E) for lambda = 2, lambda Gamma(lambda/2) (2(E^2-1)^2/(m E^2))^{lambda/2} else;
* Thm 5.4.4, (5.43): the same with kbar in place of m, plus (E - 1/E)^lambda e^{-(k-1)/(8E)};
* Thm 5.4.1: (1/(a-1)) log(1 + 4 C(a,2) g^2 (E-1)^2/(kbar E) + sum_{j=3}^a C(a,j) g^j j Gamma(j/2)
  (2(E^2-1)^2/(kbar E^2))^{j/2} + ((1 + g c)^a - 1 - a g c) e^{-(k-1)/(8E)}), c = E - 1/E, g = k/n;
  kbar = floor((k-1)/(2E)) + 1 (Thm 5.3.1's nbar at k)."""

from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import subsampled_bounds as sb


def _close(got, ref, dps):
    with mpmath.workdps(dps + 40):
        assert abs(got - ref) <= mpmath.mpf(10) ** (-(dps - 3)) * abs(ref), (got, ref)


def _E(eps0, dps):
    return mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator)


def _kbar(k, E, floor=True):
    x = (k - 1) / (2 * E)
    return (mpmath.floor(x) if floor else x) + 1


def _thm546(m, E, lam):
    if lam == 2:
        return 4 * (E - 1) ** 2 / (m * E)
    return lam * mpmath.gamma(mpmath.mpf(lam) / 2) * (2 * (E ** 2 - 1) ** 2 / (m * E ** 2)) ** (mpmath.mpf(lam) / 2)


CASES = [(7, Fraction(1, 3)), (40, Fraction(3, 2)), (1000, Fraction(11, 10))]


@pytest.mark.parametrize("dps", [60, 100])
@pytest.mark.parametrize("m, eps0", CASES)
@pytest.mark.parametrize("lam", [2, 3, 4, 7])
def test_thm546_printed_formula(m, eps0, lam, dps):
    got = sb.thm546_ternary_special_case(m, eps0, lam, dps=dps)
    with mpmath.workdps(dps + 40):
        _close(got, _thm546(m, _E(eps0, dps), lam), dps)


@pytest.mark.parametrize("dps", [60, 100])
@pytest.mark.parametrize("k, eps0", CASES)
@pytest.mark.parametrize("lam", [2, 3, 5, Fraction(5, 2)])
@pytest.mark.parametrize("floor", [True, False])
def test_thm544_printed_formula_with_and_without_floor(k, eps0, lam, floor, dps):
    got = sb.thm544_ternary(k, eps0, lam, kbar_floor=floor, dps=dps)
    with mpmath.workdps(dps + 40):
        E = _E(eps0, dps)
        lm = mpmath.mpf(lam.numerator) / lam.denominator if isinstance(lam, Fraction) else mpmath.mpf(lam)
        kb = _kbar(k, E, floor)
        if lm == 2:
            main = 4 * (E - 1) ** 2 / (kb * E)
        else:
            main = lm * mpmath.gamma(lm / 2) * (2 * (E ** 2 - 1) ** 2 / (kb * E ** 2)) ** (lm / 2)
        _close(got, main + (E - 1 / E) ** lm * mpmath.exp(-(k - 1) / (8 * E)), dps)


def test_thm544_infinite_order_or_eps0_is_infinite():
    assert sb.thm544_ternary(10, Fraction(1), "inf") == mpmath.inf
    assert sb.thm544_ternary(10, "inf", 3) == mpmath.inf


def _thm541(n, k, E, a, kb, tail_half=False):
    g = mpmath.mpf(k) / n
    c = E - 1 / E
    x = 4 * mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kb * E)
    y = 2 * (E ** 2 - 1) ** 2 / (kb * E ** 2)
    x += mpmath.fsum(mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * y ** (mpmath.mpf(j) / 2)
                     for j in range(3, a + 1))
    u = g * c / 2 if tail_half else g * c
    x += ((1 + u) ** a - 1 - a * u) * mpmath.exp(-(k - 1) / (8 * E))
    return mpmath.log1p(x) / (a - 1)


@pytest.mark.parametrize("dps", [60, 100])
@pytest.mark.parametrize("n, k, eps0", [(50, 7, Fraction(1, 3)), (400, 40, Fraction(3, 2)), (10**4, 1000, Fraction(11, 10))])
@pytest.mark.parametrize("a", [2, 3, 6])
def test_thm541_printed_formula_and_its_variants(n, k, eps0, a, dps):
    with mpmath.workdps(dps + 40):
        E = _E(eps0, dps)
        _close(sb.thm541_upper(n, k, eps0, a, dps=dps), _thm541(n, k, E, a, _kbar(k, E)), dps)
        _close(sb.thm541_upper(n, k, eps0, a, kbar_floor=False, dps=dps), _thm541(n, k, E, a, _kbar(k, E, False)), dps)
        _close(sb.thm541_upper(n, k, eps0, a, variant="k_unbarred", dps=dps), _thm541(n, k, E, a, k), dps)
        _close(sb.thm541_upper(n, k, eps0, a, variant="koskela", dps=dps),
               _thm541(n, k, E, a, _kbar(k, E), tail_half=True), dps)


def test_thm541_cap_at_eps0():
    # cap=True: min(value, eps0) (the subsampled shuffle is eps0-DP)
    e0 = Fraction(3)
    raw = sb.thm541_upper(10, 10, e0, 8)
    assert raw > 3
    assert sb.thm541_upper(10, 10, e0, 8, cap=True) == 3
    small = sb.thm541_upper(10**4, 10, e0, 2)
    assert small < 3 and sb.thm541_upper(10**4, 10, e0, 2, cap=True) == small


@pytest.mark.parametrize("call, name", [
    (lambda: sb.thm546_ternary_special_case(0, Fraction(1), 3), "m"),
    (lambda: sb.thm546_ternary_special_case(3, Fraction(1), 3, dps=5), "dps"),
    (lambda: sb.thm544_ternary(0, Fraction(1), 3), "k"),
    (lambda: sb.thm544_ternary(3, Fraction(1), 3, dps=5), "dps"),
    (lambda: sb.thm541_upper(10, 5, Fraction(1), 3, dps=5), "dps"),
])
def test_bad_argument_is_named(call, name):
    with pytest.raises(InvalidInputError, match=rf"^{name} must"):
        call()


@pytest.mark.parametrize("call", [
    lambda: sb.thm546_ternary_special_case(3, Fraction(1), Fraction(5, 2)),
    lambda: sb.thm541_upper(10, 5, Fraction(1), Fraction(5, 2)),
])
def test_integer_order_theorems_refuse_real_orders(call):
    with pytest.raises(InvalidInputError, match="integer orders"):
        call()
