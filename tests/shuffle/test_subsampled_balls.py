"""Certified subsampled shuffle bounds (bcdp.shuffle.subsampled_balls) and the calibration with
subsampling (bcdp.shuffle.calibration), against independent oracles:

* the mpmath closed form of thesis Thm 5.4.1 (bcdp.shuffle.subsampled_bounds.thm541_upper, 50 digits,
  and the printed formula written out in tests/shuffle_references.py);
* the mixture identity (*) summed over *every* sample size t in mpmath
  (bcdp.shuffle.subsampled.poisson_mixture_rdp with Thm 5.4.1 capped at eps0);
* the exact laws of subsampled shuffled binary randomized response (Fractions, every neighbouring
  pair and both directions, bcdp.shuffle.finite_laws.subsampled_shuffled_law): the certified values
  are upper bounds on the truth;
* for the calibration, a certified curve built from the mpmath values (rounded up) converted by
  rdp_to_dp: the answer meets the target and one step beyond does not.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import rdp_curve_from_arrays
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import ball_ends
from bcdp.shuffle.calibration import calibrate_eps0, calibrate_n, shuffled_dp_epsilon
from bcdp.shuffle.finite_laws import kary_rr_kernel, subsampled_shuffled_law
from bcdp.shuffle.subsampled import poisson_mixture_rdp
from bcdp.shuffle.subsampled_balls import (
    POISSON_WINDOW_MAX,
    poisson_thm541_ball,
    poisson_window,
    thm541_ball,
)
from bcdp.shuffle.subsampled_bounds import thm541_upper
from shuffle_references import ref_thm541, thm541_dp_epsilon_ref


def _contains(ball, value: mpmath.mpf, slack: float = 1e-40) -> bool:
    lo, hi = ball_ends(ball)
    v = Fraction(mpmath.nstr(value, 60))
    return lo - abs(v) * Fraction(slack) <= v <= hi + abs(v) * Fraction(slack)


@pytest.mark.parametrize("n,k,eps0,alpha", [(2, 1, "1", 2), (1000, 100, "0.001", 7), (10 ** 6, 10 ** 4, "1", 64),
                                             (10 ** 7, 10 ** 7, "10", 3), (5000, 37, "4", 16), (50, 50, "0.5", 32)])
def test_thm541_ball_encloses_the_mpmath_closed_form(n, k, eps0, alpha):
    with mpmath.workdps(60):
        want = thm541_upper(n, k, eps0, alpha, dps=50)
        printed = ref_thm541(n, k, eps0, alpha)
    assert _contains(thm541_ball(n, k, eps0, alpha), want)
    assert _contains(thm541_ball(n, k, eps0, alpha), printed)


def test_thm541_ball_edges():
    assert thm541_ball(10, 5, "inf", 2) is None
    assert ball_ends(thm541_ball(10, 5, "0", 4)) == (0, 0)
    with pytest.raises(InvalidInputError):
        thm541_ball(10, 11, "1", 2)                # k > n
    with pytest.raises(InvalidInputError):
        thm541_ball(10, 5, "1", "2.5")             # integer orders only
    with pytest.raises(InvalidInputError):
        thm541_ball(10, 5, 1.0, 2)                 # floats refused


def _mixture_oracle(n: int, gamma: str, eps0: str, alpha: int) -> mpmath.mpf:
    e = mpmath.mpf(eps0)
    return poisson_mixture_rdp(n, gamma, alpha, lambda t: min(thm541_upper(n, t, eps0, alpha), e), dps=50)


@pytest.mark.parametrize("n,gamma,eps0,alpha", [(30, "0.3", "1", 4), (12, "0.5", "3", 8), (40, "0.05", "0.2", 2),
                                                 (25, "1", "1", 5)])
def test_poisson_ball_is_the_full_mixture_when_the_window_covers_every_size(n, gamma, eps0, alpha):
    lo, hi = poisson_window(n, float(Fraction(gamma)), alpha, float(Fraction(eps0)))
    assert (lo, hi) == (0, n)
    with mpmath.workdps(60):
        want = _mixture_oracle(n, gamma, eps0, alpha)
    assert _contains(poisson_thm541_ball(n, gamma, eps0, alpha), want, slack=1e-25)


def test_poisson_ball_with_a_window_is_above_the_full_mixture_and_close():
    """n = 2000, gamma = 0.1: the window leaves sizes out; their Bernstein charge keeps the ball above
    the full sum (every t, mpmath) and within 1e-12 relative of it."""
    n, gamma, eps0, alpha = 2000, "0.1", "1", 3
    lo, hi = poisson_window(n, 0.1, alpha, 1.0)
    assert lo > 0 and hi < n
    with mpmath.workdps(40):
        want = _mixture_oracle(n, gamma, eps0, alpha)
    lo_b, hi_b = ball_ends(poisson_thm541_ball(n, gamma, eps0, alpha))
    w = Fraction(mpmath.nstr(want, 40))
    assert hi_b >= w * (1 - Fraction(1, 10 ** 30)) and lo_b <= w * (1 + Fraction(1, 10 ** 12))


def _exact_sup(n: int, E: int, alpha: int, scheme: str, rate_or_k) -> mpmath.mpf:
    """max over every neighbouring pair of binary datasets (j ones among the others, the differing
    user 0 vs 1) and both directions of the exact Renyi divergence of the subsampled shuffled laws."""
    from bcdp.core.divergences import renyi_divergence

    kernel = kary_rr_kernel(2, exp_eps0=E)
    best = mpmath.mpf(0)
    for j in range(n):
        D = [1] * j + [0] * (n - j)
        Dp = [1] * j + [0] * (n - j - 1) + [1]
        P = subsampled_shuffled_law(kernel, D, scheme, rate_or_k)
        Q = subsampled_shuffled_law(kernel, Dp, scheme, rate_or_k)
        keys = sorted(set(P) | set(Q))
        p = [P.get(h, Fraction(0)) for h in keys]
        q = [Q.get(h, Fraction(0)) for h in keys]
        for a, b in ((p, q), (q, p)):
            best = max(best, renyi_divergence(a, b, Fraction(alpha), dps=50))
    return best


@pytest.mark.parametrize("n,E,alpha,scheme,rate_or_k", [(5, 8, 2, "uniform", 2), (5, 8, 3, "uniform", 5),
                                                         (6, 3, 4, "poisson", Fraction(1, 4)),
                                                         (4, 8, 2, "poisson", Fraction(1, 2))])
def test_certified_bounds_are_above_the_exact_subsampled_rdp(n, E, alpha, scheme, rate_or_k):
    with mpmath.workdps(60):
        eps0 = mpmath.nstr(mpmath.log(E) * (1 + mpmath.mpf(10) ** -45), 50)    # >= log E: the bound increases
        truth = _exact_sup(n, E, alpha, scheme, rate_or_k)
    if scheme == "uniform":
        ball = thm541_ball(n, rate_or_k, eps0, alpha)
    else:
        ball = poisson_thm541_ball(n, str(rate_or_k), eps0, alpha)
    assert Fraction(mpmath.nstr(truth, 50)) <= ball_ends(ball)[1]


def test_window_cap_refuses_a_huge_mixture():
    with pytest.raises(InvalidInputError, match="sample sizes"):
        poisson_thm541_ball(10 ** 12, "0.5", "1", 4)
    assert POISSON_WINDOW_MAX >= 10_000


def test_fixed_size_to_dp_matches_the_independent_curve():
    orders = tuple(range(2, 33))
    res, source = shuffled_dp_epsilon(10 ** 4, "1", "1e-6", 10, "thm541_upper", orders=orders, sample_size=1000)
    want = thm541_dp_epsilon_ref(10 ** 4, 1000, "1", "1e-6", 10, orders)
    assert "Thm 5.4.1" in source
    assert abs(res.upper - want) <= 1e-12 * want


def test_calibrated_eps0_with_a_sample_size_meets_the_target_and_a_step_beyond_does_not():
    orders = tuple(range(2, 33))
    out = calibrate_eps0("1", "1e-6", 10 ** 4, 10, "thm541_upper", orders=orders, rel=1e-3, sample_size=1000)
    e0, beyond = out["eps0"], out["beyond"]["eps0"]
    assert beyond == pytest.approx(e0 * 1.001, rel=1e-12)
    assert thm541_dp_epsilon_ref(10 ** 4, 1000, repr(e0), "1e-6", 10, orders) <= 1.0
    assert thm541_dp_epsilon_ref(10 ** 4, 1000, repr(beyond), "1e-6", 10, orders) > 1.0


def test_calibrated_n_with_a_poisson_rate_meets_the_target_and_fewer_users_do_not():
    """The smallest n at rate 0.1: n meets the target (its certified eps <= 1), floor(n (1 - rel)) does
    not; both checked against the mixture oracle of the first order used (the float answer recomputed
    at n) through shuffled_dp_epsilon's own value at n and the independent bound at the chosen order."""
    orders = tuple(range(2, 17))
    out = calibrate_n("1", "1e-6", "2", 5, "thm541_upper", orders=orders, rel=0.01, poisson_rate="0.1")
    n, below = out["n"], out["beyond"]["n"]
    assert below == max(1, int(n * 0.99)) or below == n - 1
    at_n = shuffled_dp_epsilon(n, "2", "1e-6", 5, "thm541_upper", orders=orders, poisson_rate="0.1")[0]
    assert at_n.upper == out["epsilon"] <= 1.0
    assert out["beyond"]["epsilon"] > 1.0
    # the certified value at n is at least the mixture (mpmath) at its order, summed over the sizes
    # within 12 standard deviations (Bernstein: the rest weighs < 1e-28, far below the 1e-12 slack)
    a = int(at_n.alpha_star)
    with mpmath.workdps(40):
        g, e = mpmath.mpf("0.1"), mpmath.mpf(2)
        sd = mpmath.sqrt(n * g * (1 - g))
        total = mpmath.mpf(0)
        for t in range(max(1, int(n * g - 12 * sd)), min(n, int(n * g + 12 * sd)) + 1):
            w = mpmath.binomial(n, t) * g ** t * (1 - g) ** (n - t)
            total += w * mpmath.expm1((a - 1) * min(thm541_upper(n, t, "2", a, dps=30), e))
        mix = mpmath.log1p(total) / (a - 1)
    assert at_n.details["rdp_at_alpha_star_upper"] >= 5 * float(mix) * (1 - 1e-12)


