"""Corrected Lemma 7.3.2, case 2 (ours, docs/errata.md E-Thesis-Lemma7.3.2): for R < H2(e^eps/(e^eps+1))
and every output size m, the optimum of P1 is at most V_bar = 2 p_R c^2 + p_R^2/(2(1 - p_R)).

Checked on a grid of (eps, R < H2): ``p1.corrected_lemma732_bound`` agrees with an mpmath oracle of
the formula, and it is at least the CERTIFIED upper bound of P1 from the independent Lagrangian
route (``p1.p1_dual_upper``) for m = 2, 3, 4 -- hence at least the true optimum -- and at least the
value of exact feasible points.  The proof is in the docstring of ``bcdp.randomness.p1``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.checks.thesis import _p1_common as oracle
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.errors import ValidityConditionError
from bcdp.randomness import p1

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.3.2-corrected",
    paper="thesis",
    group="randomness",
    where="Lemma 7.3.2, Sec. 7.3.1, eq. (7.19) case R < H2 (corrected; problem P1 (7.20)-(7.21))",
    statement="For R < H2(e^eps/(e^eps+1)) and any output size, the optimum of P1 is at most "
              "2 p_R (e^eps-1)^2/(e^eps+1)^2 + p_R^2/(2(1-p_R)) (p_R = H2^{-1}(R)).",
    expected="confirmed",
    also_checked_in=("`reference/bcdp/randomness/p1.py` (proof)", "`tests/randomness/test_randomness_p1.py`"),
)

EPS = (Fraction(1, 2), Fraction(1), Fraction(2))
FRACTIONS_OF_H2 = (Fraction(1, 20), Fraction(1, 2), Fraction(9, 10))
POINTS = ((Fraction(2), Fraction(527, 2000), 3), (Fraction(1), Fraction(21, 125), 3))


def check() -> ClaimResult:
    fails, rows, worst = [], 0, Fraction(0)
    with mpmath.workdps(oracle.DPS):
        for eps in EPS:
            crit = oracle.critical_bits(eps)
            for frac in FRACTIONS_OF_H2:
                r = Fraction(mpmath.nstr(crit * oracle.mp(frac), 8))
                vbar = p1.corrected_lemma732_bound(eps, r, "bits")
                exact = oracle.corrected(eps, r)
                formula_ok = oracle.mp(vbar.lower) <= exact <= oracle.mp(vbar.upper)
                for m in (2, 3, 4):
                    rows += 1
                    up = p1.p1_dual_upper(m, eps, r, "bits", splits=2).upper
                    worst = max(worst, up / vbar.lower)
                    if not (formula_ok and up <= vbar.lower):
                        fails.append({"eps": str(eps), "R_bits": str(r), "m": m, "dual_upper": float(up),
                                      "V_bar": float(vbar.lower), "formula_ok": formula_ok})
        points = []
        for eps, r, m in POINTS:
            a, b = p1.p1_feasible_point(m, eps, r, "bits", starts=0)
            val = oracle.value(a, b)
            ok = oracle.feasible(a, b, eps, r) and oracle.mp(val) <= oracle.corrected(eps, r)
            points.append({"eps": str(eps), "R_bits": str(r), "m": m, "value": float(val),
                           "V_bar": float(oracle.corrected(eps, r)), "ok": ok})
    try:
        p1.corrected_lemma732_bound(Fraction(1), Fraction(9, 10), "bits")   # R > H2: outside the statement
        refused = False
    except ValidityConditionError:
        refused = True
    ok = not fails and all(p["ok"] for p in points) and refused
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"V_bar >= certified P1 upper bound at {rows - len(fails)}/{rows} (eps, R < H2, m) points "
                   f"(max dual/V_bar = {float(worst):.3f}); feasible points below V_bar",
        evidence={"failures": fails[:5], "points": points, "refused_above_H2": refused,
                  "max_ratio_dual_upper_over_V_bar": float(worst),
                  "library": "bcdp.randomness.p1 (corrected_lemma732_bound, p1_dual_upper, p1_feasible_point)"},
    )
