"""Thesis Lemma 7.3.3 (= Lemma F.2.1): "the optimum of P1 is attained with m = 2 outputs" -- false below H2.

At eps = 2, R = 0.2635 bit (< H2(e^2/(e^2+1)) = 0.527 bit) an exactly rational m = 3 point, proved
feasible, has V = 0.0464, above the CERTIFIED upper bound 0.0302 of the m = 2 optimum (two routes of
``bcdp.randomness.p1``: the vertex route and the Lagrangian dual).  For R >= H2 the m = 2 and m = 3
enclosures both contain 2c^2 and overlap (the lemma holds there).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.checks.thesis import _p1_common as oracle
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import p1

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.3.3",
    paper="thesis",
    group="randomness",
    where="Lemma 7.3.3, Sec. 7.3.1 (proof: Lemma F.2.1, App. F.2, eqs. (F.15)-(F.16))",
    statement="The optimal solution of the non-convex optimization problem P1 (7.20)-(7.21) is obtained when "
              "the output size is m = 2.",
    expected="erratum",
    erratum="E-Thesis-Lemma7.3.3",
    also_checked_in=("`tests/randomness/test_randomness_p1.py`",),
)

LOW = (Fraction(2), Fraction(527, 2000))
HIGH = (Fraction(1), Fraction(9, 10))


def check() -> ClaimResult:
    eps, r = LOW
    with mpmath.workdps(oracle.DPS):
        assert oracle.mp(r) < oracle.critical_bits(eps)
        a, b = p1.p1_feasible_point(3, eps, r, "bits", starts=0)
        val = oracle.value(a, b)
        point_ok = oracle.feasible(a, b, eps, r) and p1.p1_feasible(a, b, eps, r, "bits") is True \
            and p1.p1_value(a, b) == val
        up_vertex = p1.p1_binary_upper(eps, r, "bits").upper
        up_dual = p1.p1_dual_upper(2, eps, r, "bits").upper
        # oracle: the m = 2 optimum is V at the vertex (p_R, p_R e^-eps) of the folded feasible polygon
        p, big = oracle.p_r(r), mpmath.exp(oracle.mp(eps))
        v2 = (p - p / big) ** 2 * (1 / (p + p / big) + 1 / (2 - p - p / big))
        bounds_ok = oracle.mp(up_vertex) >= v2 and oracle.mp(up_dual) >= v2 and oracle.mp(up_vertex) - v2 < 1e-9 \
            and oracle.mp(up_dual) <= v2 * mpmath.mpf(1.005)      # the dual route is tight to 0.5 % at m = 2
        counter = point_ok and bounds_ok and val > up_vertex and val > up_dual
        e2, r2 = HIGH
        enc2 = p1.p1_solve(2, e2, r2, "bits", starts=0)
        enc3 = p1.p1_solve(3, e2, r2, "bits", starts=0)
        target = oracle.classical(e2)
        holds_high = all(oracle.mp(c.lower) <= target <= oracle.mp(c.upper) for c in (enc2, enc3)) \
            and enc3.lower <= enc2.upper and enc2.lower <= enc3.upper
    ok = counter and holds_high
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"eps = 2, R = 0.2635 bit: exact m = 3 point V = {mpmath.nstr(oracle.mp(val), 5)} > certified m = 2 "
                   f"optimum <= {mpmath.nstr(oracle.mp(up_vertex), 5)} (dual route {mpmath.nstr(oracle.mp(up_dual), 5)}); "
                   f"R >= H2: m = 2 and 3 both enclose 2c^2",
        evidence={"m3_point": {"a": [str(x) for x in a], "b": [str(x) for x in b], "value": mpmath.nstr(oracle.mp(val), 15)},
                  "m2_upper_vertex_route": mpmath.nstr(oracle.mp(up_vertex), 15),
                  "m2_upper_dual_route": mpmath.nstr(oracle.mp(up_dual), 15),
                  "m2_optimum_oracle": mpmath.nstr(v2, 15),
                  "high_randomness": {"eps": "1", "R_bits": "9/10",
                                      "m2": [mpmath.nstr(oracle.mp(x), 12) for x in enc2],
                                      "m3": [mpmath.nstr(oracle.mp(x), 12) for x in enc3]},
                  "corrected": "for R < H2 more outputs help (the optimum found for m = 3 and m = 4 coincide); the m-free "
                               "bound is THESIS-Lemma7.3.2-corrected",
                  "library": "bcdp.randomness.p1 (p1_feasible_point, p1_binary_upper, p1_dual_upper, p1_solve)"},
    )