def test_subsampling_arguments_are_checked():
    with pytest.raises(InvalidInputError, match="not both"):
        shuffled_dp_epsilon(100, "1", "1e-6", 1, "thm541_upper", sample_size=10, poisson_rate="0.1")
    with pytest.raises(InvalidInputError, match="Thm 5.4.1"):
        shuffled_dp_epsilon(100, "1", "1e-6", 1, "thm531_upper", sample_size=10)
    with pytest.raises(InvalidInputError, match="subsampled bound"):
        shuffled_dp_epsilon(100, "1", "1e-6", 1, "thm541_upper")
    with pytest.raises(InvalidInputError, match="integer orders"):
        shuffled_dp_epsilon(100, "1", "1e-6", 1, "thm541_upper", orders=(2, 2.5), sample_size=10)
    with pytest.raises(InvalidInputError):
        shuffled_dp_epsilon(100, "1", "1e-6", 1, "thm541_upper", sample_size=101)
    with pytest.raises(InvalidInputError, match="sample sizes"):
        shuffled_dp_epsilon(10 ** 12, "1", "1e-6", 1, "thm541_upper", poisson_rate="0.5")
    out = calibrate_n("1", "1e-6", "1", 1, "thm541_upper", rel=0.01, sample_size=50)
    assert out["n"] >= 50 and out["epsilon"] <= 1.0 < out["beyond"]["epsilon"]
