"""Mechanisms 1-2: structure, validation, and statistical checks against closed forms.

Statistical tolerances: Hoeffding bounds at false-failure rate FAIL = 1e-9 per compared quantity
(a test compares at most ~100 quantities, so its false-failure rate is below 1e-7); seeds fixed.
"""

import math

import numpy as np
import pytest
import sympy
from bcdp.bayesian.mechanisms import (
    duchi_l2,
    duchi_l2_constant,
    m_mean,
    paper_weights,
    private_mean,
    project_box,
    stage_budgets,
)
from bcdp.bayesian.mechanisms_theory import constant_paper, constant_unbiased

FAIL = 1e-9


def hoeffding(bound: float, n: int) -> float:
    """Half-width for the mean of n i.i.d. variables in [-bound, bound] at failure rate FAIL."""
    return bound * math.sqrt(2 * math.log(2 / FAIL) / n)


@pytest.mark.parametrize("d,eps,r", [(1, 0.3, 1.0), (2, 1.0, 2.0), (5, 3.0, 1.5), (10, 2.0, math.sqrt(10))])
def test_constant_matches_sympy_closed_forms(d, eps, r):
    sub = {sympy.Symbol("d", positive=True): d, sympy.Symbol("alpha", positive=True): sympy.Float(eps, 30),
           sympy.Symbol("r", positive=True): sympy.Float(r, 30)}
    assert duchi_l2_constant(d, eps, r) == pytest.approx(float(constant_unbiased().subs(sub)), rel=1e-13)
    assert duchi_l2_constant(d, eps, r, "paper") == pytest.approx(float(constant_paper().subs(sub)), rel=1e-13)
    assert duchi_l2_constant(d, eps, r, "paper") == pytest.approx(2 * duchi_l2_constant(d, eps, r), rel=1e-13)


def test_constant_stable_for_extreme_budgets():
    assert math.isfinite(duchi_l2_constant(10, 1e-8, 1.0)) and duchi_l2_constant(10, 1e-8, 1.0) > 1e7
    assert duchi_l2_constant(10, 800.0, 1.0) == pytest.approx(duchi_l2_constant(10, 50.0, 1.0), rel=1e-15)


@pytest.mark.parametrize("d", [1, 3, 8])
def test_outputs_on_sphere_and_unbiased(d):
    rng = np.random.default_rng(100 + d)
    n, eps, r = 200_000, 1.0, 1.0
    v = rng.uniform(-1, 1, d)
    v *= 0.8 * r / np.linalg.norm(v)
    z = duchi_l2(np.tile(v, (n, 1)), eps, r, rng)
    B = duchi_l2_constant(d, eps, r)
    np.testing.assert_allclose(np.linalg.norm(z, axis=1), B, rtol=1e-12)
    assert np.max(np.abs(z.mean(axis=0) - v)) <= hoeffding(B, n)
    # E|Z - v|^2 = B^2 - |v|^2: |Z|^2 = B^2 surely, and Z.v in [-B|v|, B|v|]
    mse = np.mean(np.sum((z - v) ** 2, axis=1))
    assert abs(mse - (B ** 2 - v @ v)) <= 2 * hoeffding(B * np.linalg.norm(v), n)


def test_hemisphere_side_probability():
    # P(Z.v > 0) = p s + (1-p)(1-s), p = e^a/(e^a+1), s = 1/2 + |v|/(2r)
    rng = np.random.default_rng(7)
    n, eps, r, d = 400_000, 0.7, 2.0, 4
    v = np.array([0.5, -0.5, 0.25, 0.0])
    z = duchi_l2(np.tile(v, (n, 1)), eps, r, rng)
    p = math.exp(eps) / (math.exp(eps) + 1)
    s = 0.5 + np.linalg.norm(v) / (2 * r)
    frac = np.mean(z @ v > 0)
    assert abs(frac - (p * s + (1 - p) * (1 - s))) <= hoeffding(1.0, n) / 2 + 1e-12


def test_zero_input_is_mean_zero():
    rng = np.random.default_rng(3)
    n, d = 200_000, 3
    z = duchi_l2(np.zeros((n, d)), 1.0, 1.0, rng)
    assert np.max(np.abs(z.mean(axis=0))) <= hoeffding(duchi_l2_constant(d, 1.0, 1.0), n)


@pytest.mark.parametrize("bad", [dict(eps=0.0), dict(eps=-1.0), dict(eps=float("nan")), dict(radius=0.0),
                                 dict(constant="other")])
def test_duchi_rejects_bad_parameters(bad):
    args = dict(x=np.zeros((2, 3)), eps=1.0, radius=1.0, rng=np.random.default_rng(0))
    args.update(bad)
    with pytest.raises(ValueError):
        duchi_l2(**args)


def test_duchi_rejects_bad_inputs():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="norm"):
        duchi_l2(np.array([[1.0, 1.0]]), 1.0, 1.0, rng)
    with pytest.raises(ValueError, match="NaN"):
        duchi_l2(np.array([[np.nan, 0.0]]), 1.0, 1.0, rng)
    with pytest.raises(ValueError, match=r"\(n, d\)"):
        duchi_l2(np.zeros(3), 1.0, 1.0, rng)


