"""bcdp.partial.halfspaces (partial DP paper, Sec. 6) against independent computations."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY
from bcdp.core.spaces import Mechanism
from bcdp.partial.halfspaces import (
    LABELS,
    ball_mixed,
    compose_after_label_rr,
    cube,
    decision_distance,
    em_epsilon_ratio,
    em_feature_epsilon_certified,
    em_probabilities_mp,
    em_scores,
    empirical_robust_error,
    empirical_smoothed_loss,
    exponential_mechanism_exact,
    halfspace,
    integer_halfspaces,
    label_rr_mechanism,
    lemma21_printed_rr_risk,
    lemma21_rr_risk,
    lemma21_symbolic_derivation,
    lemma23_minimal_radius,
    lemma23_step_holds,
    loss_lcm,
    mixed_ball_probability,
    robust_error,
    rr_label_distribution,
    sample_and_label_epsilons,
    sample_exponential_mechanism,
    smoothed_loss,
)
from bcdp.partial.pure import per_attribute_epsilon
from hypothesis import given, settings
from hypothesis import strategies as st

# -- strategies: arbitrary labellings (not only halfspaces) and distributions ------------------------

@st.composite
def labelling(draw, d: int):
    labs = draw(st.lists(st.sampled_from(LABELS), min_size=2 ** d, max_size=2 ** d))
    return dict(zip(cube(d), labs))


@st.composite
def distribution(draw, d: int):
    pts = [(x, y) for x in cube(d) for y in LABELS]
    w = draw(st.lists(st.integers(0, 5), min_size=len(pts), max_size=len(pts)))
    if not any(w):
        w[0] = 1
    return {pt: Fraction(v, sum(w)) for pt, v in zip(pts, w) if v}


def dec_by_growing_balls(x, y, h):
    """Independent dec: the smallest r such that flipping some r coordinates of x reaches label != y."""
    d = len(x)
    for r in range(d + 1):
        for flips in itertools.combinations(range(d), r):
            z = tuple(-v if j in flips else v for j, v in enumerate(x))
            if h[z] != y:
                return r
    return INFINITY


# -- halfspaces and distances --------------------------------------------------------------------------

def test_halfspace_sign_zero_options_and_floats():
    w = (1, -1)
    assert halfspace(w, "plus")[(1, 1)] == 1 and halfspace(w, "minus")[(1, 1)] == -1
    with pytest.raises(InvalidInputError):
        halfspace(w, "refuse")
    with pytest.raises(InvalidInputError):
        halfspace(w, "zero")
    with pytest.raises(FloatRefusedError):
        halfspace((0.5, 1))
    assert halfspace(("1/2", 1), "refuse")[(-1, 1)] == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4).flatmap(lambda d: st.tuples(st.just(d), labelling(d))))
def test_decision_distance_matches_growing_balls(arg):
    d, h = arg
    for x in cube(d):
        for y in LABELS:
            assert decision_distance(x, y, h) == dec_by_growing_balls(x, y, h)


def test_robust_error_hand_example():
    # w = (1, 1), sign(0) = +1: labels (1,1)+ (1,-1)+ (-1,1)+ (-1,-1)-; gamma = 1/2 -> radius 1
    h = halfspace((1, 1))
    assert robust_error(h, {((1, 1), 1): 1}, "1/2", 2) == 0        # ball {(1,1),(1,-1),(-1,1)} all +
    assert robust_error(h, {((1, -1), 1): 1}, "1/2", 2) == 1       # (-1,-1) is in the ball
    assert robust_error(h, {((1, -1), 1): 1}, 0, 2) == 0
    assert ball_mixed(h, (1, -1), "1/2") and not ball_mixed(h, (1, 1), "1/2")
    with pytest.raises(InvalidInputError):
        robust_error(h, {((1, 1), 1): "1/2"}, 0, 2)                 # not a distribution
    with pytest.raises(InvalidInputError):
        robust_error(h, {((1, 1), 2): 1}, 0, 2)                     # label outside {-1, 1}


def test_integer_halfspaces_distinct_and_realisable():
    """Each returned table is sign(<w, x>) (sign(0) = +1) recomputed by a dot product here, and the
    set of tables equals an independent enumeration of all integer w in [-2, 2]^3 minus 0."""
    points = list(itertools.product((-1, 1), repeat=3))
    hs = integer_halfspaces(3, 2)
    for w, h in hs:
        assert set(h) == set(points)
        assert all(h[x] == (1 if sum(wj * xj for wj, xj in zip(w, x)) >= 0 else -1) for x in points)
    tables = {tuple(h[x] for x in points) for _, h in hs}
    assert len(tables) == len(hs)                         # one w per distinct labelling
    independent = {tuple(1 if sum(wj * xj for wj, xj in zip(w, x)) >= 0 else -1 for x in points)
                   for w in itertools.product(range(-2, 3), repeat=3) if any(w)}
    assert tables == independent


# -- Lemma 21 ------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.integers(2, 3).flatmap(lambda d: st.tuples(st.just(d), labelling(d), distribution(d),
                                                      st.integers(0, d), st.integers(1, 6))))
def test_lemma21_corrected_identity_any_labelling(arg):
    d, h, D, radius, r = arg
    gamma = Fraction(radius, d)
    ratio = Fraction(r + 2, 2)  # e^eps > 1
    actual = robust_error(h, rr_label_distribution(D, ratio, d), gamma, d)
    risk = robust_error(h, D, gamma, d)
    mixed = mixed_ball_probability(h, D, gamma, d)
    assert actual == lemma21_rr_risk(risk, mixed, ratio)
    # the printed form is right exactly when P_D[C_h] = 0
    assert (actual == lemma21_printed_rr_risk(risk, ratio)) == (mixed == 0)


def test_lemma21_printed_counterexample_by_hand():
    # d = 3, w = (1,1,1), gamma = 1/3, D = point mass at ((1,1,-1), +1): the ball holds (1,1,1) (+)
    # and (1,-1,-1) (-); R(h,D) = 1 and R(h,D') = 1, printed 1/(E+1) + (E-1)/(E+1) = E/(E+1).
    h = halfspace((1, 1, 1))
    D = {((1, 1, -1), 1): 1}
    for E in (Fraction(2), Fraction(5, 3)):
        assert robust_error(h, rr_label_distribution(D, E, 3), "1/3", 3) == 1
        assert lemma21_printed_rr_risk(1, E) == E / (E + 1)


def test_lemma21_symbolic_derivation():
    """h = sign(2x1 + x2 + x3), sign(0) = +1, gamma = 1/3 (Hamming radius 1).  By hand: h = +1 on
    {x1 = 1} and on (-1, 1, 1) (where 2x1 + x2 + x3 = 0), -1 on the other three points; every point
    except (1, 1, 1) has a neighbour of the other label (e.g. (1, 1, -1) ~ (-1, 1, -1)), and the ball of
    (1, 1, 1) is all +1.  So P_D[C_h] = 1 - D(111, -1) - D(111, +1), and the printed form misses
    exactly -P_D[C_h]/(E + 1)."""
    h = halfspace((2, 1, 1))
    res = lemma21_symbolic_derivation(h, 3, "1/3")
    assert res["corrected_minus_actual"] == 0
    E = sympy.Symbol("E", positive=True)
    # the generic D is named D_k by the position k of (x, y) in [(x, y) for x in cube for y in LABELS],
    # the last point carrying 1 - (sum of the others)
    pts = [(x, y) for x in cube(3) for y in LABELS]
    names = {s.name: s for s in res["mixed_ball_mass"].free_symbols | res["printed_minus_actual"].free_symbols}
    D = {pt: names.get(f"D_{k}", sympy.Symbol(f"D_{k}", nonnegative=True)) for k, pt in enumerate(pts)}
    D[pts[-1]] = 1 - sum(D[pt] for pt in pts[:-1])
    hand_mixed = 1 - D[((1, 1, 1), -1)] - D[((1, 1, 1), 1)]
    assert res["mixed_ball_mass"] != 0
    assert sympy.expand(res["mixed_ball_mass"] - hand_mixed) == 0
    assert sympy.simplify(res["printed_minus_actual"] + hand_mixed / (E + 1)) == 0
    assert lemma21_symbolic_derivation(h, 3, 0)["printed_minus_actual"] == 0


def test_printed_one_minus_y_is_not_a_distribution():
    D = {((1, 1), 1): Fraction(1, 3), ((1, -1), -1): Fraction(2, 3)}
    out = rr_label_distribution(D, 3, 2, flip="printed")
    assert sum(out.values()) == Fraction(3, 4)
    assert sum(rr_label_distribution(D, 3, 2).values()) == 1


def test_label_rr_mechanism_ratios():
    for d, n, r in [(1, 1, Fraction(3)), (1, 2, Fraction(5, 2))]:
        mech = label_rr_mechanism(d, n, r)
        eps = sample_and_label_epsilons(mech, d, n)
        assert eps.label_ratio == r and eps.feature_ratio == INFINITY


def test_compose_with_label_reader_is_rr():
    d, n, r = 1, 2, Fraction(3)
    rr = label_rr_mechanism(d, n, r)
    reader = Mechanism.from_function(rr.domain, (-1, 1), lambda p: {p[d]: 1})  # label of record 0
    comp = compose_after_label_rr(reader, d, n, r)
    for p, row in zip(comp.domain.points, comp.kernel):
        assert row[(-1, 1).index(p[d])] == r / (r + 1)
    assert per_attribute_epsilon(comp, n, d + 1).epsilon.ratio == r


def test_bad_ratio_inputs():
    with pytest.raises(InvalidInputError):
        label_rr_mechanism(1, 1, "1/2")
    with pytest.raises(FloatRefusedError):
        label_rr_mechanism(1, 1, 2.0)
    with pytest.raises(InvalidInputError):
        rr_label_distribution({((1,), 1): 1}, 2, 1, flip="other")


# -- Lemma 22 ------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4).flatmap(lambda d: st.tuples(st.just(d), labelling(d), st.integers(1, 2 * d),
                                                      st.integers(0, 2 * d))))
def test_smoothed_loss_sandwich_and_sensitivity(arg):
    d, h, a, b = arg
    g, gp = Fraction(max(a, b), 2 * d), Fraction(min(a, b), 2 * d)
    if g == gp:
        return
    delta = 1 / ((g - gp) * d)
    for x in cube(d):
        for y in LABELS:
            v = smoothed_loss(h, x, y, g, gp)
            dec = dec_by_growing_balls(x, y, h)
            assert int(dec <= gp * d) <= v <= int(dec <= g * d)
            for j in range(d):
                x2 = x[:j] + (-x[j],) + x[j + 1:]
                assert abs(v - smoothed_loss(h, x2, y, g, gp)) <= delta
    S = [x + (y,) for x, y in itertools.islice(((x, y) for x in cube(d) for y in LABELS), 5)]
    assert empirical_robust_error(h, S, gp, d) <= empirical_smoothed_loss(h, S, g, gp, d) \
        <= empirical_robust_error(h, S, g, d)


def test_smoothed_loss_bad_margins():
    h = halfspace((1, 1))
    with pytest.raises(InvalidInputError):
        smoothed_loss(h, (1, 1), 1, "1/2", "1/2")
    with pytest.raises(InvalidInputError):
        smoothed_loss(h, (1, 1), 1, "1/2", "-1/4")


@pytest.mark.parametrize("d,n,g,gp,b", [(2, 1, Fraction(1), Fraction(1, 2), Fraction(3, 2)),
                                       (2, 2, Fraction(3, 4), Fraction(1, 4), Fraction(5, 4))])
def test_exact_em_kernel_against_mpmath(d, n, g, gp, b):
    hyps = [h for _, h in integer_halfspaces(d, 2)]
    mech = exponential_mechanism_exact(hyps, d, n, g, gp, b)
    q = loss_lcm(g, gp, d)
    with mpmath.workdps(60):
        eps = 2 * q * mpmath.log(mpmath.mpf(b.numerator) / b.denominator)
        for p, row in zip(mech.domain.points, mech.kernel):
            data = [p[i * (d + 1):(i + 1) * (d + 1)] for i in range(n)]
            # independent: U(h,S) = |S| L(h;S) / Delta from the Fraction loss
            us = [empirical_smoothed_loss(h, data, g, gp, d) * n * (g - gp) * d for h in hyps]
            w = [mpmath.exp(-eps * mpmath.mpf(u.numerator) / u.denominator / 2) for u in us]
            z = mpmath.fsum(w)
            for v, wk in zip(row, w):
                assert abs(mpmath.mpf(v.numerator) / v.denominator - wk / z) < mpmath.mpf(10) ** -45
    eps_ratio = em_epsilon_ratio(b, g, gp, d)
    assert sample_and_label_epsilons(mech, d, n).feature_ratio <= eps_ratio


def test_em_certified_tie_is_decided_by_sympy():
    hyps = [h for _, h in integer_halfspaces(2, 2)]
    res = em_feature_epsilon_certified(hyps, 2, 1, 1, 0, 2, factor_two=False)
    assert res.certified_by_sympy > 0 and res.bound_holds  # the twin's max log ratio equals eps exactly
    ok = em_feature_epsilon_certified(hyps, 2, 2, 1, "1/2", 1)
    bad = em_feature_epsilon_certified(hyps, 2, 2, 1, "1/2", 1, factor_two=False)
    assert ok.bound_holds and not bad.bound_holds


def test_em_mp_rejects_low_precision_and_negative_eps():
    hyps = [halfspace((1, 1))]
    with pytest.raises(InvalidInputError):
        em_probabilities_mp(hyps, [(1, 1, 1)], 1, 0, 1, 2, digits=30)
    with pytest.raises(InvalidInputError):
        em_probabilities_mp(hyps, [(1, 1, 1)], 1, 0, -1, 2)
    with pytest.raises(InvalidInputError):
        exponential_mechanism_exact(hyps, 2, 1, 1, 0, "1/2")


def test_sampler_against_exact_probabilities():
    """Hoeffding + union bound over |H| hypotheses; false-failure rate 1e-6."""
    d, g, gp, eps = 3, Fraction(2, 3), Fraction(1, 3), Fraction(2)
    hyps = [h for _, h in integer_halfspaces(3, 1)]
    data = [(1, -1, 1, 1), (-1, -1, 1, -1), (1, 1, 1, 1)]
    exact = em_probabilities_mp(hyps, data, g, gp, eps, d)
    scores, q = em_scores(hyps, data, g, gp, d)
    n_draws = 20000
    draws = sample_exponential_mechanism(scores, 2.0, q, n_draws, np.random.default_rng(7))
    freq = np.bincount(draws, minlength=len(hyps)) / n_draws
    tol = math.sqrt(math.log(2 * len(hyps) / 1e-6) / (2 * n_draws))
    assert max(abs(float(f) - float(p)) for f, p in zip(freq, exact)) <= tol
    with pytest.raises(InvalidInputError):
        sample_exponential_mechanism(scores, float("nan"), q, 10, np.random.default_rng(0))


# -- Lemma 23 ------------------------------------------------------------------------------------------

def test_lemma23_counterexample_and_radius_one():
    w = ("3/10", "7/25", "11/50", "1/5")
    assert lemma23_step_holds(w, (1, -1, 1, -1), "1/10") is False
    assert lemma23_step_holds(w, (1, -1, 1, -1), "1/10", radius=1) is True
    assert lemma23_step_holds(w, (1, 1, 1, 1), "1/10") is None  # premise <w, z> < nu fails
    with pytest.raises(InvalidInputError):
        lemma23_step_holds(("1/2", "1/4"), (1, 1), "1/10")      # ||w||_1 != 1


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5).flatmap(lambda d: st.tuples(
    st.just(d), st.lists(st.integers(-6, 6), min_size=d, max_size=d).filter(any),
    st.lists(st.sampled_from(LABELS), min_size=d, max_size=d))))
def test_lemma23_one_flip_suffices_below_one_over_d_minus_one(arg):
    d, wi, z = arg
    norm = sum(abs(v) for v in wi)
    w = [Fraction(v, norm) for v in wi]
    s = sum(a * b for a, b in zip(w, z))
    if s < Fraction(1, d - 1):
        assert lemma23_minimal_radius(w, tuple(z)) <= 1


def _independent_feature_eps(hyps, d, n, g, gp, eps_eff):
    """max over feature-neighbouring datasets and h of log P_x[h]/P_x'[h], at 80 digits from the
    Fraction smoothed loss: P[h | S] proportional to exp(-eps U(h,S)/2), U = |S| L(h;S) (g - g') d."""
    with mpmath.workdps(80):
        e = mpmath.mpf(eps_eff.numerator) / eps_eff.denominator
        logp = {}
        for p in itertools.product(LABELS, repeat=n * (d + 1)):
            data = [p[i * (d + 1):(i + 1) * (d + 1)] for i in range(n)]
            us = [empirical_smoothed_loss(h, data, g, gp, d) * n * (Fraction(g) - Fraction(gp)) * d for h in hyps]
            w = [-e * mpmath.mpf(u.numerator) / u.denominator / 2 for u in us]
            z = mpmath.log(mpmath.fsum(mpmath.exp(x) for x in w))
            logp[p] = [x - z for x in w]
        best = mpmath.mpf(0)
        for p in logp:
            for c in range(n * (d + 1)):
                if c % (d + 1) == d:
                    continue  # the label is not a feature
                p2 = p[:c] + (-p[c],) + p[c + 1:]
                best = max(best, max(a - b for a, b in zip(logp[p], logp[p2])))
        return best


@pytest.mark.parametrize("n,g,gp,eps,factor_two", [(1, 1, 0, 2, False), (2, 1, "1/2", 1, True),
                                                   (2, 1, "1/2", 1, False)])
def test_em_certified_feature_epsilon_is_a_certified_enclosure(n, g, gp, eps, factor_two):
    """The Certified enclosure contains an independent 80-digit value of eps0, and the certified
    decision agrees with the exact comparison; at a tie (the bad twin at n = 1: eps0 = eps exactly)
    the enclosure straddles eps, so a comparison of enclosures is undecided while sympy proves the tie."""
    from bcdp.core.results import Certified, decide_le

    hyps = [h for _, h in integer_halfspaces(2, 2)]
    res = em_feature_epsilon_certified(hyps, 2, n, g, gp, eps, factor_two=factor_two)
    assert isinstance(res, Certified) and "Lemma 22" in res.provenance
    eff = Fraction(eps) * (1 if factor_two else 2)
    value = _independent_feature_eps(hyps, 2, n, g, gp, eff)
    assert res.lower <= value <= res.upper
    assert res.upper - res.lower < mpmath.mpf(10) ** -60
    assert abs(res.max_log_ratio - value) < mpmath.mpf(10) ** -50
    e = Fraction(eps)
    tie = n == 1
    if tie:
        with mpmath.workdps(80):
            assert abs(value - mpmath.mpf(e.numerator) / e.denominator) < mpmath.mpf(10) ** -70
        with mpmath.workprec(300):
            eps_exact = Certified(mpmath.mpf(e.numerator) / e.denominator, mpmath.mpf(e.numerator) / e.denominator)
        assert decide_le(res, eps_exact) is None
        assert res.bound_holds and res.certified_by_sympy > 0
    else:
        with mpmath.workdps(80):
            assert res.bound_holds == (value <= mpmath.mpf(e.numerator) / e.denominator)


def test_em_sampler_is_the_float_twin():
    """The float64 sampler takes floats (and numeric strings) through the float-twin policy; the
    exact functions of Lemma 22 refuse floats."""
    rng = np.random.default_rng(0)
    draws = sample_exponential_mechanism([0, 4, 8], 0.5, 2, 1000, rng)
    assert set(np.unique(draws)) <= {0, 1, 2}
    assert len(sample_exponential_mechanism([0, 4], "1/2", 2, 5, rng)) == 5
    with pytest.raises(InvalidInputError):
        sample_exponential_mechanism([0, 4], True, 2, 5, rng)
    with pytest.raises(InvalidInputError):
        sample_exponential_mechanism([0, 4], -0.5, 2, 5, rng)
    with pytest.raises(FloatRefusedError):
        em_feature_epsilon_certified([halfspace((1, 1))], 2, 1, 1, 0, 0.5)
    with pytest.raises(FloatRefusedError):
        em_probabilities_mp([halfspace((1, 1))], [(1, 1, 1)], 1, 0, 0.5, 2)


def test_em_log_probability_balls_enclose_60_digit_references():
    """The arb enclosures of log P[h | S] (robust_erm, at IV_BITS bits) against mpmath.mp at 80
    digits (the balls are ~75 digits wide), scores with a tiny exponent c = 1/10^40 included."""
    from bcdp.core.intervals import arb_precision
    from bcdp.partial.dstar import ball_ends
    from bcdp.partial.robust_erm import IV_BITS, _log_probabilities_ball

    for scores, c in (([0, 3, 5, 5], Fraction(1, 3)), ([7, 2, 9], Fraction(1, 10 ** 40)), ([1], Fraction(5))):
        with arb_precision(IV_BITS):
            balls = _log_probabilities_ball(scores, c)
        with mpmath.workdps(80):
            cc = mpmath.mpf(c.numerator) / c.denominator
            lz = mpmath.log(mpmath.fsum(mpmath.exp(-cc * s) for s in scores))
            for s, b in zip(scores, balls):
                lo, hi = ball_ends(b)
                ref = -cc * s - lz
                assert lo <= ref <= hi and hi - lo < mpmath.mpf(10) ** -70
