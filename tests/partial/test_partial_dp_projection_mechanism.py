"""bcdp.partial.projection_mechanism (partial DP paper, Sec. 4.1, Thm 11) against independent
oracles: an exact Fraction active-set enumeration of the projection, the variational-inequality
certificate, a sympy derivation of the Gaussian D*, the brute-force diameters of
bcdp.partial.projection, and a statistical bound with a stated false-failure rate."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.partial.projection import diameters, workload
from bcdp.partial.projection_mechanism import (
    ProjectionMechanism,
    box_clip_projection,
    certifies_projection,
    dataset_sensitivities,
    empirical_bernstein_lower,
    exact_hull_projection,
    gaussian_dstar,
    hull_projection,
    nearest_vertex,
    projection_privacy,
    utility_bound,
    vi_residual,
)
from hypothesis import given, settings
from hypothesis import strategies as st

SMALL = [("conjunction", 2, 1), ("conjunction", 3, 2), ("parity", 3, 2), ("parity", 3, 1), ("conjunction", 3, 1)]


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(SMALL),
       coords=st.lists(st.fractions(min_value=-3, max_value=4, max_denominator=12), min_size=3, max_size=3))
def test_wolfe_matches_exact_fraction_oracle(case, coords):
    fam, d, k = case
    a, _ = workload(fam, d, k)
    y = coords[: a.shape[1]]
    exact_pt, support = exact_hull_projection(a.tolist(), y)
    got = hull_projection(a.astype(np.float64), np.array([float(v) for v in y]))
    assert np.allclose(got.point, [float(v) for v in exact_pt], atol=1e-10, rtol=0)
    # exact certificate of the oracle itself: VI holds exactly with Fractions ...
    for v in a.tolist():
        assert sum((Fraction(vc) - p) * (yc - p) for vc, p, yc in zip(v, exact_pt, y)) <= 0
    # ... and the point lies in the hull: a convex combination of its ``support`` vertices, weights
    # solved exactly in sympy from [V_S^T; 1^T] w = [p; 1] (unique: the support is affinely independent)
    _assert_convex_combination(a.tolist(), support, exact_pt)


def _assert_convex_combination(vertices: list, support: tuple, point: tuple) -> None:
    cols = [vertices[i] for i in support]
    lhs = sympy.Matrix([[sympy.Integer(c[r]) for c in cols] for r in range(len(point))] + [[1] * len(cols)])
    rhs = sympy.Matrix([sympy.Rational(p.numerator, p.denominator) for p in point] + [1])
    sol, params = lhs.gauss_jordan_solve(rhs)           # raises ValueError if inconsistent
    assert params.shape[0] == 0, "support vertices not affinely independent"
    assert all(w >= 0 for w in sol) and sum(sol) == 1
    assert lhs * sol == rhs


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from([("conjunction", 4, 2), ("parity", 4, 2), ("parity", 5, 3)]),
       seed=st.integers(0, 10 ** 6), scale=st.sampled_from([0.01, 0.3, 1.0, 20.0]))
def test_proof_facts_a_b_c(case, seed, scale):
    """Facts (a)-(c) of the proof of Thm 11 (Sec. 4.1), tolerance 1e-9."""
    fam, d, k = case
    rng = np.random.default_rng(seed)
    verts = workload(fam, d, k)[0].astype(np.float64)
    data = rng.integers(0, 2 ** d, size=int(rng.integers(1, 20)))
    q = verts[data].mean(axis=0)
    y = q + scale * rng.standard_normal(verts.shape[1])
    proj = hull_projection(verts, y)
    yhat = proj.point
    assert proj.weights.min() >= 0 and abs(proj.weights.sum() - 1) < 1e-12
    assert np.allclose(proj.weights @ verts[list(proj.support)], yhat, atol=1e-12)
    assert np.linalg.norm(yhat - q) <= np.linalg.norm(y - q) + 1e-9                     # (a)
    assert float((q - yhat) @ (y - yhat)) <= 1e-9                                      # (b)
    assert float((yhat - q) @ (yhat - q)) <= float(np.max((verts - q) @ (y - q))) + 1e-9  # (c)
    assert vi_residual(verts, y, yhat) <= 1e-9
    assert certifies_projection(verts, y, yhat)


def test_bad_twins_fail_the_certificate():
    a, _ = workload("conjunction", 3, 2)
    verts = a.astype(np.float64)
    y = np.array([2.0, 2.0, -1.0])
    exact_pt, _ = exact_hull_projection(a.tolist(), [2, 2, -1])
    exact = np.array([float(v) for v in exact_pt])
    for twin in (box_clip_projection, nearest_vertex):
        p = twin(verts, y)
        assert np.linalg.norm(p - exact) > 1e-3
        assert not certifies_projection(verts, y, p)
    assert certifies_projection(verts, y, exact)


def test_point_inside_hull_is_fixed():
    verts = workload("parity", 4, 2)[0].astype(np.float64)
    inside = verts[[0, 3, 5, 9]].mean(axis=0)
    assert np.allclose(hull_projection(verts, inside).point, inside, atol=1e-12)


def test_gaussian_dstar_matches_sympy_renyi_derivation():
    """D_lambda(N(a,s^2)||N(b,s^2)) derived in sympy: the exponent of p^lam q^(1-lam) completes to
    -(x-c)^2/(2s^2) - lam(1-lam)(a-b)^2/(2s^2) (identity checked symbolically), the remaining
    Gaussian integral is sympy's, then D_lambda = log(integral)/(lambda-1) and sup_lambda D_lambda/lambda."""
    x, a, b, c = sympy.symbols("x a b c", real=True)
    s, lam = sympy.symbols("s lambda", positive=True)
    exponent = -(lam * (x - a) ** 2 + (1 - lam) * (x - b) ** 2) / (2 * s ** 2)
    centre = lam * a + (1 - lam) * b
    completed = -(x - centre) ** 2 / (2 * s ** 2) - lam * (1 - lam) * (a - b) ** 2 / (2 * s ** 2)
    assert sympy.expand(exponent - completed) == 0
    gauss = sympy.integrate(sympy.exp(-(x - c) ** 2 / (2 * s ** 2)), (x, -sympy.oo, sympy.oo))
    integral = gauss / sympy.sqrt(2 * sympy.pi * s ** 2) * sympy.exp(-lam * (1 - lam) * (a - b) ** 2 / (2 * s ** 2))
    d_lam = sympy.simplify(sympy.expand_log(sympy.log(sympy.simplify(integral)), force=True) / (lam - 1))
    assert sympy.simplify(d_lam - lam * (a - b) ** 2 / (2 * s ** 2)) == 0
    per_lambda = sympy.simplify(d_lam / lam)                 # independent of lambda: sup = this value
    assert sympy.diff(per_lambda, lam) == 0
    # product Gaussians: Renyi divergences add over coordinates
    av, bv, sig = [Fraction(1, 3), Fraction(-2), Fraction(5, 7)], [Fraction(0), Fraction(1, 2), Fraction(5, 7)], Fraction(3, 4)
    expected = sum(sympy.Rational(per_lambda.subs({a: sympy.Rational(u.numerator, u.denominator),
                                                    b: sympy.Rational(v.numerator, v.denominator),
                                                    s: sympy.Rational(3, 4)}))
                   for u, v in zip(av, bv))
    got = gaussian_dstar(av, bv, sig)
    assert sympy.Rational(got.numerator, got.denominator) == expected


