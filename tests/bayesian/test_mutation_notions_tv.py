"""Total variation and the coordinate dependence q_i of eq. (13) of the BCDP paper, with their witnesses.

``notions.total_variation(p, q)`` is sum_z max(p(z) - q(z), 0) with the event {z : p(z) > q(z)}
(outcomes missing from a dict have weight 0); the oracle here is the other textbook form,
1/2 sum_z |p(z) - q(z)|, for two distributions, and the sum over z of the positive parts for signed
weights, written out by hand.  ``coordinate_dependence`` is, by (R3), the largest TV between the
conditionals of x_-i given two supported values of x_i; the oracle is a brute force over the pmf
(conditionals computed in the test) and the witness must attain the value.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from bcdp import Prior, ProductDomain
from bcdp.bayesian import notions
from bcdp.core.errors import FloatRefusedError


def test_tv_with_outcomes_missing_from_either_side():
    # "c" only in q, "d" only in p, "a" a tie: TV = 1/2 (|1/2-1/4| + |1/4-1/4| + |0-1/2| + |1/4-0|) = 1/2
    p = {"a": F(1, 4), "b": F(1, 2), "d": F(1, 4)}
    q = {"a": F(1, 4), "b": F(1, 4), "c": F(1, 2)}
    tv, event = notions.total_variation(p, q)
    keys = ["a", "b", "d", "c"]
    half_l1 = F(1, 2) * sum(abs(p.get(z, 0) - q.get(z, 0)) for z in keys)
    assert type(tv) is F and tv == half_l1 == F(1, 2)
    # the event is exactly {p > q}: not the tie "a", not "c" (missing from p), in order of first appearance
    assert event == ["b", "d"]
    # and the other way round: "c" (missing from p) is in the event of TV(q, p)
    tv2, event2 = notions.total_variation(q, p)
    assert tv2 == half_l1 and event2 == ["c"]


def test_tv_of_equal_distributions_is_the_fraction_zero_with_an_empty_event():
    p = {0: F(1, 3), 1: F(2, 3)}
    tv, event = notions.total_variation(p, dict(p))
    assert type(tv) is F and tv == 0 and event == []


def test_tv_is_the_sum_of_positive_parts_for_signed_weights_too():
    # the function does not validate a distribution; its formula sum_z max(p(z) - q(z), 0) holds for
    # any weights: z = "x" is missing from p and q("x") = -1/3, so it contributes 0 - (-1/3) = 1/3;
    # "y": max(1/2 - 1, 0) = 0
    p = {"y": F(1, 2)}
    q = {"x": F(-1, 3), "y": F(1)}
    tv, event = notions.total_variation(p, q)
    assert tv == F(1, 3) and event == ["x"]


@pytest.mark.parametrize(("p", "q", "name"), [
    ({"a": 0.5, "b": F(1, 2)}, {"a": F(1, 2), "b": F(1, 2)}, "p['a']"),
    ({"a": F(1, 2), "b": F(1, 2)}, {"a": F(1, 2), "b": 0.5}, "q['b']"),
])
def test_a_float_probability_is_refused_by_name(p, q, name):
    # the one-line error names the offending entry of the offending side
    with pytest.raises(FloatRefusedError) as err:
        notions.total_variation(p, q)
    assert str(err.value).startswith(name + ":")


def _brute_dependence(dom: ProductDomain, pmf) -> list[F]:
    """q_i by brute force: conditionals of x_-i given x_i = v, 1/2 L1 over all ordered pairs."""
    out = []
    points = [tuple(x) for x in dom.points]
    for i in range(len(dom.coordinate_values)):
        conds = {}
        for v in dom.coordinate_values[i]:
            mass = sum(pr for x, pr in zip(points, pmf) if x[i] == v)
            if mass > 0:
                c = {}
                for x, pr in zip(points, pmf):
                    if x[i] == v:
                        c[x[:i] + x[i + 1:]] = pr / mass
                conds[v] = c
        best = F(0)
        for a in conds:
            for b in conds:
                rest = set(conds[a]) | set(conds[b])
                best = max(best, F(1, 2) * sum(abs(conds[a].get(r, 0) - conds[b].get(r, 0)) for r in rest))
        out.append(best)
    return out


def _check_witness(prior: Prior, i: int, par) -> None:
    w = par.witness
    assert w is not None and set(w) == {"coordinate", "S_i", "S_i_prime", "event"}
    assert w["coordinate"] == i
    (va,), (vb,) = w["S_i"], w["S_i_prime"]
    ca, cb = prior.rest_conditional(i, va), prior.rest_conditional(i, vb)
    # the event is {x_-i : first conditional > second} and attains the value
    assert sorted(w["event"]) == sorted(list(r) for r in ca if ca[r] > cb[r])
    assert sum(ca[tuple(r)] - cb[tuple(r)] for r in w["event"]) == par.value


def test_coordinate_dependence_is_the_largest_tv_and_its_witness_attains_it():
    # coordinate 0 has three values with distinct conditionals of x_1 (so pairs have different TVs)
    dom = ProductDomain(((0, 1, 2), ("u", "v")))
    pmf = (F(1, 10), F(2, 10), F(3, 20), F(3, 20), F(1, 10), F(3, 10))
    prior = Prior(dom, pmf)
    got = notions.coordinate_dependence(prior)
    assert [g.value for g in got] == _brute_dependence(dom, pmf)
    for i, g in enumerate(got):
        _check_witness(prior, i, g)


def test_coordinate_dependence_witness_is_the_first_ordered_pair_attaining_the_maximum():
    # a binary coordinate: (S_i, S_i') = (0, 1) and (1, 0) attain the same TV (TV is symmetric);
    # the witness is the first in the order of the coordinate's values, (0, 1)
    dom = ProductDomain.binary(2)
    pmf = (F(1, 2), F(1, 8), F(1, 8), F(1, 4))
    prior = Prior(dom, pmf)
    got = notions.coordinate_dependence(prior)
    assert [g.value for g in got] == _brute_dependence(dom, pmf)
    for i, g in enumerate(got):
        assert g.value > 0
        _check_witness(prior, i, g)
        assert g.witness["S_i"] == [0] and g.witness["S_i_prime"] == [1]


def test_coordinate_with_one_supported_value_has_zero_dependence_and_no_witness():
    dom = ProductDomain.binary(2)
    prior = Prior(dom, (F(1, 2), F(1, 2), F(0), F(0)))   # x_0 = 0 surely
    got = notions.coordinate_dependence(prior)
    assert got[0].value == 0 and got[0].witness is None
    assert got[1].value == _brute_dependence(dom, prior.pmf)[1]
