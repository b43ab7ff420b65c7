"""bcdp.accounting.sampled_gaussian against independent computations: dp_accounting's RDP accountant
(PoissonSampledDpEvent(GaussianDpEvent)), a 50-digit mpmath quadrature of the Renyi divergence of the
mixture (1-q) N(0, s^2) + q N(1, s^2) vs N(0, s^2) written here from the definition, closed forms at
q = 1 and alpha = 2, and the [MTZ19, Sec. 3.3] conditions evaluated here in mpmath."""

from __future__ import annotations

from fractions import Fraction

import dp_accounting as dpa
import mpmath
import numpy as np
import pytest
from bcdp.accounting import sampled_gaussian as sg
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.core.intervals import ball_lower, ball_upper

POINTS = [(Fraction(1, 100), Fraction(1, 2), 2), (Fraction(1, 100), Fraction(1, 2), 10), (Fraction(1, 10), 1, 7),
          (Fraction(1, 5), 4, 32), (Fraction(1, 1000), 2, 64), (Fraction(1, 2), Fraction(3, 2), 5),
          (Fraction(9, 10), 3, 12), (Fraction(1, 20), 8, 128)]


def _mp(x) -> mpmath.mpf:
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def _quad_divergence(q, s, a, reverse=False) -> mpmath.mpf:
    """D_a(P||Q) = log(int P^a Q^(1-a))/(a-1) with P = the mixture, Q = N(0, s^2) (swapped if reverse),
    densities written out, integrated on pieces around the mixture's two means and the tilted peak."""
    qm, sm, am = _mp(q), _mp(s), _mp(a)

    def phi(x, mu):
        return mpmath.exp(-(x - mu) ** 2 / (2 * sm ** 2)) / (sm * mpmath.sqrt(2 * mpmath.pi))

    def f(x):
        mix, base = (1 - qm) * phi(x, 0) + qm * phi(x, 1), phi(x, 0)
        p, r = (base, mix) if reverse else (mix, base)
        return p ** am * r ** (1 - am)

    cuts = sorted({mpmath.mpf(-12) * sm, mpmath.mpf(0), mpmath.mpf(1), am, am + 12 * sm})
    return mpmath.log(mpmath.quad(f, [-mpmath.inf] + cuts + [mpmath.inf])) / (am - 1)


