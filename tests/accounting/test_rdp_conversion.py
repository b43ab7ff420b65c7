"""RDP / zCDP -> (eps, delta) conversions (bcdp.accounting.conversion).

Every expected value is computed here independently with mpmath (50 digits): the delta-forms of
the three conversion theorems, closed-form optima, the analytic Gaussian curve of Balle & Wang
(2018, Thm. 8), the exact privacy profile of T-fold randomized response (a binomial sum), and the
hockey-stick divergence of binary pairs.  The cross-check with Google's dp_accounting (a
test-only dependency declared in pyproject's [test] extra) compares per-order RDP, the optimal
order and the converted epsilon with its accountant.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.accounting import conversion as rc
from bcdp.accounting.conversion import (
    certify_at,
    epsilon_at,
    gaussian_rdp,
    randomized_response_rdp,
    rdp_curve_from_arrays,
    rdp_curve_from_callable,
    rdp_to_dp,
    zcdp_rdp,
    zcdp_to_dp,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_lower, ball_upper
from bcdp.core.results import Certified
from hypothesis import given, settings
from hypothesis import strategies as st
from minimisers import golden_section_min

DPS = 50


def M(x) -> mp.mpf:
    """Exact mpf of a float / decimal string."""
    return mp.mpf(x) if not isinstance(x, str) else mp.mpf(x)


def Q(q: Fraction) -> mp.mpf:
    """A Fraction (e.g. a ball endpoint) as an mpf at the current mpmath precision."""
    return mp.mpf(q.numerator) / q.denominator


# ---------------------------------------------------------------------------------------------
# independent 50-digit references
# ---------------------------------------------------------------------------------------------

def delta_mironov(a, r, eps):
    """Mironov 2017 Prop. 3 as a delta: exp((a-1)(r - eps))."""
    return mp.exp((a - 1) * (r - eps))


def delta_cks(a, r, eps):
    """CKS 2020 Prop. 12 as printed: exp((a-1)(r-eps))/(a-1) * (1-1/a)^a."""
    return mp.exp((a - 1) * (r - eps)) / (a - 1) * (1 - 1 / a) ** a


def delta_asoodeh(a, r, eps):
    """The Asoodeh et al. form (OpenDP's rdp_epsilon1_on) as a delta: (e^{(a-1) r} - 1) / (a (e^{(a-1) eps} - 1))."""
    return mp.expm1((a - 1) * r) / (a * mp.expm1((a - 1) * eps))


DELTA_FORMS = {"mironov": delta_mironov, "cks": delta_cks, "asoodeh": delta_asoodeh}


def eps_ref(method, a, r, d):
    """Unclamped eps of a conversion at one order, by inverting its delta-form (bisection, 50 digits)."""
    with mp.workdps(DPS):
        a, r, d = M(a), M(r), M(d)
        f = DELTA_FORMS[method]
        lo, hi = r + mp.mpf("1e-30"), r + 1
        while f(a, r, hi) > d:
            hi = r + 2 * (hi - r)
        if method != "asoodeh":
            lo = r - 1
            while f(a, r, lo) < d:
                lo = r - 2 * (r - lo)
        for _ in range(240):
            mid = (lo + hi) / 2
            if f(a, r, mid) > d:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2


def objective_ref(method, a, r, d):
    """The closed forms (typed independently of the module) at 50 digits."""
    L = mp.log(1 / d)
    if method == "mironov":
        return r + L / (a - 1)
    if method == "cks":
        return r + (L + (a - 1) * mp.log(1 - 1 / a) - mp.log(a)) / (a - 1)
    return mp.log(1 + mp.expm1((a - 1) * r) / (a * d)) / (a - 1)


def exact_optimum(method, rdp_mp, d, alpha_max=mp.mpf(10) ** 6):
    """inf over real alpha of the conversion (50 digits): coarse grid in t = log(alpha - 1), then
    golden section in the bracket of the best grid point."""
    with mp.workdps(DPS):
        d = M(d)
        hi_t = mp.log(min(alpha_max, 1 / d if method == "asoodeh" else alpha_max) - 1)
        ts = [mp.mpf(-9) + (hi_t + 9) * k / 400 for k in range(401)]
        g = lambda t: objective_ref(method, 1 + mp.exp(t), rdp_mp(1 + mp.exp(t)), d)  # noqa: E731
        vals = [g(t) for t in ts]
        i = min(range(len(vals)), key=lambda k: vals[k])
        t, v = golden_section_min(g, ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)], 160)
        return v, 1 + mp.exp(t)


