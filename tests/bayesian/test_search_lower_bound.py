"""stats["search_lower_bound"] of the optimal allocation is the smallest bound over every leaf of the
search (open, pruned or stuck), so it stays a finite lower bound when the search ends by pruning all
of its nodes (it was the bound of the open heap, inf once the heap was empty).

Fig. 3's budgets with eps = 2: at q = 9/10 and 1/2 the searched piece cannot beat piece 0 (F = 2500)
and its root is pruned; its bound must then be finite and at least the certified overall lower bound
2500 (piece 0 is optimal, the exact bracket closes at 2500: Theorem 2's allocation).  At q = 1/10 a
searched point wins and the bound lies below the search's best value.
"""

from __future__ import annotations

import math

import pytest
from bcdp.bayesian.optimal_allocation import optimal_allocation

FIG3 = ["0.2", "0.2", "2", "2", "2", "2", "2", "2", "2", "2"]


@pytest.mark.parametrize("q", ["0.9", "0.5"])
def test_finite_when_every_node_is_pruned(q):
    res = optimal_allocation(FIG3, "2", q)
    assert res.objective_upper == 2500 and res.lower_bound == 2500
    assert math.isfinite(res.stats["search_lower_bound"]) and res.stats["search_lower_bound"] >= 2500


def test_below_the_best_value_when_a_searched_point_wins():
    res = optimal_allocation(FIG3, "2", "0.1")
    assert res.stats["search_lower_bound"] <= res.stats["search_upper_bound"] < 2500


@pytest.mark.parametrize("delta,eps,q,piece0", [(["0.1", "0.5", "1"], "1", "0.2", 900),
                                               (["1", "1", "1", "3"], "2", "0.05", 16)])
def test_finite_when_the_search_prunes_all_of_its_leaves(delta, eps, q, piece0):
    """Instances whose searched pieces are all pruned (no open node at the end): piece 0 is optimal
    (its value d^2/delta_1^2 = 9/0.01 = 900 and 16/1 = 16) and the searched pieces' bound must be a
    finite number at least that value (it was inf)."""
    res = optimal_allocation(delta, eps, q)
    assert res.lower_bound == piece0 == res.objective_upper and res.stats["pieces"] >= 1
    assert math.isfinite(res.stats["search_lower_bound"]) and res.stats["search_lower_bound"] >= piece0
