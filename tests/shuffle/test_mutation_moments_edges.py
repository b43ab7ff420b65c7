"""Mutation kills for bcdp.shuffle.shuffled_bounds.binomial_central_moments and the dps / eps0 = inf
contracts of nbar and the Sec. 5.3 bounds.

Oracles, all independent of the code under test:
* the central moments of Bin(n, p) summed in exact Fractions, mu_r = sum_k C(n,k) p^k q^(n-k) (k - np)^r;
* the degenerate laws p = 0 (k = 0 surely) and p = 1 (k = n surely): mu = [1, 0, 0, ...];
* the documented contract of bcdp.core.numbers.check_precision (the message names the parameter and
  the accepted range [MIN_DPS, MAX_DPS (+ GUARD_DPS for the moments)]);
* nbar's docstring: eps0 = inf gives 1 (an int when floored, an mpf otherwise)."""

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import GUARD_DPS, MAX_DPS, MIN_DPS
from bcdp.shuffle import shuffled_bounds as sb


def _exact_moments(n, p, r_max):
    p = Fraction(p)
    q = 1 - p
    mean = n * p
    out = [Fraction(0)] * (r_max + 1)
    for k in range(n + 1):
        w = math.comb(n, k) * p ** k * q ** (n - k)
        t = k - mean
        acc = w
        for r in range(r_max + 1):
            out[r] += acc
            acc *= t
    return out


def _close(got, want, rel):
    want = mpmath.mpf(want.numerator) / want.denominator if isinstance(want, Fraction) else want
    return abs(got - want) <= rel * max(abs(want), mpmath.mpf(1))


@pytest.mark.parametrize("method", ["direct", "auto"])
@pytest.mark.parametrize("n", [1, 7])
def test_degenerate_p0(method, n):
    mu = sb.binomial_central_moments(n, 0, 5, dps=30, method=method)
    assert len(mu) == 6
    assert [float(x) for x in mu] == [1.0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("method", ["direct", "auto"])
@pytest.mark.parametrize("n", [1, 7])
def test_degenerate_p1(method, n):
    mu = sb.binomial_central_moments(n, 1, 5, dps=30, method=method)
    assert len(mu) == 6
    assert [float(x) for x in mu] == [1.0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("method", ["direct", "cumulant", "auto"])
@pytest.mark.parametrize("n", [5, 300])
def test_r_max_zero_and_one(method, n):
    # r_max = 0 is valid (">= 0"): the list [mu_0] = [1]; r_max = 1: [1, 0]
    mu0 = sb.binomial_central_moments(n, Fraction(1, 3), 0, dps=30, method=method)
    assert len(mu0) == 1 and abs(mu0[0] - 1) < mpmath.mpf(10) ** -28
    mu1 = sb.binomial_central_moments(n, Fraction(1, 3), 1, dps=30, method=method)
    assert len(mu1) == 2 and abs(mu1[0] - 1) < mpmath.mpf(10) ** -28 and abs(mu1[1]) < mpmath.mpf(10) ** -25
    with pytest.raises(InvalidInputError, match="r_max"):
        sb.binomial_central_moments(n, Fraction(1, 3), -1, dps=30, method=method)


@pytest.mark.parametrize("method", ["direct", "cumulant"])
def test_lengths_match_r_max(method):
    for r_max in (2, 3, 6):
        assert len(sb.binomial_central_moments(12, Fraction(1, 4), r_max, dps=20, method=method)) == r_max + 1


def test_cumulant_many_orders_low_dps():
    # r_max = 40 > dps: the working precision must add (not subtract) r_max guard digits
    n, p, r_max, dps = 300, Fraction(1, 3), 40, 15
    want = _exact_moments(n, p, r_max)
    got = sb.binomial_central_moments(n, p, r_max, dps=dps, method="cumulant")
    with mpmath.workdps(60):
        for r in range(r_max + 1):
            assert _close(got[r], want[r], mpmath.mpf(10) ** -(dps - 2)), r


def test_direct_and_cumulant_against_fractions():
    for n, p in ((6, Fraction(2, 7)), (40, Fraction(1, 5))):
        want = _exact_moments(n, p, 8)
        for method in ("direct", "cumulant"):
            got = sb.binomial_central_moments(n, p, 8, dps=40, method=method)
            with mpmath.workdps(80):
                for r in range(9):
                    assert _close(got[r], want[r], mpmath.mpf(10) ** -36), (method, r)


def test_moments_dps_range_edges():
    top = MAX_DPS + GUARD_DPS
    mu = sb.binomial_central_moments(2, Fraction(1, 2), 2, dps=top, method="direct")
    assert abs(mu[2] - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -50
    with pytest.raises(InvalidInputError, match=rf"^dps must be an integer in \[{MIN_DPS}, {top}\]"):
        sb.binomial_central_moments(2, Fraction(1, 2), 2, dps=top + 1)
    with pytest.raises(InvalidInputError, match=rf"^dps must be an integer in \[{MIN_DPS}, {top}\]"):
        sb.binomial_central_moments(2, Fraction(1, 2), 2, dps=MIN_DPS - 1)


@pytest.mark.parametrize("call", [
    lambda d: sb.nbar(10, 1, dps=d),
    lambda d: sb.thm531_upper(10, 1, 2, dps=d),
    lambda d: sb.thm532_upper(10, 1, 2, dps=d),
    lambda d: sb.thm533_lower(10, 1, 2, dps=d),
])
def test_dps_message_names_the_parameter(call):
    for bad in (MIN_DPS - 1, MAX_DPS + 1):
        with pytest.raises(InvalidInputError, match=rf"^dps must be an integer in \[{MIN_DPS}, {MAX_DPS}\]"):
            call(bad)


def test_nbar_eps0_inf():
    for n in (1, 50):
        v = sb.nbar(n, mpmath.inf)
        assert type(v) is int and v == 1
        w = sb.nbar(n, mpmath.inf, floor=False)
        assert isinstance(w, mpmath.mpf) and w == 1