@pytest.mark.parametrize("q, s, a", POINTS)
def test_ball_matches_dp_accounting(q, s, a):
    acc = dpa.rdp.RdpAccountant(orders=[a])
    acc.compose(dpa.PoissonSampledDpEvent(float(q), dpa.GaussianDpEvent(float(s))))
    theirs = float(acc._rdp[0])
    ball = sg.sgm_rdp_ball(q, s, a)
    mid = float(_mp(ball_lower(ball)) / 2 + _mp(ball_upper(ball)) / 2)
    assert mid == pytest.approx(theirs, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("q, s, a", [p for p in POINTS if p[2] <= 12])
def test_ball_encloses_a_50_digit_quadrature_of_the_definition(q, s, a):
    with mpmath.workdps(50):
        value = _quad_divergence(q, s, a)
        ball = sg.sgm_rdp_ball(q, s, a, bits=200)
        slack = mpmath.mpf(10) ** -40
        assert _mp(ball_lower(ball)) - slack <= value <= _mp(ball_upper(ball)) + slack
        assert _mp(ball_upper(ball)) - _mp(ball_lower(ball)) < mpmath.mpf(10) ** -45


def test_alpha_two_and_full_sampling_closed_forms():
    # alpha = 2: A_2 = 1 + q^2 (e^{1/s^2} - 1); q = 1: the Gaussian's alpha/(2 s^2), exactly
    for q, s in ((Fraction(1, 100), Fraction(1, 2)), (Fraction(3, 7), 2)):
        lo, hi = sg.sgm_rdp_bounds(q, s, 2, bits=200)
        with mpmath.workdps(60):
            closed = mpmath.log(1 + _mp(q) ** 2 * mpmath.expm1(1 / _mp(s) ** 2))
            assert _mp(lo) - mpmath.mpf(10) ** -55 <= closed <= _mp(hi) + mpmath.mpf(10) ** -55
    for s, a in ((2, 3), (Fraction(1, 3), 9)):
        lo, hi = sg.sgm_rdp_bounds(1, s, a)
        assert lo <= Fraction(a) / (2 * Fraction(s) ** 2) <= hi
    assert sg.sgm_rdp_bounds(0, 1, 5) == (0, 0)


def test_float_twin_matches_the_ball_and_is_vectorised():
    alphas = np.array([2, 3, 4, 10, 50, 200])
    for q, s in ((Fraction(1, 100), Fraction(1, 2)), (Fraction(1, 10), 2), (Fraction(1), 3), (Fraction(0), 1)):
        out = sg.sgm_rdp_float(float(q), float(s), alphas)
        assert out.shape == alphas.shape
        for a, v in zip(alphas, out):
            ball = sg.sgm_rdp_ball(q, s, int(a))
            assert v == pytest.approx(float(_mp(ball_upper(ball))), rel=1e-10, abs=1e-300)


def test_quadrature_twin_at_real_orders():
    with mpmath.workdps(50):
        for q, s, a in ((Fraction(1, 10), 1, Fraction(5, 2)), (Fraction(1, 100), Fraction(1, 2), Fraction(7, 3))):
            mine = sg.sgm_rdp_mp(q, s, a)
            assert abs(mine - _quad_divergence(q, s, a)) < mpmath.mpf(10) ** -40
            # Renyi divergence is nondecreasing in the order
            assert _mp(ball_upper(sg.sgm_rdp_ball(q, s, int(a)))) <= mine + mpmath.mpf(10) ** -40
            assert mine <= _mp(ball_lower(sg.sgm_rdp_ball(q, s, int(a) + 1))) + mpmath.mpf(10) ** -40
        # integer order: the quadrature agrees with the certified sum
        ball = sg.sgm_rdp_ball(Fraction(1, 10), 1, 6, bits=200)
        assert abs(sg.sgm_rdp_mp(Fraction(1, 10), 1, 6) - _mp(ball_lower(ball))) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("q, s, a", [(Fraction(1, 10), 1, Fraction(5, 2)), (Fraction(1, 2), Fraction(1, 2), 3),
                                     (Fraction(1, 100), 2, 8)])
def test_the_mixture_first_direction_dominates(q, s, a):
    # [MTZ19, Sec. 3]: D_a(mu || mu_0) >= D_a(mu_0 || mu); checked against the reverse quadrature
    with mpmath.workdps(50):
        fwd = sg.sgm_rdp_mp(q, s, a)
        rev = sg.sgm_rdp_mp(q, s, a, direction="gaussian_first")
        assert abs(rev - _quad_divergence(q, s, a, reverse=True)) < mpmath.mpf(10) ** -35
        assert rev < fwd


def _mtz_oracle(q, s, a) -> bool:
    qm, sm, am = _mp(q), _mp(s), _mp(a)
    if not (qm <= mpmath.mpf(1) / 5 and sm >= 4):
        return False
    L = mpmath.log(1 + 1 / (qm * (am - 1)))
    c1 = am <= sm ** 2 * L / 2 - 2 * mpmath.log(sm)
    c2 = am <= (sm ** 2 * L ** 2 / 2 - mpmath.log(5) - 2 * mpmath.log(sm)) / (L + mpmath.log(qm * am) + 1 / (2 * sm ** 2))
    return bool(c1 and c2)


def test_mtz19_regime_boundaries():
    with mpmath.workdps(50):
        for q, s in ((Fraction(1, 100), 4), (Fraction(1, 1000), 5), (Fraction(1, 5), 8)):
            top = max(a for a in range(2, 2000) if _mtz_oracle(q, s, a))
            assert sg.mtz19_regime(q, s, top) and not sg.mtz19_regime(q, s, top + 1)
            assert _mtz_oracle(q, s, top) and not _mtz_oracle(q, s, top + 1)
    assert sg.mtz19_regime(Fraction(1, 5), 8, 3) and not sg.mtz19_regime(Fraction(201, 1000), 8, 3)
    assert sg.mtz19_regime(Fraction(1, 100), 4, 2) and not sg.mtz19_regime(Fraction(1, 100), Fraction(399, 100), 2)
    assert sg.mtz19_regime_var(Fraction(1, 100), 16, 2) and not sg.mtz19_regime_var(Fraction(1, 100), Fraction(1599, 100), 2)


def test_mtz19_bound_holds_in_its_regime():
    for q, s in ((Fraction(1, 100), 4), (Fraction(1, 20), 6), (Fraction(1, 5), 10)):
        for a in range(2, 200, 7):
            if sg.mtz19_regime(q, s, a):
                assert ball_upper(sg.sgm_rdp_ball(q, s, a)) <= sg.mtz19_bound(q, s, a)
    assert sg.mtz19_bound(Fraction(1, 10), 2, 3) == Fraction(3, 200)


@pytest.mark.parametrize("call, exc", [
    (lambda: sg.sgm_rdp_ball(0.1, 1, 2), FloatRefusedError),
    (lambda: sg.sgm_rdp_ball("1/10", 1.0, 2), FloatRefusedError),
    (lambda: sg.sgm_rdp_ball("1/10", 1, 2.0), WrongTypeError),
    (lambda: sg.sgm_rdp_ball("1/10", 1, True), WrongTypeError),
    (lambda: sg.sgm_rdp_ball("1/10", 1, 1), InvalidInputError),
    (lambda: sg.sgm_rdp_ball("3/2", 1, 2), InvalidInputError),
    (lambda: sg.sgm_rdp_ball("1/10", 0, 2), InvalidInputError),
    (lambda: sg.sgm_rdp_ball_var("1/10", -1, 2), InvalidInputError),
    (lambda: sg.sgm_rdp_float(0.1, 1, np.array([1, 2])), InvalidInputError),
    (lambda: sg.sgm_rdp_float(0.1, 1, np.array([2.0])), InvalidInputError),
    (lambda: sg.sgm_rdp_float(1.5, 1, np.array([2])), InvalidInputError),
    (lambda: sg.sgm_rdp_float(0.1, 0, np.array([2])), InvalidInputError),
    (lambda: sg.sgm_rdp_mp("1/10", 1, 1), InvalidInputError),
    (lambda: sg.sgm_rdp_mp("1/10", 1, 2, direction="up"), InvalidInputError),
    (lambda: sg.mtz19_bound("1/10", 1, 1), InvalidInputError),
    (lambda: sg.mtz19_regime("1/10", 4, 1), InvalidInputError),
])
def test_bad_inputs_raise_one_line_errors(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert "\n" not in str(info.value)