def gaussian_delta(eps, mu):
    """Balle & Wang (2018), Thm. 8: delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = Delta/sigma."""
    return mp.ncdf(mu / 2 - eps / mu) - mp.exp(eps) * mp.ncdf(-mu / 2 - eps / mu)


def gaussian_exact_eps(mu, d):
    """Smallest eps with delta(eps) <= d (bisection at 50 digits); 0 if delta(0) <= d."""
    with mp.workdps(DPS):
        mu, d = M(mu), M(d)
        if gaussian_delta(0, mu) <= d:
            return mp.mpf(0)
        lo, hi = mp.mpf(0), mp.mpf(1)
        while gaussian_delta(hi, mu) > d:
            hi *= 2
        for _ in range(220):
            mid = (lo + hi) / 2
            if gaussian_delta(mid, mu) > d:
                lo = mid
            else:
                hi = mid
        return hi


def rr_composed_delta(eps, p, T):
    """Exact hockey-stick E_{e^eps}(P^T || Q^T), P = Bern(1-p), Q = Bern(p): with K ~ Bin(T, 1-p)
    the number of 'agreeing' outcomes, the privacy loss is (2K - T) log((1-p)/p)."""
    p = M(p)
    l0 = mp.log((1 - p) / p)
    tot = mp.mpf(0)
    for k in range(T + 1):
        pk = mp.binomial(T, k) * (1 - p) ** k * p ** (T - k)
        loss = (2 * k - T) * l0
        if loss > eps:
            tot += pk * (1 - mp.exp(eps - loss))
    return tot


def rr_composed_exact_eps(p, T, d):
    with mp.workdps(DPS):
        d = M(d)
        if rr_composed_delta(mp.mpf(0), p, T) <= d:
            return mp.mpf(0)
        lo, hi = mp.mpf(0), T * mp.log((1 - M(p)) / M(p)) + 1
        for _ in range(200):
            mid = (lo + hi) / 2
            if rr_composed_delta(mid, p, T) > d:
                lo = mid
            else:
                hi = mid
        return hi


def rr_rdp_ref(p, a):
    """D_alpha(Bern(1-p) || Bern(p)) from its definition (caller sets the precision)."""
    p = M(p)
    return mp.log(p ** a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1)


# ---------------------------------------------------------------------------------------------
# the conversions at one order
# ---------------------------------------------------------------------------------------------

POINTS = [(1.5, 0.3, 1e-5), (2.0, 1.0, 1e-3), (7.25, 2.5, 1e-8), (33.0, 0.05, 1e-10), (1.01, 0.001, 0.2),
          (500.0, 0.02, 1e-6), (3.0, 12.0, 1e-6)]


@pytest.mark.parametrize("method", rc.METHODS)
@pytest.mark.parametrize("a,r,d", POINTS)
def test_single_order_matches_inverted_delta_form(method, a, r, d):
    ref = eps_ref(method, a, r, d)
    with mp.workdps(DPS):
        # the closed form typed in this file agrees with the inverted delta-form of the theorem
        assert abs(objective_ref(method, M(a), M(r), M(d)) - ref) < mp.mpf(10) ** -35 * (1 + abs(ref))
    ref0 = max(ref, 0)
    got = epsilon_at(a, r, d, method)
    assert abs(got - float(ref0)) <= 1e-12 * (1 + float(ref0))
    curve = rdp_curve_from_arrays([a], [r], certified_values=[Fraction(r)])
    cert = certify_at(curve, a, d, method)
    assert isinstance(cert, Certified) and cert.rdp_certified
    with mp.workdps(DPS):
        assert M(cert.epsilon_certified_upper) >= ref0       # guaranteed upper bound
        lo, hi = mp.mpf(cert.enclosure[0]), mp.mpf(cert.enclosure[1])
        assert lo <= ref <= hi
    assert cert.epsilon_certified_upper - float(ref0) <= 1e-12 * (1 + float(ref0))


