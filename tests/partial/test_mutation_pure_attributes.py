"""Per-attribute pure partial DP (bcdp.partial.pure; partial DP paper arXiv:2209.04053, Sec. 2,
Def. 5 with Lemma 7, and the record-major dataset encoding), tested at the edges the mutation gate
(benchmarks/mutation_gate.py, package partial) found untested: unconstrained attributes, the
witness fields of the matrix, the choice of the reported violation, the exact boolean flags, group
privacy at Hamming distance 2 and the validation of n, d and of the shared attribute sets.

Oracle: brute force with exact Fractions over the listed inputs, written here from the
definitions (a pair differing in exactly one attribute of one record defines eps0; every pair x, x'
must satisfy max_y mu_x(y)/mu_x'(y) <= e^{eps0 Hamming(x, x')}; a pair is a record pair when its
datasets differ in exactly one record), and the documented input contracts.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
from bcdp import Mechanism
from bcdp.core.errors import InvalidInputError
from bcdp.core.spaces import ProductDomain
from bcdp.partial.pure import dataset_domain, per_attribute_epsilon, per_attribute_matrix, to_point


def ratio(row_a, row_b):
    """max over outputs and both directions of row_a(y)/row_b(y) (rows here have no zeros)."""
    return max(max(a / b, b / a) for a, b in zip(row_a, row_b))


def ham(x, y):
    return sum(u != v for u, v in zip(x, y))


# -- unconstrained attributes -----------------------------------------------------------------

def test_an_attribute_with_one_value_has_ratio_one_and_no_witness():
    """X_2 = {'z'}: no two datasets differ in attribute 2, so eps = 0 (ratio 1, witness None),
    while attribute 1 is randomized response with ratio 3."""
    dom = dataset_domain([(0, 1), ("z",)], 1)
    mech = Mechanism.from_function(dom, (0, 1), lambda x: {x[0]: F(3, 4), 1 - x[0]: F(1, 4)})
    (row,) = per_attribute_matrix(mech, 1, 2)
    assert row[0].ratio == 3 and row[0].witness is not None
    assert row[1].ratio == 1 and row[1].witness is None


def test_an_input_list_without_pairs_in_one_attribute_gives_ratio_one():
    """Inputs 00 and 01 only differ in attribute 2; attribute 1 has no pair of inputs at all."""
    dom = dataset_domain([(0, 1), (0, 1)], 1)
    mech = Mechanism.from_function(dom, ("a", "b"), lambda x: {"a": F(1, 2 + x[0] + 2 * x[1]),
                                                                "b": 1 - F(1, 2 + x[0] + 2 * x[1])})
    (row,) = per_attribute_matrix(mech, 1, 2, inputs=[((0, 0),), ((0, 1),)])
    assert row[0].ratio == 1 and row[0].witness is None
    assert row[1].ratio == ratio(mech.row((0, 0)), mech.row((0, 1))) == 2


# -- witnesses of the matrix --------------------------------------------------------------------

def two_by_two():
    """n = 2 records of d = 2 bits; P(output 'a') depends on every coordinate differently."""
    dom = dataset_domain([(0, 1), (0, 1)], 2)
    weight = (1, 2, 4, 8)
    return Mechanism.from_function(dom, ("a", "b"), lambda x: {
        "a": F(1 + sum(w * v for w, v in zip(weight, x)), 32), "b": 1 - F(1 + sum(w * v for w, v in zip(weight, x)), 32)})


def test_matrix_entries_and_witnesses_against_brute_force():
    mech = two_by_two()
    pts = mech.domain.points
    mat = per_attribute_matrix(mech, 2, 2)
    for i, j in itertools.product(range(2), range(2)):
        c = 2 * i + j
        want = max(ratio(mech.kernel[a], mech.kernel[b]) for a, b in itertools.permutations(range(len(pts)), 2)
                   if ham(pts[a], pts[b]) == 1 and pts[a][c] != pts[b][c])
        entry = mat[i][j]
        assert entry.ratio == want
        w = entry.witness
        assert w["record"] == i and w["attribute"] == j
        x, xp = to_point(w["x"], 2, 2), to_point(w["x_prime"], 2, 2)
        assert [k for k in range(4) if x[k] != xp[k]] == [c]
        y = mech.outputs.index(w["R"][0])
        assert mech.row(x)[y] / mech.row(xp)[y] == want


@pytest.mark.parametrize("order", ["domain", "reversed"])
def test_a_tie_between_groups_names_the_first_group(order):
    """Module docstring: the witness comes from the first group (in input order) attaining the
    maximum.  n = 1, d = 2 bits: for attribute 1 the groups are {00, 10} and {01, 11} (agreeing in
    attribute 2), both with ratio 2 exactly."""
    rows = {(0, 0): (F(1, 3), F(2, 3)), (1, 0): (F(2, 3), F(1, 3)),
            (0, 1): (F(1, 5), F(4, 5)), (1, 1): (F(2, 5), F(3, 5))}
    dom = dataset_domain([(0, 1), (0, 1)], 1)
    mech = Mechanism(dom, ("a", "b"), tuple(rows[p] for p in dom.points))
    assert ratio(rows[(0, 0)], rows[(1, 0)]) == ratio(rows[(0, 1)], rows[(1, 1)]) == 2
    inputs = [(p,) for p in dom.points]
    if order == "reversed":
        inputs = inputs[::-1]
    first_group = {inputs[0][0], next(x[0] for x in inputs[1:] if x[0][1] == inputs[0][0][1])}
    entry = per_attribute_matrix(mech, 1, 2, inputs)[0][0]
    assert entry.ratio == 2
    assert {entry.witness["x"][0], entry.witness["x_prime"][0]} == first_group


# -- the reported violation on an input list ------------------------------------------------------

A, F4, B, C, D = ((0, 0), (0, 0)), ((2, 2), (2, 2)), ((0, 0), (2, 2)), ((2, 2), (0, 0)), ((1, 0), (0, 0))
P_A = {A: F(1, 2), F4: F(1, 10), B: F(1, 5), C: F(9, 10), D: F(3, 5)}


def ternary_mechanism():
    """n = 2 records of d = 2 attributes in {0, 1, 2}; P(output 'a') is listed for five datasets and
    1/2 elsewhere."""
    dom = dataset_domain([(0, 1, 2), (0, 1, 2)], 2)

    def law(x):
        p = P_A.get((tuple(x[:2]), tuple(x[2:])), F(1, 2))
        return {"a": p, "b": 1 - p}
    return Mechanism.from_function(dom, ("a", "b"), law)


def brute_violations(mech, inputs):
    """eps0 over the single-attribute pairs of the list, then every pair in list order (pairs
    (inputs[s], inputs[t]), s < t) with its Hamming distance, ratio and record flag; the failures."""
    pts = [to_point(x, 2, 2) for x in inputs]
    rows = [mech.row(p) for p in pts]
    pairs = list(itertools.combinations(range(len(pts)), 2))
    eps0 = max([ratio(rows[s], rows[t]) for s, t in pairs if ham(pts[s], pts[t]) == 1], default=F(1))
    out = []
    for s, t in pairs:
        k, r = ham(pts[s], pts[t]), ratio(rows[s], rows[t])
        if r > eps0 ** k:
            out.append((s, t, k, r, sum(inputs[s][i] != inputs[t][i] for i in range(2)) == 1))
    return eps0, out


def test_first_record_violation_is_reported_after_an_earlier_group_violation():
    """Docstring: the violation is the first failure; the code keeps the first one whose datasets
    differ in one record (the record-level condition of Def. 5) over earlier group-level ones."""
    mech = ternary_mechanism()
    inputs = [A, F4, B, C, D]
    eps0, fails = brute_violations(mech, inputs)
    assert eps0 == F(5, 4)
    # the set-up: a group failure first, then several record failures
    assert [f[4] for f in fails[:3]] == [False, True, True] and sum(f[4] for f in fails) >= 3
    res = per_attribute_epsilon(mech, 2, 2, inputs)
    assert res.epsilon.ratio == eps0
    assert res.record_scaled_holds is False and res.all_pairs_scaled_holds is False
    s, t, k, r, _ = next(f for f in fails if f[4])
    v = res.violation
    assert v["one_record"] is True and v["hamming"] == k and v["ratio"] == r and v["bound"] == eps0 ** k
    assert {v["x"], v["x_prime"]} == {inputs[s], inputs[t]}


def test_first_group_violation_is_reported_when_no_record_fails():
    """n = 2, d = 1 over {0, 1, 2}: the listed datasets differ in both records, so no pair is a
    neighbour: eps0 = 0 (ratio 1) and every pair with a ratio > 1 fails at the group level only."""
    dom = dataset_domain([(0, 1, 2)], 2)
    mech = Mechanism.from_function(dom, ("a", "b"), lambda x: {"a": F(1, 2 + x[0] + x[1]), "b": 1 - F(1, 2 + x[0] + x[1])})
    inputs = [((0,), (0,)), ((1,), (1,)), ((2,), (2,))]
    res = per_attribute_epsilon(mech, 2, 1, inputs)
    assert res.epsilon.ratio == 1 and res.epsilon.witness is None
    assert res.record_scaled_holds is True and res.all_pairs_scaled_holds is False
    v = res.violation
    assert v["one_record"] is False and v["hamming"] == 2 and v["bound"] == 1
    assert {v["x"], v["x_prime"]} == {inputs[0], inputs[1]}
    assert v["ratio"] == ratio(mech.row((0, 0)), mech.row((1, 1)))


# -- group privacy on the full product (Lemma 7) -------------------------------------------------

def test_full_product_satisfies_the_power_bound_at_distance_two():
    """Two independent randomized responses with ratio 3: eps0 ratio 3, the pair 00 / 11 has
    ratio 9 = 3^2 (more than 2 * 3): both flags True, no violation."""
    dom = dataset_domain([(0, 1), (0, 1)], 1)

    def rr(b, y):
        return F(3, 4) if b == y else F(1, 4)
    mech = Mechanism.from_function(dom, ((0, 0), (0, 1), (1, 0), (1, 1)),
                                   lambda x: {y: rr(x[0], y[0]) * rr(x[1], y[1]) for y in ((0, 0), (0, 1), (1, 0), (1, 1))})
    res = per_attribute_epsilon(mech, 1, 2)
    assert res.epsilon.ratio == 3
    assert ratio(mech.row((0, 0)), mech.row((1, 1))) == 9
    assert res.record_scaled_holds is True and res.all_pairs_scaled_holds is True and res.violation is None


# -- validation of n, d and of the record-major layout -------------------------------------------

def test_records_may_have_attributes_with_different_value_sets():
    """d = 3 attributes with three different value sets, n = 2: a valid layout."""
    dom = dataset_domain([(0, 1), ("u", "v", "w"), (True, False)], 2)
    mech = Mechanism.from_function(dom, (0, 1), lambda x: {0: F(1, 2), 1: F(1, 2)})
    mat = per_attribute_matrix(mech, 2, 3)
    assert [[p.ratio for p in row] for row in mat] == [[1, 1, 1], [1, 1, 1]]


def test_a_record_with_another_value_set_in_its_last_attribute_is_refused():
    dom = ProductDomain(((0, 1), ("u", "v"), (0, 1), ("u", "w")))
    mech = Mechanism.from_function(dom, (0, 1), lambda x: {0: F(1, 2), 1: F(1, 2)})
    with pytest.raises(InvalidInputError, match=r"^attribute 1 of record 1 takes values"):
        per_attribute_matrix(mech, 2, 2)


@pytest.mark.parametrize("n,d", [(2, 2.0), (2.0, 2), ("2", 2), (2, "2"), (0, 4), (4, 0)])
def test_n_and_d_must_be_positive_integers(n, d):
    dom = dataset_domain([(0, 1), (0, 1)], 2)
    mech = Mechanism.from_function(dom, (0, 1), lambda x: {0: F(1, 2), 1: F(1, 2)})
    with pytest.raises(InvalidInputError, match=r"^n and d must be positive integers"):
        per_attribute_epsilon(mech, n, d)
