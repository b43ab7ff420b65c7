"""bcdp.fl.sgd_convergence (thesis Lemma 4.3.3, [SZ13]): the bound against mpmath, the exact gap
against hand-computed small cases, and seeded Monte Carlo with Hoeffding confidence bounds (the gap
F(theta_T) - F* lies in [0, D] for the 1-Lipschitz absolute loss, so the mean of n runs exceeds its
expectation by t with probability <= exp(-2 n t^2 / D^2))."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.intervals import ball_lower, ball_upper
from bcdp.fl import sgd_convergence as sgd
from check_verdicts import verdict

HALF = (Fraction(1, 2), Fraction(1, 2))


def test_bound_encloses_the_printed_expression():
    with mpmath.workdps(50):
        for D, G, T in ((1, 1, 1), (Fraction(3, 2), 2, 10), (5, Fraction(1, 3), 1000)):
            want = 2 * mpmath.mpf(Fraction(D).numerator) / Fraction(D).denominator * (
                mpmath.mpf(Fraction(G).numerator) / Fraction(G).denominator) * (2 + mpmath.log(T)) / mpmath.sqrt(T)
            ball = sgd.lemma433_bound_ball(D, G, T, bits=200)
            assert float(ball_lower(ball)) <= float(want) <= float(ball_upper(ball))
            assert sgd.lemma433_bound_float(float(D), float(G), T) == pytest.approx(float(want), rel=1e-14)


def test_exact_gap_small_cases_by_hand():
    # T = 1: theta_1 = 0 on [0, 1], xi uniform on {0, 1}: F = 1/2 everywhere, gap 0
    assert sgd.abs_loss_exact_gap((0, 1), HALF, 0, 1, 1, 0) == 0
    # xi ~ (3/10 at 0, 7/10 at 1): F(theta) = 7/10 - (2/5) theta, F* = 3/10; from theta_1 = 0 one step of
    # size 1: g = 0 w.p. 3/10 (stays at 0, gap 2/5), g = -1 w.p. 7/10 (goes to 1, gap 0) -> 3/25
    gap = sgd.abs_loss_exact_gap((0, 1), (Fraction(3, 10), Fraction(7, 10)), 0, 1, 2, 0)
    with mpmath.workdps(50):
        assert abs(gap - mpmath.mpf(3) / 25) < mpmath.mpf(10) ** -45
    assert sgd.abs_loss_minimum((0, 1), (Fraction(3, 10), Fraction(7, 10)), 0, 1) == Fraction(3, 10)
    assert sgd.abs_loss_objective((-1, 0, 2), (Fraction(1, 3),) * 3, 0) == 1


def test_monte_carlo_matches_the_exact_gap():
    # seeded; two-sided Hoeffding at failure probability 1e-6 (D = 1)
    sup, pr = (0, 1), (Fraction(3, 10), Fraction(7, 10))
    n, T = 20000, 9
    theta = sgd.abs_loss_sgd_float(sup, pr, 0, 1, T, 0, n, np.random.default_rng(2024))
    gaps = 0.7 - 0.4 * theta - 0.3
    exact = float(sgd.abs_loss_exact_gap(sup, pr, 0, 1, T, 0))
    assert abs(gaps.mean() - exact) <= math.sqrt(math.log(2e6) / (2 * n))


def test_monte_carlo_gap_below_the_bound_at_long_horizons():
    # three-point law on [-1, 2] (D = 3), T up to 400; one-sided Hoeffding at 1e-6 per horizon
    sup, pr = (-1, 0, 2), (Fraction(1, 3),) * 3
    n = 20000
    for T in (50, 400):
        theta = sgd.abs_loss_sgd_float(sup, pr, -1, 2, T, 2, n, np.random.default_rng(T))
        F = (np.abs(theta + 1) + np.abs(theta) + np.abs(theta - 2)) / 3
        gap = F - 1.0   # F* = F(0) = 1
        assert gap.min() >= -1e-12
        assert gap.mean() - 3 * math.sqrt(math.log(1e6) / (2 * n)) <= sgd.lemma433_bound_float(3, 1, T)


@pytest.mark.parametrize("call, exc", [
    (lambda: sgd.lemma433_bound_ball(1.0, 1, 2), FloatRefusedError),
    (lambda: sgd.lemma433_bound_ball(0, 1, 2), InvalidInputError),
    (lambda: sgd.lemma433_bound_ball(1, 1, 0), InvalidInputError),
    (lambda: sgd.lemma433_bound_ball(1, 1, 2.0), WrongTypeError),
    (lambda: sgd.abs_loss_exact_gap((0, 1), ("1/2", "1/3"), 0, 1, 2, 0), InvalidInputError),
    (lambda: sgd.abs_loss_exact_gap((0, 1), HALF, 1, 0, 2, 0), InvalidInputError),
    (lambda: sgd.abs_loss_exact_gap((0, 1), HALF, 0, 1, 2, 2), InvalidInputError),
    (lambda: sgd.abs_loss_exact_gap((0, 1), HALF, 0, 1, 40, 0), InvalidInputError),
    (lambda: sgd.abs_loss_sgd_float((0, 1), HALF, 0, 1, 2, 0, 10, 3), WrongTypeError),
    (lambda: sgd.abs_loss_sgd_float((0, 1), HALF, 0, 1, 2, 0, 0, np.random.default_rng(0)), InvalidInputError),
])
def test_bad_inputs(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert "\n" not in str(info.value)


def test_check_touches_the_code(monkeypatch):
    import importlib

    importlib.import_module("bcdp.checks.thesis.lemma433_sgd")
    assert verdict("thesis.lemma433_sgd") == "confirmed"
    real = sgd.lemma433_bound_ball
    monkeypatch.setattr(sgd, "lemma433_bound_ball", lambda D, G, T, bits=128: real(D, G, T, bits=bits) / 2)
    assert verdict("thesis.lemma433_sgd") == "refuted"
    monkeypatch.setattr(sgd, "lemma433_bound_ball", real)
    real_gap = sgd.abs_loss_exact_gap
    # a gap computed with one update fewer (off-by-one horizon)
    monkeypatch.setattr(sgd, "abs_loss_exact_gap", lambda s, p, lo, hi, T, th, dps=50:
                        real_gap(s, p, lo, hi, max(T - 1, 1), th, dps=dps))
    assert verdict("thesis.lemma433_sgd") == "refuted"
