"""Erratum: the remark after Theorem 2 that c_1 = (1 - zeta) delta_1 whenever c_d is set by the
log term of eq. (16) holds only when that c_d exceeds delta~_1.

If c_d = log((e^{zeta delta~_1} + q - 1)/q) <= delta~_1, which happens exactly when
q >= (e^{zeta delta~_1} - 1)/(e^{delta~_1} - 1), eq. (16) takes the branch c_1 = c_d.
Counterexample: delta = (1/5, 2), eps = 2, zeta = 1/2, q = 9/10 gives
c_1 = c_d = log((e^{1/10} - 1/10)/(9/10)) ~ 0.1105, not 1/10.  Correction: c_1 = (1 - zeta) delta~_1
iff q < (e^{zeta delta~_1} - 1)/(e^{delta~_1} - 1), else c_1 = c_d.  The check confirms the
counterexample and the corrected statement on a grid of q and zeta.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import compare, to_float

from .._common import keep

CLAIM = ClaimSpec(
    id="BCDP-Thm2-remark-c1",
    paper="bcdp",
    group="allocation",
    where="remark after Thm. 2, Sec. 4",
    statement="Printed: c_1 = (1 - zeta) delta_1 whenever the log term sets c_d. Holds only if c_d > "
              "delta~_1.",
    expected="erratum",
    erratum="E-Thm2-c1",
)


def check() -> ClaimResult:
    delta = [Fraction(1, 5), Fraction(2)]
    alloc = allocate_budgets(delta, 2, Fraction(9, 10), Fraction(1, 2))
    counter = compare(alloc.c[0], Fraction(1, 10)) != 0 and compare(alloc.c[0], alloc.c[1]) == 0
    wrong: list = []
    n = 0
    for zeta in (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1)):
        for q in (Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1, 2), Fraction(7, 10),
                  Fraction(9, 10), Fraction(1)):
            a = allocate_budgets(delta, 2, q, zeta)
            if "log-term" not in a.branches[-1] and "tie" not in a.branches[-1]:
                continue
            n += 1
            d1 = sympy.Rational(1, 5)
            thr = (sympy.exp(zeta * d1) - 1) / (sympy.exp(d1) - 1)
            expected = (1 - sympy.Rational(zeta.numerator, zeta.denominator)) * d1 \
                if compare(q, thr) < 0 else a.c[1]
            if compare(a.c[0], expected) != 0:
                keep(wrong, {"zeta": str(zeta), "q": str(q), "c_1": str(a.c[0])})
    ok = counter and not wrong and n > 0
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"delta=(1/5,2), zeta=1/2, q=9/10: c_1 = {to_float(alloc.c[0]):.6f} != 0.1; "
                   f"corrected rule holds on {n} grid points",
        evidence={"counterexample_c": [str(v) for v in alloc.c], "counterexample_holds": counter,
                  "grid_points_log_branch": n, "corrected_rule_failures": wrong},
    )