@pytest.mark.parametrize("fam,d,k,n", [("conjunction", 3, 2, 2), ("parity", 3, 2, 2), ("parity", 2, 1, 3),
                                       ("conjunction", 2, 2, 2)])
def test_exact_dataset_sensitivity_equals_diameter_over_n(fam, d, k, n):
    a, _ = workload(fam, d, k)
    sens = dataset_sensitivities(a, d, n)
    r = diameters(fam, d, k)
    assert sens.record_sq == Fraction(r.delta_sq, n * n)
    assert sens.attribute_sq == Fraction(r.delta0_sq, n * n)
    priv = projection_privacy(fam, d, k, n, "1/3")
    assert priv.rho == sens.record_sq / (2 * Fraction(1, 9))
    assert priv.rho0 == sens.attribute_sq / (2 * Fraction(1, 9))


def test_printed_delta_variant_is_conservative_for_even_k_parity():
    exact = projection_privacy("parity", 4, 2, 10, 1)
    printed = projection_privacy("parity", 4, 2, 10, 1, delta_variant="printed")
    assert (exact.delta_sq, printed.delta_sq) == (4, 6)          # E-PDP-Thm11 (docs/errata.md): Delta^2 = 4 < m = 6
    assert printed.eps_sq > exact.eps_sq and printed.eps0_sq == exact.eps0_sq


