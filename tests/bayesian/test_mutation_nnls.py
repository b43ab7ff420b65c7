"""The multiplier fallback of the relaxation (``relaxation._nnls_multipliers``), pinned on small cases
worked out by hand.

The step-3 bound of the optimal allocation (BCDP paper, Sec. 4, eq. (17); weak duality in
:mod:`bcdp.bayesian.optimal_allocation`) is valid for any y >= 0; with scipy < 1.15 (no SLSQP
multipliers) the search proposes y by non-negative least squares: y >= 0 on the nearly active rows of
A z <= b (slack <= 1e-9 (1 + |b_i|)) minimising |grad + A^T y| on the coordinates that are free
(farther than 1e-9 box widths from both bounds of the box), y = 0 elsewhere.  The scipy installed here
has multipliers, so no search reaches the fallback: it is called directly.  Each expected y is the
minimiser of a one-dimensional least-squares problem, computed in the comments.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from bcdp.bayesian.optimal_allocation.relaxation import _nnls_multipliers


def _y(A, b, z, grad, lo, hi) -> list[float]:
    out = _nnls_multipliers(np.array(A, dtype=float), np.array(b, dtype=float), np.array(z, dtype=float),
                            np.array(grad, dtype=float), np.array(lo, dtype=float), np.array(hi, dtype=float))
    assert isinstance(out, list) and all(type(v) is float for v in out)
    return out


def test_kkt_multiplier_of_the_active_row_only():
    # rows: z0 - z1 <= 0 (slack 0.5: inactive), z0 + 2 z1 <= 1.75 (slack 0: active); both coordinates
    # inside [0, 1].  On the active row, min_y |(-1 + y, -2 + 2y)| is attained at y = 1 (residual 0).
    y = _y([[1, -1], [1, 2]], [0, 1.75], [0.25, 0.75], [-1, -2], [0, 0], [1, 1])
    assert y == pytest.approx([0.0, 1.0], abs=1e-12)
    assert y[0] == 0.0


def test_multiplier_is_nonnegative_least_squares():
    # one active row z0 + z1 <= 1: min_{y >= 0} |(g0 + y, g1 + y)| has y = max(0, -(g0 + g1)/2)
    A, b, z, lo, hi = [[1, 1]], [1.0], [0.5, 0.5], [0, 0], [1, 1]
    assert _y(A, b, z, [-1, -3], lo, hi) == pytest.approx([2.0], abs=1e-12)
    assert _y(A, b, z, [1, 3], lo, hi) == [0.0]        # the unconstrained minimiser -2 is negative


def test_no_active_row_or_no_free_coordinate_gives_zeros():
    # slack 1 on both rows: nothing is active
    assert _y([[1, 0], [0, 1]], [1.5, 1.5], [0.5, 0.5], [-1, -1], [0, 0], [1, 1]) == [0.0, 0.0]
    # the row is active but both coordinates sit on a box bound (lower, upper): nothing is free
    assert _y([[1, 1]], [1.0], [0.0, 1.0], [-1, -1], [0, 0], [1, 1]) == [0.0]


@pytest.mark.parametrize(("s", "b0", "active"), [
    (0.0, 0.0, True),
    (1e-9, 0.0, True),          # exactly at the tolerance 1e-9 (1 + |b|): active (<=)
    (1.5e-9, 0.0, False),       # just past it
    (0.5, 0.0, False),
    (1e-8, 1000.0, True),       # the tolerance grows with |b|: 1e-9 * 1001 > 1e-8
    (1e-5, 1000.0, False),
])
def test_active_rows_are_those_within_the_relative_slack_tolerance(s, b0, active):
    # one row -z0 <= b0 at z0 = s - b0, so its slack is b0 + z0 = s (exactly, for b0 = 0);
    # grad = (1, 0): if active, min_y |(1 - y, 0)| is attained at y = 1
    y = _y([[-1, 0]], [b0], [s - b0, 0.5], [1, 0], [-2000, 0], [2000, 1])
    assert y == pytest.approx([1.0 if active else 0.0], abs=1e-9)


@pytest.mark.parametrize(("z0", "lo0", "hi0", "free"), [
    (1000.0, 1000.0, 1001.0, False),      # at the lower bound
    (1001.0, 1000.0, 1001.0, False),      # at the upper bound
    (1e-9, 0.0, 1.0, False),              # exactly 1e-9 widths above the lower bound: still "at" it
    (-1e-9, -1.0, 0.0, False),            # exactly 1e-9 widths below the upper bound
    (1000.0 + 1e-7, 1000.0, 1001.0, True),  # 1e-7 widths away: free (the width is hi - lo = 1)
    (1e-11, 0.0, 1e-3, True),             # 1e-8 widths above the bound of a narrow box
    (-1e-11, -1e-3, 0.0, True),           # 1e-8 widths below the bound of a narrow box
    (0.3, 0.3, 0.3, False),               # a box of width 0
])
def test_free_coordinates_are_those_off_both_box_bounds(z0, lo0, hi0, free):
    # one active row z0 + z1 <= z0 + z1, grad = (-1, -3), z1 = 0.5 free in [0, 1]:
    # both free: min_y (y - 1)^2 + (y - 3)^2 at y = 2; only z1 free: min_y (y - 3)^2 at y = 3
    z = np.array([z0, 0.5])
    y = _y([[1, 1]], [z[0] + z[1]], z, [-1, -3], [lo0, 0], [hi0, 1])
    assert y == pytest.approx([2.0 if free else 3.0], abs=1e-9)
