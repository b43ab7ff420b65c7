"""Thesis Lemma 7.3.4 (7.32): the Hadamard response's risk is at most 2 k e^{2 eps}/(n q^2 (e^eps - 1)^2).

The check evaluates the library's exact worst case (:func:`bcdp.randomness.hadamard.worst_case_risk`,
the sup over the simplex of a concave quadratic) on a grid of (k, n, q, E = e^eps) with exact rational
E, and compares it with oracles written here (:mod:`._hr_common`): the risk at the library's maximiser
recomputed from (7.29) with blocks from the Sylvester recursion, the exact KKT certificate that the
maximiser is global, and the printed (7.32).  Finding: (7.32) holds everywhere (valid but loose; it uses
s(1-s) <= 1/4 and K < 2k): the ratio bound/worst case ranges from 1.03 (all K = 64 coordinates, k = 33,
q near 1/2) to 500 (q = 1/1000, where the exact worst case is 4 E^2 K (1-q)/(n q (E-1)^2), order 1/q).
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import hadamard

from .._common import keep
from ._hr_common import is_global_max, lemma734_printed, pow2_at_least, risk_oracle

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.3.4",
    paper="thesis",
    group="randomness",
    where="Lemma 7.3.4, Sec. 7.3.2, eq. (7.32) (mechanism (7.27), estimator (7.29)-(7.31))",
    statement="For every p in Delta_k the Hadamard response (7.27) with parameter q and the estimator "
              "(7.31) satisfy E||p - p_hat||_2^2 <= 2 k e^{2 eps}/(n q^2 (e^eps - 1)^2).",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_hadamard.py` (exact enumeration, sympy KKT)",),
)

KS = (2, 3, 4, 5, 8, 9, 16, 33)
ES = (Fraction(11, 10), Fraction(2), Fraction(2718, 1000), Fraction(10))


def check() -> ClaimResult:
    fails: list = []
    points = 0
    slack_min = slack_max = None
    for k in KS:
        big_k = pow2_at_least(k)
        n = 3 * big_k
        for e in ES:
            for q in (Fraction(1, 1000), Fraction(1, 10), Fraction(1, 2), e / (e + 1)):
                for coord in ("all", "first_k"):
                    points += 1
                    wc = hadamard.worst_case_risk(k, n, q, e, coordinates=coord)
                    star = tuple(wc.witness)
                    value = risk_oracle(star, n, q, e, coord)
                    bound = lemma734_printed(k, n, q, e)
                    at_star = hadamard.exact_risk(star, n, q, e, coordinates=coord)   # the risk at any p (7.32)
                    ok = wc.exact == value == at_star and is_global_max(star, q, e) and value <= bound
                    if not ok:
                        keep(fails, {"k": k, "E": str(e), "q": str(q), "coordinates": coord,
                                     "library": str(wc.exact), "oracle": str(value), "bound": str(bound)})
                        continue
                    slack = bound / value
                    slack_min = slack if slack_min is None else min(slack_min, slack)
                    slack_max = slack if slack_max is None else max(slack_max, slack)
    ok = not fails
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=(f"{points} points (k in {KS}, 4 q, 4 E, both coordinate sets): exact worst case <= (7.32); "
                    f"slack bound/worst in [{float(slack_min or 0):.3f}, {float(slack_max or 0):.3f}]"
                    if ok else f"{len(fails)} failures"),
        evidence={"points": points, "failures": fails,
                  "slack_min": str(slack_min), "slack_max": str(slack_max),
                  "finding": "valid but loose: the exact worst case is (4E^2 K/(n q^2 (E-1)^2)) max sum s_j(1-s_j)/K "
                             "= 4E^2 K (1-q)/(n q (E-1)^2) for q <= 1/2 (all K coordinates), times k/K on the first k",
                  "library": "bcdp.randomness.hadamard (worst_case_risk, exact_risk)"},
    )
