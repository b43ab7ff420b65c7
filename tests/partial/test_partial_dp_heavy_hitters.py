"""PrivHeavyHitter (Alg. 2), Lemmas 28-30, Thm 15 and Thm 16 of the partial DP paper.

Every test compares with an independent computation: brute-force enumeration of all d = 4
transcripts (mpmath 50 digits), numerical integration of the Laplace density, sympy closed forms,
brute-force searches, or a statistical bound with a stated false-failure rate.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.partial.heavy_hitters import (
    DPS,
    accept_probability,
    apply_symmetry,
    as_counter,
    enumerate_transcripts_d4,
    example_pair_from_counts,
    hh_params,
    inclusion_law,
    laplace_histogram_epsilon,
    laplace_tail,
    lemma28_bound,
    max_log_ratio_d4,
    max_log_ratio_d4_bruteforce,
    neighbouring_pairs_up_to_symmetry,
    neighbours,
    packing_success_bound,
    path_sup_all_datasets,
    path_sup_for_pair,
    priv_heavy_hitter_sample,
    reject_probability,
    rounding_success_probability,
    thm15_failure_bound,
    thm15_params,
    thm15_sample_size,
    thm16_packing_min_n,
    thm16_printed_step,
    transcript_log_probability,
    tree_levels,
    tree_symmetries,
    zxx16_laplace_lemma,
)
from hypothesis import given, settings
from hypothesis import strategies as st

TOL = mp.mpf(10) ** -40
THM15_PRINTED = thm15_params(1, "1/10", 200, "printed")


@pytest.fixture(autouse=True)
def _test_arithmetic_at_dps():
    """The library computes at DPS digits internally; the tests' own arithmetic on its results
    (differences of log-probabilities) must run at the same precision."""
    with mp.workdps(DPS):
        yield


# -- input validation -----------------------------------------------------------------------------

def test_bad_inputs_are_refused():
    with pytest.raises(FloatRefusedError):
        hh_params(0.5, 2, 1)
    with pytest.raises(ValueError):
        hh_params(-1, 2, 1)
    with pytest.raises(ValueError):
        hh_params(1, 2, 0)
    with pytest.raises(InvalidInputError):
        tree_levels(6)
    with pytest.raises(ValueError):
        lemma28_bound(hh_params(1, 1, 1))  # Lemma 28 needs mu > 1
    with pytest.raises(InvalidInputError):
        as_counter(["0102"])
    with pytest.raises(InvalidInputError):
        priv_heavy_hitter_sample(np.array([[0, 2]]), 1.0, 2.0, 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError):
        priv_heavy_hitter_sample(np.zeros((3, 4), dtype=int), float("nan"), 2.0, 1.0, np.random.default_rng(0))
    with pytest.raises(InvalidInputError):
        path_sup_for_pair(Counter({"0000": 1}), "0000", "1100", hh_params(1, 2, 1), 4)
    with pytest.raises(ValueError):
        thm15_params(1, "1/10", 200, "typo")
    with pytest.raises(ValueError):
        accept_probability(-1, 1, hh_params(1, 2, 1))


# -- closed forms ---------------------------------------------------------------------------------

@pytest.mark.parametrize("t,lam", [("-3/2", "1"), ("0", "2"), ("5/4", "1/3"), ("-7", "3")])
def test_laplace_tail_matches_integrated_density(t, lam):
    with mp.workdps(DPS):
        b = mp.mpf(Fraction(lam).numerator) / Fraction(lam).denominator
        tt = mp.mpf(Fraction(t).numerator) / Fraction(t).denominator
        integral = mp.quad(lambda z: mp.exp(-abs(z) / b) / (2 * b), [tt, 0, mp.inf] if tt < 0 else [tt, mp.inf])
        assert abs(laplace_tail(t, lam) - integral) < mp.mpf(10) ** -40


def test_accept_and_reject_are_complementary_and_capped():
    p = hh_params("2", "3", "5/2")
    with mp.workdps(DPS):
        for f in range(0, 12):
            for level in (1, 2, 3):
                a, r = accept_probability(f, level, p), reject_probability(f, level, p)
                assert abs(a + r - 1) < mp.mpf(10) ** -48
                tl = p.tau + (level - 1) * p.mu
                assert abs(a - laplace_tail(tl - max(f, tl - p.mu), p.lam)) < mp.mpf(10) ** -48
        # below the cap every count has the floor probability e^{-mu/lambda}/2 (eq. (9), App. A.1)
        assert abs(accept_probability(0, 3, p) - mp.exp(-p.mu / p.lam) / 2) < mp.mpf(10) ** -48


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=-20, max_value=20, max_denominator=16),
       st.fractions(min_value=Fraction(1, 8), max_value=10, max_denominator=8))
def test_zxx16_laplace_lemma(a, lam):
    lhs, rhs = zxx16_laplace_lemma(a, lam)
    with mp.workdps(DPS):
        # independent: the ratio from the survival function written out in the two regimes
        aa, ll = mp.mpf(a.numerator) / a.denominator, mp.mpf(lam.numerator) / lam.denominator
        surv = lambda t: mp.exp(-t / ll) / 2 if t >= 0 else 1 - mp.exp(t / ll) / 2  # noqa: E731
        assert abs(lhs - mp.log(surv(-aa) / surv(1 - aa))) < mp.mpf(10) ** -45
    assert lhs <= rhs


# -- exact transcript law at d = 4 ----------------------------------------------------------------

def _number_of_d4_transcripts() -> int:
    return sum(math.comb(4, a) * math.comb(4, b) * 2 ** (a * b) for a in range(5) for b in range(5))


def test_bruteforce_enumeration_is_a_probability_law_and_matches_both_sup_methods():
    """The E-PDP-Thm15 pair (docs/errata.md; x = 11 x 0000 + 20 x 1011, x' moves one 0000 to 1000; tau = 10, lambda = 3,
    mu = 3 ln 160): the enumeration of all 113,855 outcomes gives max log-ratio 0.916233."""
    p = hh_params(3, mp.mpf(3) * mp.log(160), 10)
    x = Counter({"0000": 11, "1011": 20})
    xp = Counter({"0000": 10, "1000": 1, "1011": 20})
    brute, arg, mass_x, mass_xp, count = max_log_ratio_d4_bruteforce(x, xp, p)
    assert count == _number_of_d4_transcripts() == 113855
    assert abs(mass_x - 1) < mp.mpf(10) ** -40 and abs(mass_xp - 1) < mp.mpf(10) ** -40
    assert abs(brute - max_log_ratio_d4(x, xp, p)[0]) < TOL
    assert abs(brute - path_sup_for_pair(x, "0000", "1000", p, 4)[0]) < TOL
    assert abs(brute - mp.mpf("0.916233")) < mp.mpf("5e-7")
    # the arg-max transcript re-evaluated by the direct factorised formula
    direct = transcript_log_probability(x, arg, p, 4) - transcript_log_probability(xp, arg, p, 4)
    assert abs(direct - brute) < TOL


def test_bruteforce_reverse_direction_and_expected_list_size():
    p = hh_params(1, 2, 1)
    x = Counter({"0000": 2, "0110": 1})
    xp = Counter({"0000": 1, "0100": 1, "0110": 1})  # attribute 2 of one 0000 record flipped
    with mp.workdps(DPS):
        best, e_size, mass = mp.mpf("-inf"), mp.mpf(0), mp.mpf(0)
        for t, (lx, lxp) in enumerate_transcripts_d4([xp, x], p):
            best = max(best, lx - lxp)
            w = mp.exp(lx)
            mass += w
            e_size += w * len(t[(0, 4)])
    assert abs(mass - 1) < mp.mpf(10) ** -40
    assert abs(best - path_sup_for_pair(xp, "0100", "0000", p, 4)[0]) < TOL
    assert abs(best - max_log_ratio_d4(xp, x, p)[0]) < TOL
    # Lemma 30's exact E|L_[d]| by the factorised recursion equals the brute-force expectation
    assert abs(inclusion_law(xp, p, 4).expected_size[(0, 4)] - e_size) < mp.mpf(10) ** -40


def test_transcript_probability_rejects_inconsistent_transcripts():
    p = hh_params(1, 2, 1)
    t = {(0, 2): frozenset({"00"}), (2, 4): frozenset({"11"}), (0, 4): frozenset({"0111"})}
    assert transcript_log_probability(["0000"], t, p, 4) == mp.mpf("-inf")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["".join(b) for b in itertools.product("01", repeat=4)]), min_size=1, max_size=6),
       st.integers(0, 200), st.sampled_from(["1/2", "1", "2", "3"]), st.sampled_from(["3/2", "2", "5"]),
       st.sampled_from(["1/2", "1", "2", "7/2"]))
def test_enumeration_equals_path_sum_and_respects_lemma28(records, pick, lam, mu, tau):
    """Random small datasets and parameters: the level-1-list enumeration (no path reduction) equals the
    path sum, is invariant under a tree symmetry, and is below the Lemma 28 bound."""
    p = hh_params(lam, mu, tau)
    x = Counter(records)
    nbrs = list(neighbours(x))
    u, up, _, xp = nbrs[pick % len(nbrs)]
    enum_value, _ = max_log_ratio_d4(x, xp, p)
    path_value, _ = path_sup_for_pair(x, u, up, p, 4)
    assert abs(enum_value - path_value) < TOL
    assert enum_value <= lemma28_bound(p)
    g = tree_symmetries(4)[pick % 128]
    gx = Counter({apply_symmetry(g, r): c for r, c in x.items()})
    gxp = Counter({apply_symmetry(g, r): c for r, c in xp.items()})
    assert abs(max_log_ratio_d4(gx, gxp, p)[0] - enum_value) < TOL


def test_symmetry_reduction_covers_every_pair():
    """Every ordered neighbouring pair with n = 2 at d = 4 is a symmetry image of a yielded pair."""
    group = tree_symmetries(4)
    reps = {(tuple(sorted(x.elements())), tuple(sorted(xp.elements())))
            for x, _, _, xp in neighbouring_pairs_up_to_symmetry(4, 2)}
    universe = ["".join(b) for b in itertools.product("01", repeat=4)]
    for combo in itertools.combinations_with_replacement(universe, 2):
        x = Counter(combo)
        for _, _, _, xp in neighbours(x):
            images = {(tuple(sorted(apply_symmetry(g, r) for r in x.elements())),
                       tuple(sorted(apply_symmetry(g, r) for r in xp.elements()))) for g in group}
            assert images & reps


# -- path-sum method for larger d -----------------------------------------------------------------

def test_all_datasets_dp_equals_exhaustive_sweep_at_d4():
    p = hh_params(1, "3/2", "1/2")
    sweep = max(max_log_ratio_d4(x, xp, p)[0]
                for n in range(1, 4) for x, _, _, xp in neighbouring_pairs_up_to_symmetry(4, n))
    dp_n3, _ = path_sup_all_datasets(4, 3, p)
    # the DP at n = 3 is over datasets of exactly 3 records and equals the n = 3 brute-force sweep
    assert abs(dp_n3 - max(max_log_ratio_d4(x, xp, p)[0] for x, _, _, xp in neighbouring_pairs_up_to_symmetry(4, 3))) < TOL
    # smaller n embed into n = 3 (add records off the changed paths), so the n = 3 sup also dominates
    # the pairs with n = 1, 2: the sweep over n = 1..3 may not exceed it
    assert sweep <= dp_n3 + TOL


@pytest.mark.parametrize("d", [8, 16])
def test_all_datasets_dp_dominates_random_pairs_and_witness_is_realised(d):
    p = hh_params(1, 2, 3)
    n = 12
    sup, wit = path_sup_all_datasets(d, n, p)
    x, u, up = example_pair_from_counts(d, n, wit["f_a"], wit["f_b"])
    assert sum(x.values()) == n
    assert abs(path_sup_for_pair(x, u, up, p, d)[0] - sup) < TOL
    rng = np.random.default_rng(7)
    for _ in range(40):
        recs = ["".join(map(str, r)) for r in rng.integers(0, 2, size=(n, d))]
        # bias towards shared prefixes so that the path counts are non-trivial
        recs = [recs[0] if rng.random() < 0.5 else r for r in recs]
        xx = Counter(recs)
        uu, uup, _, _ = next(iter(neighbours(xx)))
        assert path_sup_for_pair(xx, uu, uup, p, d)[0] <= sup + TOL


@pytest.mark.parametrize("fa,fb", [([6, 6, 6], [5]),      # pattern (3, a, 1, r): no switch-off
                                   ([3, 3, 3], [5, 5, 5]),  # pattern (1, a, 1, r): z_2 = 0 needed
                                   ([5, 4, 1], [6, 6, 2])])
def test_path_sum_matches_transcript_formula_on_a_constructed_transcript_d8(fa, fb):
    """At d = 8 build the transcript realising the maximising pattern (proof step 3) and evaluate its
    log-ratio with the generic factorised formula."""
    p = hh_params(1, 2, 3)
    x, u, up = example_pair_from_counts(8, 12, fa, fb)
    value, pattern = path_sup_for_pair(x, u, up, p, 8)
    ka, ea, kb, eb = pattern
    xp = Counter(x)
    xp[u] -= 1
    xp[up] += 1
    # off-path nodes accept every candidate, except that the sibling J_stop of the path drops u|_J at the
    # level where the pattern needs the switch z = 0; the path nodes keep a_l / b_l as the pattern says
    levels = tree_levels(8)
    stops = [k + 1 for k, e in ((ka, ea), (kb, eb)) if e == "a" and k < len(levels)]
    stop = min(stops) if stops else None
    lists = {(j, j + 1): {"0", "1"} for j in range(8)}
    transcript = {}
    for level, nodes in enumerate(levels, start=1):
        for lo, hi in nodes:
            mid = (lo + hi) // 2
            cand = {a + b for a in lists[lo, mid] for b in lists[mid, hi]}
            if lo == 0:  # the path node I_level (j = 0)
                chosen = set(cand) - {u[lo:hi], up[lo:hi]}
                for s, k, e in ((u[lo:hi], ka, ea), (up[lo:hi], kb, eb)):
                    if s in cand and (level < k or (level == k and e == "a")):
                        chosen.add(s)
            else:
                chosen = set(cand)
                if stop is not None and lo == 2 ** level and level + 1 == stop:  # sibling J_stop
                    chosen.discard(u[lo:hi])
            lists[lo, hi] = chosen
            transcript[lo, hi] = frozenset(chosen)
    direct = transcript_log_probability(x, transcript, p, 8) - transcript_log_probability(xp, transcript, p, 8)
    assert abs(direct - value) < mp.mpf(10) ** -35


def test_lemma28_bad_twin_is_rejected():
    """Half the Lemma 28 bound is violated by the exact sup at the Thm 15 printed constants."""
    sup, _ = path_sup_all_datasets(4, 200, THM15_PRINTED.stage1)
    assert sup <= lemma28_bound(THM15_PRINTED.stage1)
    assert sup > lemma28_bound(THM15_PRINTED.stage1) / 2


# -- sampler against the exact law ----------------------------------------------------------------

def test_sampler_inclusion_frequencies_match_exact_law_d4():
    """T = 4000 runs; Hoeffding + union bound over 25 tests: at most 4 + 4 + 16 = 24 indicator means
    (candidate strings of nodes [0,2), [2,4), [0,4); those absent from the law are skipped) and the
    |L_[4]| mean (range [0, 16], hence radius x 16); total false-failure rate <= 1e-6."""
    data = np.array([[0, 0, 0, 0]] * 3 + [[0, 0, 1, 1]] * 2 + [[1, 0, 1, 1]] * 2 + [[1, 1, 1, 0]])
    p = hh_params(1, 2, 1)
    law = inclusion_law(data, p, 4)
    rng = np.random.default_rng(12345)
    trials = 4000
    runs = priv_heavy_hitter_sample(data, 1.0, 2.0, 1.0, rng, trials=trials, keep_transcript=True)
    tests = 4 + 4 + 16 + 1
    radius = math.sqrt(math.log(2 * tests / 1e-6) / (2 * trials))
    for node, width in (((0, 2), 2), ((2, 4), 2), ((0, 4), 4)):
        for s in range(2 ** width):
            bits = format(s, f"0{width}b")
            exact = law.inclusion[node].get(bits)
            if exact is None:  # string absent from the data: product of child inclusions times p(0)
                continue
            freq = sum(1 for r in runs if s in set(r[node].tolist())) / trials
            assert abs(freq - float(exact)) <= radius, (node, bits)
    mean_size = sum(len(r[(0, 4)]) for r in runs) / trials
    assert abs(mean_size - float(law.expected_size[(0, 4)])) <= 16 * radius


# -- Theorem 15 -----------------------------------------------------------------------------------

def test_thm15_variants_and_lemma28_at_half_eps():
    cp = thm15_params(1, "1/10", 200, "corrected")
    assert abs(lemma28_bound(cp.stage1) - mp.mpf(1) / 2) < mp.mpf(10) ** -45  # e^{-mu/lambda} = nu/16
    assert abs(THM15_PRINTED.stage1.lam - 3) < TOL and abs(THM15_PRINTED.b2 - 2) < TOL
    total_printed, _ = path_sup_all_datasets(4, 200, THM15_PRINTED.stage1, stage2_scale=THM15_PRINTED.b2)
    total_corrected, _ = path_sup_all_datasets(4, 200, cp.stage1, stage2_scale=cp.b2)
    assert total_printed > 1 >= total_corrected
    # E-PDP-Thm15 (docs/errata.md): the concrete pair 11 x 0000 + 189 x 1000 reaches >= 1.583 (stage 1 0.5829 + 2/(2/eps))
    x = Counter({"0000": 11, "1000": 189})
    pair, _ = path_sup_for_pair(x, "0000", "1000", THM15_PRINTED.stage1, 4, stage2_scale=THM15_PRINTED.b2)
    assert pair > mp.mpf("1.5828") and pair <= total_printed


def test_thm15_stage2_enumeration_matches_path_sum():
    cp = thm15_params(1, "1/10", 3, "corrected")
    for x, u, up, xp in neighbouring_pairs_up_to_symmetry(4, 3):
        a, _ = max_log_ratio_d4(x, xp, cp.stage1, stage2_scale=cp.b2)
        b, _ = path_sup_for_pair(x, u, up, cp.stage1, 4, stage2_scale=cp.b2)
        assert abs(a - b) < TOL


def test_thm15_sample_size_figure():
    """Proof A.1.3: n >= (16 mu log2 d + 16 lambda ln(d/(eta nu)))/nu + 100 ln(1/(eta nu))/(nu eps);
    the bound gives n >= 17,891 at d = 16, eps = 1, nu = eta = 0.1."""
    lam = sympy.Integer(3)
    mu = lam * sympy.log(160)
    nu = eta = sympy.Rational(1, 10)
    expr = (16 * mu * 4 + 16 * lam * sympy.log(16 / (eta * nu))) / nu + 100 * sympy.log(1 / (eta * nu)) / nu
    value = thm15_sample_size(16, 1, "1/10", "1/10")
    assert abs(value - mp.mpf(str(sympy.N(expr, 60)))) < mp.mpf(10) ** -40
    assert int(sympy.ceiling(expr)) == 17891 == int(mp.ceil(value))


def test_thm15_corrected_sample_size_and_repaired_failure_bound():
    """Corrected variant: lambda_c = (4/eps)(1 + 16/(16 - nu)), b2 = 4/eps; n_c = (16 mu_c log2 d +
    16 lambda_c ln(d/(eta nu)))/nu + b2 ln(16/(nu eta))/nu.  At n_c the repaired chain eta/2 +
    (8/nu) e^{-nu n/b2} is <= eta; below the Lemma 30 threshold the bound refuses."""
    nu = eta = sympy.Rational(1, 10)
    lam_c = 4 * (1 + 16 / (16 - nu))
    mu_c = lam_c * sympy.log(16 / nu)
    expr = (16 * mu_c * 4 + 16 * lam_c * sympy.log(16 / (eta * nu))) / nu + 4 * sympy.log(16 / (nu * eta)) / nu
    value = thm15_sample_size(16, 1, "1/10", "1/10", "corrected")
    assert abs(value - mp.mpf(str(sympy.N(expr, 60)))) < mp.mpf(10) ** -40
    n_c = int(sympy.ceiling(expr))
    bound = thm15_failure_bound(16, 1, "1/10", "1/10", n_c, "corrected")
    indep = eta / 2 + (8 / nu) * sympy.exp(-nu * n_c / 4)
    assert abs(bound - mp.mpf(str(sympy.N(indep, 60)))) < mp.mpf(10) ** -45
    assert bound <= mp.mpf(1) / 10
    # NB: at every n admitted by Lemma 30 (n >= 35540 here) the stage-2 term (8/nu) e^{-nu n/b2} is
    # < 1e-383, below the 50-digit resolution of the returned sum: the comparison above sees only eta/2
    with pytest.raises(ValueError):
        thm15_failure_bound(16, 1, "1/10", "1/10", 17891, "corrected")  # tau below the Lemma 30 threshold


def test_e6_rounding_probabilities():
    """Sec. 5 (the rounding remark): P[|Lap(1/eps)| < 1/2] = 1 - e^{-eps/2} (> 99% at eps = 10); with the replace-one
    scale 2/eps it is 1 - e^{-eps/4} = 0.918 (E-PDP-E6 in docs/errata.md)."""
    e = sympy.Integer(10)
    assert sympy.simplify(rounding_success_probability(Fraction(1, 10)) - (1 - sympy.exp(-e / 2))) == 0
    assert sympy.simplify(rounding_success_probability(Fraction(2, 10)) - (1 - sympy.exp(-e / 4))) == 0
    assert sympy.N(rounding_success_probability(Fraction(1, 10))) > sympy.Rational(99, 100)
    assert abs(sympy.N(rounding_success_probability(Fraction(2, 10))) - sympy.Float("0.918")) < 1e-3


def test_laplace_histogram_epsilon_against_density_ratio_grid():
    b = Fraction(3, 2)
    with mp.workdps(DPS):
        bb = mp.mpf(3) / 2
        dens = lambda y, f: mp.exp(-abs(y - f) / bb)  # noqa: E731
        grid = [mp.mpf(k) / 4 for k in range(-20, 21)]
        # replace-one / nabla0: one count +1 and another -1; add-remove: one count +1
        two = max(mp.log(dens(y1, 1) * dens(y2, 0) / (dens(y1, 0) * dens(y2, 1))) for y1 in grid for y2 in grid)
        one = max(mp.log(dens(y, 1) / dens(y, 0)) for y in grid)
    for grid_max, relation in ((two, "replace-one"), (one, "add-remove")):
        r = laplace_histogram_epsilon(b, relation)
        assert abs(grid_max - mp.mpf(r.numerator) / r.denominator) < TOL


# -- Theorem 16 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("d,eps,nu", [(31, Fraction(1), Fraction(1, 10)), (11, Fraction(1, 100), Fraction(1, 10)),
                                      (10**6, Fraction(1), Fraction(1, 100)), (12, Fraction(1, 10), Fraction(1, 10))])
def test_thm16_min_n_by_search(d, eps, nu):
    with mp.workdps(DPS):
        e = mp.mpf(eps.numerator) / eps.denominator
        n = 1
        while mp.mpf(d) / 10 * mp.exp(-e * math.ceil(3 * nu * n)) > 1:
            n += 1
    assert thm16_packing_min_n(d, eps, nu) == n


def test_thm16_printed_step_fails_at_digest_example():
    """E-PDP-Thm15-utility (docs/errata.md): eps = 0.1, d = 12, nu n = 0.3 gives 1.086 < 1.207 (d >= 10 e^{1.1 eps} = 11.16)."""
    lhs, rhs = thm16_printed_step(12, Fraction(1, 10), Fraction(3, 10))
    assert 12 >= 10 * math.exp(0.11)
    assert abs(float(lhs) - 1.2 * math.exp(-0.1)) < 1e-12 and abs(float(rhs) - 12 ** 0.1 * math.exp(-0.06)) < 1e-12
    assert lhs < rhs


def test_packing_success_bound_closed_form():
    b = packing_success_bound(4, 1, Fraction(1, 10), 5)  # k = ceil(1.5) = 2
    assert sympy.simplify(b - 1 / (1 + 4 * sympy.exp(-2))) == 0


def test_errors_are_bcdp_errors_and_validity_conditions_are_sharp():
    """Bad parameters raise bcdp errors (InvalidInputError, a ValueError); Lemma 28's condition mu > 1
    is a ValidityConditionError exactly at mu = 1 and holds just above, where the bound is the closed
    form (2/lambda)(1 + 1/(1 - e^{-mu/lambda})) evaluated here independently at 60 digits."""
    from bcdp.core.errors import ValidityConditionError

    with pytest.raises(InvalidInputError):
        hh_params(-1, 2, 1)
    with pytest.raises(ValidityConditionError, match="mu > 1"):
        lemma28_bound(hh_params(1, 1, 1))
    just_above = Fraction(1) + Fraction(1, 10 ** 30)
    got = lemma28_bound(hh_params(2, just_above, 1))
    with mp.workdps(60):
        mu = mp.mpf(just_above.numerator) / just_above.denominator
        expected = (2 / mp.mpf(2)) * (1 + 1 / (1 - mp.exp(-mu / 2)))
        assert abs(got - expected) < mp.mpf(10) ** -45 * expected
    with pytest.raises(ValidityConditionError, match="Lemma 30"):
        thm15_failure_bound(16, 1, "1/10", "1/10", 10, "corrected")  # n far below the Lemma 30 range


def test_sampler_is_the_float_twin_of_the_exact_law():
    """priv_heavy_hitter_sample takes floats (and numeric strings, through to_float_input); the exact
    functions refuse the same float."""
    data = np.zeros((3, 4), dtype=int)
    rng = np.random.default_rng(1)
    out_float = priv_heavy_hitter_sample(data, 1.0, 2.0, 1.0, rng, trials=2)
    out_str = priv_heavy_hitter_sample(data, "1", "2", "1", rng, trials=2)
    assert len(out_float) == len(out_str) == 2
    with pytest.raises(InvalidInputError):
        priv_heavy_hitter_sample(data, True, 2.0, 1.0, rng)
    with pytest.raises(FloatRefusedError):
        hh_params(1.0, 2, 1)
    with pytest.raises(FloatRefusedError):
        laplace_tail(0.5, 1)
