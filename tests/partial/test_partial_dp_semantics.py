"""bcdp.partial.semantics (partial DP paper, Props. 26-27) against independent computations."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp import Mechanism, Prior
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY
from bcdp.partial.pure import dataset_domain, per_attribute_epsilon
from bcdp.partial.semantics import (
    blank_dataset,
    cells_of,
    mutual_information,
    posterior_of_cells,
    product_prior,
    prop26_bound,
    prop26_tv,
    prop27_bounds,
    rr_row,
    total_variation,
    xor_rr_counterexample,
    xor_rr_instance,
)
from hypothesis import given, settings
from hypothesis import strategies as st


def rr_one_bit(keep: Fraction) -> Mechanism:
    dom = dataset_domain([(0, 1)], 1)
    return Mechanism(dom, (0, 1), ((keep, 1 - keep), (1 - keep, keep)))


def test_posterior_bayes_by_hand():
    keep = Fraction(3, 4)
    mech = rr_one_bit(keep)
    prior = Prior(mech.domain, (Fraction(1, 3), Fraction(2, 3)))
    post = posterior_of_cells(mech, prior, (0,), 1)
    # P(x=1 | y=1) = (2/3)(3/4) / ((2/3)(3/4) + (1/3)(1/4)) = 6/7
    assert post == {(0,): Fraction(1, 7), (1,): Fraction(6, 7)}
    point = Prior(mech.domain, (Fraction(1), Fraction(0)))
    assert posterior_of_cells(Mechanism(mech.domain, (0, 1), ((1, 0), (0, 1))), point, (0,), 1) is None


def test_total_variation_and_bound():
    assert total_variation({1: Fraction(1, 2), 2: Fraction(1, 2)}, {1: Fraction(1)}) == Fraction(1, 2)
    assert prop26_bound(Fraction(3, 2), 2) == Fraction(81, 16) - 1
    assert prop26_bound(INFINITY, 1) == INFINITY
    with pytest.raises(InvalidInputError):
        prop26_bound(Fraction(1, 2), 1)


@st.composite
def mech_and_prior(draw):
    n, d = draw(st.sampled_from([(1, 2), (2, 1), (2, 2)]))
    dom = dataset_domain([(0, 1)] * d, n)
    n_out = draw(st.integers(2, 3))
    rows = []
    for _ in dom.points:
        w = draw(st.lists(st.integers(1, 6), min_size=n_out, max_size=n_out))
        rows.append(tuple(Fraction(v, sum(w)) for v in w))
    pw = draw(st.lists(st.integers(0, 5), min_size=dom.size, max_size=dom.size))
    if not any(pw):
        pw[0] = 1
    prior = Prior(dom, tuple(Fraction(v, sum(pw)) for v in pw))
    return Mechanism(dom, tuple(range(n_out)), tuple(rows)), prior, n, d


@settings(max_examples=40, deadline=None)
@given(mech_and_prior())
def test_prop26_attribute_blanking_holds_for_any_prior(arg):
    """[KS14]: X and X with s-attributes of record i blanked differ in |s| attributes of one record."""
    mech, prior, n, d = arg
    ratio = per_attribute_epsilon(mech, n, d).epsilon.ratio
    for i in range(n):
        for size in range(1, d + 1):
            for s in itertools.combinations(range(d), size):
                for y in mech.outputs:
                    for blank in itertools.product((0, 1), repeat=d):
                        tv = prop26_tv(mech, prior, n, d, i, s, y, blank, "attributes")
                        if tv is not None:
                            assert tv <= prop26_bound(ratio, len(s))


@settings(max_examples=25, deadline=None)
@given(mech_and_prior(), st.data())
def test_prop26_record_blanking_with_independent_target(arg, data):
    mech, _, n, d = arg
    i = data.draw(st.integers(0, n - 1))
    s = (0,)
    target = cells_of(i, s, n, d)
    a = data.draw(st.lists(st.integers(1, 5), min_size=2, max_size=2))
    rest = data.draw(st.lists(st.integers(0, 5), min_size=2 ** (n * d - 1), max_size=2 ** (n * d - 1)))
    if not any(rest):
        rest[0] = 1
    others = [c for c in range(n * d) if c not in target]
    rest_keys = list(itertools.product((0, 1), repeat=len(others)))
    pmf = []
    for p in mech.domain.points:
        pa = Fraction(a[p[target[0]]], sum(a))
        pr = Fraction(rest[rest_keys.index(tuple(p[c] for c in others))], sum(rest))
        pmf.append(pa * pr)
    prior = Prior(mech.domain, tuple(pmf))
    ratio = per_attribute_epsilon(mech, n, d).epsilon.ratio
    for y in mech.outputs:
        for blank in itertools.product((0, 1), repeat=d):
            tv = prop26_tv(mech, prior, n, d, i, s, y, blank, "record")
            if tv is not None:
                assert tv <= ratio - 1 <= prop26_bound(ratio, 1)  # even e^{|s| eps} - 1


def test_xor_rr_closed_form_matches_engine_and_sympy():
    r = Fraction(11, 10)
    for m in (1, 2):
        mech, prior, n, d = xor_rr_instance(m, r)
        assert per_attribute_epsilon(mech, n, d).epsilon.ratio == r
        engine = prop26_tv(mech, prior, n, d, 0, (0,), (1,) * m, (0,) * d, "record")
        assert engine == xor_rr_counterexample(m, r)["tv"]
    R, M = sympy.symbols("r m", positive=True)
    for m in (3, 5, 6):
        closed = xor_rr_counterexample(m, r)["tv"]
        assert sympy.Rational(closed.numerator, closed.denominator) == ((R ** m - 1) / (R ** m + 1)).subs(R, sympy.Rational(11, 10))
    assert xor_rr_counterexample(5, r)["tv"] > prop26_bound(r, 1)
    assert xor_rr_counterexample(4, r)["tv"] < prop26_bound(r, 1)


def test_rr_row_closed_form():
    """keep^(#agreeing bits) (1 - keep)^(#differing bits) for every output, summing to 1."""
    keep, bits = Fraction(3, 4), (1, 0, 1)
    outs = tuple(itertools.product((0, 1), repeat=3))
    row = rr_row(bits, outs, keep)
    agree = [sum(b == y for b, y in zip(bits, out)) for out in outs]
    assert row == tuple(keep ** a * (1 - keep) ** (3 - a) for a in agree)
    assert sum(row) == 1 and rr_row((), ((),), keep) == (Fraction(1),)


def test_blank_dataset_modes():
    p = (1, 1, 0, 1)
    assert blank_dataset(p, 2, 2, 1, (0,), (0, 0), "record") == (1, 1, 0, 0)
    assert blank_dataset(p, 2, 2, 0, (1,), (0, 0), "attributes") == (1, 0, 0, 1)
    with pytest.raises(InvalidInputError):
        blank_dataset(p, 2, 2, 0, (1,), (0, 0), "removed")
    with pytest.raises(InvalidInputError):
        cells_of(2, (0,), 2, 2)


def test_mutual_information_closed_forms():
    keep = Fraction(3, 4)
    mech = rr_one_bit(keep)
    prior = Prior(mech.domain, (Fraction(1, 2), Fraction(1, 2)))
    with mpmath.workdps(60):
        p = mpmath.mpf(3) / 4
        expected = mpmath.log(2) + p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)  # ln 2 - h(p)
        assert abs(mutual_information(mech, prior, (0,)) - expected) < mpmath.mpf(10) ** -45
    const = Mechanism(mech.domain, (0, 1), ((Fraction(1, 3), Fraction(2, 3)),) * 2)
    assert mutual_information(const, prior, (0,)) == 0
    with pytest.raises(InvalidInputError):
        mutual_information(mech, prior, (0,), digits=20)


