"""Tests for bcdp.shuffle.exact (thesis Chapter 5: RDP of n shuffled eps0-LDP reports).

Every reference value is computed independently here: mpmath sums over all k (no windows),
exact Fraction sums, brute-force enumeration of report vectors and subsets, and the thesis'
closed form (5.9) with exact binomial central moments.  No number produced by the code under
test is hard-coded; the external numbers (an independent scipy/mpmath computation, [HERE]) are
cited where used.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError
from bcdp.shuffle import exact as se
from scipy import stats

LOG2 = sympy.log(2)


# -------------------------------------------------------------------------------------------------
# independent references
# -------------------------------------------------------------------------------------------------

def full_sum_mp(n, eps0, alpha, direction, dps=50):
    """log(sum_k M(D)(k) r(k)^beta)/(alpha-1) over ALL k = 0..n (no window), mpmath.
    eps0, alpha are Fractions; M(D)(k) = C(n,k) p^k q^(n-k), r(k) = ((n-k)/E + kE)/n (eq. (5.40))."""
    with mpmath.workdps(dps + 40):
        E = mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator)
        alpha = mpmath.mpf(alpha.numerator) / alpha.denominator
        p, q = 1 / (E + 1), E / (E + 1)
        beta = alpha if direction == "DprimeD" else 1 - alpha
        s = mpmath.fsum(mpmath.binomial(n, k) * p ** k * q ** (n - k)
                        * (((n - k) / E + k * E) / n) ** beta for k in range(n + 1))
        return mpmath.log(s) / (alpha - 1)


def binom_law_fraction(n, E):
    p, q = 1 / (E + 1), E / (E + 1)
    return [math.comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1)]


def pair_laws_fraction(n, E):
    """Exact laws M(D), M(D') of the count for D = 0^n, D' = 0^{n-1}1 (built by convolution)."""
    p, q = 1 / (E + 1), E / (E + 1)
    base = binom_law_fraction(n - 1, E)
    MD = [Fraction(0)] * (n + 1)
    MDp = [Fraction(0)] * (n + 1)
    for k, b in enumerate(base):
        MD[k] += b * q
        MD[k + 1] += b * p
        MDp[k] += b * p
        MDp[k + 1] += b * q
    return MD, MDp


def brute_force_law(kernel, dataset):
    """Law of the sorted tuple of reports (the shuffled output), by enumerating report vectors."""
    B = len(kernel[0])
    law = {}
    for ys in itertools.product(range(B), repeat=len(dataset)):
        pr = Fraction(1)
        for x, y in zip(dataset, ys):
            pr *= kernel[x][y]
        if pr:
            h = tuple(ys.count(b) for b in range(B))
            law[h] = law.get(h, Fraction(0)) + pr
    return law


# -------------------------------------------------------------------------------------------------
# 2RR pair: oracle and fast path
# -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("direction", se.DIRECTIONS)
@pytest.mark.parametrize("n", [1, 2, 7, 60])
def test_oracle_equals_full_sum(n, direction):
    for eps0, alpha in [("1/100", 2), ("1/2", "3/2"), ("1", 7), ("3", "101/10"), ("10", 256)]:
        got = se.rr_pair_rdp_mp(n, eps0, alpha, direction, dps=40)
        ref = full_sum_mp(n, Fraction(eps0), Fraction(alpha), direction)
        assert abs(got - ref) <= mpmath.mpf(10) ** -36 * abs(ref)


def test_oracle_window_at_moderate_n():
    """The windowed oracle (rigorous tail bound) equals the full sum over all k at n = 3000."""
    for eps0, alpha, direction in [("1/100", "3/2", "DprimeD"), ("1", 64, "DDprime"),
                                   ("6", 20, "DprimeD"), ("1/2", 256, "DDprime")]:
        got = se.rr_pair_rdp_mp(3000, eps0, alpha, direction, dps=30)
        ref = full_sum_mp(3000, Fraction(eps0), Fraction(alpha), direction, dps=30)
        assert abs(got - ref) <= mpmath.mpf(10) ** -27 * ref


@pytest.mark.parametrize("E", [Fraction(2), Fraction(3, 2), Fraction(7)])
def test_oracle_vs_fraction_integer_alpha(E):
    """Integer alpha, rational E: the moment sum_k M(D)^alpha M(D')^(1-alpha) is an exact Fraction."""
    eps0 = sympy.log(sympy.Rational(E.numerator, E.denominator))
    for n in [1, 3, 10, 25]:
        MD, MDp = pair_laws_fraction(n, E)
        for alpha in [2, 3, 5, 9]:
            for direction, (P, Q) in (("DDprime", (MD, MDp)), ("DprimeD", (MDp, MD))):
                mom = sum(P[k] ** alpha / Q[k] ** (alpha - 1) for k in range(n + 1))
                with mpmath.workdps(80):
                    ref = mpmath.log(mpmath.mpf(mom.numerator) / mom.denominator) / (alpha - 1)
                got = se.rr_pair_rdp_mp(n, eps0, alpha, direction, dps=60)
                assert abs(got - ref) <= mpmath.mpf(10) ** -55 * ref


def test_thm_5_3_3_closed_form_is_exact_forward_direction():
    """(5.9): 1 + C(a,2)(E-1)^2/(nE) + sum_{i>=3} C(a,i) ((E^2-1)/(nE))^i E[(k - n/(E+1))^i] equals
    E_{M(D)}[(M(D')/M(D))^alpha] exactly (Fractions), i.e. the "DprimeD" direction."""
    for E in [Fraction(2), Fraction(5, 3)]:
        for n in [2, 5, 12]:
            MD, MDp = pair_laws_fraction(n, E)
            p = 1 / (E + 1)
            mu = n * p
            law = binom_law_fraction(n, E)
            for alpha in [2, 3, 4, 7]:
                closed = 1 + Fraction(math.comb(alpha, 2)) * (E - 1) ** 2 / (n * E)
                for i in range(3, alpha + 1):
                    cm = sum(w * (k - mu) ** i for k, w in enumerate(law))
                    closed += math.comb(alpha, i) * ((E * E - 1) / (n * E)) ** i * cm
                direct = sum(MDp[k] ** alpha / MD[k] ** (alpha - 1) for k in range(n + 1))
                assert closed == direct


@pytest.mark.parametrize("direction", se.DIRECTIONS)
def test_float_vs_oracle_grid(direction):
    """Fast path vs mpmath oracle, relative 1e-10 (n up to 1e5 here; 1e7 in the slow test and
    the benchmark)."""
    alphas = [1.0001, 1.01, 1.5, 2.0, 7.5, 64.0, 256.0]
    worst = 0.0
    for n, eps0s in [(2, ["0.01", "1", "10"]), (30, ["0.5", "4"]), (1000, ["0.01", "1", "10"]),
                     (100_000, ["0.5", "4"])]:
        for eps0 in eps0s:
            got = se.rr_pair_rdp(n, float(Fraction(eps0)), alphas, direction)
            for a, g in zip(alphas, got):
                ref = se.rr_pair_rdp_mp(n, eps0, Fraction(a).limit_denominator(10 ** 5), direction, dps=30)
                worst = max(worst, abs(g - float(ref)) / float(ref))
    assert worst < 1e-10


@pytest.mark.slow
def test_float_vs_oracle_huge_n():
    alphas = [1.5, 2.0, 32.0, 256.0]
    for n in [10 ** 6, 10 ** 7]:
        for eps0 in ["0.01", "1", "10"]:
            for direction in se.DIRECTIONS:
                got = se.rr_pair_rdp(n, float(Fraction(eps0)), alphas, direction)
                for a, g in zip(alphas, got):
                    ref = se.rr_pair_rdp_mp(n, eps0, Fraction(a), direction, dps=30)
                    assert abs(g - float(ref)) <= 1e-10 * float(ref)


def test_fast_path_is_vectorised_and_monotone_in_alpha():
    a = np.linspace(1.05, 256, 300)
    for d in se.DIRECTIONS:
        v = se.rr_pair_rdp(1000, 1.0, a, d)
        assert v.shape == a.shape and np.all(np.isfinite(v))
        assert np.all(np.diff(v) >= -1e-15 * v[1:])       # Renyi divergence is non-decreasing
        assert np.all(v <= 1.0 + 1e-12)                     # shuffled 2RR is eps0-DP: D_alpha <= eps0


def test_eps0_zero_and_n_one():
    assert se.rr_pair_rdp_mp(5, 0, 3) == 0
    assert np.all(se.rr_pair_rdp(5, 0.0, [2, 3]) == 0)
    # n = 1: the pair is a single 2RR user, D_alpha(Bern(p) || Bern(q)) (thesis (A.5))
    with mpmath.workdps(80):
        E = mpmath.e
        p = 1 / (E + 1)
        ref = mpmath.log(p ** 3 * (1 - p) ** -2 + (1 - p) ** 3 * p ** -2) / 2
    assert abs(se.rr_pair_rdp_mp(1, 1, 3) - ref) < mpmath.mpf(10) ** -50
    assert abs(se.rr_pair_rdp(1, 1.0, [3.0])[0] - float(ref)) < 1e-14


# -------------------------------------------------------------------------------------------------
# every neighbouring pair
# -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("accurate", [True, False])
def test_all_pairs_vs_mpmath_brute_force(accurate):
    """rr_all_pairs_rdp (computes j <= (n-1)/2 and uses the symmetry) vs an mpmath brute force
    that convolves both binomials for every j, both directions (no symmetry used)."""
    for n in [1, 2, 3, 8, 21]:
        for eps0 in ["1/10", "1", "4"]:
            for alpha in ["3/2", 2, 16, 200]:
                bf = se.rr_pair_over_j_mp(n, eps0, alpha, dps=30)
                dd, dpd = se.rr_all_pairs_rdp(n, float(Fraction(eps0)), float(Fraction(alpha)),
                                              accurate=accurate)
                for j in range(n):
                    assert abs(dd[j] - float(bf[j][0])) <= 1e-11 * float(bf[j][0])
                    assert abs(dpd[j] - float(bf[j][1])) <= 1e-11 * float(bf[j][1])


def test_all_pairs_vs_fraction_laws():
    """Brute force with exact laws from shuffled_law (2RR kernel, E = 2) for every j, integer alpha."""
    kern = se.kary_rr_kernel(2, LOG2)
    n = 6
    for alpha in [2, 5]:
        dd, dpd = se.rr_all_pairs_rdp(n, math.log(2), float(alpha))
        for j in range(n):
            D = [1] * j + [0] * (n - 1 - j) + [0]
            Dp = D[:-1] + [1]
            P, Q = se.shuffled_law(kern, D), se.shuffled_law(kern, Dp)
            for val, (A, B) in ((dd[j], (P, Q)), (dpd[j], (Q, P))):
                mom = se.renyi_moment_exact(A, B, alpha)
                ref = math.log(mom) / (alpha - 1) if mom < 2 else float(
                    mpmath.log(mpmath.mpf(mom.numerator) / mom.denominator)) / (alpha - 1)
                assert abs(val - ref) <= 1e-12 * ref


def test_symmetry_exact():
    """DprimeD(j) = DDprime(n-1-j) (bit flip), checked on exact Fraction laws."""
    kern = se.kary_rr_kernel(2, sympy.log(3))
    n = 5
    for j in range(n):
        D = [1] * j + [0] * (n - j)
        Dp = D[:-1] + [1]
        Dj2 = [1] * (n - 1 - j) + [0] * (j + 1)
        Dp2 = Dj2[:-1] + [1]
        assert se.renyi_moment_exact(se.shuffled_law(kern, Dp), se.shuffled_law(kern, D), 3) == \
            se.renyi_moment_exact(se.shuffled_law(kern, Dj2), se.shuffled_law(kern, Dp2), 3)


def test_all_pairs_j0_matches_pair_path():
    """Independent code paths: recurrence at j = 0 vs the binomial fast path, larger n."""
    for n, eps0, alpha in [(500, 0.05, 1.5), (500, 6.0, 128.0), (5000, 1.0, 8.0), (3000, 3.0, 40.0)]:
        if True:
            if True:
                dd, dpd = se.rr_all_pairs_rdp(n, eps0, alpha)
                assert abs(dd[0] - se.rr_pair_rdp(n, eps0, [alpha], "DDprime")[0]) <= 1e-11 * dd[0]
                assert abs(dpd[0] - se.rr_pair_rdp(n, eps0, [alpha], "DprimeD")[0]) <= 1e-11 * dpd[0]


def test_worst_pair_observation_small_n():
    """Observed (not proved): the maximum over all pairs and directions is at j = 0, "DDprime"
    (the reverse of the thesis' lower-bound direction (5.9)); checked against the mpmath brute force."""
    for n in [2, 4, 9, 17]:
        for eps0 in ["1/20", "1", "3"]:
            for alpha in ["101/100", 2, 10, 100]:
                bf = se.rr_pair_over_j_mp(n, eps0, alpha, dps=30)
                best = max(max(x) for x in bf)
                eps, pair = se.rr_worst_pair_rdp(n, float(Fraction(eps0)), float(Fraction(alpha)))
                assert abs(eps - float(best)) <= 1e-11 * float(best)
                assert pair == (0, "DDprime")
                assert bf[0][0] >= bf[0][1]


def test_worst_vs_lower_pair_report():
    r = se.rr_worst_vs_lower_pair(2000, 1.0, 8.0)
    assert r["worst_pair"] == (0, "DDprime")
    assert r["difference"] > 0 and r["worst"] == pytest.approx(r["lower_pair_reverse"], rel=1e-14)
    ref = se.rr_pair_rdp_mp(2000, 1, 8, "DprimeD", dps=30)
    assert r["lower_pair"] == pytest.approx(float(ref), rel=1e-11)


@pytest.mark.slow
def test_worst_pair_observation_wider():
    for n in [200, 3000]:
        for eps0 in [0.01, 0.7, 2.0, 5.0]:
            for alpha in [1.1, 2.0, 20.0, 256.0]:
                dd, dpd = se.rr_all_pairs_rdp(n, eps0, alpha)
                assert se.argmax_pair(dd, dpd)[1] == (0, "DDprime")
                h = (alpha - 1) * dd                 # log H(j); X = H - 1 convex in j (in logs)
                lx = h + np.log(-np.expm1(-h))
                assert np.all(np.logaddexp(lx[:-2], lx[2:]) - math.log(2) - lx[1:-1] >= -1e-9)


# -------------------------------------------------------------------------------------------------
# external numbers ([HERE]: independent scipy/mpmath computation): (eps, delta) of the pair 0^n vs 0^{n-1}1
# -------------------------------------------------------------------------------------------------

def _pair_eps_of_delta(n, eps0, delta):
    """(eps, delta)-DP of the pair in the worse direction: delta(eps) = sum (P - e^eps Q)_+ from
    scipy's binomial pmfs (independent of the module), eps by bisection."""
    E = math.exp(eps0)
    p = 1 / (E + 1)
    k = np.arange(n + 1)
    MD = stats.binom.pmf(k, n, p)
    ratio = ((n - k) / E + k * E) / n
    MDp = MD * ratio

    def delta_of(eps):
        return max(np.sum(np.maximum(MD - math.exp(eps) * MDp, 0)),
                   np.sum(np.maximum(MDp - math.exp(eps) * MD, 0)))

    lo, hi = 0.0, eps0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
    return hi


def test_external_exact_pair_eps_delta():
    """[HERE] n = 1e4, eps0 = 1, delta = 1e-6 -> 0.0356588153 (mpmath-confirmed there)."""
    assert _pair_eps_of_delta(10 ** 4, 1.0, 1e-6) == pytest.approx(0.0356588153, abs=2e-9)


def test_external_route_through_exact_rdp():
    """[HERE] CKS conversion of the exact 2RR RDP (alpha <= 399) at n = 1e4, eps0 = 1,
    delta = 1e-6 gives 0.039361 at alpha* = 372.  CKS [CKS20]:
    eps = rdp + log((a-1)/a) - (log delta + log a)/(a-1)."""
    a = np.arange(2, 400, dtype=float)
    rdp = np.maximum(se.rr_pair_rdp(10 ** 4, 1.0, a, "DDprime"), se.rr_pair_rdp(10 ** 4, 1.0, a, "DprimeD"))
    eps = rdp + np.log((a - 1) / a) - (math.log(1e-6) + np.log(a)) / (a - 1)
    i = int(np.argmin(eps))
    assert eps[i] == pytest.approx(0.039361, abs=1e-6)
    assert a[i] == 372


# -------------------------------------------------------------------------------------------------
# general finite mechanisms
# -------------------------------------------------------------------------------------------------

def test_shuffled_law_vs_enumeration():
    rng = np.random.default_rng(5)
    for trial in range(6):
        K = 2 + trial % 2
        kern = se.random_ldp_kernel(rng, K, sympy.log(3), n_outputs=2 + (trial % 3))
        data = [int(x) for x in rng.integers(0, K, size=1 + trial % 4)]
        law = se.shuffled_law(kern, data)
        assert sum(law.values()) == 1
        assert law == brute_force_law(kern, data)
    assert se.shuffled_law(se.kary_rr_kernel(3, LOG2), []) == {(0, 0, 0): 1}


def test_binary_shuffled_law_is_the_binomial_pair():
    kern = se.kary_rr_kernel(2, LOG2)
    n = 7
    MD, MDp = pair_laws_fraction(n, Fraction(2))
    assert se.shuffled_law(kern, [0] * n) == {(n - k, k): MD[k] for k in range(n + 1)}
    assert se.shuffled_law(kern, [0] * (n - 1) + [1]) == {(n - k, k): MDp[k] for k in range(n + 1)}
    for d in se.DIRECTIONS:
        a = se.shuffled_rdp_exact(kern, [0] * n, [0] * (n - 1) + [1], "5/2", dps=50, direction=d)
        b = se.rr_pair_rdp_mp(n, LOG2, "5/2", d, dps=50)
        assert abs(a - b) < mpmath.mpf(10) ** -45


def _subsampled_brute(kernel, data, scheme, param):
    n = len(data)
    B = len(kernel[0])
    law = {}
    if scheme == "uniform":
        subsets = [(S, Fraction(1, math.comb(n, param))) for S in itertools.combinations(range(n), param)]
    else:
        subsets = []
        for S in itertools.product([0, 1], repeat=n):
            w = Fraction(1)
            for s in S:
                w *= param if s else 1 - param
            subsets.append((tuple(i for i in range(n) if S[i]), w))
    for S, w in subsets:
        if w == 0:
            continue
        for h, pr in brute_force_law(kernel, [data[i] for i in S]).items():
            hh = h if h else (0,) * B
            law[hh] = law.get(hh, Fraction(0)) + w * pr
    return law


def test_subsampled_law_vs_enumeration():
    rng = np.random.default_rng(11)
    for trial in range(4):
        kern = se.random_ldp_kernel(rng, 3, sympy.log(2), n_outputs=2 + trial % 2)
        data = [int(x) for x in rng.integers(0, 3, size=4)]
        for k in range(0, 5):
            got = se.subsampled_shuffled_law(kern, data, "uniform", k)
            assert sum(got.values()) == 1
            assert got == _subsampled_brute(kern, data, "uniform", k)
        for g in [Fraction(0), Fraction(1, 3), Fraction(1)]:
            got = se.subsampled_shuffled_law(kern, data, "poisson", g)
            assert sum(got.values()) == 1
            assert got == _subsampled_brute(kern, data, "poisson", g)


def test_thm_5_4_2_is_exact_for_uniform_subsampled_2rr():
    """Thesis Thm 5.4.2 with k (not k-bar): for D = 0^n, D' = 0^{n-1}1, k-of-n sampling,
    M(D')/M(D) = 1 + gamma (r_k - 1) with the k-client ratio; its alpha-moment equals
    1 + C(a,2) g^2 (E-1)^2/(kE) + sum_{j>=3} C(a,j) g^j ((E^2-1)/(kE))^j E[(m - k/(E+1))^j]."""
    E = Fraction(2)
    kern = se.kary_rr_kernel(2, LOG2)
    n, k = 6, 3
    g = Fraction(k, n)
    P = se.subsampled_shuffled_law(kern, [0] * n, "uniform", k)
    Q = se.subsampled_shuffled_law(kern, [0] * (n - 1) + [1], "uniform", k)
    law = binom_law_fraction(k, E)
    mu = Fraction(k) / (E + 1)
    for alpha in [2, 3, 5]:
        closed = 1 + math.comb(alpha, 2) * g ** 2 * (E - 1) ** 2 / (k * E)
        for j in range(3, alpha + 1):
            cm = sum(w * (m - mu) ** j for m, w in enumerate(law))
            closed += math.comb(alpha, j) * g ** j * ((E * E - 1) / (k * E)) ** j * cm
        assert se.renyi_moment_exact(Q, P, alpha) == closed


def test_kernels():
    rng = np.random.default_rng(0)
    for K, eps0 in [(2, sympy.log(2)), (3, "log(3/2)"), (5, sympy.log(7))]:
        E = se.exact_exp_eps0(eps0)
        for kern in [se.random_ldp_kernel(rng, K, eps0), se.random_ldp_kernel(rng, K, eps0, n_outputs=4),
                     se.kary_rr_kernel(K, eps0)]:
            assert all(isinstance(x, Fraction) for row in kern for x in row)
            assert all(sum(row) == 1 for row in kern)
            for col in zip(*kern):
                assert max(col) <= E * min(col)
    rr = se.kary_rr_kernel(3, exp_eps0=4)
    assert rr[0] == [Fraction(2, 3), Fraction(1, 6), Fraction(1, 6)]
    k0 = se.random_ldp_kernel(rng, 3, 0)              # eps0 = 0: every row is the same law
    assert k0[0] == k0[1] == k0[2] and sum(k0[0]) == 1


def test_infinite_divergence_is_inf():
    kern = [[Fraction(1), Fraction(0)], [Fraction(1, 2), Fraction(1, 2)]]   # not LDP
    v = se.shuffled_rdp_exact(kern, [1, 1], [1, 0], 2)
    assert v == mpmath.inf
    w = se.shuffled_rdp_exact(kern, [1, 1], [1, 0], 2, direction="DprimeD")
    assert mpmath.isfinite(w) and w > 0


# -------------------------------------------------------------------------------------------------
# bad input
# -------------------------------------------------------------------------------------------------

def test_bad_input():
    with pytest.raises(ValueError):
        se.rr_pair_rdp(10, 1.0, [1.0])
    with pytest.raises(ValueError):
        se.rr_pair_rdp(10, 1.0, [0.5, 2])
    with pytest.raises(ValueError):
        se.rr_pair_rdp(10, -0.1, [2])
    with pytest.raises(ValueError):
        se.rr_pair_rdp(10, float("nan"), [2])
    with pytest.raises(ValueError):
        se.rr_pair_rdp(10, 1.0, [float("nan")])
    with pytest.raises(ValueError):
        se.rr_pair_rdp(0, 1.0, [2])
    with pytest.raises(TypeError):
        se.rr_pair_rdp(10.0, 1.0, [2])
    with pytest.raises(ValueError):
        se.rr_pair_rdp(10, 1.0, [2], direction="forward")
    with pytest.raises(ValueError):
        se.rr_pair_rdp_mp(10, 1, 1)
    with pytest.raises(ValueError):
        se.rr_pair_rdp_mp(10, "-1/2", 2)
    with pytest.raises(ValueError):
        se.rr_pair_rdp_mp(0, 1, 2)
    with pytest.raises(FloatRefusedError):
        se.rr_pair_rdp_mp(10, 1.0, 2)
    with pytest.raises(FloatRefusedError):
        se.rr_pair_rdp_mp(10, 1, 2.5)
    with pytest.raises(ValueError):
        se.rr_pair_rdp_mp(10, 1, mpmath.nan)
    with pytest.raises(ValueError):
        se.rr_worst_pair_rdp(10, 1.0, 1.0)
    with pytest.raises(ValueError):
        se.kary_rr_kernel(2, "1")            # e^1 is not rational
    with pytest.raises(ValueError):
        se.kary_rr_kernel(2, exp_eps0="1/2")  # eps0 < 0
    with pytest.raises(ValueError):
        se.shuffled_law([[Fraction(1, 2), Fraction(1, 3)]], [0])
    with pytest.raises(FloatRefusedError):
        se.shuffled_law([[0.5, 0.5]], [0])
    with pytest.raises(ValueError):
        se.shuffled_law(se.kary_rr_kernel(2, LOG2), [2])
    with pytest.raises(ValueError):
        se.shuffled_rdp_exact(se.kary_rr_kernel(2, LOG2), [0, 0], [0], 2)
    with pytest.raises(ValueError):
        se.shuffled_rdp_exact(se.kary_rr_kernel(2, LOG2), [0], [1], 1)
    with pytest.raises(ValueError):
        se.subsampled_shuffled_law(se.kary_rr_kernel(2, LOG2), [0, 1], "uniform", 3)
    with pytest.raises(ValueError):
        se.subsampled_shuffled_law(se.kary_rr_kernel(2, LOG2), [0, 1], "poisson", Fraction(3, 2))
    with pytest.raises(ValueError):
        se.subsampled_shuffled_law(se.kary_rr_kernel(2, LOG2), [0, 1], "bernoulli", 1)


# -------------------------------------------------------------------------------------------------
# input policy and the core divergence behind shuffled_rdp_exact
# -------------------------------------------------------------------------------------------------

def test_closed_form_strings_are_filtered_before_sympy():
    e = se.rr_pair_rdp_mp(20, "log(3/2)", 3, dps=30)
    assert abs(e - se.rr_pair_rdp_mp(20, sympy.log(Fraction(3, 2)), 3, dps=30)) < mpmath.mpf(10) ** -28
    for bad in ("__import__('os').getcwd()", "x.__class__", "log(2); 1", "lambda: 1"):
        with pytest.raises(ValueError):
            se.rr_pair_rdp_mp(20, bad, 3)
        with pytest.raises(ValueError):
            se.kary_rr_kernel(2, bad)


def test_float_paths_take_floats_and_numeric_strings():
    a = se.rr_pair_rdp(100, 0.5, [2.0, 3.5])
    assert np.array_equal(a, se.rr_pair_rdp(100, "0.5", ["2", "3.5"]))
    with pytest.raises(FloatRefusedError):
        se.rr_pair_rdp(100.0, 0.5, [2.0])            # counts stay ints
    with pytest.raises(ValueError):
        se.rr_pair_rdp(100, float("inf"), [2.0])     # the float path needs a finite eps0


def test_shuffled_rdp_exact_equals_direct_fraction_sum():
    """D_alpha of two exact laws, against log(sum P^a Q^(1-a))/(a-1) written out at 80 digits, for a
    random 3-ary kernel, integer and fractional orders, several working precisions (dps < 50 is
    evaluated at 50 digits or more and rounded)."""
    rng = np.random.default_rng(7)
    kern = se.random_ldp_kernel(rng, 3, "log(2)")
    D, Dp = [0, 1, 2, 1], [0, 1, 2, 0]
    P, Q = se.shuffled_law(kern, D), se.shuffled_law(kern, Dp)
    for alpha in (2, "5/2", 7):
        with mpmath.workdps(80):
            a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
            ref = mpmath.log(mpmath.fsum(
                (mpmath.mpf(P[h].numerator) / P[h].denominator) ** a
                * (mpmath.mpf(Q[h].numerator) / Q[h].denominator) ** (1 - a) for h in P)) / (a - 1)
        for dps in (20, 50, 70):
            got = se.shuffled_rdp_exact(kern, D, Dp, alpha, dps=dps)
            assert abs(got - ref) <= mpmath.mpf(10) ** -(dps - 2) * abs(ref)


# -- certified enclosure of the exact curve (issue 12) ----------------------------------------------

@pytest.mark.parametrize("n,eps0,alpha", [(2, "1e-15", 2), (7, "1e-7", 3), (9, "0.5", "5/2"), (11, "3", 17),
                                          (5, "25", 40), (6, "0", 4)])
def test_worst_pair_ball_contains_mpmath_bruteforce(n, eps0, alpha):
    """The arb ball of rr_worst_pair_rdp_ball contains the max over every j and both directions of
    the 60-digit mpmath brute force (rr_pair_over_j_mp), and is tight (relative radius <= 1e-18)."""
    from bcdp.shuffle.rr_all_pairs import rr_worst_pair_rdp_ball

    from bcdp.core.intervals import ball_lower, ball_upper

    ball = rr_worst_pair_rdp_ball(n, eps0, alpha)
    lo, hi = ball_lower(ball), ball_upper(ball)
    with mpmath.workdps(60):
        a = mpmath.mpf(Fraction(alpha).numerator) / Fraction(alpha).denominator
        truth = max(v for row in se.rr_pair_over_j_mp(n, eps0, a, dps=60) for v in row)
        t = Fraction(mpmath.nstr(truth, 58, min_fixed=-mpmath.inf, max_fixed=mpmath.inf))
    tol = abs(t) * Fraction(1, 10 ** 50)
    assert lo - tol <= t <= hi + tol
    assert hi - lo <= Fraction(1, 10 ** 18) * abs(t) + Fraction(1, 10 ** 300)
