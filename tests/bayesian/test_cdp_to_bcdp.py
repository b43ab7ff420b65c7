"""Proposition 4 / 6 functions: exact vs float twin, validation, and the engine as an oracle."""

from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy
from bcdp import bcdp_vector, cdp_vector, coordinate_dependence, ldp_epsilon
from bcdp.bayesian.cdp_to_bcdp import (
    prop4_bcdp_bound,
    prop4_bcdp_bound_float,
    prop4_bound_ratios,
    prop4_ldp_bound,
    prop6_condition_holds,
    prop6_matrix,
)
from bcdp.bayesian.symbolic import (
    corollary1_c,
    corollary1_regime,
    corollary1_threshold,
    prop6_concavity,
)
from bcdp.core.intervals import compare, to_float
from bcdp.core.numbers import INFINITY
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import instance

small = st.fractions(min_value=0, max_value=3, max_denominator=16)
prob = st.fractions(min_value=0, max_value=1, max_denominator=16)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(small, prob), min_size=1, max_size=5), st.one_of(st.none(), small))
def test_prop4_float_twin_matches_mpmath(pairs, eps):
    c = [p[0] for p in pairs]
    q = [p[1] for p in pairs]
    fast = prop4_bcdp_bound_float([float(v) for v in c], [float(v) for v in q],
                                  None if eps is None else float(eps))
    with mpmath.workdps(50):
        for i in range(len(c)):
            ci, qi = mpmath.mpf(c[i].numerator) / c[i].denominator, mpmath.mpf(q[i].numerator) / q[i].denominator
            if eps is None:
                s = sum((mpmath.mpf(c[j].numerator) / c[j].denominator for j in range(len(c)) if j != i), mpmath.mpf(0))
                ref = ci + mpmath.log(1 + qi * mpmath.exp(s) - qi)
            else:
                e = mpmath.mpf(eps.numerator) / eps.denominator
                ref = min(ci + mpmath.log(1 + qi * mpmath.exp(e) - qi), e)
            assert fast[i] == pytest.approx(float(ref), rel=1e-13, abs=1e-15)
    exact = prop4_bcdp_bound(c, q, eps)
    for i in range(len(c)):
        assert to_float(exact[i]) == pytest.approx(fast[i], rel=1e-13, abs=1e-15)


@settings(max_examples=80, deadline=None)
@given(instance(max_size=8, max_outputs=4))
def test_prop4_never_below_exact_bcdp(inst):
    mech, prior = inst
    c = [v.ratio for v in cdp_vector(mech)]
    q = [v.value for v in coordinate_dependence(prior)]
    exact = [v.ratio for v in bcdp_vector(mech, prior)]
    for bound in (prop4_bound_ratios(c, q), prop4_bound_ratios(c, q, ldp_epsilon(mech).ratio)):
        assert all(e <= b for e, b in zip(exact, bound))
    # first claim of part (1): eps_L <= sum c
    total = F(1)
    for r in c:
        total = INFINITY if (r == INFINITY or total == INFINITY) else total * r
    assert ldp_epsilon(mech).ratio <= total


def test_prop4_validation():
    with pytest.raises(ValueError):
        prop4_bcdp_bound(["1/2"], ["3/2"])
    with pytest.raises(ValueError):
        prop4_bcdp_bound(["-1/2"], ["1/2"])
    with pytest.raises(ValueError):
        prop4_bcdp_bound(["1/2", "1"], ["1/2"])
    with pytest.raises(ValueError):
        prop4_bcdp_bound_float([0.5, np.nan], [0.1, 0.1])
    with pytest.raises(ValueError):
        prop4_bcdp_bound_float([0.5], [1.5])
    with pytest.raises(TypeError):
        prop4_bcdp_bound([0.5], ["1/2"])
    assert prop4_ldp_bound(["1/2", "1/3"]) == sympy.Rational(5, 6)


def test_prop4_redundant_copies_sum():
    # q = 1: delta_i = c_i + log(e^{sum_{j != i} c_j}) = sum_j c_j (paper, Sec. 3.4)
    c = [sympy.log(3), sympy.log(2), sympy.Rational(1, 2)]
    for b in prop4_bcdp_bound(c, [1, 1, 1]):
        assert compare(b, sum(c)) == 0


def test_prop6_matrix_entries_and_condition():
    A = prop6_matrix(["1", "2"], ["1/2", "1"])
    assert A[0, 0] == 1 and A[1, 1] == sympy.Rational(1, 2)
    assert compare(A[0, 1], 1 / sympy.log(1 + 2 * (sympy.E - 1))) == 0
    assert compare(A[1, 0], sympy.Rational(1, 2)) == 0  # q = 1: 1/log(e^2) = 1/2
    assert prop6_condition_holds(["1", "2"], ["1/2", "1"], ["1/10", "1/10"])
    assert not prop6_condition_holds(["1", "2"], ["1/2", "1"], ["1", "1"])
    with pytest.raises(ValueError):
        prop6_matrix(["0", "1"], ["1/2", "1/2"])


def test_prop6_concavity_second_derivative_numerically():
    r = prop6_concavity()
    x, delta, q = sympy.symbols("x delta q", positive=True)
    f = sympy.lambdify((x, delta, q), r["second_derivative"], "mpmath")
    with mpmath.workdps(30):
        for xv, dv, qv in [(0.1, 1, 0.3), (0.5, 2, 0.9), (1.9, 2, 0.01)]:
            assert f(xv, dv, qv) <= 0
            g = lambda t: mpmath.log(1 + (mpmath.exp(dv - t) - 1) / qv)
            assert mpmath.diff(g, xv, 2) == pytest.approx(float(f(xv, dv, qv)), rel=1e-10)


def test_corollary1_regimes_and_threshold():
    thr = corollary1_threshold("1/5", 2)
    assert to_float(thr) == pytest.approx((np.exp(0.1) - 1) / (np.exp(2) - 1), rel=1e-14)
    assert corollary1_regime("1/5", 2, "1/100") == "1"
    assert corollary1_regime("1/5", 2, "1/5") == "2a"
    assert corollary1_regime("1/5", 2, "1/2") == "2b"
    with pytest.raises(ValueError):
        corollary1_regime("1", "3/2", "1/2")  # needs eps > 2 delta
    low, high, _ = corollary1_c("1/5", 2, 1, 10, 2)
    assert low == high == sympy.Rational(1, 10)