def test_certified_value_is_rounded_up_and_covers_decimal_delta():
    # float(0.1) > 1/10: the certified eps must hold for both (it is decreasing in delta)
    curve = gaussian_rdp(1.0)
    cert = certify_at(curve, 3.0, 0.1, "cks")
    with mp.workdps(DPS):
        for dd in (mp.mpf(1) / 10, mp.mpf(0.1)):
            ref = objective_ref("cks", mp.mpf(3), mp.mpf(3) / 2, dd)
            assert M(cert.epsilon_certified_upper) >= ref
    # Fraction and string deltas are accepted and enclosed exactly
    a = certify_at(curve, 3.0, Fraction(1, 10), "cks").epsilon_certified_upper
    b = certify_at(curve, 3.0, "0.1", "cks").epsilon_certified_upper
    assert abs(a - b) <= 2e-15 * a


def test_cks_le_asoodeh_and_mironov_pointwise_orderings():
    # CKS <= Mironov at every order (the extra term (a-1)log(1-1/a) - log a is < 0);
    # Asoodeh <= Mironov whenever a delta < 1 (1 + (e^x - 1)/(a d) <= e^x / d).
    for a, r, d in POINTS:
        assert epsilon_at(a, r, d, "cks") <= epsilon_at(a, r, d, "mironov")
        if a * d < 1:
            assert epsilon_at(a, r, d, "asoodeh") <= epsilon_at(a, r, d, "mironov")


# ---------------------------------------------------------------------------------------------
# soundness at one order: binary pairs are the worst case
# ---------------------------------------------------------------------------------------------
# At a fixed order the conversions are monotone in r, and any (P, Q) with E_{e^eps}(P||Q) > delta
# has a set A with P(A) - e^eps Q(A) > delta; post-processing to 1_A keeps D_alpha <= r.  So a
# conversion is sound at alpha iff it is sound for every pair (Bern(a), Bern(b)).

@settings(max_examples=150, deadline=None)
@given(a=st.floats(0.0, 1.0), b=st.floats(1e-12, 1.0), log_alpha_m1=st.floats(-3, 4),
       log_delta=st.floats(-14, -0.01), method=st.sampled_from(rc.METHODS))
def test_sound_on_binary_pairs(a, b, log_alpha_m1, log_delta, method):
    alpha = 1 + 10 ** log_alpha_m1
    delta = 10 ** log_delta
    if method == "asoodeh" and alpha * delta >= 1:
        return
    if b >= 1:
        return
    with mp.workdps(40):
        A, B, al = M(a), M(b), M(alpha)
        r = mp.log(A ** al * B ** (1 - al) + (1 - A) ** al * (1 - B) ** (1 - al)) / (al - 1)
        r = max(r, mp.mpf(0))
        if not mp.isfinite(r) or r > 1e6:
            return
    curve = rdp_curve_from_arrays([alpha], [float(r)], certified_values=[mp.iv.mpf([r * (1 - mp.mpf(2) ** -60),
                                                                                    r * (1 + mp.mpf(2) ** -60)])])
    eps = certify_at(curve, alpha, delta, method).epsilon_certified_upper
    with mp.workdps(40):
        e = mp.exp(M(eps))
        hockey = max(0, A - e * B) + max(0, (1 - A) - e * (1 - B))
        assert hockey <= M(delta) * (1 + mp.mpf(10) ** -25)


