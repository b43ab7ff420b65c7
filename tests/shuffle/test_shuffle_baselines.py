"""Tests of bcdp.shuffle.baselines: FMT21 clones (closed form, numerical) and KOV15 composition.

Every expected number is either published ([PUB]), printed by the authors' code ([AUTHOR-CODE]),
computed independently of this code by an earlier scipy/mpmath script ([HERE]), or computed here by
an independent brute force (mpmath at 60 digits or exact Fractions, written from the definitions,
not from the module).

Provenance of the numbers used below:
* [PUB] apple/ml-shuffling-amplification README (FMT21 authors): n = 1e5, eps0 = 4, delta = 1e-6:
  numeric bracket [0.1675385583317841, 0.172790550755978], closed form 0.5378040242374512.
* [AUTHOR-CODE] "FMT21 closed form": the authors' closedformanalysis re-run.
* [HERE] the "exact clone-pair eps" table and the README-point value 0.1697697 (independent
  scipy/mpmath computation), and the exact shuffled binary RR value 0.0356588153 (n = 1e4, eps0 = 1).
* [AUTHOR-CODE] the authors' blocked upper bound after fixing its deltaq typo,
  0.175078 (n = 1e5, eps0 = 4, 20 iterations) and 0.159766 (n = 1e4, eps0 = 2).
* thesis eq. (6.10) evaluated independently: n = 1e4, delta = 1e-6: f^-1(0.1) ~ 0.52808,
  f^-1(0.5) ~ 1.99700, f^-1(1.0) ~ 3.50371, cap log(n/(16 log(2/delta))) ~ 3.76301.
* [HERE] an independent computation (grid of splits not stated by the thesis): FMT22 closed form +
  KOV15 optimal at eps0 = 0.5, n = 1e6, T = 1e3, delta = 1e-8: 2.254.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.checks.thesis.baseline_clones_and_kov import bf_clone_pair, half_unit, hockey
from bcdp.core.errors import ValidityConditionError
from bcdp.shuffle.baselines import (
    advanced_composition,
    clone_pair_delta,
    clones_closed_form,
    clones_closed_form_cap,
    clones_kov_composition,
    clones_numerical,
    kov_closed_form,
    kov_delta,
    kov_optimal_composition,
)

README_BRACKET = (0.1675385583317841, 0.172790550755978)  # [PUB]
README_CLOSED = 0.5378040242374512  # [PUB]

# [HERE] exact clone-pair eps at delta = 1e-6 (6-7 significant digits printed)
CLONE_TABLE = {
    (10**4, 0.5): "0.0204015", (10**4, 1.0): "0.0530053", (10**4, 2.0): "0.1550452",
    (10**5, 0.5): "0.00581255", (10**5, 1.0): "0.0152821", (10**5, 2.0): "0.0450256",
    (10**6, 0.5): "0.00161909", (10**6, 1.0): "0.00433452", (10**6, 2.0): "0.0129584",
    (10**5, 4.0): "0.1697697",
}

# [AUTHOR-CODE] FMT21 closed form (authors' code), delta = 1e-6, 7 decimals
CLOSED_TABLE = {
    (10**4, 0.5): 0.1046824, (10**4, 1.0): 0.2332656, (10**4, 2.0): 0.5235510,
    (10**6, 0.5): 0.0099080, (10**6, 1.0): 0.0238064, (10**6, 2.0): 0.0631878, (10**6, 4.0): 0.2016015,
}


# -- independent brute forces (mpmath, 60 digits) --------------------------------------------------

def bf_product(P1: list, P0: list, T: int):
    """T-fold product of a finite pair, enumerated output by output."""
    Pt: dict = {}
    Qt: dict = {}
    for out in itertools.product(range(len(P1)), repeat=T):
        pv = mpmath.mpf(1)
        qv = mpmath.mpf(1)
        for o in out:
            pv *= P1[o]
            qv *= P0[o]
        Pt[out], Qt[out] = pv, qv
    return Pt, Qt


def kov_pair(eps, delta):
    """KOV15's 4-point (eps, delta) pair (supplementary, eqs. (12)-(13))."""
    E = mpmath.exp(mpmath.mpf(eps))
    d = mpmath.mpf(delta)
    P0 = [d, (1 - d) * E / (1 + E), (1 - d) / (1 + E), mpmath.mpf(0)]
    P1 = [mpmath.mpf(0), (1 - d) / (1 + E), (1 - d) * E / (1 + E), d]
    return P0, P1


