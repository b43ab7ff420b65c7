"""Exact tests of :mod:`bcdp.dme.user_level_vector` (thesis Remark 3.7.4: rotation, then Algs 3.7.1-3.7.4 per coordinate).

Oracles written here: the rotation U = H D / sqrt(d) built from the Sylvester recursion in sympy,
Hadamard entries (-1)^{popcount(i & j)}, nearest midpoints by brute force, the Alg 3.7.1 and Alg 3.7.4
probabilities from the boxes, and the error by enumerating every sign pattern of every user.  Each test
also rejects a deliberately wrong variant.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.dme import user_level_vector as uv


def h(i: int, j: int) -> int:
    return -1 if bin(i & j).count("1") % 2 else 1


def sylvester(d: int) -> sympy.Matrix:
    H = sympy.Matrix([[1]])
    while H.shape[0] < d:
        H = sympy.Matrix(sympy.BlockMatrix([[H, H], [H, -H]]))
    return H


def U_of(signs) -> sympy.Matrix:
    d = len(signs)
    return sylvester(d) * sympy.diag(*signs) / sympy.sqrt(d)


def oracle_nu(w, B, tau) -> int:
    k = int(B / tau)
    mids = [-B + (2 * j + 1) * tau for j in range(k)]
    dist = [sympy.Abs(sympy.nsimplify(w) - a) for a in mids]
    best = min(dist, key=lambda v: float(v))
    return min(j for j in range(k) if sympy.simplify(dist[j] - best) == 0)


def oracle_scalar(nu: int, k: int, E: F) -> dict:
    return {(j, s): F(1, k) * (F(1, 2) + s * h(j, nu) * (E - 1) / (2 * (E + 1))) for j in range(k) for s in (1, -1)}


def oracle_vector_law(nus, k, E) -> dict:
    out = {}
    for combo in itertools.product(*(list(oracle_scalar(nu, k, E).items()) for nu in nus)):
        p = F(1)
        for _, q in combo:
            p *= q
        out[tuple(m for m, _ in combo)] = p
    return out


def ratio(P: dict, Q: dict) -> F:
    return max(P[o] / Q[o] for o in P)


# -- rotation and bins ---------------------------------------------------------------------------------

def test_rotated_means_match_explicit_rotation():
    ys = [(F(1, 2), F(1, 4)), (F(-3, 4), F(1))]
    for signs in itertools.product((1, -1), repeat=2):
        got = uv.rotated_means(ys, signs)
        for y, w in zip(ys, got):
            want = U_of(signs) * sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in y])
            assert all(sympy.simplify(a - b) == 0 for a, b in zip(w, want))
    # bad twin: without the 1/sqrt(d) the image is not the rotation
    w = uv.rotated_means(ys[:1], (1, 1))[0]
    assert sympy.simplify(w[0] - (F(1, 2) + F(1, 4))) != 0


@pytest.mark.parametrize("B, tau", [(2, 1), (4, 1), (1, F(1, 4))])
def test_coordinate_bin_is_the_nearest_midpoint(B, tau):
    B, tau = F(B), F(tau)
    grid = [-B + (2 * tau) * F(i, 4) for i in range(int(4 * B / tau) + 1)]
    irr = [sympy.sqrt(2) / 8, -3 * sympy.sqrt(2) / 8, sympy.sqrt(3) / 2 - 1]
    for w in grid + [v for v in irr if abs(float(v)) <= B]:
        assert uv.coordinate_bin(w, B, tau) == oracle_nu(w, B, tau)
    # boundary of the validity condition |w| <= B_c
    assert uv.coordinate_bin(B, B, tau) == int(B / tau) - 1
    with pytest.raises(InvalidInputError):
        uv.coordinate_bin(B + F(1, 1000), B, tau)
    with pytest.raises(InvalidInputError):
        uv.coordinate_bin(-B * sympy.sqrt(2), B, tau)


def test_rotation_concentration_probability_by_enumeration():
    ys = [(F(1, 2), F(1, 4), F(1, 4), F(1, 8)), (F(0), F(1, 2), F(0), F(1, 4))]
    y0 = (F(0),) * 4
    seen = set()
    for t in (F(3, 8), F(7, 16), F(1, 2), F(9, 16)):
        good = 0
        for signs in itertools.product((1, -1), repeat=4):
            U = U_of(signs)
            ok = all(abs(v) <= t for y in ys for v in U * sympy.Matrix(y))
            good += ok
        want = F(good, 16)
        assert uv.rotation_concentration_probability(ys, y0, t) == want
        seen.add(want)
    assert seen == {0, F(1, 2), 1}  # the instance is informative: the event depends on D
    # bad twin: ||U x||_inf <= ||x||_2 / sqrt(d) is false (||y_1||_2 / 2 < 7/16, yet the probability is 1/2)
    assert uv.rotation_concentration_probability(ys[:1], y0, F(7, 16)) == F(1, 2)
    with pytest.raises(InvalidInputError):
        uv.rotation_concentration_probability(ys, y0, 0)
    with pytest.raises(FloatRefusedError):
        uv.rotation_concentration_probability(ys, y0, 0.5)


# -- Range stage: laws and privacy ----------------------------------------------------------------------

@pytest.mark.parametrize("d, B, tau, E", [(2, 2, 1, F(2)), (2, 4, 1, F(3, 2)), (4, 2, 1, F(3))])
def test_vector_range_law_is_the_product_of_alg371(d, B, tau, E):
    w = tuple(F(-B) + F(2 * B * (c + 1), d + 1) for c in range(d))
    nus = [oracle_nu(v, F(B), F(tau)) for v in w]
    assert uv.vector_range_user_law(w, B, tau, E) == oracle_vector_law(nus, B // tau, E)
    assert sum(uv.vector_range_user_law(w, B, tau, E).values()) == 1
    assert uv.vector_range_user_law(w, B, tau, E) != oracle_vector_law(nus, B // tau, E * E)


@pytest.mark.parametrize("k, E", [(2, F(2)), (4, F(3, 2)), (2, F(5))])
def test_vector_range_ratio_is_the_product_of_coordinate_ratios(k, E):
    d, B, tau = 2, F(k), F(1)
    mids = [-B + (2 * j + 1) * tau for j in range(k)]
    laws = {nus: uv.vector_range_user_law(tuple(mids[j] for j in nus), B, tau, E)
            for nus in itertools.product(range(k), repeat=d)}
    worst = F(0)
    for a, b in itertools.product(laws, repeat=2):
        r = ratio(laws[a], laws[b])
        coord = F(1)
        for c in range(d):
            coord *= ratio(oracle_scalar(a[c], k, E), oracle_scalar(b[c], k, E))
        assert r == coord == E ** sum(x != y for x, y in zip(a, b))
        worst = max(worst, r)
    assert worst == E ** d
    # bad twin: running every coordinate at the whole Range budget E^d gives E^(d^2) > E^d
    full = [uv.vector_range_user_law((mids[0],) * d, B, tau, E ** d), uv.vector_range_user_law((mids[-1],) * d, B, tau, E ** d)]
    assert ratio(*full) == E ** (d * d) > E ** d


def test_full_user_view_ratio_is_the_split_budget():
    d, B, tau, E = 2, F(4), F(1), F(3, 2)
    ranges = ((F(-3), F(3)), (F(-3), F(3)))
    grid = [F(-3), F(-1), F(0), F(1, 2), F(3)]
    views = []
    for w in itertools.product(grid, repeat=d):
        first = uv.vector_range_user_law(w, B, tau, E)
        second = uv.vector_second_stage_law(uv.project_coordinates(w, ranges), ranges, E)
        views.append({(m, z): p * q for m, p in first.items() for q, z in second})
    worst = max(ratio(P, Q) for P in views for Q in views)
    assert worst == uv.vector_budget(E, d) == E ** (2 * d)
    assert worst != E ** 2  # a per-coordinate-only accounting (eps0 per coordinate) would claim E^2


def test_vector_budget_and_inputs():
    assert uv.vector_budget(F(3, 2), 4) == F(3, 2) ** 8
    with pytest.raises(InvalidInputError):
        uv.vector_budget(1, 2)
    with pytest.raises(InvalidInputError):
        uv.vector_budget(2, 3)
    with pytest.raises(FloatRefusedError):
        uv.vector_budget(1.5, 2)
    with pytest.raises(WrongTypeError):
        uv.vector_budget(2, 2.0)


def test_range_from_messages_per_coordinate():
    B, tau, E = F(4), F(1), F(3)
    c = (E + 1) / (E - 1)
    msgs = [((0, 1), (1, -1)), ((2, 1), (3, 1)), ((1, -1), (1, -1))]
    got = uv.vector_range_from_messages(msgs, B, tau, E)
    for coord in range(2):
        zbar = [sum(s * c * h(j, a) for (j, s) in (m[coord] for m in msgs)) / 3 for a in range(4)]
        a_max = -B + (2 * zbar.index(max(zbar)) + 1) * tau
        assert got[coord] == (a_max - 3 * tau, a_max + 3 * tau)
    with pytest.raises(InvalidInputError):
        uv.vector_range_from_messages([((0, 1), (1, 1)), ((0, 1),)], B, tau, E)


# -- Mean stage: unbiasedness and error on the good event ----------------------------------------------

def enumerate_error(ys, signs, ranges, E):
    """E[x_hat] and E||x_hat - y_bar||^2 by enumerating every user's sign vector; explicit U^T."""
    d, n = len(signs), len(ys)
    U = U_of(signs)
    C = sympy.Rational((E + 1).numerator * (E - 1).denominator, (E + 1).denominator * (E - 1).numerator)
    ybar = sympy.Matrix([sum(sympy.Rational(y[c].numerator, y[c].denominator) for y in ys) / n for c in range(d)])
    ws = [U * sympy.Matrix([sympy.Rational(v.numerator, v.denominator) for v in y]) for y in ys]
    per_user = []
    for w in ws:
        outs = []
        for pattern in itertools.product((1, -1), repeat=d):
            p, z = sympy.Integer(1), []
            for c, s in enumerate(pattern):
                a, b = (sympy.Rational(v.numerator, v.denominator) for v in ranges[c])
                o, hh = (a + b) / 2, (b - a) / 2
                wt = sympy.Min(b, sympy.Max(a, w[c]))
                p *= sympy.Rational(1, 2) + s * (wt - o) / (2 * hh * C)
                z.append(o + s * hh * C)
            outs.append((p, sympy.Matrix(z)))
        per_user.append(outs)
    mean = sympy.zeros(d, 1)
    mse = sympy.Integer(0)
    for combo in itertools.product(*per_user):
        p = sympy.Integer(1)
        zbar = sympy.zeros(d, 1)
        for q, z in combo:
            p *= q
            zbar += z / n
        xhat = U.T * zbar
        mean += p * xhat
        mse += p * sum((xhat[c] - ybar[c]) ** 2 for c in range(d))
    return [sympy.radsimp(sympy.expand(v)) for v in mean], sympy.radsimp(sympy.expand(mse)), ybar


