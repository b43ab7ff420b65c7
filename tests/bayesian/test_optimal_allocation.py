"""The best allocation (bcdp.bayesian.optimal_allocation) against brute force, Theorem 2 and its own bounds.

(a) d = 2, 3: a fine grid over the feasible set (parametrised without the module's group
    reduction) plus local refinement; the returned point must be <= brute force (+ tiny) and the
    certified lower bound <= brute force.
(b) random instances (hypothesis): the rational point is feasible (checked exactly here, with
    bcdp.core.intervals.compare) and no worse than Theorem 2 with zeta = 1/2 and zeta = (1 + q)/2.
(c) lower_bound <= objective_upper, and lower_bound <= F at random feasible points.
"""

from __future__ import annotations

import json
import math
import random
import time
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.bayesian.allocation import (
    allocate_budgets,
    min_delta_baseline,
    mse_objective_float,
)
from bcdp.bayesian.optimal_allocation import OptimalAllocation, optimal_allocation
from bcdp.bayesian.optimal_allocation.instance import (
    cancellation_bits,
    fraction_float_down,
    fraction_float_up,
    mpf_fraction,
)
from bcdp.core.intervals import compare
from bcdp.core.results import Certified
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

FIG3_DELTA = ["0.2", "0.2"] + ["2"] * 8


# ---------------------------------------------------------------- independent helpers


def _tilde_sorted(delta, eps):
    e = Fraction(eps)
    return sorted(min(Fraction(v), e) for v in delta)


def _L(q: float, t: float) -> float:
    return math.log1p(q * math.expm1(t))


def _u(dt: list[float], q: float, t: float, upper: float) -> np.ndarray:
    """Bounds c_i <= u_i for t in a piece (a, upper]: t if delta~_i >= upper else delta~_i - L(t).

    For t in the piece this is the exact u_i(t); at t = a it is stricter (still feasible)."""
    L = _L(q, t)
    return np.array([t if x >= upper else x - L for x in dt])


def _F_batch(C: np.ndarray) -> np.ndarray:
    d = C.shape[1]
    inc = np.diff(np.concatenate([np.zeros((C.shape[0], 1)), C], axis=1), axis=1)
    S = np.cumsum(inc ** 2 / (d - np.arange(d)), axis=1)
    with np.errstate(divide="ignore"):
        out = np.sum(1.0 / S, axis=1)
    out[np.any(S <= 0, axis=1)] = np.inf
    return out


def _point(dt, q, t, upper, theta):
    """Feasible c from t and theta in [0,1]^{d-1}: c_d = t, c_i = theta_i * min(u_i, c_{i+1})."""
    u = _u(dt, q, t, upper)
    d = len(dt)
    c = np.empty(d)
    c[-1] = t
    for i in range(d - 2, -1, -1):
        c[i] = theta[i] * max(min(u[i], c[i + 1]), 0.0)
    return c


def brute_force(delta, eps, q, n_t=240, n_grid=90):
    """min F by a grid over (piece, t, c) plus Nelder-Mead refinement in each piece's best cell."""
    dt = [float(v) for v in _tilde_sorted(delta, eps)]
    qf = float(Fraction(q))
    d = len(dt)
    ends = sorted(set([0.0] + dt))
    best = (math.inf, None)
    for a, b in zip(ends[:-1], ends[1:]):        # pieces (a, b]
        piece_best = (math.inf, None)
        for t in np.unique(np.concatenate([np.linspace(a, b, n_t)[1:], [b]])):
            u = _u(dt, qf, t, b)
            if u[0] <= 0:
                continue
            th = np.linspace(0, 1, n_grid)
            if d == 1:
                C = np.array([[t]])
            elif d == 2:
                C = np.stack([th * min(u[0], t), np.full_like(th, t)], axis=1)
            else:  # d == 3 (c_2 on a grid, c_1 = theta * min(u_1, c_2))
                c2 = th * min(u[1], t)
                c1 = np.outer(np.clip(np.minimum(c2, u[0]), 0, None), th).ravel()
                C = np.stack([c1, np.repeat(c2, n_grid), np.full(c1.shape, t)], axis=1)
            vals = _F_batch(C)
            k = int(np.argmin(vals))
            if vals[k] < piece_best[0]:
                piece_best = (float(vals[k]), (t, C[k]))
        if piece_best[1] is None:
            continue
        t0, c0 = piece_best[1]
        theta0 = []
        for i in range(d - 1):
            cap = max(min(_u(dt, qf, t0, b)[i], c0[i + 1]), 1e-300)
            theta0.append(min(c0[i] / cap, 1.0))

        def obj(v):
            t = min(max(v[0], a), b)
            th = np.clip(v[1:], 0, 1)
            if _u(dt, qf, t, b)[0] <= 0:
                return 1e300
            return mse_objective_float(_point(dt, qf, t, b, th))

        res = minimize(obj, np.array([t0] + theta0), method="Nelder-Mead",
                       options={"xatol": 1e-13, "fatol": 1e-13, "maxiter": 4000, "maxfev": 8000})
        val = min(piece_best[0], float(res.fun))
        if val < best[0]:
            best = (val, piece_best[1])
    return best[0]


