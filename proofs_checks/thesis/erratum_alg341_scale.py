"""Thesis Alg 3.4.1 (3.13): the negative output -a H_d(j) must be -r1 H_d(j); any a != r1 is biased.

Printed (Sec. 3.4, the text before Thm 3.4.1, the algorithm box (3.13) and App. B.2): outputs
"+r1 H_d(j) c" and "-a H_d(j) c" with c = (E+1)/(E-1); a is not defined.  With a symbolic a and the
library's exact law (:func:`bcdp.dme.hadamard.l1_hadamard_law`, whose probabilities do not involve a),
sympy gives E[z] = (r1 + a)/(2 r1) x + c (r1 - a)/2 e_1 (e_1 from (1/d) sum_j H_d(j)), so E[z] = x for
every x iff a = r1: the only reading under which Lemma 3.4.1(2) holds.  The probabilities, hence the
LDP guarantee, do not depend on a.  Checked for d in {1, 2, 4, 8}, E in {2, 3, 5/2}, r1 in {1, 3/2},
at a generic rational x (the sympy solution set for a is {r1}) and with the exact counterexample
d = 2, E = 3, r1 = 1, a = 2, x = 0: E[z] = (-1, 0).
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import hadamard

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Alg3.4.1",
    paper="thesis",
    group="dme",
    where="Alg 3.4.1, eq. (3.13), Sec. 3.4; App. B.2",
    statement="R^{l1} outputs +r1 H_d(j)(E+1)/(E-1) or -a H_d(j)(E+1)/(E-1) (a undefined; unbiased only "
              "for a = r1).",
    expected="erratum",
    erratum="E-Thesis-Alg3.4.1",
)


def _sym(v: Fraction) -> sympy.Rational:
    return sympy.Rational(v.numerator, v.denominator)


def mean_with_scale(x: tuple[Fraction, ...], r1: Fraction, E: Fraction, a: sympy.Expr) -> list:
    """E[z] when the '-' output is -a c H_d(j), from the library's law and + outputs."""
    d = len(x)
    law = hadamard.l1_hadamard_law(x, r1, E)
    mean = [sympy.Integer(0)] * d
    for (j, s), prob in law.items():
        z = hadamard.l1_hadamard_output((j, 1), d, r1, E)          # +r1 c H_d(j)
        factor = sympy.Integer(1) if s == 1 else -a / _sym(r1)
        for i in range(d):
            mean[i] += _sym(prob) * factor * _sym(z[i])
    return [sympy.expand(m) for m in mean]


def check() -> ClaimResult:
    a = sympy.Symbol("a")
    fail: list = []
    cells = 0
    for d in (1, 2, 4, 8):
        x = tuple(Fraction((-1) ** i * (i + 1), 4 * d * (d + 1)) for i in range(d))   # ||x||_1 < 1
        for E in (Fraction(2), Fraction(3), Fraction(5, 2)):
            for r1 in (Fraction(1), Fraction(3, 2)):
                cells += 1
                mean = mean_with_scale(x, r1, E, a)
                eqs = [m - _sym(v) for m, v in zip(mean, x)]
                solutions = sympy.solve(eqs, a, dict=True)
                c = _sym((E + 1) / (E - 1))
                predicted = [(r1 + a) / (2 * _sym(r1)) * _sym(v) + (c * (_sym(r1) - a) / 2 if i == 0 else 0)
                             for i, v in enumerate(x)]
                if solutions != [{a: _sym(r1)}] or any(sympy.simplify(m - q) != 0 for m, q in zip(mean, predicted)):
                    keep(fail, {"d": d, "E": str(E), "r1": str(r1), "solutions": str(solutions)})
    cex = [str(v) for v in mean_with_scale((Fraction(0), Fraction(0)), Fraction(1), Fraction(3), sympy.Integer(2))]
    ok = not fail and cex == ["-1", "0"]
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"E[z] = x for all x iff a = r1 ({cells} cells, sympy); d = 2, E = 3, r1 = 1, a = 2, x = 0: "
                   f"E[z] = ({', '.join(cex)}); {len(fail)} failures",
        evidence={"cells": cells, "failures": fail, "counterexample_a2_x0": cex,
                  "mean_formula": "E[z] = (r1 + a)/(2 r1) x + c (r1 - a)/2 e_1",
                  "library": "bcdp.dme.hadamard: l1_hadamard_law and l1_hadamard_output (the + outputs)"},
    )
