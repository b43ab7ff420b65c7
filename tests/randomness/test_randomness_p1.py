"""Problem P1 of thesis Sec. 7.3.1 ((7.20)-(7.21)), :mod:`bcdp.randomness.p1`, against independent oracles:
exact Fraction objectives written here, mpmath (50 digits) from the printed formulas, float brute force
over a grid of binary channels, random exactly-feasible points under arbitrary Lagrange multipliers, and a
sympy score for the Fisher trace (App. F.1, (F.8)-(F.9))."""

from __future__ import annotations

import random
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.randomness import p1

mpmath.mp.dps = 50


def mpf(x):
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def h2_bits(p):
    return -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)


def p_r(r):
    lo, hi = mpmath.mpf(0), mpmath.mpf(1) / 2
    for _ in range(190):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if h2_bits(mid) <= mpf(r) else (lo, mid)
    return lo


def v_oracle(a, b):
    return sum(((F(x) - F(y)) ** 2 / (F(x) + F(y)) for x, y in zip(a, b) if F(x) + F(y) != 0), F(0))


def _random_pmf(rng, m):
    w = [rng.randint(0, 50) for _ in range(m)]
    w[rng.randrange(m)] += 1
    return tuple(F(x, sum(w)) for x in w)


# -- objective and feasibility ------------------------------------------------------------------------

def test_value_matches_the_exact_oracle_and_the_float_twin():
    rng = random.Random(1)
    for _ in range(50):
        m = rng.randint(1, 5)
        a, b = _random_pmf(rng, m), _random_pmf(rng, m)
        assert p1.p1_value(a, b) == v_oracle(a, b)
        assert abs(float(p1.p1_value_float([float(x) for x in a], [float(y) for y in b])) - float(v_oracle(a, b))) < 1e-12


def test_value_refuses_bad_input():
    with pytest.raises(FloatRefusedError):
        p1.p1_value((0.5, 0.5), (F(1, 2), F(1, 2)))
    with pytest.raises(InvalidInputError, match="same length"):
        p1.p1_value((1,), (F(1, 2), F(1, 2)))
    with pytest.raises(InvalidInputError):
        p1.p1_value((F(1, 2), F(1, 3)), (F(1, 2), F(1, 2)))


def test_feasibility_on_both_sides_of_the_ratio_and_entropy_boundaries():
    a, b = (F(2, 3), F(1, 3)), (F(1, 3), F(2, 3))      # ratio exactly 2; e^(69/100) < 2 < e^(7/10)
    assert p1.p1_feasible(a, b, F(7, 10), 1) is True
    assert p1.p1_feasible(a, b, F(69, 100), 1) is False
    h = h2_bits(mpmath.mpf(1) / 3)                      # 0.918... bit
    above, below = F(mpmath.nstr(h + mpmath.mpf(10) ** -20, 30)), F(mpmath.nstr(h - mpmath.mpf(10) ** -20, 30))
    assert p1.p1_feasible(a, b, 1, above) is True
    assert p1.p1_feasible(a, b, 1, below) is False
    assert p1.p1_feasible((1, 0), (F(1, 2), F(1, 2)), 5, 1) is False   # a_l = 0 < b_l breaks the ratio
    assert p1.p1_feasible((1, 0), (1, 0), 1, 0) is True


def test_parameters_are_validated():
    with pytest.raises(InvalidInputError, match="eps"):
        p1.classical_bound(0)
    with pytest.raises(FloatRefusedError):
        p1.classical_bound(0.5)
    with pytest.raises(InvalidInputError, match="R must be"):
        p1.p1_dual_upper(2, 1, -1)
    for bad in (0, 9, True, 2.0):
        with pytest.raises(InvalidInputError, match="m must be"):
            p1.p1_dual_upper(bad, 1, F(1, 2))
    with pytest.raises(InvalidInputError, match="mu_a and mu_b"):
        p1.p1_dual_upper(2, 1, F(1, 2), multipliers=(0, 0, -1, 0))
    with pytest.raises(InvalidInputError, match="splits"):
        p1.p1_dual_upper(2, 1, F(1, 2), splits=0)
    with pytest.raises(InvalidInputError, match="depth"):
        p1.p1_dual_upper(2, 1, F(1, 2), depth=3)
    with pytest.raises(InvalidInputError, match="unit"):
        p1.p1_dual_upper(2, 1, F(1, 2), unit="bytes")


# -- closed forms against mpmath ----------------------------------------------------------------------

