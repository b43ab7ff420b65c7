"""The record and the JSON of the Theorem 2 allocation (BCDP paper, Sec. 4, eq. (16)-(17)): which term
of eq. (16) decided each budget (``branches``, worked out by hand per case below), the fields of
:class:`~bcdp.bayesian.allocation.BudgetAllocation` and of
:class:`~bcdp.bayesian.optimal_allocation.OptimalAllocation` as the ``bcdp allocate --json`` reader
sees them, the infinite objective (a zero first stage: eq. (17) has 1/0), the cap at d of eq. (17),
and the input policy (the parameter or the undecided comparison named in the one-line error).

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction as F

import pytest
import sympy
from bcdp.bayesian import allocation
from bcdp.bayesian.optimal_allocation import OptimalAllocation
from bcdp.core.errors import FloatRefusedError, InvalidInputError, UndecidedComparison
from bcdp.core.numbers import INFINITY
from bcdp.core.results import Certified

R = sympy.Rational


@pytest.mark.parametrize(("args", "branches"), [
    # q = 0: the log term is +oo, c_d = delta~_d = 9/10 > delta~_1, delta~_2
    ((["1/10", "1/2", "9/10"], 2, 0, "1/2"), ("c_d > delta~_i", "c_d > delta~_i", "c_d (delta_d)")),
    # log term log((e^{1/10} - 7/10)/(3/10)) = 0.3005... < 2 = delta~_d; 1/5 < c_d <= 1
    ((["1/5", "1", "2"], 3, "3/10", "1/2"), ("c_d > delta~_i", "c_d <= delta~_i", "c_d (log-term)")),
    # log term log((e - 9/10)/(1/10)) = 2.90... > 2 = delta~_d
    ((["1", "3/2", "2"], "5/2", "1/10", 1), ("c_d > delta~_i", "c_d > delta~_i", "c_d (delta_d)")),
    # q = zeta = 1: log(e^{1/2}) = 1/2 = delta~_d, a proven tie; then c_d = 1/2 <= delta~_1
    ((["1/2", "1/2"], 1, 1, 1), ("c_d <= delta~_i", "c_d (tie)")),
    # unsorted: the record is in the caller's order
    ((["2", "1/5", "1"], 3, "3/10", "1/2"), ("c_d (log-term)", "c_d > delta~_i", "c_d <= delta~_i")),
])
def test_branches_name_the_term_of_eq16_that_decided(args, branches):
    alloc = allocation.allocate_budgets(*args)
    assert alloc.branches == branches
    assert alloc.method == "theorem2"
    assert alloc.delta == tuple(R(v) for v in args[0]) and alloc.zeta == R(args[3])


def test_the_tie_of_c_d_is_delta_d():
    alloc = allocation.allocate_budgets(["1/2", "1/2"], 1, 1, 1)
    assert alloc.c == (R(1, 2), R(1, 2))


def test_allocate_budgets_names_a_float_zeta():
    with pytest.raises(FloatRefusedError, match=r"^zeta: floats are refused"):
        allocation.allocate_budgets(["1"], 1, 1, 0.5)


def test_undecided_comparisons_name_the_step_of_eq16():
    # demands near 1e-400: the two sides agree beyond the 1000-bit precision of the certified compare
    with pytest.raises(UndecidedComparison, match=r"^cannot decide c_d's min in eq\. \(16\): "):
        allocation.allocate_budgets(["1e-400", "1e-400"], 1, "1/2", "1/2")
    with pytest.raises(UndecidedComparison, match=r"^cannot decide the case split c_d <= delta~_1 of eq\. \(16\): "):
        allocation.allocate_budgets(["1e-310", "1"], 1, "1/2", 1)


def test_min_delta_baseline_record():
    base = allocation.min_delta_baseline(["2", "1/2", "1"], 1)
    assert base.c == (R(1, 2),) * 3 and base.q == 0          # q defaults to 0
    assert base.delta == (2, R(1, 2), 1) and base.eps == 1 and base.zeta is None
    assert base.method == "min-delta-ldp" and base.branches == ("baseline",) * 3
    assert base.order == (1, 2, 0)
    assert allocation.min_delta_baseline(["1"], 1, "1/3").q == R(1, 3)


def test_budget_allocation_json_fields():
    out = json.loads(json.dumps(allocation.allocate_budgets(["2", "1/5", "1"], 3, "3/10", "1/2").to_json(),
                                allow_nan=False))
    assert set(out) == {"method", "delta", "eps", "q", "zeta", "order", "c", "branches", "objective"}
    assert (out["method"], out["delta"], out["eps"], out["q"], out["zeta"]) == ("theorem2", ["2", "1/5", "1"], "3", "3/10", "1/2")
    assert out["order"] == [1, 2, 0]
    assert out["branches"] == ["c_d (log-term)", "c_d > delta~_i", "c_d <= delta~_i"]
    assert out["c"][1] == {"exact": "1/10", "float": 0.1}
    base = allocation.min_delta_baseline(["1/2", "1"], 1).to_json()
    assert base["zeta"] is None and base["branches"] == ["baseline", "baseline"]


def test_infinite_objective_is_written_inf():
    # c = (0, 0): the first stage weight is 0, so eq. (17)'s first term is 1/0
    base = allocation.min_delta_baseline(["0", "1"], 1)
    assert base.objective is sympy.oo
    assert base.to_json()["objective"] == {"exact": "oo", "float": "inf"}


def test_json_float_writes_infinities_as_strings():
    assert allocation.json_float(math.inf) == "inf"
    assert allocation.json_float(-math.inf) == "-inf"
    assert allocation.json_float(0.25) == 0.25


def test_optimal_allocation_json_fields():
    base = allocation.min_delta_baseline(["1/2", "1"], 1)
    opt = OptimalAllocation(base, Certified(F(3, 2), F(2)), "test-solver")
    out = opt.to_json()
    assert {k: out[k] for k in ("objective_upper", "lower_bound", "lower_bound_float", "gap", "solver")} == {
        "objective_upper": "2", "lower_bound": "3/2", "lower_bound_float": 1.5, "gap": 0.25, "solver": "test-solver"}
    assert out["c"] == base.to_json()["c"]
    inf = OptimalAllocation(base, Certified(INFINITY, INFINITY), "test-solver").to_json()
    assert inf["lower_bound"] == "oo" and inf["lower_bound_float"] == "inf" and inf["gap"] == 0.0


def test_mse_bound_eq17_cap_and_input():
    # eq. (17) without its constant: min{(1/n) F(c), d}; c = (0, 1) has F = oo, so the bound is d = 2
    assert allocation.mse_bound_eq17(["0", "1"], 5) == 2
    # c = (1, 1): weights (1/2, 0), F = 2 + 2 = 4: 4/8 below the cap, 4/1 above it
    assert allocation.mse_bound_eq17(["1", "1"], 8) == R(1, 2)
    assert allocation.mse_bound_eq17(["1", "1"], 1) == 2
    with pytest.raises(InvalidInputError, match=r"^n must be positive"):
        allocation.mse_bound_eq17(["1", "1"], 0)
    with pytest.raises(FloatRefusedError, match=r"^n: floats are refused"):
        allocation.mse_bound_eq17(["1", "1"], 2.0)


def test_mse_objective_float_zero_stage_is_inf_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no divide-by-zero on the way to inf
        assert allocation.mse_objective_float([0.0, 1.0]) == math.inf
        assert allocation.mse_objective_float([1.0, 1.0]) == pytest.approx(4.0, rel=1e-15)
    with pytest.raises(InvalidInputError, match=r"^c_sorted\[1\]: NaN"):
        allocation.mse_objective_float([1.0, math.nan])
