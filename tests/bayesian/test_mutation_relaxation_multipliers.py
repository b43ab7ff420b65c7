"""What ``relaxation.evaluate`` keeps from its local solver: the proposal z^ and the multipliers y.

BCDP paper (arXiv:2410.18404), Sec. 4, eq. (17), step 3 of :mod:`bcdp.bayesian.optimal_allocation`:
the bound is valid for any z^ in the box and any y >= 0 (tangent inequality plus weak duality); it is
tight at a KKT point.  The solver works in u in [0, 1]^p with z = lo + (hi - lo) u on R / scale, so
its multipliers, scaled back by ``scale``, are the multipliers y of A z <= b for R (negative values
clipped to 0); with a scipy that returns no multipliers (< 1.15), y comes from the non-negative
least-squares fallback, which must agree with the solver's own KKT multipliers.  The solver's point
is clipped into the box (a local solver may step outside its bounds by rounding).

The tests spy on ``scipy.optimize.minimize`` (the real SLSQP runs) and compare with the solver's own
output (multipliers, an independent computation of the KKT point) and with values worked out by hand;
the gradient handed to the solver is compared with a difference quotient of the relaxation written in
exact Fractions (the chords of D^2, as in test_mutation_relaxation_evaluate.py).

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import scipy.optimize
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import evaluate

# levels 1/4 (twice), 1/2, 3/4, 1: piece j = 2 has z = (x_1, x_2, t), n = (2, 1, 2), N = (5, 3, 2)
TILDE = [F(1, 4), F(1, 4), F(1, 2), F(3, 4), F(1)]
N_COUNTS, N_TAIL = [2, 1, 2], [5, 3, 2]
SCALE = 2.0


def _evaluate(monkeypatch, q: F, lo, hi, alter=None):
    """evaluate() with the real SLSQP behind a spy; ``alter`` may change the result it returns."""
    seen: dict = {}
    real = scipy.optimize.minimize

    def spy(*args, **kwargs):
        res = real(*args, **kwargs)
        seen["res"], seen["args"], seen["kwargs"] = scipy.optimize.OptimizeResult(dict(res)), args, kwargs
        return alter(res) if alter else res

    monkeypatch.setattr(scipy.optimize, "minimize", spy)
    node, _ = evaluate(Piece(Instance(TILDE, q), 2), list(lo), list(hi), None, SCALE)
    return node, seen


@pytest.mark.parametrize("q", [F(1, 2), F(1)])
def test_multipliers_are_the_solvers_scaled_back(monkeypatch, q):
    node, seen = _evaluate(monkeypatch, q, [0.0, 0.05, 0.5], [0.2, 0.4, 0.75])
    mult = seen["res"].multipliers
    assert len(mult) == 4 and max(mult) > 0        # the chain rows and the two cuts; a cut is active
    assert node.y == [max(float(v) * SCALE, 0.0) for v in mult]


def _without_multipliers(res):
    out = scipy.optimize.OptimizeResult(dict(res))
    del out["multipliers"]
    return out


@pytest.mark.parametrize("q", [F(1, 2), F(1)])
def test_without_solver_multipliers_the_fallback_finds_the_kkt_multipliers(monkeypatch, q):
    node, seen = _evaluate(monkeypatch, q, [0.0, 0.05, 0.5], [0.2, 0.4, 0.75], _without_multipliers)
    ref = [max(float(v) * SCALE, 0.0) for v in seen["res"].multipliers]
    assert node.y is not None and len(node.y) == 4 and all(v >= 0 for v in node.y)
    assert node.y == pytest.approx(ref, rel=1e-4, abs=1e-6 * max(ref))


def test_solver_point_outside_its_bounds_is_clipped_into_the_box(monkeypatch):
    lo, hi = [0.1, 0.1, 0.5], [0.2, 0.4, 0.75]

    def outside(res):
        out = scipy.optimize.OptimizeResult(dict(res))
        out["x"] = np.array([-0.25, 1.25, 0.5])
        return out

    node, _ = _evaluate(monkeypatch, F(1, 2), lo, hi, outside)
    # u = (-0.25, 1.25, 0.5) -> z = (0.075, 0.475, 0.625), clipped to (0.1, 0.4, 0.625)
    assert node.z == pytest.approx([0.1, 0.4, 0.625], rel=1e-15)
    assert all(lo[k] <= node.z[k] <= hi[k] for k in range(3))


def _relaxation(lo, hi, z) -> F:
    """R(z) with each D^2 replaced by its chord through (Dmin, Dmin^2) and (Dmax, Dmax^2)."""
    lo, hi, z = ([F(v) for v in w] for w in (lo, hi, z))
    total, T, prev = F(0), F(0), F(0)
    for h in range(3):
        dmin = max(lo[h] - (hi[h - 1] if h else 0), F(0))
        dmax = hi[h] - (lo[h - 1] if h else 0)
        chord = dmin ** 2 + (dmax ** 2 - dmin ** 2) / (dmax - dmin) * (z[h] - prev - dmin)
        T += chord / N_TAIL[h]
        prev = z[h]
        assert T > 0
        total += N_COUNTS[h] / T
    return total


def test_gradient_handed_to_the_solver_is_the_gradient_of_its_objective(monkeypatch):
    lo, hi = [0.0, 0.05, 0.5], [0.2, 0.4, 0.75]
    _, seen = _evaluate(monkeypatch, F(1, 2), lo, hi)
    jac = seen["kwargs"]["jac"]
    w = [F(hi[k]) - F(lo[k]) for k in range(3)]
    h = F(1, 10 ** 7)
    for u in ([F(1, 2)] * 3, [F(1, 4), F(1), F(1, 10)], [F(9, 10), F(3, 10), F(1, 2)]):
        g = np.asarray(jac(np.array([float(v) for v in u])), dtype=float)
        for k in range(3):
            up = [u[i] + (h if i == k else 0) for i in range(3)]
            dn = [u[i] - (h if i == k else 0) for i in range(3)]
            zu = [F(lo[i]) + w[i] * up[i] for i in range(3)]
            zd = [F(lo[i]) + w[i] * dn[i] for i in range(3)]
            # central difference quotient in exact arithmetic: error O(h^2)
            ref = (_relaxation(lo, hi, zu) - _relaxation(lo, hi, zd)) / (2 * h) / F(SCALE)
            assert g[k] == pytest.approx(float(ref), rel=1e-6)
