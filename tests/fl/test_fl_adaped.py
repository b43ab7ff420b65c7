"""bcdp.fl.adaped (thesis Thm 4.5.1, App. C.5): the printed formula against a sympy oracle, the exact
accountant against dp_accounting composing the same Poisson-sampled Gaussian events, the sensitivity
readings, and the validity conditions on both sides of their boundaries."""

from __future__ import annotations

from fractions import Fraction

import dp_accounting as dpa
import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import ball_lower, ball_upper
from bcdp.fl import adaped

INST = (100, 10, 10, 100, 1, 3, Fraction(1, 2), 2)   # T, tau, K, n, C1, sigma1, C2, sigma2


def test_printed_formula_matches_a_sympy_oracle():
    a, T, tau, K, n, C1, s1, C2, s2 = sympy.symbols("a T tau K n C1 s1 C2 s2", positive=True)
    expr = (K / n) ** 2 * 6 * T / tau * a * (C1 ** 2 / (K * s1 ** 2) + C2 ** 2 / (K * s2 ** 2))
    for alpha in (2, Fraction(3, 2), 17):
        for inst in (INST, (7, 7, 3, 50, Fraction(1, 3), 5, 2, Fraction(1, 7))):
            vals = dict(zip((T, tau, K, n, C1, s1, C2, s2), (sympy.Rational(str(v)) for v in inst)))
            vals[a] = sympy.Rational(str(alpha))
            want = expr.subs(vals)
            got = adaped.thm451_epsilon(alpha, *inst)
            assert sympy.Rational(got.numerator, got.denominator) == want


def test_alpha_boundary_of_the_theorem():
    with pytest.raises(ValidityConditionError, match="alpha > 1"):
        adaped.thm451_epsilon(1, *INST)
    assert adaped.thm451_epsilon(Fraction(1000001, 1000000), *INST) > 0


def test_sensitivity_readings():
    # printed (C.38): z^2 = K sigma^2 / C^2 whatever tau; worst case: divided by tau
    for tau in (1, 4, 25):
        assert adaped.round_noise_variance(2, 3, 10, tau, sensitivity="printed") == Fraction(10 * 9, 4)
        assert adaped.round_noise_variance(2, 3, 10, tau) == Fraction(10 * 9, 4 * tau)


def _dp_accounting_rdp(alpha, T, tau, K, n, C1, s1, C2, s2, tau_power):
    acc = dpa.rdp.RdpAccountant(orders=[alpha])
    for c, s in ((C1, s1), (C2, s2)):
        ratio = K * Fraction(s) ** 2 / (tau ** tau_power * Fraction(c) ** 2)
        z = float(mpmath.sqrt(mpmath.mpf(ratio.numerator) / ratio.denominator))
        acc.compose(dpa.PoissonSampledDpEvent(K / n, dpa.GaussianDpEvent(z)), T // tau)
    return float(acc._rdp[0])


@pytest.mark.parametrize("alpha", [2, 5, 32])
@pytest.mark.parametrize("sensitivity, power", [("printed", 0), ("worst_case", 1)])
def test_exact_accountant_matches_dp_accounting(alpha, sensitivity, power):
    ball = adaped.exact_rdp_ball(alpha, *INST, sensitivity=sensitivity)
    mid = float((ball_lower(ball) + ball_upper(ball)) / 2)
    assert mid == pytest.approx(_dp_accounting_rdp(alpha, *INST, power), rel=1e-9)


def test_exact_accountant_needs_whole_rounds():
    with pytest.raises(ValidityConditionError, match="must divide"):
        adaped.exact_rdp_ball(2, 101, 10, 10, 100, 1, 3, 1, 3)
    assert adaped.exact_rdp_ball(2, 110, 10, 10, 100, 1, 3, 1, 3).is_finite()


def test_printed_is_below_exact_in_the_thesis_own_model():
    inst = (1, 1, 16, 1600, 1, Fraction(1, 8), 1, Fraction(1, 8))   # q = 1/100, z^2 = 1/4
    assert ball_lower(adaped.exact_rdp_ball(2, *inst, sensitivity="printed")) > adaped.thm451_epsilon(2, *inst)


def test_corrected_form_regime_boundary_and_soundness():
    # z^2 = K sigma^2 / (tau C^2) = 16 sigma^2 / 100: sigma = 10 gives 16 (in), 999/100 gives < 16 (out)
    ok = (100, 100, 16, 1600, 1, 10, 1, 10)
    bound = adaped.thm451_epsilon_corrected(2, *ok)
    assert bound == Fraction(1, 100) ** 2 * 6 * 100 * 2 * 2 * Fraction(1, 16 * 100)
    assert ball_upper(adaped.exact_rdp_ball(2, *ok)) <= bound
    with pytest.raises(ValidityConditionError, match="outside the MTZ19 regime"):
        adaped.thm451_epsilon_corrected(2, 100, 100, 16, 1600, 1, Fraction(999, 100), 1, 10)
    with pytest.raises(ValidityConditionError, match="mechanism 2"):
        adaped.thm451_epsilon_corrected(2, 100, 100, 16, 1600, 1, 10, 1, Fraction(999, 100))


@pytest.mark.parametrize("call, exc", [
    (lambda: adaped.thm451_epsilon(2, 100, 10, 10, 100, 1, 3.0, 1, 3), FloatRefusedError),
    (lambda: adaped.thm451_epsilon(2, 100, 10, 101, 100, 1, 3, 1, 3), InvalidInputError),
    (lambda: adaped.thm451_epsilon(2, 0, 10, 10, 100, 1, 3, 1, 3), InvalidInputError),
    (lambda: adaped.thm451_epsilon(2, 100.0, 10, 10, 100, 1, 3, 1, 3), WrongTypeError),
    (lambda: adaped.thm451_epsilon(2, 100, 10, 10, 100, 0, 3, 1, 3), InvalidInputError),
    (lambda: adaped.round_noise_variance(1, 1, 1, 1, sensitivity="other"), InvalidInputError),
    (lambda: adaped.exact_rdp_ball(2.5, 100, 10, 10, 100, 1, 3, 1, 3), WrongTypeError),
])
def test_bad_inputs(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert "\n" not in str(info.value)


def test_dp_epsilon_matches_dp_accounting():
    # T/tau = 10 rounds x 2 mechanisms with z^2 = K sigma^2/(tau C^2) = 9: 20 Poisson(1/10)-sampled
    # Gaussian events; dp_accounting's RDP accountant over the same integer orders and its conversion
    inst = (100, 10, 10, 100, 1, 3, 1, 3)
    ours = adaped.exact_dp_epsilon("1e-5", *inst, alpha_max=128)
    acc = dpa.rdp.RdpAccountant(orders=list(range(2, 129)))
    acc.compose(dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(3.0)), 20)
    assert ours.upper == pytest.approx(acc.get_epsilon(1e-5), rel=1e-9)
    assert ours.details["rdp_certified"]
    with pytest.raises(InvalidInputError, match="alpha_max"):
        adaped.exact_rdp_curve(*inst, alpha_max=1)
