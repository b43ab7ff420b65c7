"""Thesis App. C.1.2 and Remark C.1.1: for s > 1 a CLDP-SGD round is (ln(1 + q2(e^eps~ - 1)), q delta~)-DP with q2 = s/m, and only q2 (not q = ks/(mn)) amplifies eps.

Same exact machinery as the Lemma 4.3.1 check (:mod:`bcdp.fl.rounds`: shuffle_profile = exact
(eps~, delta~) of Z = H_ks, round_profile = exact worst delta of a round over replace-one
neighbours).  Confirmed two ways: (a) the App. C.1.2 bound (:func:`bcdp.fl.rounds.appc12_parameters`,
compared with the printed formula written here) holds at every point; (b) the s = 1 amplification by
q is false for s > 1: exact counterexamples (Remark C.1.1's caution is necessary, not an artefact of
the proof; the culprit is (C.8), which compares samples differing in s records).
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.fl import rounds

from .._common import keep
from ._fl_instances import dstr, kernels

CLAIM = ClaimSpec(
    id="THESIS-AppC.1.2",
    paper="thesis",
    group="fl",
    where="App. C.1.2 and Remark C.1.1 (Remark 4.3.1, Sec. 4.3)",
    statement="For s > 1, a CLDP-SGD round is (ln(1 + q2(e^eps~ - 1)), q delta~)-DP with q2 = s/m; only the "
              "factor q2, not q = ks/(mn), amplifies eps.",
    expected="confirmed",
    also_checked_in=("`tests/fl/test_fl_rounds_privacy.py`",),
)

RATIOS = (Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5), Fraction(9))
CASES = ((0, (2, 2, 1, 2)), (0, (3, 3, 1, 2)), (0, (3, 3, 2, 2)), (1, (2, 3, 1, 2)), (1, (3, 3, 1, 2)),
         (2, (2, 3, 1, 2)), (3, (2, 2, 1, 2)))


def check() -> ClaimResult:
    fails: list = []
    counter: list = []
    kers = kernels()
    points = violations = 0
    for idx, (n, m, k, s) in CASES:
        label, ker = kers[idx]
        q, q2 = Fraction(k * s, m * n), Fraction(s, m)
        Z = rounds.shuffle_profile(ker, k * s, RATIOS)
        params = {r: rounds.appc12_parameters(n, m, k, s, r, Z[r]["delta"]) for r in RATIOS}
        for r in RATIOS:
            if params[r] != (1 + q2 * (r - 1), q * Z[r]["delta"]):
                keep(fails, {"kernel": label, "sizes": [n, m, k, s], "what": "parameters", "ratio~": str(r)})
        by_q2 = rounds.round_profile(ker, n, m, k, s, [params[r][0] for r in RATIOS])
        by_q = rounds.round_profile(ker, n, m, k, s, [1 + q * (r - 1) for r in RATIOS])
        for r in RATIOS:
            points += 1
            got = by_q2[params[r][0]]
            if got["delta"] > params[r][1]:
                keep(fails, {"kernel": label, "sizes": [n, m, k, s], "ratio~": str(r),
                             "round_delta": str(got["delta"]), "bound": str(params[r][1])})
            bad = by_q[1 + q * (r - 1)]
            if bad["delta"] > q * Z[r]["delta"]:
                violations += 1
                keep(counter, {"kernel": label, "n,m,k,s": [n, m, k, s], "q": str(q), "q2": str(q2),
                               "e^eps~": str(r), "delta~": str(Z[r]["delta"]), "e^eps = 1+q(e^eps~-1)": str(1 + q * (r - 1)),
                               "round_delta": str(bad["delta"]), "q delta~": str(q * Z[r]["delta"]),
                               "dataset": dstr(bad["dataset"]), "neighbour": dstr(bad["neighbour"])})
    ok = not fails and violations > 0
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"q2-bound holds at {points - len(fails)}/{points} points; the q-bound of s = 1 fails at "
                   f"{violations}/{points}" + (f" (e.g. {counter[0]['kernel']}, (n,m,k,s) = {tuple(counter[0]['n,m,k,s'])}, "
                                              f"e^eps~ = {counter[0]['e^eps~']}: round delta {counter[0]['round_delta']} > "
                                              f"q delta~ = {counter[0]['q delta~']})" if counter else ""),
        evidence={"q_amplification_counterexamples": counter, "violations": violations, "points": points,
                  "failures": fails,
                  "library": "bcdp.fl.rounds (shuffle_profile, round_profile, appc12_parameters)"},
    )
