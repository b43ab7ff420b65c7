"""Thesis Sec. 4.3.1.1 (proof of Thm 4.3.1, privacy): the intermediate condition eps0 = O(sqrt(n log(1/delta')/(qT log(1/delta~)))) drops a factor m; harmless.

The proof needs eps-bar = O(sqrt(log(1/delta')/T)) for strong composition (Lemma 2.1.2), with
eps-bar = eps0 sqrt(q log(1/delta~)/(mn)) from Lemma 4.3.1 (constants set to 1).  Solving exactly
(sympy) gives eps0* = sqrt(mn log(1/delta')/(qT log(1/delta~))); the printed intermediate line has n
in place of mn (smaller by the factor sqrt(m): a stronger, still sufficient condition), while the next
printed line, after delta~ = delta/(2qT) and delta' = delta/2, is exactly eps0* with the m
(sqrt(mn log(2/delta)/(qT log(2qT/delta)))).  So the missing m is a typo in one line of the
proof: Lemma 4.3.1's own condition eps0 <= log(qmn/log(1/delta~))/2 and Thm 4.3.1 are unaffected.
Pure paper math (no library function implements this O(.) step).
"""

from __future__ import annotations

import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import PAPER_ONLY

CLAIM = ClaimSpec(
    id="THESIS-Thm4.3.1-eps0-condition",
    paper="thesis",
    group="fl",
    where="Thm 4.3.1, proof of privacy, Sec. 4.3.1.1 (after Lemma 4.3.1; strong composition Lemma 2.1.2)",
    statement="The composition condition eps-bar = O(sqrt(log(1/delta')/T)) is met by choosing "
              "eps0 = O(sqrt(n log(1/delta')/(qT log(1/delta~)))), giving eps0 = O(sqrt(mn log(2/delta)/(qT log(2qT/delta)))).",
    expected="erratum",
    erratum="E-Thesis-Thm4.3.1-eps0",
)


def check() -> ClaimResult:
    e0, q, m, n, T, Lt, Lp, delta = sympy.symbols("eps0 q m n T Ltilde Lprime delta", positive=True)
    eps_bar = e0 * sympy.sqrt(q * Lt / (m * n))
    solved = sympy.solve(sympy.Eq(eps_bar, sympy.sqrt(Lp / T)), e0)
    exact = solved[0] if len(solved) == 1 else None
    printed_mid = sympy.sqrt(n * Lp / (q * T * Lt))
    printed_final = sympy.sqrt(m * n * sympy.log(2 / delta) / (q * T * sympy.log(2 * q * T / delta)))
    ratio = sympy.simplify(exact / printed_mid) if exact is not None else None
    final_ok = exact is not None and sympy.simplify(
        exact.subs({Lt: sympy.log(2 * q * T / delta), Lp: sympy.log(2 / delta)}) ** 2 - printed_final ** 2) == 0
    mid_sufficient = exact is not None and sympy.simplify(eps_bar.subs(e0, printed_mid) - sympy.sqrt(Lp / T) / sympy.sqrt(m)) == 0
    ok = ratio == sympy.sqrt(m) and final_ok and mid_sufficient
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"solved eps0* = {exact}; printed intermediate = eps0*/{ratio}; the final printed line equals eps0* "
                   f"after the substitution (squares compared): {final_ok}",
        evidence={"solved": str(exact), "printed_intermediate": str(printed_mid), "ratio": str(ratio),
                  "printed_final": str(printed_final), "final_line_matches": final_ok,
                  "intermediate_gives_eps_bar": "sqrt(log(1/delta')/T)/sqrt(m) (sufficient, stronger by sqrt(m))",
                  "corrected": "eps0 = O(sqrt(mn log(1/delta')/(qT log(1/delta~)))): a typo, no effect on Thm 4.3.1",
                  "library": f"{PAPER_ONLY} (an O(.) step of the proof of Thm 4.3.1; checked with sympy)"},
    )