def exact_feasible(res: OptimalAllocation, delta, eps, q) -> bool:
    """The privacy constraints of Theorem 2's proof, checked exactly (compare) in sorted order."""
    alloc = res.allocation
    c = alloc.c_sorted
    assert all(isinstance(v, sympy.Rational) for v in c)
    tilde = [sympy.Min(sympy.Rational(Fraction(delta[i])), sympy.Rational(Fraction(eps))) for i in alloc.order]
    if compare(c[0], 0) < 0 or any(compare(c[k], c[k + 1]) > 0 for k in range(len(c) - 1)):
        return False
    t = c[-1]
    if compare(t, sympy.Rational(Fraction(eps))) > 0:
        return False
    L = sympy.log(1 + sympy.Rational(Fraction(q)) * (sympy.exp(t) - 1))
    for ci, dt in zip(c, tilde):
        if compare(t, dt) <= 0:
            continue
        if compare(ci + L, dt) > 0:
            return False
    return True


def _ratio_ok(a, b, rel=0) -> bool:
    """a <= b * (1 + rel), exactly (oo handled)."""
    if b is sympy.oo:
        return True
    if a is sympy.oo:
        return False
    return compare(a, b * (1 + sympy.Rational(Fraction(rel)))) <= 0


# ---------------------------------------------------------------- (a) brute force, d = 2, 3

SMALL = [
    (["0.2", "2"], "2", "0.1"),
    (["0.3", "1"], "1", "0"),
    (["0.5", "0.5"], "2", "0.3"),
    (["1", "0.1"], "2", "0.02"),
    (["0.2", "0.2", "2"], "2", "0.05"),
    (["0.1", "0.5", "1"], "1", "0"),
    (["0.1", "0.5", "1"], "1", "0.01"),
    (["0.3", "0.6", "3"], "2", "0.05"),
    (["0.4", "0.9", "1.4"], "1.2", "0.2"),
    (["1", "0.2", "0.6"], "0.8", "1"),
]


def _random_small(seed: int):
    rng = random.Random(seed)
    d = rng.choice([2, 3])
    delta = [str(Fraction(rng.randint(1, 30), 10)) for _ in range(d)]
    return delta, rng.choice(["2", "3"]), str(Fraction(rng.choice([0, 1, 2, 5, 10, 20]), 100))


@pytest.mark.parametrize("delta,eps,q", SMALL + [_random_small(s) for s in range(6)])
def test_against_brute_force(delta, eps, q):
    res = optimal_allocation(delta, eps, q)
    bf = brute_force(delta, eps, q)
    upper, lower = float(res.objective_upper), float(res.lower_bound)
    assert lower <= bf * (1 + 1e-12), (lower, bf)          # the certified bound is a lower bound
    assert upper <= bf * (1 + 1e-9), (upper, bf)            # the returned point is (near) optimal
    assert lower <= upper
    assert exact_feasible(res, delta, eps, q)


