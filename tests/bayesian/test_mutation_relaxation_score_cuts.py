"""The cut-error term of the branching score of ``relaxation.evaluate`` counts the cut rows only.

BCDP paper (arXiv:2410.18404), Sec. 4, eq. (17), step 3 of :mod:`bcdp.bayesian.optimal_allocation`: for
0 < q < 1 the cuts z_g + a t <= l_g - m linearise the concave constraint z_g + L(t) <= l_g at the middle
of the t-range, and the score of t adds the error of that linearisation weighted by the cut
multipliers.  The chain rows z_{h-1} <= z_h are exact (linear): their multipliers must not change the
score.  A spy on ``scipy.optimize.minimize`` (the real SLSQP runs) gives the last chain row
(x_2 <= t) a positive multiplier; the oracle is invariance: the score equals the one of the unchanged
run, and the multipliers differ only in that row.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import scipy.optimize
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import evaluate

TILDE = [F(1, 4), F(1, 4), F(1, 2), F(3, 4), F(1)]
LO, HI = [0.0, 0.05, 0.5], [0.2, 0.4, 0.75]


def _node(monkeypatch, chain_multiplier: float | None):
    real = scipy.optimize.minimize

    def spy(*args, **kwargs):
        res = real(*args, **kwargs)
        if chain_multiplier is not None:
            res = scipy.optimize.OptimizeResult(dict(res))
            mult = np.array(res["multipliers"], dtype=float)
            mult[1] = chain_multiplier              # rows: x_1 <= x_2, x_2 <= t, then the two cuts
            res["multipliers"] = mult
        return res

    monkeypatch.setattr(scipy.optimize, "minimize", spy)
    node, _ = evaluate(Piece(Instance(TILDE, F(1, 2)), 2), list(LO), list(HI), None, 2.0)
    return node


def test_chain_multipliers_do_not_enter_the_cut_error_of_the_score(monkeypatch):
    base = _node(monkeypatch, None)
    boosted = _node(monkeypatch, 1.0e5)
    assert sum(base.y[2:]) > 0                    # the cut term is present
    assert boosted.y[1] == 2.0e5 and base.y[1] != boosted.y[1]
    assert boosted.y[2:] == base.y[2:] and boosted.z == base.z
    assert boosted.score == pytest.approx(base.score, rel=1e-12)