class RecordingChannel:
    """A deterministic stand-in channel (identity) that records its calls."""

    def __init__(self):
        self.calls = []

    def __call__(self, x_sub, budget, radius, rng):
        self.calls.append((x_sub.shape[1], budget, radius, x_sub.copy()))
        return x_sub.copy()


def test_m_mean_stage_structure_and_weights():
    x = np.array([[0.5, -0.5, 1.0, 0.0], [-1.0, 0.25, 0.0, 0.75]])
    c = [0.1, 0.1, 0.4, 1.0]
    ch = RecordingChannel()
    nu = m_mean(x, c, np.random.default_rng(0), channel=ch)
    # stage 2 has a zero increment: skipped; the others see x_{k:d} with radius sqrt(d-k+1)
    assert [(m, round(b, 12), r) for m, b, r, _ in ch.calls] == [(4, 0.1, 2.0), (2, 0.3, math.sqrt(2)), (1, 0.6, 1.0)]
    np.testing.assert_array_equal(ch.calls[1][3], x[:, 2:])
    np.testing.assert_allclose(paper_weights(c), [0.01 / 4, 0.0, 0.09 / 2, 0.36 / 1])
    np.testing.assert_allclose(nu, x)  # identity channel: weighted average of copies of x_i


class BudgetChannel:
    """A deterministic stand-in channel whose report is the stage budget in every coordinate, so
    the stages disagree and m_mean's combination of them is visible."""

    def __call__(self, x_sub, budget, radius, rng):
        return np.full(x_sub.shape, budget)


def test_m_mean_combines_stages_with_mechanism1_weights():
    """Mechanism 1 combines the stage reports covering coordinate i with weights
    w_k = (c_k - c_{k-1})^2 / (d - k + 1), k <= i (normalised).  Expected values derived here in
    Fractions from that formula; the reports are the stage budgets b_k = c_k - c_{k-1}, so
    nu_i = sum_{k<=i, b_k>0} w_k b_k / sum_{k<=i, b_k>0} w_k.  An unweighted mean of the stages
    gives nu_2 = (1/10 + 3/10)/2 = 1/5 instead of 11/38."""
    from fractions import Fraction as Fr
    c = [Fr(1, 10), Fr(1, 10), Fr(2, 5), Fr(1)]
    d = len(c)
    b = [c[0]] + [c[k] - c[k - 1] for k in range(1, d)]
    w = [b[k] ** 2 / (d - k) for k in range(d)]     # k is 0-based here: d - k = d - (k+1) + 1
    expected = []
    for i in range(d):
        stages = [k for k in range(i + 1) if b[k] > 0]
        expected.append(sum(w[k] * b[k] for k in stages) / sum(w[k] for k in stages))
    assert expected == [Fr(1, 10), Fr(1, 10), Fr(11, 38), Fr(919, 1630)]
    x = np.array([[0.5, -0.5, 1.0, 0.0], [-1.0, 0.25, 0.0, 0.75]])
    nu = m_mean(x, [float(v) for v in c], np.random.default_rng(0), channel=BudgetChannel())
    np.testing.assert_allclose(nu, [[float(v) for v in expected]] * 2, rtol=1e-12)


def test_m_mean_uninformed_coordinates_are_zero():
    x = np.array([[0.5, -0.5, 1.0]])
    nu = m_mean(x, [0.0, 0.0, 1.0], np.random.default_rng(0), channel=RecordingChannel())
    np.testing.assert_allclose(nu, [[0.0, 0.0, 1.0]])


def test_m_mean_validation():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="non-decreasing"):
        m_mean(np.zeros((1, 2)), [1.0, 0.5], rng)
    with pytest.raises(ValueError, match="entries"):
        m_mean(np.zeros((1, 2)), [1.0], rng)
    with pytest.raises(ValueError, match=r"\[-1, 1\]"):
        m_mean(np.full((1, 2), 2.0), [1.0, 1.0], rng)
    with pytest.raises(ValueError):
        stage_budgets([0.5, float("nan")])


def test_m_mean_unbiased_with_duchi_channel():
    rng = np.random.default_rng(11)
    n, d = 100_000, 3
    x = np.tile(np.array([0.5, -1.0, 0.25]), (n, 1))
    c = [0.5, 1.0, 2.0]
    nu = m_mean(x, c, rng)
    # nu_i is a convex combination of channel coordinates, each bounded by the largest B used
    bound = max(duchi_l2_constant(d - k, b, math.sqrt(d - k)) for k, b in enumerate(stage_budgets(c)))
    assert np.max(np.abs(nu.mean(axis=0) - x[0])) <= hoeffding(bound, n)


def test_private_mean_projects():
    np.testing.assert_array_equal(project_box(np.array([2.0, -3.0, 0.5])), [1.0, -1.0, 0.5])
    est = private_mean(np.ones((10, 2)), [0.01, 0.01], np.random.default_rng(0))
    assert np.all(np.abs(est) <= 1)


def test_sum_sampler_is_the_sum_of_the_row_sampler():
    from bcdp.bayesian.mechanisms import duchi_l2_sum

    x = np.random.default_rng(1).uniform(-0.3, 0.3, (500, 4))
    rows = duchi_l2(x, 0.8, 1.0, np.random.default_rng(42))
    total = duchi_l2_sum(x, 0.8, 1.0, np.random.default_rng(42))
    np.testing.assert_allclose(total, rows.sum(axis=0), rtol=1e-12, atol=1e-9)
