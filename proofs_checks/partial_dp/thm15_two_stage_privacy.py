"""Partial DP paper, Thm 15 (Sec. 5; proof App. A.1.3): the two-stage histogram -- PrivHeavyHitter with
lambda = 3/eps, mu = lambda log(16/nu), tau = nu n/2, then Lap(2/eps) on the counts of the listed
strings -- is claimed eps-nabla0DP (0.5 eps + 0.5 eps).

Both variants are explicit (:func:`bcdp.partial.heavy_hitters.thm15_params`): "printed" and
"corrected" (lambda = (4/eps)(1 + 16/(16 - nu)), i.e. Lemma 28 at eps/2, and Lap(4/eps)).

Exact sups of the output log-ratio (transcript and released counts), eps = 1, nu = 1/10:
(1) ALL nabla0-neighbouring pairs with n = 200 records (tau = 10) for d = 4 and d = 16, by the
    proof-backed path-sum reduction (:func:`bcdp.partial.heavy_hitters.path_sup_all_datasets`;
    stage 2 adds 1/b2 to the top-level accept terms of the two path strings);
(2) d = 4, EVERY neighbouring pair with n <= 3 records (one per tree-symmetry orbit), enumerating all
    level-1 lists (:func:`bcdp.partial.heavy_hitters.max_log_ratio_d4` with stage 2) against the
    path sum;
(3) the original family x = a x 0000 + b x 1000 + rest x 1011 (n = 200), by
    :func:`bcdp.partial.histogram.max_log_ratio` (40 digits) against the path sum.
Printed constants: the sup exceeds eps (total 1.5829 eps; stage 1 alone 0.9162 eps > eps/2),
erratum E-PDP-Thm15.  Corrected: every pair <= eps (stage 1 <= eps/2): a full check, not evidence
on a family.  Also recomputed: the Sec. 5 remark on rounding a Laplace histogram (erratum
E-PDP-E6: rounding f + Lap(b) recovers f w.p. 1 - e^{-1/(2b)}: 0.99326 for Lap(1/eps) vs 0.91792
for the replace-one-correct Lap(2/eps) at eps = 10) and the sample-size figure n >= 17,891
(d = 16, eps = 1, nu = eta = 1/10), the corrected variant's n >= 35,835, and the utility chain with
the Markov step (erratum E-PDP-Thm15-utility) replaced by E|L| e^{-nu n/b2}: failure <= eta at
both sizes.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import mpmath as mp
import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.partial.heavy_hitters import (
    DPS,
    laplace_histogram_epsilon,
    lemma28_bound,
    max_log_ratio_d4,
    neighbouring_pairs_up_to_symmetry,
    path_sup_all_datasets,
    path_sup_for_pair,
    rounding_success_probability,
    thm15_failure_bound,
    thm15_params,
    thm15_sample_size,
)
from bcdp.partial.histogram import corrected_params, max_log_ratio, printed_params

CLAIM = ClaimSpec(
    id="PDP-Thm15-privacy",
    paper="partial_dp",
    group="histograms",
    where="Thm 15 (Sec. 5) and its proof, App. A.1.3; Lemma 28",
    statement="The two-stage histogram with the printed constants (lambda = 3/eps, Lap(2/eps)) is not "
              "eps-nabla0DP. Over ALL neighbouring pairs with n = 200 (d = 4 and d = 16, path-sum reduction) "
              "the exact sup is 1.58290 at eps = 1, and stage 1 alone reaches 0.91623 > 0.5. With the "
              "corrected constants lambda = (4/eps)(1 + 16/(16 - nu)) and Lap(4/eps), the sup over ALL pairs "
              "is 0.73540 <= 1 and stage 1 is 0.36000 <= 0.5; this is now a full check, not evidence on a "
              "family. Cross-checks: d = 4 enumeration = path sum on all n <= 3 pairs, and the old family "
              "agrees with the path sum to 3e-40.",
    expected="erratum",
    erratum="E-PDP-Thm15",
)

EPS, N = 1, 200
NU_Q = Fraction(1, 10)
A_VALUES = (1, 4, 7, 10, 11, 13, 16, 19, 22, 25)
B_VALUES = (0, 5, 9, 10, 11, 15, 189)
ALL_PAIRS_DIMENSIONS = (4, 16)
SMALL_N_MAX = 3
AGREE_TOL_DIGITS = 35


def pairs():
    for a in A_VALUES:
        for b in B_VALUES:
            rest = N - a - b
            if rest < 0:
                continue
            x = Counter({"0000": a, "1000": b, "1011": rest})
            xp = Counter({"0000": a - 1, "1000": b + 1, "1011": rest})
            yield (a, b), x, xp, "0000", "1000"
            yield (a, b, "reversed"), xp, x, "1000", "0000"


def sweep(params, variant: str):
    """Family sweep with the d = 4 module (kept from the first version) and its path-sum cross-check."""
    hp = thm15_params(EPS, NU_Q, N, variant)
    worst_total, worst_stage1, arg_total, disagreement = -mp.inf, -mp.inf, None, mp.mpf(0)
    for key, x, xp, u, up in pairs():
        total, lists = max_log_ratio(x, xp, params)
        stage1, _ = max_log_ratio(x, xp, params, stage2=False)
        path_total, _ = path_sup_for_pair(x, u, up, hp.stage1, 4, stage2_scale=hp.b2)
        disagreement = max(disagreement, abs(path_total - total))
        worst_stage1 = max(worst_stage1, stage1)
        if total > worst_total:
            worst_total, arg_total = total, {"pair": list(key), "L12": lists[0], "L34": lists[1]}
    return worst_total, worst_stage1, arg_total, disagreement


def small_exhaustive(variant: str):
    """d = 4, all pairs with n <= SMALL_N_MAX (tau = nu n / 2): enumeration of level-1 lists vs path sum."""
    worst, count, disagreement = mp.mpf("-inf"), 0, mp.mpf(0)
    for n in range(1, SMALL_N_MAX + 1):
        hp = thm15_params(EPS, NU_Q, n, variant)
        for x, u, up, xp in neighbouring_pairs_up_to_symmetry(4, n):
            enum_value, _ = max_log_ratio_d4(x, xp, hp.stage1, stage2_scale=hp.b2)
            path_value, _ = path_sup_for_pair(x, u, up, hp.stage1, 4, stage2_scale=hp.b2)
            disagreement = max(disagreement, abs(enum_value - path_value))
            worst = max(worst, enum_value)
            count += 1
    return worst, count, disagreement


def check() -> ClaimResult:
    with mp.workdps(DPS):                  # the module sets no global precision: work at DPS here
        return _check()


def _check() -> ClaimResult:
    f = lambda v: mp.nstr(v, 12)  # noqa: E731
    printed, corrected = printed_params(EPS, NU_Q, N), corrected_params(EPS, NU_Q, N)
    p_total, p_stage1, p_arg, p_dis = sweep(printed, "printed")
    c_total, c_stage1, c_arg, c_dis = sweep(corrected, "corrected")
    all_pairs = {}
    for variant in ("printed", "corrected"):
        tp = thm15_params(EPS, NU_Q, N, variant)
        rows = []
        for d in ALL_PAIRS_DIMENSIONS:
            total, wit = path_sup_all_datasets(d, N, tp.stage1, stage2_scale=tp.b2)
            stage1, wit1 = path_sup_all_datasets(d, N, tp.stage1) if d == 4 else (None, None)
            rows.append({"d": d, "sup_total": f(total), "sup_stage1": None if stage1 is None else f(stage1),
                         "witness_total": {"pattern": list(wit["pattern"]), "f_a": wit["f_a"], "f_b": wit["f_b"]},
                         "_total": total, "_stage1": stage1})
        small_worst, small_count, small_dis = small_exhaustive(variant)
        all_pairs[variant] = {"lambda": f(tp.stage1.lam), "mu": f(tp.stage1.mu), "b2": f(tp.b2),
                              "lemma28_stage1_bound": f(lemma28_bound(tp.stage1)), "rows": rows,
                              "small_n_exhaustive": {"n_max": SMALL_N_MAX, "pairs_up_to_symmetry": small_count,
                                                     "sup_total": f(small_worst),
                                                     "enumeration_vs_path": mp.nstr(small_dis, 3)},
                              "_small_worst": small_worst, "_small_dis": small_dis}
    pr, co = all_pairs["printed"], all_pairs["corrected"]
    printed_fails = (all(r["_total"] > EPS for r in pr["rows"]) and pr["rows"][0]["_stage1"] > mp.mpf(EPS) / 2
                     and p_total > EPS and p_stage1 > mp.mpf(EPS) / 2)
    corrected_ok = (all(r["_total"] <= EPS for r in co["rows"]) and co["rows"][0]["_stage1"] <= mp.mpf(EPS) / 2
                    and co["_small_worst"] <= EPS and c_total <= EPS and c_stage1 <= mp.mpf(EPS) / 2)
    agree = max(p_dis, c_dis, pr["_small_dis"], co["_small_dis"]) <= mp.mpf(10) ** -AGREE_TOL_DIGITS
    for v in all_pairs.values():
        del v["_small_worst"], v["_small_dis"]
        for r in v["rows"]:
            del r["_total"], r["_stage1"]
    # the Laplace-rounding remark and the sample-size figure (App. A.1.3)
    round_1 = rounding_success_probability(Fraction(1, 10))
    round_2 = rounding_success_probability(Fraction(2, 10))
    e6 = {"P_round_correct_Lap(1/eps)_eps10": str(round_1), "value_1": str(sympy.N(round_1, 15)),
          "P_round_correct_Lap(2/eps)_eps10": str(round_2), "value_2": str(sympy.N(round_2, 15)),
          "eps_of_Lap(1/eps)_replace_one_in_units_of_eps": str(laplace_histogram_epsilon(1, "replace-one")),
          "eps_of_Lap(2/eps)_nabla0_in_units_of_eps": str(laplace_histogram_epsilon(2, "nabla0"))}
    n_req = thm15_sample_size(16, 1, "1/10", "1/10")
    n_req_int = int(mp.ceil(n_req))
    n_cor = thm15_sample_size(16, 1, "1/10", "1/10", "corrected")
    n_cor_int = int(mp.ceil(n_cor))
    fail_printed = thm15_failure_bound(16, 1, "1/10", "1/10", n_req_int, "printed")
    fail_corrected = thm15_failure_bound(16, 1, "1/10", "1/10", n_cor_int, "corrected")
    utility_ok = fail_printed <= mp.mpf(1) / 10 and fail_corrected <= mp.mpf(1) / 10
    if printed_fails and corrected_ok and agree and utility_ok:
        verdict = "erratum"
    elif not printed_fails and agree:
        verdict = "confirmed"
    else:
        verdict = "refuted"
    return CLAIM.result(
        verdict=verdict,
        key_figure=f"eps=1, nu=1/10, n=200, ALL neighbouring pairs (path-sum reduction, d=4 and 16): printed sup "
                   f"{pr['rows'][0]['sup_total']} > 1 (stage 1 {pr['rows'][0]['sup_stage1']} > 1/2); corrected "
                   f"(lambda=8.025, Lap(4)) {co['rows'][0]['sup_total']} <= 1 (stage 1 {co['rows'][0]['sup_stage1']}); "
                   f"n >= {n_req_int} at d=16 (corrected {n_cor_int}); Laplace rounding: {e6['value_1'][:7]} vs {e6['value_2'][:7]}",
        evidence={
            "precision_digits": DPS,
            "all_pairs": all_pairs,
            "family": {"pairs": sum(1 for _ in pairs()), "a_values": list(A_VALUES), "b_values": list(B_VALUES),
                       "printed": {"sup_total": f(p_total), "sup_stage1": f(p_stage1), "argmax": p_arg},
                       "corrected": {"sup_total": f(c_total), "sup_stage1": f(c_stage1), "argmax": c_arg},
                       "histogram_module_vs_path_sum": mp.nstr(max(p_dis, c_dis), 3)},
            "laplace_rounding": e6,
            "sample_size_d16_eps1_nu_eta_0.1": {"formula_value": f(n_req), "least_integer_n": n_req_int,
                                                 "corrected_formula_value": f(n_cor), "corrected_least_n": n_cor_int},
            "utility_markov_step": {"printed_markov_step": "E|L| <= 8/nu gives P[|L| > 32/nu] <= 1/4, not 0.25 eta",
                            "repaired_failure_bound_printed_at_n": mp.nstr(fail_printed, 12),
                            "repaired_failure_bound_corrected_at_n": mp.nstr(fail_corrected, 12),
                            "eta": "1/10", "holds": bool(utility_ok)},
            "printed_fails": bool(printed_fails), "corrected_holds_on_all_pairs": bool(corrected_ok),
            "methods_agree": bool(agree),
        },
    )
