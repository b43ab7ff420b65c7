"""bcdp.fl.accountants: the explicit accountants of thesis Thms 4.3.1 / 4.4.1 against oracles written here
from the printed statements (mpmath at 50 digits, exact Fraction binomial sums), their validity
conditions on both sides of the boundary, and bad inputs."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.fl import accountants as A



@pytest.fixture(autouse=True)
def _fifty_digits():
    """50-digit oracles in this module only (a module-level ``mpmath.mp.dps = 50`` runs at collection and
    leaks into every test of the session)."""
    with mpmath.workdps(50):
        yield


def fmt21(eps0, n, delta):
    """FMT21 Thm 3.1 as printed in thesis eq. (6.10)."""
    E = mpmath.exp(mpmath.mpf(eps0))
    d = mpmath.mpf(delta)
    return mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / d)) / mpmath.sqrt(n) + 8 * E / n))


def strong(eps, T, dprime):
    """Thesis Lemma 2.1.2 as printed."""
    return mpmath.sqrt(2 * T * mpmath.log(1 / mpmath.mpf(dprime))) * eps + T * eps * (mpmath.exp(eps) - 1)


def rel(a, b):
    return abs(mpmath.mpf(a) / mpmath.mpf(b) - 1)


@pytest.mark.parametrize("eps0,n,m,k,s,T,delta", [
    (2.0, 60000, 1, 10000, 1, 480, 1e-5), (1.0, 2000, 5, 1000, 1, 100, 1e-5), (0.5, 100, 50, 100, 10, 50, 1e-6),
    (0.25, 5000, 3, 5000, 2, 7, 1e-3)])
def test_cldp_equals_the_printed_chain(eps0, n, m, k, s, T, delta):
    r = A.cldp_sgd_accountant(eps0, n, m, k, T, delta, s=s)
    q = mpmath.mpf(k * s) / (m * n)
    dt = mpmath.mpf(delta) / (2 * q * T)
    rate = q if s == 1 else mpmath.mpf(s) / m
    e1 = mpmath.log(1 + rate * (mpmath.exp(fmt21(eps0, k * s, dt)) - 1))
    want = strong(e1, T, mpmath.mpf(delta) / 2)
    assert r.epsilon >= want and rel(r.epsilon, want) < 1e-12
    assert rel(r.per_round[0], e1) < 1e-12
    # the total delta is T q delta~ + delta' = delta (up to the outward rounding)
    assert Fraction(r.delta) <= Fraction(delta) * (1 + Fraction(1, 10 ** 12))
    assert Fraction(r.delta) >= Fraction(delta) * (1 - Fraction(1, 10 ** 12))


def test_cldp_with_a_given_shuffle_epsilon():
    r = A.cldp_sgd_accountant(1.0, 1000, 2, 500, 20, 1e-6, eps_tilde=0.3)
    e1 = mpmath.log(1 + mpmath.mpf(1) / 4 * (mpmath.exp(mpmath.mpf(0.3)) - 1))
    assert rel(r.epsilon, strong(e1, 20, mpmath.mpf("5e-7"))) < 1e-12
    assert r.shuffle == "given"


def test_cldp_increases_with_T_and_eps0():
    e = [A.cldp_sgd_accountant(1.0, 60000, 1, 10000, T, 1e-5).epsilon for T in (1, 10, 100, 1000)]
    assert e == sorted(e) and len(set(e)) == 4
    e = [A.cldp_sgd_accountant(x, 60000, 1, 10000, 100, 1e-5).epsilon for x in (0.1, 0.5, 1.0, 2.0)]
    assert e == sorted(e) and len(set(e)) == 4


def test_cldp_fmt21_condition_on_both_sides_of_the_cap():
    n, m, k, T, delta = 2000, 5, 1000, 100, 1e-5
    dt = Fraction(delta) / (2 * Fraction(k, m * n) * T)
    cap = float(mpmath.log(k / (16 * mpmath.log(2 / mpmath.mpf(dt.numerator) * dt.denominator))))
    assert A.cldp_sgd_accountant(cap * (1 - 1e-9), n, m, k, T, delta).epsilon > 0
    with pytest.raises(ValidityConditionError) as exc:
        A.cldp_sgd_accountant(cap * (1 + 1e-9), n, m, k, T, delta)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("kwargs,exc", [
    (dict(n=10.0), WrongTypeError), (dict(k=0), InvalidInputError), (dict(k=20, n=10), InvalidInputError),
    (dict(delta=0.0), InvalidInputError), (dict(delta=1.0), InvalidInputError), (dict(eps0=-1.0), InvalidInputError),
    (dict(eps0=Fraction(1, 2)), WrongTypeError), (dict(eps0=math.inf), InvalidInputError),
    (dict(s=3, m=2), InvalidInputError), (dict(variant="x"), InvalidInputError), (dict(eps_tilde=-0.1), InvalidInputError),
    (dict(T=True), WrongTypeError)])
def test_cldp_bad_inputs(kwargs, exc):
    args = dict(eps0=1.0, n=2000, m=5, k=1000, T=100, delta=1e-5)
    args.update(kwargs)
    extra = {key: args.pop(key) for key in ("s", "variant", "eps_tilde") if key in args}
    with pytest.raises(exc) as e:
        A.cldp_sgd_accountant(args["eps0"], args["n"], args["m"], args["k"], args["T"], args["delta"], **extra)
    assert "\n" not in str(e.value)


def _exact_outside(n, q, lo, hi):
    q = Fraction(q)
    return sum(Fraction(math.comb(n, j)) * q ** j * (1 - q) ** (n - j) for j in range(n + 1) if j < lo or j > hi)


@pytest.mark.parametrize("n,q,lo,hi", [(40, 0.25, 5, 15), (40, 0.25, 0, 40), (40, 0.25, 0, 3), (60, 0.5, 25, 35),
                                       (30, 0.125, 1, 30), (50, 0.75, 40, 45)])
def test_binomial_tail_encloses_the_exact_sum(n, q, lo, hi):
    exact = _exact_outside(n, q, lo, hi)
    a, b = A.binomial_outside_window(n, q, lo, hi)
    assert Fraction(a) <= exact <= Fraction(b)
    if exact > 0:
        assert (Fraction(b) - Fraction(a)) / exact < Fraction(1, 10 ** 12)
    else:
        assert b == 0.0 or b <= 1e-300


@pytest.mark.parametrize("n,q", [(200, 0.25), (1000, 0.125), (3000, 0.5)])
def test_chernoff_bounds_the_exact_tail(n, q):
    lo, hi = A.dss_window(n, q)
    assert A.binomial_outside_window(n, q, lo, hi)[1] <= A.chernoff_outside_window(n, q)


def test_dss_window_values_and_empty_window():
    assert A.dss_window(60000, 0.25) == (7500, 22500)
    assert A.dss_window(100, 0.5, 0.25) == (38, 62)
    with pytest.raises(ValidityConditionError):
        A.dss_window(1, 0.1)


def test_c_prime_identity_and_its_boundary():
    for eps0, n, q in ((1.0, 60000, 1 / 6), (2.0, 5000, 0.2), (0.0, 100, 0.5)):
        c = A.dss_c_prime(eps0, n, q)
        assert 0 < c < 1 / 12
        lhs = 2 * mpmath.exp(eps0) * mpmath.exp(-mpmath.mpf(q) * n / 12)
        assert lhs <= mpmath.exp(-mpmath.mpf(c) * mpmath.mpf(q) * n) <= lhs * (1 + mpmath.mpf(10) ** -10)
    # c' > 0 iff qn > 12 (eps0 + log 2): qn = 100 -> eps0 < 100/12 - log 2 = 7.64...
    edge = 100 / 12 - math.log(2)
    assert A.dss_c_prime(edge - 1e-9, 200, 0.5) > 0
    with pytest.raises(ValidityConditionError):
        A.dss_c_prime(edge + 1e-9, 200, 0.5)


@pytest.mark.parametrize("eps0,n,m,q,T,dp", [(2.0, 60000, 1, 1 / 6, 480, 5e-6), (0.5, 5000, 2, 0.2, 100, 1e-6),
                                             (0.8, 3000, 1, 0.5, 50, 1e-6)])
def test_dss_equals_the_printed_chain(eps0, n, m, q, T, dp):
    r = A.dss_sgd_accountant(eps0, n, m, q, T, dp)
    mean = Fraction(q) * n
    lo, hi = max(1, math.ceil(mean / 2)), math.floor(3 * mean / 2)
    assert r.window == (lo, hi)
    dt = mpmath.mpf(dp) * m / (mpmath.mpf(q) * T)
    e1 = mpmath.log(1 + mpmath.mpf(hi) / (n * m) * (mpmath.exp(fmt21(eps0, lo, dt)) - 1))
    assert rel(r.per_round[0], e1) < 1e-12 and r.per_round[0] >= e1
    assert rel(r.epsilon, strong(mpmath.mpf(r.per_round[0]), T, dp)) < 1e-12
    assert rel(r.delta, 2 * mpmath.mpf(dp) + T * mpmath.mpf(r.tail)) < 1e-12
    ch = A.dss_sgd_accountant(eps0, n, m, q, T, dp, tail="chernoff")
    assert ch.epsilon == r.epsilon and ch.delta >= r.delta


def test_dss_condition_at_the_window_start():
    # FMT21 Thm 3.1 at l = 750 messages, delta~ = 1e-6/(0.5 * 50) = 4e-8: cap = 0.9723...
    assert A.dss_sgd_accountant(0.97, 3000, 1, 0.5, 50, 1e-6).epsilon > 0
    with pytest.raises(ValidityConditionError):
        A.dss_sgd_accountant(0.98, 3000, 1, 0.5, 50, 1e-6)


@pytest.mark.parametrize("kwargs", [dict(q=0.0), dict(q=1.5), dict(tail="x"), dict(w=1.0), dict(delta_prime=0.0),
                                    dict(m=0), dict(T=2.0)])
def test_dss_bad_inputs(kwargs):
    args = dict(eps0=0.5, n=5000, m=2, q=0.2, T=100, delta_prime=1e-6)
    args.update(kwargs)
    extra = {key: args.pop(key) for key in ("tail", "w") if key in args}
    with pytest.raises(InvalidInputError) as e:
        A.dss_sgd_accountant(args["eps0"], args["n"], args["m"], args["q"], args["T"], args["delta_prime"], **extra)
    assert "\n" not in str(e.value)


def test_dss_blocks_between_the_window_max_and_the_thesis_bound():
    eps0, n, m, q, T, dp = 0.8, 3000, 1, 0.5, 50, 1e-6
    one = A.dss_sgd_accountant(eps0, n, m, q, T, dp)
    lo, hi = one.window
    dt = mpmath.mpf(dp) * m / (mpmath.mpf(q) * T)
    with mpmath.workdps(30):
        brute = max(mpmath.log(1 + mpmath.mpf(k) / (n * m) * (mpmath.exp(fmt21(eps0, k, dt)) - 1))
                    for k in range(lo, hi + 1))
    prev = one.per_round[0]
    for b in (2, 8, 64):
        r = A.dss_sgd_accountant(eps0, n, m, q, T, dp, blocks=b)
        assert brute <= r.per_round[0] <= prev
        assert r.delta == one.delta
        prev = r.per_round[0]
    assert prev < mpmath.mpf(one.per_round[0]) * mpmath.mpf("0.7")   # the blocks gain is real here
    with pytest.raises(InvalidInputError):
        A.dss_sgd_accountant(eps0, n, m, q, T, dp, blocks=2, eps_tilde=0.1)
    with pytest.raises(InvalidInputError):
        A.dss_sgd_accountant(eps0, n, m, q, T, dp, blocks=0)


def test_dss_everyone_joins():
    """q = 1: K = n surely, the window [n/2, n] holds all the mass, the tail is exactly 0."""
    assert A.binomial_outside_window(10 ** 6, 1.0, 500000, 10 ** 6) == (0.0, 0.0)
    r = A.dss_sgd_accountant(1.0, 20000, 1, 1.0, 10, 1e-6)
    assert r.tail == 0.0 and r.window == (10000, 20000)
