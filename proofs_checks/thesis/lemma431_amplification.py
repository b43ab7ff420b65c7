"""Thesis Lemma 4.3.1 (App. C.1.1), s = 1: if the shuffle Z of ks messages is (eps~, delta~)-DP, a CLDP-SGD round is (ln(1 + q(e^eps~ - 1)), q delta~)-DP.

The O(.) form of eps~ ((C.2), from [BBG19d]) is not testable; what is checked is the lemma's reduction
with no constant: (eps~, delta~) is the EXACT privacy of Z = H_ks(R(x_1), ..., R(x_ks)) over every
replace-one pair of ks-multisets of the gradient domain X (:func:`bcdp.fl.rounds.shuffle_profile`),
and the round's exact delta at e^eps = 1 + q(e^eps~ - 1) is the max over every dataset in X^{nm} and
every neighbour (replace one record, App. C.1; both directions (C.3)-(C.4);
:func:`bcdp.fl.rounds.round_profile`).  Verified: round delta <= q delta~ at every e^eps~ of a grid
(including Z's pure ratio, where delta~ = 0), for 2RR-based randomizers (scalar and 2-d).  The
library's (e^eps, delta) (:func:`bcdp.fl.rounds.lemma431_parameters`) is compared with the printed
formula written here, and the worst pair's delta is recomputed by a brute-force law written here.
Finding: the bound is attained (ratio 1) at e^eps~ = 1 on every instance.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.fl import rounds

from .._common import keep
from ._fl_instances import brute_output_law, dstr, hockey, kernels

CLAIM = ClaimSpec(
    id="THESIS-Lemma4.3.1",
    paper="thesis",
    group="fl",
    where="Lemma 4.3.1, Sec. 4.3.1.1; proof App. C.1, C.1.1, (C.3)-(C.8)",
    statement="For s = 1 and q = k/(mn): if Z = H_ks is (eps~, delta~)-DP then each round M_t of CLDP-SGD is "
              "(ln(1 + q(e^eps~ - 1)), q delta~)-DP (replace-one neighbours).",
    expected="confirmed",
    also_checked_in=("`tests/fl/test_fl_rounds_privacy.py`",),
)

RATIOS = (Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5), Fraction(9))
#: (kernel index in _fl_instances.kernels(), sizes (n, m, k, s)); s = 1 throughout.
CASES = ((0, (3, 2, 2, 1)), (0, (4, 3, 2, 1)), (0, (2, 3, 1, 1)), (1, (3, 2, 2, 1)), (1, (4, 2, 2, 1)),
         (1, (3, 3, 2, 1)), (2, (3, 2, 2, 1)), (2, (2, 3, 1, 1)), (3, (2, 2, 1, 1)), (3, (2, 3, 1, 1)))


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    kers = kernels()
    points = 0
    for idx, (n, m, k, s) in CASES:
        label, ker = kers[idx]
        q = Fraction(k, m * n)
        Z = rounds.shuffle_profile(ker, k * s, RATIOS)
        params = {r: rounds.lemma431_parameters(n, m, k, s, r, Z[r]["delta"]) for r in RATIOS}
        for r in RATIOS:
            if params[r] != (1 + q * (r - 1), q * Z[r]["delta"]):
                keep(fails, {"kernel": label, "sizes": [n, m, k, s], "ratio~": str(r), "what": "parameters",
                             "library": [str(v) for v in params[r]]})
        prof = rounds.round_profile(ker, n, m, k, s, [params[r][0] for r in RATIOS])
        worst = Fraction(0)
        for r in RATIOS:
            points += 1
            ratio, bound = params[r]
            got = prof[ratio]
            if got["delta"] > bound:
                keep(fails, {"kernel": label, "sizes": [n, m, k, s], "ratio~": str(r), "delta~": str(Z[r]["delta"]),
                             "round_delta": str(got["delta"]), "bound": str(bound), "dataset": dstr(got["dataset"]),
                             "neighbour": dstr(got["neighbour"])})
            if bound > 0:
                worst = max(worst, got["delta"] / bound)
            if got["dataset"] is not None and r == RATIOS[0]:
                P = brute_output_law(got["dataset"], ker, k, s)
                Q = brute_output_law(got["neighbour"], ker, k, s)
                if max(hockey(P, Q, ratio), hockey(Q, P, ratio)) != got["delta"]:
                    keep(fails, {"kernel": label, "sizes": [n, m, k, s], "what": "brute-force delta of the worst pair"})
        rows.append({"kernel": label, "n,m,k,s": [n, m, k, s], "q": str(q),
                     "delta~(e^eps~=3/2)": str(Z[Fraction(3, 2)]["delta"]),
                     "round_delta(1+q/2)": str(prof[params[Fraction(3, 2)][0]]["delta"]),
                     "max round_delta/(q delta~)": str(worst)})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{len(CASES)} instances x {len(RATIOS)} ratios: exact round delta <= q delta~ at "
                   f"e^eps = 1 + q(e^eps~ - 1) everywhere ({points} points, {len(fails)} failures); tight at eps~ = 0",
        evidence={"instances": rows, "ratios~": [str(r) for r in RATIOS], "failures": fails,
                  "relation": "replace one record d_ij (App. C.1), both directions; eps~, delta~ = exact profile of "
                              "H_ks over all replace-one pairs of ks-multisets of the domain",
                  "library": "bcdp.fl.rounds (shuffle_profile, round_profile, lemma431_parameters, output_law)"},
    )
