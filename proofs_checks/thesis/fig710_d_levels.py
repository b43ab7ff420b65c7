"""Thesis Fig. 7.10 (Sec. 7.7, "Multi-level privacy"): d in [1 : 10] levels, eps_1 = 2 and eps_j = eps_1 - 0.1 j
for j in [2 : d]; "the gap between the amount of randomness used in our scheme and the trivial scheme
increases with d".

Reading of the caption: it prints "eps_j = eps - 0.1j"; we read eps as eps_1 (so eps_2 = 1.8, ..., eps_10 =
1.0, a first step of 0.2, then steps of 0.1); the alternative eps_j = 2 - 0.1 (j - 1)
is evaluated too (evidence) and gives the same conclusion.  The check computes the gap R_trivial -
R_proposed (bits, Sec. 7.4) for d = 1..10 with the library (:func:`bcdp.randomness.multilevel.total_randomness`,
certified; and the float twin that draws the figure), compares with a 50-digit mpmath oracle of the printed
sums written here, and certifies gap(d + 1) > gap(d) for d = 1..9 (gap(1) = 0).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import multilevel

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Fig7.10",
    paper="thesis",
    group="multilevel",
    where="Fig. 7.10, Sec. 7.7 (multi-level privacy), with Thm 7.4.1",
    statement="For eps_1 = 2, eps_j = 2 - 0.1 j (j = 2..d), the gap R_trivial - R_proposed increases with d = 1..10.",
    expected="confirmed",
    also_checked_in=("`tests/repro/test_ch7_multilevel_figures.py`",),
)

D_MAX = 10


def levels(d: int, shift: int = 0) -> tuple[Fraction, ...]:
    """eps_1 = 2, eps_j = 2 - (j - shift)/10 for j = 2..d (shift 0: our reading; 1: the alternative)."""
    return (Fraction(2),) + tuple(2 - Fraction(j - shift, 10) for j in range(2, d + 1))


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _oracle(eps):
    def h2(p):
        return -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)
    z = [1 / (mpmath.exp(_mp(e)) + 1) for e in eps]
    q = [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, len(z))]
    return sum(h2(x) for x in z), sum(h2(x) for x in q)


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    gaps: list = []
    alt: list = []
    with mpmath.workdps(50):
        for d in range(1, D_MAX + 1):
            eps = levels(d)
            mt, mp_ = _oracle(eps)
            t = multilevel.total_randomness(eps, "trivial")
            p = multilevel.total_randomness(eps, "proposed")
            if not (_mp(t.lower) <= mt <= _mp(t.upper) and _mp(p.lower) <= mp_ <= _mp(p.upper)):
                keep(fails, {"d": d, "what": "certified R vs mpmath"})
            ft = multilevel.total_randomness_float([float(e) for e in eps], "trivial")
            fp = multilevel.total_randomness_float([float(e) for e in eps], "proposed")
            if abs(float(ft) - float(mt)) > 1e-12 * float(mt) or abs(float(fp) - float(mp_)) > 1e-12 * float(mp_):
                keep(fails, {"d": d, "what": "float twin vs mpmath"})
            gaps.append((Fraction(t.lower) - Fraction(p.upper), Fraction(t.upper) - Fraction(p.lower)))
            at, ap = _oracle(levels(d, shift=1))
            alt.append(at - ap)
            rows.append({"d": d, "R_trivial_bits": mpmath.nstr(mt, 10), "R_proposed_bits": mpmath.nstr(mp_, 10),
                         "gap_bits": mpmath.nstr(mt - mp_, 10)})
    if not gaps[0][0] <= 0 <= gaps[0][1]:
        keep(fails, {"what": "gap at d = 1 is not 0"})
    for d in range(1, D_MAX):
        if not gaps[d][0] > gaps[d - 1][1]:
            keep(fails, {"what": "gap not certainly increasing", "d": d + 1})
    alt_ok = all(a < b for a, b in zip(alt, alt[1:]))
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"gap R_trivial - R_proposed certified increasing over d = 1..10: 0 -> {rows[1]['gap_bits']} (d = 2) "
                   f"-> {rows[-1]['gap_bits']} bits (d = 10) ({len(fails)} failures)",
        evidence={"rows": rows, "failures": fails,
                  "reading": "eps_j = 2 - 0.1 j for j >= 2 (caption 'eps - 0.1j' with eps = eps_1)",
                  "alternative_reading_increasing": alt_ok,
                  "library": "bcdp.randomness.multilevel (total_randomness, total_randomness_float)"},
    )
