"""The objective ``rounding.polish`` hands to SLSQP: F(z) / F(z0) in the scaled coordinates u = z / t0,
a finite barrier where F is infinite.

F is the reduced objective of a piece (BCDP paper, Sec. 4; method in
:mod:`bcdp.bayesian.optimal_allocation`): F(z) = sum_g n_g / S_g, S_g = sum_{h <= g} D_h^2 / N_h,
D_h = z_h - z_{h-1}, infinite when some S_g = 0.  SLSQP cannot line-search on inf, so the objective
it sees is a large finite value (>= 1e300) there.  A spy on ``scipy.optimize.minimize`` (the real solver
still runs) captures the objective; the reference is F in exact Fractions.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
import scipy.optimize
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.rounding import polish

# levels 1/4 (twice), 1/2, 3/4, 1 and q = 1/2: piece j = 2, z = (x_1, x_2, t), n = (2, 1, 2), N = (5, 3, 2)
TILDE = [F(1, 4), F(1, 4), F(1, 2), F(3, 4), F(1)]
N_COUNTS, N_TAIL = [2, 1, 2], [5, 3, 2]


def _F(z) -> F:
    total, S, prev = F(0), F(0), F(0)
    for h in range(3):
        S += (F(z[h]) - prev) ** 2 / N_TAIL[h]
        prev = F(z[h])
        total += N_COUNTS[h] / S
    return total


def test_polish_objective_is_scaled_F_with_a_finite_barrier(monkeypatch):
    calls = []
    real = scipy.optimize.minimize

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(scipy.optimize, "minimize", spy)
    z0 = [0.01, 0.2, 0.5]
    polish(Piece(Instance(TILDE, F(1, 2)), 2), list(z0))
    assert len(calls) == 1
    fun = calls[0][0]
    zs = z0[-1]
    # a feasible point: F(u t0) / F(z0)
    for z in ([0.01, 0.2, 0.5], [0.05, 0.1, 0.6]):
        u = np.array(z) / zs
        assert fun(u) == pytest.approx(float(_F(list(u * zs)) / _F(z0)), rel=1e-12)
    # z = 0: S_1 = 0, F infinite -> a finite barrier
    for u in (np.zeros(3), np.array([0.0, 0.0, 1.0])):
        v = fun(u)
        assert math.isfinite(v) and v >= 1e300
