"""Coordinate DP (Definition 3, ``cdp_vector``) and Bayesian coordinate DP (Definition 4,
``bcdp_vector``) of the BCDP paper: values, witnesses and the domain check.

Independent: the ratios are brute forces over all ordered pairs written here in Fractions (for Def. 3,
pairs x, x' differing only in coordinate i; for Def. 4, pairs of supported values of x_i with the
conditional laws P{M = y | x_i = v} summed by hand), on instances whose values are also worked out
in comments.  Witness rules: ``bcdp_vector``'s witness carries the coordinate it is about
(``{"coordinate": i, "S_i", "S_i_prime", "R"}``); in a tie between groups of inputs sharing x_-i,
the witness comes from the first group in domain order (the library's tie rule stated in
``bcdp.partial.pure``, whose per-attribute eps equals ``cdp_vector`` for n = 1, and within a group
the rule of ``max_column_ratio``).  A prior on another domain is refused with the documented message.

Written to kill survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from bcdp import Mechanism, Prior, ProductDomain
from bcdp.bayesian import notions
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY


def _ratio(a, b):
    return INFINITY if b == 0 else a / b


def _cdp_brute(mech, i):
    pts = mech.domain.points
    best = F(1)
    for a, pa in enumerate(pts):
        for b, pb in enumerate(pts):
            if pa[:i] + pa[i + 1:] != pb[:i] + pb[i + 1:]:
                continue
            for m in range(len(mech.outputs)):
                x, y = mech.kernel[a][m], mech.kernel[b][m]
                if x == 0 and y == 0:
                    continue
                r = _ratio(x, y)
                if r == INFINITY:
                    return INFINITY
                best = max(best, r)
    return best


def _laws_by_hand(mech, prior, i):
    laws = {}
    for k, p in enumerate(mech.domain.points):
        if prior.pmf[k] == 0:
            continue
        acc = laws.setdefault(p[i], [F(0)] * len(mech.outputs) + [F(0)])
        for m in range(len(mech.outputs)):
            acc[m] += prior.pmf[k] * mech.kernel[k][m]
        acc[-1] += prior.pmf[k]
    return {v: [s / acc[-1] for s in acc[:-1]] for v, acc in laws.items()}


def _bcdp_brute(mech, prior, i):
    laws = _laws_by_hand(mech, prior, i)
    best = F(1)
    for la in laws.values():
        for lb in laws.values():
            for x, y in zip(la, lb):
                if x == 0 and y == 0:
                    continue
                r = _ratio(x, y)
                if r == INFINITY:
                    return INFINITY
                best = max(best, r)
    return best


# -- Definition 3: ties between groups -------------------------------------------------------------

def _rr_on_x0():
    # M(x) = x_0 kept with probability 2/3 (randomized response on the first bit), x_1 ignored
    dom = ProductDomain.binary(2)                      # points (0,0), (0,1), (1,0), (1,1)
    keep, flip = F(2, 3), F(1, 3)
    rows = tuple((keep, flip) if p[0] == 0 else (flip, keep) for p in dom.points)
    return Mechanism(dom, ("a", "b"), rows)


def test_cdp_vector_tie_between_groups_keeps_the_first_group():
    mech = _rr_on_x0()
    c = notions.cdp_vector(mech)
    # i = 0: both groups {(0,0),(1,0)} and {(0,1),(1,1)} have ratio (2/3)/(1/3) = 2; the first group
    # (x_1 = 0) gives the witness, at its first column "a" (max at (0,0), min at (1,0))
    assert c[0].ratio == _cdp_brute(mech, 0) == 2
    assert c[0].witness == {"x": [0, 0], "x_prime": [1, 0], "R": ["a"]}
    # i = 1: inside each group the rows are equal, ratio 1 in both groups; first group (x_0 = 0)
    assert c[1].ratio == _cdp_brute(mech, 1) == 1
    assert c[1].witness == {"x": [0, 0], "x_prime": [0, 0], "R": ["a"]}


def test_cdp_vector_strictly_larger_later_group_wins():
    dom = ProductDomain.binary(2)
    # group x_1 = 0: rows (1/2,1/2),(1/4,3/4): ratio 2 (col a); group x_1 = 1: (1/2,1/2),(1/10,9/10): 5
    rows = {(0, 0): (F(1, 2), F(1, 2)), (1, 0): (F(1, 4), F(3, 4)),
            (0, 1): (F(1, 2), F(1, 2)), (1, 1): (F(1, 10), F(9, 10))}
    mech = Mechanism(dom, ("a", "b"), tuple(rows[p] for p in dom.points))
    c = notions.cdp_vector(mech)
    assert c[0].ratio == _cdp_brute(mech, 0) == 5
    assert c[0].witness == {"x": [0, 1], "x_prime": [1, 1], "R": ["a"]}


# -- Definition 4: witness names its coordinate --------------------------------------------------------

def test_bcdp_vector_witness_names_the_coordinate():
    dom = ProductDomain.binary(2)
    # correlated prior and a kernel depending on both bits
    prior = Prior(dom, (F(3, 8), F(1, 8), F(1, 8), F(3, 8)))
    rows = ((F(3, 4), F(1, 4)), (F(1, 2), F(1, 2)), (F(1, 4), F(3, 4)), (F(1, 8), F(7, 8)))
    mech = Mechanism(dom, ("y0", "y1"), rows)
    deltas = notions.bcdp_vector(mech, prior)
    assert len(deltas) == 2
    for i, dlt in enumerate(deltas):
        assert dlt.ratio == _bcdp_brute(mech, prior, i)
        w = dlt.witness
        assert set(w) == {"coordinate", "S_i", "S_i_prime", "R"}
        assert w["coordinate"] == i
        laws = _laws_by_hand(mech, prior, i)
        m = list(mech.outputs).index(w["R"][0])
        assert _ratio(laws[w["S_i"][0]][m], laws[w["S_i_prime"][0]][m]) == dlt.ratio
    # by hand, i = 0: P(y0 | x_0 = 0) = (3/8*3/4 + 1/8*1/2)/(1/2) = 11/16,
    # P(y0 | x_0 = 1) = (1/8*1/4 + 3/8*1/8)/(1/2) = 5/32: ratio (11/16)/(5/32) = 22/5 (col y0)
    assert deltas[0].ratio == F(22, 5)


def test_bcdp_vector_and_laws_refuse_a_prior_on_another_domain():
    mech = _rr_on_x0()
    other = ProductDomain.binary(3)
    prior = Prior.uniform(other)
    with pytest.raises(InvalidInputError, match=r"^prior and mechanism are defined on different domains$"):
        notions.conditional_output_laws(mech, prior, 0)
    with pytest.raises(InvalidInputError, match=r"^prior and mechanism are defined on different domains$"):
        notions.bcdp_vector(mech, prior)
    small = Prior.uniform(ProductDomain.binary(1))
    with pytest.raises(InvalidInputError, match=r"^prior and mechanism are defined on different domains$"):
        notions.conditional_output_laws(mech, small, 0)
    # same size, other values: still another domain
    renamed = Prior.uniform(ProductDomain((("u", "v"), ("u", "v"))))
    with pytest.raises(InvalidInputError, match=r"^prior and mechanism are defined on different domains$"):
        notions.conditional_output_laws(mech, renamed, 0)


def test_conditional_output_laws_on_the_same_domain():
    mech = _rr_on_x0()
    prior = Prior(mech.domain, (F(1, 2), F(0), F(1, 4), F(1, 4)))
    laws = notions.conditional_output_laws(mech, prior, 0)
    # x_0 = 0: only (0,0) supported: (2/3, 1/3); x_0 = 1: (1/3, 2/3)
    assert laws == {0: (F(2, 3), F(1, 3)), 1: (F(1, 3), F(2, 3))}
    assert {v: list(t) for v, t in laws.items()} == _laws_by_hand(mech, prior, 0)
