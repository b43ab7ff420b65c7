"""Partial DP paper, Thm 15 (proof A.1.3): the two-stage histogram with lambda = 3/eps,
mu = lambda log(16/nu), tau = nu n/2 and Lap(2/eps) counts is claimed eps-nabla0DP (0.5 eps + 0.5 eps).

Exact sup of the output log-ratio (:func:`bcdp.partial_dp_histogram.max_log_ratio`, mpmath 40
digits, factorised over candidates) for d = 4, eps = 1, nu = 1/10, n = 200 (tau = 10), over a family
of neighbouring pairs: x = a x 0000 + b x 1000 + rest x 1011, x' = x with one 0000 record changed to
1000 (one attribute), both directions.  Printed constants: the sup exceeds eps (digest E8 + E9);
stage 1 alone exceeds eps/2.  Corrected constants (lambda = (4/eps)(1 + 16/(16 - nu)), i.e. Lemma 28
at eps/2, and Lap(4/eps)): every pair of the family stays <= eps.  The family is not all neighbours,
so the corrected side is evidence, not a proof; the printed side is a counterexample.
"""

from __future__ import annotations

from collections import Counter

import mpmath as mp

from bcdp.claims import ClaimResult
from bcdp.partial_dp_histogram import corrected_params, lemma28_eps, max_log_ratio, printed_params

EPS, NU, N = 1, mp.mpf(1) / 10, 200
A_VALUES = (1, 4, 7, 10, 11, 13, 16, 19, 22, 25)
B_VALUES = (0, 5, 9, 10, 11, 15, 189)


def pairs():
    for a in A_VALUES:
        for b in B_VALUES:
            rest = N - a - b
            if rest < 0:
                continue
            x = Counter({"0000": a, "1000": b, "1011": rest})
            xp = Counter({"0000": a - 1, "1000": b + 1, "1011": rest})
            yield (a, b), x, xp
            yield (a, b, "reversed"), xp, x


def sweep(params):
    worst_total, worst_stage1, arg_total = -mp.inf, -mp.inf, None
    for key, x, xp in pairs():
        total, lists = max_log_ratio(x, xp, params)
        stage1, _ = max_log_ratio(x, xp, params, stage2=False)
        worst_stage1 = max(worst_stage1, stage1)
        if total > worst_total:
            worst_total, arg_total = total, {"pair": list(key), "L12": lists[0], "L34": lists[1]}
    return worst_total, worst_stage1, arg_total


def check() -> ClaimResult:
    printed, corrected = printed_params(EPS, NU, N), corrected_params(EPS, NU, N)
    p_total, p_stage1, p_arg = sweep(printed)
    c_total, c_stage1, c_arg = sweep(corrected)
    printed_fails = p_total > EPS and p_stage1 > mp.mpf(EPS) / 2
    corrected_ok = c_total <= EPS and c_stage1 <= mp.mpf(EPS) / 2
    n_pairs = sum(1 for _ in pairs())
    verdict = "erratum" if printed_fails and corrected_ok else ("confirmed" if not printed_fails else "refuted")
    f = lambda v: mp.nstr(v, 12)  # noqa: E731
    return ClaimResult(
        claim_id="PDP-Thm15-privacy",
        source="Ghazi-Kumar-Manurangsi-Steinke, partial DP, Thm 15 proof A.1.3 (L3925-L3931); Lemma 28; digest E8, E9",
        statement="PrivHeavyHitter(lambda=3/eps, mu=lambda log(16/nu), tau=nu n/2) is 0.5eps-nabla0DP and "
                  "Lap(2/eps) on the listed counts is 0.5eps-nabla0DP, so the two-stage histogram is eps-nabla0DP",
        verdict=verdict,
        key_figure=(f"d=4, eps=1, nu=1/10, n=200, {n_pairs} neighbouring pairs: printed constants sup log-ratio "
                    f"{f(p_total)} > 1 (stage 1 alone {f(p_stage1)} > 1/2); corrected (lambda=8.025, Lap(4)) "
                    f"{f(c_total)} <= 1"),
        evidence={
            "pairs": n_pairs, "a_values": list(A_VALUES), "b_values": list(B_VALUES),
            "printed": {"lambda": f(printed.lam), "mu": f(printed.mu), "b2": f(printed.b2),
                        "lemma28_stage1_bound": f(lemma28_eps(printed)),
                        "sup_total": f(p_total), "sup_stage1": f(p_stage1), "argmax": p_arg},
            "corrected": {"lambda": f(corrected.lam), "mu": f(corrected.mu), "b2": f(corrected.b2),
                          "lemma28_stage1_bound": f(lemma28_eps(corrected)),
                          "sup_total": f(c_total), "sup_stage1": f(c_stage1), "argmax": c_arg},
            "note": "corrected side checked on this family only (not a proof over all neighbours)",
        },
    )