# ---------------------------------------------------------------------------------------------
# optimisation over alpha: certified >= exact optimum, small gap
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sigma,d", [(1.0, 1e-5), (0.5, 1e-6), (4.0, 1e-3), (20.0, 1e-10)])
def test_gaussian_mironov_equals_bun_steinke_closed_form(sigma, d):
    # Mironov on alpha/(2 sigma^2) minimised over real alpha is rho + 2 sqrt(rho log(1/delta)).
    with mp.workdps(DPS):
        rho = 1 / (2 * M(sigma) ** 2)
        exact = rho + 2 * mp.sqrt(rho * mp.log(1 / M(d)))
    res = rdp_to_dp(gaussian_rdp(sigma), d, "mironov")
    bs = zcdp_to_dp(1 / (2 * sigma ** 2), d, "bun-steinke")
    for r in (res, bs):
        assert M(r.epsilon_certified_upper) >= exact
        assert (M(r.epsilon_certified_upper) - exact) / exact < 1e-10


@pytest.mark.parametrize("method", rc.METHODS)
@pytest.mark.parametrize("curve_name", ["gauss1", "gauss_small", "rr_T100", "zcdp_tiny"])
def test_optimum_certified_above_exact_and_close(method, curve_name):
    d = 1e-6
    if curve_name == "gauss1":
        curve, ref = gaussian_rdp(1.0), (lambda a: a / 2)
    elif curve_name == "gauss_small":
        curve, ref = gaussian_rdp(0.05), (lambda a: a * 200)
    elif curve_name == "rr_T100":
        curve, ref = randomized_response_rdp(0.3).compose(100), (lambda a: 100 * rr_rdp_ref(0.3, a))
    else:
        curve, ref = zcdp_rdp(1e-4), (lambda a: a * mp.mpf(1e-4))
    res = rdp_to_dp(curve, d, method)
    exact, a_exact = exact_optimum(method, ref, d)
    exact = max(exact, 0)
    assert M(res.epsilon_certified_upper) >= exact
    assert (M(res.epsilon_certified_upper) - exact) / exact < 1e-10, (res, exact, a_exact)
    assert not res.alpha_at_search_boundary


@pytest.mark.parametrize("method", rc.METHODS)
def test_integer_orders_minimum(method):
    curve = randomized_response_rdp(0.2).compose(30)
    d = 1e-5
    res = rdp_to_dp(curve, d, method, orders="integer", alpha_max=200)
    assert res.alpha_star == int(res.alpha_star)
    with mp.workdps(DPS):
        vals = [(max(objective_ref(method, mp.mpf(k), 30 * rr_rdp_ref(0.2, mp.mpf(k)), M(d)), 0), k)
                for k in range(2, 201) if method != "asoodeh" or k * d < 1]
        best, k_best = min(vals)
    assert res.alpha_star == k_best
    assert M(res.epsilon_certified_upper) >= best
    assert (M(res.epsilon_certified_upper) - best) / best < 1e-13


# ---------------------------------------------------------------------------------------------
# soundness against exact privacy profiles
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mu", [0.05, 0.3, 1.0, 2.0, 5.0])
@pytest.mark.parametrize("d", [1e-2, 1e-6, 1e-10])
def test_sound_against_analytic_gaussian(mu, d):
    exact = gaussian_exact_eps(mu, d)
    curve = gaussian_rdp(1.0, mu)          # sigma = 1, Delta = mu
    got = {m: rdp_to_dp(curve, d, m).epsilon_certified_upper for m in rc.METHODS}
    for m, v in got.items():
        assert M(v) >= exact, (m, v, exact)
    assert got["cks"] <= got["mironov"] and got["asoodeh"] <= got["mironov"]


def test_sound_against_exact_composed_randomized_response():
    for p, T, d in [(0.25, 1, 1e-3), (0.25, 10, 1e-5), (0.4, 200, 1e-6), (0.1, 50, 1e-8)]:
        exact = rr_composed_exact_eps(p, T, d)
        curve = randomized_response_rdp(p).compose(T)
        for m in rc.METHODS:
            v = rdp_to_dp(curve, d, m).epsilon_certified_upper
            assert M(v) >= exact, (p, T, d, m, v, exact)


