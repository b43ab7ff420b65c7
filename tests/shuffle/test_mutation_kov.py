"""Mutation kills for the KOV15 / DRV10 composition baselines of bcdp.shuffle.composition: kov_delta,
kov_optimal_composition, kov_closed_form, advanced_composition (argument names in the messages, the
edges of the profile, the bracket's fields, the feasibility edge delta_target = 1 - (1-delta)^T).

Independent references, written here from the printed statements (mpmath at 60 digits, the floats
read at their exact binary values):

* KOV15 (Kairouz-Oh-Viswanath, ICML 2015, optimal composition theorem): the T-fold composition of
  (eps, delta)-DP has the privacy profile delta_T(e') = 1 - (1-delta)^T (1 - delta_RR(e')) with
  delta_RR(e') = sum_{l=0}^{T} C(T,l) max(0, e^{(T-l) eps} - e^{e'} e^{l eps}) / (1 + e^eps)^T,
  summed over every l (no window); the optimal eps_total for a target is found by bisection on it.
* KOV15's closed-form corollary: min{T eps, T eps (e^eps-1)/(e^eps+1) + eps sqrt(2T log(e +
  sqrt(T eps^2)/dt)), T eps (e^eps-1)/(e^eps+1) + eps sqrt(2T log(1/dt))}, delta 1-(1-delta)^T(1-dt).
* DRV10 Thm III.3 (Dwork-Roth Thm 3.20): eps sqrt(2T log(1/d')) + T eps (e^eps - 1), T delta + d'.
"""

import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.accounting.amplification import advanced_composition
from bcdp.shuffle.composition import kov_closed_form, kov_delta, kov_optimal_composition

DPS = 60
KOV_METHOD = "KOV15 optimal composition"


def mpf(x):
    """x at its exact value (floats are dyadic; an mpf is taken as it is)."""
    if isinstance(x, mpmath.mpf):
        return x
    return mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator


def rr_profile(eps, T, eps_total):
    """delta_RR(e') of the T-fold eps-RR pair, every l summed (KOV15)."""
    with mpmath.workdps(DPS):
        e, et = mpf(eps), mpf(eps_total)
        tot = mpmath.mpf(0)
        c = 1  # C(T, l), exact
        for l in range(T + 1):
            if (T - 2 * l) * e <= et:  # lambda_l <= e': this term and all later ones are max(0, <= 0) = 0
                break
            tot += c * (mpmath.exp((T - l) * e) - mpmath.exp(et + l * e))
            c = c * (T - l) // (l + 1)
        return tot / (1 + mpmath.exp(e)) ** T


def rr_complement(eps, T, eps_total):
    """1 - delta_RR(e') = sum_l C(T,l) min(e^{(T-l) eps}, e^{e'} e^{l eps}) / (1 + e^eps)^T (the
    binomial weights sum to 1): positive terms, so a profile within 1e-60 of 1 stays below 1."""
    with mpmath.workdps(DPS):
        e, et = mpf(eps), mpf(eps_total)
        tot = mpmath.mpf(0)
        c = 1  # C(T, l), exact
        for l in range(T + 1):
            tot += c * min(mpmath.exp((T - l) * e), mpmath.exp(et + l * e))
            c = c * (T - l) // (l + 1)
        return tot / (1 + mpmath.exp(e)) ** T


def kov_profile(eps, delta, T, eps_total):
    """1 - (1-delta)^T (1 - delta_RR), written without cancellation at both ends."""
    with mpmath.workdps(DPS):
        rr = rr_profile(eps, T, eps_total)
        keep = (1 - mpf(delta)) ** T
        if rr > mpmath.mpf("0.5"):  # near 1: from the complement
            return 1 - keep * rr_complement(eps, T, eps_total)
        return -mpmath.expm1(T * mpmath.log1p(-mpf(delta))) + keep * rr  # 1 - keep, then + keep * rr


def kov_optimal(eps, delta, T, target, digits=40):
    """Smallest e' >= 0 with delta_T(e') <= target: bisection on [0, T eps] (the profile decreases) to
    8 digits, then the bracketing Illinois method to ``digits`` digits."""
    with mpmath.workdps(DPS):
        t = mpf(target)
        if kov_profile(eps, delta, T, 0) <= t:
            return mpmath.mpf(0)
        lo, hi = mpmath.mpf(0), T * mpf(eps)
        while hi - lo > hi * mpmath.mpf(10) ** -min(digits, 8):
            mid = (lo + hi) / 2
            if kov_profile(eps, delta, T, mid) <= t:
                hi = mid
            else:
                lo = mid
        if digits <= 8 or kov_profile(eps, delta, T, hi) == t:
            return hi
        return mpmath.findroot(lambda x: kov_profile(eps, delta, T, x) - t, (lo, hi), solver="illinois",
                               tol=mpmath.mpf(10) ** (-2 * digits))


