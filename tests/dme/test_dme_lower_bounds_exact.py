"""bcdp.dme.lower_bounds against independent oracles: brute-force enumeration in Fractions, sympy
re-derivations of the proof steps, and mpmath (50 digits) for the logarithms."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.dme import lower_bounds as lb

F = Fraction


# -- (3.17) and (3.43)(b) ---------------------------------------------------------------------------

def test_basis_law_mean_is_q_and_refuses_bad_input():
    q = [F(1, 6), F(1, 3), F(1, 2)]
    assert lb.basis_law_mean(q) == tuple(q)
    with pytest.raises(InvalidInputError):
        lb.basis_law_mean([F(1, 2), F(1, 3)])          # not a pmf
    with pytest.raises(FloatRefusedError):
        lb.basis_law_mean([0.5, 0.5])


def test_parallelogram_gap_is_norm_of_difference_and_nonnegative():
    rng = random.Random(343)
    worst_weak = F(0)
    for _ in range(200):
        u = [F(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(3)]
        v = [F(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(3)]
        gap = lb.parallelogram_gap(u, v)
        assert gap == sum((a - b) ** 2 for a, b in zip(u, v)) >= 0
        # a deliberately wrong variant (||u||^2 + ||v||^2 >= ||u+v||^2) does fail somewhere
        weak = sum(a * a for a in u) + sum(b * b for b in v) - sum((a + b) ** 2 for a, b in zip(u, v))
        worst_weak = min(worst_weak, weak)
    assert worst_weak < 0
    with pytest.raises(InvalidInputError):
        lb.parallelogram_gap([1], [1, 2])


# -- (3.44) ---------------------------------------------------------------------------------------

def _brute_bernoulli_error(thetas, scale, n):
    """E||(1/n) sum x_i - mu||^2 by enumerating all (2^d)^n outcomes (scale a sympy number)."""
    d = len(thetas)
    mu = [scale * t for t in thetas]
    total = sympy.Integer(0)
    points = list(itertools.product((0, 1), repeat=d))
    for draw in itertools.product(points, repeat=n):
        prob = sympy.Integer(1)
        for x in draw:
            for b, t in zip(x, thetas):
                prob *= t if b else 1 - t
        mean = [scale * sum(x[j] for x in draw) / n for j in range(d)]
        total += prob * sum((m - u) ** 2 for m, u in zip(mean, mu))
    return sympy.nsimplify(sympy.expand(total))


@pytest.mark.parametrize("thetas,p,n", [
    ((sympy.Rational(1, 3), sympy.Rational(1, 2)), 2, 2),
    ((sympy.Rational(1, 4), sympy.Rational(2, 5), sympy.Rational(1, 2), sympy.Rational(9, 10)), 2, 2),
    ((sympy.Rational(1, 5), sympy.Rational(3, 4)), "inf", 3),
    ((sympy.Rational(1, 2),) * 2, 4, 2),
])
def test_bernoulli_mean_error_matches_enumeration(thetas, p, n):
    d = len(thetas)
    scale = sympy.Integer(1) if p == "inf" else sympy.Integer(d) ** sympy.Rational(-1, p)
    got = lb.bernoulli_mean_error([F(int(t.p), int(t.q)) for t in thetas], p, n)
    assert sympy.simplify(got - _brute_bernoulli_error(thetas, scale, n)) == 0
    bound = lb.bernoulli_mean_error_bound(d, p, n)
    assert sympy.simplify(bound - (sympy.Integer(d) * scale ** 2) / n) == 0
    assert float(got) <= float(bound)


def test_bernoulli_bound_constant_is_quarter_at_half_and_p_refused_below_2():
    got = lb.bernoulli_mean_error([F(1, 2)] * 4, 2, 3)
    assert sympy.simplify(got - lb.bernoulli_mean_error_bound(4, 2, 3) / 4) == 0
    assert not float(got) <= float(lb.bernoulli_mean_error_bound(4, 2, 3) / 5)   # a too-strong variant fails
    with pytest.raises(InvalidInputError):
        lb.bernoulli_mean_error([F(1, 2)], F(3, 2), 1)
    lb.bernoulli_mean_error([F(1, 2)], 2, 1)                                         # boundary p = 2 accepted


# -- Ch. 7 constant and Thm 3.4.3 -------------------------------------------------------------------

@pytest.mark.parametrize("reading,kl_factor", [("printed", 2), ("corrected", 8)])
def test_ch7_constant_rederived_from_the_assouad_steps(reading, kl_factor):
    """KL <= 2 delta^2 E V as printed in (7.17)-(7.18); <= 8 delta^2 E V with the factor 4 of
    E-Thesis-Eq7.17 (M^nu - M^{nu-2e_j} = 2 delta (Q_j - Q_{j+k/2})).  delta^2 is chosen so that
    (n/2) KL = 1/4, then Lemma 7.3.1 gives phi(delta) (k/2)(1 - 1/2)."""
    k, n, E, dl = sympy.symbols("k n E delta", positive=True)
    V = 2 * (E - 1) ** 2 / (E + 1) ** 2                  # Lemma 7.3.2, case R >= H2
    kl = kl_factor * dl ** 2 * E * V
    d2 = sympy.solve(sympy.Eq(n / 2 * kl.subs(dl, sympy.sqrt(dl)), sympy.Rational(1, 4)), dl)[0]
    r = sympy.simplify(d2 * (k / 2) * (1 - sympy.sqrt(sympy.Rational(1, 4))))   # phi(delta) (k/2)(1 - sqrt(.))
    for kk, nn, ee in [(2, 10, F(3)), (8, 1000, F(5, 2)), (64, 10 ** 6, F(2))]:
        expect = r.subs({k: kk, n: nn, E: sympy.Rational(ee.numerator, ee.denominator)})
        assert lb.ch7_simplex_lower_bound(kk, nn, ee, reading) == F(str(expect))
    # the printed reading is (7.26)'s k (E+1)^2 / (32 n E (E-1)^2); the corrected one 4 times smaller
    assert sympy.simplify(r - k * (E + 1) ** 2 / ((128 if kl_factor == 8 else 32) * n * E * (E - 1) ** 2)) == 0


def test_ch7_default_reading_is_the_corrected_one():
    assert lb.ch7_simplex_lower_bound(8, 1000, F(2)) == lb.ch7_simplex_lower_bound(8, 1000, F(2), "corrected")
    assert lb.ch7_simplex_lower_bound(8, 1000, F(2), "printed") == 4 * lb.ch7_simplex_lower_bound(8, 1000, F(2))
    with pytest.raises(InvalidInputError, match="reading"):
        lb.ch7_simplex_lower_bound(8, 1000, F(2), "loose")


@pytest.mark.parametrize("reading,const", [("printed", 8), ("corrected", 32)])
def test_ch7_validity_both_sides(reading, const):
    E = F(2)
    threshold = F(64 * 9, const * 2)          # delta^2 <= 1/k^2 iff n >= k^2 (E+1)^2 / (C E (E-1)^2), k = 8
    assert threshold.denominator == 1
    lb.ch7_simplex_lower_bound(8, int(threshold), E, reading)
    with pytest.raises(ValidityConditionError):
        lb.ch7_simplex_lower_bound(8, int(threshold) - 1, E, reading)
    with pytest.raises(ValidityConditionError):
        lb.ch7_simplex_lower_bound(7, 10 ** 6, E, reading)
    with pytest.raises(InvalidInputError):
        lb.ch7_simplex_lower_bound(8, 100, 1, reading)
    with pytest.raises(FloatRefusedError):
        lb.ch7_simplex_lower_bound(8, 100, 2.0, reading)


def _hadamard_sup_mse_by_hand(n, d, r, E):
    """x_i = 0: each output +- r c H(j) (first d entries, all +-r c) w.p. 1/(2D): E||z||^2 = d r^2 c^2."""
    c = (E + 1) / (E - 1)
    return F(d) * r * r * c * c / n


@pytest.mark.parametrize("n,d,E", [(10 ** 6, 64, F(2)), (10 ** 5, 12, F(3, 2)), (4000, 8, F(3)),
                                   (10 ** 7, 100, F(11, 10))])
def test_thm343_bound_below_hadamard_and_formula(n, d, E):
    r = F(3, 2)
    k = 2 * (d // 2)
    expect = r * r * (k * (E + 1) ** 2 / (256 * n * E * (E - 1) ** 2) - F(1, n))  # corrected Assouad constant
    got = lb.thm343_explicit_lower_bound(n, d, r, E)
    assert got == expect
    mse = lb.hadamard_worst_mse(n, d, r, E)
    assert mse == _hadamard_sup_mse_by_hand(n, d, r, E)
    assert mse >= got
    # a "bound" 100 x larger than the scheme would be an erratum: the comparison can fail
    assert not mse >= 100 * _hadamard_sup_mse_by_hand(n, d, r, E) / 99 + 0


def test_gap_table_rows():
    rows = lb.gap_table([(10 ** 6, 64, 1, 2), (4000, 4, 1, 3)])
    names = ["l1-hadamard", "binary-vector s=1", "linf m=1 s=1", "linf m=3 s=1 water-filling"]
    assert [r["scheme"] for r in rows] == names * 2
    assert rows[0]["ratio"] == rows[0]["mse"] / rows[0]["lower_bound"] > 1
    assert all(float(r["ratio"]) > 1 for r in rows[:4])
    assert rows[4]["lower_bound"] <= 0 and rows[4]["ratio"] is None      # vacuous at d = 4, E = 3
    extra = lb.gap_table([(10 ** 6, 64, 1, 2)], {"half": lambda n, d, r, E: lb.hadamard_worst_mse(n, d, r, E) / 2})
    assert extra[0]["scheme"] == "half"


# -- Thm 3.6.3 step (e) -----------------------------------------------------------------------------

def test_chain_bound_and_step_e_against_sympy():
    c, cp = F(1, 2), F(1, 8)
    for n, d, eps0 in [(100, 16, F(1, 2)), (100, 16, F(3)), (3, 16, F(1)), (10 ** 4, 4, F(20))]:
        m = min(eps0, eps0 ** 2)
        cap = min(F(1), F(d) / (n * m))
        chain = lb.thm363_chain_bound(c, n, d, "inf", eps0)
        assert sympy.simplify(chain - d * (sympy.Rational(1, 4) * sympy.Rational(cap.numerator, cap.denominator)
                                           - sympy.Rational(1, n))) == 0
        target = sympy.Rational(1, 8) * d * sympy.Rational(cap.numerator, cap.denominator)
        assert lb.thm363_step_e_holds(c, cp, n, d, eps0) == bool(chain >= target)


def test_step_e_boundary_m_equals_c_half_minus_cprime_times_d():
    c, cp, d, n = F(1), F(1, 4), 8, 10 ** 6      # (c/2 - c') d = 2: holds iff min{eps0, eps0^2} <= 2
    assert lb.thm363_step_e_holds(c, cp, n, d, F(2))
    assert not lb.thm363_step_e_holds(c, cp, n, d, F(2) + F(1, 10 ** 6))
    assert lb.thm363_step_e_holds(c, cp, 4, 10 ** 6, F(1))          # n m < d: needs n >= 1/(c/2 - c') = 4
    assert not lb.thm363_step_e_holds(c, cp, 3, 10 ** 6, F(1))


# -- the large-eps0 counterexample ----------------------------------------------------------------

def _brute_grid_rr(x, E, K):
    """Enumerate rounding then RR independently: returns (mean, second moment) of the estimate."""
    grid = [F(-1) + F(2 * i, K) for i in range(K + 1)]
    lo = max(i for i, g in enumerate(grid) if g <= x) if x < 1 else K - 1
    hi = lo + 1
    w_hi = (x - grid[lo]) / (grid[hi] - grid[lo])
    mean = second = F(0)
    for g_idx, w in ((lo, 1 - w_hi), (hi, w_hi)):
        for out in range(K + 1):
            pr = w * (E if out == g_idx else 1) / (E + K)
            est = (E + K) / (E - 1) * grid[out]
            mean += pr * est
            second += pr * est * est
    return mean, second


@pytest.mark.parametrize("E,K", [(F(5), 3), (F(100), 4), (F(7, 2), 1)])
def test_grid_rr_unbiased_private_and_variance_bounded(E, K):
    xs = [F(-1), F(-1, 3), F(0), F(2, 7), F(1)]
    laws = {x: lb.grid_rr_law(x, E, K) for x in xs}
    bound = lb.grid_rr_sup_variance_bound(E, K)
    for x, law in laws.items():
        assert sum(law.values()) == 1
        mean, second = _brute_grid_rr(x, E, K)
        assert sum(p * v for v, p in law.items()) == mean == x
        assert sum(p * v * v for v, p in law.items()) == second
        assert second - x * x <= bound
    ratios = [laws[a][v] / laws[b][v] for a in xs for b in xs for v in laws[a]]
    assert max(ratios) <= E and max(ratios) == E
    with pytest.raises(InvalidInputError):
        lb.grid_rr_law(F(3, 2), E, K)


def test_grid_rr_beats_the_uncapped_rate_for_large_eps0():
    E, K = F(10 ** 6), 100
    V = lb.grid_rr_sup_variance_bound(E, K)
    with mpmath.workdps(50):
        log_e = mpmath.log(10 ** 6)
        assert mpmath.mpf(V.numerator) / V.denominator * log_e < mpmath.mpf(1) / 100    # (3.38), C = 1/100
        assert mpmath.mpf(V.numerator) / V.denominator * log_e ** 2 < mpmath.mpf(1) / 10  # (3.16), C = 1/10
        # at eps0 = 1 (E = e is irrational; E = 3 > e is a stronger privacy level's neighbour) it does not
        V3 = lb.grid_rr_sup_variance_bound(F(3), 1)
        assert mpmath.mpf(V3.numerator) / V3.denominator * mpmath.log(3) > mpmath.mpf(1) / 100