def test_privacy_input_validation():
    with pytest.raises(FloatRefusedError):
        projection_privacy("parity", 3, 2, 2, 0.5)
    with pytest.raises(InvalidInputError):
        projection_privacy("parity", 3, 2, 2, "-1/2")
    with pytest.raises(InvalidInputError):
        projection_privacy("majority", 3, 2, 2, 1)
    with pytest.raises(InvalidInputError):
        projection_privacy("parity", 3, 4, 2, 1)
    with pytest.raises(InvalidInputError):
        projection_privacy("parity", 3, 2, 0, 1)
    with pytest.raises(InvalidInputError):
        projection_privacy("parity", 3, 2, 2, 1, delta_variant="guess")
    with pytest.raises(InvalidInputError):
        gaussian_dstar([0, 1], [0], 1)
    with pytest.raises(InvalidInputError):
        dataset_sensitivities(np.zeros((8, 2)), 3, 1)


def test_mechanism_input_validation():
    verts = workload("conjunction", 3, 2)[0].astype(np.float64)
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(InvalidInputError):
            ProjectionMechanism(verts, bad)
    mech = ProjectionMechanism(verts, 1.0)
    with pytest.raises(InvalidInputError):
        mech.true_answers([0, 8])
    with pytest.raises(InvalidInputError):
        mech.sample([0, 1], 0, np.random.default_rng(0))
    with pytest.raises(InvalidInputError):
        hull_projection(verts, np.zeros(2))
    with pytest.raises(InvalidInputError):
        hull_projection(verts, np.array([0.0, np.nan, 0.0]))


def test_utility_eq2_statistical():
    """eq. (2): E[(1/m)||M(x)-Q(x)||^2] <= min{sigma^2, sigma Delta sqrt(2 log|X|)/m}.  Errors lie in
    [0, Delta^2/m] (both points in the hull); in each of the two cases the empirical-Bernstein lower
    confidence bound (alpha = 5e-7) exceeds the claimed bound with probability <= 5e-7 if the claim
    holds: total false-failure rate <= 1e-6 (union bound)."""
    rng = np.random.default_rng(5)
    for fam, sigma in (("parity", 0.25), ("conjunction", 2.0)):
        verts = workload(fam, 4, 2)[0].astype(np.float64)
        delta_sq = diameters(fam, 4, 2).delta_sq
        q, ys, yhat = ProjectionMechanism(verts, sigma).sample(rng.integers(0, 16, 40), 3000, rng)
        assert ys.shape == yhat.shape == (3000, 6)
        z = np.sum((yhat - q) ** 2, axis=1) / 6
        bound = utility_bound(sigma, math.sqrt(delta_sq), 6, 16)
        assert empirical_bernstein_lower(z, delta_sq / 6, 5e-7) <= bound