def test_zcdp_cks_sound_against_gaussian_and_tighter_than_bun_steinke():
    # rho-zCDP is exactly the Gaussian with Delta/sigma = sqrt(2 rho)
    for rho in (0.01, 0.5, 2.63):
        for d in (1e-3, 1e-6, 1e-10):
            exact = gaussian_exact_eps(mp.sqrt(2 * M(rho)), d)
            cks = zcdp_to_dp(rho, d, "cks").epsilon_certified_upper
            bs = zcdp_to_dp(rho, d, "bun-steinke").epsilon_certified_upper
            assert exact <= M(cks) <= M(bs)


# ---------------------------------------------------------------------------------------------
# Census (partial DP paper, arXiv:2209.04053, Sec. 7): rho = 2.63 -> (13.8, 1e-6), rho = 1.02 -> (7.85, 1e-6)
# ---------------------------------------------------------------------------------------------

def test_census_2020_figures_are_the_cks_conversion():
    for rho, printed, lo, hi in ((2.63, "13.8", 13.75, 13.85), (1.02, "7.85", 7.85, 7.86)):
        cks = zcdp_to_dp(rho, 1e-6, "cks")
        exact, _ = exact_optimum("cks", lambda a: M(rho) * a, 1e-6)
        assert M(cks.epsilon_certified_upper) >= exact
        assert (M(cks.epsilon_certified_upper) - exact) / exact < 1e-12
        assert lo <= cks.epsilon_certified_upper < hi, (rho, printed, cks)
        # the other conversions do not give the printed figures
        assert zcdp_to_dp(rho, 1e-6, "bun-steinke").epsilon_certified_upper > hi + 0.3
        assert zcdp_to_dp(rho, 1e-6, "asoodeh").epsilon_certified_upper > hi + 0.2
    assert f"{zcdp_to_dp(2.63, 1e-6).epsilon_certified_upper:.1f}" == "13.8"
    assert math.floor(zcdp_to_dp(1.02, 1e-6).epsilon_certified_upper * 100) / 100 == 7.85
    # BS16 gives 14.69 and 8.53 (partial_dp.md Sec. 9.1), the exact Gaussian profile 12.99 and 7.37
    assert round(zcdp_to_dp(2.63, 1e-6, "bun-steinke").epsilon_certified_upper, 2) == 14.69
    assert round(zcdp_to_dp(1.02, 1e-6, "bun-steinke").epsilon_certified_upper, 2) == 8.53
    assert round(float(gaussian_exact_eps(mp.sqrt(2 * M(2.63)), 1e-6)), 2) == 12.99


# ---------------------------------------------------------------------------------------------
# curves, composition, interfaces
# ---------------------------------------------------------------------------------------------

def test_curves_match_closed_forms():
    g = gaussian_rdp(1.5, 2.0)
    rr = randomized_response_rdp(0.2)
    for a in (1.001, 1.5, 2.0, 10.0, 1000.0):
        assert abs(g(a) - a * 4 / (2 * 2.25)) <= 1e-15 * g(a)
        with mp.workdps(DPS):
            ref = rr_rdp_ref(0.2, M(a))
        assert abs(rr(a) - float(ref)) <= 1e-12 * float(ref)
        with mp.workdps(DPS), arb_precision(200):
            enc = rr.enclosure(a)                  # an arb ball; exact endpoints as Fractions
            tol = mp.mpf(10) ** -45 * ref          # the reference itself has 50 digits
            assert Q(ball_lower(enc)) - tol <= ref <= Q(ball_upper(enc)) + tol
    # RR: exact pure-DP limit log 4 for alpha -> infinity; the Steinke/dp_accounting tight eps-DP -> RDP
    # form with eps = log 4 equals it at every order
    with mp.workdps(DPS):
        eps0 = mp.log(4)
        for a in (2, 5, 50):
            a = mp.mpf(a)
            steinke = (a * eps0 + mp.log(1 + mp.exp(eps0 * (1 - 2 * a))) - mp.log(1 + mp.exp(eps0))) / (a - 1)
            assert abs(steinke - rr_rdp_ref(mp.mpf(1) / 5, a)) < mp.mpf(10) ** -40
            assert abs(rr(float(a)) - float(steinke)) <= 1e-13 * float(steinke)
    assert rr(1e5) <= math.log(4)