def ulp_close(got, ref, ulps=4):
    return abs(mpf(got) - ref) <= ulps * math.ulp(float(ref)) + mpmath.mpf(10) ** -45


# -- argument names ----------------------------------------------------------------------------------

GOOD = {"eps": 0.5, "delta": 1e-6, "T": 10}


@pytest.mark.parametrize("func, last, last_name", [
    (kov_delta, 1.0, "eps_total"), (kov_optimal_composition, 1e-3, "delta_target"),
    (kov_closed_form, 1e-3, None), (advanced_composition, 1e-3, "delta_prime")])
@pytest.mark.parametrize("bad", ["eps", "delta", "T", "last"])
def test_each_bad_argument_is_named(func, last, last_name, bad):
    if bad == "last" and last_name is None:
        return
    args = dict(GOOD, last=last)
    args[bad] = {"eps": -1.0, "delta": 1.0, "T": 0, "last": -1.0}[bad]
    name = last_name if bad == "last" else bad
    with pytest.raises(InvalidInputError, match=rf"^{name} must"):
        func(args["eps"], args["delta"], args["T"], args["last"])


@pytest.mark.parametrize("dt", [0.0, -0.5, 1.5, 2.0, 3.0])
def test_kov_closed_form_delta_tilde_in_half_open_unit_interval(dt):
    with pytest.raises(InvalidInputError, match="^delta_tilde must be in"):
        kov_closed_form(0.5, 0.0, 10, dt)


# -- kov_closed_form, advanced_composition ------------------------------------------------------------

def closed_form_oracle(eps, delta, T, dt):
    with mpmath.workdps(DPS):
        e, d = mpf(eps), mpf(dt)
        base = T * e * (mpmath.exp(e) - 1) / (mpmath.exp(e) + 1)
        b = base + e * mpmath.sqrt(2 * T * mpmath.log(mpmath.e + mpmath.sqrt(T * e * e) / d))
        c = base + e * mpmath.sqrt(2 * T * mpmath.log(1 / d))
        return min(T * e, b, c), 1 - (1 - mpf(delta)) ** T * (1 - d)


@pytest.mark.parametrize("eps, delta, T, dt", [
    (0.5, 0.0, 1, 0.5),       # T eps = 0.5 is the minimum (the others exceed 0.8)
    (0.1, 1e-6, 1000, 1e-6),  # the third term is the minimum
    (1.0, 1e-3, 3, 1.0),      # delta_tilde = 1 is allowed: c = base
    (0.3, 0.2, 7, 0.25),
])
def test_kov_closed_form_against_the_printed_formula(eps, delta, T, dt):
    e_tot, d_tot = kov_closed_form(eps, delta, T, dt)
    e_ref, d_ref = closed_form_oracle(eps, delta, T, dt)
    assert e_ref <= e_tot and ulp_close(e_tot, e_ref)
    assert d_ref <= d_tot and ulp_close(d_tot, d_ref)


def test_kov_closed_form_total_delta_is_at_most_one():
    # 1 - (1-delta)^T (1-dt) = 1 - 1e-300: its ball reaches above 1; a probability is reported <= 1
    e_tot, d_tot = kov_closed_form(1.0, 0.999, 100, 0.5)
    assert d_tot == 1.0


@pytest.mark.parametrize("eps, delta, T, dp", [(0.5, 0.0, 1, 0.5), (0.1, 1e-6, 1000, 1e-6), (2.0, 0.01, 3, 0.9)])
def test_advanced_composition_against_drv10(eps, delta, T, dp):
    e_tot, d_tot = advanced_composition(eps, delta, T, dp)
    with mpmath.workdps(DPS):
        e = mpf(eps)
        e_ref = mpmath.sqrt(2 * T * mpmath.log(1 / mpf(dp))) * e + T * e * (mpmath.exp(e) - 1)
        d_ref = T * mpf(delta) + mpf(dp)
    assert e_ref <= e_tot and ulp_close(e_tot, e_ref)
    assert d_ref <= d_tot and ulp_close(d_tot, d_ref)