def bf_rr_by_flips(eps: float, T: int, eps_total) -> mpmath.mpf:
    """Hockey-stick of T-fold binary RR, enumerating the Binomial number of flips (all of them)."""
    mp = mpmath.mp
    E = mp.exp(mp.mpf(eps))
    Et = mp.exp(mp.mpf(eps_total))
    tot = mp.mpf(0)
    for l in range(T + 1):
        Pl = mp.binomial(T, l) * E ** (T - l) / (1 + E) ** T
        Ql = mp.binomial(T, l) * E ** l / (1 + E) ** T
        tot += max(mp.mpf(0), Pl - Et * Ql)
    return tot


def encloses(lo: float, hi: float, exact) -> bool:
    """lo <= exact <= hi up to 1e-50 (the 60-digit brute force's own rounding)."""
    slack = mpmath.mpf(10) ** -50
    return lo - slack <= exact <= hi + slack


@pytest.fixture(autouse=True)
def _mp60():
    saved = mpmath.mp.dps
    mpmath.mp.dps = 60
    yield
    mpmath.mp.dps = saved


# == FMT21 closed form =============================================================================

def test_closed_form_readme_value():
    # [PUB] apple README: 0.5378040242374512 (author-code expression)
    v = clones_closed_form(4, 10**5, 1e-6)
    assert v >= README_CLOSED * (1 - 1e-15) and abs(v - README_CLOSED) <= 2e-16 * README_CLOSED + 1e-16


@pytest.mark.parametrize("key", sorted(CLOSED_TABLE))
def test_closed_form_author_code_table(key):
    # [AUTHOR-CODE] (7 decimals)
    n, eps0 = key
    assert abs(clones_closed_form(eps0, n, 1e-6, variant="author-code") - CLOSED_TABLE[key]) <= 5e-8


def test_theorem_variant_matches_thesis_eq_6_10_examples():
    # thesis eq. (6.10), evaluated independently: f^-1(0.1) ~ 0.52808 etc. at n = 1e4, delta = 1e-6;
    # 5 printed decimals => f(x - 5e-6) < target < f(x + 5e-6).
    for x, target in ((0.52808, 0.1), (1.99700, 0.5), (3.50371, 1.0)):
        lo = clones_closed_form(x - 5e-6, 10**4, 1e-6, variant="theorem-3.1")
        hi = clones_closed_form(x + 5e-6, 10**4, 1e-6, variant="theorem-3.1")
        assert lo < target < hi
    assert abs(clones_closed_form_cap(10**4, 1e-6) - 3.76301) <= 5e-6


def test_author_code_variant_is_never_smaller_than_theorem_variant():
    for n in (10**3, 10**4, 10**6):
        cap = clones_closed_form_cap(n, 1e-6)
        for eps0 in (0.01, 0.5, 1.0, 0.99 * cap):
            a = clones_closed_form(eps0, n, 1e-6, variant="author-code")
            t = clones_closed_form(eps0, n, 1e-6, variant="theorem-3.1")
            assert a >= t


def test_closed_form_validity_condition_enforced():
    cap = clones_closed_form_cap(10**4, 1e-6)  # log(n/(16 log(2/delta)))
    clones_closed_form(cap - 1e-9, 10**4, 1e-6)  # inside: fine
    with pytest.raises(ValidityConditionError, match="log\\(n/\\(16 log\\(2/delta\\)\\)\\)"):
        clones_closed_form(cap + 1e-9, 10**4, 1e-6)
    assert clones_closed_form(cap + 1e-9, 10**4, 1e-6, outside="inf") == math.inf
    with pytest.raises(ValidityConditionError):
        clones_closed_form(4.0, 10**4, 1e-6, variant="theorem-3.1")


def test_closed_form_is_above_the_exact_clone_pair():
    # Thm 3.1 is proved through the clone pair, so it cannot beat the pair's exact epsilon.
    for (n, eps0), printed in CLONE_TABLE.items():
        assert clones_closed_form(eps0, n, 1e-6, variant="theorem-3.1") > float(printed)


# == FMT21 numerical clones =========================================================================