# ---------------------------------------------------------------- (b), (c) random instances

LEVELS = ["0.05", "0.1", "0.2", "0.3", "0.5", "0.8", "1", "1.5", "2", "3"]


@st.composite
def instances(draw):
    d = draw(st.integers(1, 5))
    delta = draw(st.lists(st.sampled_from(LEVELS), min_size=d, max_size=d))
    eps = draw(st.sampled_from(["0.5", "1", "2"]))
    q = draw(st.one_of(st.sampled_from(["0", "1", "0.001", "0.01", "0.1"]),
                       st.fractions(0, 1, max_denominator=50).map(str)))
    return delta, eps, q


def _eq17_by_hand(c):
    """Eq. (17)'s sum over Mechanism 1's stage weights, in Fractions (oo if a partial sum is 0);
    written independently of bcdp.bayesian.allocation.mse_objective."""
    cs = sorted(Fraction(str(v)) for v in c)
    d, prev, partial, total = len(cs), Fraction(0), Fraction(0), Fraction(0)
    for k, ck in enumerate(cs, start=1):
        partial += (ck - prev) ** 2 / (d - k + 1)
        prev = ck
        if partial == 0:
            return sympy.oo
        total += 1 / partial
    return sympy.Rational(total.numerator, total.denominator)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_feasible_and_beats_theorem2(inst):
    delta, eps, q = inst
    res = optimal_allocation(delta, eps, q)
    assert res.allocation.method == "optimal"
    assert all(isinstance(v, sympy.Rational) for v in res.allocation.c)
    # the objective of the returned point, recomputed here from its budgets with Fractions (eq. 17:
    # sum_i 1 / sum_{k<=i} (c_k - c_{k-1})^2 / (d - k + 1), c sorted by value, c_0 = 0)
    assert res.objective_upper == _eq17_by_hand(res.allocation.c)
    assert exact_feasible(res, delta, eps, q)
    qq = Fraction(q)
    for zeta in (Fraction(1, 2), (1 + qq) / 2):
        th = allocate_budgets(delta, eps, q, zeta).objective
        # the rational point may sit 1e-24 (relative) inside an irrational bound that Theorem 2
        # attains exactly, hence the 1e-15 slack
        assert _ratio_ok(res.objective_upper, th, Fraction(1, 10 ** 15)), (zeta, res.objective_upper, th)
    assert _ratio_ok(res.objective_upper, min_delta_baseline(delta, eps, q).objective)
    # (c)
    assert compare(res.lower_bound, res.objective_upper) <= 0
    assert 0 <= float(res.gap) <= 1e-8


@settings(max_examples=20, deadline=None)
@given(instances(), st.integers(0, 2 ** 32 - 1))
def test_lower_bound_below_random_feasible_points(inst, seed):
    delta, eps, q = inst
    res = optimal_allocation(delta, eps, q)
    dt = [float(v) for v in _tilde_sorted(delta, eps)]
    qf = float(Fraction(q))
    rng = np.random.default_rng(seed)
    lower = float(res.lower_bound) if res.lower_bound is not sympy.oo else math.inf
    ends = sorted(set([0.0] + dt))
    for _ in range(300):
        k = rng.integers(0, len(ends) - 1)
        a, b = ends[k], ends[k + 1]
        t = b if rng.random() < 0.3 else rng.uniform(a, b)
        if _u(dt, qf, t, b)[0] <= 0:
            continue
        theta = np.where(rng.random(len(dt) - 1) < 0.5, 1.0, rng.random(len(dt) - 1))
        c = _point(dt, qf, t, b, theta)
        assert lower <= mse_objective_float(c) * (1 + 1e-12)