@pytest.mark.parametrize("eps,r", [(F(1), F(21, 500)), (F(2), F(527, 2000)), (F(1, 2), F(1, 5)), (F(1), F(9, 10))])
def test_printed_classical_and_corrected_bounds_match_mpmath(eps, r):
    big = mpmath.exp(mpf(eps))
    crit = h2_bits(1 / (big + 1))
    c2 = ((big - 1) / (big + 1)) ** 2
    printed = p1.printed_lemma732_bound(eps, r)
    if mpf(r) >= crit:
        assert mpf(printed.lower) <= 2 * c2 <= mpf(printed.upper)
        with pytest.raises(ValidityConditionError):
            p1.corrected_lemma732_bound(eps, r)
    else:
        p = p_r(r)
        assert mpf(printed.lower) <= 2 * p ** 2 * (big - 1) ** 2 / big ** 2 <= mpf(printed.upper)
        vbar = p1.corrected_lemma732_bound(eps, r)
        assert mpf(vbar.lower) <= 2 * p * c2 + p ** 2 / (2 * (1 - p)) <= mpf(vbar.upper)
        assert vbar.upper - vbar.lower < F(1, 10 ** 30)
    cl = p1.classical_bound(eps)
    assert mpf(cl.lower) <= 2 * c2 <= mpf(cl.upper)


def test_the_case_split_on_both_sides_of_the_critical_randomness():
    big = mpmath.exp(mpmath.mpf(1))
    crit = h2_bits(1 / (big + 1))
    just_below = F(mpmath.nstr(crit - mpmath.mpf(10) ** -25, 40))
    just_above = F(mpmath.nstr(crit + mpmath.mpf(10) ** -25, 40))
    assert p1.below_critical(1, just_below) is True
    assert p1.below_critical(1, just_above) is False
    assert p1.corrected_lemma732_bound(1, just_below).upper > 0
    with pytest.raises(ValidityConditionError):
        p1.corrected_lemma732_bound(1, just_above)
    with pytest.raises(ValidityConditionError):
        p1.p1_binary_upper(1, just_above)


# -- upper bounds are bounds --------------------------------------------------------------------------

