"""Mutation kills for the float64 fast path of bcdp.shuffle.rr_pair (thesis Sec. 5.3.4, the shuffled
binary randomized-response pair D = 0^n, D' = 0^{n-1}1): rr_pair_log_moment and rr_pair_rdp -- the
default direction, the refusals of an infinite eps0 or alpha, the widening of the k-window where the
first window does not meet its a-posteriori bound (eps0 >= 12 with alpha near 1), and the one
evaluation of the log-binomial weights shared by every order of a call.

Independent reference: the law of the number k of ones, k ~ Bin(n, p), p = 1/(E+1), E = e^eps0,
and the likelihood ratio r(k) = ((n - k)/E + k E)/n (thesis eq. (5.40), the ratio M(D')(k)/M(D)(k)),
summed over every k in mpmath at 80 digits: E_k[r^beta] - 1 with beta = alpha ("DprimeD", thesis
eq. (5.9)) or 1 - alpha ("DDprime")."""

import math
from functools import lru_cache

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import rr_pair
from bcdp.shuffle.rr_pair import rr_pair_log_moment, rr_pair_rdp


@lru_cache(maxsize=None)
def log_excess_oracle(n, eps0, alpha, direction):
    """log(E_{k~Bin(n,p)}[r(k)^beta] - 1), every k summed, 80 digits."""
    with mpmath.workdps(80):
        E = mpmath.exp(mpmath.mpf(eps0))  # eps0 is a float: its exact binary value
        p, q = 1 / (E + 1), E / (E + 1)
        beta = mpmath.mpf(alpha) if direction == "DprimeD" else 1 - mpmath.mpf(alpha)
        terms, b = [], q ** n  # b = C(n,k) p^k q^(n-k), by the exact ratio (n-k)/(k+1) p/q
        for k in range(n + 1):
            terms.append(b * (((n - k) / E + k * E) / n) ** beta)
            b = b * (n - k) / (k + 1) * p / q
        return mpmath.log(mpmath.fsum(terms) - 1)


def close(got, ref, rel=1e-12):
    return abs(mpmath.mpf(float(got)) - ref) <= rel * max(1, abs(ref))


@pytest.mark.parametrize("n, eps0, alphas, direction", [
    (300, 1.0, [1.01, 2.0, 10.0], "DprimeD"),
    (300, 1.0, [1.01, 2.0, 10.0], "DDprime"),
    (40, 0.5, [1.5, 3.0], "DDprime"),          # the window is all of [0, n]
    # eps0 >= 12, alpha near 1: the first k-window fails its a-posteriori bound and is widened
    (100, 12.0, [1.01], "DDprime"),
    (1000, 20.0, [1.0001, 1.01], "DprimeD"),
    (1000, 30.0, [1.0001, 1.01], "DprimeD"),
])
def test_log_moment_against_the_binomial_sum(n, eps0, alphas, direction):
    got = rr_pair_log_moment(n, eps0, alphas, direction)
    for g, a in zip(got, alphas, strict=True):
        assert close(g, log_excess_oracle(n, eps0, a, direction)), (g, a)


def test_default_direction_is_dprimed():
    # thesis eq. (5.9) is the "DprimeD" direction, D_alpha(M(D') || M(D)); the two differ here
    a = [2.0, 5.0]
    got = rr_pair_log_moment(300, 1.0, a)
    for g, x in zip(got, a, strict=True):
        ref = log_excess_oracle(300, 1.0, x, "DprimeD")
        assert close(g, ref) and not close(g, log_excess_oracle(300, 1.0, x, "DDprime"))


def test_rdp_against_the_binomial_sum():
    # D_alpha = log(1 + X)/(alpha - 1), X = E[r^beta] - 1
    a = [1.5, 4.0]
    got = rr_pair_rdp(500, 2.0, a, "DDprime")
    for g, x in zip(got, a, strict=True):
        with mpmath.workdps(80):
            ref = mpmath.log1p(mpmath.exp(log_excess_oracle(500, 2.0, x, "DDprime"))) / (mpmath.mpf(x) - 1)
        assert close(g, ref)


@pytest.mark.parametrize("eps0", [math.inf, "inf"])
def test_log_moment_refuses_infinite_eps0(eps0):
    with pytest.raises(InvalidInputError, match="^eps0 must be finite"):
        rr_pair_log_moment(10, eps0, [2.0])


@pytest.mark.parametrize("func", [rr_pair_log_moment, rr_pair_rdp])
def test_infinite_order_is_refused(func):
    with pytest.raises(InvalidInputError, match="^alpha must be finite"):
        func(10, 1.0, [2.0, math.inf])


@pytest.mark.parametrize("n, eps0, alphas", [(10, 1.0, [2.0, 3.0, 50.0]), (300, 1.0, [1.01, 2.0, 64.0]),
                                             (10 ** 5, 0.5, [2.0, 8.0])])
def test_log_binomial_weights_are_computed_once_per_call(monkeypatch, n, eps0, alphas):
    """The k-window of the largest |beta| (:func:`bernstein_halfwidth` at max L) contains every
    order's window: log b(k) is evaluated once per call, whatever the number of orders (the cost
    model of the benchmark in rr_pair_rdp's docstring).  Values are unchanged by the counting."""
    calls = []
    real = rr_pair.log_binom_pmf

    def counting(k, n_, p):
        calls.append(len(k))
        return real(k, n_, p)

    monkeypatch.setattr(rr_pair, "log_binom_pmf", counting)
    got = rr_pair_log_moment(n, eps0, alphas, "DprimeD")
    assert len(calls) == 1
    for d in ("DprimeD", "DDprime"):
        calls.clear()
        rr_pair_log_moment(n, eps0, alphas, d)
        assert len(calls) == 1
    if n <= 300:
        for g, a in zip(got, alphas, strict=True):
            assert close(g, log_excess_oracle(n, eps0, a, "DprimeD"))
    assert np.all(np.isfinite(got))