def test_utility_bound_formula():
    # sympy evaluation of min{sigma^2, sigma Delta sqrt(2 ln|X|)/m} at exact inputs
    for sigma, dsq, m, size in ((Fraction(1, 3), 6, 6, 16), (Fraction(3), 4, 6, 16), (Fraction(1), 35, 35, 128)):
        s = sympy.Rational(sigma.numerator, sigma.denominator)
        expected = sympy.Min(s ** 2, s * sympy.sqrt(dsq) * sympy.sqrt(2 * sympy.log(size)) / m)
        assert abs(utility_bound(float(sigma), math.sqrt(dsq), m, size) - float(expected.evalf(30))) < 1e-12


def test_empirical_bernstein_lower_properties():
    """Maurer & Pontil 2009 ("Empirical Bernstein bounds and sample variance penalization"), Thm 4,
    for i.i.d. Z in [0, 1]: w.p. >= 1 - alpha, E Z >= mean - sqrt(2 V ln(2/alpha)/N) - 7 ln(2/alpha)/(3(N-1))
    (V = sample variance, ddof 1).  For Z in [0, R] apply it to Z/R: the sqrt term is unchanged in
    the original units and the last term becomes 7 R ln(2/alpha)/(3(N-1))."""
    z = np.random.default_rng(3).random(500)
    lo = empirical_bernstein_lower(z, 1.0, 1e-3)
    assert lo < z.mean()
    # the formula, recomputed from its definition
    lt = math.log(2 / 1e-3)
    assert math.isclose(lo, z.mean() - math.sqrt(2 * np.var(z, ddof=1) * lt / 500) - 7 * lt / (3 * 499), rel_tol=1e-12)
    # range R != 1: samples in [0, 3], compared with the rescaled formula and with 3 x (bound for Z/3)
    big = 3.0 * np.random.default_rng(4).random(400)
    lo3 = empirical_bernstein_lower(big, 3.0, 1e-3)
    assert math.isclose(lo3, big.mean() - math.sqrt(2 * np.var(big, ddof=1) * lt / 400) - 7 * 3.0 * lt / (3 * 399),
                        rel_tol=1e-12)
    assert math.isclose(lo3, 3.0 * empirical_bernstein_lower(big / 3.0, 1.0, 1e-3), rel_tol=1e-12)
    with pytest.raises(InvalidInputError):
        empirical_bernstein_lower(np.array([0.5, 2.0]), 1.0, 0.1)
    with pytest.raises(InvalidInputError):
        empirical_bernstein_lower(np.array([0.5]), 1.0, 0.1)


@settings(max_examples=80, deadline=None)
@given(points=st.lists(st.lists(st.integers(-2, 2), min_size=3, max_size=3), min_size=1, max_size=6),
       y=st.lists(st.fractions(min_value=-4, max_value=4, max_denominator=6), min_size=3, max_size=3))
def test_wolfe_on_degenerate_point_clouds_matches_exact_oracle(points, y):
    """Random small integer clouds (duplicates, collinear / coplanar sets) in R^3."""
    exact_pt, support = exact_hull_projection(points, y)
    _assert_convex_combination(points, support, exact_pt)
    got = hull_projection(np.array(points, dtype=np.float64), np.array([float(v) for v in y]))
    assert np.allclose(got.point, [float(v) for v in exact_pt], atol=1e-9, rtol=0)


def test_wolfe_agrees_with_scipy_nnls_penalty_formulation():
    """Independent solver: scipy.optimize.nnls on min ||V^T w - y||^2 + M^2 (1^T w - 1)^2, w >= 0
    (penalty M = 1e5, so agreement only to ~1e-6)."""
    from scipy.optimize import nnls

    rng = np.random.default_rng(8)
    verts = workload("parity", 4, 2)[0].astype(np.float64)
    big = 1e5
    for _ in range(30):
        y = rng.normal(0.5, 1.5, verts.shape[1])
        mat = np.vstack([verts.T, big * np.ones((1, verts.shape[0]))])
        w, _ = nnls(mat, np.append(y, big))
        assert np.allclose(hull_projection(verts, y).point, w @ verts, atol=1e-6)
