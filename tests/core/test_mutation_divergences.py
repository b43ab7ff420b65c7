"""bcdp.core.divergences at its edges: orders near 1 and the spellings of infinity, the input checks
of the high-precision and float forms (and the parameter each error names), zeros in P, supports
that differ, and the shapes of the vectorised float twins.  The tests that kill the survivors of the
mutmut gate (docs/testing.md, "The mutation gate") in this module.

References are independent: mpmath at 100+ digits written here from the printed formulas (Renyi
1961; Mironov 2017, Def. 3; partial DP paper, Def. 2)

    D_a(P||Q) = 1/(a-1) log sum_{P(y)>0} P(y)^a Q(y)^(1-a),   KL(P||Q) = sum_{P(y)>0} P log(P/Q),
    H_r(P||Q) = sum_y max(0, P(y) - r Q(y)),

and values worked out by hand in the comments."""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy

from bcdp.core.divergences import (hockey_stick, hockey_stick_exact, hockey_stick_float, kl_divergence_exact,
                                   kl_divergence_float, renyi_divergence, renyi_divergence_float)
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.core.numbers import INFINITY

P3 = (F(1, 3), F(2, 3))
Q3 = (F(1, 2), F(1, 2))


def mp(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def renyi_ref(P, Q, a: F) -> mpmath.mpf:
    """The printed formula at the current mpmath precision (supp P in supp Q here)."""
    am = mp(a)
    total = mpmath.fsum(mp(p) ** am * mp(q) ** (1 - am) for p, q in zip(P, Q) if p > 0)
    return mpmath.log(total) / (am - 1)


# -- renyi_divergence near order 1 ---------------------------------------------------------------------

@pytest.mark.parametrize("k", [20, 40, 60, 70, 200])
@pytest.mark.parametrize("side", [1, -1])
def test_renyi_divergence_near_order_one_keeps_its_precision(k, side):
    """Regression: an order a = 1 +- 10^-k lost k digits (K(a) = O(a - 1) and a - 1 were computed
    at dps + 15 digits from terms of size 1): at dps = 50 the value had ~35 correct digits for
    k = 20, 5 for k = 60, 1 for k = 64, and for k >= 66 the order rounded to exactly 1 and the
    call crashed with ZeroDivisionError (an internal error on a valid input)."""
    a = 1 + side * F(1, 10 ** k)
    with mpmath.workdps(k + 120):
        ref = renyi_ref(P3, Q3, a)
        for order in (a, f"{a.numerator}/{a.denominator}", mp(a)):
            got = renyi_divergence(P3, Q3, order, dps=50)
            assert abs(got - ref) <= mpmath.mpf(10) ** -48 * ref, (k, side, type(order))


def test_renyi_divergence_near_order_one_with_zeros_and_a_below_one():
    # a zero in Q where P is zero too (no contribution), order just below 1 (the (0, 1) branch)
    P, Q = (F(1, 4), F(3, 4), F(0)), (F(1, 2), F(1, 3), F(1, 6))
    for a in (1 - F(1, 10 ** 80), 1 + F(1, 10 ** 80), F(1, 2), F(3, 2)):
        with mpmath.workdps(250):
            ref = renyi_ref(P, Q, a)
            assert abs(renyi_divergence(P, Q, a, dps=60) - ref) <= mpmath.mpf(10) ** -58 * abs(ref), a


# -- orders: spellings of infinity, mpf orders, names in messages ------------------------------------

def test_infinite_order_spellings_all_give_d_infinity():
    # D_inf(P3||Q3) = log max(P/Q) = log((2/3)/(1/2)) = log(4/3)
    with mpmath.workdps(80):
        ref = mpmath.log(mpmath.mpf(4) / 3)
    for order in (INFINITY, math.inf, "inf", " INF ", "oo", "OO", " Oo "):
        got = renyi_divergence(P3, Q3, order, dps=60)
        assert abs(got - ref) <= mpmath.mpf(10) ** -58, order
    assert renyi_divergence((F(1), F(0)), (F(0), F(1)), "oo") == INFINITY


def test_mpf_orders_are_checked_like_exact_ones():
    with mpmath.workdps(80):
        ref = renyi_ref(P3, Q3, F(3, 2))
    assert abs(renyi_divergence(P3, Q3, mpmath.mpf(3) / 2, dps=60) - ref) <= mpmath.mpf(10) ** -58
    for bad in (mpmath.mpf(0), mpmath.mpf(-1), mpmath.mpf("nan"), mpmath.mpf("-inf")):
        with pytest.raises(InvalidInputError, match=r"Renyi order must be in \(0, inf\]"):
            renyi_divergence(P3, Q3, bad)
    for bad in (0, "0", F(-1, 2), "-inf"):
        with pytest.raises(InvalidInputError):
            renyi_divergence(P3, Q3, bad)


def test_order_errors_name_the_order():
    with pytest.raises(InvalidInputError, match=r"^order: cannot read 'abc'"):
        renyi_divergence(P3, Q3, "abc")
    with pytest.raises(FloatRefusedError, match=r"^order: floats are refused"):
        renyi_divergence(P3, Q3, 1.5)


# -- hockey stick ----------------------------------------------------------------------------------

def test_hockey_stick_with_mpf_eps_and_refused_eps():
    # H_{e^eps}(P3||Q3) = max(0, 2/3 - e^eps/2) for 0 <= eps < log(4/3) (the first output gives 0)
    with mpmath.workdps(100):
        eps = mpmath.mpf(1) / 7
        ref = mp(F(2, 3)) - mpmath.exp(eps) / 2
        got = hockey_stick(P3, Q3, eps, dps=60)
        assert abs(got - ref) <= mpmath.mpf(10) ** -58
        assert abs(hockey_stick(P3, Q3, "1/7", dps=60) - ref) <= mpmath.mpf(10) ** -58
        tv = hockey_stick(P3, Q3, 0, dps=60)                     # total variation: 2/3 - 1/2
        assert abs(tv - mpmath.mpf(1) / 6) <= mpmath.mpf(10) ** -58
    for bad in ("-1/2", -1, mpmath.mpf("-0.5"), mpmath.mpf("nan"), mpmath.mpf("inf")):
        with pytest.raises(InvalidInputError, match="eps must be a finite real >= 0"):
            hockey_stick(P3, Q3, bad)
    with pytest.raises(InvalidInputError, match=r"^eps: cannot read 'x'"):
        hockey_stick(P3, Q3, "x")


def test_hockey_stick_exact_names_the_ratio():
    assert hockey_stick_exact(P3, Q3, F(1)) == F(1, 6)
    with pytest.raises(InvalidInputError, match=r"^ratio: cannot read 'e'"):
        hockey_stick_exact(P3, Q3, "e")
    with pytest.raises(FloatRefusedError, match=r"^ratio: floats are refused"):
        hockey_stick_exact(P3, Q3, 1.0)


# -- exact KL with zeros in P ---------------------------------------------------------------------------

def test_kl_exact_skips_outputs_with_p_zero():
    # KL((0, 1) || (1/2, 1/2)) = 1 log 2; KL((0, 1/2, 1/2) || (1/3, 1/3, 1/3)) = log(3/2); by hand
    assert sympy.simplify(kl_divergence_exact([0, 1], ["1/2", "1/2"]) - sympy.log(2)) == 0
    got = kl_divergence_exact([0, "1/2", "1/2"], ["1/3", "1/3", "1/3"])
    assert got.is_finite and sympy.simplify(got - sympy.log(sympy.Rational(3, 2))) == 0
    # P zero where Q is zero too: the common zero contributes nothing
    assert sympy.simplify(kl_divergence_exact([0, 1], [0, 1])) == 0


# -- float twins: inputs --------------------------------------------------------------------------------

def test_float_pair_refuses_bad_shapes_and_negative_entries():
    good = [0.5, 0.5]
    for P, Q in (([0.5, 0.5], [0.2, 0.3, 0.5]),          # lengths differ
                 ([[0.5, 0.5]], [[0.5, 0.5]]),            # 2-d, one shape
                 ([], []),                                # empty
                 ([1.5, -0.5], good), (good, [1.5, -0.5]),  # a negative entry on one side only
                 ([np.inf, 0.5], good), (good, [0.5, np.nan])):
        with pytest.raises(InvalidInputError):
            renyi_divergence_float(P, Q, 2.0)
        with pytest.raises(InvalidInputError):
            hockey_stick_float(P, Q, 0.5)
    assert renyi_divergence_float([1.0], [1.0], 2.0) == 0.0         # one output: P = Q
    assert hockey_stick_float([1.0], [1.0], 0.0) == 0.0


def test_float_twins_take_fraction_and_string_orders():
    # D_{3/2}((1/3, 2/3) || (1/2, 1/2)) = 2 log((1/3)^(3/2) 2^(1/2) + (2/3)^(3/2) 2^(1/2))
    with mpmath.workdps(50):
        ref = float(renyi_ref(P3, Q3, F(3, 2)))
    p, q = [1 / 3, 2 / 3], [0.5, 0.5]
    for order in (F(3, 2), "1.5", 1.5, np.float64(1.5)):
        assert abs(renyi_divergence_float(p, q, order) - ref) <= 1e-14, order
    with mpmath.workdps(50):
        h = float(mp(F(2, 3)) - mpmath.exp(mpmath.mpf(1) / 8) / 2)
    for eps in (F(1, 8), "0.125", 0.125):
        assert abs(hockey_stick_float(p, q, eps) - h) <= 1e-15, eps


def test_float_twins_refuse_orders_and_eps_out_of_range():
    p, q = [1 / 3, 2 / 3], [0.5, 0.5]
    for bad in (0.0, -1.0, np.nan, [2.0, 0.0]):
        with pytest.raises(InvalidInputError, match="orders must be in"):
            renyi_divergence_float(p, q, bad)
    for bad in (-0.5, np.nan, [0.5, -1e-300]):
        with pytest.raises(InvalidInputError, match="eps must be >= 0"):
            hockey_stick_float(p, q, bad)
    # eps = 0 is allowed: total variation distance, 2/3 - 1/2
    assert abs(hockey_stick_float(p, q, 0.0) - 1 / 6) <= 1e-16


# -- float twins: supports -------------------------------------------------------------------------------

def test_renyi_float_common_zero_outputs_are_skipped():
    # P = (1/2, 1/2, 0), Q = (1/4, 3/4, 0): the third output is charged by neither law
    P, Q = (F(1, 2), F(1, 2), F(0)), (F(1, 4), F(3, 4), F(0))
    orders = [F(1, 2), 1, 2, math.inf]
    got = renyi_divergence_float([0.5, 0.5, 0.0], [0.25, 0.75, 0.0], [float(a) for a in orders])
    with mpmath.workdps(60):
        kl = mpmath.fsum(mp(p) * mpmath.log(mp(p) / mp(q)) for p, q in zip(P, Q) if p > 0)
        want = [renyi_ref(P, Q, F(1, 2)), kl, renyi_ref(P, Q, F(2)), mpmath.log(2)]   # max P/Q = 2
    assert all(math.isfinite(g) for g in got)
    for g, w in zip(got, want):
        assert abs(g - float(w)) <= 1e-14


def test_kl_float_with_p_zero_where_q_is_positive():
    # KL((0, 1) || (1/2, 1/2)) = log 2; the first output contributes 0, not 0 * log 0
    assert abs(kl_divergence_float([0.0, 1.0], [0.5, 0.5]) - math.log(2)) <= 1e-15
    got = renyi_divergence_float([0.0, 1.0], [0.5, 0.5], [0.5, 1.0, 2.0, np.inf])
    # every order gives log 2 here: P is a point mass at an output of Q-probability 1/2
    assert np.all(np.abs(got - math.log(2)) <= 1e-15)


def test_renyi_float_infinite_support_gives_inf_at_every_order_from_one():
    # P = (1/2, 1/2), Q = (1, 0): D_a = inf for a >= 1 (P charges an output Q does not);
    # D_{1/2} = -2 log sum sqrt(P Q) = -2 log sqrt(1/2) = log 2
    got = renyi_divergence_float([0.5, 0.5], [1.0, 0.0], [0.5, 1.0, 1.5, 2.0, 7.0, np.inf])
    assert abs(got[0] - math.log(2)) <= 1e-15
    assert list(got[1:]) == [math.inf] * 5
    for order in (1.0, 3.0, np.inf):
        assert renyi_divergence_float([0.5, 0.5], [1.0, 0.0], order) == math.inf
    # disjoint supports: infinite at every order, (0, 1) included
    assert list(renyi_divergence_float([1.0, 0.0], [0.0, 1.0], [0.5, 2.0])) == [math.inf, math.inf]


def test_float_twins_return_a_float_for_a_scalar_and_an_array_for_a_vector():
    p, q = [1 / 3, 2 / 3], [0.5, 0.5]
    one = hockey_stick_float(p, q, 0.0)
    assert type(one) is float
    many = hockey_stick_float(p, q, [0.0, 0.125, 1.0])
    assert isinstance(many, np.ndarray) and many.shape == (3,)
    with mpmath.workdps(50):
        want = [1 / 6, float(mp(F(2, 3)) - mpmath.exp(mpmath.mpf(1) / 8) / 2), 0.0]   # log(4/3) < 1
    assert all(abs(g - w) <= 1e-15 for g, w in zip(many, want))
    assert type(renyi_divergence_float(p, q, 2.0)) is float
    vec = renyi_divergence_float(p, q, [2.0])
    assert isinstance(vec, np.ndarray) and vec.shape == (1,)
