"""Adversarial checks of bcdp.audit.adapters: the boundaries of the pooling rule (G1)-(G2), the
Bonferroni count, and the accuracy of binned Laplace on cells that start or end at an input.

Oracles: Pearson's statistic written out here with Fractions on hand-chosen tables, its p-value from
scipy.stats.chi2.sf with the number of cells the documented rule leaves (the rule is applied by hand
in each docstring, never by calling the module); binned Laplace cells from the Laplace CDF at 50
digits with mpmath.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from bcdp.audit.adapters import binned_laplace_float, goodness_of_fit, row_p_values
from bcdp.audit.confidence import CountAudit
from scipy.stats import chi2


def audit_of(counts) -> CountAudit:
    c = np.array(counts, dtype=np.int64)
    return CountAudit(tuple(range(c.shape[0])), tuple(range(c.shape[1])), c, c.sum(axis=1))


def pearson(observed, expected) -> float:
    return float(sum(F(o - e) ** 2 / e for o, e in zip(observed, expected)))


def test_cells_of_expected_count_exactly_five_are_not_pooled():
    """n = 100, kernel (9/20, 9/20, 1/20, 1/20): expected 45, 45, 5, 5.  (G2) pools cells *below* 5
    only, so all four cells stay: 3 degrees of freedom."""
    kernel = [[F(9, 20), F(9, 20), F(1, 20), F(1, 20)]]
    counts = [40, 47, 6, 7]
    want = chi2.sf(pearson(counts, [45, 45, 5, 5]), 3)
    assert math.isclose(goodness_of_fit(audit_of([counts]), kernel), want, rel_tol=1e-10)


def test_small_cells_pooling_to_exactly_five_stay_on_their_own():
    """n = 100, expected 50, 45, 2, 3: the small cells pool to 5, which is not below 5, so they form
    their own cell: cells (50), (45), (2 + 3): 2 degrees of freedom."""
    kernel = [[F(1, 2), F(9, 20), F(1, 50), F(3, 100)]]
    counts = [47, 44, 4, 5]
    want = chi2.sf(pearson([47, 44, 9], [50, 45, 5]), 2)
    assert math.isclose(goodness_of_fit(audit_of([counts]), kernel), want, rel_tol=1e-10)


def test_pooled_small_cells_join_the_first_of_tied_smallest_cells():
    """n = 100, expected 30, 30, 1, 2, 37: the small cells pool to 3 < 5 and join the smallest other
    cell, the first in output order on ties (cell 0): cells (30 + 1 + 2), (30), (37)."""
    kernel = [[F(3, 10), F(3, 10), F(1, 100), F(2, 100), F(37, 100)]]
    counts = [25, 33, 3, 0, 39]
    want = chi2.sf(pearson([28, 33, 39], [33, 30, 37]), 2)
    assert math.isclose(goodness_of_fit(audit_of([counts]), kernel), want, rel_tol=1e-10)


def test_a_zero_probability_cell_before_the_others_is_dropped_not_shifted():
    """(G1): kernel (0, 1/2, 1/2), counts (0, 60, 40): the empty impossible cell is dropped and the
    two others are compared, 1 degree of freedom."""
    got = goodness_of_fit(audit_of([[0, 60, 40]]), [[0.0, 0.5, 0.5]])
    assert math.isclose(got, chi2.sf(pearson([60, 40], [50, 50]), 1), rel_tol=1e-10)
    got = goodness_of_fit(audit_of([[0, 12, 0, 60, 28]]), [[F(0), F(1, 10), F(0), F(3, 5), F(3, 10)]])
    assert math.isclose(got, chi2.sf(pearson([12, 60, 28], [10, 60, 30]), 2), rel_tol=1e-10)


def test_bonferroni_counts_every_input_even_those_fitting_perfectly():
    """Three inputs, kernel rows (1/3, 1/3, 1/3), 60 draws each.  Rows 1 and 2 match their expected
    counts exactly (statistic 0, p = 1); row 0 has statistic 7.5, p = exp(-3.75).  The documented
    combination is min_x p_x times the number of inputs, 3, whatever the other p-values."""
    kernel = [[F(1, 3)] * 3] * 3
    audit = audit_of([[30, 15, 15], [20, 20, 20], [20, 20, 20]])
    assert row_p_values(audit, kernel).tolist()[1:] == [1.0, 1.0]
    assert math.isclose(goodness_of_fit(audit, kernel), 3 * math.exp(-7.5 / 2), rel_tol=1e-12)


def _laplace_cell(x: float, b: float, lo: float, hi: float) -> float:
    with mpmath.workdps(50):
        def cdf(t):
            if t == -math.inf:
                return mpmath.mpf(0)
            if t == math.inf:
                return mpmath.mpf(1)
            u = (mpmath.mpf(t) - mpmath.mpf(x)) / mpmath.mpf(b)
            return mpmath.exp(u) / 2 if u < 0 else 1 - mpmath.exp(-u) / 2
        return float(cdf(hi) - cdf(lo))


@pytest.mark.parametrize("x", [0.0, 1.5])
def test_binned_laplace_thin_cells_at_the_input_are_accurate(x):
    """Cells [x, x + 1e-9) and [x - 1e-9, x): probability about 5e-10, to be computed without
    cancellation (relative error 1e-13 against the CDF at 50 digits)."""
    b = 1.0
    edges = [-math.inf, x - 1e-9, x, x + 1e-9, math.inf]
    row = binned_laplace_float([x], b, edges)[0]
    for j in range(4):
        want = _laplace_cell(x, b, edges[j], edges[j + 1])
        assert abs(row[j] - want) <= 1e-13 * want
