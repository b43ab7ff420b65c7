"""Tests of bcdp.partial.concentrated (Renyi divergences, certified D*, the nabla-CDP accountant).

Every expected value is computed independently of the code under test: closed forms evaluated with
mpmath at >= 60 digits (binary randomized response: D* = KL = eps tanh(eps/2), Bun and Steinke 2016
[BS16]), exact Fraction sums written out here, and a brute-force mpmath lambda grid that gives
a rigorous two-sided bracket of D* from the monotonicity of D_lambda:
max_i D_{l_i}/l_i <= D* <= max(max_i D_{l_{i+1}}/l_i, tail, head) (GKMS Sec. 2.1, Def. 2).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp import Mechanism
from bcdp.checks.partial_dp._cdp_common import (
    parallel_rr,  # builds the input only; expected values stay closed forms
)
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.divergences import (
    d_infinity,
    kl_divergence,
    kl_divergence_exact,
    renyi_divergence,
    renyi_divergence_exact,
    renyi_moment_exact,
)
from bcdp.partial.concentrated import (
    INFINITY,
    d_star,
    nabla_cdp_holds,
    per_attribute_cdp_epsilon,
    whole_record_zcdp,
)
from bcdp.partial.pure import dataset_domain, hamming
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import exact_pmf

F = Fraction
DPS = 70


def mpf(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def brute_bracket(P, Q, n_grid: int = 1500):
    """Rigorous bracket [lo, hi] of D* from a geometric lambda grid (independent code, plain sums):
    lo = max(KL, max_i D_{l_i}/l_i); hi = max(D_{l_1} (covers (1, l_1]), max_i D_{l_{i+1}}/l_i,
    D_inf/l_N (tail)), using that D_lambda is nondecreasing in lambda."""
    with mpmath.workdps(DPS):
        Pm, Qm = [mpf(F(x)) for x in P], [mpf(F(x)) for x in Q]
        sup = [(p, q) for p, q in zip(Pm, Qm) if p > 0]
        kl = mpmath.fsum(p * mpmath.log(p / q) for p, q in sup)
        dinf = max(mpmath.log(p / q) for p, q in sup)

        def D(lam):
            return mpmath.log(mpmath.fsum(p ** lam * q ** (1 - lam) for p, q in sup)) / (lam - 1)
        lams = [1 + mpmath.mpf(10) ** (mpmath.mpf(k) * 12 / n_grid - 8) for k in range(n_grid + 1)]
        vals = [D(x) for x in lams]
        lo = max([kl] + [v / x for v, x in zip(vals, lams)])
        hi = max([vals[0]] + [vals[k + 1] / lams[k] for k in range(n_grid)] + [dinf / lams[-1]])
        return lo, hi


# -- divergences -------------------------------------------------------------------------------------

@pytest.mark.parametrize("p", [F(3, 4), F(2, 3), F(51, 100), F(99, 100), F(1, 2) + F(1, 2 ** 20)])
def test_binary_rr_dstar_is_kl_eps_tanh(p):
    """Binary randomized response has D* = KL = eps tanh(eps/2), eps = log(p/(1-p)),
    the supremum being the limit lambda -> 1+."""
    P, Q = (p, 1 - p), (1 - p, p)
    res = d_star(P, Q)
    with mpmath.workdps(DPS):
        eps = mpmath.log(mpf(p) / mpf(1 - p))
        closed = eps * mpmath.tanh(eps / 2)
        assert res.lower <= closed <= res.upper
        assert res.upper - res.lower <= mpmath.mpf("1e-30") * closed
    assert res.at_limit_one and res.maximiser is None


def test_interior_maximiser_against_brute_grid():
    P, Q = (F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6))
    res = d_star(P, Q)
    lo, hi = brute_bracket(P, Q, 4000)
    with mpmath.workdps(DPS):
        assert not res.at_limit_one and res.maximiser > 2
        assert lo <= res.upper and res.lower <= hi
        # the certified width is far below the grid's
        assert res.upper - res.lower <= mpmath.mpf("1e-30") * res.upper < hi - lo
        g = mpmath.log(mpmath.fsum(mpf(p) ** res.maximiser * mpf(q) ** (1 - res.maximiser)
                                   for p, q in zip(P, Q))) / (res.maximiser * (res.maximiser - 1))
        assert res.lower <= g + mpmath.mpf("1e-45") and g <= res.upper


def gaussian_like(mu: int, sigma2: Fraction, support: range):
    """A discretised Gaussian on ``support`` with exact rational weights (rounded exponentials)."""
    with mpmath.workdps(40):
        w = [F(int(mpmath.exp(-(mpmath.mpf(y) - mu) ** 2 / (2 * mpf(sigma2))) * 10 ** 30)) for y in support]
    s = sum(w)
    return tuple(x / s for x in w)


@pytest.mark.parametrize("mu,sigma2,support", [(1, F(1), range(-3, 5)), (1, F(2), range(-3, 4)),
                                                (2, F(3, 2), range(-2, 5))])
def test_gaussian_like_against_brute_grid(mu, sigma2, support):
    P, Q = gaussian_like(0, sigma2, support), gaussian_like(mu, sigma2, support)
    res = d_star(P, Q, "1e-20")
    lo, hi = brute_bracket(P, Q, 3000)
    with mpmath.workdps(DPS):
        assert lo <= res.upper and res.lower <= hi
        # sanity: near the continuous value mu^2 / (2 sigma^2) (truncation moves it, but not 10x)
        assert abs(res.lower / (mu ** 2 / (2 * mpf(sigma2))) - 1) < 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(exact_pmf(k, allow_tiny=False), exact_pmf(k, allow_tiny=False))))
def test_dstar_within_brute_bracket(pq):
    P, Q = pq
    res = d_star(P, Q, "1e-20")
    if any(p > 0 and q == 0 for p, q in zip(P, Q)):
        assert res.lower == INFINITY == res.upper
        return
    if all(p == q for p, q in zip(P, Q)):
        assert res.lower == 0 == res.upper
        return
    lo, hi = brute_bracket(P, Q, 600)
    with mpmath.workdps(DPS):
        assert lo <= res.upper * (1 + mpmath.mpf("1e-40"))
        assert res.lower <= hi * (1 + mpmath.mpf("1e-40"))


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3).flatmap(lambda k: st.tuples(exact_pmf(k, allow_tiny=False), exact_pmf(k, allow_tiny=False))))
def test_dstar_additive_on_products(pq):
    """D_lambda(P x P || Q x Q) = 2 D_lambda(P || Q) for every lambda, hence D* doubles exactly."""
    P, Q = pq
    P2 = tuple(a * b for a, b in itertools.product(P, P))
    Q2 = tuple(a * b for a, b in itertools.product(Q, Q))
    r1, r2 = d_star(P, Q, "1e-20"), d_star(P2, Q2, "1e-20")
    if r1.lower == INFINITY:
        assert r2.lower == INFINITY
        return
    with mpmath.workdps(DPS):
        assert 2 * r1.lower <= r2.upper and r2.lower <= 2 * r1.upper


@pytest.mark.parametrize("lam", [2, 3, 7])
def test_integer_order_exact_moment(lam):
    P, Q = (F(1, 2), F(1, 3), F(1, 6), F(0)), (F(1, 6), F(1, 3), F(1, 4), F(1, 4))
    # E_Q[(P/Q)^lam] written out independently (same rational as E_P[(P/Q)^(lam-1)])
    expected = sum((q * (p / q) ** lam for p, q in zip(P, Q)), F(0))
    assert renyi_moment_exact(P, Q, lam) == expected
    exact = renyi_divergence_exact(P, Q, lam)
    assert exact == sympy.log(sympy.Rational(expected.numerator, expected.denominator)) / (lam - 1)
    with mpmath.workdps(DPS):
        ref = mpmath.log(mpf(expected)) / (lam - 1)
        got = renyi_divergence(P, Q, lam, dps=60)
        assert abs(got - ref) <= mpmath.mpf("1e-55") * ref
        assert abs(renyi_divergence(P, Q, F(lam), dps=60) - ref) <= mpmath.mpf("1e-55") * ref


def test_kl_is_limit_and_exact_form():
    P, Q = (F(1, 2), F(1, 3), F(1, 6)), (F(1, 6), F(1, 3), F(1, 2))
    with mpmath.workdps(DPS):
        closed = mpmath.mpf(1) / 2 * mpmath.log(3) + mpmath.mpf(1) / 6 * mpmath.log(mpmath.mpf(1) / 3)
        assert abs(kl_divergence(P, Q, 60) - closed) < mpmath.mpf("1e-55")
        assert abs(sympy.N(kl_divergence_exact(P, Q), 60) - sympy.Float(str(closed), 60)) < sympy.Float("1e-50")
        near = renyi_divergence(P, Q, 1 + mpmath.mpf("1e-30"), dps=60)
        assert abs(near - closed) < mpmath.mpf("1e-25")


def test_zero_probability_handling():
    P, Q = (F(1, 2), F(1, 2), F(0)), (F(1, 2), F(0), F(1, 2))
    assert renyi_moment_exact(P, Q, 2) == INFINITY
    assert renyi_divergence(P, Q, 2) == INFINITY
    assert kl_divergence(P, Q) == INFINITY
    assert d_star(P, Q).upper == INFINITY
    assert d_infinity(P, Q).ratio == INFINITY
    # Q(y) > 0 = P(y) is fine, and 0/0 outcomes change nothing
    A, B = (F(1, 2), F(1, 2), F(0)), (F(1, 4), F(1, 4), F(1, 2))
    r3 = d_star(A, B)
    with mpmath.workdps(DPS):
        # D_lambda(A||B) = log 2 for every lambda (A is B conditioned on an event of mass 1/2): D* = KL = log 2
        assert r3.lower <= mpmath.log(2) <= r3.upper
    r4 = d_star((F(1, 3), F(2, 3), F(0)), (F(1, 2), F(1, 2), F(0)))
    r5 = d_star((F(1, 3), F(2, 3)), (F(1, 2), F(1, 2)))
    assert (r4.lower, r4.upper) == (r5.lower, r5.upper)
    same = d_star((F(1, 3), F(2, 3)), (F(1, 3), F(2, 3)))
    assert same.lower == 0 == same.upper


def test_d_infinity_exact():
    P, Q = (F(1, 2), F(1, 3), F(1, 6)), (F(1, 6), F(1, 3), F(1, 2))
    assert d_infinity(P, Q).ratio == 3 and d_infinity(P, Q).witness == {"output": 0}


@pytest.mark.parametrize("error,message,bad", [
    (FloatRefusedError, "floats are refused", lambda: d_star((0.5, 0.5), (F(1, 2), F(1, 2)))),
    (FloatRefusedError, "floats are refused", lambda: renyi_divergence((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), 1.5)),
    (InvalidInputError, "order must be in \\(0, inf\\]", lambda: renyi_divergence((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), 0)),
    (InvalidInputError, "order must be in \\(0, inf\\]",
     lambda: renyi_divergence((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), F(-1, 2))),
    (InvalidInputError, "integer order >= 2",
     lambda: renyi_moment_exact((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), F(5, 2))),
    (InvalidInputError, "shape mismatch", lambda: d_star((F(1, 2), F(1, 2)), (F(1, 3), F(1, 3), F(1, 3)))),
    (InvalidInputError, "not a probability distribution", lambda: d_star((F(1, 2), F(1, 3)), (F(1, 2), F(1, 2)))),
    (InvalidInputError, "is negative", lambda: d_star((F(3, 2), F(-1, 2)), (F(1, 2), F(1, 2)))),
    (InvalidInputError, "dps must be", lambda: d_star((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), dps=30)),
    (FloatRefusedError, "floats are refused", lambda: d_star((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)), rel_tol=1e-30)),
])
def test_bad_input_is_refused(error, message, bad):
    """Each bad input raises its own exception class (FloatRefusedError for floats, InvalidInputError
    for invalid values) with a message naming the problem."""
    with pytest.raises(error, match=message):
        bad()


# -- accountant --------------------------------------------------------------------------------------

def test_accountant_parallel_rr_closed_form():
    """Changing k attributes changes k independent RR coordinates: D* = k c, c = eps tanh(eps/2)
    (D* adds over independent products here since each factor's sup is the same limit lambda -> 1+).
    So eps0 = max_k sqrt(2 k c)/k = sqrt(2 c) (k = 1) and rho = d c (all d attributes change)."""
    p, d = F(3, 4), 3
    mech = parallel_rr(p, d)
    eps0 = per_attribute_cdp_epsilon(mech, 1, d)
    rho = whole_record_zcdp(mech, 1, d)
    with mpmath.workdps(DPS):
        eps = mpmath.log(3)
        c = eps * mpmath.tanh(eps / 2)
        assert eps0.lower <= mpmath.sqrt(2 * c) <= eps0.upper
        assert rho.lower <= d * c <= rho.upper
    assert eps0.witness["hamming"] == 1 and rho.witness["hamming"] == d


def test_nabla_cdp_holds_and_rejects_a_bad_twin():
    mech = parallel_rr(F(2, 3), 2)
    with mpmath.workdps(DPS):
        eps = mpmath.log(2)
        eps0 = mpmath.sqrt(2 * eps * mpmath.tanh(eps / 2))
    ok = nabla_cdp_holds(mech, 1, 2, lambda r, s: eps0 * (1 + mpmath.mpf("1e-25")) * hamming(r, s))
    assert ok.holds and ok.violation is None and ok.pairs_checked == 12
    bad = nabla_cdp_holds(mech, 1, 2, lambda r, s: eps0 * (1 - mpmath.mpf("1e-15")) * hamming(r, s))
    assert not bad.holds and bad.violation["hamming"] == 1
    # pure eps-nabla-DP with eps = log 2 per attribute implies eps-nabla-CDP (Sec. 2.1)
    assert nabla_cdp_holds(mech, 1, 2, lambda r, s: sympy.log(2) * hamming(r, s)).holds
    with pytest.raises(FloatRefusedError):
        nabla_cdp_holds(mech, 1, 2, lambda r, s: 0.5 * hamming(r, s))
    with pytest.raises(InvalidInputError):
        nabla_cdp_holds(mech, 1, 2, lambda r, s: r[0] + 2 * s[0] + 1)


def test_accountant_infinite_and_single_input():
    dom = dataset_domain([(0, 1)], 1)
    mech = Mechanism(dom, (0, 1), ((F(1), F(0)), (F(0), F(1))))
    assert per_attribute_cdp_epsilon(mech, 1, 1).upper == INFINITY
    assert whole_record_zcdp(mech, 1, 1).lower == INFINITY
    one = per_attribute_cdp_epsilon(mech, 1, 1, inputs=[(0,)])
    assert one.upper == 0 and one.witness is None


# -- triangle inequalities (Sec. 2.2) and bad twins the checks must reject --------------------------

def _mul(a, b):
    return INFINITY if a == INFINITY or b == INFINITY else a * b


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.tuples(exact_pmf(k), exact_pmf(k), exact_pmf(k))))
def test_d_infinity_triangle_exact(pqr):
    P, Q, R = pqr
    lhs = d_infinity(P, Q).ratio
    rhs = _mul(d_infinity(P, R).ratio, d_infinity(R, Q).ratio)
    assert rhs == INFINITY or (lhs != INFINITY and lhs <= rhs)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 3).flatmap(lambda k: st.tuples(*(exact_pmf(k, allow_tiny=False),) * 3)))
def test_d_star_sqrt_triangle(pqr):
    P, Q, R = pqr
    pq, pr, rq = d_star(P, Q, "1e-20"), d_star(P, R, "1e-20"), d_star(R, Q, "1e-20")
    if pr.upper == INFINITY or rq.upper == INFINITY:
        return
    assert pq.lower != INFINITY
    with mpmath.workdps(DPS):
        assert mpmath.sqrt(pq.lower) <= mpmath.sqrt(pr.upper) + mpmath.sqrt(rq.upper)


def test_bad_twin_additive_triangle_fails_on_gaussian_chain():
    """Without square roots the triangle inequality is false: shifts 0 -> 1 -> 2 of a discretised
    Gaussian give D*(P||Q) ~ 4 rho > D*(P||R) + D*(R||Q) ~ 2 rho; the sqrt form holds."""
    sup = range(-4, 7)
    P, R, Q = (gaussian_like(mu, F(1), sup) for mu in (0, 1, 2))
    pq, pr, rq = d_star(P, Q, "1e-12"), d_star(P, R, "1e-12"), d_star(R, Q, "1e-12")
    with mpmath.workdps(DPS):
        assert pq.lower > pr.upper + rq.upper
        # sqrt form, no slack: every enclosure is 1e-12-relative, so comparing the upper end of the left
        # side with the lower ends on the right is sound unless the true margin (here a ratio of about
        # 1 - 1.8e-7) were below that width
        for r in (pq, pr, rq):
            assert r.upper - r.lower <= mpmath.mpf("1e-12") * r.upper
        assert mpmath.sqrt(pq.upper) <= mpmath.sqrt(pr.lower) + mpmath.sqrt(rq.lower)


def test_bad_twin_linear_prop8_fails_on_sum_mechanism():
    """Prop. 8 needs d^2: rho <= d eps0^2 / 2 (linear in d) is violated by a sum mechanism."""
    from bcdp.checks.partial_dp._cdp_common import sum_mechanism
    d = 3
    mech = sum_mechanism(d, 2, lambda t: F(1, 2 ** (t * t)))
    eps0 = per_attribute_cdp_epsilon(mech, 1, d)
    rho = whole_record_zcdp(mech, 1, d)
    with mpmath.workdps(DPS):
        assert rho.lower > d * eps0.upper ** 2 / 2          # the bad twin fails
        assert rho.upper <= d * d * eps0.lower ** 2 / 2     # the printed bound holds


def test_bad_twin_max_composition_fails():
    """Lemma 9 CDP needs sqrt(eps1^2 + eps2^2): max(eps1, eps2) fails for two independent RR runs."""
    from bcdp.core.spaces import compose
    m = parallel_rr(F(3, 4), 1)
    both = compose(m, m)
    r1 = d_star(m.kernel[0], m.kernel[1])
    r2 = d_star(both.kernel[0], both.kernel[1])
    with mpmath.workdps(DPS):
        assert r2.lower > r1.upper                      # eps12 > max(eps1, eps2)
        assert r2.lower <= 2 * r1.upper and 2 * r1.lower <= r2.upper  # = eps1^2 + eps2^2 (exactly here)



@pytest.mark.parametrize("k", [60, 170, 400])
def test_near_equal_rows_get_enough_digits(k):
    """P = (1, 0), Q = (1 - 2^-k, 2^-k): D_lambda = log(1/(1 - 2^-k)) for every lambda, so
    D* = KL = -log1p(-2^-k) ~ 2^-k.  The value is tiny; the enclosure must still be 1e-30-relative
    (extra working digits from Pinsker's bound).  Oracle: mpmath log1p at 600 digits."""
    delta = F(1, 2 ** k)
    res = d_star((F(1), F(0)), (1 - delta, delta))
    with mpmath.workdps(600):
        closed = -mpmath.log1p(-mpf(delta))
        assert res.lower <= closed <= res.upper
        assert res.upper - res.lower <= mpmath.mpf("1e-30") * closed


def test_interval_arithmetic_recheck_accepts_certificates_and_rejects_bad_ones():
    """d_star re-checks its certificate with arb balls (outward rounding); the re-check must fail
    for an upper end below D* and for a lower end above it (so it can fail)."""
    from bcdp.partial.dstar import _verify_with_intervals
    P, Q = (F(1, 100), F(99, 100)), (F(1, 10 ** 6), 1 - F(1, 10 ** 6))
    res = d_star(P, Q)
    assert res.interval_verified is True
    assert d_star((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))).interval_verified is True
    with mpmath.workdps(DPS):
        lam = res.maximiser
        tail = mpmath.mpf(10) ** 6
        cover = [("tail", tail), (mpmath.mpf(1), lam), (lam, tail)]
        too_low = res.lower * (1 - mpmath.mpf("1e-6"))
        assert _verify_with_intervals(P, Q, res.lower, too_low, lam, cover, 65) is False
        too_high_lower = res.upper * (1 + mpmath.mpf("1e-6"))
        assert _verify_with_intervals(P, Q, too_high_lower, res.upper, lam, [], 65) is False


def test_recheck_is_sharp_against_a_60_digit_reference(monkeypatch):
    """The arb re-check of d_star, on binary randomized response with e^eps = 3 (D* = KL =
    eps tanh(eps/2) = log(3)/2, Bun-Steinke 2016; partial DP paper arXiv:2209.04053, Sec. 2, Def. 2),
    against log(3)/2 at 60 digits (mpmath.mp, independent of the code): the enclosure contains it; the
    re-check of the cover d_star built accepts a lower end 1e-40 (relative) below it and rejects one
    1e-40 above it, and rejects an upper end 1e-40 below it (decisions far finer than the 1e-30 width)."""
    from bcdp.partial import dstar as dstar_module

    P, Q = (F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))
    seen = []
    original = dstar_module._verify_with_intervals

    def spy(*args):
        seen.append(args)
        return original(*args)
    monkeypatch.setattr(dstar_module, "_verify_with_intervals", spy)
    dstar_module._d_star_cached.cache_clear()
    res = d_star(P, Q)
    dstar_module._d_star_cached.cache_clear()
    assert res.interval_verified is True and len(seen) == 1
    _p, _q, _lower, rho, lam_hat, cover, wdps = seen[0]
    with mpmath.workdps(60):
        ref = mpmath.log(3) / 2
        assert res.lower <= ref <= res.upper
    with mpmath.workdps(wdps):
        below, above = ref * (1 - mpmath.mpf("1e-40")), ref * (1 + mpmath.mpf("1e-40"))
        assert original(P, Q, below, rho, lam_hat, cover, wdps) is True
        assert original(P, Q, above, rho, lam_hat, cover, wdps) is False
        assert original(P, Q, below, below, lam_hat, cover, wdps) is False
