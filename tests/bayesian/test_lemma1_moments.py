"""Tests of bcdp.bayesian.lemma1_moments (BCDP paper, Lemma 1, eqs. (85)-(87), App. C.2; the scalar
case of eq. (88)) against independent computations: exact enumeration of the cube-discretised
M_mean's joint release (two copies, sympy), brute-force enumeration of all outcomes of Mechanism 2
at d = 1 (Fractions), and closed forms written here."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.bayesian import lemma1_moments as lm
from bcdp.bayesian import mech2_discrete as md
from bcdp.bayesian import mmean_utility as mu
from bcdp.core.errors import FloatRefusedError, InvalidInputError

L = sympy.log


def num(e):
    return mu.evaluate(sympy.sympify(e), 50)


def close(a, b, tol=mpmath.mpf(10) ** -40):
    with mpmath.workdps(50):
        return abs(num(a) - num(b)) <= tol * (1 + abs(num(b)))


def test_inputs():
    with pytest.raises(FloatRefusedError):
        lm.covariance_matrix([0.5, 1])
    with pytest.raises(FloatRefusedError):
        lm.scalar_mean_abs(3.0, [0])
    with pytest.raises(InvalidInputError):
        lm.covariance_matrix([L(9), L(36)], [Fraction(1, 2), 1], "cube")   # off the vertices
    lm.covariance_matrix([L(9), L(36)], [-1, 1], "cube")
    with pytest.raises(InvalidInputError):
        lm.stage_moment(2, sympy.Integer(1), "cube")                       # e^1 irrational
    with pytest.raises(InvalidInputError):
        lm.covariance_matrix([1, 2], None, "sphere")
    with pytest.raises(InvalidInputError):
        lm.eq86_matrix([1, 2], [[0, 0]], features=0)                       # features in [1, d]
    with pytest.raises(InvalidInputError):
        lm.eq86_matrix([1, 2], [[0, 0]], features=3)
    assert lm.eq86_matrix([1, 2], [[0, 0]], features=2).shape == (2, 2)
    with pytest.raises(InvalidInputError):
        lm.covariance_matrix([2, 1])                                        # c not sorted
    with pytest.raises(InvalidInputError):
        lm.covariance_matrix([1, 2], ["3/2", 0])                            # outside [-1, 1]
    with pytest.raises(InvalidInputError):
        lm.scalar_law(3, "printed")


def cube_release_moments(factors, x, copies=1):
    """Enumerate the cube M_mean's joint release (exact laws) and return the list of
    (probability, nu) with nu computed here from the stage outputs and weights w_k = b_k^2/m_k."""
    mech = md.mmean_cube_mechanism(factors)
    d = len(factors)
    b = [L(sympy.Rational(f.numerator, f.denominator) if isinstance(f, Fraction) else f) for f in factors]
    w = [b[k] ** 2 / (d - k) for k in range(d)]
    Bs = [md.cube_constant(d - k, factors[k]) for k in range(d)]
    row = mech.row(tuple(x))
    out = []
    for prob, y in zip(row, mech.outputs):
        if prob == 0:
            continue
        nu = []
        for i in range(d):
            num_ = sum(w[k] * Bs[k] * y[k][i - k] for k in range(i + 1))
            nu.append(num_ / sum(w[: i + 1]))
        out.append((prob, nu))
    return out


def test_covariance_against_cube_enumeration():
    for factors, x in (([3, 2], (1, -1)), ([3, 2], (-1, -1)), ([Fraction(5, 2), 2, 3], (1, -1, 1))):
        d = len(factors)
        c = list(itertools.accumulate((L(sympy.nsimplify(f)) for f in factors)))
        lib = lm.covariance_matrix(c, x, "cube")
        law = cube_release_moments(factors, x)
        for i in range(d):
            mean_i = sum(p * nu[i] for p, nu in law)
            assert close(mean_i, x[i])                                   # unbiased
            for j in range(d):
                cov = sum(p * (nu[i] - x[i]) * (nu[j] - x[j]) for p, nu in law)
                assert close(cov, lib[i, j])
        # a wrong variant (off-diagonal terms dropped) is rejected when x != 0
        assert any(not close(lib[i, j], 0) for i in range(d) for j in range(d) if i != j)


def test_sphere_diagonal_and_r_squared():
    c = [L(4), L(8), L(16)]
    x = [Fraction(1, 2), 0, -1]
    S = lm.covariance_matrix(c, x)
    for i, v in enumerate(mu.coordinate_variances(c, x)):
        assert close(S[i, i], v)
    # (85) at d = 1: r^2 = B^2 with B = (F + 1)/(F - 1), F = e^{c/2} = 3 (written here)
    assert sympy.simplify(lm.r_squared([L(9)]) - 4) == 0
    # the sup of (85) is at x = 0: the trace at grid points is not larger
    r2 = num(lm.r_squared(c))
    for pt in itertools.product((-1, Fraction(-1, 3), 0, 1), repeat=3):
        assert num(lm.covariance_matrix(lm.halve(c), pt).trace()) <= r2 + mpmath.mpf(10) ** -40


def test_eq86_identity_against_two_copy_enumeration():
    """E[A A^T] of one user = tr(Sigma_z) Sigma_z, checked on the cube channel by enumerating both
    copies of M_mean(x, c/2) (c/2 has factors (3, 2))."""
    c = [L(9), L(36)]
    for x in ((1, -1), (1, 1)):
        law = cube_release_moments([3, 2], x)
        for f in (1, 2):
            lib = lm.eq86_matrix(c, [x], features=f, channel="cube")
            EAAt = sympy.zeros(f, f)
            EA2 = 0
            for (p1, n1), (p2, n2) in itertools.product(law, law):
                u = sympy.Matrix([n1[i] - x[i] for i in range(f)])
                v = sympy.Matrix([n2[i] - x[i] for i in range(f)])
                A = u * v.T
                EAAt += p1 * p2 * (A * A.T)
                EA2 += p1 * p2 * (u.dot(u) * v.dot(v))
            for i in range(f):
                for j in range(f):
                    assert close(EAAt[i, j], lib[i, j])
            assert close(EA2, lm.eq87_sum(c, [x], features=f, channel="cube"))


def test_eq86_boundary_and_grid():
    # boundary: one coordinate, every x = 0: ||sum E[A A^T]|| = n r^4 exactly
    for c in ([L(9)], [sympy.Rational(1, 3)]):
        for n in (1, 3):
            M = lm.eq86_matrix(c, [[0]] * n)
            assert sympy.simplify(M[0, 0] - n * lm.r_squared(c) ** 2) == 0
            # a bound halved would fail there (the test can see a violation)
            assert not M[0, 0] <= n * lm.r_squared(c) ** 2 / 2
    c = [L(4), L(8), L(16)]
    r4 = num(lm.r_squared(c)) ** 2
    users = [[0, 0, 0], [1, -1, Fraction(1, 2)], [Fraction(-1, 3), 1, 1]]
    for f in (1, 2, 3):
        lhs = lm.spectral_norm(lm.eq86_matrix(c, users, features=f))
        assert lhs <= len(users) * r4
        assert lm.eq87_sum(c, users, features=f) <= len(users) * lm.r_squared(c) ** 2 + sympy.Rational(1, 10 ** 40)


def brute_pairs(E, xs, constant="unbiased"):
    """All outcomes (probability, [A_i]) of n users' two copies at d = 1, from the two-point law."""
    B = md.two_point_constant(E) * (2 if constant == "paper" else 1)
    laws = [md.two_point_law(x, E) for x in xs]   # the coins K, S do not depend on B
    for signs in itertools.product((1, -1), repeat=2 * len(xs)):
        p, A = Fraction(1), []
        for i, x in enumerate(xs):
            s1, s2 = signs[2 * i], signs[2 * i + 1]
            p *= laws[i][s1] * laws[i][s2]
            A.append((s1 * B - Fraction(x)) * (s2 * B - Fraction(x)))
        yield p, A