def test_numerical_readme_point():
    b = clones_numerical(4, 10**5, 1e-6)
    lo, hi = b
    # [PUB] the README's (blocked) bracket contains the exact clone-pair bracket
    assert README_BRACKET[0] <= lo <= hi <= README_BRACKET[1]
    # [HERE] exact clone pair 0.1697697
    assert abs(hi - 0.1697697) <= half_unit("0.1697697") and abs(lo - 0.1697697) <= half_unit("0.1697697")
    # [AUTHOR-CODE] the authors' blocked upper bound, typo fixed, is 0.175078 >= ours
    assert hi <= 0.175078
    assert b.delta_at_upper <= 1e-6 < b.delta_at_lower
    assert hi - lo <= 1e-8 * hi


@pytest.mark.parametrize("key", sorted(k for k in CLONE_TABLE if k != (10**5, 4.0)))
def test_numerical_reproduces_exact_clone_pair_table(key):
    # [HERE] "exact clone-pair eps" table
    n, eps0 = key
    printed = CLONE_TABLE[key]
    b = clones_numerical(eps0, n, 1e-6)
    assert abs(b.upper - float(printed)) <= half_unit(printed)
    assert abs(b.lower - float(printed)) <= half_unit(printed)
    assert b.lower < b.upper and b.delta_at_upper <= 1e-6 < b.delta_at_lower


def test_numerical_ordering_against_published_values():
    # regression invariant at n = 1e4, eps0 = 1: exact shuffled 2RR 0.0356588153
    # [HERE] < clones numeric < FMT closed form 0.2332656 [AUTHOR-CODE]
    b = clones_numerical(1.0, 10**4, 1e-6)
    assert 0.0356588153 < b.lower and b.upper < 0.2332656
    # [AUTHOR-CODE] fixed blocked upper bound 0.159766 at n = 1e4, eps0 = 2
    assert clones_numerical(2.0, 10**4, 1e-6).upper <= 0.159766


@pytest.mark.parametrize("n", [1, 2, 5, 30])
@pytest.mark.parametrize("eps0", [0.3, 1.0, 2.5])
def test_clone_pair_delta_encloses_brute_force(n, eps0):
    P, Q = bf_clone_pair(n, eps0)
    for eps in (0.0, 0.05, 0.5 * eps0, 0.99 * eps0, eps0, 1.5 * eps0):
        E = mpmath.exp(mpmath.mpf(eps))
        exact = hockey(P, Q, E)
        other = hockey(Q, P, E)
        assert abs(exact - other) <= mpmath.mpf(10) ** -50  # D(P||Q) = D(Q||P)
        lo, hi = clone_pair_delta(eps0, n, eps)
        assert encloses(lo, hi, exact)
        assert hi - lo <= 1e-11 * float(exact) + 1e-300 or abs(exact) <= mpmath.mpf(10) ** -50


def test_clone_pair_delta_with_truncated_support_of_C():
    # n = 250, eps0 = 1, tail_tol = 1e-12: the module sums C over a window and bounds the rest;
    # the brute force sums every c and every y, without thresholds or tails (30 digits).
    from bcdp.shuffle.clones import _clone_grid
    n, eps0, tail_tol = 250, 1.0, 1e-12
    grid = _clone_grid(eps0, n, tail_tol)
    assert grid.cs[0] > 0 and grid.cs[-1] < n - 1 and 0 < grid.tail_hi <= tail_tol  # premise
    mp = mpmath.mp
    saved = mp.dps
    mp.dps = 30
    try:
        p = mp.exp(-mp.mpf(eps0))
        a = 1 / (1 + mp.exp(-mp.mpf(eps0)))
        pairs = []  # (P{C=c} P(y|c), P{C=c} Q(y|c)) for every c, y
        for c in range(n):
            wc = mp.binomial(n - 1, c) * p ** c * (1 - p) ** (n - 1 - c)
            b = [mp.mpf(2) ** -c]
            for k in range(c):
                b.append(b[-1] * (c - k) / (k + 1))
            for y in range(c + 2):
                bm1 = b[y - 1] if y >= 1 else 0
                by = b[y] if y <= c else 0
                pairs.append((wc * (a * bm1 + (1 - a) * by), wc * ((1 - a) * bm1 + a * by)))
        for eps in (0.05, 0.3):
            E = mp.exp(mp.mpf(eps))
            total = mp.fsum(max(0, pv - E * qv) for pv, qv in pairs)
            lo, hi = clone_pair_delta(eps0, n, eps, tail_tol=tail_tol)
            assert lo - mp.mpf(10) ** -25 <= total <= hi + mp.mpf(10) ** -25
            assert hi - lo <= 1e-11 * float(total) + grid.tail_hi
    finally:
        mp.dps = saved


