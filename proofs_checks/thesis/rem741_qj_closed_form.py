"""Thesis Remark 7.4.1 (Sec. 7.4, eq. (7.35)): q_j = z_j - z_{j-1}(1 - 2 z_j)/(1 - 2 z_{j-1}) < z_j, hence
H2(q_j) < H2(z_j) for j > 1.

Printed: z_j > z_{j-1} (eps_{j-1} > eps_j), z_j < 1/2, and
q_j = (z_j - z_{j-1})/(1 - 2 z_{j-1}) = z_j - z_{j-1}(1 - 2 z_j)/(1 - 2 z_{j-1}) < z_j.
The check re-derives the middle equality in sympy (it holds: not a typo), proves q_j < z_j symbolically
(z_j - q_j = z_{j-1}(1-2z_j)/(1-2z_{j-1}) > 0 for 0 < z_{j-1} < z_j < 1/2), and compares the library
(:mod:`bcdp.randomness.multilevel`) with the closed form: exact q_j for ratios equal the closed form
evaluated here with Fractions, and the certified q_j for exact eps lie certainly below z_j with certified
H2(q_j) < H2(z_j) (both from :func:`bcdp.randomness.entropy.binary_entropy` on the enclosure ends, H2 being
increasing on [0, 1/2]).
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import entropy, multilevel

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Remark7.4.1",
    paper="thesis",
    group="multilevel",
    where="Remark 7.4.1, Sec. 7.4, eq. (7.35)",
    statement="q_j = (z_j - z_{j-1})/(1 - 2z_{j-1}) = z_j - z_{j-1}(1 - 2z_j)/(1 - 2z_{j-1}) < z_j, so "
              "H2(q_j) < H2(z_j) for j > 1.",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_multilevel.py`",),
)

RATIOS = ((Fraction(3), Fraction(2), Fraction(5, 4)), (Fraction(1000), Fraction(999)),
          (Fraction(101, 100), Fraction(1001, 1000)), (Fraction(7), Fraction(6), Fraction(5), Fraction(4), Fraction(3)))
EPS = ((Fraction(1), Fraction(99, 100)), (Fraction(2), Fraction(18, 10), Fraction(17, 10), Fraction(1)),
       (Fraction(5), Fraction(1, 100)))


def check() -> ClaimResult:
    fails: list = []
    zp, zc = sympy.symbols("z_prev z_cur", positive=True)
    defn = (zc - zp) / (1 - 2 * zp)
    closed = zc - zp * (1 - 2 * zc) / (1 - 2 * zp)
    same = sympy.simplify(defn - closed) == 0
    gap = sympy.factor(zc - defn)  # = z_prev (1 - 2 z_cur)/(1 - 2 z_prev)
    gap_ok = sympy.simplify(gap - zp * (1 - 2 * zc) / (1 - 2 * zp)) == 0
    if not (same and gap_ok):
        keep(fails, {"what": "sympy", "closed_form_equal": same, "gap": str(gap)})
    for ratios in RATIOS:
        q = multilevel.key_probabilities(ratios)
        z = [1 / (e + 1) for e in ratios]
        for j in range(1, len(z)):
            form = z[j] - z[j - 1] * (1 - 2 * z[j]) / (1 - 2 * z[j - 1])
            if q[j] != form or not q[j] < z[j]:
                keep(fails, {"E": [str(e) for e in ratios], "j": j + 1, "library": str(q[j]), "closed": str(form)})
            if not entropy.binary_entropy(q[j]).upper < entropy.binary_entropy(z[j]).lower:
                keep(fails, {"E": [str(e) for e in ratios], "j": j + 1, "what": "H2(q_j) < H2(z_j)"})
    margins = []
    for eps in EPS:
        cert = multilevel.key_probabilities_certified(eps, prec=200)
        with arb_precision(200):
            z_ends = [ball_ends(1 / (ball_of(e).exp() + 1)) for e in eps]
        for j in range(1, len(eps)):
            q_hi, z_lo = cert[j].upper, z_ends[j][0]
            if not q_hi < z_lo:
                keep(fails, {"eps": [str(e) for e in eps], "j": j + 1, "what": "certified q_j < z_j"})
                continue
            # H2 increasing on [0, 1/2]: H2(q_j) <= H2(q_hi) < H2(z_lo) <= H2(z_j)
            if not entropy.binary_entropy(q_hi).upper < entropy.binary_entropy(z_lo).lower:
                keep(fails, {"eps": [str(e) for e in eps], "j": j + 1, "what": "certified H2(q_j) < H2(z_j)"})
            margins.append(float(z_lo - q_hi))
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"closed form (7.35) = (7.36) in sympy (not a typo); q_j < z_j exact on {len(RATIOS)} ratio "
                   f"vectors and certified on {len(EPS)} eps vectors; smallest certified z_j - q_j = "
                   f"{min(margins):.3g} ({len(fails)} failures)" if margins else "no certified margins",
        evidence={"failures": fails, "closed_form_equals_definition": same,
                  "z_j - q_j": "z_{j-1}(1 - 2 z_j)/(1 - 2 z_{j-1})",
                  "library": "bcdp.randomness.multilevel (key_probabilities, key_probabilities_certified); "
                             "bcdp.randomness.entropy.binary_entropy"},
    )