# -- kov_delta ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("eps, delta, T, eps_total", [
    (0.5, 1e-6, 10, 0.0), (0.5, 1e-6, 10, 1.7), (0.5, 1e-6, 10, 3.0),   # 3.0 = (T - 2*2) eps: a loss
    (0.5, 0.0, 10, 4.999), (0.5, 0.0, 10, 5.0), (0.5, 0.0, 10, 7.0),    # just below / at / beyond T eps
    (0.25, 1e-3, 3, 0.5), (0.1, 0.0, 200, 1.0), (2.0, 0.0, 1, 0.0), (0.0, 0.1, 4, 0.0),
    (2.0, 0.0, 3, 2.0),                                                 # T / eps <= eps_total < T eps
    # T = 1000: the summed range of flips starts at l0 > 0 (eps = 0.5), or ends at l1 < T/2 with the
    # factors 1 - e^{eps' - lambda_l} still positive there, so its right tail is bounded (eps = 3)
    (0.5, 0.0, 1000, 10.0), (3.0, 0.0, 1000, 0.0), (3.0, 1e-3, 1000, 100.0),
])
def test_kov_delta_encloses_the_profile_tightly(eps, delta, T, eps_total):
    d = kov_delta(eps, delta, T, eps_total)
    ref = kov_profile(eps, delta, T, eps_total)
    assert d.lower <= ref <= d.upper
    assert ulp_close(d.upper, ref) and ulp_close(d.lower, ref)


def test_kov_delta_at_and_beyond_T_eps_is_one_minus_the_product():
    # eps_total >= T eps: delta_RR = 0, delta_T = 1 - (1 - delta)^T (computed exactly here)
    for et in (5.0, 6.0):
        d = kov_delta(0.5, 0.25, 10, et)
        exact = 1 - (1 - Fraction(0.25)) ** 10
        assert Fraction(d.lower) <= exact <= Fraction(d.upper)
        assert d.upper - d.lower <= 4 * math.ulp(float(exact))


@pytest.mark.parametrize("eps_total", [500.0, 600.0])
def test_kov_delta_is_exactly_zero_from_T_eps_on(eps_total):
    # delta = 0, eps_total >= T eps = 500 (exact floats): delta_T = delta_RR = 0 exactly, enclosed by
    # [0, the smallest positive float] (one ulp outward); T = 1000 puts the summed range's left end
    # above l = 0, so a binomial tail bound would widen the enclosure to about 1e-74
    d = kov_delta(0.5, 0.0, 1000, eps_total)
    assert d.lower == 0.0 and d.upper == math.ulp(0.0)


def test_kov_delta_with_a_right_tail_far_below_the_sign_change():
    # T = 1e5, eps = 3: the summed range of flips ends near l = 6100, far below T/2 where the
    # factors 1 - e^{-lambda_l} change sign, so the right tail must be bounded (it cannot be reached by
    # widening the range).  delta_RR(0) = 1 - sum_l C(T,l) min(e^{(T-l) eps}, e^{l eps})/(1+e^eps)^T, and
    # each min is at most the geometric mean e^{T eps/2}: 1 - delta_RR(0) <= (2 e^{1.5}/(1+e^3))^T < 0.43^T
    d = kov_delta(3.0, 0.0, 10 ** 5, 0.0)
    assert d.upper == 1.0 and 1.0 - 2 * math.ulp(0.5) <= d.lower < 1.0