def test_clone_pair_symmetry_exact_rationals():
    # eps0 = log 2 makes every probability rational: C ~ Bin(n-1, 1/2), alpha = 2/3.
    n = 9
    P: dict = {}
    Q: dict = {}
    a = Fraction(2, 3)
    for c in range(n):
        wc = Fraction(math.comb(n - 1, c), 2 ** (n - 1))
        for k in range(c + 1):
            w = wc * Fraction(math.comb(c, k), 2 ** c)
            hi, lo = (k + 1, c - k), (k, c - k + 1)
            P[hi] = P.get(hi, 0) + w * a
            P[lo] = P.get(lo, 0) + w * (1 - a)
            Q[lo] = Q.get(lo, 0) + w * a
            Q[hi] = Q.get(hi, 0) + w * (1 - a)
    for E in (Fraction(1), Fraction(6, 5), Fraction(3, 2), Fraction(19, 10), Fraction(2)):
        d1 = sum(max(Fraction(0), P.get(k, 0) - E * Q.get(k, 0)) for k in set(P) | set(Q))
        d2 = sum(max(Fraction(0), Q.get(k, 0) - E * P.get(k, 0)) for k in set(P) | set(Q))
        assert d1 == d2
        if E == 2:
            assert d1 == 0  # likelihood ratio <= e^eps0
        lo, hi = clone_pair_delta(math.log(2), n, math.log(E))
        assert abs(float(d1) - 0.5 * (lo + hi)) <= 1e-12 * float(d1) + 1e-15


def test_numerical_bracket_verified_by_brute_force_small_n():
    n, eps0, delta = 30, 1.0, 1e-3
    P, Q = bf_clone_pair(n, eps0)
    b = clones_numerical(eps0, n, delta)
    assert hockey(P, Q, mpmath.exp(mpmath.mpf(b.upper))) <= delta
    assert hockey(P, Q, mpmath.exp(mpmath.mpf(b.lower))) > delta


def test_numerical_trivial_target_and_monotone_profile():
    # delta >= TV(P, Q) (= divergence at eps = 0) gives eps = 0
    tv_hi = clone_pair_delta(1.0, 100, 0.0).upper
    b = clones_numerical(1.0, 100, min(0.999, tv_hi * 1.01))
    assert (b.lower, b.upper) == (0.0, 0.0)
    prev = 1.0
    for eps in (0.0, 0.01, 0.05, 0.1, 0.2, 0.4, 0.8, 1.0):
        lo, hi = clone_pair_delta(1.0, 10**4, eps)
        assert lo <= hi <= prev + 1e-15
        prev = hi


# == KOV15 optimal composition ======================================================================