def _grid_optimum_m2(eps: float, r: float, n: int = 601) -> float:
    """Float brute force over the (a_1, b_1) grid of binary channels (independent of the vertex argument)."""
    g = np.unique(np.concatenate([np.linspace(0.0, 0.1, n), np.linspace(0.1, 0.9, 81), 1 - np.linspace(0.0, 0.1, n)]))
    a, b = np.meshgrid(g, g, indexing="ij")
    big = np.exp(eps)

    def h(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where((x > 0) & (x < 1), -(x * np.log2(np.where(x > 0, x, 1)) + (1 - x) * np.log2(np.where(x < 1, 1 - x, 1))), 0.0)
        return t
    ok = (h(a) <= r) & (h(b) <= r) & (a <= big * b) & (b <= big * a) & (1 - a <= big * (1 - b)) & (1 - b <= big * (1 - a))
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.where(a + b > 0, (a - b) ** 2 / (a + b), 0) + np.where(2 - a - b > 0, (a - b) ** 2 / (2 - a - b), 0)
    return float(v[ok].max())


@pytest.mark.parametrize("eps,r", [(F(1), F(3, 10)), (F(2), F(527, 2000)), (F(1, 2), F(1, 2))])
def test_binary_route_is_the_m2_optimum(eps, r):
    up = p1.p1_binary_upper(eps, r)
    grid = _grid_optimum_m2(float(eps), float(r))
    assert grid <= float(up.upper) <= grid * 1.02
    big, p = mpmath.exp(mpf(eps)), p_r(r)
    at_722 = (p - p / big) ** 2 * (1 / (p + p / big) + 1 / (2 - p - p / big))   # (7.22), evaluated correctly
    assert at_722 <= mpf(up.upper) <= at_722 * (1 + mpmath.mpf(10) ** -20)
    dual = p1.p1_dual_upper(2, eps, r).upper
    assert up.upper <= dual <= up.upper * F(102, 100)          # the two routes agree within 2 %


def _feasible_random_points(rng, m, eps, r, count):
    pts = []
    while len(pts) < count:
        s = F(rng.randint(0, 40), 1000)
        tail = _random_pmf(rng, m - 1)
        a = (1 - s,) + tuple(s * t for t in tail)
        b = tuple(x * F(rng.randint(80, 120), 100) for x in a[1:])
        b = (1 - sum(b),) + b
        if min(b) >= 0 and p1.p1_feasible(a, b, eps, r):
            pts.append((a, b))
    return pts


@pytest.mark.parametrize("m", [2, 3, 4])
def test_dual_bound_holds_for_arbitrary_multipliers(m):
    rng = random.Random(m)
    eps, r = F(1), F(3, 10)
    pts = _feasible_random_points(rng, m, eps, r, 25)
    best = max(v_oracle(a, b) for a, b in pts)
    for _ in range(6):
        mult = (F(rng.randint(-50, 50), 100), F(rng.randint(-50, 50), 100), F(rng.randint(0, 50), 100), F(rng.randint(0, 50), 100))
        assert best <= p1.p1_dual_upper(m, eps, r, multipliers=mult).upper
    assert best <= p1.p1_dual_upper(m, eps, r).upper


def test_vertices_of_the_rational_cone_box():
    verts = p1.cone_box_vertices(F(0), F(1), F(0), F(1), F(2))
    assert set(verts) == {(F(0), F(0)), (F(1), F(1, 2)), (F(1), F(1)), (F(1, 2), F(1))}


# -- the enclosure ------------------------------------------------------------------------------------

@pytest.mark.parametrize("m", [2, 3])
def test_enclosure_contains_two_c_squared_above_the_critical_randomness(m):
    eps, r = F(1, 2), F(1)
    enc = p1.p1_solve(m, eps, r, starts=0)
    big = mpmath.exp(mpf(eps))
    target = 2 * (big - 1) ** 2 / (big + 1) ** 2
    assert mpf(enc.lower) <= target <= mpf(enc.upper)
    assert enc.width < F(1, 10 ** 6)
    a, b = enc.witness["a"], enc.witness["b"]
    assert v_oracle(a, b) == enc.lower and p1.p1_feasible(a, b, eps, r) is True


def test_enclosure_below_the_critical_randomness_and_m1():
    enc = p1.p1_solve(3, F(2), F(527, 2000), starts=0)
    assert F(46, 1000) < enc.lower <= enc.upper < F(50, 1000)
    assert enc.upper <= p1.corrected_lemma732_bound(F(2), F(527, 2000)).lower
    one = p1.p1_solve(1, F(1), F(1, 2))
    assert one.lower == one.upper == 0


@pytest.mark.slow
def test_tight_enclosures_with_two_level_branching():
    for m, eps, r in ((3, F(2), F(527, 2000)), (4, F(1), F(21, 500)), (3, F(1, 2), F(1, 5))):
        enc = p1.p1_solve(m, eps, r, starts=40, seed=3, depth=2)
        assert enc.upper / enc.lower < F(105, 100)            # measured: 2.8 %, 3.1 %, 4.4 %
        assert enc.lower >= p1.p1_solve(m, eps, r, starts=0).lower * F(999, 1000)
    rng = random.Random(7)
    pts = _feasible_random_points(rng, 3, F(1), F(3, 10), 25)
    best = max(v_oracle(a, b) for a, b in pts)
    assert best <= p1.p1_dual_upper(3, F(1), F(3, 10), multipliers=(F(1, 10), F(1, 10), F(1, 5), F(1, 5)), depth=2).upper
    assert best <= p1.p1_dual_upper(3, F(1), F(3, 10), depth=2).upper


def test_units_bits_and_nats_agree():
    r_bits = F(1, 2)
    r_nats = F(mpmath.nstr(mpf(r_bits) * mpmath.log(2), 40))
    for fn in (lambda r, u: p1.p1_dual_upper(3, 1, r, u), lambda r, u: p1.corrected_lemma732_bound(1, r, u),
               lambda r, u: p1.p1_binary_upper(1, r, u)):
        assert abs(float(fn(r_bits, "bits").upper) - float(fn(r_nats, "nats").upper)) < 1e-12


# -- Fisher information (App. F.1) --------------------------------------------------------------------

def _trace_sympy(channel, p):
    k = len(channel)
    half = k // 2
    t = sympy.symbols(f"t0:{half}")
    probs = list(t) + [sympy.Rational(2, k) - x for x in t]
    at = {t[j]: sympy.Rational(p[j].numerator, p[j].denominator) for j in range(half)}
    total = 0
    for y in range(len(channel[0])):
        marg = sum(sympy.Rational(F(channel[x][y]).numerator, F(channel[x][y]).denominator) * probs[x] for x in range(k))
        if marg.subs(at) == 0:
            continue
        total += sum(marg.subs(at) * sympy.diff(sympy.log(marg), t[j]).subs(at) ** 2 for j in range(half))
    total = sympy.Rational(sympy.simplify(total))
    return F(int(total.p), int(total.q))


def test_fisher_trace_matches_the_sympy_score():
    ch = ((F(1, 2), F(1, 3), F(1, 6)), (F(1, 4), F(1, 4), F(1, 2)), (F(1, 3), F(1, 3), F(1, 3)), (F(1, 5), F(3, 5), F(1, 5)))
    for p in ((F(1, 4),) * 4, (F(1, 2), F(3, 10), F(0), F(1, 5)), (F(3, 8), F(1, 4), F(1, 8), F(1, 4))):
        assert p1.fisher_trace(ch, p) == _trace_sympy(ch, p)


def test_fisher_trace_validity():
    ch = ((F(1, 2), F(1, 2)), (F(1, 3), F(2, 3)))
    with pytest.raises(ValidityConditionError):
        p1.fisher_trace(ch, (F(1, 3), F(2, 3)))          # p_1 < 1/k is outside P
    assert p1.fisher_trace(ch, (F(1, 2), F(1, 2))) > 0    # the boundary p_j = 1/k is inside
    with pytest.raises(InvalidInputError, match="even number"):
        p1.fisher_trace(ch[:1], (1,))