def test_prop27_bounds_values():
    """Prop. 27 (partial DP paper, Sec. 7.1): I(X_{i,s_j}; M(X)) <= eps^2 |s_j|^2 / 2 per block and
    I(X_i; M(X)) <= eps^2 sum_j |s_j|^2 / 2.  With e^eps = 3 and blocks |s_1| = 1, |s_2| = 2:
    per block eps^2 / 2 and eps^2 * 4/2 = 2 eps^2; record eps^2 (1 + 4)/2 = 5 eps^2/2."""
    per, rec = prop27_bounds(Fraction(3), [1, 2])
    with mpmath.workdps(60):
        e = mpmath.log(3)
        assert abs(per[0] - e ** 2 * 1 ** 2 / 2) < mpmath.mpf(10) ** -45
        assert abs(per[1] - e ** 2 * 2 ** 2 / 2) < mpmath.mpf(10) ** -45                # = 2 eps^2
        assert abs(rec - e ** 2 * (1 ** 2 + 2 ** 2) / 2) < mpmath.mpf(10) ** -45       # = 5 eps^2 / 2


def test_product_prior_independent_records():
    prior = product_prior(2, 1, {(0,): Fraction(1, 4), (1,): Fraction(3, 4)})
    assert prior.pmf == (Fraction(1, 16), Fraction(3, 16), Fraction(3, 16), Fraction(9, 16))
    with pytest.raises(InvalidInputError):
        product_prior(2, 1, {(0,): Fraction(1, 4)})