def test_composition_is_exact_integer_multiple():
    rr = randomized_response_rdp(0.3)
    c = rr.compose(7)
    assert c(3.0) == 7 * rr(3.0)
    with arb_precision(200):
        e1, e7 = rr.enclosure(3.0), c.enclosure(3.0)
    assert ball_lower(e7) <= 7 * ball_upper(e1) and 7 * ball_lower(e1) <= ball_upper(e7)
    both = rc.compose(gaussian_rdp(2.0), rr, rr)
    assert abs(both(4.0) - (gaussian_rdp(2.0)(4.0) + 2 * rr(4.0))) < 1e-14


def test_user_callable_assumption_is_reported():
    plain = rdp_curve_from_callable(lambda a: a / 2)
    res = rdp_to_dp(plain, 1e-5)
    assert not res.rdp_certified and "treated as exact" in res.assumption
    cert = rdp_curve_from_callable(lambda a: a / 2, certified=lambda a: mp.iv.mpf(a) / 2)
    res2 = rdp_to_dp(cert, 1e-5)
    assert res2.rdp_certified and res2.assumption == ""
    assert abs(res.epsilon_certified_upper - res2.epsilon_certified_upper) <= 1e-14 * res2.epsilon_certified_upper
    assert res2.epsilon_certified_upper == rdp_to_dp(gaussian_rdp(1.0), 1e-5).epsilon_certified_upper


def test_array_curve_only_uses_its_orders():
    orders = [1.5, 2.0, 3.0, 8.0, 64.0]
    curve = rdp_curve_from_arrays(orders, [a / 2 for a in orders])
    res = rdp_to_dp(curve, 1e-5, "cks")
    assert res.alpha_star in orders
    with pytest.raises(InvalidInputError):
        curve(5.0)


def test_asoodeh_range_alpha_delta_below_one():
    res = rdp_to_dp(zcdp_rdp(1e-6), 0.3, "asoodeh")
    assert res.alpha_star * 0.3 < 1
    with pytest.raises(InvalidInputError):
        certify_at(gaussian_rdp(1.0), 4.0, 0.3, "asoodeh")
    assert epsilon_at(4.0, 1.0, 0.3, "asoodeh") == math.inf


# ---------------------------------------------------------------------------------------------
# bad inputs
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("alpha", [1.0, 0.5, -2.0, math.nan, math.inf, True])
def test_bad_alpha(alpha):
    with pytest.raises(InvalidInputError):
        epsilon_at(alpha, 1.0, 1e-5)
    with pytest.raises(InvalidInputError):
        certify_at(gaussian_rdp(1.0), alpha, 1e-5)


@pytest.mark.parametrize("delta", [0.0, 1.0, -1e-3, 1.5, math.nan, math.inf, True, "abc"])
def test_bad_delta(delta):
    with pytest.raises(InvalidInputError):
        rdp_to_dp(gaussian_rdp(1.0), delta)
    with pytest.raises(InvalidInputError):
        zcdp_to_dp(1.0, delta, "bun-steinke")


@pytest.mark.parametrize("rho", [-0.1, math.nan, math.inf, False])
def test_bad_rho(rho):
    with pytest.raises(InvalidInputError):
        zcdp_to_dp(rho, 1e-6)


@pytest.mark.parametrize("T", [0, -3, 2.5, 3.0, True, "3"])
def test_bad_rounds(T):
    with pytest.raises(InvalidInputError):
        gaussian_rdp(1.0).compose(T)


