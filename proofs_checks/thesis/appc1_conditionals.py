"""Thesis App. C.1, (C.6)-(C.8): the conditional laws A11, A10, A0 of a CLDP-SGD round satisfy A11 <= e^eps~ A'11 + delta~ and A11 <= e^eps~ A10 + delta~ for every s, and A11 <= e^eps~ A0 + delta~ for s = 1 -- which fails for s > 1.

(eps~, delta~) is the exact profile of Z = H_ks over replace-one pairs of ks-multisets
(:func:`bcdp.fl.rounds.shuffle_profile`); A11, A10, A0 are the exact conditional laws of (C.5)
(:func:`bcdp.fl.rounds.conditional_laws`, checked here against a direct enumeration of the samples);
each inequality, for all events S at once, is H_{e^eps~}(A11 || .) <= delta~.  Every dataset of
X^{nm} (X = {-1, 1}) and every replacement of d_11 are covered.  The thesis says (C.8) "only holds for
s = 1 and may not hold for arbitrary s": confirmed with an exact counterexample, which is why App.
C.1.2 only gets the factor q2 = s/m.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.fl import rounds

from .._common import keep
from ._fl_instances import dstr, hockey, kernels

CLAIM = ClaimSpec(
    id="THESIS-AppC.1-C6-C8",
    paper="thesis",
    group="fl",
    where="App. C.1, (C.5)-(C.8), C.1.1 and C.1.2 (proof of Lemma 4.3.1)",
    statement="With Z = H_ks (eps~, delta~)-DP: A11 <= e^eps~ A'11 + delta~ (C.6) and A11 <= e^eps~ A10 + delta~ (C.7) "
              "for every s; A11 <= e^eps~ A0 + delta~ (C.8) for s = 1, and it may fail for s > 1.",
    expected="confirmed",
    also_checked_in=("`tests/fl/test_fl_rounds_privacy.py`",),
)

RATIOS = (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3))
CASES = ((0, (3, 2, 2, 1)), (0, (2, 3, 1, 1)), (1, (3, 2, 2, 1)), (0, (2, 3, 1, 2)), (0, (3, 2, 1, 2)), (1, (2, 3, 1, 2)))


def _direct(D, ker, k, s):
    """A11, A10, A0 by listing the samples and joint outputs (written here)."""
    n, m = len(D), len(D[0])
    acc: dict = {"A11": {}, "A10": {}, "A0": {}}
    for U in itertools.combinations(range(n), k):
        for Ss in itertools.product(list(itertools.combinations(range(m), s)), repeat=k):
            ev = "A0" if 0 not in U else ("A11" if 0 in Ss[U.index(0)] else "A10")
            inputs = [D[i][j] for i, S in zip(U, Ss) for j in S]
            for joint in itertools.product(*[list(ker[x].items()) for x in inputs]):
                w = Fraction(1)
                for _, p in joint:
                    w *= p
                key = tuple(sorted((y,) for y, _ in joint))
                acc[ev][key] = acc[ev].get(key, Fraction(0)) + w
    return {e: {o: w / sum(law.values()) for o, w in law.items()} for e, law in acc.items() if law}


def check() -> ClaimResult:
    fails: list = []
    c8_fail: list = []
    kers = kernels()
    counts = {"C6": 0, "C7": 0, "C8": 0}
    for idx, (n, m, k, s) in CASES:
        label, ker = kers[idx]
        dom = sorted(ker)
        Z = rounds.shuffle_profile(ker, k * s, RATIOS)
        for flat in itertools.product(dom, repeat=n * m):
            D = tuple(tuple(flat[i * m:(i + 1) * m]) for i in range(n))
            A = rounds.conditional_laws(D, ker, k, s)
            if idx == 0 and flat[0] == dom[0] and A != _direct(D, ker, k, s):
                keep(fails, {"kernel": label, "dataset": dstr(D), "what": "conditional laws vs direct enumeration"})
            for v in dom:
                if v == D[0][0]:
                    continue
                D2 = ((v,) + D[0][1:],) + D[1:]
                A2 = rounds.conditional_laws(D2, ker, k, s)
                for r in RATIOS:
                    dt = Z[r]["delta"]
                    tests = {"C6": A2["A11"]}
                    if "A10" in A:
                        tests["C7"] = A["A10"]
                    if "A0" in A:
                        tests["C8"] = A["A0"]
                    for name, other in tests.items():
                        counts[name] += 1
                        d = hockey(A["A11"], other, r)
                        if d > dt:
                            row = {"kernel": label, "n,m,k,s": [n, m, k, s], "ineq": name, "e^eps~": str(r),
                                   "delta~": str(dt), "H(A11||.)": str(d), "dataset": dstr(D)}
                            if name == "C8" and s > 1:
                                c8_fail.append(row)
                            else:
                                keep(fails, row)
    ok = not fails and bool(c8_fail)
    ex = c8_fail[0] if c8_fail else {}
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"(C.6) at {counts['C6']}, (C.7) at {counts['C7']} points hold; (C.8) holds for s = 1 and fails at "
                   f"{len(c8_fail)} s > 1 points (e.g. {ex.get('kernel')}, (n,m,k,s) = {ex.get('n,m,k,s')}, e^eps~ = "
                   f"{ex.get('e^eps~')}: H = {ex.get('H(A11||.)')} > delta~ = {ex.get('delta~')})",
        evidence={"c8_counterexamples_s_gt_1": c8_fail[:5], "counts": counts, "failures": fails,
                  "library": "bcdp.fl.rounds (conditional_laws, shuffle_profile)"},
    )
