"""The returned fields of bcdp.bayesian.optimal_allocation.optimal_allocation: the allocation's
eps, q and branch labels, the certified bracket (Certified.exact, the rounded-down lower bound),
the method and the solver diagnostics in ``stats``.

Independent of the code: levels/counts are recomputed here from the input, branch labels are
compared with Theorem 2's labels (bcdp.bayesian.allocation.allocate_budgets, a separate code path)
where the two allocations coincide, piece-0 values d^2/l_1^2 are worked out by hand, the number of
searched pieces follows the module docstring (q = 1: every piece j >= 1 empty; q = 0: only
t = l_m searched), and the timing is bracketed by a clock read in the test.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from fractions import Fraction

import sympy
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.bayesian.optimal_allocation import METHOD, optimal_allocation

FIG3 = ["0.2", "0.2"] + ["2"] * 8
# the same demands in a shuffled caller order (branches must follow the caller's coordinates)
SHUFFLED = ["2", "0.2", "2", "2", "2", "0.2", "2", "2", "2", "2"]


def _levels_counts(delta, eps):
    tilde = [min(Fraction(v), Fraction(eps)) for v in delta]
    cnt = Counter(tilde)
    levels = sorted(cnt)
    return [str(v) for v in levels], [cnt[v] for v in levels]


def test_allocation_carries_eps_q_and_method():
    res = optimal_allocation(FIG3, "2", "0.1")
    assert res.allocation.eps == 2
    assert res.allocation.q == sympy.Rational(1, 10)
    assert res.allocation.method == "optimal"
    assert res.method == METHOD
    assert res.to_json()["solver"] == METHOD
    assert "branch-and-bound" in METHOD


def test_branch_labels_match_theorem2_where_the_allocations_coincide():
    # q = 0: the optimum is Theorem 2's allocation (c_d = delta~_d = 2); every coordinate but the
    # last one carries Theorem 2's label, including the ties c_d = 2 = delta~_i ("<=")
    for delta in (FIG3, SHUFFLED):
        res = optimal_allocation(delta, "2", 0)
        th = allocate_budgets(delta, "2", 0, "1/2")
        assert res.allocation.c == th.c
        last = th.order[-1]
        assert len(res.allocation.branches) == len(delta)
        for i in range(len(delta)):
            if i != last:
                assert res.allocation.branches[i] == th.branches[i], i
        # the largest coordinate: c_d <= delta~_d always (t <= delta~_d is a constraint)
        assert res.allocation.branches[last] == "c_d <= delta~_i"
        assert sorted(res.allocation.branches).count("c_d > delta~_i") == 2


def test_branch_labels_follow_their_definition():
    # label i is "c_d <= delta~_i" iff c_d <= min(delta_i, eps), in the caller's order
    for q in ("0.1", "1"):
        res = optimal_allocation(SHUFFLED, "2", q)
        cd = max(res.allocation.c)
        for i, v in enumerate(SHUFFLED):
            dt = min(Fraction(v), Fraction(2))
            want = "c_d <= delta~_i" if cd <= sympy.Rational(dt.numerator, dt.denominator) else "c_d > delta~_i"
            assert res.allocation.branches[i] == want, (q, i)


def test_exact_only_when_the_bracket_closes():
    res = optimal_allocation(FIG3, "2", "0.1")
    assert res.lower_bound < res.objective_upper
    assert res.minimum.exact is None
    # q = 1: piece 0 is optimal, F = 10^2 / (1/5)^2 = 2500 on both ends
    res = optimal_allocation(FIG3, "2", 1)
    assert res.minimum.lower == res.minimum.upper == 2500
    assert res.minimum.exact == 2500


def test_lower_bound_is_rounded_down_to_a_short_decimal():
    # step 4 of the module docstring: the minimum of the exact leaf bounds, rounded down; the
    # exact leaf bounds are rationals with ~100-digit denominators, the reported bound is a decimal
    for q in ("0.1", "0", "0.01"):
        res = optimal_allocation(FIG3, "2", q)
        low = Fraction(int(res.lower_bound.p), int(res.lower_bound.q))
        den = low.denominator
        while den % 2 == 0:
            den //= 2
        while den % 5 == 0:
            den //= 5
        assert den == 1, (q, low)
        assert len(str(low.numerator)) <= 20, (q, low)
        assert low <= Fraction(int(res.objective_upper.p), int(res.objective_upper.q))


def test_stats_when_piece0_is_optimal():
    # q = 1: every piece j >= 1 is certified empty (module docstring, step 2); m = 2 levels
    res = optimal_allocation(FIG3, "2", 1)
    levels, counts = _levels_counts(FIG3, "2")
    assert res.stats["levels"] == levels == ["1/5", "2"]
    assert res.stats["counts"] == counts == [2, 8]
    assert res.stats["pieces"] == 0
    assert res.stats["pieces_certified_empty"] == 1
    assert res.stats["nodes"] == 0 and res.stats["leaves"] == 0
    assert res.stats["search_lower_bound"] == math.inf
    assert res.stats["search_upper_bound"] == 2500.0
    assert res.stats["rounded_point_certified"] is None
    assert res.stats["t"] == "1/5"
    # q = 9/10: piece 1 is searched but nothing beats piece 0 (F = 2500, the bracket closes):
    # the search's best value stays 2500 and no rounded point is made
    res = optimal_allocation(FIG3, "2", "0.9")
    assert res.objective_upper == 2500 and res.lower_bound == 2500
    assert all(v == sympy.Rational(1, 5) for v in res.allocation.c)
    assert res.stats["pieces"] == 1 and res.stats["nodes"] >= 1
    assert res.stats["search_upper_bound"] == 2500.0
    assert res.stats["rounded_point_certified"] is None
    assert res.stats["t"] == "1/5"


def test_stats_when_a_searched_piece_wins():
    start = time.perf_counter()
    res = optimal_allocation(FIG3, "2", "0.1")
    elapsed = time.perf_counter() - start
    assert 0 <= res.stats["seconds"] <= elapsed
    # q = 1/10 beats Theorem 2 and piece 0 (2500): the winner is a rounded point of piece 1
    assert res.objective_upper < 2500
    assert res.stats["rounded_point_certified"] is True
    assert res.stats["t"] == str(max(res.allocation.c))
    assert Fraction(res.stats["t"]) == Fraction(str(res.allocation.c_sorted[-1]))
    assert res.stats["pieces"] == 1 and res.stats["pieces_certified_empty"] == 0
    assert 1 <= res.stats["nodes"] <= 5001
    assert 1 <= res.stats["leaves"] <= res.stats["nodes"]
    up = float(res.objective_upper)
    assert res.stats["search_lower_bound"] <= res.stats["search_upper_bound"] < 2500.0
    assert abs(res.stats["search_upper_bound"] - up) <= 1e-9 * up
    # q = 0 with m = 3 levels: only t = l_m (piece m - 1 = 2) is searched, piece 1 is dominated
    res = optimal_allocation(["0.1", "0.5", "1"], "1", 0)
    assert res.stats["levels"] == ["1/10", "1/2", "1"]
    assert res.stats["counts"] == [1, 1, 1]
    assert res.stats["pieces"] == 1 and res.stats["pieces_certified_empty"] == 1
    assert res.stats["t"] == "1"


def test_note_when_the_objective_is_infinite():
    res = optimal_allocation(["0", "1", "2"], "2", "0.1")
    assert res.stats["note"] == "delta~_1 = 0: objective is infinite"
    assert res.stats["levels"] == ["0", "1", "2"]
    assert res.stats["counts"] == [1, 1, 1]
    assert res.stats["seconds"] >= 0