@pytest.mark.parametrize("ys, signs, ranges, E, inside", [
    ([(F(1, 2), F(1, 4)), (F(3, 4), F(0))], (1, -1), ((F(-2), F(4)), (F(-4), F(2))), F(2), True),
    ([(F(1, 2), F(1, 4)), (F(3, 4), F(0))], (1, -1), ((F(-2), F(4)), (F(1), F(7))), F(2), False),
    ([(F(1, 2), F(0), F(1, 4), F(-1, 4)), (F(0), F(1, 2), F(0), F(0))], (1, -1, -1, 1),
     ((F(-3), F(3)),) * 4, F(3), True),
])
def test_mean_stage_error_and_unbiasedness_by_enumeration(ys, signs, ranges, E, inside):
    mean, mse, ybar = enumerate_error(ys, signs, ranges, E)
    lib = uv.vector_mean_error(ys, signs, ranges, E)
    assert sympy.simplify(lib - mse) == 0
    unbiased = all(sympy.simplify(m - y) == 0 for m, y in zip(mean, ybar))
    assert unbiased == inside
    bound = uv.vector_error_bound(len(signs), len(ys), F(1), E)
    C = (E + 1) / (E - 1)
    assert bound == 9 * len(signs) * C * C / len(ys)
    if inside:
        assert bool(mse <= sympy.Rational(bound.numerator, bound.denominator))
    # bad twin: the error without the 1/n^2 (a per-user error, not the average) differs
    assert sympy.simplify(lib * len(ys) - mse) != 0


def test_second_stage_law_validity():
    ranges = ((F(-2), F(4)), (F(-4), F(2)))
    law = uv.vector_second_stage_law((F(4), F(-4)), ranges, F(2))
    assert sum(p for p, _ in law) == 1 and all(p >= 0 for p, _ in law)
    with pytest.raises(InvalidInputError):
        uv.vector_second_stage_law((F(4) + F(1, 100), F(0)), ranges, F(2))
    with pytest.raises(InvalidInputError):
        uv.vector_second_stage_law((F(0), F(0)), ((F(1), F(1)), (F(0), F(1))), F(2))
    with pytest.raises(InvalidInputError):
        uv.vector_error_bound(2, 0, 1, 2)
