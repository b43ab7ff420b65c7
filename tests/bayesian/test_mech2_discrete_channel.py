"""Tests of bcdp.bayesian.mech2_discrete (BCDP paper, Mechanism 2, Sec. 4) against independent
computations: brute-force sums over {-1, 1}^m, a literal seeded simulation of Mechanism 2's steps
(K, S, uniform direction, hemisphere test) with a chi-square bound (alpha = 1e-6), the project's
continuous sampler at d = 1 with a binomial (Hoeffding) bound (alpha = 1e-6), and the mpmath
kernel of mmean_finite's "mech2_cube" channel."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.bayesian import mechanisms
from bcdp.bayesian import mech2_discrete as md
from bcdp.bayesian.mmean_finite import mmean_joint_kernel
from bcdp.bayesian.notions import cdp_vector, ldp_epsilon
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError

FACTORS = (2, 3, Fraction(7, 2), Fraction(11, 10))


def brute_T(m):
    return sum(u[0] for u in itertools.product((-1, 1), repeat=m) if sum(u) > 0)


def test_hemisphere_sum_against_enumeration():
    for m in range(1, 9):
        assert md.cube_hemisphere_sum(m) == brute_T(m)
    # a wrong variant (the coordinate hemisphere u_1 > 0 instead of u^T 1 > 0) differs for m >= 3
    for m in range(3, 9):
        wrong = sum(u[0] for u in itertools.product((-1, 1), repeat=m) if u[0] > 0)
        assert wrong != md.cube_hemisphere_sum(m)


def test_inputs_refused_and_boundaries():
    with pytest.raises(FloatRefusedError):
        md.cube_law((1, -1), 2.0)
    with pytest.raises(FloatRefusedError):
        md.two_point_law(0.5, 3)
    with pytest.raises(WrongTypeError):
        md.cube_constant(True, 3)
    with pytest.raises(InvalidInputError):
        md.cube_constant(2, 1)                       # E = 1 (alpha = 0) refused ...
    assert md.cube_constant(2, Fraction(1000001, 1000000)) > 0   # ... E just above 1 accepted
    with pytest.raises(InvalidInputError):
        md.cube_hemisphere_sum(0)
    assert md.cube_hemisphere_sum(md.MAX_CUBE_DIM) == brute_T(md.MAX_CUBE_DIM)
    with pytest.raises(InvalidInputError):
        md.cube_hemisphere_sum(md.MAX_CUBE_DIM + 1)
    with pytest.raises(InvalidInputError):
        md.cube_law((1, 0), 3)                       # off the vertices: refused
    with pytest.raises(InvalidInputError):
        md.cube_law((1, "1/2"), 3)
    md.cube_law((0, 0), 3)                           # the centre is accepted
    with pytest.raises(InvalidInputError):
        md.two_point_law("101/100", 3)               # |v| > r refused, |v| = r accepted
    assert sum(md.two_point_law(1, 3).values()) == 1
    with pytest.raises(InvalidInputError):
        md.mmean_cube_mechanism([3, 1])              # a zero stage budget (factor 1) refused
    with pytest.raises(InvalidInputError):
        mmean_joint_kernel([sympy.log(2), sympy.log(3)], 2, "mech2_cube", 30, None, (0, 1))


def closed_form_law(v, E):
    """P(u | v) = (2p, 1, 2(1-p)) / 2^m as u^T v >0, =0, <0 (p = E/(E+1)); uniform at v = 0."""
    m = len(v)
    p = Fraction(E) / (Fraction(E) + 1)
    out = {}
    for u in itertools.product((-1, 1), repeat=m):
        dot = sum(a * b for a, b in zip(u, v))
        if not any(v):
            out[u] = Fraction(1, 2 ** m)
        else:
            out[u] = (2 * p if dot > 0 else (1 if dot == 0 else 2 * (1 - p))) / Fraction(2 ** m)
    return out


def test_law_closed_form_unbiased_isotropic():
    for m in range(1, 6):
        for E in FACTORS:
            B = md.cube_constant(m, E)
            for v in list(itertools.product((-1, 1), repeat=m)) + [(0,) * m]:
                law = md.cube_law(v, E)
                assert law == closed_form_law(v, E)
                assert sum(law.values()) == 1
                # mean v, by a sum written here
                mean = [B * sum(u[j] * p for u, p in law.items()) for j in range(m)]
                assert mean == list(v)
                assert md.law_mean(law, B) == tuple(Fraction(t) for t in v)
                second = [[B * B * sum(u[i] * u[j] * p for u, p in law.items()) for j in range(m)] for i in range(m)]
                assert second == [[B * B if i == j else 0 for j in range(m)] for i in range(m)]
                assert md.law_second_moment(law, B) == tuple(tuple(x) for x in second)
            # the printed constant (twice the unbiased one, E-Mech2-B) is biased: rejected
            v = (1,) * m
            assert md.law_mean(md.cube_law(v, E), 2 * B) != v


def test_off_vertex_hemisphere_sum_not_parallel():
    """Why inputs are restricted to the vertices: for v = (1, 0) the hemisphere sum is 2 e_1, for
    v = (1, 1)/sqrt(2) it is (1, 1): different lengths, so no single B_m is unbiased for both."""
    U = list(itertools.product((-1, 1), repeat=2))
    t_axis = [sum(u[j] for u in U if u[0] > 0) for j in range(2)]
    t_diag = [sum(u[j] for u in U if u[0] + u[1] > 0) for j in range(2)]
    assert t_axis == [2, 0] and t_diag == [1, 1]
    assert t_axis[0] ** 2 != t_diag[0] ** 2 + t_diag[1] ** 2


def test_exact_ldp_is_alpha():
    for m in range(1, 5):
        for E in FACTORS:
            mech = md.cube_mechanism(m, E)
            rows = mech.kernel
            brute = max(max(r[j] for r in rows) / min(r[j] for r in rows) for j in range(len(mech.outputs)))
            assert brute == Fraction(E) == ldp_epsilon(mech).ratio
            assert brute != Fraction(E) ** 2    # a composition-style over-count would be wrong


def test_two_point_ldp_on_a_grid():
    grid = [Fraction(k, 8) for k in range(-8, 9)]
    for E in FACTORS:
        laws = {v: md.two_point_law(v, E) for v in grid}
        ratio = max(laws[a][s] / laws[b][s] for a in grid for b in grid for s in (1, -1))
        assert ratio == Fraction(E)
        inner = [v for v in grid if abs(v) <= Fraction(1, 2)]
        assert max(laws[a][s] / laws[b][s] for a in inner for b in inner for s in (1, -1)) < Fraction(E)
        B = md.two_point_constant(E)
        for v in grid:
            assert B * (laws[v][1] - laws[v][-1]) == v                      # unbiased
            assert B * B * (laws[v][1] + laws[v][-1]) - v * v == B * B - v * v  # |Z| = B


def test_two_point_matches_the_continuous_sampler():
    """d = 1: the exact law equals the project's Mechanism 2 sampler (mechanisms.duchi_l2):
    the frequency of Z > 0 is within a Hoeffding bound (alpha = 1e-6) of P(Z = +B), and the
    sampler's constant is B = (E+1)/(E-1)."""
    rng = np.random.default_rng(20260)
    n = 200_000
    tol = math.sqrt(math.log(2 / 1e-6) / (2 * n))
    for E, v in ((3, Fraction(3, 5)), (Fraction(7, 2), Fraction(-1, 4)), (2, Fraction(1))):
        eps = math.log(float(E))
        z = mechanisms.duchi_l2(np.full((n, 1), float(v)), eps, 1.0, rng)
        freq = float(np.mean(z[:, 0] > 0))
        exact = float(md.two_point_law(v, E)[1])
        assert abs(freq - exact) < tol
        assert abs(np.abs(z[:, 0]).max() - float(md.two_point_constant(E))) < 1e-9
        # a wrong law (keep probability p used as P(Z = +B) directly) is rejected
        p = float(E) / (float(E) + 1)
        assert abs(freq - p) > tol or v == 1


