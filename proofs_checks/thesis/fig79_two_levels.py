"""Thesis Fig. 7.9 (Sec. 7.7, "Multi-level privacy"): two levels eps_1 = 1 and eps_2 in [0.01 : 1]; "when
eps_1 - eps_2 is small, the trivial scheme requires approximately twice the total amount of randomness
used in our scheme; when eps_1 - eps_2 is large, [they] use similar amounts".

The check computes R_trivial / R_proposed (bits, Sec. 7.4) with the library
(:func:`bcdp.randomness.multilevel.total_randomness`, certified, and its float twin
:func:`~bcdp.randomness.multilevel.total_randomness_float` that draws the figure) and compares both with a
50-digit mpmath oracle of the printed sums written here, on the figure's grid eps_2 = 1/100, ..., 99/100
(plus eps_2 = 1, the merged equal level, where the ratio is exactly 2).  Criteria (ours, since the text is
qualitative): the certified ratio at eps_2 = 0.99 lies in [1.8, 2] ("approximately twice"), the ratio at
eps_2 = 0.01 is below 1.001 ("similar amounts"), and the ratio is increasing in eps_2 over the grid.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import multilevel

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Fig7.9",
    paper="thesis",
    group="multilevel",
    where="Fig. 7.9, Sec. 7.7 (multi-level privacy), with Thm 7.4.1",
    statement="For eps_1 = 1, R_trivial is about twice R_proposed when eps_1 - eps_2 is small, and about equal "
              "when eps_1 - eps_2 is large (eps_2 in [0.01, 1]).",
    expected="confirmed",
    also_checked_in=("`tests/repro/test_ch7_multilevel_figures.py`",),
)

EPS1 = Fraction(1)
GRID = tuple(Fraction(k, 100) for k in range(1, 100))


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _oracle(eps):
    def h2(p):
        return -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)
    z = [1 / (mpmath.exp(mpmath.mpf(e.numerator) / e.denominator) + 1) for e in eps]
    q = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, len(z))]
    return sum(h2(x) for x in z), sum(h2(x) for x in q)


def check() -> ClaimResult:
    fails: list = []
    with mpmath.workdps(50):
        oracle = {e2: _oracle((EPS1, e2)) for e2 in GRID}
        ratio_mp = [oracle[e2][0] / oracle[e2][1] for e2 in GRID]
        floats_t = multilevel.total_randomness_float([[1.0, float(e2)] for e2 in GRID], "trivial")
        floats_p = multilevel.total_randomness_float([[1.0, float(e2)] for e2 in GRID], "proposed")
        for i, e2 in enumerate(GRID):
            t, p = oracle[e2]
            if abs(floats_t[i] - float(t)) > 1e-12 * float(t) or abs(floats_p[i] - float(p)) > 1e-12 * float(p):
                keep(fails, {"eps2": str(e2), "what": "float twin vs mpmath"})
        certified = {}
        for e2 in (Fraction(1, 100), Fraction(1, 2), Fraction(99, 100)):
            t = multilevel.total_randomness((EPS1, e2), "trivial")
            p = multilevel.total_randomness((EPS1, e2), "proposed")
            mt, mp_ = oracle[e2]
            if not (_mp(t.lower) <= mt <= _mp(t.upper) and _mp(p.lower) <= mp_ <= _mp(p.upper)):
                keep(fails, {"eps2": str(e2), "what": "certified R vs mpmath"})
            certified[e2] = (Fraction(t.lower) / Fraction(p.upper), Fraction(t.upper) / Fraction(p.lower))
        lo99, hi99 = certified[Fraction(99, 100)]
        if not (Fraction(18, 10) <= lo99 and hi99 <= 2):
            keep(fails, {"what": "ratio at eps2 = 0.99 not in [1.8, 2]", "ratio": [str(lo99), str(hi99)]})
        if not certified[Fraction(1, 100)][1] < Fraction(1001, 1000):
            keep(fails, {"what": "ratio at eps2 = 0.01 not below 1.001"})
        merged_t = multilevel.total_randomness((EPS1, EPS1), "trivial", merge_equal=True)
        merged_p = multilevel.total_randomness((EPS1, EPS1), "proposed", merge_equal=True)
        merged = (Fraction(merged_t.lower) / Fraction(merged_p.upper), Fraction(merged_t.upper) / Fraction(merged_p.lower))
        if not merged[0] <= 2 <= merged[1]:
            keep(fails, {"what": "merged eps2 = eps1 ratio is not 2"})
        increasing = all(a < b for a, b in zip(ratio_mp, ratio_mp[1:]))
        if not increasing:
            keep(fails, {"what": "ratio not increasing in eps2"})
        r = {str(e2): mpmath.nstr(ratio_mp[i], 10) for i, e2 in enumerate(GRID) if e2 in (Fraction(1, 100),
             Fraction(1, 10), Fraction(1, 2), Fraction(9, 10), Fraction(99, 100))}
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"R_trivial/R_proposed at eps2 = 0.99: {float(lo99):.4f} (certified in [1.8, 2]), "
                   f"-> 2 at eps2 = eps1; {float(certified[Fraction(1, 100)][0]):.6f} at eps2 = 0.01 "
                   f"({len(fails)} failures)",
        evidence={"ratios": r, "ratio_0.99_certified": [str(lo99), str(hi99)], "failures": fails,
                  "criteria": "about twice: ratio in [1.8, 2] at eps2 = 0.99; similar: ratio < 1.001 at eps2 = 0.01",
                  "library": "bcdp.randomness.multilevel (total_randomness, total_randomness_float)"},
    )
