"""The number-input policy of bcdp.bayesian: exact functions refuse floats, float twins take them.

For each exact function: a float (and a sympy Float) is refused with FloatRefusedError, an exact
spelling of the same number (string, Fraction) is accepted; for each float twin: floats, ints,
Fractions and numeric strings are accepted and give the same result as the float value, while
booleans and NaN are refused.  Results are compared with independent computations (Fractions,
literal sums), not with the function under test.  Validity conditions are checked just inside and
just outside.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.bayesian import exact_inputs, fast
from bcdp.bayesian.allocation import (
    allocate_budgets,
    mse_objective,
    mse_objective_float,
    stage_weights,
)
from bcdp.bayesian.cdp_to_bcdp import (
    prop4_bcdp_bound,
    prop4_bcdp_bound_float,
    prop4_ldp_bound,
    prop6_matrix,
)
from bcdp.bayesian.highprec import mpf_of
from bcdp.bayesian.hypothesis_testing import (
    all_tests,
    neyman_pearson_curve,
    satisfies_testing_criterion,
)
from bcdp.bayesian.mechanisms import duchi_l2_constant, stage_budgets
from bcdp.bayesian.mechanisms_theory import hemisphere_mean_factor, mse_exact
from bcdp.bayesian.mmean_finite import stage_budgets as hp_stage_budgets
from bcdp.bayesian.notions import total_variation
from bcdp.bayesian.optimal_allocation import optimal_allocation
from bcdp.bayesian.symbolic import corollary1_regime, two_level_objective
from bcdp.bayesian.variants import allocation_exact_strict, allocation_public_code_float
from bcdp.core.errors import (
    FloatRefusedError,
    InvalidInputError,
    ValidityConditionError,
    WrongTypeError,
)

# ------------------------------------------------------------------------------ exact_inputs


def test_exact_inputs_helpers():
    assert exact_inputs.rational("0.1") == sympy.Rational(1, 10)
    assert exact_inputs.rational(Fraction(2, 6)) == sympy.Rational(1, 3)
    assert exact_inputs.exact_expr("1/3") == sympy.Rational(1, 3)
    log3 = sympy.log(3)
    assert exact_inputs.exact_expr(log3) is log3
    assert exact_inputs.exact_expr(sympy.oo) is sympy.oo
    x = sympy.Symbol("x")
    assert exact_inputs.exact_expr(x) is x
    for bad in (0.1, sympy.Float("0.1"), sympy.log(sympy.Float(3)) + 1):
        with pytest.raises(FloatRefusedError):
            exact_inputs.exact_expr(bad)
    with pytest.raises(WrongTypeError):
        exact_inputs.exact_expr(True)
    v = exact_inputs.float_vector(["0.5", Fraction(1, 4), 2, 0.125], "v")
    assert v.dtype == np.float64 and v.tolist() == [0.5, 0.25, 2.0, 0.125]
    assert exact_inputs.float_vector(np.array([1, 2]), "v").tolist() == [1.0, 2.0]
    for bad in ([0.5, True], np.array([True, False]), [0.5, math.nan], np.array([0.5, np.nan]), "0.5"):
        with pytest.raises(InvalidInputError):
            exact_inputs.float_vector(bad, "v")


# ------------------------------------------------------------------------------ allocation


def test_allocation_refuses_floats_everywhere():
    with pytest.raises(FloatRefusedError):
        allocate_budgets(["1/5", "2"], 2.0, "1/2", "1/2")
    with pytest.raises(FloatRefusedError):
        allocate_budgets(["1/5", "2"], 2, "1/2", 0.5)
    with pytest.raises(FloatRefusedError):
        mse_objective([0.1, sympy.Rational(1, 2)])
    with pytest.raises(FloatRefusedError):
        stage_weights([sympy.Float("0.1")])
    # exact spellings of the same numbers are accepted and agree
    a = allocate_budgets(["0.2", "2"], "2", "0.5", "0.5")
    b = allocate_budgets([Fraction(1, 5), 2], 2, Fraction(1, 2), sympy.Rational(1, 2))
    assert a.c == b.c


def test_mse_objective_float_twin_accepts_numbers_and_matches_fractions():
    c = [Fraction(1, 10), Fraction(1, 2), Fraction(3, 4)]
    # eq. (17) sum by hand: S_i = sum_{k<=i} (c_k - c_{k-1})^2 / (d - k + 1)
    s1 = c[0] ** 2 / 3
    s2 = s1 + (c[1] - c[0]) ** 2 / 2
    s3 = s2 + (c[2] - c[1]) ** 2
    expected = 1 / s1 + 1 / s2 + 1 / s3
    assert mse_objective(c) == sympy.Rational(expected.numerator, expected.denominator)
    for spelled in ([0.1, 0.5, 0.75], ["0.1", "1/2", "0.75"], c, np.array([0.1, 0.5, 0.75])):
        assert mse_objective_float(spelled) == pytest.approx(float(expected), rel=1e-13)
    for bad in ([0.1, True, 0.5], [0.1, math.nan, 0.5]):
        with pytest.raises(InvalidInputError):
            mse_objective_float(bad)


def test_zeta_validity_just_inside_and_outside():
    alloc = allocate_budgets(["1/5", "2"], 2, "1/2", 1)  # zeta = 1: inside (0, 1]
    assert alloc.zeta == 1
    with pytest.raises(ValidityConditionError, match="Theorem 2"):
        allocate_budgets(["1/5", "2"], 2, "1/2", Fraction(10 ** 30 + 1, 10 ** 30))
    with pytest.raises(ValidityConditionError):
        allocate_budgets(["1/5", "2"], 2, "1/2", 0)
    assert allocate_budgets(["1/5", "2"], 2, "1/2", Fraction(1, 10 ** 30)).zeta > 0


def test_optimal_allocation_inputs():
    with pytest.raises(FloatRefusedError):
        optimal_allocation([0.2, "2"], "2", "1/2")
    with pytest.raises(FloatRefusedError):
        optimal_allocation(["0.2", "2"], "2", 0.5)
    with pytest.raises(InvalidInputError):
        optimal_allocation(["0.2", "2"], "2", "1/2", tol=True)
    with pytest.raises(InvalidInputError):
        optimal_allocation(["0.2", "2"], "2", "1/2", tol=-1e-9)
    with pytest.raises(InvalidInputError):
        optimal_allocation(["0.2", "2"], "2", "1/2", max_nodes=True)
    # tol is a float solver setting: a string spelling is read as the same float
    a = optimal_allocation(["0.2", "2"], "2", "1/2", tol="1e-9")
    b = optimal_allocation(["0.2", "2"], "2", "1/2", tol=1e-9)
    assert a.to_json() == b.to_json()


def test_variants_policy():
    # the exact strict variant used to read a float zeta through str(); now it is refused
    with pytest.raises(FloatRefusedError):
        allocation_exact_strict(["1/5", "2"], 2, 1, 0.5)
    ex = allocation_exact_strict(["1/5", "2"], 2, 1, "1/2")
    assert ex.zeta == sympy.Rational(1, 2)
    # the public-code float twin: string and Fraction spellings give the float result
    fl = allocation_public_code_float([0.2, 0.2, 2.0], 2.0, 1.0, 1.0)
    assert allocation_public_code_float(["0.2", Fraction(1, 5), "2"], "2", 1, "1") == fl
    with pytest.raises(InvalidInputError):
        allocation_public_code_float([0.2, 2.0], 2.0, True, 1.0)


# ------------------------------------------------------------------------------ Props. 4 and 6


def test_prop4_exact_refuses_floats_and_float_twin_accepts_spellings():
    with pytest.raises(FloatRefusedError):
        prop4_bcdp_bound(["1/2"], ["1/2"], eps=1.5)
    with pytest.raises(FloatRefusedError):
        prop4_bcdp_bound([sympy.Float(0.5)], ["1/2"])
    with pytest.raises(FloatRefusedError):
        prop4_ldp_bound([0.5])
    with pytest.raises(FloatRefusedError):
        prop6_matrix([1.0], ["1/2"])
    # exact: c = (1/2, log 2), q = (1/3, 1/4); part (1): delta_1 = 1/2 + log(1 + (1/3)(2 - 1))
    exact = prop4_bcdp_bound(["1/2", sympy.log(2)], ["1/3", "1/4"])
    assert sympy.simplify(exact[0] - (sympy.Rational(1, 2) + sympy.log(sympy.Rational(4, 3)))) == 0
    ref = [0.5 + math.log1p((1 / 3) * (2 - 1)), math.log(2) + math.log1p(0.25 * math.expm1(0.5))]
    for c, q in (([0.5, math.log(2)], [1 / 3, 0.25]), (["0.5", math.log(2)], [Fraction(1, 3), "0.25"])):
        assert prop4_bcdp_bound_float(c, q) == pytest.approx(ref, rel=1e-14)
    assert prop4_bcdp_bound_float(["0.5"], ["0.25"], eps="1") == pytest.approx(
        [min(0.5 + math.log1p(0.25 * math.expm1(1.0)), 1.0)], rel=1e-14)
    with pytest.raises(InvalidInputError):
        prop4_bcdp_bound_float([0.5], [0.25], eps=True)


# ------------------------------------------------------------------------------ symbolic, theory


def test_symbolic_and_theory_policy():
    with pytest.raises(FloatRefusedError):
        corollary1_regime(0.2, 2, "1/100")
    with pytest.raises(FloatRefusedError):
        two_level_objective(sympy.Float(0.1), 1, 3, 1)
    a, b = sympy.symbols("a b", positive=True)
    assert two_level_objective(a, b, 3, 1) == 3 / a ** 2 + 12 / (2 * a ** 2 + 3 * (b - a) ** 2)
    with pytest.raises(FloatRefusedError):
        mse_exact(3, 0.5, 1, 0)
    with pytest.raises(InvalidInputError):
        mse_exact(3, 1, 1, 0, constant="other")
    assert hemisphere_mean_factor(3) == sympy.Rational(1, 2)  # E|u_1| on S^2 = 1/2
    # Corollary 1 needs eps > 2 delta: just outside (eps = 2 delta) refused, just inside accepted
    with pytest.raises(ValidityConditionError, match="eps > 2 delta"):
        corollary1_regime("1/5", "2/5", "1/100")
    assert corollary1_regime("1/5", Fraction(2, 5) + Fraction(1, 10 ** 30), "1/2") in ("1", "2a", "2b")


# ------------------------------------------------------------------------------ hypothesis testing


def test_testing_functions_refuse_floats():
    with pytest.raises(FloatRefusedError):
        all_tests([0.5, 0.5], ["1/2", "1/2"])
    with pytest.raises(FloatRefusedError):
        neyman_pearson_curve([0.5, 0.5], ["1/2", "1/2"])
    pts = all_tests(["1/4", "3/4"], ["3/4", "1/4"])
    with pytest.raises(FloatRefusedError):
        satisfies_testing_criterion(pts, 0.5)
    with pytest.raises(FloatRefusedError):
        satisfies_testing_criterion(pts, sympy.Float(3))
    with pytest.raises(FloatRefusedError):
        total_variation({0: 0.5, 1: 0.5}, {0: Fraction(1)})
    assert total_variation({0: "1/2", 1: "1/2"}, {0: 1}) == (Fraction(1, 2), [1])


def test_testing_criterion_certified_at_an_irrational_tie():
    # laws (1/4, 3/4) vs (3/4, 1/4): the smallest delta is log 3 (region {0}: (3/4)/(1/4)).
    pts = all_tests(["1/4", "3/4"], ["3/4", "1/4"])
    ratio = max((1 - t.beta) / t.alpha for t in pts if t.alpha > 0)
    assert ratio == 3
    assert satisfies_testing_criterion(pts, sympy.log(3))          # exact tie: holds
    below = sympy.log(3) - sympy.Rational(1, 10 ** 40)              # 1e-40 below the tie
    assert not satisfies_testing_criterion(pts, below)
    assert not satisfies_testing_criterion(pts, below, form="type2")
    with pytest.raises(InvalidInputError):
        satisfies_testing_criterion(pts, 1, form="type3")


# ------------------------------------------------------------------------------ high precision


def test_mpf_of_policy():
    with pytest.raises(FloatRefusedError):
        mpf_of(0.2)
    with pytest.raises(FloatRefusedError):
        mpf_of(sympy.Float("0.2"))
    with pytest.raises(WrongTypeError):
        mpf_of(True)
    with mpmath.workdps(60):
        assert mpf_of("0.2", 60) == mpmath.mpf(1) / 5       # the decimal string is the exact 1/5
        assert mpf_of(sympy.Rational(1, 3), 60) == mpmath.mpf(1) / 3
        ref = mpmath.log(3) / 7
        assert abs(mpf_of(sympy.log(3) / 7, 60) - ref) < mpmath.mpf(10) ** -58
    with pytest.raises(FloatRefusedError):
        hp_stage_budgets([0.1, sympy.log(2)], 60)


# ------------------------------------------------------------------------------ float paths


def test_fast_path_input_policy():
    K = [[Fraction(1, 2), Fraction(1, 2)], ["1/4", "3/4"]]
    Kf = np.array([[0.5, 0.5], [0.25, 0.75]])
    assert fast.ldp_epsilon_fast(K) == fast.ldp_epsilon_fast(Kf)
    assert fast.ldp_epsilon_fast(Kf).value == pytest.approx(math.log(2), rel=1e-15)
    assert fast.bdp_epsilon_fast(Kf, ["1/2", "1/2"]) == fast.bdp_epsilon_fast(Kf, [0.5, 0.5])
    with pytest.raises(WrongTypeError):
        fast.ldp_epsilon_fast(np.array([[True, False], [False, True]]))
    with pytest.raises(InvalidInputError):
        fast.ldp_epsilon_fast(Kf, atol=True)
    with pytest.raises(InvalidInputError):
        fast.ldp_epsilon_fast(Kf, atol=math.nan)
    with pytest.raises(InvalidInputError):
        fast.ldp_epsilon_fast(Kf, atol=-1e-9)
    with pytest.raises(InvalidInputError, match="kernel entry"):
        fast.ldp_epsilon_fast([["1/2", "x"], ["1/4", "3/4"]])
    with pytest.raises(InvalidInputError):
        fast.neyman_pearson_curve_fast([0.5, 0.5], [0.25, 0.75], tie_tol=-1.0)
    with pytest.raises(InvalidInputError):
        fast.cdp_vector_fast(Kf, (True, 2))
    with pytest.raises(InvalidInputError):
        fast.cdp_vector_fast(Kf, 2)
    assert fast.cdp_vector_fast(Kf, [2])[0] == fast.ldp_epsilon_fast(Kf)


def test_samplers_take_float_inputs():
    ref = duchi_l2_constant(3, 1.0, 1.0)
    assert duchi_l2_constant(3, "1", Fraction(1)) == ref
    # B = r (e^a + 1)/(e^a - 1) sqrt(pi) Gamma(2)/Gamma(3/2) = r coth(a/2) * 2 for d = 3
    assert ref == pytest.approx(2 / math.tanh(0.5), rel=1e-14)
    with pytest.raises(WrongTypeError):
        duchi_l2_constant(True, 1.0, 1.0)
    with pytest.raises(WrongTypeError):
        duchi_l2_constant(3.0, 1.0, 1.0)
    with pytest.raises(InvalidInputError):
        duchi_l2_constant(3, math.inf, 1.0)
    assert stage_budgets(["0.1", Fraction(1, 2)]).tolist() == pytest.approx([0.1, 0.4], rel=1e-15)
    with pytest.raises(InvalidInputError):
        stage_budgets([0.1, True])
