"""Tests of :mod:`bcdp.dme.l2` (thesis Algs 3.6.1-3.6.2, Thm 3.6.5): exact sympy rotation, unbiasedness
with a pluggable l_inf step, the exact law of ||U x||_inf over all sign vectors, and the float twins.

Oracles written here: U[i][j] = (-1)^{popcount(i & j)} s_j / sqrt(d) entry by entry, the laws by
enumerating signs with sympy, r_inf with mpmath at 60 digits; samplers against Hoeffding bounds with
false-failure rate alpha = 1e-6 (seeded).  Each test rejects a deliberately wrong variant.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.dme import l2

ALPHA = 1e-6


def h(i: int, j: int) -> int:
    return -1 if bin(i & j).count("1") % 2 else 1


def oracle_U(signs) -> sympy.Matrix:
    d = len(signs)
    return sympy.Matrix(d, d, lambda i, j: h(i, j) * signs[j] / sympy.sqrt(d))


@pytest.mark.parametrize("d", [1, 2, 4, 8])
def test_rotation_is_orthogonal_exactly(d):
    sign_sets = list(itertools.product((1, -1), repeat=d)) if d <= 4 else [(1, -1, -1, 1, 1, 1, -1, 1)]
    for s in sign_sets:
        U = l2.rotation_matrix(s)
        assert U == oracle_U(s)
        assert sympy.simplify(U.T * U) == sympy.eye(d)
        if d > 1:
            assert sympy.simplify((U * sympy.sqrt(d)).T * (U * sympy.sqrt(d))) != sympy.eye(d)  # unscaled H D


@pytest.mark.parametrize("signs", [(1, 1, 1), (1, 2), (True, 1), ()])
def test_rotation_refuses_bad_signs(signs):
    with pytest.raises(InvalidInputError):
        l2.rotation_matrix(signs)


def test_rotate_round_trip_and_norm():
    x = (F(1, 3), F(-1, 2), F(0), F(2, 7))
    for s in itertools.product((1, -1), repeat=4):
        w = l2.rotate(x, s)
        assert l2.inverse_rotate(w, s) == tuple(sympy.Rational(v.numerator, v.denominator) for v in x)
        assert sympy.simplify(sum(v * v for v in w) - sum(v * v for v in x)) == 0
    with pytest.raises(FloatRefusedError):
        l2.rotate((0.5, 0.5), (1, 1))


@pytest.mark.parametrize("r2, d, n, beta", [(1, 4, 2, F(1, 10)), (F(3, 2), 1024, 7, F(1, 1000)), (2, 1, 1, F(99, 100))])
def test_clip_radius_against_mpmath(r2, d, n, beta):
    mpmath.mp.dps = 60
    oracle = 10 * mpmath.mpf(F(r2).numerator) / F(r2).denominator * mpmath.sqrt(
        mpmath.log(d * n * mpmath.mpf(beta.denominator) / beta.numerator) / d)
    got = mpmath.mpf(str(l2.clip_radius(r2, d, n, beta).evalf(60)))
    assert abs(got - oracle) < mpmath.mpf(10) ** -50
    assert abs(got - oracle / 10) > 1  or oracle < 1.2  # a wrong constant (1 instead of 10) is far off
    assert abs(l2.clip_radius_float(r2, d, n, beta) - float(oracle)) < 1e-12 * float(oracle)


@pytest.mark.parametrize("beta", [0, 1, F(3, 2)])
def test_clip_radius_refuses_beta_outside_open_unit_interval(beta):
    with pytest.raises(InvalidInputError):
        l2.clip_radius(1, 4, 2, beta)
    l2.clip_radius(1, 4, 2, F(999, 1000))


def test_clip_and_two_point_law():
    r = sympy.Rational(1, 2)
    assert l2.clip((sympy.sqrt(2) / 2, F(-1, 3), -1), r) == (r, sympy.Rational(-1, 3), -r)
    w = (sympy.sqrt(2) / 4, sympy.Rational(-1, 3))
    law = l2.two_point_linf_law(w, r, 3)
    assert sympy.simplify(sum(p for p, _ in law)) == 1
    assert tuple(sympy.simplify(sum(p * v[i] for p, v in law) - w[i]) for i in range(2)) == (0, 0)
    with pytest.raises(InvalidInputError):
        l2.two_point_linf_law((sympy.sqrt(2) / 2,), r, 3)  # outside [-r, r]: clip first


@pytest.mark.parametrize("x, signs", [
    ((F(1, 3),), (-1,)),
    ((F(1, 3), F(-1, 2)), (1, -1)),
    ((F(1, 3), F(-1, 2), F(0), F(1, 5)), (1, -1, 1, 1)),
    ((F(1, 3), F(-1, 2), F(0), F(1, 5)), (-1, -1, 1, -1)),
])
def test_l2_is_unbiased_when_clipping_is_inactive_and_biased_otherwise(x, signs):
    norm = sum(v * v for v in x)
    r = sympy.Integer(1)  # >= ||x||_2 >= ||U x||_inf: no clipping
    assert norm <= 1
    law = l2.l2_estimate_law(x, signs, r)
    assert l2.law_mean(law) == tuple(sympy.Rational(v.numerator, v.denominator) for v in x)
    # rotation invariance: E||x_hat - x||^2 = E||w_hat - w||^2
    w = l2.rotate(x, signs)
    lw = l2.two_point_linf_law(w, r, 3)
    mse_x = sympy.simplify(sum(p * sum((a - b) ** 2 for a, b in zip(v, x)) for p, v in law))
    mse_w = sympy.simplify(sum(p * sum((a - b) ** 2 for a, b in zip(v, w)) for p, v in lw))
    assert sympy.simplify(mse_x - mse_w) == 0
    # a radius that clips a coordinate biases the estimate (the w.p. 1 - beta of Thm 3.6.1 matters)
    peak = max(abs(v) for v in w)
    if len(x) > 1:
        small = l2.l2_estimate_law(x, signs, peak / 2)
        assert l2.law_mean(small) != tuple(sympy.Rational(v.numerator, v.denominator) for v in x)


def test_l2_plugged_step_is_used():
    x, s = (F(1, 3), F(-1, 2)), (1, 1)

    def biased_step(w, r):
        return [(sympy.Integer(1), tuple(v + 1 for v in w))]

    mean = l2.law_mean(l2.l2_estimate_law(x, s, 1, linf_law=biased_step))
    assert mean != (sympy.Rational(1, 3), sympy.Rational(-1, 2))


@pytest.mark.parametrize("x", [(F(1, 3), F(1, 2)), (F(1), F(0), F(0), F(0)), (F(1, 2), F(-1, 3), F(1, 4), F(1, 5)),
                               tuple(F(1, 3) for _ in range(8))])
def test_rotated_linf_law_matches_sympy_enumeration(x):
    d = len(x)
    oracle: dict = {}
    for s in itertools.product((1, -1), repeat=d):
        U = oracle_U(s)
        val = max(sympy.nsimplify(e ** 2) for e in U * sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in x]))
        key = F(int(val.p), int(val.q))
        oracle[key] = oracle.get(key, F(0)) + F(1, 2 ** d)
    law = l2.rotated_linf_law(x)
    assert law == oracle and sum(law.values()) == 1
    norm2 = sum(v * v for v in x)
    assert max(law) <= norm2  # ||U x||_inf <= ||x||_2
    for t2 in sorted(law):
        tail = l2.rotation_tail(x, t2)
        assert tail == sum(p for v, p in oracle.items() if v > t2)
        assert tail <= 2 * d * math.exp(-float(t2) * d / (2 * float(norm2))) + 1e-15  # Hoeffding + union


def test_thm365_is_deterministic_for_small_d():
    """For d <= 100 log(dn/beta), r_inf >= r2 >= ||U x||_inf: the tail at r_inf is exactly 0."""
    x = tuple(F(1, 4) for _ in range(16))  # ||x||_2 = 1 = r2
    r_inf = l2.clip_radius(1, 16, 1, F(1, 2))
    assert r_inf > 1
    assert l2.rotation_tail(x, 1) == 0
    assert l2.rotation_tail(x, F(1, 16)) > 0  # a smaller threshold is exceeded (the wrong variant)


# -- float twins -----------------------------------------------------------------------------------------

def test_rotate_float_matches_exact():
    x = (F(1, 3), F(-1, 2), F(0), F(1, 5), F(1, 7), F(0), F(-2, 9), F(1, 11))
    s = (1, -1, -1, 1, 1, 1, -1, 1)
    exact = np.array([float(v) for v in l2.rotate(x, s)])
    got = l2.rotate_float([[float(v) for v in x]], s)[0]
    assert np.allclose(got, exact, atol=1e-14)
    assert np.allclose(l2.inverse_rotate_float(got[None, :], s)[0], [float(v) for v in x], atol=1e-14)
    assert not np.allclose(l2.rotate_float([[float(v) for v in x]], s)[0][::-1], exact)


def test_l2_mechanism_float_is_unbiased_within_hoeffding():
    rng = np.random.default_rng(365)
    d, n = 8, 400_000
    x = np.array([0.3, -0.2, 0.1, 0.0, 0.25, -0.4, 0.05, 0.1])
    s = np.array([1, -1, 1, 1, -1, 1, -1, -1])
    r = l2.clip_radius_float(1, d, n, 0.1)
    c = 2.0  # E = 3
    # x_hat_i - x_i = sum over users u and coordinates j of U_ji (w_hat_uj - w_j)/n: n d independent
    # terms of range 2 r c/(n sqrt(d)); Hoeffding per coordinate, union over the d coordinates
    t = r * c * math.sqrt(2 * math.log(2 * d / ALPHA) / n)
    xhat = l2.l2_mechanism_float(np.tile(x, (n, 1)), 1, 0.1, rng, signs=s)
    assert np.max(np.abs(xhat - x)) <= t
    # the wrong inverse (U instead of U^T) is rejected by the same tolerance
    w_bar = l2.rotate_float(xhat[None, :], s)[0]
    wrong = l2.rotate_float(w_bar[None, :], s)[0]
    assert np.max(np.abs(wrong - x)) > t


def test_rotation_max_linf_float_matches_the_exact_law():
    rng = np.random.default_rng(3650)
    x = (F(1, 2), F(-1, 3), F(1, 4), F(1, 5), F(0), F(1, 6), F(-1, 7), F(1, 8))
    law = l2.rotated_linf_law(x)
    T = 100_000
    vals = l2.rotation_max_linf_float(np.array([[float(v) for v in x]]), rng, T) ** 2
    keys = sorted(law)
    t = math.sqrt(math.log(2 * len(keys) / ALPHA) / (2 * T))  # Hoeffding, union over the values
    for key in keys:
        freq = np.mean(np.abs(vals - float(key)) < 1e-9)
        assert abs(freq - float(law[key])) <= t
    wrong = l2.rotated_linf_law(tuple(2 * v for v in x))  # the law of 2x has other support
    assert set(wrong) != set(keys)