def test_scalar_max_and_mean_abs_against_brute_force():
    for E in (3, Fraction(9, 7)):
        for xs in ([0], [0, 1], [Fraction(1, 2), -1, 0]):
            n = len(xs)
            outs = list(brute_pairs(E, xs))
            emax = sum(p * max(a * a for a in A) for p, A in outs)
            eabs = sum(p * abs(sum(A)) for p, A in outs) / n
            assert lm.scalar_max_square(E, xs) == emax
            assert lm.scalar_mean_abs(E, xs) == eabs
            r2 = lm.scalar_r_squared(E)
            assert r2 == md.two_point_constant(E) ** 2
            assert emax <= n * r2 * r2                                     # (87)
            assert eabs * eabs <= r2 * r2 / n                              # Jensen route of (88)
            # (86) in d = 1: sum_i E[A_i^2] <= n r^4, and it equals the library's eq87 sum
            s2 = sum(p * sum(a * a for a in A) for p, A in outs)
            assert s2 <= n * r2 * r2
            c = [L(sympy.Integer(E) ** 2) if isinstance(E, int) else L(sympy.Rational(81, 49))]
            assert close(lm.eq87_sum(c, [[x] for x in xs]), s2)
    # the printed constant (output +-2B, mean 2x): E[A_i] = x_i^2, not centred; unbiased: 0
    for x in (1, Fraction(1, 2)):
        assert sum(p * A[0] for p, A in brute_pairs(3, [x], "paper")) == Fraction(x) ** 2
        assert sum(p * A[0] for p, A in brute_pairs(3, [x])) == 0
        xs = [x, x, -x]
        assert lm.scalar_mean_abs(3, xs, "paper") == sum(p * abs(sum(A)) for p, A in brute_pairs(3, xs, "paper")) / 3
        assert lm.scalar_mean_abs(3, xs, "paper") >= Fraction(x) ** 2      # Jensen: >= |E mean A|


def test_r2_ratio_and_corrected_constant():
    for eps in (sympy.Rational(1, 2), sympy.Integer(2), sympy.Integer(20)):
        c = [eps] * 3
        ratio = num(lm.r2_ratio(c))
        assert ratio <= num(lm.corrected_r2_constant(c))
    # growth: r^2 / S(c) at eps = 200 is far above eps = 1/2 (no universal constant)
    assert num(lm.r2_ratio([200] * 3)) > 50 * num(lm.r2_ratio([sympy.Rational(1, 2)] * 3))
