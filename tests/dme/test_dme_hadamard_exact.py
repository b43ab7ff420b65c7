"""Exact tests of the l1-ball Hadamard mechanism (thesis Alg 3.4.1, Lemma 3.4.1, Thm 3.4.1).

Oracles written here, independently of :mod:`bcdp.dme.hadamard`: H_d from the closed form
H[i][j] = (-1)^{popcount(i & j)} (checked against the Sylvester recursion and H H^T = d I in sympy),
the law from (3.13) as printed with sympy's exact sqrt (y = H x / sqrt(D)), and every moment by
enumerating the 2D outputs as sympy vectors.  Each property also has a deliberately wrong variant
that the same assertion rejects.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.dme import hadamard as hd

GRID_E = (F(2), F(3), F(5, 2))
DIMS = (1, 2, 3, 4, 8)


# -- oracles ----------------------------------------------------------------------------------------

def oracle_H(D: int) -> sympy.Matrix:
    return sympy.Matrix(D, D, lambda i, j: (-1) ** bin(i & j).count("1"))


def oracle_law(x, r1, E, a=None):
    """(3.13) literally: y = H x / sqrt(D), P[+] = 1/2 + sqrt(D) y[j] (E-1) / (2 r1 (E+1)); the output
    vectors +r1 c H(j) and -a c H(j) (a = r1 is the reading of the algorithm box)."""
    a = r1 if a is None else a
    D = 1 << (len(x) - 1).bit_length()
    H = oracle_H(D)
    xv = sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in map(F, x)] + [0] * (D - len(x)))
    y = H * xv / sympy.sqrt(D)
    r1s, Es = sympy.Rational(F(r1).numerator, F(r1).denominator), sympy.Rational(F(E).numerator, F(E).denominator)
    c = (Es + 1) / (Es - 1)
    out = []
    for j in range(D):
        pp = sympy.Rational(1, 2) + sympy.sqrt(D) * y[j] / (2 * r1s) * (Es - 1) / (Es + 1)
        col = H[:, j]
        out.append((sympy.simplify(pp / D), (j, 1), r1s * c * col))
        out.append((sympy.simplify((1 - pp) / D), (j, -1), -sympy.Rational(F(a).numerator, F(a).denominator) * c * col))
    return out, xv


def to_sym(v):
    v = F(v)
    return sympy.Rational(v.numerator, v.denominator)


def random_ball_point(rng: random.Random, d: int, r1: F, on_sphere: bool = False) -> tuple[F, ...]:
    w = [F(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(d)]
    norm = sum(abs(v) for v in w)
    if norm == 0:
        w[0], norm = F(1), F(1)
    scale = r1 / norm if on_sphere else r1 * F(rng.randint(0, 99), 100) / norm
    return tuple(v * scale for v in w)


# -- Sylvester matrix -------------------------------------------------------------------------------

@pytest.mark.parametrize("D", [1, 2, 4, 8, 16])
def test_sylvester_matrix_is_the_closed_form_and_orthogonal(D):
    H = sympy.Matrix(hd.sylvester_hadamard(D))
    assert H == oracle_H(D)
    assert H * H.T == D * sympy.eye(D) and H == H.T


def test_sylvester_recursion_by_blocks():
    H4, H8 = sympy.Matrix(hd.sylvester_hadamard(4)), sympy.Matrix(hd.sylvester_hadamard(8))
    assert H8 == sympy.Matrix(sympy.BlockMatrix([[H4, H4], [H4, -H4]]))
    assert hd.sylvester_hadamard(2) == ((1, 1), (1, -1))


@pytest.mark.parametrize("bad", [0, 3, 6, 12, 2 ** 13])
def test_sylvester_refuses_non_powers_of_two(bad):
    with pytest.raises(InvalidInputError):
        hd.sylvester_hadamard(bad)


@pytest.mark.parametrize("d, D", [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16)])
def test_padded_dimension(d, D):
    assert hd.padded_dimension(d) == D == 2 ** math.ceil(math.log2(d))


def test_hadamard_coefficients_are_sqrt_D_times_y():
    x = (F(1, 2), F(-1, 3), F(1, 7))
    law, xv = oracle_law(x, 1, 3)
    y = oracle_H(4) * xv / sympy.sqrt(4)
    assert [to_sym(t) for t in hd.hadamard_coefficients(x)] == list(sympy.sqrt(4) * y)


# -- the law, its mean and its error -----------------------------------------------------------------

@pytest.mark.parametrize("d", DIMS)
@pytest.mark.parametrize("E", GRID_E)
def test_law_mean_and_mse_against_enumeration(d, E):
    rng = random.Random(1000 * d + int(E * 2))
    r1 = F(3, 2)
    for k in range(3):
        x = random_ball_point(rng, d, r1, on_sphere=(k == 0))
        law = hd.l1_hadamard_law(x, r1, E)
        outs, xv = oracle_law(x, r1, E)
        assert {m: to_sym(p) for m, p in law.items()} == {m: p for p, m, _ in outs}
        assert sum(law.values()) == 1 and min(law.values()) > 0
        xs = sympy.Matrix([to_sym(v) for v in x])
        mean = sum((p * z[:d, 0] for p, _, z in outs), sympy.zeros(d, 1))
        assert mean == xs                                      # Lemma 3.4.1(2): unbiased
        assert [to_sym(v) for v in hd.l1_hadamard_mean(x, r1, E)] == list(mean)
        mse = sum((p * ((z[:d, 0] - xs).T * (z[:d, 0] - xs))[0] for p, _, z in outs), sympy.Integer(0))
        assert to_sym(hd.l1_hadamard_mse(x, r1, E)) == mse
        assert hd.l1_hadamard_mse(x, r1, E) <= hd.l1_hadamard_mse_bound(d, r1, E)
        for m, p in law.items():
            z = hd.l1_hadamard_output(m, d, r1, E)
            assert [to_sym(v) for v in z] == list(next(zz for _, mm, zz in outs if mm == m)[:d, 0])


def test_golden_values_d4_E3():
    """d = 4, e^{eps0} = 3 (c = 2), r1 = 1: variances 1003/64, 15, 15, 63/4 (by enumeration here)."""
    for x, want in (((F(1, 2), F(-1, 4), 0, F(1, 8)), F(1003, 64)), ((1, 0, 0, 0), F(15)),
                    ((0, 0, 0, -1), F(15)), ((F(1, 4),) * 4, F(63, 4))):
        outs, _ = oracle_law(x, 1, 3)
        xs = sympy.Matrix([to_sym(v) for v in x])
        enum = sum((p * ((z - xs).T * (z - xs))[0] for p, _, z in outs), sympy.Integer(0))
        assert enum == to_sym(want) == to_sym(hd.l1_hadamard_mse(x, 1, 3))


def test_bound_is_attained_only_at_zero():
    assert hd.l1_hadamard_mse((0, 0, 0), 2, 3) == hd.l1_hadamard_mse_bound(3, 2, 3) == 4 * 3 * 4
    assert hd.l1_hadamard_mse((F(1, 100), 0, 0), 2, 3) < hd.l1_hadamard_mse_bound(3, 2, 3)


def test_wrong_scale_a_is_biased():
    """The reading a = r1 of Alg 3.4.1: with -a H(j), a = 2 r1, the mean is not x (the test that
    accepts a = r1 rejects a = 2 r1)."""
    x = (F(1, 2), F(-1, 4), 0, F(1, 8))
    for a, unbiased in ((1, True), (2, False), (F(1, 2), False)):
        outs, _ = oracle_law(x, 1, 3, a=a)
        mean = sum((p * z for p, _, z in outs), sympy.zeros(4, 1))
        assert (mean == sympy.Matrix([to_sym(v) for v in x])) is unbiased


def test_estimator_mse_of_n_clients():
    """Thm 3.4.1 exact form: by independence, Var(mean) = (1/n^2) sum of the per-client errors;
    checked against the enumerated joint law of two clients (d = 2, 16 joint outputs)."""
    r1, E = F(1), F(5, 2)
    xs = [(F(1, 3), F(-1, 2)), (F(-1, 4), 0)]
    o1, _ = oracle_law(xs[0], r1, E)
    o2, _ = oracle_law(xs[1], r1, E)
    xbar = sympy.Matrix([to_sym(sum(v) / 2) for v in zip(*xs)])
    joint = sympy.Integer(0)
    for p1, _, z1 in o1:
        for p2, _, z2 in o2:
            e = (z1 + z2) / 2 - xbar
            joint += p1 * p2 * (e.T * e)[0]
    assert to_sym(hd.l1_hadamard_estimator_mse(xs, r1, E)) == joint
    assert to_sym(hd.l1_hadamard_estimator_mse(xs[:1], r1, E)) != joint


def test_exact_aggregator_is_the_average_of_outputs():
    msgs = [(0, 1), (3, -1), (2, 1), (3, -1), (1, 1)]
    d, r1, E = 3, F(2), F(3)
    H = oracle_H(4)
    want = sum((s * 2 * 2 * H[:3, j] for j, s in msgs), sympy.zeros(3, 1)) / len(msgs)
    assert [to_sym(v) for v in hd.l1_hadamard_aggregate(msgs, d, r1, E)] == list(want)


# -- privacy ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("d", (1, 2, 4, 8))
@pytest.mark.parametrize("E", GRID_E)
def test_worst_ratio_is_E_attained_at_vertices(d, E):
    ratio, x, xp = hd.l1_hadamard_worst_ratio(d, F(3, 2), E)
    assert ratio == E
    outs_x, _ = oracle_law(x, F(3, 2), E)
    outs_xp, _ = oracle_law(xp, F(3, 2), E)
    oracle = max(p / q for (p, _, _), (q, _, _) in zip(outs_x, outs_xp))
    assert oracle == to_sym(E)
    assert sum(abs(v) for v in x) == sum(abs(v) for v in xp) == F(3, 2)


@pytest.mark.parametrize("d", (2, 3, 4, 8))
def test_random_points_never_exceed_E_and_interior_points_stay_below(d):
    rng = random.Random(77 + d)
    r1, E = F(1), F(3)
    for _ in range(15):
        x, xp = random_ball_point(rng, d, r1), random_ball_point(rng, d, r1, on_sphere=rng.random() < 0.5)
        outs_x, _ = oracle_law(x, r1, E)
        outs_xp, _ = oracle_law(xp, r1, E)
        oracle = max(p / q for (p, _, _), (q, _, _) in zip(outs_x, outs_xp))
        ratio = hd.l1_hadamard_ratio(x, xp, r1, E)
        assert to_sym(ratio) == oracle <= 3
        if sum(abs(v) for v in x) < r1:
            assert ratio < E


def test_ratio_test_rejects_a_mechanism_run_at_a_larger_budget():
    """The same LDP assertion fails for the law at E^2 (a deliberately wrong variant)."""
    x, xp = (F(1), 0), (F(-1), 0)
    assert hd.l1_hadamard_ratio(x, xp, 1, 9) == 9 > 3


# -- communication ----------------------------------------------------------------------------------

@pytest.mark.parametrize("d", (1, 2, 3, 4, 5, 16, 17))
def test_bits(d):
    D = 2 ** math.ceil(math.log2(d))
    assert hd.l1_hadamard_bits(d) == int(math.log2(D)) + 1
    assert hd.l1_hadamard_bits(d, public_randomness=True) == 1
    # the messages are exactly the 2D pairs (j, s): log2(2D) bits are needed and enough
    assert len(hd.l1_hadamard_law((0,) * d, 1, 2)) == 2 ** hd.l1_hadamard_bits(d)


# -- Remark 3.4.1: the l_p ball -------------------------------------------------------------------------

@pytest.mark.parametrize("d, p, r, want", [(8, "3/2", 1, 2), (16, "4/3", 3, 6), (5, 1, 2, 2), (64, "3/2", "1/2", 2)])
def test_lp_radius(d, p, r, want):
    got = hd.lp_ball_l1_radius(d, r, p)
    assert got == sympy.Integer(want)
    ps = sympy.Rational(str(p))
    const = [sympy.Rational(str(r)) * sympy.Integer(d) ** (-1 / ps)] * d        # on the l_p sphere
    assert sympy.simplify(sum(abs(v) ** ps for v in const) ** (1 / ps) - sympy.Rational(str(r))) == 0
    assert sympy.simplify(sum(const) - got) == 0                                  # Hoelder is tight


def test_lp_ball_is_not_inside_the_l1_ball():
    """Remark 3.4.1 as printed (B_p(r) inside B_1(r)) fails at x = (3/5, 3/5), p = 3/2, r = 1."""
    x = [sympy.Rational(3, 5)] * 2
    p = sympy.Rational(3, 2)
    assert sum(v ** p for v in x) <= 1 < sum(x)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_law((F(3, 5), F(3, 5)), 1, 3)
    r1 = hd.lp_ball_l1_radius(2, 1, "3/2")
    assert r1 == sympy.Integer(2) ** sympy.Rational(1, 3) and r1 > sum(x)


# -- input policy and validity conditions (both sides of each boundary) ----------------------------------

def test_validity_boundaries():
    assert hd.output_scale(F(1000001, 1000000)) == 2000001
    with pytest.raises(InvalidInputError):
        hd.output_scale(1)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_law((1,), 0, 3)
    assert sum(hd.l1_hadamard_law((F(1, 2), F(-1, 2)), 1, 3).values()) == 1       # on the sphere
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_law((F(1, 2), F(-1, 2) - F(1, 10 ** 9)), 1, 3)            # just outside
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_law((), 1, 3)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_aggregate([], 2, 1, 3)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_output((4, 1), 3, 1, 3)
    assert hd.l1_hadamard_output((3, 1), 3, 1, 3) == (2, -2, -2)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_output((0, 0), 3, 1, 3)
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_estimator_mse([(0,), (0, 0)], 1, 3)
    with pytest.raises(InvalidInputError):
        hd.lp_ball_l1_radius(4, 1, "1/2")
    assert hd.lp_ball_l1_radius(4, 1, 1) == 1
    assert hd.l1_hadamard_worst_ratio(hd.MAX_VERTEX_DIMENSION, 1, 3)[0] == 3
    with pytest.raises(InvalidInputError):
        hd.l1_hadamard_worst_ratio(hd.MAX_VERTEX_DIMENSION + 1, 1, 3)


def test_floats_and_bools_are_refused():
    with pytest.raises(FloatRefusedError):
        hd.l1_hadamard_law((0.5, 0), 1, 3)
    with pytest.raises(FloatRefusedError):
        hd.l1_hadamard_law((F(1, 2), 0), 1, 3.0)
    with pytest.raises(FloatRefusedError):
        hd.l1_hadamard_mse((F(1, 2), 0), 1.0, 3)
    with pytest.raises(WrongTypeError):
        hd.padded_dimension(True)
    with pytest.raises(WrongTypeError):
        hd.l1_hadamard_law("12", 1, 3)
    with pytest.raises(WrongTypeError):
        hd.l1_hadamard_bits(4, public_randomness=1)
    assert hd.l1_hadamard_law(("1/2", "-1/4"), "1", "5/2") == hd.l1_hadamard_law((F(1, 2), F(-1, 4)), 1, F(5, 2))
