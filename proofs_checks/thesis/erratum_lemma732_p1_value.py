"""Thesis Lemma 7.3.2, eqs. (7.19)/(7.23): the value of problem P1 -- right for R >= H2, wrong below.

Case R >= H2(e^eps/(e^eps+1)): the certified enclosure of the P1 optimum (``bcdp.randomness.p1``)
for m = 2, 3, 4 contains 2(e^eps-1)^2/(e^eps+1)^2 (mpmath oracle) and is narrower than 1e-6.
Case R < H2: an exactly rational, certified-feasible binary point near the thesis' own optimiser
(7.22) ``(p_R, p_R e^-eps)`` has a value ~80x the printed ``2 p_R^2 (e^eps-1)^2/e^{2eps}`` at
eps = 1, R = 0.042 bit: the printed value drops the denominators of (7.20).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.checks.thesis import _p1_common as oracle
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import p1

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.3.2",
    paper="thesis",
    group="randomness",
    where="Lemma 7.3.2, Sec. 7.3.1, eqs. (7.19)-(7.23) (problem P1, optimiser (7.22))",
    statement="sup over (eps, R)-LDP Q of sum_y (Q(y|j)-Q(y|j+k/2))^2/(Q(y|j)+Q(y|j+k/2)) <= 2(e^eps-1)^2/(e^eps+1)^2 "
              "if R >= H2(e^eps/(e^eps+1)), and <= 2 p_R^2 (e^eps-1)^2/e^{2eps} if R < H2(e^eps/(e^eps+1)).",
    expected="erratum",
    erratum="E-Thesis-Lemma7.3.2",
    also_checked_in=("`tests/randomness/test_randomness_p1.py`",),
)

HIGH = ((Fraction(1), Fraction(9, 10)), (Fraction(1, 2), Fraction(1)))
LOW = (Fraction(1), Fraction(21, 500))
WIDTH = Fraction(1, 10 ** 6)


def check() -> ClaimResult:
    high_ok, high = True, []
    with mpmath.workdps(oracle.DPS):
        for eps, r in HIGH:
            target = oracle.classical(eps)
            assert oracle.mp(r) > oracle.critical_bits(eps)
            cb = p1.classical_bound(eps)           # the closed form 2c^2 of (7.19) case 1, enclosed
            high_ok &= oracle.mp(cb.lower) <= target <= oracle.mp(cb.upper) and cb.width < WIDTH
            for m in (2, 3, 4):
                enc = p1.p1_solve(m, eps, r, "bits", starts=0)
                inside = oracle.mp(enc.lower) <= target <= oracle.mp(enc.upper)
                point_ok = oracle.feasible(enc.witness["a"], enc.witness["b"], eps, r) and \
                    oracle.value(enc.witness["a"], enc.witness["b"]) == enc.lower
                ok = inside and enc.width < WIDTH and point_ok
                high_ok &= ok
                high.append({"eps": str(eps), "R_bits": str(r), "m": m, "lower": mpmath.nstr(oracle.mp(enc.lower), 12),
                             "upper": mpmath.nstr(oracle.mp(enc.upper), 12), "2c^2": mpmath.nstr(target, 12), "ok": ok})
        eps, r = LOW
        printed_lib = p1.printed_lemma732_bound(eps, r, "bits")
        printed = oracle.printed(eps, r)
        lib_agrees = oracle.mp(printed_lib.lower) <= printed <= oracle.mp(printed_lib.upper)
        a, b = p1.p1_feasible_point(2, eps, r, "bits", starts=0)
        val = oracle.value(a, b)
        lib_val = p1.p1_value(a, b)
        counter = oracle.feasible(a, b, eps, r) and val == lib_val and oracle.mp(val) > printed \
            and p1.p1_feasible(a, b, eps, r, "bits") is True
        p = oracle.p_r(r)
        big = mpmath.exp(oracle.mp(eps))
        at_722 = (p - p / big) ** 2 * (1 / (p + p / big) + 1 / (2 - p - p / big))
    ok = high_ok and counter and lib_agrees
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"eps = 1, R = 0.042 bit: printed (7.23) = {mpmath.nstr(printed, 4)} < {mpmath.nstr(oracle.mp(val), 4)} "
                   f"= V at an exact feasible point (V at (7.22) = {mpmath.nstr(at_722, 4)}); R >= H2: 2c^2 enclosed "
                   f"for m = 2, 3, 4 ({sum(h['ok'] for h in high)}/{len(high)})",
        evidence={"high_randomness": high,
                  "counterexample": {"eps": "1", "R_bits": "21/500", "a": [str(x) for x in a], "b": [str(x) for x in b],
                                     "value": mpmath.nstr(oracle.mp(val), 15), "printed": mpmath.nstr(printed, 15),
                                     "ratio": mpmath.nstr(oracle.mp(val) / printed, 6),
                                     "value_at_(7.22)": mpmath.nstr(at_722, 15)},
                  "corrected": "the printed case-2 value drops the denominators; see THESIS-Lemma7.3.2-corrected "
                               "(V_bar = 2 p_R c^2 + p_R^2/(2(1-p_R)), proven) and p1.p1_solve enclosures",
                  "library": "bcdp.randomness.p1 (classical_bound, p1_solve, p1_feasible_point, p1_value, p1_feasible, printed_lemma732_bound)"},
    )