def test_kov_printed_formula_equals_rr_product_exactly():
    # KOV15's delta_i = sum_{l<i} C(k,l)(e^{(k-l)eps} - e^{(k-2i+l)eps})/(1+e^eps)^k equals the
    # hockey-stick of the k-fold binary RR product at e^{(k-2i)eps}, exactly (e^eps = 2).
    E = Fraction(2)
    for k in range(1, 8):
        P1 = [E / (1 + E), 1 / (1 + E)]
        P0 = [1 / (1 + E), E / (1 + E)]
        for i in range(0, k // 2 + 1):
            Et = E ** (k - 2 * i)
            brute = Fraction(0)
            for out in itertools.product((0, 1), repeat=k):
                pv = math.prod(P1[o] for o in out)
                qv = math.prod(P0[o] for o in out)
                brute += max(Fraction(0), pv - Et * qv)
            formula = sum(math.comb(k, l) * (E ** (k - l) - E ** (k - 2 * i + l)) for l in range(i)) / (1 + E) ** k
            assert brute == formula
            enc = kov_delta(math.log(2), 0.0, k, (k - 2 * i) * math.log(2))
            assert abs(0.5 * (enc.lower + enc.upper) - float(brute)) <= 1e-12 * float(brute) + 1e-15


@pytest.mark.parametrize("T", [1, 2, 5, 8])
def test_kov_delta_encloses_enumerated_rr_product(T):
    eps = 0.25  # dyadic: (T - 2i) eps is exact in float
    P1 = [mpmath.exp(mpmath.mpf(eps)) / (1 + mpmath.exp(mpmath.mpf(eps))), 1 / (1 + mpmath.exp(mpmath.mpf(eps)))]
    P0 = P1[::-1]
    Pt, Qt = bf_product(P1, P0, T)
    for eps_total in [(T - 2 * i) * eps for i in range(T // 2 + 1)] + [0.0, 0.1, 0.37 * T * eps]:
        exact = hockey(Pt, Qt, mpmath.exp(mpmath.mpf(eps_total)))
        lo, hi = kov_delta(eps, 0.0, T, eps_total)
        assert encloses(lo, hi, exact)


@pytest.mark.parametrize("T", [1, 2, 4])
def test_kov_delta_with_delta_encloses_4_point_product(T):
    eps, delta = 0.5, 1e-3
    P0, P1 = kov_pair(eps, delta)
    Pt, Qt = bf_product(P0, P1, T)
    for eps_total in (0.0, 0.2, 0.5, 0.5 * T, 0.5 * T + 0.1):
        exact = hockey(Pt, Qt, mpmath.exp(mpmath.mpf(eps_total)))
        lo, hi = kov_delta(eps, delta, T, eps_total)
        assert encloses(lo, hi, exact)


@pytest.mark.parametrize("eps,T,target", [(0.3, 200, 1e-6), (0.05, 200, 1e-8), (1.0, 31, 1e-4)])
def test_kov_optimal_composition_certified_by_flip_enumeration(eps, T, target):
    b = kov_optimal_composition(eps, 0.0, T, target)
    assert bf_rr_by_flips(eps, T, b.upper) <= target
    assert bf_rr_by_flips(eps, T, b.lower) > target
    assert b.upper - b.lower <= 1e-12 * b.upper
    for eps_total in (0.0, b.upper / 3, b.upper, 1.3 * b.upper):
        lo, hi = kov_delta(eps, 0.0, T, eps_total)
        assert encloses(lo, hi, bf_rr_by_flips(eps, T, eps_total))


def test_kov_single_mechanism_closed_form():
    # T = 1: delta(eps') = p - e^{eps'}(1 - p) with p = e^eps/(1 + e^eps) => eps' = log((p - d)/(1 - p))
    eps, target = 1.0, 0.1
    p = mpmath.exp(1) / (1 + mpmath.exp(1))
    expected = float(mpmath.log((p - target) / (1 - p)))
    b = kov_optimal_composition(eps, 0.0, 1, target)
    assert b.lower <= expected <= b.upper


def test_kov_with_per_step_delta_uses_1_minus_product():
    eps, delta, T, target = 0.2, 1e-7, 50, 1e-5
    b = kov_optimal_composition(eps, delta, T, target)
    rr_target = 1 - (1 - mpmath.mpf(target)) / (1 - mpmath.mpf(delta)) ** T
    assert bf_rr_by_flips(eps, T, b.upper) <= rr_target < bf_rr_by_flips(eps, T, b.lower)


def test_kov_optimal_beats_closed_forms():
    # Optimal composition can never be worse than KOV15's closed form or advanced composition.
    for eps in (0.01, 0.1, 0.5):
        for T in (10, 1000, 10**4):
            target = 1e-8
            opt = kov_optimal_composition(eps, 0.0, T, target).upper
            assert opt <= kov_closed_form(eps, 0.0, T, target)[0] + 1e-12
            assert opt <= advanced_composition(eps, 0.0, T, target)[0] + 1e-12
            assert opt <= T * eps + 1e-12


def test_kov_infeasible_target_is_infinite_with_reason():
    b = kov_optimal_composition(0.1, 1e-6, 100, 5e-5)  # 1 - (1 - 1e-6)^100 ~ 1e-4 > 5e-5
    assert b.upper == math.inf and b.lower == math.inf and "infeasible" in b.note


def test_composed_baseline_matches_independent_value():
    # [HERE] FMT22 closed form + KOV15 optimal, eps0 = 0.5, n = 1e6, T = 1e3,
    # delta = 1e-8: 2.254 (split optimised on an unstated grid) -> agree to 0.2%.
    b = clones_kov_composition(0.5, 10**6, 10**3, 1e-8, per_round="theorem-3.1",
                               split_grid=(0.3, 0.35, 0.37, 0.4, 0.45))
    assert abs(b.upper - 2.254) <= 0.002 * 2.254
    # numerical clones per round is never worse than the closed form per round (same split)
    x = b.details["split_x"]
    num = clones_kov_composition(0.5, 10**6, 10**3, 1e-8, per_round="numerical", split_grid=(x,))
    assert num.upper <= b.upper


# == bad inputs ====================================================================================

@pytest.mark.parametrize("call", [
    lambda: clones_closed_form(-1.0, 100, 1e-6),
    lambda: clones_closed_form(1.0, 0, 1e-6),
    lambda: clones_closed_form(1.0, 100, 0.0),
    lambda: clones_closed_form(1.0, 100, 1.0),
    lambda: clones_closed_form(float("nan"), 100, 1e-6),
    lambda: clones_closed_form(1.0, 100, 1e-6, variant="paper"),
    lambda: clones_closed_form(1.0, 100, 1e-6, outside="clip"),
    lambda: clones_numerical(1.0, 100, 0.0),
    lambda: clones_numerical(1.0, 100, 1e-6, rel_tol=0.5),
    lambda: clones_numerical(float("inf"), 100, 1e-6),
    lambda: clone_pair_delta(1.0, 100, -0.1),
    lambda: kov_optimal_composition(0.1, 0.0, 0, 1e-6),
    lambda: kov_optimal_composition(0.1, 1.0, 10, 1e-6),
    lambda: kov_optimal_composition(0.1, 0.0, 10, 1.5),
    lambda: kov_delta(-0.1, 0.0, 10, 1.0),
    lambda: kov_closed_form(0.1, 0.0, 10, 0.0),
    lambda: advanced_composition(0.1, 0.0, 10, 0.0),
    lambda: clones_kov_composition(1.0, 100, 10, 1e-6, per_round="magic"),
    lambda: clones_kov_composition(1.0, 100, 10, 1e-6, split_grid=(0.0,)),
])
def test_bad_inputs_raise_value_error(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("call", [
    lambda: clones_numerical(1.0, 2.5, 1e-6),
    lambda: clones_numerical(1.0, True, 1e-6),
    lambda: kov_delta(0.1, 0.0, "10", 1.0),
    lambda: clones_closed_form("1", 100, 1e-6),
])
def test_bad_input_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


# == results are bcdp.core.results.Certified =======================================================

def test_results_are_certified_and_enclose_brute_force():
    """kov_delta / clone_pair_delta return Certified enclosures of the exact value (60-digit brute
    force); the brackets carry their former fields as named details and serialise to strict JSON."""
    import json

    from bcdp.core.results import Certified, jsonable

    T, eps = 4, 0.25
    P1 = [mpmath.exp(mpmath.mpf(eps)) / (1 + mpmath.exp(mpmath.mpf(eps))), 1 / (1 + mpmath.exp(mpmath.mpf(eps)))]
    Pt, Qt = bf_product(P1, P1[::-1], T)
    enc = kov_delta(eps, 0.0, T, 0.3)
    assert isinstance(enc, Certified) and "KOV15" in enc.provenance
    assert encloses(enc.lower, enc.upper, hockey(Pt, Qt, mpmath.exp(mpmath.mpf("0.3"))))
    d = clone_pair_delta(1.0, 5, 0.2)
    assert isinstance(d, Certified) and "FMT21" in d.provenance
    assert encloses(d.lower, d.upper, hockey(*bf_clone_pair(5, 1.0), mpmath.exp(mpmath.mpf(0.2))))
    b = kov_optimal_composition(0.1, 1e-6, 50, 1e-3)
    assert isinstance(b, Certified) and b.lower <= b.upper
    assert b.delta == 1e-3 and b.delta_at_upper <= 1e-3 < b.delta_at_lower and b.method == b.provenance
    assert b.note == "" and "mp_root" in b.details
    # the certified upper end really satisfies the target at 60 digits (independent profile sum)
    exact_up = 1 - (1 - mpmath.mpf(1e-6)) ** 50 * (1 - bf_rr_by_flips(0.1, 50, b.upper))
    assert exact_up <= mpmath.mpf(1e-3)
    json.dumps(jsonable(b), allow_nan=False)
    json.dumps(jsonable(kov_optimal_composition(0.1, 1e-6, 100, 5e-5)), allow_nan=False)  # infinite bracket


def test_baselines_refuse_strings_and_fractions():
    from bcdp.core.errors import WrongTypeError

    for bad in (lambda: clones_numerical("1", 100, 1e-6), lambda: kov_delta(Fraction(1, 10), 0.0, 3, 0.1),
                lambda: clones_closed_form(True, 100, 1e-6)):
        with pytest.raises(WrongTypeError):
            bad()
