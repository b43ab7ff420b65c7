"""Mutation tests of bcdp.fl.accountants (thesis Thms 4.3.1 / 4.4.1, App. C.1 / C.2): the per-round and
T-round guarantees against oracles written here from the printed steps (mpmath at 50 digits, exact Fraction
binomial sums), the blocks refinement against its own piecewise maximum, validity conditions on both sides,
and the exact exception class and one-line message (naming the argument) of every argument check."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import arb_precision, ball_lower, ball_of, ball_upper
from bcdp.fl import accountants as A
from tests.mutation_support import raised


@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


def mpq(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def amp(et, rate):
    """Lemma 2.1.1 as printed: log(1 + rate (e^eps~ - 1))."""
    return mpmath.log(1 + mpq(rate) * (mpmath.exp(mpmath.mpf(et)) - 1))


def fmt21(eps0, n, delta):
    """FMT21 Thm 3.1 as printed in thesis eq. (6.10)."""
    E = mpmath.exp(mpmath.mpf(eps0))
    d = mpmath.mpf(delta)
    return mpmath.log(1 + (E - 1) / (E + 1) * (8 * mpmath.sqrt(E * mpmath.log(4 / d)) / mpmath.sqrt(n) + 8 * E / n))


def strong(eps, T, dprime):
    """Lemma 2.1.2 [DR14, Thm 3.20] as printed."""
    eps = mpmath.mpf(eps)
    return mpmath.sqrt(2 * T * mpmath.log(1 / mpmath.mpf(dprime))) * eps + T * eps * (mpmath.exp(eps) - 1)


def close_above(x, oracle, tol=1e-12):
    """x is an upper end of the oracle value, within a relative tol."""
    assert mpmath.mpf(x) >= oracle * (1 - mpmath.mpf(10) ** -40)
    assert mpmath.mpf(x) <= oracle * (1 + tol) + mpmath.mpf(10) ** -300


def binom_outside(n, q, lo, hi):
    q = Fraction(q)
    return sum(comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(n + 1) if j < lo or j > hi)


# ---------------------------------------------------------------- CLDP-SGD (Thm 4.3.1, App. C.1)

def test_cldp_s_above_one_amplifies_by_s_over_m():
    """App. C.1.2: for s > 1 the rate is q2 = s/m, not q = ks/(mn)."""
    eps0, n, m, k, T, s, delta, et = 1.0, 100, 10, 5, 3, 2, 1e-6, 0.75
    r = A.cldp_sgd_accountant(eps0, n, m, k, T, delta, s=s, eps_tilde=et)
    close_above(r.per_round[0], amp(et, Fraction(s, m)))
    assert r.amplification_rate == Fraction(s, m)
    assert r.q == Fraction(k * s, m * n)
    assert r.messages_per_round == k * s and isinstance(r.messages_per_round, int)
    dprime = Fraction(delta) / 2
    assert Fraction(r.delta_prime) <= dprime and Fraction(r.delta_prime) > dprime * (1 - Fraction(1, 2 ** 50))
    close_above(r.epsilon, strong(r.per_round[0], T, r.delta_prime))
    assert r.shuffle == "given"
    assert r.method.startswith("Thm 4.3.1 / App. C.1") and r.method.endswith("-> Lemma 2.1.2")


def test_cldp_s_one_rate_and_fmt21_label():
    r = A.cldp_sgd_accountant(0.5, 1000, 10, 500, 2, 1e-6)
    assert r.amplification_rate == Fraction(500, 10000)
    assert r.shuffle == "FMT21 (theorem-3.1)"
    close_above(r.per_round[0], amp(r.eps_tilde, Fraction(500, 10000)))


def test_cldp_eps0_zero_and_eps_tilde_zero_accepted():
    """eps0 = 0 and eps~ = 0 are valid (a 0-DP shuffle gives a 0-DP round and eps_T = 0)."""
    r = A.cldp_sgd_accountant(0.0, 100, 10, 5, 3, 1e-6, eps_tilde=0.0)
    assert 0 <= r.per_round[0] <= 1e-300 and 0 <= r.epsilon <= 1e-300


def test_cldp_k_above_n_alone_is_refused():
    assert raised(InvalidInputError, A.cldp_sgd_accountant, 1.0, 10, 10, 11, 1, 1e-6, eps_tilde=0.5).startswith(
        "need k <= n and s <= m")
    assert raised(InvalidInputError, A.cldp_sgd_accountant, 1.0, 10, 10, 5, 1, 1e-6, s=11,
                  eps_tilde=0.5).startswith("need k <= n and s <= m")


# ---------------------------------------------------------------- dss-SGD (Thm 4.4.1, App. C.2)

def test_dss_given_eps_tilde_is_used():
    n, m, q, T, dp, et = 2000, 1, 0.5, 1, 1e-6, 0.3
    r = A.dss_sgd_accountant(0.5, n, m, q, T, dp, eps_tilde=et)
    assert r.window == (500, 1500)
    assert r.eps_tilde == et and r.shuffle == "given"
    close_above(r.per_round[0], amp(et, Fraction(1500, n * m)))


def test_dss_exact_tail_details_and_delta():
    n, m, q, T, dp = 2000, 2, 0.5, 3, 1e-6
    r = A.dss_sgd_accountant(0.5, n, m, q, T, dp)
    qbar = Fraction(1, 4)
    assert r.qbar == qbar and r.blocks == 1 and r.tail_method == "exact" and r.delta_prime == dp
    dt = Fraction(dp) / (qbar * T)
    assert Fraction(r.delta_tilde) <= dt and Fraction(r.delta_tilde) > dt * (1 - Fraction(1, 2 ** 50))
    assert r.amplification_rate == Fraction(1500, n * m)
    assert r.shuffle == "FMT21 (theorem-3.1)"
    tail = binom_outside(n, q, 500, 1500)
    assert Fraction(r.tail) >= tail
    lower = qbar * Fraction(r.delta_tilde) + tail
    assert Fraction(r.per_round[1]) >= lower and Fraction(r.per_round[1]) <= lower * (1 + Fraction(1, 2 ** 40))
    close_above(r.per_round[0], amp(fmt21(0.5, 500, r.delta_tilde), Fraction(1500, n * m)))
    close_above(r.epsilon, strong(r.per_round[0], T, dp))
    assert r.method.startswith("Thm 4.4.1 / App. C.2: window [l,u] on K_t ~ Bin(n,q)")
    assert r.method.endswith("tail outside the window, Lemma 2.1.2")


def test_dss_chernoff_tail_uses_q_and_w():
    """(C.23)-(C.24) with w = 0.4 (differs from q = 0.5 and from the default w = 1/2)."""
    n, q, w = 2000, 0.5, 0.4
    r = A.dss_sgd_accountant(0.5, n, 1, q, 1, 1e-6, w=w, tail="chernoff")
    oracle = 2 * mpmath.exp(-mpmath.mpf(q) * n * mpq(w) ** 2 / 3)
    close_above(r.tail, oracle)
    assert r.tail_method == "chernoff"
    assert Fraction(r.per_round[1]) >= Fraction(r.qbar) * Fraction(r.delta_tilde) + Fraction(r.tail)


@pytest.mark.parametrize("blocks", [2, 4])
def test_dss_blocks_is_the_piecewise_maximum(blocks):
    n, m, q, T, dp, eps0 = 2000, 1, 0.5, 1, 1e-6, 0.5
    lo, hi = 500, 1500
    r = A.dss_sgd_accountant(eps0, n, m, q, T, dp, blocks=blocks)
    width = (hi - lo) // blocks
    cuts = [lo + i * width for i in range(blocks)] + [hi]
    oracle = max(amp(fmt21(eps0, a, r.delta_tilde), Fraction(b, n * m)) for a, b in zip(cuts, cuts[1:]))
    close_above(r.per_round[0], oracle)
    assert r.blocks == blocks
    thesis = A.dss_sgd_accountant(eps0, n, m, q, T, dp)
    assert r.per_round[0] < thesis.per_round[0]


def test_dss_eps_tilde_with_blocks_one_ok_two_refused():
    A.dss_sgd_accountant(0.5, 2000, 1, 0.5, 1, 1e-6, eps_tilde=0.3, blocks=1)
    assert raised(InvalidInputError, A.dss_sgd_accountant, 0.5, 2000, 1, 0.5, 1, 1e-6, eps_tilde=0.3,
                  blocks=2).startswith("eps_tilde is one value")


def test_dss_eps0_zero_accepted():
    r = A.dss_sgd_accountant(0.0, 2000, 1, 0.5, 1, 1e-6, eps_tilde=0.0)
    assert 0 <= r.per_round[0] <= 1e-300


@pytest.mark.parametrize("dprime", [0.125, 0.1875])   # delta~ = delta'/(qbar T) = 1 and 1.5 exactly
def test_dss_delta_tilde_at_least_one_refused(dprime):
    msg = raised(ValidityConditionError, A.dss_sgd_accountant, 0.5, 2000, 4, 0.5, 1, dprime, eps_tilde=0.3)
    assert msg.startswith("delta~ = delta'/(qbar T)")


def test_dss_delta_tilde_below_one_accepted():
    r = A.dss_sgd_accountant(0.5, 2000, 4, 0.5, 1, 0.0625, eps_tilde=0.3)   # delta~ = 1/2
    assert r.delta_tilde == 0.5


def test_dss_window_single_point_at_one():
    """n = 10, q = 0.1 (binary value slightly above 1/10): (1-w)qn < 1, (1+w)qn < 2: the window is [1, 1]."""
    mean = Fraction(0.1) * 10
    assert (1 - Fraction(1, 2)) * mean < 1 < mean < (1 + Fraction(1, 2)) * mean < 2
    assert A.dss_window(10, 0.1) == (1, 1)


# ---------------------------------------------------------------- tails and c'

def test_binomial_outside_window_hi_zero_and_lo_equals_hi():
    n, q = 30, 0.25
    lo_, up = A.binomial_outside_window(n, q, 0, 0)
    exact = 1 - Fraction(3, 4) ** n
    assert Fraction(lo_) <= exact <= Fraction(up) and Fraction(up) - Fraction(lo_) < Fraction(1, 2 ** 50)
    lo_, up = A.binomial_outside_window(n, q, 7, 7)
    exact = binom_outside(n, q, 7, 7)
    assert Fraction(lo_) <= exact <= Fraction(up) and Fraction(up) - Fraction(lo_) < Fraction(1, 2 ** 50)


def test_binomial_outside_window_never_above_one():
    """P[K != 0] = 1 - 2^-1000 for Bin(1000, 1/2): the upper end is clamped to 1."""
    lo_, up = A.binomial_outside_window(1000, 0.5, 0, 0)
    assert up == 1.0 and lo_ <= 1.0


@pytest.mark.parametrize("n,q,lo,hi", [(60, 0.25, 10, 20), (200, 0.5, 80, 120), (50, 0.125, 3, 9)])
def test_tail_sum_ball_contains_the_exact_tail(n, q, lo, hi):
    """The ball of _tail_sum (before the float rounding) contains the exact binomial tail (the geometric
    bound of the truncated terms is added, upward)."""
    with arb_precision(A.TAIL_PREC):
        qb = ball_of(q)
        low = A._tail_sum(n, qb, lo - 1, -1, 0)
        high = A._tail_sum(n, qb, hi + 1, +1, n)
    qf = Fraction(q)
    exact_low = sum(comb(n, j) * qf ** j * (1 - qf) ** (n - j) for j in range(lo))
    exact_high = sum(comb(n, j) * qf ** j * (1 - qf) ** (n - j) for j in range(hi + 1, n + 1))
    assert ball_lower(low) <= exact_low <= ball_upper(low)
    assert ball_lower(high) <= exact_high <= ball_upper(high)


def test_chernoff_value_and_clamp():
    n, q, w = 400, 0.25, 0.375
    oracle = 2 * mpmath.exp(-mpmath.mpf(q) * n * mpmath.mpf(w) ** 2 / 3)
    assert oracle < 1
    close_above(A.chernoff_outside_window(n, q, w), oracle)
    assert A.chernoff_outside_window(10, 0.25, 0.5) == 1.0      # 2 exp(-5/24) > 1: clamped
    close_above(A.chernoff_outside_window(400, 1, 0.5), 2 * mpmath.exp(-mpmath.mpf(400) / 12))   # q = 1 allowed


def test_dss_c_prime_at_q_one():
    c = A.dss_c_prime(0.0, 100, 1)
    oracle = mpmath.mpf(1) / 12 - mpmath.log(2) / 100
    assert mpmath.mpf(c) <= oracle and mpmath.mpf(c) >= oracle * (1 - mpmath.mpf(2) ** -50)


# ---------------------------------------------------------------- argument checks name the argument

CLDP = dict(eps0=1.0, n=100, m=10, k=5, T=3, delta=1e-6, eps_tilde=0.5)
DSS = dict(eps0=0.5, n=2000, m=1, q=0.5, T=1, delta_prime=1e-6, eps_tilde=0.3)
CASES = [
    (A.cldp_sgd_accountant, CLDP, ["eps0"], ["n", "m", "k", "T", "s"], ["delta"]),
    (A.dss_sgd_accountant, DSS, ["eps0"], ["n", "m", "T", "blocks"], ["q", "delta_prime", "w"]),
    (A.dss_window, dict(n=10, q=0.5, w=0.5), [], ["n"], ["q", "w"]),
    (A.chernoff_outside_window, dict(n=10, q=0.5, w=0.5), [], ["n"], ["q", "w"]),
    (A.dss_c_prime, dict(eps0=0.5, n=1000, q=0.5), ["eps0"], ["n"], ["q"]),
    (A.binomial_outside_window, dict(n=10, q=0.5, lo=2, hi=5), [], ["n"], ["q"]),
]
PARAMS = [(f, kw, a, kind) for f, kw, reals, counts, probs in CASES
          for kind, names in (("real", reals), ("count", counts), ("prob", probs)) for a in names]


@pytest.mark.parametrize("fn,kw,arg,kind", PARAMS, ids=[f"{p[0].__name__}-{p[2]}" for p in PARAMS])
def test_argument_messages_name_the_argument(fn, kw, arg, kind):
    bad = dict(kw)
    bad[arg] = "x"
    assert raised(WrongTypeError, fn, **bad).startswith(f"{arg} must be a")
    bad[arg] = True
    assert raised(WrongTypeError, fn, **bad).startswith(f"{arg} must be a")
    bad[arg] = -1 if kind == "real" else 0
    assert raised(InvalidInputError, fn, **bad).startswith(f"{arg} must be ")
    if kind == "prob":
        bad[arg] = 0.0
        assert raised(InvalidInputError, fn, **bad).startswith(f"{arg} must be in (0, 1")


@pytest.mark.parametrize("arg", ["lo", "hi"])
def test_binomial_window_ends_name_the_argument(arg):
    kw = dict(n=10, q=0.5, lo=2, hi=5)
    kw[arg] = -1
    assert raised(InvalidInputError, A.binomial_outside_window, **kw) == f"{arg} must be >= 0, got -1"
    kw[arg] = 1.0
    assert raised(WrongTypeError, A.binomial_outside_window, **kw).startswith(f"{arg} must be an integer")


def test_eps_tilde_checks_name_it():
    assert raised(WrongTypeError, A.cldp_sgd_accountant, **{**CLDP, "eps_tilde": "x"}).startswith(
        "eps_tilde must be a float or int")
    assert raised(InvalidInputError, A.cldp_sgd_accountant, **{**CLDP, "eps_tilde": -0.5}).startswith(
        "eps_tilde must be >= 0")
