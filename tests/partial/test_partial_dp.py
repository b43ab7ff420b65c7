"""bcdp.partial.pure against brute force over all pairs of datasets and all events (output subsets)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from bcdp import INFINITY, Mechanism, ProductDomain, cdp_vector
from bcdp.bayesian.random_instances import random_mechanism
from bcdp.core.errors import InvalidInputError
from bcdp.partial.pure import (
    dataset_domain,
    hamming,
    minimal_nabla_ratios,
    nabla_dp_holds,
    per_attribute_epsilon,
    per_attribute_matrix,
    to_dataset,
    to_point,
    whole_record_epsilon,
)

SHAPES = [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)]


def events(outputs):
    m = len(outputs)
    for r in range(1, m + 1):
        yield from itertools.combinations(range(m), r)


def event_ratio(row_a, row_b, outputs) -> Fraction | float:
    """Literal sup over all events S of P_a(S)/P_b(S) (0/0 skipped, positive/0 infinite)."""
    best: Fraction | float = Fraction(1)
    for ev in events(outputs):
        a = sum((row_a[m] for m in ev), Fraction(0))
        b = sum((row_b[m] for m in ev), Fraction(0))
        if a == 0:
            continue
        if b == 0:
            return INFINITY
        best = max(best, a / b)
    return best


def brute(mech, n, d, idx, relation):
    """max over ordered pairs (a, b) in relation of the literal event ratio."""
    pts = mech.domain.points
    best: Fraction | float = Fraction(1)
    for a in idx:
        for b in idx:
            if a != b and relation(to_dataset(pts[a], n, d), to_dataset(pts[b], n, d)):
                r = event_ratio(mech.kernel[a], mech.kernel[b], mech.outputs)
                best = INFINITY if r == INFINITY else (best if best == INFINITY else max(best, r))
    return best


def one_attribute(x, y):
    return sum(hamming(r, s) for r, s in zip(x, y)) == 1


def one_record(x, y):
    return sum(r != s for r, s in zip(x, y)) == 1


def instances(seed=7, per_shape=12):
    rng = random.Random(seed)
    for n, d in SHAPES:
        dom = dataset_domain([(0, 1)] * d, n)
        for t in range(per_shape):
            zero = 0.0 if t % 3 == 0 else 0.3
            yield n, d, random_mechanism(rng, dom, rng.randint(2, 3), zero)


def ratio_le(a, b):
    return b == INFINITY or (a != INFINITY and a <= b)


@pytest.mark.parametrize("n,d,mech", list(instances()))
def test_against_bruteforce_full_domain(n, d, mech):
    idx = list(range(mech.domain.size))
    res = per_attribute_epsilon(mech, n, d)
    assert res.epsilon.ratio == brute(mech, n, d, idx, one_attribute)
    whole = whole_record_epsilon(mech, n, d)
    assert whole.ratio == brute(mech, n, d, idx, one_record)
    # full product: the single-attribute max implies the Hamming-scaled condition (Lemma 7)
    assert res.record_scaled_holds and res.all_pairs_scaled_holds and res.violation is None
    pts = mech.domain.points
    r0 = res.epsilon.ratio
    for a, b in itertools.permutations(idx, 2):
        k = hamming(pts[a], pts[b])
        bound = INFINITY if r0 == INFINITY else r0 ** k
        assert ratio_le(event_ratio(mech.kernel[a], mech.kernel[b], mech.outputs), bound)
    # witnesses attain the values
    for p in (res.epsilon, whole):
        if p.witness is not None:
            w = p.witness
            ya = mech.row(to_point(w["x"], n, d))[mech.outputs.index(w["R"][0])]
            yb = mech.row(to_point(w["x_prime"], n, d))[mech.outputs.index(w["R"][0])]
            assert (INFINITY if yb == 0 else ya / yb) == p.ratio
    # Hamming-scaled nabla0 with e^{eps0} = r0 holds; a slightly smaller bound fails (if finite > 1)
    if r0 != INFINITY:
        assert nabla_dp_holds(mech, n, d, lambda r, s: r0 ** hamming(r, s)).holds
        if r0 > 1:
            smaller = (1 + r0) / 2
            assert not nabla_dp_holds(mech, n, d, lambda r, s: smaller ** hamming(r, s)).holds
    # the constant function e^{eps} = whole-record ratio is the Def. 1 guarantee as a nabla-DP
    assert nabla_dp_holds(mech, n, d, lambda r, s: whole.ratio).holds


@pytest.mark.parametrize("n,d,mech", list(instances(seed=11, per_shape=6)))
def test_nabla_against_bruteforce_and_subsets(n, d, mech):
    rng = random.Random(n * 10 + d)
    pts = mech.domain.points
    idx = sorted(rng.sample(range(len(pts)), max(2, len(pts) // 2)))
    inputs = [to_dataset(pts[k], n, d) for k in idx]
    assert per_attribute_epsilon(mech, n, d, inputs).epsilon.ratio == brute(mech, n, d, idx, one_attribute)
    assert whole_record_epsilon(mech, n, d, inputs).ratio == brute(mech, n, d, idx, one_record)
    # a random symmetric dissimilarity on records: holds iff every one-record pair is within it
    recs = list(itertools.product((0, 1), repeat=d))
    table = {}
    for r, s in itertools.combinations_with_replacement(recs, 2):
        table[(r, s)] = table[(s, r)] = Fraction(rng.randint(2, 12), 2)
    expected = True
    for a in idx:
        for b in idx:
            x, y = to_dataset(pts[a], n, d), to_dataset(pts[b], n, d)
            if a != b and one_record(x, y):
                i = next(i for i in range(n) if x[i] != y[i])
                if not ratio_le(event_ratio(mech.kernel[a], mech.kernel[b], mech.outputs), table[(x[i], y[i])]):
                    expected = False
    res = nabla_dp_holds(mech, n, d, lambda r, s: table[(r, s)], inputs)
    assert res.holds == expected
    if not res.holds:
        assert not ratio_le(res.witness["ratio"], res.witness["bound"])


def test_rr_example_tight_and_matrix_equals_cdp():
    from bcdp.bayesian.examples import independent_randomized_response
    mech = independent_randomized_response([Fraction(3, 4)] * 3)
    res = per_attribute_epsilon(mech, 1, 3)
    assert res.epsilon.ratio == 3
    assert whole_record_epsilon(mech, 1, 3).ratio == 27
    assert [p.ratio for p in per_attribute_matrix(mech, 1, 3)[0]] == [c.ratio for c in cdp_vector(mech)]
    prof = minimal_nabla_ratios(mech, 1, 3)
    assert all(r == 3 ** hamming(a, b) for (a, b), (r, _) in prof.items())


def test_user_list_can_break_chaining():
    # inputs 00 and 11 only (n = 1, d = 2): no single-attribute pair, but a positive ratio
    dom = dataset_domain([(0, 1), (0, 1)], 1)
    rows = {(0, 0): (Fraction(1, 2), Fraction(1, 2)), (0, 1): (Fraction(1, 2), Fraction(1, 2)),
            (1, 0): (Fraction(1, 2), Fraction(1, 2)), (1, 1): (Fraction(1, 10), Fraction(9, 10))}
    mech = Mechanism(dom, ("a", "b"), tuple(rows[p] for p in dom.points))
    res = per_attribute_epsilon(mech, 1, 2, inputs=[((0, 0),), ((1, 1),)])
    assert res.epsilon.ratio == 1 and res.epsilon.witness is None
    assert not res.record_scaled_holds and not res.all_pairs_scaled_holds
    assert res.violation["ratio"] == 5 and res.violation["hamming"] == 2
    full = per_attribute_epsilon(mech, 1, 2)
    assert full.record_scaled_holds and full.epsilon.ratio == 5


def test_two_records_group_pairs():
    # n = 2, d = 1: pairs differing in both records are not neighbours in any sense
    dom = dataset_domain([(0, 1)], 2)
    mech = Mechanism.from_function(dom, (0, 1, 2), lambda x: {sum(x): 1})
    res = per_attribute_epsilon(mech, 2, 1)
    assert res.epsilon.ratio == INFINITY
    assert res.all_pairs_scaled_holds
    assert whole_record_epsilon(mech, 2, 1).ratio == INFINITY


def test_encoding_round_trip():
    x = ((0, 1, 2), (3, 4, 5))
    assert to_point(x, 2, 3) == (0, 1, 2, 3, 4, 5)
    assert to_point((0, 1, 2, 3, 4, 5), 2, 3) == (0, 1, 2, 3, 4, 5)
    assert to_dataset((0, 1, 2, 3, 4, 5), 2, 3) == x


def test_validation_errors():
    dom = dataset_domain([(0, 1), (0, 1)], 1)
    mech = Mechanism.from_function(dom, (0, 1), lambda x: {x[0]: 1})
    with pytest.raises(InvalidInputError, match="n\\*d"):
        per_attribute_epsilon(mech, 1, 3)
    with pytest.raises(InvalidInputError, match="positive integers"):
        whole_record_epsilon(mech, 0, 2)
    odd = Mechanism.from_function(ProductDomain(((0, 1), (0, 1, 2))), (0, 1), lambda x: {x[0]: 1})
    with pytest.raises(InvalidInputError, match="records must share"):
        per_attribute_epsilon(odd, 2, 1)
    with pytest.raises(InvalidInputError, match="not a dataset"):
        per_attribute_epsilon(mech, 1, 2, inputs=[((0, 5),)])
    with pytest.raises(InvalidInputError, match="twice"):
        per_attribute_epsilon(mech, 1, 2, inputs=[((0, 1),), (0, 1)])
    with pytest.raises(InvalidInputError, match="empty"):
        whole_record_epsilon(mech, 1, 2, inputs=[])
    with pytest.raises(InvalidInputError, match="neither"):
        to_point((0, 1, 2), 1, 2)
    with pytest.raises(InvalidInputError, match="float"):
        nabla_dp_holds(mech, 1, 2, lambda r, s: 2.5)
    with pytest.raises(InvalidInputError, match="non-negative"):
        nabla_dp_holds(mech, 1, 2, lambda r, s: Fraction(1, 2))
    with pytest.raises(InvalidInputError, match="symmetric"):
        nabla_dp_holds(mech, 1, 2, lambda r, s: 2 if r < s else 3)
    with pytest.raises(InvalidInputError, match="at least one attribute"):
        dataset_domain([], 1)
    with pytest.raises(InvalidInputError, match="records"):
        dataset_domain([(0, 1)], 0)


def test_float_bound_is_refused_as_a_float():
    """nabla_dp_holds compares exactly: a float e^eps is refused with FloatRefusedError, while the same
    value given exactly (the string '5/2' or Fraction(5, 2)) is decided."""
    from bcdp.core.errors import FloatRefusedError

    dom = dataset_domain([(0, 1)], 1)
    mech = Mechanism(dom, (0, 1), ((Fraction(2, 3), Fraction(1, 3)), (Fraction(1, 3), Fraction(2, 3))))
    with pytest.raises(FloatRefusedError):
        nabla_dp_holds(mech, 1, 1, lambda r, s: 2.5)
    assert nabla_dp_holds(mech, 1, 1, lambda r, s: "5/2").holds            # ratio 2 <= 5/2
    assert not nabla_dp_holds(mech, 1, 1, lambda r, s: Fraction(3, 2)).holds  # ratio 2 > 3/2


def test_hamming_scaling_uses_exactly_k_attributes():
    """Issue 12 survivor: scaling by e^{eps0 (k+1)} instead of e^{eps0 k} must be caught.

    n = 1, d = 3, inputs {000, 001, 110}.  The only single-attribute pair is 000/001, with largest
    event ratio 2, so e^{eps0} = 2; the pair 000/110 (Hamming 2) has ratio 7 > e^{2 eps0} = 4, a
    violation of Def. 5's Hamming-scaled condition that a bound e^{3 eps0} = 8 would hide.  The
    expected verdict is computed here by brute force over all events, independently of the code.
    """
    dom = dataset_domain([(0, 1)] * 3, 1)
    rows = {(0, 0, 0): (Fraction(7, 8), Fraction(1, 8)), (0, 0, 1): (Fraction(3, 4), Fraction(1, 4)),
            (1, 1, 0): (Fraction(1, 8), Fraction(7, 8))}
    mech = Mechanism(dom, ("a", "b"),
                     tuple(rows.get(p, (Fraction(1, 2), Fraction(1, 2))) for p in dom.points))
    listed = [(0, 0, 0), (0, 0, 1), (1, 1, 0)]
    # independent brute force: e^{eps0} over single-attribute pairs, then every pair vs e^{eps0 k}
    r0 = max(event_ratio(rows[a], rows[b], mech.outputs)
             for a in listed for b in listed if hamming(a, b) == 1)
    assert r0 == 2
    violations = [(a, b) for a in listed for b in listed if a != b
                  and not ratio_le(event_ratio(rows[a], rows[b], mech.outputs), r0 ** hamming(a, b))]
    assert sorted(violations) == [((0, 0, 0), (1, 1, 0)), ((1, 1, 0), (0, 0, 0))]
    res = per_attribute_epsilon(mech, 1, 3, inputs=[(x,) for x in listed])
    assert res.epsilon.ratio == r0
    assert not res.record_scaled_holds and not res.all_pairs_scaled_holds
    v = res.violation
    assert {to_point(v["x"], 1, 3), to_point(v["x_prime"], 1, 3)} == {(0, 0, 0), (1, 1, 0)}
    assert v["hamming"] == 2 and v["ratio"] == 7 and v["bound"] == 4 and v["one_record"]
