"""G-optimal designs (thesis Lemma 6.3.2, eq. (6.5)): exact verifier vs sympy, float design vs the exact
verifier, Kiefer-Wolfowitz value on degenerate spans, minimal supports, bad inputs."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy
from bcdp.bandits import design
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError


def sympy_g(actions, weights):
    """Independent oracle: max_a a^T V^+ a with sympy's pseudo-inverse (rational)."""
    a = sympy.Matrix([[sympy.Rational(str(v)) for v in r] for r in actions])
    v = sympy.zeros(a.shape[1], a.shape[1])
    for i, w in enumerate(weights):
        v += sympy.Rational(str(w)) * a[i, :].T * a[i, :]
    vp = v.pinv()
    return max((a[i, :] * vp * a[i, :].T)[0, 0] for i in range(a.shape[0]))


INSTANCES = [
    ([[1, 0], [0, 1], [1, 1]], ["1/3", "1/3", "1/3"]),
    ([[1, 0], [0, 1], [1, 1]], ["1/2", "1/4", "1/4"]),
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1], ["1/2", "1/2", "1/2"]], ["1/4"] * 4),
    ([[1, 2, 0], [2, 4, 0], [0, 1, 1], [1, 3, 1]], ["1/10", "2/10", "3/10", "4/10"]),  # span of dim 2
    ([["1/3", "-1/2"], ["2/3", "1/5"], [-1, "1/7"], [0, "3/4"]], ["1/5", "1/5", "1/5", "2/5"]),
]


@pytest.mark.parametrize("actions,weights", INSTANCES)
def test_kw_certificate_equals_sympy_pinv(actions, weights):
    assert design.kw_certificate(actions, weights) == Fraction(str(sympy_g(actions, weights)))


def test_kw_certificate_is_at_least_the_span_dimension_and_infinite_off_span():
    rng = np.random.default_rng(7)
    for _ in range(20):
        acts = rng.integers(-3, 4, size=(5, 3)).tolist()
        if np.linalg.matrix_rank(np.array(acts)) < 1:
            continue
        raw = rng.integers(1, 9, size=5)
        w = [Fraction(int(x), int(raw.sum())) for x in raw]
        assert design.kw_certificate(acts, w) >= np.linalg.matrix_rank(np.array(acts))  # KW lower bound
    # support {e1} does not span {e1, e2}: some a^T V^+ a is unbounded
    assert design.kw_certificate([[1, 0], [0, 1]], {0: 1}) == float("inf")


def test_uniform_on_orthonormal_basis_is_optimal_and_dict_weights():
    acts = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert design.kw_certificate(acts, {0: "1/3", 1: "1/3", 2: "1/3"}) == 3
    assert design.kw_certificate(acts, ["1/2", "1/4", "1/4"]) == 4  # 1/w for the light points


@pytest.mark.parametrize("seed,k,d", [(1, 30, 2), (2, 40, 3), (3, 200, 4), (4, 60, 5)])
def test_float_design_reaches_kiefer_wolfowitz_value(seed, k, d):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(k, d))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    res = design.g_optimal_design_float(a, tol=1e-9)
    assert res.converged and res.rank == d
    assert abs(res.weights.sum() - 1) < 1e-12 and (res.weights > 0).all()
    assert len(res.support) <= d * (d + 1) // 2 + 1  # Caratheodory reduction
    # independent recomputation of g at the returned weights (numpy pinv over all actions)
    v = (a[res.support] * res.weights[:, None]).T @ a[res.support]
    g = np.einsum("ij,jk,ik->i", a, np.linalg.pinv(v), a)
    assert abs(g.max() - res.g_value) < 1e-8
    assert d - 1e-8 <= g.max() <= d * (1 + 1e-9) + 1e-8


def test_float_design_against_exact_verifier_on_rational_points():
    pts = [[1, 0], [0, 1], ["3/5", "4/5"], ["-4/5", "3/5"], ["5/13", "12/13"]]
    res = design.g_optimal_design_float(np.array([[float(Fraction(v)) for v in r] for r in pts]), tol=1e-12)
    w = [Fraction(0)] * len(pts)
    for i, x in zip(res.support, res.weights):
        w[int(i)] = Fraction(float(x))
    w = [x / sum(w) for x in w]
    exact = design.kw_certificate(pts, w)
    assert abs(float(exact) - res.g_value) < 1e-9
    assert 2 <= exact < Fraction(2) + Fraction(1, 10 ** 8)


@pytest.mark.parametrize("m,d", [(1, 3), (2, 4), (3, 6)])
def test_degenerate_span_value_is_m(m, d):
    rng = np.random.default_rng(m * 10 + d)
    a = rng.normal(size=(25, m)) @ rng.normal(size=(m, d))
    res = design.g_optimal_design_float(a)
    assert res.rank == m and res.converged
    v = (a[res.support] * res.weights[:, None]).T @ a[res.support]
    g = np.einsum("ij,jk,ik->i", a, np.linalg.pinv(v, rcond=1e-10), a)
    assert abs(g.max() - m) < 1e-6


