"""Erratum in Example 1: "finite multiplicative ranges for all a, b, c in (0, 1]" fails at corners.

Printed (BCDP paper, Example 1, Sec. 3.3): with a, b, c in (0, 1], P{M(x) = y | x_i = 0} and
P{M(x) = y | x_i = 1} "have a finite multiplicative ranges in y = 0, 1, for both i = 1, 2".

But P{M = 0 | x_1 = 1} = 1 - (b + c)/2 vanishes at b = c = 1 while P{M = 0 | x_1 = 0} = 1 - a/2
>= 1/2, so delta_1 = infinity there; likewise P{M = 0 | x_2 = 0} = 1 - (a + b)/2 vanishes at
a = b = 1 while P{M = 0 | x_2 = 1} = 1 - c/2 > 0, so delta_2 = infinity.

The check derives, symbolically (zero sets of the affine conditional laws on (0, 1]^3, see
``_example1_symbolic.zero_condition``), the exact set where delta_i is infinite, confirms the
counterexamples with the engine, and verifies the corrected statement -- delta_1 < infinity iff
b + c < 2, delta_2 < infinity iff a + b < 2 (so both finite iff not (b = c = 1) and not
(a = b = 1); in particular for all a, b, c in (0, 1)) -- at every sampled point.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from bcdp import Prior, bcdp_vector, conditional_output_laws
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import SQUARE, example1_mechanism, keep, vec_str
from . import _example1_symbolic as sym
from .example1_bcdp_not_ldp import sample_points

CLAIM = ClaimSpec(
    id="BCDP-Example1-range",
    paper="bcdp",
    group="notions",
    where="Example 1, Sec. 3.3 (the parameter range a, b, c in (0, 1])",
    statement="Printed: for all a, b, c in (0, 1] both BCDP ratios are finite. False at b = c = 1 (delta_1 = "
              "inf) and a = b = 1 (delta_2 = inf); corrected: delta_1 < inf iff b + c < 2, delta_2 < inf iff "
              "a + b < 2.",
    expected="erratum",
    erratum="E1",
)

COUNTEREXAMPLES = [(Fraction(1, 2), Fraction(1), Fraction(1)),   # b = c = 1: delta_1 infinite
                   (Fraction(1), Fraction(1), Fraction(1, 2)),   # a = b = 1: delta_2 infinite
                   (Fraction(1), Fraction(1), Fraction(1))]      # both infinite


def corrected_finite(i: int, va: Fraction, vb: Fraction, vc: Fraction) -> bool:
    """The corrected condition: delta_1 finite iff b + c < 2, delta_2 finite iff a + b < 2."""
    return vb + vc < 2 if i == 0 else va + vb < 2


def check() -> ClaimResult:
    prior = Prior.uniform(SQUARE)
    inf_conditions = [sym.infinite_condition(i) for i in (0, 1)]
    expected = [sympy.And(sym.IS_ONE[sym.b], sym.IS_ONE[sym.c]), sympy.And(sym.IS_ONE[sym.a], sym.IS_ONE[sym.b])]
    symbolic_matches_correction = all(sympy.simplify_logic(sympy.Xor(got, want)) == sympy.false
                                      for got, want in zip(inf_conditions, expected))

    # the printed claim fails: engine values at the corners
    corners = []
    corner_infinite = True
    printed_claim_fails = False
    for va, vb, vc in COUNTEREXAMPLES:
        mech = example1_mechanism(va, vb, vc)
        vec = bcdp_vector(mech, prior)
        printed_claim_fails |= any(d.is_infinite for d in vec)
        laws = {}
        for i in (0, 1):
            laws[f"x{i + 1}"] = {str(v): [str(p) for p in law]
                                 for v, law in conditional_output_laws(mech, prior, i).items()}
        expect_inf = [not corrected_finite(i, va, vb, vc) for i in (0, 1)]
        corner_infinite &= all(vec[i].is_infinite == expect_inf[i] for i in (0, 1)) and any(expect_inf)
        corners.append({"abc": [str(va), str(vb), str(vc)], "delta": vec_str(vec),
                        "witnesses": [d.witness for d in vec], "conditional_laws": laws})

    # the corrected statement holds at every sampled point (engine and symbolic condition)
    n_points = n_disagree = 0
    disagreements: list = []
    for va, vb, vc in sample_points():
        vec = bcdp_vector(example1_mechanism(va, vb, vc), prior)
        values = {sym.a: va, sym.b: vb, sym.c: vc}
        n_points += 1
        for i in (0, 1):
            corrected = corrected_finite(i, va, vb, vc)
            symbolic = not sym.evaluate_condition(inf_conditions[i], values)
            if (not vec[i].is_infinite) != corrected or symbolic != corrected:
                n_disagree += 1
                keep(disagreements, {"abc": [str(va), str(vb), str(vc)], "coordinate": i,
                                     "engine": str(vec[i].exact), "corrected_says_finite": corrected,
                                     "symbolic_says_finite": symbolic})

    correction_holds = symbolic_matches_correction and n_disagree == 0
    if printed_claim_fails and corner_infinite and correction_holds:
        verdict = "erratum"
    elif not printed_claim_fails and all(c == sympy.false for c in inf_conditions):
        verdict = "confirmed"
    else:
        verdict = "refuted"
    return CLAIM.result(
        verdict=verdict,
        key_figure=f"(a,b,c) = (1/2,1,1): delta = ({corners[0]['delta'][0]}, {corners[0]['delta'][1]}); "
                   f"(1,1,1/2): delta = ({corners[1]['delta'][0]}, {corners[1]['delta'][1]})",
        evidence={
            "printed_claim": "parameters a, b, c in (0, 1] ... P{M(x)=y|x_i=0} and P{M(x)=y|x_i=1} have finite "
                             "multiplicative ranges in y = 0, 1, for both i = 1, 2",
            "symbolic_infinite_sets": {"delta_1": str(inf_conditions[0]), "delta_2": str(inf_conditions[1])},
            "symbolic_matches_correction": symbolic_matches_correction,
            "counterexamples": corners,
            "correction": "delta_1 finite iff b + c < 2; delta_2 finite iff a + b < 2 (on (0,1]^3: iff not "
                          "b = c = 1, resp. not a = b = 1); in particular finite for all a, b, c in (0, 1)",
            "correction_checked_points": n_points, "correction_disagreements": n_disagree,
            "disagreement_examples": disagreements,
            "errata_entry": "E1 (Example 1 parameter range)",
        },
    )