def test_cube_law_matches_a_literal_simulation():
    """Simulate Mechanism 2's steps on the cube: K, S, u uniform on U, accept when (2K-1) u^T v~ > 0,
    accept with probability 1/2 when u^T v~ = 0, else redraw; chi-square at alpha = 1e-6."""
    rng = np.random.default_rng(7)
    from scipy.stats import chi2

    for m, v, E in ((2, (1, -1), 3), (3, (1, 1, -1), Fraction(5, 2)), (4, (1, -1, 1, 1), 2)):
        U = np.array(list(itertools.product((-1, 1), repeat=m)))
        n = 120_000
        p = float(E) / (float(E) + 1)
        K = rng.random(n) < p
        counts = np.zeros(len(U))
        todo = np.arange(n)
        while todo.size:
            idx = rng.integers(0, len(U), todo.size)
            dot = (2 * K[todo] - 1) * (U[idx] @ np.array(v))
            accept = (dot > 0) | ((dot == 0) & (rng.random(todo.size) < 0.5))
            np.add.at(counts, idx[accept], 1)
            todo = todo[~accept]
        law = md.cube_law(v, E)
        expected = np.array([float(law[tuple(u)]) for u in U]) * n
        stat = float(((counts - expected) ** 2 / expected).sum())
        assert stat < chi2.ppf(1 - 1e-6, len(U) - 1)


def test_mmean_cube_mechanism_exact_and_highprec_agree():
    factors = [3, 2, Fraction(3, 2)]
    mech = md.mmean_cube_mechanism(factors)
    assert len(mech.outputs) == 2 ** 6
    assert ldp_epsilon(mech).ratio == 9                   # e^{c_d} = 3 * 2 * 3/2
    cdp = [p.ratio for p in cdp_vector(mech)]
    c_exp = [Fraction(3), Fraction(6), Fraction(9)]
    assert all(a <= b for a, b in zip(cdp, c_exp))        # c-CDP (proof of Thm 2)
    c_sorted = [sympy.log(3), sympy.log(6), sympy.log(9)]
    hp = mmean_joint_kernel(c_sorted, 3, "mech2_cube", 50, None, (-1, 1))
    assert hp.outputs == tuple(tuple(tuple(u) for u in out) for out in mech.outputs)
    with mpmath.workdps(50):
        for r_exact, r_hp in zip(mech.kernel, hp.kernel):
            for a, b in zip(r_exact, r_hp):
                assert abs(mpmath.mpf(a.numerator) / a.denominator - b) < mpmath.mpf(10) ** -45
    # order: stages see the sorted coordinates
    perm = md.mmean_cube_mechanism(factors, order=(2, 0, 1))
    x = (1, -1, 1)
    assert perm.row(x) == mech.row((x[2], x[0], x[1]))