def brute_min_support(actions):
    """Smallest m-subset with uniform weights and exact g = m (sympy), or None."""
    a = sympy.Matrix(actions)
    m = a.rank()
    for sub in itertools.combinations(range(len(actions)), m):
        w = [sympy.Rational(1, m) if i in sub else 0 for i in range(len(actions))]
        if sympy.Matrix([actions[i] for i in sub]).rank() == m and sympy_g(actions, w) == m:
            return sub
    return None


@pytest.mark.parametrize("acts,expected_size", [
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], None),       # cube corner set: m-subset not optimal
    ([[1, 0], [0, 1], [1, 1], [1, -1]], 2),                        # {(1,1),(1,-1)} orthogonal
    ([[2, 0], [0, 1], [1, 0]], 2),
    ([[1, 0], [0, 1], [1, 1]], 3),                                 # only uniform on all three
])
def test_exact_design_minimal_support(acts, expected_size):
    res = design.g_optimal_design_exact(acts)
    assert res.g_value == design.kw_certificate(acts, dict(zip(res.support, res.weights)))
    brute = brute_min_support(acts)
    if brute is not None:
        assert res.optimal and len(res.support) == res.rank == len(brute)
    else:
        assert len(res.support) > res.rank
    if expected_size is not None:
        assert len(res.support) == expected_size and res.optimal


def test_exact_design_orthant_3d_value():
    acts = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]
    res = design.g_optimal_design_exact(acts)
    assert res.g_value >= 3 and res.g_value - 3 < Fraction(1, 10 ** 4)


def test_bad_inputs():
    with pytest.raises(WrongTypeError):
        design.g_optimal_design_float([[1.0, 0.0]])
    with pytest.raises(InvalidInputError, match="shape"):
        design.g_optimal_design_float(np.zeros(3))
    with pytest.raises(InvalidInputError, match="finite"):
        design.g_optimal_design_float(np.array([[np.nan, 1.0]]))
    with pytest.raises(InvalidInputError, match="non-zero"):
        design.g_optimal_design_float(np.zeros((3, 2)))
    with pytest.raises(InvalidInputError, match="tol"):
        design.g_optimal_design_float(np.eye(2), tol=0.0)
    with pytest.raises(InvalidInputError, match="max_iter"):
        design.g_optimal_design_float(np.eye(2), max_iter=0)
    with pytest.raises(FloatRefusedError):
        design.kw_certificate([[0.5, 1]], [1])
    with pytest.raises(InvalidInputError, match="sum to 1"):
        design.kw_certificate([[1, 0], [0, 1]], ["1/2", "1/3"])
    with pytest.raises(InvalidInputError, match=">= 0"):
        design.kw_certificate([[1, 0], [0, 1]], ["3/2", "-1/2"])
    with pytest.raises(InvalidInputError, match="same dimension"):
        design.kw_certificate([[1, 0], [0]], ["1/2", "1/2"])
    with pytest.raises(InvalidInputError, match="one entry per action"):
        design.kw_certificate([[1, 0], [0, 1]], [1])
    with pytest.raises(WrongTypeError):
        design.g_optimal_design_exact(np.eye(2))
    for bad in (design.g_optimal_design_exact, ):
        with pytest.raises(InvalidInputError) as exc:
            bad([[0, 0], [0, 0]])
        assert "\n" not in str(exc.value)


def test_max_iter_reached_is_reported_not_hidden():
    rng = np.random.default_rng(5)
    a = rng.normal(size=(300, 6))
    res = design.g_optimal_design_float(a, tol=1e-12, max_iter=3)
    assert res.iterations <= 3 and not res.converged and res.g_value > 6 * (1 + 1e-12)


def test_coarse_tolerance_gives_two_d_quickly_and_reduction_keeps_v():
    rng = np.random.default_rng(21)
    a = rng.normal(size=(500, 6))
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    coarse = design.g_optimal_design_float(a, tol=1.0)
    v = (a[coarse.support] * coarse.weights[:, None]).T @ a[coarse.support]
    assert coarse.converged and np.einsum("ij,jk,ik->i", a, np.linalg.inv(v), a).max() <= 12 + 1e-9
    # Caratheodory step: same V on fewer points (checked on a dense random design)
    w = rng.random(500)
    w /= w.sum()
    w2 = design._caratheodory(a, w)
    assert np.count_nonzero(w2) <= 6 * 7 // 2 + 1 and (w2 >= 0).all()
    assert np.allclose((a * w[:, None]).T @ a, (a * w2[:, None]).T @ a, atol=1e-10)