def test_kov_delta_at_a_large_T_and_a_small_eps():
    # T = 3e4, eps = 1e-3: Bin(T, q) with q = 1/(1+e^eps) just below 1/2; the summed range of flips must
    # reach T/2, where 1 - e^{-lambda_l} changes sign.  Oracle: delta_RR(0) = sum_{l < T/2} P_l (1 - e^{-(T-2l) eps}),
    # P_l = C(T,l) q^l (1-q)^{T-l} by the recurrence P_{l+1} = P_l (T-l)/(l+1) q/(1-q), at 50 digits
    T, eps = 30000, 1e-3
    with mpmath.workdps(50):
        e = mpf(eps)
        q = 1 / (1 + mpmath.exp(e))
        P, ratio, tot = (1 - q) ** T, q / (1 - q), mpmath.mpf(0)
        for l in range(T // 2):
            tot += P * -mpmath.expm1(-(T - 2 * l) * e)
            P = P * (T - l) / (l + 1) * ratio
    d = kov_delta(eps, 0.0, T, 0.0)
    assert d.lower <= tot <= d.upper and ulp_close(d.upper, tot) and ulp_close(d.lower, tot)


def test_kov_delta_is_at_most_one():
    # 1 - (1-delta)^T (1 - delta_RR) = 1 - 1e-300: the ball reaches above 1, the enclosure stops at 1
    d = kov_delta(1.0, 0.999, 100, 0.0)
    assert d.upper == 1.0 and d.lower <= kov_profile(1.0, 0.999, 100, 0.0)


# -- kov_optimal_composition --------------------------------------------------------------------------

@pytest.mark.parametrize("eps, delta, T, target, width", [
    (0.1, 1e-6, 50, 1e-3, 1e-12), (0.5, 0.0, 10, 1e-2, 1e-12), (1.0, 1e-4, 20, 0.05, 1e-12),
    (0.01, 0.0, 30, 0.01, 1e-12),
    (0.5, 0.0, 1, 0.2, 1e-12),                # the first lower end is not certified: the step grows
    (0.5, 0.0, 3, 0.36003225174831, 1e-5),    # delta_T(0) = 0.3600322521...: a root near 1e-9 where
                                              # the profile is flat at float resolution (many steps)
    (0.5, 0.0, 1000, 1e-3, 1e-12),            # T = 1000: the summed range starts at l0 > 0
])
def test_kov_optimal_composition_brackets_the_optimum(eps, delta, T, target, width):
    b = kov_optimal_composition(eps, delta, T, target)
    ref = kov_optimal(eps, delta, T, target)
    assert 0 < b.lower < ref <= b.upper
    assert b.upper - b.lower <= width * ref
    d = b.details
    assert d["delta"] == target and d["note"] == ""
    # the certified ends: delta_T(upper) <= delta_at_upper <= target < delta_at_lower <= delta_T(lower)
    assert kov_profile(eps, delta, T, b.upper) <= d["delta_at_upper"] <= target
    assert target < d["delta_at_lower"] <= kov_profile(eps, delta, T, b.lower)
    assert d["method"].startswith(KOV_METHOD) and b.provenance == d["method"]
    # the root recorded to 30 significant digits
    with mpmath.workdps(DPS):
        assert d["mp_root"] == mpmath.nstr(ref, 30)


@pytest.mark.parametrize("target", [0.5, 0.6])
def test_kov_optimal_composition_zero_when_eps_zero_meets_the_target(target):
    # delta_T(0) = 0.0935... <= target: the bracket is [0, 0].  (0.6 exceeds P[lambda > 0] = 0.5468,
    # the mass of the flips l < T/2; 0.5 does not)
    b = kov_optimal_composition(0.1, 0.0, 5, target)
    ref0 = kov_profile(0.1, 0.0, 5, 0)
    assert b.lower == 0.0 and b.upper == 0.0
    d = b.details
    assert d["delta"] == target and d["note"] == "" and d["method"].startswith(KOV_METHOD)
    # delta_at_upper is a certified upper end of delta_T(0)
    assert ref0 <= d["delta_at_upper"] <= target and ulp_close(d["delta_at_upper"], ref0)
    assert ulp_close(d["delta_at_lower"], ref0)


def test_kov_optimal_composition_zero_at_a_tie_with_the_target():
    # target = a certified upper end of delta_T(0) (a float >= the truth): eps_total = 0 meets it
    t = kov_delta(0.1, 0.0, 5, 0.0).upper
    assert kov_profile(0.1, 0.0, 5, 0) <= t
    b = kov_optimal_composition(0.1, 0.0, 5, t)
    assert b.lower == 0.0 and b.upper == 0.0 and b.details["delta_at_upper"] <= t


def test_kov_optimal_composition_infeasible_target():
    # 1 - (1 - 0.5)^2 = 0.75 > 0.7: no eps_total reaches 0.7
    b = kov_optimal_composition(0.3, 0.5, 2, 0.7)
    assert b.lower == math.inf and b.upper == math.inf
    d = b.details
    assert d["delta"] == 0.7 and d["delta_at_upper"] == math.inf and d["delta_at_lower"] == math.inf
    assert d["method"].startswith(KOV_METHOD) and d["note"].startswith("infeasible")


def test_clones_kov_composition_returns_the_kov_bracket_of_its_split():
    # documented: "Returns the KOV bracket of the best split" (FMT21 per round, KOV15 across rounds)
    from bcdp.shuffle.composition import clones_kov_composition
    b = clones_kov_composition(1.0, 1000, 10, 1e-6, split_grid=(0.5,))
    d = b.details
    k = kov_optimal_composition(d["per_round_eps"], 0.5 * 1e-6 / 10, 10, 1e-6)
    assert (b.lower, b.upper) == (k.lower, k.upper) and 0 < b.lower < b.upper
    assert d["delta"] == 1e-6
    assert d["delta_at_upper"] == k.details["delta_at_upper"] <= 1e-6 < d["delta_at_lower"] == k.details["delta_at_lower"]


@pytest.mark.parametrize("eps, T", [(0.5, 1000), (1.0, 3000), (0.25, 2000),
                                    (0.5, 469), (1.0, 769)])  # the last two: l0 = 1, the tail is l = 0 alone
def test_rr_ball_encloses_a_profile_made_only_of_its_left_tail(eps, T):
    """eps' = lambda_{l0} = (T - 2 l0) eps, l0 the first flip count of the summed range: every summed
    term vanishes (1 - e^{eps' - lambda_l} <= 0 for l >= l0), so the whole value is the left tail
    l < l0 (about 1e-70 here), which the ball must still enclose through its geometric tail bound.
    The oracle sums the printed formula over l <= l0 at 80 digits (the terms with l > l0 are
    max(0, negative) = 0)."""
    from bcdp.core.intervals import arb_precision
    from bcdp.accounting.certified_floats import IV_PREC, exact_ends
    from bcdp.shuffle.composition import _kov_range, _kov_rr_delta_ball

    l0 = _kov_range(eps, T, 1e-40)[0]
    assert l0 > 0
    et = (T - 2 * l0) * eps
    with mpmath.workdps(80):
        e = mpf(eps)
        truth = mpmath.fsum(mpmath.binomial(T, l) * max(0, mpmath.exp((T - l) * e) - mpmath.exp(mpf(et) + l * e))
                            for l in range(l0 + 1)) / (1 + mpmath.exp(e)) ** T
        assert truth > 0
    with arb_precision(IV_PREC):
        lo, hi = exact_ends(_kov_rr_delta_ball(eps, T, et, 1e-40))
    with mpmath.workdps(80):
        assert mpf(lo) <= truth <= mpf(hi)


def test_kov_optimal_composition_target_within_an_ulp_below_delta_at_zero():
    """target = the float just below delta_T(0) (the 60-digit oracle rounded down): the optimum eps* is
    positive but tiny (about (delta_T(0) - target)/|delta_T'(0)|), no float enclosure can certify a
    positive lower end above the target, so the bracket is (0, upper] with the trivial lower end 0;
    the upper end starts uncertified too and its step must grow until delta_T(upper) <= target is proved."""
    eps, T = 0.1, 5
    ref0 = kov_profile(eps, 0.0, T, 0)
    target = float(ref0)
    if target >= ref0:
        target = math.nextafter(target, 0.0)
    assert target < ref0 <= math.nextafter(target, 1.0)
    b = kov_optimal_composition(eps, 0.0, T, target)
    star = kov_optimal(eps, 0.0, T, target)
    assert b.lower == 0.0 < star <= b.upper <= 1e-12
    d = b.details
    assert kov_profile(eps, 0.0, T, b.upper) <= d["delta_at_upper"] <= target
    assert d["delta_at_lower"] <= ref0


@pytest.mark.parametrize("target", [1e-59])
def test_kov_optimal_composition_below_the_resolution_of_the_enclosure(target):
    """T = 1000, eps = 0.5, target ~ 1e-59: kov_delta's 160-bit enclosure of 1 - (1 - delta_RR) has an
    absolute width near 1e-48, so delta_T(upper) <= target is provable only where delta_RR = 0 exactly,
    eps_total >= T eps = 500, and the first upper end tried (near eps* ~ 354) is not certified: its step
    must grow.  The bracket is wide but must contain eps* and carry certified ends."""
    b = kov_optimal_composition(0.5, 0.0, 1000, target)
    star = kov_optimal(0.5, 0.0, 1000, target, digits=8)
    assert 0 < b.lower < star < 500 <= b.upper < 1000
    d = b.details
    assert kov_profile(0.5, 0.0, 1000, b.upper) <= d["delta_at_upper"] <= target
    assert target < d["delta_at_lower"] <= kov_profile(0.5, 0.0, 1000, b.lower)