def test_other_bad_inputs():
    for s in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(InvalidInputError):
            gaussian_rdp(s)
    for p in (0.0, 1.0, -0.1, math.nan):
        with pytest.raises(InvalidInputError):
            randomized_response_rdp(p)
    with pytest.raises(InvalidInputError):
        epsilon_at(2.0, -0.1, 1e-5)
    with pytest.raises(InvalidInputError):
        epsilon_at(2.0, math.nan, 1e-5)
    with pytest.raises(InvalidInputError):
        epsilon_at(2.0, 1.0, 1e-5, "bbghs")
    with pytest.raises(InvalidInputError):
        zcdp_to_dp(1.0, 1e-6, "renyi")
    with pytest.raises(InvalidInputError):
        rdp_curve_from_arrays([2.0, 3.0], [1.0])
    with pytest.raises(InvalidInputError):
        rdp_curve_from_arrays([2.0, 2.0], [1.0, 1.0])
    with pytest.raises(InvalidInputError):
        rdp_curve_from_arrays([2.0], [1.0], certified_values=[1.0])     # floats are not certificates
    with pytest.raises(InvalidInputError):
        rdp_to_dp(rdp_curve_from_callable(lambda a: math.nan), 1e-5)
    with pytest.raises(InvalidInputError):
        rdp_to_dp(rdp_curve_from_callable(lambda a: -1.0), 1e-5)
    with pytest.raises(InvalidInputError):
        rdp_to_dp(gaussian_rdp(1.0), 1e-5, orders="even")


def test_zero_rdp_and_zero_rho():
    assert zcdp_to_dp(0.0, 1e-6, "bun-steinke").epsilon_certified_upper == 0.0
    assert zcdp_to_dp(0, 1e-6, "cks").epsilon_certified_upper == 0.0       # clamped: CKS goes negative
    assert epsilon_at(2.0, 0.0, 0.4, "asoodeh") == 0.0


# ---------------------------------------------------------------------------------------------
# cross-check with Google's dp_accounting (a declared test-only dependency, pyproject [test])
# ---------------------------------------------------------------------------------------------

def test_cross_check_dp_accounting():
    import dp_accounting as dpa  # declared in the [test] extra: a missing install is a failure, not a skip
    from dp_accounting.rdp import rdp_privacy_accountant as rdpa

    orders = [1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 32.0, 64.0, 128.0, 256.0]
    # Gaussian mechanism, noise multiplier sigma, T rounds
    sigma, T, d = 1.3, 40, 1e-5
    acc = rdpa.RdpAccountant(orders)
    acc.compose(dpa.GaussianDpEvent(sigma), T)
    ours = gaussian_rdp(sigma).compose(T)
    theirs_rdp = list(acc._rdp)  # noqa: SLF001 - the accountant's per-order RDP values
    for a, v in zip(orders, theirs_rdp):
        assert abs(ours(a) - v) <= 1e-13 * v
    eps_theirs, a_theirs = acc.get_epsilon_and_optimal_order(d)
    arr = rdp_curve_from_arrays(orders, [ours(a) for a in orders])
    res = rdp_to_dp(arr, d, "cks")
    assert res.alpha_star == a_theirs
    assert abs(res.epsilon_certified_upper - eps_theirs) <= 1e-13 * eps_theirs
    # binary randomized response: dp_accounting's RR(noise p', 2 buckets) is our flip p = p'/2
    acc2 = rdpa.RdpAccountant(orders, dpa.NeighboringRelation.REPLACE_ONE)
    acc2.compose(dpa.RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2), 25)
    rr = randomized_response_rdp(0.25).compose(25)
    for a, v in zip(orders, list(acc2._rdp)):  # noqa: SLF001
        assert abs(rr(a) - v) <= 1e-12 * v
    eps2, a2 = acc2.get_epsilon_and_optimal_order(d)
    res2 = rdp_to_dp(rdp_curve_from_arrays(orders, [rr(a) for a in orders]), d, "cks")
    assert res2.alpha_star == a2 and abs(res2.epsilon_certified_upper - eps2) <= 1e-13 * eps2
    # their analytic Gaussian (Balle-Wang) vs ours
    from dp_accounting import gaussian_mechanism
    e_exact = gaussian_mechanism.get_epsilon_gaussian(sigma, d)
    assert abs(e_exact - float(gaussian_exact_eps(1 / sigma, d))) <= 1e-6 * e_exact


