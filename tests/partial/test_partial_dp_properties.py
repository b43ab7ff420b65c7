"""Pure partial-DP properties on hypothesis-generated exact mechanisms (the claim checks use enumerated
and seeded instances): Prop. 8 (eps0-nabla0-DP => (d eps0)-DP), group privacy (Hamming-k pairs within
e^{k eps0}), Lemma 10 (attribute-parallel composition: eps0 = max_j eps_j) and Lemma 9 (sequential
composition, per-attribute).  Every engine value is first compared with the literal brute force of
tests/test_partial_dp.py (all event ratios over all pairs), so the properties are tested on values
known to be right."""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp import INFINITY, Mechanism
from bcdp.checks.partial_dp.composition import le, mul, parallel, rmax, sequential
from bcdp.partial.pure import (
    dataset_domain,
    hamming,
    per_attribute_epsilon,
    whole_record_epsilon,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import exact_pmf
from test_partial_dp import brute, event_ratio, one_attribute, one_record

SHAPES = [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)]


def power(r, k):
    return INFINITY if r == INFINITY and k > 0 else (Fraction(1) if k == 0 else Fraction(r) ** k)


@st.composite
def dataset_mechanism(draw, shapes=SHAPES, values=(0, 1), max_outputs=3):
    n, d = draw(st.sampled_from(shapes))
    dom = dataset_domain([values] * d, n)
    m = draw(st.integers(2, max_outputs))
    rows = tuple(draw(exact_pmf(m, allow_tiny=False)) for _ in range(dom.size))
    return n, d, Mechanism(dom, tuple(range(m)), rows)


@settings(max_examples=60, deadline=None)
@given(dataset_mechanism())
def test_prop8_and_group_privacy(inst):
    n, d, mech = inst
    idx = list(range(mech.domain.size))
    eps0 = per_attribute_epsilon(mech, n, d).epsilon.ratio
    whole = whole_record_epsilon(mech, n, d).ratio
    assert eps0 == brute(mech, n, d, idx, one_attribute)
    assert whole == brute(mech, n, d, idx, one_record)
    assert le(whole, power(eps0, d))                          # Prop. 8 (pure)
    assert le(eps0, whole)                                    # eps-DP => eps-nabla0-DP (converse)
    pts = mech.domain.points
    for a, b in itertools.permutations(idx, 2):               # group privacy / Lemma 7 chaining
        assert le(event_ratio(mech.kernel[a], mech.kernel[b], mech.outputs), power(eps0, hamming(pts[a], pts[b])))


@st.composite
def column_mechanisms(draw):
    """d column mechanisms M_j on {0,1}^n (n records' j-th attribute), for Lemma 10."""
    n = draw(st.integers(1, 2))
    d = draw(st.integers(1, 2 if n == 2 else 3))
    cols = []
    for _ in range(d):
        # at most 9 joint outputs: the literal brute force enumerates all 2^outputs events
        m = draw(st.integers(2, 3 if d <= 2 else 2))
        dom = dataset_domain([(0, 1)], n)
        cols.append(Mechanism(dom, tuple(range(m)), tuple(draw(exact_pmf(m, allow_tiny=False))
                                                          for _ in range(dom.size))))
    return n, d, cols


@settings(max_examples=40, deadline=None)
@given(column_mechanisms())
def test_lemma10_parallel_composition(inst):
    n, d, cols = inst
    eps_j = []
    for col in cols:
        e = whole_record_epsilon(col, n, 1).ratio
        assert e == brute(col, n, 1, list(range(col.domain.size)), one_record)
        eps_j.append(e)
    mech = parallel(cols, [(0, 1)] * d, n)
    eps0 = per_attribute_epsilon(mech, n, d).epsilon.ratio
    assert eps0 == brute(mech, n, d, list(range(mech.domain.size)), one_attribute)
    expected = Fraction(1)
    for e in eps_j:
        expected = rmax(expected, e)
    assert eps0 == expected                                    # Lemma 10: exactly the max over columns
    total = Fraction(1)
    for e in eps_j:
        total = mul(total, e)
    assert le(whole_record_epsilon(mech, n, d).ratio, total)   # basic composition for whole records


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_lemma9_sequential_composition(data):
    n, d = data.draw(st.sampled_from([(1, 1), (1, 2), (2, 1)]))
    dom = dataset_domain([(0, 1)] * d, n)
    k1 = data.draw(st.integers(2, 3))
    m1 = Mechanism(dom, tuple(range(k1)), tuple(data.draw(exact_pmf(k1, allow_tiny=False)) for _ in range(dom.size)))
    k2 = data.draw(st.integers(2, 3))
    m2s = [Mechanism(dom, tuple(range(k2)), tuple(data.draw(exact_pmf(k2, allow_tiny=False)) for _ in range(dom.size)))
           for _ in range(k1)]
    e1 = per_attribute_epsilon(m1, n, d).epsilon.ratio
    e2 = Fraction(1)
    for m2 in m2s:
        e2 = rmax(e2, per_attribute_epsilon(m2, n, d).epsilon.ratio)
    bound = mul(e1, e2)
    for joint in (False, True):
        m12 = sequential(m1, m2s, joint)
        e12 = per_attribute_epsilon(m12, n, d).epsilon.ratio
        assert e12 == brute(m12, n, d, list(range(m12.domain.size)), one_attribute)
        assert le(e12, bound)                                  # Lemma 9, per-attribute special case
