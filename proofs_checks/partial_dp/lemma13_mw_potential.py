"""Partial DP paper, Lemma 13 (Sec. 4.2, [HLM12, Lemma A.4]) and its per-round use in the proof
of Thm 12 (Sec. 4.2).

Printed: if A'(u) ∝ A(u) exp(1/2 q(u)(a - q(u))) then
    Psi(A) - Psi(A') >= 1/4 (q(A) - q(x))^2 - 1/4 (a - q(x))^2,    Psi(A) = KL(x || A).
Corrected (erratum E-PDP-Lemma13; the form Alg. 1 step 7 actually uses): A'(u) ∝ A(u) exp(1/2 q(u)(a - q(A))).

Evidence:
1. 200,000 random instances (|X| = 8, A and x Dirichlet(1/2), q in [0,1]^X or {0,1}^X, a in [0,1]),
   float64 with tolerance 1e-9: the corrected form never fails, the printed one fails; the worst
   cases are re-evaluated in mpmath at 60 digits from the exact rationals of the float inputs.
2. A two-point rational counterexample to the printed form, exact closed form checked in mpmath.
3. Erratum E-PDP-Thm12-proof: the proof applies Lemma 13 per query inside a round with q_{t,i}(A_t) in place of
   q_{t,i}(A_{t,i-1}), valid for product A_t only.  For X = {0,1}^l, q_i(u) = u_i,
   A_t = (delta_{0^l} + delta_{1^l})/2, x = delta_{1^l}, a_i = 1, the joint round's potential drop is
   log 2 - log(1 + e^{-l/4}) while the claimed per-round bound is l/16: it fails exactly for l >= 10
   (checked l = 1..40 in mpmath and, for l <= 14, by an independent float64 evaluation on the full
   distribution).  A product A_t (uniform) satisfies the bound at the same l.
4. Exact threshold of the per-round inequality (derived here): it holds for EVERY A when l <= 8
   (Hoeffding's lemma: the joint exponent has range <= 1/2 sum_i |a_i - q_i(A)|, so
   log E_A e^{e - E e} <= l sum_i (a_i - q_i(A))^2 / 32 <= 1/4 sum_i (a_i - q_i(A))^2), and fails for
   every l >= 9: with A = x = (delta_{0^l} + delta_{1^l})/2 and a_i = 1/2 + 2w/l the slack is exactly
   w^2/l - log cosh(w/2) (w = 1: negative iff l >= 9; mpmath, l = 1..40, cross-checked through the
   generic joint-update code for l <= 12).  A grid over the two-point family (A, x supported on
   {0^l, 1^l}, common a_i; 121^3 points) has min slack >= -1e-12 for l <= 8 and < 0 for l = 9..12.
5. Reachability: at the distribution A_T reached by a seeded Algorithm 1 run (d = 10, l = 9,
   x = half 0^10 / half 1^10), the singleton set with measurements a_i = 3/4 violates the per-round
   inequality (slack about -0.0047, mpmath); by continuity this is a positive-probability event in
   actual runs (though rare: 0 failures among random rounds).  This is a proof gap; eq. (3) itself
   is not refuted.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.partial.mwem import (
    conjunction_workload,
    disjoint_tuples,
    e3_joint_round_slack,
    e3_joint_round_slack_numeric,
    e3_symmetric_slack,
    joint_round_slack,
    lemma13_slack,
    lemma13_slack_mp,
    partial_mwem,
)

CLAIM = ClaimSpec(
    id="PDP-Lemma13-MW-potential",
    paper="partial_dp",
    group="workloads",
    where="Lemma 13 and the proof of Thm 12, Sec. 4.2 (see also erratum E-PDP-Thm12-proof)",
    statement="Printed Lemma 13 (A' ∝ A exp(q(u)(a - q(u))/2) => KL(x||A) - KL(x||A') >= (q(A)-q(x))^2/4 - "
              "(a-q(x))^2/4) fails: 68,540 of 200,000 random instances, min slack -0.432 (mpmath 60 digits), "
              "two-point counterexample with slack exactly -9801/40000; corrected form with q(A) (as in Alg. "
              "1 step 7) 0 failures. Gap in the Thm 12 proof (erratum E-PDP-Thm12-proof): the per-round "
              "multi-query inequality it uses holds for every A iff l <= 8 (Hoeffding proof for l <= 8; "
              "counterexample family slack w^2/l - log cosh(w/2) < 0 for every l >= 9; the family X = "
              "{0,1}^l, A uniform on two opposite points, fails exactly from l = 10); reachable: at the A_T "
              "of a seeded Algorithm 1 run (d = 10, l = 9) the singleton set with a_i = 3/4 gives slack "
              "-0.00466 (positive-probability event by continuity), though 0 failures among ~1.6M random "
              "rounds.",
    expected="erratum",
    also_checked_in=(
        "`bcdp.partial.mwem`",
        "`tests/partial/test_partial_dp_mwem.py`",
    ),
    erratum="E-PDP-Lemma13",
)

N_RANDOM = 200_000
SIZE = 8
TOL = 1e-9
E3_RANGE = range(1, 41)


def _random_instances(seed: int):
    rng = np.random.default_rng(seed)
    a_dist = rng.dirichlet(np.full(SIZE, 0.5), N_RANDOM)
    a_dist = np.maximum(a_dist, 1e-12)
    a_dist /= a_dist.sum(axis=1, keepdims=True)
    x_dist = rng.dirichlet(np.full(SIZE, 0.5), N_RANDOM)
    q = rng.random((N_RANDOM, SIZE))
    q[N_RANDOM // 2:] = np.round(q[N_RANDOM // 2:])
    a = rng.random(N_RANDOM)
    a[: N_RANDOM // 10] = np.round(a[: N_RANDOM // 10])
    return a_dist, x_dist, q, a


def _exact(v: np.ndarray) -> list[Fraction]:
    return [Fraction(float(t)) for t in v]   # exact rational value of each float64 input


def _uniform_product_slack(ell: int) -> float:
    """Same l and x, but A_t uniform on {0,1}^l (a product distribution): float64 slack."""
    size = 2 ** ell
    q = np.array([[(u >> i) & 1 for i in range(ell)] for u in range(size)], dtype=np.float64)
    a_t = np.full(size, 1.0 / size)
    qa = a_t @ q
    e = 0.5 * q @ (np.ones(ell) - qa)
    drop = float(e[size - 1] - np.log(np.sum(a_t * np.exp(e))))
    return drop - 0.25 * float(np.sum((qa - 1.0) ** 2))


def _symmetric_family() -> dict:
    fails, mismatch = [], 0
    for ell in E3_RANGE:
        w = min(Fraction(1), Fraction(ell, 4))       # a_i = 1/2 + 2w/l must stay in [0, 1]
        slack = e3_symmetric_slack(ell, w)
        if slack < 0:
            fails.append(ell)
        if ell <= 12:
            size = 2 ** ell
            q = np.array([[(u >> i) & 1 for i in range(ell)] for u in range(size)], dtype=np.float64)
            dist = np.zeros(size)
            dist[0] = dist[size - 1] = 0.5
            generic = joint_round_slack(dist, dist, q, np.full((1, ell), 0.5 + 2.0 * float(w) / ell))[0]
            if abs(generic - float(slack)) > 1e-12:
                mismatch += 1
    return {"family": "A = x = (delta_0 + delta_1)/2 on {0,1}^l, q_i(u) = u_i, a_i = 1/2 + 2w/l, w = min(1, l/4); "
                      "slack = w^2/l - log cosh(w/2)",
            "failing_l_in_1_40": f"{fails[0]}..{fails[-1]}" if fails else "none",
            "all_l_ge_9_fail_and_l_le_8_hold": fails == list(range(9, E3_RANGE.stop)),
            "slack_l8": mpmath.nstr(e3_symmetric_slack(8, 1), 12), "slack_l9": mpmath.nstr(e3_symmetric_slack(9, 1), 12),
            "generic_code_mismatches_l_le_12": mismatch}


def _two_point_grid() -> dict:
    grid = 121
    p_, r_, a_ = np.meshgrid(np.linspace(1e-6, 1 - 1e-6, grid), np.linspace(0, 1, grid), np.linspace(0, 1, grid),
                             indexing="ij")
    mins = {}
    for ell in range(1, 13):
        e1 = 0.5 * ell * (a_ - p_)            # exponent at 1^l (0 at 0^l); q_i(A) = p, q_i(x) = r, a_i = a
        drop = r_ * e1 - np.logaddexp(np.log1p(-p_), np.log(p_) + e1)
        mins[ell] = float(np.min(drop - 0.25 * ell * ((p_ - r_) ** 2 - (a_ - r_) ** 2)))
    ok = all(mins[ell] >= -1e-12 for ell in range(1, 9)) and all(mins[ell] < -1e-3 for ell in range(9, 13))
    return {"grid_points_per_l": grid ** 3, "min_slack_by_l": {str(k): f"{v:.3e}" for k, v in mins.items()},
            "holds_l_le_8_fails_l_9_to_12": ok}


def _joint_slack_mp(a_dist: list[Fraction], x_dist: list[Fraction], q: np.ndarray, a: list[Fraction]) -> mpmath.mpf:
    """Per-round slack (eta = 1/2) in mpmath at 60 digits from exact rational inputs."""
    with mpmath.workdps(60):
        A = [mpmath.mpf(v.numerator) / v.denominator for v in a_dist]
        X = [mpmath.mpf(v.numerator) / v.denominator for v in x_dist]
        av = [mpmath.mpf(v.numerator) / v.denominator for v in a]
        cols = range(q.shape[1])
        qa = [mpmath.fsum(A[u] for u in range(len(A)) if q[u, i]) for i in cols]
        qx = [mpmath.fsum(X[u] for u in range(len(X)) if q[u, i]) for i in cols]
        e = [mpmath.fsum((av[i] - qa[i]) / 2 for i in cols if q[u, i]) for u in range(len(A))]
        drop = mpmath.fsum(X[u] * e[u] for u in range(len(A))) - mpmath.log(mpmath.fsum(A[u] * mpmath.exp(e[u]) for u in range(len(A))))
        return drop - mpmath.fsum((qa[i] - qx[i]) ** 2 - (av[i] - qx[i]) ** 2 for i in cols) / 4


def _algorithm_runs() -> dict:
    """The per-round inequality along actual Algorithm 1 runs with l = 9 (d = 10, 1- and 2-way
    conjunctions, x = half 0^10 / half 1^10, so A_t becomes correlated).
    (i) random rounds (exploratory, not a pass criterion); (ii) reachability: at the distribution
    A_T reached by a seeded run, the singleton set {x_1..x_9} with measurements a_i = 3/4 violates
    the inequality (mpmath, 60 digits, from the exact rationals of the float64 A_T).  Every set has
    positive selection probability, the clipped Gaussian has positive density on (0,1)^l and the
    slack is continuous in (A, a), so the failure is a positive-probability event in actual runs."""
    wl = conjunction_workload(10, [1, 2])
    sets = disjoint_tuples(wl.attrs, 9, ordered=False)
    q = wl.answers.astype(np.float64)
    n, eps0, T, runs = 100, 4.0, 300, 5
    data = np.array([0] * (n // 2) + [wl.size - 1] * (n - n // 2))
    xh = np.bincount(data, minlength=wl.size) / n
    rng = np.random.default_rng(99)
    slacks = []
    for _ in range(runs):
        run = partial_mwem(data, wl, eps0, T, 9, rng, tuples=sets)
        for a_t, sel, meas in zip(run.distributions, run.selections, run.measurements):
            slacks.append(float(joint_round_slack(a_t, xh, q[:, list(sel)], meas[None, :])[0]))
    # (ii) reachability at a seeded run's final distribution
    n2, eps2, T2 = 1000, 10.0, 2000
    data2 = np.array([0] * (n2 // 2) + [wl.size - 1] * (n2 - n2 // 2))
    run2 = partial_mwem(data2, wl, eps2, T2, 9, np.random.default_rng(2026), tuples=sets)
    a_final = run2.distributions[-1]
    exact_a = [Fraction(float(v)) for v in a_final]
    total = sum(exact_a)
    exact_a = [v / total for v in exact_a]
    x_exact = [Fraction(0)] * wl.size
    x_exact[0] = x_exact[-1] = Fraction(1, 2)
    singles = [j for j, at in enumerate(wl.attrs) if len(at) == 1][:9]
    assert tuple(singles) in {tuple(t) for t in sets.tolist()}
    slack_mp = _joint_slack_mp(exact_a, x_exact, q[:, singles], [Fraction(3, 4)] * 9)
    return {"random_rounds": {"setting": f"d=10, l=9, n={n}, eps0={eps0}, T={T}, runs={runs}, "
                                         f"{len(sets)} attribute-disjoint sets",
                              "rounds": len(slacks), "negative_slack_rounds": int(sum(v < -1e-9 for v in slacks)),
                              "min_slack": f"{min(slacks):.3e}",
                              "note": "a larger exploration (~1.6M random rounds, 5 settings) found no failure either: "
                                      "the failing measurement vectors are nearly aligned with (1,...,1), rare under iid noise"},
            "reachable_counterexample": {"run": f"d=10, l=9, n={n2}, eps0={eps2}, T={T2}, seed 2026; A = A_T",
                                         "mass_of_A_on_0^10_and_1^10": f"{float(a_final[0] + a_final[-1]):.4f}",
                                         "selected_set": "1-way queries x_1..x_9", "measurements": "a_i = 3/4",
                                         "slack_mp60": mpmath.nstr(slack_mp, 12),
                                         "fails": bool(slack_mp < 0)}}


def check() -> ClaimResult:
    a_dist, x_dist, q, a = _random_instances(1303)
    slack_corr = lemma13_slack(a_dist, x_dist, q, a, "corrected")
    slack_print = lemma13_slack(a_dist, x_dist, q, a, "printed")
    viol_corr = int(np.sum(slack_corr < -TOL))
    viol_print = int(np.sum(slack_print < -TOL))
    i_corr, i_print = int(np.argmin(slack_corr)), int(np.argmin(slack_print))
    mp_corr = lemma13_slack_mp(_exact(a_dist[i_corr]), _exact(x_dist[i_corr]), _exact(q[i_corr]),
                               Fraction(float(a[i_corr])), "corrected")
    mp_print = lemma13_slack_mp(_exact(a_dist[i_print]), _exact(x_dist[i_print]), _exact(q[i_print]),
                                Fraction(float(a[i_print])), "printed")
    # two-point counterexample: X = {u0, u1}, q = (0, 1), A = (99/100, 1/100), x = delta_{u1}, a = 1.
    # printed factor exp(1/2 q(u)(a - q(u))) = 1 everywhere -> drop 0; bound 1/4 (1/100 - 1)^2 = 9801/40000
    two_point = lemma13_slack_mp(["99/100", "1/100"], [0, 1], [0, 1], 1, "printed")
    two_point_expected = -Fraction(9801, 40000)
    with mpmath.workdps(60):
        two_point_ok = abs(two_point - mpmath.mpf(two_point_expected.numerator) / two_point_expected.denominator) < mpmath.mpf(10) ** -50
    two_point_corr = lemma13_slack_mp(["99/100", "1/100"], [0, 1], [0, 1], 1, "corrected")
    # the per-round gap of the Thm 12 proof: two-point family
    e3_rows, first_fail, closed_form_mismatch, numeric_mismatch, product_fail = [], None, 0, 0, 0
    for ell in E3_RANGE:
        drop, bound, slack = e3_joint_round_slack(ell)
        with mpmath.workdps(60):
            closed = mpmath.log(2) - mpmath.log(1 + mpmath.exp(-mpmath.mpf(ell) / 4))
            if abs(closed - drop) > mpmath.mpf(10) ** -50:
                closed_form_mismatch += 1
        if ell <= 14 and abs(e3_joint_round_slack_numeric(ell) - float(slack)) > 1e-9:
            numeric_mismatch += 1
        if ell <= 14 and _uniform_product_slack(ell) < -TOL:
            product_fail += 1
        if slack < 0 and first_fail is None:
            first_fail = ell
        if ell in (8, 9, 10, 12, 16, 20, 40):
            e3_rows.append({"l": ell, "drop": mpmath.nstr(drop, 12), "bound_l/16": mpmath.nstr(bound, 12),
                            "slack": mpmath.nstr(slack, 12)})
    fails_set = [ell for ell in E3_RANGE if e3_joint_round_slack(ell)[2] < 0]
    e3_ok = (first_fail == 10 and fails_set == list(range(10, E3_RANGE.stop)) and closed_form_mismatch == 0
             and numeric_mismatch == 0 and product_fail == 0)
    sym = _symmetric_family()
    grid = _two_point_grid()
    runs = _algorithm_runs()
    e3_ok = e3_ok and runs["reachable_counterexample"]["fails"] and sym["all_l_ge_9_fail_and_l_le_8_hold"] and sym["generic_code_mismatches_l_le_12"] == 0 \
        and grid["holds_l_le_8_fails_l_9_to_12"]
    consistent = (viol_corr == 0 and mp_corr >= -mpmath.mpf(10) ** -40 and viol_print > 0 and mp_print < 0
                  and two_point_ok and two_point_corr >= 0 and e3_ok)
    return CLAIM.result(
        verdict="erratum" if consistent else "refuted",
        key_figure=f"printed form fails in {viol_print}/{N_RANDOM} random instances (min slack "
                   f"{mpmath.nstr(mp_print, 6)}; two-point counterexample slack -9801/40000); "
                   f"corrected q(A) form 0 failures (min slack {mpmath.nstr(mp_corr, 3)}); "
                   f"Thm 12 proof: per-round bound holds for all A iff l <= 8 (fails from l = 9; two-point family from l = {first_fail}); "
                   f"reachable in an Alg. 1 run (slack {runs['reachable_counterexample']['slack_mp60'][:8]} at l = 9)",
        evidence={
            "random_instances": N_RANDOM, "domain_size": SIZE, "float_tolerance": f"{TOL:g}",
            "corrected_violations": viol_corr, "printed_violations": viol_print,
            "corrected_min_slack_mp60": mpmath.nstr(mp_corr, 15),
            "printed_min_slack_mp60": mpmath.nstr(mp_print, 15),
            "two_point_counterexample": {"X": ["u0", "u1"], "q": [0, 1], "A": ["99/100", "1/100"],
                                         "x": "delta_u1", "a": 1, "printed_slack": str(two_point_expected),
                                         "printed_slack_mp60_matches": bool(two_point_ok),
                                         "corrected_slack_mp60": mpmath.nstr(two_point_corr, 15)},
            "corrected_statement": "A'(u) ∝ A(u) exp(q(u)(a - q(A))/2)  (as in Algorithm 1 step 7)",
            "thm12_per_round_gap": {"family": "X={0,1}^l, q_i(u)=u_i, A_t=(delta_0+delta_1)/2, x=delta_1, a_i=1",
                   "first_failing_l": first_fail, "failing_l_in_1_40": f"{fails_set[0]}..{fails_set[-1]}" if fails_set else "none",
                   "rows": e3_rows, "closed_form_mismatches": closed_form_mismatch,
                   "float_crosscheck_mismatches_l_le_14": numeric_mismatch,
                   "uniform_product_A_failures_l_le_14": product_fail,
                   "note": "sampling l = 8, 12, 16, 20 suggests l >= 12; in that family the exact threshold "
                           "is l = 10, and over all A it is l = 9 (symmetric family below); proof gap only, eq. (3) "
                           "itself is not refuted",
                   "symmetric_family": sym, "two_point_grid": grid, "in_algorithm_runs": runs,
                   "hoeffding_argument_l_le_8": "range of 1/2 sum_i q_i(u)(a_i - q_i(A)) <= 1/2 sum_i |a_i - q_i(A)|; "
                                                "Hoeffding + Cauchy-Schwarz: log-MGF <= l sum_i (a_i-q_i(A))^2/32 <= "
                                                "sum_i (a_i-q_i(A))^2/4 iff l <= 8, which is what the bound needs"},
        },
    )
