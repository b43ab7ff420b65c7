"""The R^Bin and R^{l_inf} rows of the lower-bound gap table (bcdp.dme.lower_bounds) against oracles
written here: Alg 3.3.1 enumerated in Fractions, the exact l_inf law on a dyadic grid, and the 2RR
variance at Lemma 2.4.1's p at 50 digits (mpmath)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.dme import binary_vector as bv
from bcdp.dme import linf
from bcdp.dme import lower_bounds as lb

F = Fraction


def _brute_bin(d, s, rho):
    """Alg 3.3.1 with s | d, per-message ratio rho (p = 1/(1 + rho)): (worst E||y - b||^2 over b, max ratio)."""
    p, a = 1 / (1 + rho), d // s
    worst, best_ratio = F(0), F(0)
    laws = {}
    for b in itertools.product((0, 1), repeat=d):
        law = {}
        err = F(0)
        for coords in itertools.product(range(a), repeat=s):
            for flips in itertools.product((0, 1), repeat=s):
                w = F(1)
                est = [F(0)] * d
                for j, (c, f) in enumerate(zip(coords, flips)):
                    idx = j * a + c
                    w *= (p if f else 1 - p) / a
                    est[idx] = a * ((b[idx] ^ f) - p) / (1 - 2 * p)
                key = tuple(est)
                law[key] = law.get(key, F(0)) + w
                err += w * sum((e - x) ** 2 for e, x in zip(est, b))
        laws[b] = law
        worst = max(worst, err)
    for l1, l2 in itertools.product(laws.values(), repeat=2):
        best_ratio = max(best_ratio, max(l1[y] / l2[y] for y in l1))
    return worst, best_ratio


@pytest.mark.parametrize("d,s,E", [(3, 1, F(3)), (4, 2, F(4)), (4, 4, F(16)), (2, 1, F(11, 10))])
def test_binary_vector_worst_mse_matches_enumeration(d, s, E):
    rho = F(round(float(E) ** (1 / s) * 10 ** 6), 10 ** 6)
    assert rho ** s == E
    worst, ratio = _brute_bin(d, s, rho)
    n, r = 3, F(2, 3)
    assert lb.binary_vector_worst_mse(n, d, r, E, s) == r * r * worst / n
    assert ratio == E                                     # the client is exactly E-LDP (s | d)
    # a wrong parameter (p = 1/(1 + E), the full budget per message) gives another value when s > 1
    if s > 1:
        wrong = bv.mse_truncated((1,) * d, bv.binary_vector_params(d, s, p=1 / (1 + E)))
        assert r * r * wrong / n != lb.binary_vector_worst_mse(n, d, r, E, s)


def test_binary_vector_validity_both_sides():
    lb.binary_vector_worst_mse(10, 4, 1, 4, 2)                    # E^(1/2) = 2 rational
    with pytest.raises(InvalidInputError, match="must be rational"):
        lb.binary_vector_worst_mse(10, 4, 1, 2, 2)                # sqrt(2)
    lb.binary_vector_worst_mse(10, 4, 1, 16, 4)                   # s = d accepted
    with pytest.raises(ValidityConditionError):
        lb.binary_vector_worst_mse(10, 4, 1, 32, 5)               # s > d
    with pytest.raises(InvalidInputError):
        lb.binary_vector_worst_mse(10, 4, 1, 1)                   # E = 1
    with pytest.raises(FloatRefusedError):
        lb.binary_vector_worst_mse(10, 4, 1, 2.0)


@pytest.mark.parametrize("d,m,s", [(2, 1, 1), (2, 2, 1), (2, 2, 2), (2, 3, 2), (3, 2, 2), (1, 3, 1)])
def test_linf_worst_input_maximises_the_exact_law(d, m, s):
    ps = [F(1, 5), F(1, 4), F(1, 3)][:m]
    den = 2 ** (m + 1) if d < 3 else 2 ** m             # both contain the maximisers pi in {0, 1/2, 1}
    grid = [F(k, den) for k in range(den + 1)]
    values = {z: linf.linf_mse(z, m, s, ps) for z in itertools.product(grid, repeat=d)}
    z_star = lb.linf_worst_input(d, m, s)
    assert values[z_star] == max(values.values())
    rng = random.Random(351)
    for _ in range(20):                                  # off-grid inputs do not exceed it either
        z = tuple(F(rng.randint(0, 997), 997) for _ in range(d))
        assert linf.linf_mse(z, m, s, ps) <= values[z_star]
    # the wrong candidate (z = 1 when a = 1, or z = 1/2 when a >= 2) is not a maximiser in general
    a = -(-d // s)
    other = (F(1),) * d if a == 1 else (F(1, 2),) * d
    assert values.get(other, linf.linf_mse(other, m, s, ps)) < values[z_star]


def test_linf_worst_input_validity():
    with pytest.raises(ValidityConditionError):
        lb.linf_worst_input(2, 1, 3)
    assert lb.linf_worst_input(3, 1, 3) == (F(1, 2),) * 3


def _mp_level_variances(m, s, v):
    raw = [mpmath.mpf(4) ** (-mpmath.mpf(k) / 3) for k in range(1, m)] + [mpmath.mpf(4) ** (-mpmath.mpf(m - 1) / 3)]
    out = []
    for f in raw:
        x = f / sum(raw) * v / s
        p = (1 - mpmath.sqrt(x ** 2 / (x ** 2 + 4))) / 2
        out.append(p * (1 - p) / (1 - 2 * p) ** 2)
    return out


@pytest.mark.parametrize("n,d,r,E,m,s", [(3, 2, F(1, 2), F(3), 2, 1), (1, 2, F(1), F(5, 2), 3, 2),
                                          (7, 3, F(2), F(11, 10), 1, 2), (2, 1, F(1), F(4), 3, 1)])
def test_linf_worst_mse_against_enumeration_and_mpmath(n, d, r, E, m, s):
    a = -(-d // s)
    z = lb.linf_worst_input(d, m, s)
    sampling = linf.linf_mse(z, m, s, [0] * m)                       # exact law with deterministic 2RR
    with mpmath.workdps(60):
        V = _mp_level_variances(m, s, mpmath.log(mpmath.mpf(E.numerator) / E.denominator))
        w2 = [mpmath.mpf(4) ** -k for k in range(1, m)] + [mpmath.mpf(4) ** -(m - 1)]
        oracle = 4 * mpmath.mpf(r.numerator) ** 2 / r.denominator ** 2 * (
            mpmath.mpf(sampling.numerator) / sampling.denominator + d * a * sum(x * y for x, y in zip(w2, V))) / n
        got = mpmath.mpf(sympy.N(lb.linf_worst_mse(n, d, r, E, m, s), 60))
        assert abs(got - oracle) < mpmath.mpf(10) ** -45 * oracle
        # the uniform split f_k = 1/m (not the water-filling) is worse when m > 2 (at m = 2 the two level
        # weights are both 1/4 and the splits agree)
        if m > 2:
            v = mpmath.log(mpmath.mpf(E.numerator) / E.denominator)
            uni = sum(x * (s / (v / m)) ** 2 for x in w2)
            assert d * a * uni > d * a * sum(x * y for x, y in zip(w2, V)) * (1 + mpmath.mpf(10) ** -10)


def test_gap_table_every_scheme_above_the_bound_and_a_fake_one_below():
    grid = [(10 ** 6, 64, 1, F(11, 10)), (10 ** 6, 16, 1, F(11, 10))]
    rows = lb.gap_table(grid)
    assert {r["scheme"] for r in rows} == set(lb.SCHEMES)
    assert all(r["lower_bound"] > 0 and r["mse"] >= r["lower_bound"] for r in rows)
    fake = lb.gap_table(grid, {"too good": lambda n, d, r, E: lb.thm343_explicit_lower_bound(n, d, r, E) / 2})
    assert all(r["mse"] < r["lower_bound"] for r in fake)
