"""THESIS-Lemma3.3.2 (thesis Lemma 3.3.2, eq. (3.6)): the check against the certified exact shuffled-2RR RDP."""

from __future__ import annotations

import importlib
from fractions import Fraction
from math import comb

import mpmath
import pytest
import sympy
from bcdp.dme import calibration as cal
from bcdp.shuffle import rr_all_pairs
from check_verdicts import verdict

NAME = "bcdp.checks.thesis.lemma332_fmt23"


@pytest.fixture(autouse=True, scope="module")
def _imported():
    importlib.import_module(NAME)


def _verdict() -> str:
    return verdict(NAME.removeprefix("bcdp.checks."))


def _brute_sup(n: int, eps0: Fraction, alpha: int) -> mpmath.mpf:
    """sup over j (others' ones) and both directions of D_alpha of the shuffled 2RR count laws, by direct
    binomial convolution in 60-digit mpmath (written here, independent of the library)."""
    E = mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator)
    p, q = 1 / (E + 1), E / (E + 1)
    best = mpmath.mpf(0)
    for j in range(n):
        law = [mpmath.mpf(0)] * n                      # count of ones among the other n-1 users
        for a in range(n - j):
            for b in range(j + 1):
                law[a + b] += comb(n - 1 - j, a) * p ** a * q ** (n - 1 - j - a) * comb(j, b) * q ** b * p ** (j - b)
        P = [law[k] * q + (law[k - 1] * p if k else 0) for k in range(n)] + [law[n - 1] * p]   # user's bit 0
        Q = [law[k] * p + (law[k - 1] * q if k else 0) for k in range(n)] + [law[n - 1] * q]   # user's bit 1
        for A, B in ((P, Q), (Q, P)):
            s = mpmath.fsum(a ** alpha * b ** (1 - alpha) for a, b in zip(A, B))
            best = max(best, mpmath.log(s) / (alpha - 1))
    return best


@pytest.mark.parametrize("n, eps0, alpha", [(10, Fraction(1, 10), 2), (10, Fraction(1, 10), 5), (50, Fraction(1, 2), 3)])
def test_the_exact_side_matches_an_independent_brute_force(n, eps0, alpha):
    with mpmath.workdps(60):
        ball = rr_all_pairs.rr_worst_pair_rdp_ball(n, eps0, alpha)
        brute = _brute_sup(n, eps0, alpha)
        assert abs(mpmath.mpf(ball.mid()) - brute) <= mpmath.mpf(ball.rad()) + mpmath.mpf(10) ** -40


def test_the_order_cap_and_slope_match_the_printed_lemma():
    with mpmath.workdps(50):
        for n, e in ((10, Fraction(1, 10)), (200, Fraction(1))):
            v2 = 4 * sympy.sinh(sympy.Rational(e.numerator, e.denominator) / 2) ** 2
            em = mpmath.mpf(e.numerator) / e.denominator
            assert abs(cal.num(cal.lemma332_alpha_max(v2, 1, n)) - n / (16 * em * mpmath.exp(em))) < mpmath.mpf(10) ** -40
            E = mpmath.exp(em)
            assert abs(cal.num(cal.shuffled_rho(v2, 1, n)) - 48 * (E - 1) ** 2 / (n * E)) < mpmath.mpf(10) ** -40


def test_real_library_confirms():
    assert _verdict() == "confirmed"


def test_a_slope_one_hundred_times_too_small_is_refuted(monkeypatch):
    real = cal.shuffled_rho
    monkeypatch.setattr(cal, "shuffled_rho", lambda v2, s, n: real(v2, s, n) / 100)
    assert _verdict() == "refuted"


def test_a_doubled_order_cap_is_refuted(monkeypatch):
    real = cal.lemma332_alpha_max
    monkeypatch.setattr(cal, "lemma332_alpha_max", lambda v2, s, n: 2 * real(v2, s, n))
    assert _verdict() == "refuted"


def test_an_exact_side_above_the_bound_is_refuted(monkeypatch):
    real = rr_all_pairs.rr_worst_pair_rdp_ball
    monkeypatch.setattr(rr_all_pairs, "rr_worst_pair_rdp_ball", lambda n, e, a: real(n, e, a) * 100)
    assert _verdict() == "refuted"