# ---------------------------------------------------------------- the reduction lemma itself


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=7), st.data())
def test_merging_a_run_never_increases_the_objective(increments, data):
    """Step 1 of the module docstring, exactly: moving the increments of a run [a, e] to a."""
    d = len(increments)
    a = data.draw(st.integers(0, d - 1))
    e = data.draw(st.integers(a, d - 1))
    inc = [Fraction(v) for v in increments]
    merged = list(inc)
    merged[a] = sum(inc[a:e + 1])
    for k in range(a + 1, e + 1):
        merged[k] = Fraction(0)

    def F(incs):
        S, tot = Fraction(0), Fraction(0)
        for k, x in enumerate(incs):
            S += x * x / (d - k)
            if S == 0:
                return math.inf
            tot += 1 / S
        return tot

    assert F(merged) <= F(inc)


# ---------------------------------------------------------------- edge cases and the Fig. 3 setting


def test_fig3_fast_and_tight():
    for q in ("0.01", "0.1"):
        start = time.perf_counter()
        res = optimal_allocation(FIG3_DELTA, "2", q)
        assert time.perf_counter() - start < 10
        assert float(res.gap) <= 1e-8
        th = allocate_budgets(FIG3_DELTA, "2", q, (1 + Fraction(q)) / 2).objective
        assert compare(res.objective_upper, th) < 0


def test_q_one_is_the_min_delta_baseline():
    res = optimal_allocation(FIG3_DELTA, "2", 1)
    assert res.objective_upper == min_delta_baseline(FIG3_DELTA, "2", 1).objective == 2500
    assert res.lower_bound == 2500 and res.gap == 0


def test_q_zero_fig3_is_theorem2():
    res = optimal_allocation(FIG3_DELTA, "2", 0)
    th = allocate_budgets(FIG3_DELTA, "2", 0, "1/2")
    assert res.allocation.c == th.c
    assert res.objective_upper == th.objective


def test_d_one_and_cap_at_eps():
    res = optimal_allocation(["5"], "2", "0.3")
    assert res.allocation.c == (2,) and res.objective_upper == sympy.Rational(1, 4)
    assert res.gap == 0


def test_zero_demand_gives_infinite_objective():
    res = optimal_allocation(["0", "1", "2"], "2", "0.1")
    assert res.objective_upper is sympy.oo and res.lower_bound is sympy.oo
    assert all(v == 0 for v in res.allocation.c)


def test_caller_order_is_kept():
    a = optimal_allocation(["2", "0.2", "1"], "2", "0.05")
    b = optimal_allocation(["0.2", "1", "2"], "2", "0.05")
    assert a.objective_upper == b.objective_upper
    assert a.allocation.c == (b.allocation.c[2], b.allocation.c[0], b.allocation.c[1])


def test_floats_are_refused():
    with pytest.raises(TypeError):
        optimal_allocation([0.2, 2], "2", "0.1")
    with pytest.raises(ValueError):
        optimal_allocation(["0.2"], "2", "1.5")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_against_brute_force_more(seed):
    delta, eps, q = _random_small(100 + seed)
    res = optimal_allocation(delta, eps, q)
    bf = brute_force(delta, eps, q, n_t=600, n_grid=150)
    assert float(res.lower_bound) <= bf * (1 + 1e-12)
    assert float(res.objective_upper) <= bf * (1 + 1e-9)


@pytest.mark.slow
def test_ten_distinct_levels_within_budget():
    delta = [str(Fraction(k, 10)) for k in range(1, 11)]
    for q in ("0", "0.01"):
        res = optimal_allocation(delta, "2", q)
        assert float(res.gap) <= 1e-8
        assert exact_feasible(res, delta, "2", q)


# ---------------------------------------------------------------- the certified bracket (core Certified)


def _fraction_F(c_sorted):
    """eq. (17) sum of a rational sorted c, literally (independent of the module)."""
    d = len(c_sorted)
    total, partial, prev = Fraction(0), Fraction(0), Fraction(0)
    for k, ck in enumerate(c_sorted, start=1):
        partial += (Fraction(ck) - prev) ** 2 / (d - k + 1)
        prev = Fraction(ck)
        total += 1 / partial
    return total


