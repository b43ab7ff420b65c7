"""The exact engine against the literal definitions (all subsets), and the witnesses it reports."""

from fractions import Fraction

import pytest
from bcdp import (
    INFINITY,
    Mechanism,
    Prior,
    ProductDomain,
    bcdp_vector,
    bdp_epsilon,
    cdp_vector,
    conditional_output_laws,
    coordinate_dependence,
    ldp_epsilon,
)
from bcdp.bayesian.bruteforce import (
    bcdp_ratios_bruteforce,
    bdp_ratio_bruteforce,
    cdp_ratios_bruteforce,
    dependence_bruteforce,
    ldp_ratio_bruteforce,
)
from bcdp.bayesian.hypothesis_testing import (
    all_tests,
    bcdp_ratio_from_tests,
    neyman_pearson_curve,
    satisfies_testing_criterion,
    smallest_delta_ratio,
    tradeoff_frontier,
)
from hypothesis import given, settings
from strategies import instance

SETTINGS = settings(max_examples=120, deadline=None)


@SETTINGS
@given(instance(max_size=6, max_outputs=3))
def test_reductions_equal_literal_definitions(inst):
    mech, prior = inst
    assert ldp_epsilon(mech).ratio == ldp_ratio_bruteforce(mech)
    assert bdp_epsilon(mech, prior).ratio == bdp_ratio_bruteforce(mech, prior)
    assert [v.ratio for v in cdp_vector(mech)] == cdp_ratios_bruteforce(mech)
    assert [v.ratio for v in bcdp_vector(mech, prior)] == bcdp_ratios_bruteforce(mech, prior)
    assert [v.value for v in coordinate_dependence(prior)] == dependence_bruteforce(prior)


def _ratio_at(num_law, den_law, outputs, region):
    idx = [outputs.index(y) for y in region]
    a = sum((num_law[m] for m in idx), Fraction(0))
    b = sum((den_law[m] for m in idx), Fraction(0))
    return INFINITY if b == 0 else a / b


@SETTINGS
@given(instance(max_size=8, max_outputs=4))
def test_witnesses_attain_the_values(inst):
    mech, prior = inst
    dom = mech.domain
    ldp = ldp_epsilon(mech)
    w = ldp.witness
    assert _ratio_at(mech.row(w["x"]), mech.row(w["x_prime"]), mech.outputs, w["R"]) == ldp.ratio
    for i, c in enumerate(cdp_vector(mech)):
        if c.witness is None:
            assert c.ratio == 1
            continue
        x, xp = c.witness["x"], c.witness["x_prime"]
        assert x[:i] + x[i + 1:] == xp[:i] + xp[i + 1:]
        assert _ratio_at(mech.row(x), mech.row(xp), mech.outputs, c.witness["R"]) == c.ratio
    for i, delta in enumerate(bcdp_vector(mech, prior)):
        laws = conditional_output_laws(mech, prior, i)
        if delta.witness is None:
            assert delta.ratio == 1
            continue
        (v,), (vp,) = delta.witness["S_i"], delta.witness["S_i_prime"]
        assert _ratio_at(laws[v], laws[vp], mech.outputs, delta.witness["R"]) == delta.ratio
    for i, q in enumerate(coordinate_dependence(prior)):
        if q.witness is None:
            continue
        (v,), (vp,) = q.witness["S_i"], q.witness["S_i_prime"]
        p, pp = prior.rest_conditional(i, v), prior.rest_conditional(i, vp)
        event = [tuple(z) for z in q.witness["event"]]
        assert sum((p[z] - pp[z] for z in event), Fraction(0)) == q.value
    assert all(v.ratio >= 1 for v in cdp_vector(mech) + bcdp_vector(mech, prior))


@settings(max_examples=60, deadline=None)
@given(instance(max_size=4, max_outputs=3))
def test_theorem1_smallest_delta_equals_bcdp(inst):
    mech, prior = inst
    for i, delta in enumerate(bcdp_vector(mech, prior)):
        assert bcdp_ratio_from_tests(mech, prior, i)[0] == delta.ratio


