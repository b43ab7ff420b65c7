"""Mutation tests of bcdp.fl.adaped (thesis Thm 4.5.1, App. C.5): the exact accountant against the [MTZ19]
binomial sum written here in mpmath (50 digits), the curve's orders, values and precision, the CKS conversion
against its printed formula over the same integer orders, the corrected form, the alpha_max range on both
sides, and the exact one-line messages naming each argument."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import ball_lower, ball_of, ball_upper
from bcdp.fl import adaped
from tests.mutation_support import raised


@pytest.fixture(autouse=True)
def _fifty_digits():
    with mpmath.workdps(50):
        yield


def mpq(x):
    x = Fraction(x)
    return mpmath.mpf(x.numerator) / x.denominator


def sgm(alpha, q, var):
    """[MTZ19] RDP of the Poisson-sampled Gaussian (sensitivity 1, noise variance var) at integer alpha:
    log(sum_k C(alpha, k) (1-q)^(alpha-k) q^k exp((k^2 - k)/(2 var)))/(alpha - 1), the terms by their ratios."""
    q, var = mpq(q), mpq(var)
    term = (1 - q) ** alpha
    total = term
    for k in range(alpha):
        term *= mpmath.mpf(alpha - k) / (k + 1) * q / (1 - q) * mpmath.exp(k / var)
        total += term
    return mpmath.log(total) / (alpha - 1)


def model(alpha, T, tau, K, n, C1, s1, C2, s2, power):
    """(T/tau) (eps_SGM(z1) + eps_SGM(z2)), z_j^2 = K s_j^2 / (tau^power C_j^2) (power 0 printed, 1 worst case)."""
    q = Fraction(K, n)
    return mpq(Fraction(T, tau)) * sum(
        sgm(alpha, q, Fraction(K) * Fraction(s) ** 2 / (Fraction(tau) ** power * Fraction(c) ** 2))
        for c, s in ((C1, s1), (C2, s2)))


def inside(ball, x, rel=mpmath.mpf(10) ** -45):
    lo, up = mpq(ball_lower(ball)), mpq(ball_upper(ball))
    assert lo - rel * abs(x) <= x <= up + rel * abs(x)


INST = (100, 10, 10, 100, 1, 3, Fraction(1, 2), 2)   # T, tau, K, n, C1, sigma1, C2, sigma2


@pytest.mark.parametrize("sensitivity,power", [("printed", 0), ("worst_case", 1)])
def test_exact_rdp_ball_contains_the_binomial_sum(sensitivity, power):
    for alpha in (2, 7):
        inside(adaped.exact_rdp_ball(alpha, *INST, sensitivity=sensitivity), model(alpha, *INST, power))


def test_exact_rdp_ball_counts_rounds_exactly():
    """T/tau = 3^40 rounds (not a float: 3^40 > 2^53)."""
    inst = (3 ** 40, 1, 10, 100, 1, 3, 1, 3)
    inside(adaped.exact_rdp_ball(2, *inst), model(2, *inst, 1))


def test_exact_rdp_ball_honours_bits():
    ball = adaped.exact_rdp_ball(5, *INST, bits=256)
    assert ball_upper(ball) - ball_lower(ball) < ball_lower(ball) * Fraction(1, 2 ** 200)
    default, explicit = adaped.exact_rdp_ball(5, *INST), adaped.exact_rdp_ball(5, *INST, bits=128)
    assert default.mid() == explicit.mid() and default.rad() == explicit.rad()


@pytest.mark.parametrize("alpha_max", [2, 5])
def test_exact_rdp_curve_orders_values_and_sensitivity(alpha_max):
    curve = adaped.exact_rdp_curve(*INST, alpha_max=alpha_max, sensitivity="printed")
    assert curve.orders == tuple(float(a) for a in range(2, alpha_max + 1))
    for a, v in zip(range(2, alpha_max + 1), curve.order_values):
        ball = curve.certified(mpmath.mpf(a))
        assert Fraction(v) >= ball_upper(ball)
        inside(ball, model(a, *INST, 0))


def test_exact_rdp_curve_default_sensitivity_bits_and_orders():
    curve = adaped.exact_rdp_curve(*INST)
    assert curve.orders == tuple(float(a) for a in range(2, 257))
    ball = curve.certified(mpmath.mpf(3))
    inside(ball, model(3, *INST, 1))
    explicit = adaped.exact_rdp_ball(3, *INST, bits=128)
    assert ball.mid() == explicit.mid() and ball.rad() == explicit.rad()
    fine = adaped.exact_rdp_curve(*INST, alpha_max=3, bits=256).certified(mpmath.mpf(3))
    assert ball_upper(fine) - ball_lower(fine) < ball_lower(fine) * Fraction(1, 2 ** 200)


@pytest.mark.parametrize("bad", [1, 4097, 8.0, True, "8"])
def test_exact_rdp_curve_alpha_max_refused(bad):
    assert raised(InvalidInputError, adaped.exact_rdp_curve, *INST, alpha_max=bad) == \
        f"alpha_max must be an integer in [2, 4096], got {bad!r}"


def test_exact_rdp_curve_alpha_max_4096_accepted(monkeypatch):
    """The range end 4096 is accepted (the 4095 balls are replaced by a cheap stand-in: only the range check
    and the orders are under test here)."""
    monkeypatch.setattr(adaped, "exact_rdp_ball", lambda a, *args, **kw: ball_of(Fraction(a, 10 ** 6)))
    curve = adaped.exact_rdp_curve(*INST, alpha_max=4096)
    assert curve.orders[0] == 2.0 and curve.orders[-1] == 4096.0 and len(curve.orders) == 4095


def cks(rdp, alpha, delta):
    """CKS conversion (Canonne-Kamath-Steinke 2020, Prop. 12): eps = rdp + log((a-1)/a) - (log delta + log a)/(a-1)."""
    a = mpmath.mpf(alpha)
    return rdp + mpmath.log((a - 1) / a) - (mpmath.log(mpq(delta)) + mpmath.log(a)) / (a - 1)


def test_exact_dp_epsilon_is_cks_over_integer_orders_2_to_256():
    """One round, q = 1/100, z = 20 on both mechanisms, delta = 1e-10: the CKS minimum lies beyond alpha = 256,
    so the default alpha_max decides the value."""
    inst = (1, 1, 1, 100, 1, 20, 1, 20)
    delta = Fraction(1, 10 ** 10)
    with mpmath.workdps(30):
        vals = [cks(model(a, *inst, 1), a, delta) for a in range(2, 258)]
    oracle = min(vals[:-1])
    assert vals.index(oracle) == 254 and vals[-1] < oracle * (1 - mpmath.mpf(10) ** -4)
    got = adaped.exact_dp_epsilon(delta, *inst)
    assert mpmath.mpf(got.upper) >= oracle * (1 - mpmath.mpf(10) ** -25)
    assert mpmath.mpf(got.upper) <= oracle * (1 + mpmath.mpf(10) ** -9)


def test_exact_dp_epsilon_passes_alpha_max_and_sensitivity():
    inst = (100, 10, 10, 100, 1, 3, 1, 3)
    delta = Fraction(1, 10 ** 5)
    vals = [cks(model(a, *inst, 0), a, delta) for a in range(2, 9)]
    oracle = min(vals)
    assert vals.index(oracle) == len(vals) - 1          # the minimum is at the end alpha_max = 8
    got = adaped.exact_dp_epsilon(delta, *inst, alpha_max=8, sensitivity="printed")
    assert mpmath.mpf(got.upper) >= oracle * (1 - mpmath.mpf(10) ** -30)
    assert mpmath.mpf(got.upper) <= oracle * (1 + mpmath.mpf(10) ** -9)


def test_corrected_form_with_unit_free_constants():
    """C1 = 2, sigma1 = 20, C2 = 3, sigma2 = 30: C_j^2/sigma_j^2 = 1/100 each, z_j^2 = 16 (in the regime), so the
    corrected bound is (K/n)^2 6 T alpha (2/100)/K."""
    T, tau, K, n, alpha = 100, 100, 16, 1600, 2
    got = adaped.thm451_epsilon_corrected(alpha, T, tau, K, n, 2, 20, 3, 30)
    assert got == Fraction(K, n) ** 2 * 6 * T * alpha * Fraction(2, 100) / K


def test_k_equal_to_n_accepted():
    """K = n (every client each round): q = 1; the printed value is 6 (T/tau) alpha (C1^2/sigma1^2 + C2^2/sigma2^2)/K."""
    got = adaped.thm451_epsilon(2, 10, 5, 4, 4, 1, 2, 3, 1)
    assert got == 6 * 2 * 2 * (Fraction(1, 4) + 9) / 4


@pytest.mark.parametrize("arg", ["T", "tau", "K", "n"])
def test_count_messages_name_the_argument(arg):
    kw = dict(alpha=2, T=100, tau=10, K=10, n=100, C1=1, sigma1=3, C2=1, sigma2=3)
    kw[arg] = 0
    assert raised(InvalidInputError, adaped.thm451_epsilon, **kw) == f"{arg} must be a positive integer, got 0"


@pytest.mark.parametrize("arg", ["C1", "sigma1", "C2", "sigma2", "alpha"])
def test_exact_messages_name_the_argument(arg):
    kw = dict(alpha=2, T=100, tau=10, K=10, n=100, C1=1, sigma1=3, C2=1, sigma2=3)
    kw[arg] = "x"
    assert raised(InvalidInputError, adaped.thm451_epsilon, **kw) == f"{arg}: cannot read 'x' as an exact rational"
    if arg != "alpha":
        kw[arg] = 0
        assert raised(InvalidInputError, adaped.thm451_epsilon, **kw) == f"{arg} must be > 0, got 0"


@pytest.mark.parametrize("arg", ["C", "sigma", "K", "tau"])
def test_round_noise_variance_messages_name_the_argument(arg):
    kw = dict(C=1, sigma=3, K=10, tau=10)
    kw[arg] = 0
    want = f"{arg} must be > 0, got 0" if arg in ("C", "sigma") else f"{arg} must be a positive integer, got 0"
    assert raised(InvalidInputError, adaped.round_noise_variance, **kw) == want
    if arg in ("C", "sigma"):
        kw[arg] = "x"
        assert raised(InvalidInputError, adaped.round_noise_variance, **kw) == f"{arg}: cannot read 'x' as an exact rational"