def _min_50_digits_d2(a, b, q):
    """min F over the feasible c of d = 2, delta~ = (a, b), a < b, at 60 digits (KKT case split).

    F(x, t) = 2/x^2 + 1/(x^2/2 + (t - x)^2) with c = (x, t), 0 < x <= t.  Piece 0 (t <= a): c = (t, t)
    is feasible and F = 4/t^2 >= 4/a^2.  For t in (a, b] the constraint is x <= a - L(t) < t, and
    dF/dt < 0 for t > x, so at an optimum either t = b, or the constraint x = a - L(t) is active.
    Candidates: 4/a^2; min over x of F(x, b) (stationary points and the bound); min over t of
    F(a - L(t), t) (stationary points and the ends).
    """
    with mpmath.workdps(60):
        a, b, q = (mpmath.mpf(v.numerator) / v.denominator for v in map(Fraction, (a, b, q)))
        L = lambda t: mpmath.log(1 + q * (mpmath.exp(t) - 1))
        F = lambda x, t: 2 / x ** 2 + 1 / (x ** 2 / 2 + (t - x) ** 2)

        def minimise(f, lo, hi, n=400):
            xs = [lo + (hi - lo) * k / n for k in range(n + 1)]
            vals = [f(x) for x in xs]
            k = min(range(n + 1), key=vals.__getitem__)
            best = vals[k]
            left, right = xs[max(k - 1, 0)], xs[min(k + 1, n)]
            g = (mpmath.sqrt(5) - 1) / 2
            for _ in range(300):  # golden section in the best cell (both ends kept as candidates)
                x1, x2 = right - g * (right - left), left + g * (right - left)
                if f(x1) < f(x2):
                    right = x2
                else:
                    left = x1
            return min(best, f((left + right) / 2))

        cands = [4 / a ** 2]
        xmax = a - L(b)
        if xmax > 0:
            cands.append(minimise(lambda x: F(x, b), xmax / 10 ** 6, xmax))
        t_end = mpmath.findroot(lambda t: a - L(t), b) if xmax <= 0 else b
        cands.append(minimise(lambda t: F(a - L(t), t), a, min(t_end, b) * (1 - mpmath.mpf(10) ** -30)))
        return min(cands)


# optimum on the curve x = a - L(t) with t inside (a, b) (irrational), at t = b with q = 0 (rational),
# and at piece 0 (c = (a, a))
@pytest.mark.parametrize("a, b, q", [("1/5", "2", "1/1000"), ("1/2", "3/2", "1/100"), ("1/5", "1", "1/20"),
                                     ("1/2", "3/2", "0"), ("1", "3/2", "9/10")])
def test_certified_bracket_contains_a_50_digit_optimum(a, b, q):
    res = optimal_allocation([b, a], "2", q)          # caller order reversed on purpose
    m = res.minimum
    assert isinstance(m, Certified)
    lo, hi = m.lower, m.upper
    assert isinstance(lo, Fraction) and isinstance(hi, Fraction) and lo <= hi
    # the upper end is the exact eq. (17) sum of the returned allocation, which is feasible
    c_sorted = [Fraction(int(v.p), int(v.q)) for v in res.allocation.c_sorted]
    assert hi == _fraction_F(c_sorted) == Fraction(str(res.objective_upper))
    assert m.witness == res.allocation.c and "Sec. 4" in m.provenance
    assert res.lower_bound == sympy.Rational(lo.numerator, lo.denominator)
    ref = _min_50_digits_d2(a, b, q)
    with mpmath.workdps(60):
        lo_m = mpmath.mpf(lo.numerator) / lo.denominator
        hi_m = mpmath.mpf(hi.numerator) / hi.denominator
        margin = ref * mpmath.mpf(10) ** -40
        assert lo_m <= ref + margin and ref - margin <= hi_m, (lo_m, ref, hi_m)
        assert (hi_m - ref) / ref <= 1e-8          # the returned point is near-optimal


def test_certified_bracket_exact_and_infinite_cases():
    res = optimal_allocation(FIG3_DELTA, "2", 1)     # q = 1: the optimum is known exactly
    assert res.minimum.exact == res.minimum.lower == res.minimum.upper == 2500
    inf = optimal_allocation(["0", "1"], "2", "1/2")
    assert inf.minimum.is_infinite and inf.minimum.upper == math.inf
    assert json.loads(json.dumps(inf.minimum.to_json(), allow_nan=False))["lower"] == "inf"


