"""Thesis (3.34): substituting v^2 of Thm 3.5.2 into (3.33) gives the middle constant 5 x 144 = 720, not 5.

sympy: 5 d^2 s/(n v^2) with v^2 = s n m/(144 L) is 720 d^2 L/(n^2 m); the 2RR variance at parameter v is
exactly 1/v^2 (so the s/v^2 term of (3.33) is not loose).
"""

from __future__ import annotations

import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import calibration as cal

CLAIM = ClaimSpec(
    id="THESIS-eq3.34",
    paper="thesis",
    group="dme",
    where="Thm 3.5.2, eqs. (3.33)-(3.34), Sec. 3.5",
    statement="MSE <= 4 r^2 ((4d^2/(3n))(1/s - 1/d) + 5 d^2 log(1/delta)/(n^2 min{eps^2, eps}) + d/(n 4^m)) (3.34).",
    expected="erratum",
    erratum="E-Thesis-3.34",
)


def check() -> ClaimResult:
    d, s, n, L, m = sympy.symbols("d s n L m", positive=True)
    v2 = s * n * m / (144 * L)
    oracle = sympy.simplify(5 * d ** 2 * s / (n * v2) / (d ** 2 * L / (n ** 2 * m)))
    got = cal.eq334_middle_coefficient()
    w = sympy.symbols("w", positive=True)
    exact_2rr = sympy.simplify(cal.two_rr_variance_at_v(w) - 1 / w) == 0
    ok = got == oracle == 720 and exact_2rr
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"middle coefficient after substitution: {got} (printed 5); 2RR variance = 1/v^2 exactly: {exact_2rr}",
        evidence={"coefficient": str(got), "oracle": str(oracle), "two_rr_variance_is_1_over_v2": exact_2rr,
                  "corrected": "720 d^2 log(1/delta)/(n^2 min{eps^2, eps}) (2160 with the corrected calibration 432)",
                  "library": "bcdp.dme.calibration (eq334_middle_coefficient, two_rr_variance_at_v)"},
    )
