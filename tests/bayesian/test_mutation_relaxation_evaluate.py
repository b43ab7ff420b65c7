"""The problem the relaxation step hands to its local solver (``relaxation.evaluate``).

BCDP paper (arXiv:2410.18404), Sec. 4, eq. (17), and the method in
:mod:`bcdp.bayesian.optimal_allocation` (step 3): on a box lo <= z <= hi the squared increments
D_h^2 are replaced by their secants (chords) over [Dmin_h, Dmax_h], Dmin_h = max(lo_h - hi_{h-1}, 0),
Dmax_h = hi_h - lo_{h-1}, which gives the convex minorant R(z) = sum_g n_g / T_g,
T_g = sum_{h <= g} sigma_h(D_h) / N_h; the feasible set E is the chain z_{h-1} <= z_h and, for q > 0,
the cuts z_g + a t <= l_g - m with the tangent a t + m of L(t) = log(1 + q (e^t - 1)) at the middle of
the t-range of the box (a = 1, m = 0 for q = 1).  SLSQP (scipy) only proposes a point, in the
coordinates u in [0, 1]^p, z = lo + (hi - lo) u, with z_1 kept off 0 (u_1 >= 1e-9) when lo_1 <= 0, starting
from the previous node's point clipped into the box (monotone, z_1 > 0), or the middle of the box.

The tests spy on ``scipy.optimize.minimize`` (the real solver still runs) and compare what it is given
with an independent computation: the chords in exact Fractions, L and L' in mpmath at 50 digits, the
expected start worked out by hand in the comments.  Outside the domain of R (some T_g <= 0) the
objective is a finite barrier (SLSQP cannot step on inf) and, being constant there, has gradient 0.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath as mp
import numpy as np
import pytest
import scipy.optimize
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import evaluate

# levels 1/4 (twice), 1/2, 3/4, 1: piece j = 2 has z = (x_1, x_2, t), counts n = (2, 1, 1 + 1),
# N_g = sum_{h >= g} n_h = (5, 3, 2), bounds l_1 = 1/4, l_2 = 1/2
TILDE = [F(1, 4), F(1, 4), F(1, 2), F(3, 4), F(1)]
N_COUNTS, N_TAIL, ELL = [2, 1, 2], [5, 3, 2], [F(1, 4), F(1, 2)]


def _spy(monkeypatch) -> list[tuple[tuple, dict]]:
    calls: list[tuple[tuple, dict]] = []
    real = scipy.optimize.minimize

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(scipy.optimize, "minimize", spy)
    return calls


def _run(monkeypatch, q: F, lo, hi, z0, scale: float = 2.0):
    calls = _spy(monkeypatch)
    piece = Piece(Instance(TILDE, q), 2)
    evaluate(piece, list(lo), list(hi), z0, scale)
    assert len(calls) == 1
    (fun, x0), kw = calls[0]
    return fun, np.asarray(x0, dtype=float), kw


def _relaxation(lo, hi, z) -> F:
    """R(z) with each D^2 replaced by its chord through (Dmin, Dmin^2) and (Dmax, Dmax^2)."""
    lo, hi, z = ([F(v) for v in w] for w in (lo, hi, z))
    total, T, prev = F(0), F(0), F(0)
    for h in range(3):
        dmin = max(lo[h] - (hi[h - 1] if h else 0), F(0))
        dmax = hi[h] - (lo[h - 1] if h else 0)
        D = z[h] - prev
        chord = dmin ** 2 + (dmax ** 2 - dmin ** 2) / (dmax - dmin) * (D - dmin)
        T += chord / N_TAIL[h]
        prev = z[h]
        assert T > 0
        total += N_COUNTS[h] / T
    return total


def _tangent(q: F, t0: float) -> tuple[float, float]:
    """(a, m): the tangent a t + m of L(t) = log(1 + q (e^t - 1)) at t0, at 50 digits."""
    with mp.workdps(50):
        qq = mp.mpf(q.numerator) / q.denominator
        L = lambda t: mp.log(1 + qq * mp.expm1(t))       # noqa: E731
        a = mp.diff(L, mp.mpf(t0))
        return float(a), float(L(mp.mpf(t0)) - a * t0)


def _check_constraints(kw, q: F, lo, hi) -> None:
    (con,) = kw["constraints"]
    assert con["type"].lower() == "ineq"           # scipy reads the type case-insensitively
    lo_a, w = np.array(lo), np.array(hi) - np.array(lo)
    if q == 1:
        a, m = 1.0, 0.0
    else:
        a, m = _tangent(q, 0.5 * (lo[-1] + hi[-1]))
    # rows of A z <= b: z_1 - z_2 <= 0, z_2 - t <= 0, z_g + a t <= l_g - m (g = 1, 2)
    A = np.array([[1, -1, 0], [0, 1, -1], [1, 0, a], [0, 1, a]], dtype=float)
    b = np.array([0, 0, float(ELL[0]) - m, float(ELL[1]) - m])
    for u in ([0.5, 0.5, 0.5], [0.0, 1.0, 0.25], [1.0, 0.0, 1.0]):
        z = lo_a + w * np.array(u)
        assert con["fun"](np.array(u)) == pytest.approx(b - A @ z, rel=1e-12, abs=1e-12)
        # the exact Jacobian of the linear constraint in the solver's coordinates is supplied
        assert np.asarray(con["jac"](np.array(u))) == pytest.approx(-A * w, rel=1e-12, abs=1e-12)


def _check_objective(fun, kw, lo, hi, scale: float = 2.0) -> None:
    lo_a, w = np.array(lo), np.array(hi) - np.array(lo)
    for u in ([0.5, 0.5, 0.5], [0.25, 1.0, 0.0], [1.0, 0.3, 0.9]):
        z = lo_a + w * np.array(u)
        assert fun(np.array(u)) == pytest.approx(float(_relaxation(lo, hi, z)) / scale, rel=1e-12)


def test_solver_problem_from_the_middle_of_a_box_touching_zero(monkeypatch):
    # q = 1/2; box of widths < 1 with lo_1 = 0 and lo_2 > 0
    lo, hi = [0.0, 0.05, 0.5], [0.2, 0.4, 0.75]
    fun, x0, kw = _run(monkeypatch, F(1, 2), lo, hi, None)
    # no previous point: the middle (0.1, 0.225, 0.625) of the box, u = 1/2 in every coordinate
    # (0.1 > 0 is kept as it is)
    assert x0 == pytest.approx([0.5, 0.5, 0.5], rel=1e-12)
    assert kw["method"].upper() == "SLSQP"
    # u in [0, 1]^3, the first coordinate kept off 0 (lo_1 <= 0)
    assert list(kw["bounds"]) == [(1e-9, 1.0), (0.0, 1.0), (0.0, 1.0)]
    _check_objective(fun, kw, lo, hi)
    _check_constraints(kw, F(1, 2), lo, hi)


def test_objective_is_a_flat_finite_barrier_outside_the_domain_of_R(monkeypatch):
    lo, hi = [0.0, 0.05, 0.5], [0.2, 0.4, 0.75]
    fun, _, kw = _run(monkeypatch, F(1, 2), lo, hi, None)
    jac = kw["jac"]
    # u = 0: z = lo, T_1 = sigma_1(0)/5 = 0 exactly (Dmin_1 = 0); u = (1, 0, 0): z = (0.2, 0.05, 0.5),
    # T_1 = 0.2 * 0.2 / 5 = 0.008, T_2 = 0.008 + 0.4 * (0.05 - 0.2) / 3 = -0.012 < 0
    for u in ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]):
        v = fun(np.array(u))
        assert math.isfinite(v) and v >= 1e300
        g = np.asarray(jac(np.array(u)), dtype=float)
        assert g.shape == (3,) and np.all(g == 0.0)


@pytest.mark.parametrize(("z0", "start"), [
    # clipped into the box (0.05 -> 0.1, 0.9 -> 0.4), already monotone
    ([0.05, 0.9, 0.6], [0.1, 0.4, 0.6]),
    # clipped (0.8 -> 0.75), then made monotone by the running maximum (0.12 -> 0.18)
    ([0.18, 0.12, 0.8], [0.18, 0.18, 0.75]),
])
def test_solver_starts_from_the_previous_point_clipped_into_the_box(monkeypatch, z0, start):
    lo, hi = [0.1, 0.1, 0.5], [0.2, 0.4, 0.75]
    fun, x0, kw = _run(monkeypatch, F(1, 2), lo, hi, z0)
    expected = (np.array(start) - np.array(lo)) / (np.array(hi) - np.array(lo))
    assert x0 == pytest.approx(expected, rel=1e-12, abs=1e-15)
    # lo_1 = 0.1 > 0: the first coordinate may reach its lower bound
    assert list(kw["bounds"]) == [(0.0, 1.0)] * 3
    _check_objective(fun, kw, lo, hi)


def test_start_on_zero_is_moved_to_a_thousandth_of_the_upper_bound(monkeypatch):
    lo, hi = [0.0, 0.1, 0.5], [0.5, 0.6, 0.75]
    _, x0, kw = _run(monkeypatch, F(1, 2), lo, hi, [-1.0, 0.3, 0.6])
    # clipped: (0, 0.3, 0.6); z_1 = 0 is moved to min(hi_1, max(lo_1, 1e-3 hi_1)) = 0.0005;
    # u = (0.0005 / 0.5, (0.3 - 0.1) / 0.5, (0.6 - 0.5) / 0.25)
    assert x0 == pytest.approx([0.001, 0.4, 0.4], rel=1e-12)
    assert list(kw["bounds"]) == [(1e-9, 1.0), (0.0, 1.0), (0.0, 1.0)]


def test_cuts_for_q_one_are_z_plus_t_below_the_level(monkeypatch):
    lo, hi = [0.0, 0.05, 0.5], [0.2, 0.4, 0.75]
    fun, x0, kw = _run(monkeypatch, F(1), lo, hi, None)
    _check_constraints(kw, F(1), lo, hi)
    _check_objective(fun, kw, lo, hi)