def test_interval_helpers_against_fractions():
    rng = random.Random(11)
    for _ in range(300):
        x = Fraction(rng.randint(-10 ** rng.randint(1, 40), 10 ** rng.randint(1, 40)), rng.randint(1, 10 ** rng.randint(1, 40)))
        down, up = fraction_float_down(x), fraction_float_up(x)
        assert Fraction(down) <= x <= Fraction(up)
        assert Fraction(math.nextafter(down, math.inf)) > x and Fraction(math.nextafter(up, -math.inf)) < x
        if Fraction(down) == x:
            assert up == down
    with mpmath.workprec(200):
        for v in (mpmath.mpf(-3.5), mpmath.mpf(2) ** -3000, mpmath.mpf(1) / 3, mpmath.mpf(0)):
            f = mpf_fraction(v)
            assert mpmath.mpf(f.numerator) / f.denominator == v   # exact at 200 bits
    with pytest.raises(ArithmeticError):
        mpf_fraction(mpmath.inf)
    assert cancellation_bits(Fraction(1, 2 ** 20)) == 19 and cancellation_bits(3) == 0


def test_ball_helpers_enclose_60_digit_references():
    """L(t) = log(1 + q (e^t - 1)), L^{-1}, the clip and the cut offset of the instance, computed with
    arb balls, against mpmath.mp at 80 digits (independent), tiny t (where mpmath 1.3's interval exp
    was unsound) included: enclosures contain the reference, clip_up >= l - L(t_lo), and the cut
    offset m <= L(t) - a t on a grid of [t_lo, t_hi]."""
    from bcdp.bayesian.optimal_allocation.instance import (
        Instance,
        ball_rational,
        lower_fraction,
        upper_fraction,
    )
    from bcdp.core.intervals import arb_precision

    def mp(x: Fraction) -> mpmath.mpf:
        return mpmath.mpf(x.numerator) / x.denominator

    for q in (Fraction(3, 10), Fraction(1, 100), Fraction(9, 10)):
        inst = Instance([Fraction(1, 5), Fraction(2)], q)
        for t in (Fraction(1, 2 ** 60), Fraction(7, 5), Fraction(-1, 3), Fraction(30)):
            with arb_precision(96 + cancellation_bits(t)):
                L = inst.ball_L(ball_rational(t))
                Linv = inst.ball_Linv(ball_rational(abs(t)))
            with mpmath.workdps(80):
                ref = mpmath.log1p(mp(q) * mpmath.expm1(mp(t)))
                ref_inv = mpmath.log1p(mpmath.expm1(mp(abs(t))) / mp(q))
                assert mp(lower_fraction(L)) <= ref <= mp(upper_fraction(L))
                assert mp(lower_fraction(Linv)) <= ref_inv <= mp(upper_fraction(Linv))
                assert upper_fraction(L) - lower_fraction(L) < Fraction(1, 2 ** 80) * max(1, abs(Fraction(str(ref))))
        with mpmath.workdps(80):
            for level, t_lo in ((Fraction(2), 0.75), (Fraction(1, 5), 2.0 ** -50)):
                up = inst.clip_up(level, t_lo)
                assert mpmath.mpf(up) >= mp(level) - mpmath.log1p(mp(q) * mpmath.expm1(mpmath.mpf(t_lo)))
            for t_lo, t_hi, a in ((0.1, 0.4, Fraction(1, 2)), (1e-12, 3e-12, Fraction(3, 10)), (1.0, 2.0, Fraction(1))):
                m = mp(inst.cut_offset(t_lo, t_hi, a))
                for k in range(101):
                    t = mpmath.mpf(t_lo) + (mpmath.mpf(t_hi) - mpmath.mpf(t_lo)) * k / 100
                    assert m <= mpmath.log1p(mp(q) * mpmath.expm1(t)) - mp(a) * t
