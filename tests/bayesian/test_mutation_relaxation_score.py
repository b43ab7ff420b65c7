"""The node ``relaxation.evaluate`` returns: its bound and its branching score.

BCDP paper (arXiv:2410.18404), Sec. 4, eq. (17), step 3 of :mod:`bcdp.bayesian.optimal_allocation`.
The node's bound is the better of two valid lower bounds on the box: the crude bound
sum_g n_g / sum_{h <= g} Dmax_h^2 / N_h and the relaxation bound at the solver's proposal (if the
relaxation is finite there); if the solver fails, only the crude bound and no proposal.  The branching
score of coordinate k is the secant width times the sensitivity of R to the secants it bounds (the
comment in ``evaluate``):

    score_k = G_k w_k (w_k + w_{k-1}) + G_{k+1} w_k (w_k + w_{k+1}),   G_h = -dR/dsigma_h at z^,

with w the box widths (w_0 = 0 before the first, no G_{p+1} term after the last), plus, for
0 < q < 1, the cut error on t, (sum of the cut multipliers) L''(t_mid) w_t^2 / 8; the box widths when R
is not finite at z^.  Oracles: G as an exact central difference quotient of R in Fractions with
respect to each secant value (not the closed form), L'' by mpmath at 50 digits, the crude bound in
Fractions, z^ fixed by a spy on ``scipy.optimize.minimize`` that replaces the solver's point.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath as mp
import numpy as np
import pytest
import scipy.optimize
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import evaluate

# levels 1/4 (twice), 1/2, 3/4, 1: piece j = 2 has z = (x_1, x_2, t), n = (2, 1, 2), N = (5, 3, 2)
TILDE = [F(1, 4), F(1, 4), F(1, 2), F(3, 4), F(1)]
N_COUNTS, N_TAIL = [2, 1, 2], [5, 3, 2]
LO, HI = [0.0, 0.05, 0.5], [0.2, 0.4, 0.75]


def _evaluate(monkeypatch, q: F, u=None, fail: bool = False):
    def spy(*args, **kwargs):
        if fail:
            raise ValueError("solver failure")
        res = real(*args, **kwargs)
        if u is not None:
            res = scipy.optimize.OptimizeResult(dict(res))
            res["x"] = np.array(u, dtype=float)
        return res

    real = scipy.optimize.minimize
    monkeypatch.setattr(scipy.optimize, "minimize", spy)
    return evaluate(Piece(Instance(TILDE, q), 2), list(LO), list(HI), None, 2.0)


def _secants(z):
    """sigma_h(D_h): the chord of D^2 through (Dmin, Dmin^2), (Dmax, Dmax^2)."""
    lo, hi = [F(v) for v in LO], [F(v) for v in HI]
    out, prev = [], F(0)
    for h in range(3):
        dmin = max(lo[h] - (hi[h - 1] if h else 0), F(0))
        dmax = hi[h] - (lo[h - 1] if h else 0)
        out.append(dmin ** 2 + (dmax ** 2 - dmin ** 2) / (dmax - dmin) * (F(z[h]) - prev - dmin))
        prev = F(z[h])
    return out


def _R(sig) -> F:
    T, total = F(0), F(0)
    for h in range(3):
        T += sig[h] / N_TAIL[h]
        total += N_COUNTS[h] / T
    return total


def _expected_score(z, y, q: F) -> list[float]:
    sig = _secants(z)
    hstep = F(1, 10 ** 9)
    G = []
    for k in range(3):
        up = [s + (hstep if i == k else 0) for i, s in enumerate(sig)]
        dn = [s - (hstep if i == k else 0) for i, s in enumerate(sig)]
        G.append(-(_R(up) - _R(dn)) / (2 * hstep))
    w = [F(HI[k]) - F(LO[k]) for k in range(3)]
    score = []
    for k in range(3):
        sc = G[k] * w[k] * (w[k] + (w[k - 1] if k else 0))
        if k + 1 < 3:
            sc += G[k + 1] * w[k] * (w[k] + w[k + 1])
        score.append(float(sc))
    if 0 < q < 1:
        with mp.workdps(50):
            qq = mp.mpf(q.numerator) / q.denominator
            Lpp = mp.diff(lambda t: mp.log(1 + qq * mp.expm1(t)), mp.mpf(0.5 * (LO[2] + HI[2])), 2)
            score[-1] += float(sum(y[2:]) * Lpp * mp.mpf(HI[2] - LO[2]) ** 2 / 8)
    return score


@pytest.mark.parametrize("q", [F(1, 2), F(1)])
def test_branching_score_at_the_solvers_point(monkeypatch, q):
    node, _ = _evaluate(monkeypatch, q)
    assert all(LO[k] < node.z[k] < HI[k] for k in range(2))
    expected = _expected_score(node.z, node.y, q)
    assert node.score == pytest.approx(expected, rel=1e-7)
    if q < 1:
        assert sum(node.y[2:]) > 0              # the cut term is present


def test_branching_score_at_a_given_point(monkeypatch):
    # u = (1/2, 1/4, 1/2): z = (0.1, 0.1375, 0.625), all T_g > 0
    node, _ = _evaluate(monkeypatch, F(1, 2), u=[0.5, 0.25, 0.5])
    assert node.z == pytest.approx([0.1, 0.1375, 0.625], rel=1e-15)
    assert node.score == pytest.approx(_expected_score(node.z, node.y, F(1, 2)), rel=1e-7)


def _crude() -> F:
    lo, hi = [F(v) for v in LO], [F(v) for v in HI]
    acc, tot = F(0), F(0)
    for h in range(3):
        dmax = hi[h] - (lo[h - 1] if h else 0)
        acc += dmax * dmax / N_TAIL[h]
        tot += N_COUNTS[h] / acc
    return tot


def test_where_R_is_not_finite_the_score_is_the_widths_and_the_bound_the_crude_one(monkeypatch):
    # u_1 = 0: z_1 = 0, so T_1 = sigma_1(0) / 5 = 0 (Dmin_1 = 0): no relaxation bound, no sensitivity
    node, _ = _evaluate(monkeypatch, F(1, 2), u=[0.0, 0.5, 0.5])
    assert node.z[0] == 0.0
    assert node.score == [HI[k] - LO[k] for k in range(3)]
    assert node.lb == pytest.approx(float(_crude()), rel=1e-14)


def test_bound_is_never_below_the_crude_bound(monkeypatch):
    # a poor proposal (z_1 near 0, far from the relaxed minimiser): its relaxation bound is worse than
    # the crude bound, which is kept
    node, _ = _evaluate(monkeypatch, F(1, 2), u=[0.001, 0.0, 0.0])
    assert node.lb >= float(_crude()) * (1 - 1e-15)


def test_solver_failure_leaves_the_crude_bound_and_no_proposal(monkeypatch):
    node, cand = _evaluate(monkeypatch, F(1, 2), fail=True)
    assert node.z is None and cand is None
    assert node.lb == pytest.approx(float(_crude()), rel=1e-14)
    assert node.score == [HI[k] - LO[k] for k in range(3)]
