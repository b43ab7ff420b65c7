"""The eq. (16) case split decided exactly at its tie (q = 1, zeta = 1), and the float knife-edge.

At q = 1 and zeta = 1, c_d = log(e^{delta~_1}) = delta~_1 exactly, so the test c_d <= delta~_1 is a
tie.  The paper's "<=" gives c_1 = c_d = delta~_1 (here 1/5), which is private (Prop. 4 part 2
gives delta'_1 = min(2/5, 1/5) = 1/5).  Two variants are rejected as the paper's allocation:
* exact arithmetic with the strict "<" of the authors' public code gives c_1 = 0, so the first
  coordinate is never estimated (eq. (17) sum infinite);
* float64 with "<" computes c_d = 0.19999999999999984 < 0.2 and returns c_1 = c_d: the paper's
  answer, by a rounding accident (the authors' public code, BCDP-CodeBase).
"""

from __future__ import annotations

import sympy
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.bayesian.cdp_to_bcdp import prop4_bcdp_bound
from bcdp.bayesian.variants import allocation_exact_strict, allocation_public_code_float
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import compare

CLAIM = ClaimSpec(
    id="BCDP-Thm2-tie",
    paper="bcdp",
    group="allocation",
    where="eq. (16), Sec. 4; the authors' public code (BCDP-CodeBase) uses a strict '<'",
    statement="The eq. (16) split at its exact tie (q = 1, zeta = 1): \"<=\" gives c_1 = delta~_1 and stays "
              "private; the public code's \"<\" gives 0 exactly and 0.19999999999999984 in float64.",
    expected="confirmed",
    also_checked_in=(
        "`tests/bayesian/test_allocation.py::test_tie_at_q_one_zeta_one_is_decided_exactly`",
    ),
)

DELTA = ["0.2", "0.2"] + ["2"] * 8


def check() -> ClaimResult:
    paper = allocate_budgets(DELTA, 2, 1, 1)
    fifth = sympy.Rational(1, 5)
    paper_ok = all(v == fifth for v in paper.c) and paper.branches[0] == "c_d <= delta~_i"
    implied = prop4_bcdp_bound(paper.c_sorted, [1] * 10, eps=paper.c_sorted[-1])
    private = all(compare(implied[i], min(sympy.Rational(DELTA[i]), 2)) <= 0 for i in range(10))
    strict = allocation_exact_strict(DELTA, 2, 1, 1)
    strict_c1_zero = strict.c[0] == 0 and strict.objective is sympy.oo
    fl = allocation_public_code_float([0.2, 0.2] + [2.0] * 8, 2.0, 1.0, 1.0)
    float_accident = fl[-1] < 0.2 and fl[0] == fl[-1]
    ok = paper_ok and private and strict_c1_zero and float_accident
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"exact '<=': c_1 = 1/5; exact '<': c_1 = {strict.c[0]}; float '<': c_d = {fl[-1]!r}, c_1 = {fl[0]!r}",
        evidence={"paper_c": [str(v) for v in paper.c], "paper_private_by_prop4": private,
                  "strict_exact_c": [str(v) for v in strict.c], "strict_objective": str(strict.objective),
                  "float_strict_c": fl},
    )
