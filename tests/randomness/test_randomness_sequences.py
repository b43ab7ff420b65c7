"""bcdp.randomness.sequences (thesis Sec. 7.6, App. F.7-F.8) against oracles written here: brute-force
neighbour relation, Def 7.6.1 by all pairs, the printed (F.24), exhaustive active-set vertex enumeration
(k = 2, T = 2), scipy LP with random objectives (k = 3, T = 2), exact double description (slow), and
mpmath at 50 digits for entropies."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.randomness import sequences as S

mpmath.mp.dps = 50


def _dbs(k, T):
    return list(itertools.product(range(k), repeat=T))


def _nb(x, y):
    return sum(a != b for a, b in zip(x, y)) == 1


def _dp(q, k, T, E, f=None):
    d = _dbs(k, T)
    f = list(range(len(d))) if f is None else f
    return all(q[f[i]] <= E * q[f[j]] for i in range(len(d)) for j in range(len(d)) if _nb(d[i], d[j]))


def _H(p):
    return -sum(mpmath.mpf(v.numerator) / v.denominator * mpmath.log(mpmath.mpf(v.numerator) / v.denominator)
                for v in p if v)


def _two_level_min(k, E):
    """min_s H of (7.46), mpmath, E an mpf."""
    best = None
    for s in range(1, k):
        t = s * E + k - s
        h = -(k - s) / t * mpmath.log(1 / t) - s * E / t * mpmath.log(E / t)
        best = h if best is None else min(best, h)
    return best


# -- graph --------------------------------------------------------------------------------------

@pytest.mark.parametrize("k,T", [(2, 1), (2, 2), (3, 2), (2, 3), (4, 2)])
def test_neighbour_pairs_are_the_hamming_edges(k, T):
    d = _dbs(k, T)
    assert S.databases(k, T) == d
    assert [S.index_of(x, k) for x in d] == list(range(k ** T))
    brute = {(i, j) for i in range(len(d)) for j in range(i + 1, len(d)) if _nb(d[i], d[j])}
    assert set(S.neighbour_pairs(k, T)) == brute
    assert len(brute) == k ** T * T * (k - 1) // 2


def test_are_neighbours():
    assert S.are_neighbours((0, 1, 2), (0, 2, 2))
    assert not S.are_neighbours((0, 1, 2), (0, 1, 2))
    assert not S.are_neighbours((0, 1, 2), (1, 2, 2))
    with pytest.raises(InvalidInputError):
        S.are_neighbours((0, 1), (0, 1, 2))


# -- Def 7.6.1 ------------------------------------------------------------------------------------

def test_dp_distribution_matches_brute_force_on_random_laws():
    rng = random.Random(1)
    for _ in range(300):
        k, T = rng.choice([(2, 2), (3, 2), (2, 3)])
        q = [F(rng.randint(1, 6)) for _ in range(k ** T)]
        q = [v / sum(q) for v in q]
        E = F(rng.randint(2, 12), rng.randint(1, 4)) + 1
        assert S.is_dp_distribution(q, k, T, E) == _dp(q, k, T, E)


def test_dp_distribution_at_the_boundary():
    # (1, E, E, E^2)/(1+E)^2 has ratio exactly E on every edge of the 4-cycle
    E = F(3)
    q = [F(1), E, E, E * E]
    q = [v / sum(q) for v in q]
    assert S.is_dp_distribution(q, 2, 2, E)
    assert not S.is_dp_distribution(q, 2, 2, E - F(1, 10 ** 9))
    assert S.is_dp_distribution(q, 2, 2, E + F(1, 10 ** 9))
    # swapping keys 1 and 3 breaks the identity bijection (q_00 / q_01 = E^2); f = (0, 3, 2, 1) restores it
    swapped = [q[0], q[3], q[2], q[1]]
    assert not S.is_dp_distribution(swapped, 2, 2, E) and not _dp(swapped, 2, 2, E)
    assert S.is_dp_distribution(swapped, 2, 2, E, f=[0, 3, 2, 1]) and _dp(swapped, 2, 2, E, [0, 3, 2, 1])


def test_find_dp_bijection_matches_all_permutations():
    rng = random.Random(2)
    for _ in range(60):
        q = [F(rng.randint(1, 9)) for _ in range(4)]
        q = [v / sum(q) for v in q]
        E = F(rng.randint(2, 5))
        want = any(_dp(q, 2, 2, E, list(f)) for f in itertools.permutations(range(4)))
        got = S.find_dp_bijection(q, 2, 2, E)
        assert (got is not None) == want
        if got is not None:
            assert _dp(q, 2, 2, E, list(got))


def test_t1_is_max_over_min():
    rng = random.Random(3)
    for _ in range(100):
        k = rng.randint(2, 6)
        q = [F(rng.randint(1, 9)) for _ in range(k)]
        q = [v / sum(q) for v in q]
        E = F(rng.randint(2, 20), 2)
        assert S.is_dp_distribution(q, k, 1, E) == (max(q) <= E * min(q))


# -- Lemma 7.6.1 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("k,T", [(2, 2), (3, 2), (2, 3)])
def test_mechanism_is_the_printed_f24_and_decodes(k, T):
    rng = random.Random(k * 10 + T)
    n = k ** T
    d = _dbs(k, T)
    q = [F(rng.randint(1, 9)) for _ in range(n)]
    q = [v / sum(q) for v in q]
    f = list(range(n))
    rng.shuffle(f)
    Q = S.mechanism(q, k, T, f)
    for xi, x in enumerate(d):
        for yi, y in enumerate(d):
            s = tuple((a + b) % k for a, b in zip(x, y))
            assert Q[xi][yi] == q[f[d.index(s)]]
    assert all(sum(r) == 1 for r in Q) and all(sum(c) == 1 for c in zip(*Q))
    for x in d:
        for u in range(n):
            y = S.output_of(x, u, k, f)
            assert Q[d.index(x)][d.index(y)] >= q[u] > 0 or q[u] == 0
            assert S.decode(y, u, k, f) == x


def test_dp_channel_iff_dp_law_for_the_additive_mechanism():
    rng = random.Random(5)
    for _ in range(150):
        k, T = rng.choice([(2, 2), (3, 2)])
        q = [F(rng.randint(1, 5)) for _ in range(k ** T)]
        q = [v / sum(q) for v in q]
        E = F(rng.randint(2, 10), 2)
        assert S.is_dp_channel(S.mechanism(q, k, T), k, T, E) == _dp(q, k, T, E)


def test_is_dp_rec_detects_unrecoverable_and_non_private_encoders():
    key = [F(1, 2), F(1, 2)]
    # the same output for both inputs under key 0: not recoverable
    res = S.is_dp_rec([[0, 1], [0, 0]], key, 2, 1, 3)
    assert not res["recoverable"] and not res["dp_rec"]
    # y = x + u mod 2 with a uniform key: the one-time pad, recoverable and 0-DP
    res = S.is_dp_rec([[0, 1], [1, 0]], key, 2, 1, 1)
    assert res["dp_rec"] and res["channel"] == ((F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)))
    # a key value of probability 0 does not need to be injective
    res = S.is_dp_rec([[0, 1, 5], [1, 0, 5]], [F(1, 2), F(1, 2), F(0)], 2, 1, 1)
    assert res["recoverable"]
    # identity encoder (|U| = 1): recoverable but not DP for any eps
    assert not S.is_dp_rec([[0], [1]], [F(1)], 2, 1, 10 ** 3)["dp"]


# -- vertices --------------------------------------------------------------------------------------

def _active_set_vertices(k, T, E):
    """All basic feasible solutions: k^T - 1 tight ratio constraints + sum q = 1, solved exactly."""
    d = _dbs(k, T)
    n = len(d)
    rows = []
    for i, j in itertools.permutations(range(n), 2):
        if _nb(d[i], d[j]):
            r = [0] * n
            r[i], r[j] = 1, -E  # q_i - E q_j <= 0
            rows.append(r)
    out = set()
    for choice in itertools.combinations(rows, n - 1):
        A = sympy.Matrix(list(choice) + [[1] * n])
        if A.rank() < n:
            continue
        sol = A.solve(sympy.Matrix([0] * (n - 1) + [1]))
        q = tuple(F(int(sympy.fraction(v)[0]), int(sympy.fraction(v)[1])) for v in sol)
        if all(v >= 0 for v in q) and _dp(q, k, T, E):
            out.add(q)
    return out


@pytest.mark.parametrize("E", [F(2), F(7, 3)])
def test_vertices_match_active_set_enumeration_k2(E):
    assert set(S.dp_vertices(2, 2, E)) == _active_set_vertices(2, 2, E)


def test_vertices_k3_by_random_lp_objectives():
    """Every LP max over the polytope (HiGHS, float) is attained at a listed vertex, and every listed
    vertex is feasible and is the unique LP optimum of some objective (checked for a sample)."""
    from scipy.optimize import linprog

    k, T, E = 3, 2, 2.0
    n = 9
    pairs = S.neighbour_pairs(k, T)
    A = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            r = np.zeros(n)
            r[a], r[b] = 1.0, -E
            A.append(r)
    A = np.array(A)
    verts = np.array([[float(v) for v in q] for q in S.dp_vertices(k, T, 2)])
    assert len(verts) == 534
    assert np.all(A @ verts.T <= 1e-12)
    rng = np.random.default_rng(7)
    for _ in range(100):
        c = rng.normal(size=n)
        res = linprog(-c, A_ub=A, b_ub=np.zeros(len(A)), A_eq=np.ones((1, n)), b_eq=[1.0], bounds=[(0, None)] * n,
                      method="highs")
        assert res.status == 0
        assert abs(-res.fun - np.max(verts @ c)) < 1e-9


def test_vertex_labelling_criterion_examples():
    # the 4-cycle 00-01-11-10 (indices 0, 1, 3, 2): (0,1,1,2) is a vertex; (0,0,0,0) (uniform) is not for E > 1
    assert S.is_vertex_labelling((0, 1, 1, 2), 2, 2)
    assert not S.is_vertex_labelling((0, 0, 0, 0), 2, 2)
    assert not S.is_vertex_labelling((0, 0, 0, 1), 2, 2)  # tight edges 01-11, 10-11 only: 00 is cut off
    assert S.is_product_labelling((0, 1, 1, 2), 2, 2)
    assert not S.is_product_labelling((0, 1, 1, 1), 2, 2)
    assert sorted(S.lipschitz_labellings(2, 1)) == [(0, 0), (0, 1), (1, 0)]


# -- minimum key entropy -------------------------------------------------------------------------

@pytest.mark.parametrize("k,eps", [(2, F(1)), (3, F(1, 10)), (5, F(2)), (6, F(1, 3))])
def test_min_key_entropy_t1_is_the_two_level_minimum(k, eps):
    res = S.min_key_entropy(k, 1, eps=eps, unit="nats")
    ref = _two_level_min(k, mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator))
    assert mpmath.mpf(res.lower.numerator) / res.lower.denominator <= ref + mpmath.mpf(10) ** -35
    assert ref - mpmath.mpf(10) ** -35 <= mpmath.mpf(res.upper.numerator) / res.upper.denominator
    assert res.upper - res.lower < F(1, 10 ** 30)


@pytest.mark.parametrize("k,T,E", [(2, 2, F(2)), (2, 2, F(5, 2)), (2, 3, F(3, 2))])
def test_min_key_entropy_vs_brute_force_vertices(k, T, E):
    verts = _active_set_vertices(k, T, E) if T == 2 else S.dp_vertices(k, T, E)
    ref = min(_H(v) for v in verts)
    for unit, scale in (("nats", 1), ("bits", 1 / mpmath.log(2))):
        res = S.min_key_entropy(k, T, e_eps=E, unit=unit)
        assert mpmath.mpf(res.lower.numerator) / res.lower.denominator <= ref * scale + mpmath.mpf(10) ** -35
        assert ref * scale - mpmath.mpf(10) ** -35 <= mpmath.mpf(res.upper.numerator) / res.upper.denominator


@pytest.mark.parametrize("k,T,eps", [(2, 2, F(1, 2)), (3, 2, F(2)), (2, 3, F(1))])
def test_min_key_entropy_is_T_times_single_sample(k, T, eps):
    """Thm 7.6.1 (2) with equality, against mpmath of T min_s H(U^s_min)."""
    res = S.min_key_entropy(k, T, eps=eps)
    ref = T * _two_level_min(k, mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator))
    lo = mpmath.mpf(res.lower.numerator) / res.lower.denominator
    hi = mpmath.mpf(res.upper.numerator) / res.upper.denominator
    assert lo - mpmath.mpf(10) ** -30 <= ref <= hi + mpmath.mpf(10) ** -30
    assert res.argmin_all_products
    assert res.second is not None and mpmath.mpf(res.second.numerator) / res.second.denominator > ref


def test_min_key_entropy_at_eps_zero_is_T_log_k():
    res = S.min_key_entropy(3, 2, eps=0)
    ref = 2 * mpmath.log(3)
    assert mpmath.mpf(res.lower.numerator) / res.lower.denominator <= ref + mpmath.mpf(10) ** -35
    assert ref <= mpmath.mpf(res.upper.numerator) / res.upper.denominator + mpmath.mpf(10) ** -35
    assert S.dp_vertices(3, 2, 1) == [tuple([F(1, 9)] * 9)]


def test_random_dp_laws_respect_the_lower_bound_and_columns_lemma762():
    rng = random.Random(11)
    E = F(3)
    verts = S.dp_vertices(3, 2, E)
    hmin = _two_level_min(3, mpmath.mpf(3))
    for _ in range(40):
        chosen = rng.sample(verts, 3)
        w = [F(rng.randint(1, 9)) for _ in chosen]
        q = tuple(sum(wi * v[i] for wi, v in zip(w, chosen)) / sum(w) for i in range(9))
        assert _dp(q, 3, 2, E)
        assert _H(q) >= 2 * hmin - mpmath.mpf(10) ** -40
        Q = S.mechanism(q, 3, 2)
        for y in range(9):
            assert _H([Q[x][y] for x in range(9)]) >= 2 * hmin - mpmath.mpf(10) ** -40


# -- inputs ----------------------------------------------------------------------------------------

def test_bad_inputs():
    q = [F(1, 4)] * 4
    with pytest.raises(FloatRefusedError):
        S.is_dp_distribution(q, 2, 2, 2.0)
    with pytest.raises(FloatRefusedError):
        S.min_key_entropy(2, 2, eps=0.5)
    with pytest.raises(InvalidInputError, match="e_eps"):
        S.is_dp_distribution(q, 2, 2, F(1, 2))
    with pytest.raises(InvalidInputError, match="k\\^T"):
        S.is_dp_distribution([F(1, 3)] * 3, 2, 2, 2)
    with pytest.raises(InvalidInputError, match="bijection"):
        S.is_dp_distribution(q, 2, 2, 2, f=[0, 0, 1, 2])
    with pytest.raises(InvalidInputError, match="k must"):
        S.databases(1, 2)
    with pytest.raises(InvalidInputError, match="T must"):
        S.databases(2, 0)
    with pytest.raises(InvalidInputError, match="at most"):
        S.min_key_entropy(5, 2, eps=1)
    with pytest.raises(InvalidInputError, match="exactly one"):
        S.min_key_entropy(2, 2)
    with pytest.raises(InvalidInputError, match="exactly one"):
        S.min_key_entropy(2, 2, eps=1, e_eps=3)
    with pytest.raises(InvalidInputError, match="unit"):
        S.min_key_entropy(2, 2, eps=1, unit="dits")
    with pytest.raises(InvalidInputError, match="eps"):
        S.min_key_entropy(2, 2, eps=-1)
    with pytest.raises(InvalidInputError, match="key index"):
        S.decode((0, 1), 7, 2)
    with pytest.raises(InvalidInputError, match="sums to"):
        S.mechanism([F(1, 4)] * 3 + [F(1, 2)], 2, 2)
    with pytest.raises(InvalidInputError) as info:
        S.is_dp_distribution(q, 2, 2, 2, f=[0, 0, 1, 2])
    assert "\n" not in str(info.value)


@pytest.mark.slow
@pytest.mark.parametrize("E", [F(2), F(5, 4)])
def test_vertices_k3_match_double_description(E):
    """Exact Motzkin double description of the cone {E q_b - q_a >= 0} (written here) gives the same 534
    vertices as the labelling characterisation (about 5 s per E)."""
    from math import gcd

    d = _dbs(3, 2)
    n = 9
    num, den = E.numerator, E.denominator
    cons = []
    for i, j in itertools.permutations(range(n), 2):
        if _nb(d[i], d[j]):
            h = [0] * n
            h[j] += num
            h[i] -= den
            cons.append(h)
    done = [[int(a == b) for a in range(n)] for b in range(n)]
    rays = [tuple(int(a == b) for a in range(n)) for b in range(n)]
    for h in cons:
        val = {r: sum(a * b for a, b in zip(h, r)) for r in rays}
        zs = {r: frozenset(i for i, g in enumerate(done) if sum(a * b for a, b in zip(g, r)) == 0) for r in rays}
        new = []
        for p in (r for r in rays if val[r] > 0):
            for m in (r for r in rays if val[r] < 0):
                common = zs[p] & zs[m]
                if any(common <= zs[r] for r in rays if r not in (p, m)):
                    continue
                w = [val[p] * b - val[m] * a for a, b in zip(p, m)]
                g = 0
                for x in w:
                    g = gcd(g, x)
                new.append(tuple(x // g for x in w))
        rays = [r for r in rays if val[r] >= 0] + new
        done.append(h)
    dd = {tuple(F(x, sum(r)) for x in r) for r in rays}
    assert dd == set(S.dp_vertices(3, 2, E))


@pytest.mark.slow
def test_k4_small_eps_regime_has_s_star_2():
    """k = 4, T = 2 (73950 vertex labellings): at eps = 1/2 the single-sample optimum is s* = 2 and the
    T = 2 minimum is twice it, attained by products of s = 2 laws."""
    res = S.min_key_entropy(4, 2, eps=F(1, 2))
    ref = 2 * _two_level_min(4, mpmath.exp(mpmath.mpf(1) / 2))
    assert mpmath.mpf(res.lower.numerator) / res.lower.denominator <= ref + mpmath.mpf(10) ** -30
    assert ref <= mpmath.mpf(res.upper.numerator) / res.upper.denominator + mpmath.mpf(10) ** -30
    assert res.argmin_all_products and len(res.witness) == 36
    assert all(sorted(c) == [0] * 4 + [1] * 8 + [2] * 4 for c in res.witness)
