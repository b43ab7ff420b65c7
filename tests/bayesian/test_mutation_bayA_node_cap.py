"""The default node budget of bcdp.bayesian.optimal_allocation.optimal_allocation is max_nodes = 5000
(its signature): a call without max_nodes must behave exactly like max_nodes=5000.

Independent of the code: on an instance that cannot reach its tolerance (tol = 1e-300, seven
distinct levels 0.1..0.7, q = 0.01) the search stops at the cap; the test first checks that an
explicit max_nodes=5000 run stops on exactly 5000 evaluated nodes (the docstring: "max_nodes caps
the branch-and-bound"), then that the default run evaluates the same number and returns the same
certified bracket and allocation.  A larger default would evaluate more nodes.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

from bcdp.bayesian.optimal_allocation import optimal_allocation

DELTA = [str(Fraction(k, 10)) for k in range(1, 8)]


def test_default_node_budget_is_5000():
    assert inspect.signature(optimal_allocation).parameters["max_nodes"].default == 5000
    explicit = optimal_allocation(DELTA, "2", "0.01", tol=1e-300, max_nodes=5000)
    assert explicit.stats["nodes"] == 5000
    default = optimal_allocation(DELTA, "2", "0.01", tol=1e-300)
    assert default.stats["nodes"] == explicit.stats["nodes"]
    assert default.minimum == explicit.minimum
    assert default.allocation.c == explicit.allocation.c
