"""Thesis Remark 3.4.1: "B^d_p(r) is a subset of B^d_1(r)" is reversed; R^{l1} covers B_p(r) only at r1 = d^{1-1/p} r.

Printed (Remark 3.4.1, Sec. 3.4): for p in [1, 2), ||x||_q <= ||x||_p (p <= q) gives B_p(r) inside
B_1(r), hence MSE^{lp} <= MSE^{l1}.  The norm inequality gives the opposite inclusion (B_1(r) inside
B_p(r), as the proof of Thm 3.4.3 in Sec. 3.4.1 uses).  Counterexample: x = (3/5, 3/5), p = 3/2, r = 1
(||x||_{3/2}^{3/2} = 2 (3/5)^{3/2} <= 1, ||x||_1 = 6/5).  Running Alg 3.4.1 with r1 = r on it: (3.13)
gives P[(j=1, -)] = (1/2)(1/2 - (6/5)(E-1)/(2(E+1))); at E = 3 the ratio between x and -x is 4 > E,
at E = 11 a probability is 0 (infinite ratio), at E = 21 it is negative (not a law).  Corrected: B_p(r)
is inside B_1(d^{1-1/p} r) (Hoelder, tight at the constant vector), so R^{l1} run with
r1 = :func:`bcdp.dme.hadamard.lp_ball_l1_radius` is eps0-LDP on B_p(r) with MSE <= r^2 d^{3-2/p} c^2.
The check computes the printed-radius probabilities with its own oracle, requires the library to
refuse the input at r1 = r, and verifies the corrected radius with the library's exact laws (points
on the l_p sphere with rational l1 radius: d = 8, p = 3/2 and d = 16, p = 4/3, where d^{1-1/p} = 2).
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.errors import InvalidInputError
from bcdp.dme import hadamard

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Rem3.4.1",
    paper="thesis",
    group="dme",
    where="Remark 3.4.1, Sec. 3.4 (cf. the inclusion used in Sec. 3.4.1)",
    statement="For p in [1,2), B^d_p(r) is a subset of B^d_1(r), so the l1 scheme bounds the l_p MSE "
              "(printed: the inclusion is reversed; corrected radius r1 = d^{1-1/p} r).",
    expected="erratum",
    erratum="E-Thesis-Rem3.4.1",
)


def printed_radius_probabilities(x: tuple[Fraction, ...], r: Fraction, E: Fraction) -> dict:
    """(3.13) at r1 = r for x outside B_1(r): message -> (signed) probability (oracle, not the library)."""
    d = len(x)
    out = {}
    for j in range(d):
        t = sum((-1) ** bin(i & j).count("1") * v for i, v in enumerate(x))
        plus = Fraction(1, 2) + t / (2 * r) * (E - 1) / (E + 1)
        out[(j, 1)], out[(j, -1)] = plus / d, (1 - plus) / d
    return out


def _lp_norm_at_most(x: tuple[Fraction, ...], p: Fraction, r: Fraction) -> bool:
    ps = sympy.Rational(p.numerator, p.denominator)
    return bool(sum(sympy.Abs(sympy.Rational(v.numerator, v.denominator)) ** ps for v in x)
                <= sympy.Rational(r.numerator, r.denominator) ** ps)


def check() -> ClaimResult:
    x, p, r = (Fraction(3, 5), Fraction(3, 5)), Fraction(3, 2), Fraction(1)
    in_lp, in_l1 = _lp_norm_at_most(x, p, r), sum(x) <= r
    printed = {}
    for E in (Fraction(3), Fraction(11), Fraction(21)):
        law, law_neg = printed_radius_probabilities(x, r, E), printed_radius_probabilities(tuple(-v for v in x), r, E)
        minimum = min(law.values())
        ratio = (max(law[m] / law_neg[m] for m in law) if min(law_neg.values()) > 0 else "inf")
        try:
            hadamard.l1_hadamard_law(x, r, E)
            refused = False
        except InvalidInputError:
            refused = True
        printed[str(E)] = {"min_probability": str(minimum), "ratio_x_vs_minus_x": str(ratio),
                           "library_refuses_r1_equal_r": refused}
    printed_wrong = in_lp and not in_l1 and printed["3"]["ratio_x_vs_minus_x"] == "4" \
        and Fraction(printed["21"]["min_probability"]) < 0
    refusals_ok = all(v["library_refuses_r1_equal_r"] for v in printed.values())
    # corrected radius: exact laws of the library on l_p-sphere points, ratio <= E; Hoelder tight
    corrected_fail: list = []
    checked = 0
    for d, pp in ((2, Fraction(3, 2)), (8, Fraction(3, 2)), (16, Fraction(4, 3))):
        r1 = hadamard.lp_ball_l1_radius(d, r, pp)
        const = [sympy.Rational(1) * sympy.Integer(d) ** (-1 / sympy.Rational(pp.numerator, pp.denominator))] * d
        if sympy.simplify(sum(const) - r1) != 0:
            keep(corrected_fail, {"d": d, "p": str(pp), "r1": str(r1), "problem": "not tight"})
        if not r1.is_Rational:
            continue
        r1f = Fraction(int(r1.p), int(r1.q))
        cvec = tuple(r1f / d for _ in range(d))                 # the constant vector on the l_p sphere
        candidates = [cvec, tuple(-v for v in cvec), tuple(v if i % 2 else -v for i, v in enumerate(cvec)),
                      x + (Fraction(0),) * (d - 2), tuple(v / 2 for v in x) + (Fraction(0),) * (d - 2)]
        pts = [q for q in candidates if _lp_norm_at_most(q, pp, r)]
        if cvec not in pts:
            keep(corrected_fail, {"d": d, "p": str(pp), "problem": "constant vector not in B_p(r)"})
        for E in (Fraction(2), Fraction(3), Fraction(5, 2)):
            for a in pts:
                for b in pts:
                    checked += 1
                    try:
                        ratio = hadamard.l1_hadamard_ratio(a, b, r1f, E)
                    except InvalidInputError as exc:          # an l_p point outside the corrected l1 ball
                        keep(corrected_fail, {"d": d, "p": str(pp), "E": str(E), "refused": str(exc)})
                        continue
                    if ratio > E:
                        keep(corrected_fail, {"d": d, "p": str(pp), "E": str(E), "ratio": str(ratio)})
    ok = printed_wrong and refusals_ok and not corrected_fail and checked > 0
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"x = (3/5, 3/5) is in B_(3/2)(1) but ||x||_1 = 6/5: at r1 = r, E = 3 the ratio is "
                   f"{printed['3']['ratio_x_vs_minus_x']} > 3, E = 21 gives probability "
                   f"{printed['21']['min_probability']}; r1 = d^(1-1/p) r: {checked} exact ratios <= E, "
                   f"{len(corrected_fail)} failures",
        evidence={"counterexample": {"x": ["3/5", "3/5"], "p": "3/2", "r": "1", "in_B_p": in_lp, "in_B_1": in_l1,
                                     "printed_radius": printed},
                  "corrected_pairs": checked, "corrected_failures": corrected_fail,
                  "corrected_mse_bound": "r^2 d^(3-2/p) ((E+1)/(E-1))^2 (Lemma 3.4.1 at r1 = d^(1-1/p) r)",
                  "library": "bcdp.dme.hadamard: l1_hadamard_law (refuses x outside B_1(r1)), "
                             "lp_ball_l1_radius, l1_hadamard_ratio"},
    )
