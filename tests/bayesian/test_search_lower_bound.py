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