@settings(max_examples=80, deadline=None)
@given(instance(max_size=4, max_outputs=4))
def test_neyman_pearson_curve_is_lower_convex_hull_of_all_tests(inst):
    mech, prior = inst
    laws = conditional_output_laws(mech, prior, 0)
    values = list(laws)
    p0, p1 = laws[values[0]], laws[values[-1]]
    tests = all_tests(p0, p1)
    curve = neyman_pearson_curve(p0, p1)
    # every deterministic test lies on or above the piecewise-linear curve ...
    for t in tests:
        for (a0, b0), (a1, b1) in zip(curve, curve[1:]):
            if a0 <= t.alpha <= a1 and a1 > a0:
                assert t.beta >= b0 + (b1 - b0) * (t.alpha - a0) / (a1 - a0)
    # ... and every vertex of the curve is a deterministic test
    pts = {(t.alpha, t.beta) for t in tests}
    assert all(v in pts for v in curve)
    assert curve[0] == (0, 1) and curve[-1] == (1, 0)
    front = tradeoff_frontier(tests)
    assert all(any(f.alpha <= t.alpha and f.beta <= t.beta for f in front) for t in tests)
    assert all(not (g.alpha <= f.alpha and g.beta <= f.beta and (g.alpha, g.beta) != (f.alpha, f.beta))
               for f in front for g in tests)


def test_testing_criterion_exact_at_delta_and_fails_below():
    # Randomized response with keep probability 3/4 on one bit: delta = log 3 exactly.
    dom = ProductDomain.binary(1)
    mech = Mechanism(dom, (0, 1), ((Fraction(3, 4), Fraction(1, 4)), (Fraction(1, 4), Fraction(3, 4))))
    prior = Prior.uniform(dom)
    (delta,) = bcdp_vector(mech, prior)
    tests = all_tests(mech.kernel[0], mech.kernel[1])
    assert smallest_delta_ratio(tests) == 3 == delta.ratio
    assert satisfies_testing_criterion(tests, delta.exact)
    assert satisfies_testing_criterion(tests, delta.exact, form="type2")
    import sympy
    assert not satisfies_testing_criterion(tests, sympy.log(sympy.Rational(299, 100)))


def test_zero_probabilities_give_infinity_not_nan():
    dom = ProductDomain.binary(2)
    rows = ((Fraction(1), Fraction(0)), (Fraction(1), Fraction(0)),
            (Fraction(1, 2), Fraction(1, 2)), (Fraction(1), Fraction(0)))
    mech = Mechanism(dom, ("a", "b"), rows)
    prior = Prior.uniform(dom)
    assert ldp_epsilon(mech).is_infinite and ldp_epsilon(mech).to_json()["float"] == "inf"
    assert str(ldp_epsilon(mech).exact) == "oo"
    assert ldp_epsilon(mech).witness == {"x": [1, 0], "x_prime": [0, 0], "R": ["b"]}
    # x = (1,0) is the only input emitting "b"; conditioning on x_1 = 0 never produces it.
    deltas = bcdp_vector(mech, prior)
    assert deltas[0].is_infinite and deltas[0].witness["S_i_prime"] == [0]
    assert deltas[1].is_infinite


def test_prior_without_full_support_restricts_bdp():
    dom = ProductDomain.binary(1)
    mech = Mechanism(dom, (0, 1), ((Fraction(1), Fraction(0)), (Fraction(1, 2), Fraction(1, 2))))
    prior = Prior(dom, (Fraction(0), Fraction(1)))
    assert ldp_epsilon(mech).is_infinite
    assert bdp_epsilon(mech, prior).ratio == 1
    assert bcdp_vector(mech, prior)[0].ratio == 1
    assert coordinate_dependence(prior)[0].value == 0


def test_single_output_mechanism_is_perfectly_private():
    dom = ProductDomain.binary(2)
    mech = Mechanism(dom, ("only",), tuple((Fraction(1),) for _ in range(4)))
    prior = Prior.uniform(dom)
    assert ldp_epsilon(mech).ratio == 1 and ldp_epsilon(mech).exact == 0
    assert all(v.ratio == 1 for v in bcdp_vector(mech, prior))


def test_rejects_prior_on_other_domain():
    mech = Mechanism(ProductDomain.binary(1), (0,), ((Fraction(1),), (Fraction(1),)))
    with pytest.raises(ValueError, match="different domains"):
        bdp_epsilon(mech, Prior.uniform(ProductDomain.binary(2)))
