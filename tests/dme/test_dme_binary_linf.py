"""The l_inf mechanism (thesis Algs 3.5.1-3.5.2, Thm 3.5.1) and the water-filling split (3.26) against
independent oracles: a from-scratch brute force over the last coins, coordinates and 2RR flips of
every level (Fractions), sympy Lagrange/numeric minimisation, and mpmath at 50 digits."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.core.errors import InvalidInputError
from bcdp.dme import linf


def oracle_law(z, m, s, ps):
    d = len(z)
    a = -(-d // s)
    scale = 2 ** (m - 1)
    Ks = [min(math.floor(x * scale), scale - 1) for x in z]
    pis = [x * scale - K for x, K in zip(z, Ks)]
    bits = [[(K >> (m - 1 - k)) & 1 for K in Ks] for k in range(1, m)]   # b^(k), k = 1..m-1

    def level_outcomes(vec, p):
        padded = list(vec) + [0] * (s * a - d)
        outs = []
        for coords in itertools.product(*[range(j * a, (j + 1) * a) for j in range(s)]):
            for flips in itertools.product((0, 1), repeat=s):
                w = F(1, a ** s)
                est = [F(0)] * (s * a)
                for c, g in zip(coords, flips):
                    w *= p if g else 1 - p
                    est[c] += a * ((padded[c] ^ g) - p) / (1 - 2 * p)
                outs.append((w, est[:d]))
        return outs

    law = {}
    for u in itertools.product((0, 1), repeat=d):
        wu = math.prod((pi if uj else 1 - pi for uj, pi in zip(u, pis)), start=F(1))
        if wu == 0:
            continue
        vecs = bits + [list(u)]
        weights = [F(1, 2 ** k) for k in range(1, m)] + [F(1, scale)]
        for combo in itertools.product(*[level_outcomes(v, p) for v, p in zip(vecs, ps)]):
            w = wu * math.prod((c[0] for c in combo), start=F(1))
            zhat = tuple(sum(wt * c[1][j] for wt, c in zip(weights, combo)) for j in range(d))
            law[zhat] = law.get(zhat, F(0)) + w
    return law


CASES = [
    ((F(1, 3),), 1, 1, (F(1, 5),)),
    ((F(1, 3),), 3, 1, (F(1, 5), F(1, 10), F(4, 13))),
    ((F(1), F(0)), 2, 1, (F(1, 5), F(1, 10))),
    ((F(5, 7), F(1, 2)), 2, 2, (F(1, 5), F(2, 7))),
    ((F(3, 8), F(1), F(1, 5)), 2, 2, (F(1, 5), F(1, 10))),
]


@pytest.mark.parametrize("z,m,s,ps", CASES)
def test_law_unbiased_and_mse(z, m, s, ps):
    law = linf.linf_estimate_law(z, m, s, ps)
    assert law == oracle_law(z, m, s, ps)
    assert sum(law.values()) == 1
    assert all(sum(w * v[j] for v, w in law.items()) == z[j] for j in range(len(z)))
    mse = sum(w * sum((e - x) ** 2 for e, x in zip(v, z)) for v, w in law.items())
    assert linf.linf_mse(z, m, s, ps) == mse == linf.linf_mse_formula(z, m, s, ps)


def test_formula_variant_without_sampling_term_is_rejected():
    z, m, s, ps = CASES[4]
    a = 2
    wrong = linf.linf_mse_formula(z, m, s, ps) - F(1, 4) * (a - 1) * 1   # drop (a-1)||b^(1)||^2 (||b^(1)||^2 = 1)
    assert wrong != linf.linf_mse(z, m, s, ps)


@pytest.mark.parametrize("m", [1, 2, 3, 5])
def test_split_is_the_kkt_optimum_and_sums_to_one(m):
    f = linf.water_filling_split(m)
    assert sympy.simplify(sum(f) - 1) == 0
    assert all(sympy.simplify(a - b) == 0 for a, b in zip(f, linf.kkt_split(m)))
    # numeric minimisation (mpmath, 50 digits): the objective at f is below nearby feasible points
    w2 = [mpmath.mpf(4) ** -k for k in range(1, m)] + [mpmath.mpf(4) ** -(m - 1)]
    with mpmath.workdps(50):
        fv = [mpmath.mpf(sympy.N(x, 60)) for x in f]
        obj = sum(w / x ** 2 for w, x in zip(w2, fv))
        S = mpmath.mpf(sympy.N(linf.split_constant(m), 60))
        assert mpmath.almosteq(obj, S ** 3, 1e-45)
        for i, j in itertools.permutations(range(m), 2):
            g = list(fv)
            g[i] += mpmath.mpf("1e-3")
            g[j] -= mpmath.mpf("1e-3")
            assert sum(w / x ** 2 for w, x in zip(w2, g)) > obj


def test_s_m_increases_to_s_infinity_below_five():
    with mpmath.workdps(50):
        prev = mpmath.mpf(0)
        for m in range(1, 30):
            S = mpmath.mpf(sympy.N(linf.split_constant(m), 60))
            assert S > prev
            prev = S
        s_inf = 1 / (mpmath.cbrt(4) - 1)
        assert prev < s_inf
        assert mpmath.almosteq(mpmath.mpf(sympy.N(linf.s_infinity_cubed(), 60)), s_inf ** 3, 1e-45)
        assert s_inf ** 3 < 5 and s_inf ** 3 > mpmath.mpf("4.93")


def test_level_p_rational_case_and_validation():
    assert [sympy.nsimplify(p) for p in linf.level_p(2, 1, 3)] == [sympy.Rational(1, 5)] * 2
    with pytest.raises(InvalidInputError):
        linf.linf_estimate_law((F(1, 2),), 2, 1, (F(1, 5),))
    with pytest.raises(InvalidInputError):
        linf.linf_estimate_law((F(3, 2),), 1, 1, (F(1, 5),))
    with pytest.raises(InvalidInputError):
        linf.water_filling_split(0)