def test_dp_accounting_published_goldens():
    """Values from dp_accounting's own test suite ([PUB]); no import needed."""
    # a constant RDP of 1.1 at orders 2..32, delta = 1e-5 -> eps = 1.32783806176 at alpha* = 32 (CKS Prop. 12)
    orders = [float(k) for k in range(2, 33)]
    res = rdp_to_dp(rdp_curve_from_arrays(orders, [1.1] * len(orders)), 1e-5, "cks")
    assert res.alpha_star == 32.0 and abs(res.epsilon_certified_upper - 1.32783806176) < 1e-10
    # sigma = 4.530877117 gives (1, 1e-6) with the default orders 1.1..10.9, 11..63, 128, 256, 512, 1024
    default = [1 + x / 10 for x in range(1, 100)] + [float(k) for k in range(11, 64)] + [128.0, 256.0, 512.0, 1024.0]
    g = gaussian_rdp(4.530877117)
    res = rdp_to_dp(rdp_curve_from_arrays(default, [g(a) for a in default]), 1e-6, "cks")
    assert abs(res.epsilon_certified_upper - 1.0) < 1e-6


# ---------------------------------------------------------------------------------------------
# results are bcdp.core.results.Certified
# ---------------------------------------------------------------------------------------------

def test_results_are_certified_with_the_former_fields():
    """certify_at / rdp_to_dp / zcdp_to_dp return Certified: lower <= the exact (clamped) conversion
    value (50 digits, computed here) <= upper = epsilon_certified_upper, the former fields are named
    details, and the result is strict JSON (Bun-Steinke's n/a RDP value is None, not NaN)."""
    import json

    from bcdp.core.results import jsonable

    cert = certify_at(gaussian_rdp(1.0), 3.0, "1e-5", "cks")
    with mp.workdps(DPS):
        exact = max(objective_ref("cks", mp.mpf(3), mp.mpf(3) / 2, mp.mpf(1) / 10 ** 5), 0)
        assert M(cert.lower) <= exact <= M(cert.upper)
    assert cert.upper == cert.epsilon_certified_upper and cert.provenance == cert.source == rc.SOURCES["cks"]
    assert cert.alpha_star == 3.0 and cert.method == "cks" and cert.delta == "1e-5"
    assert cert.lower == max(0.0, cert.enclosure[0]) and cert.upper == cert.enclosure[1]
    res = rdp_to_dp(gaussian_rdp(1.0), 1e-5)
    assert isinstance(res, Certified) and res.alpha_at_search_boundary is False and res.notes == ()
    bs = zcdp_to_dp("2.63", "1e-6", "bun-steinke")
    with mp.workdps(DPS):
        rho, d = mp.mpf("2.63"), mp.mpf(10) ** -6
        exact = rho + 2 * mp.sqrt(rho * mp.log(1 / d))
        assert M(bs.lower) <= exact <= M(bs.upper)
    assert bs.rdp_at_alpha_star_upper is None
    for r in (cert, res, bs, zcdp_to_dp(0, 1e-6, "bun-steinke")):
        json.dumps(jsonable(r), allow_nan=False)


def test_gaussian_rdp_tiny_sigma_no_zero_division():
    """gaussian_rdp("1e-200") raised ZeroDivisionError (issue 12): the curve is +inf in float64 (the
    true value alpha 1e400 / 2 is beyond every float) and the conversion refuses with a message."""
    from bcdp.accounting.conversion import gaussian_rdp, rdp_to_dp
    from bcdp.core.errors import InvalidInputError

    curve = gaussian_rdp("1e-200")
    assert curve(2) == math.inf
    with pytest.raises(InvalidInputError):
        rdp_to_dp(curve, "1e-6", "cks")
    assert gaussian_rdp("1e-100")(2) == pytest.approx(1e200, rel=1e-12)   # 2 * 1/(2 * 1e-200)
