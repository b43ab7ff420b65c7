"""Thesis Thm 7.4.1 (Sec. 7.4, eqs. (7.34)/(7.36), (7.42)): the cascade uses R_proposed = sum_j H2(q_j) bits,
strictly less than R_trivial = sum_j H2(e^eps_j/(e^eps_j+1)) when d > 1.

Printed: z_j = 1/(e^eps_j + 1), q_1 = z_1, q_j = (z_j - z_{j-1})/(1 - 2 z_{j-1}); the proof (F.19) rests
on z_{j-1}(1 - q_j) + (1 - z_{j-1}) q_j = z_j; the total randomness is sum_j H(U^j) = sum_j H2(q_j)
<= R_trivial, strict for d > 1 (7.42).  The check:

- sympy: the identity (F.19) holds for the printed q_j as rational functions (symbolic), and for the
  library's exact q_j (:func:`bcdp.randomness.multilevel.key_probabilities`) on a grid of ratios;
- 0 < q_j < 1/2 for the library's exact q_j (ratios) and certified q_j (exact eps, arb), the
  certified enclosures containing a 50-digit mpmath value of the printed (7.36);
- R_proposed < R_trivial certified for d = 2..5 on a grid of exact eps (library ``total_randomness``),
  both enclosures containing 50-digit mpmath values of the printed sums; equality at d = 1;
- "total randomness = sum of key entropies": the entropy of the library's enumerated joint key law
  (``key_law``, 2^d outcomes, via :func:`bcdp.randomness.entropy.entropy`) equals sum_j H2(q_j) (the
  keys are independent), enclosures overlapping, for d = 1..6.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import entropy, multilevel

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Thm7.4.1",
    paper="thesis",
    group="multilevel",
    where="Thm 7.4.1, Sec. 7.4, eqs. (7.34), (7.36), (7.42); App. F.4 (F.19)",
    statement="With q_j of (7.34)/(7.36), z_{j-1}(1-q_j) + (1-z_{j-1})q_j = z_j and 0 < q_j < 1/2; the cascade "
              "uses R_proposed = sum_j H2(q_j) bits, strictly less than R_trivial = sum_j H2(e^eps_j/(e^eps_j+1)) "
              "for d > 1 (equal at d = 1).",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_multilevel.py`",),
)

EPS_GRID = (Fraction(3), Fraction(2), Fraction(1), Fraction(99, 100), Fraction(1, 2), Fraction(1, 10), Fraction(1, 100))
RATIO_GRID = ((Fraction(3), Fraction(2)), (Fraction(101, 100), Fraction(1001, 1000)), (Fraction(1000), Fraction(3, 2)),
              (Fraction(9), Fraction(5), Fraction(4), Fraction(2)),
              (Fraction(40), Fraction(20), Fraction(10), Fraction(5), Fraction(3), Fraction(2)))


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _h2(p):
    return 0 if p == 0 else -(p * mpmath.log(p) + (1 - p) * mpmath.log(1 - p)) / mpmath.log(2)


def _printed_q(eps):
    z = [1 / (mpmath.exp(_mp(e)) + 1) for e in eps]
    return z, [z[0]] + [(z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, len(z))]


def _inside(c, x) -> bool:
    return _mp(Fraction(c.lower)) <= x <= _mp(Fraction(c.upper))


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    zp, zc = sympy.symbols("z_prev z_cur", positive=True)
    q_printed = (zc - zp) / (1 - 2 * zp)
    symbolic = sympy.simplify(zp * (1 - q_printed) + (1 - zp) * q_printed - zc) == 0
    if not symbolic:
        keep(fails, {"what": "sympy identity (F.19)"})
    # exact ratios: identity and range of the library's q_j
    for ratios in RATIO_GRID:
        q = multilevel.key_probabilities(ratios)
        z = [1 / (e + 1) for e in ratios]
        if q[0] != z[0]:
            keep(fails, {"E": [str(e) for e in ratios], "what": "q_1 = z_1"})
        for j in range(1, len(q)):
            if z[j - 1] * (1 - q[j]) + (1 - z[j - 1]) * q[j] != z[j] or not 0 < q[j] < Fraction(1, 2):
                keep(fails, {"E": [str(e) for e in ratios], "j": j + 1, "what": "identity / range", "q": str(q[j])})
        key_h = entropy.entropy(list(multilevel.key_law(ratios).values()), unit="bits")
        summed = multilevel.total_randomness(ratios, "proposed", "bits", parametrization="e_eps")
        if key_h.upper < summed.lower or summed.upper < key_h.lower:
            keep(fails, {"E": [str(e) for e in ratios], "what": "H(U^1..U^d) = sum H2(q_j)"})
    strict = 0
    with mpmath.workdps(50):
        for d in (1, 2, 3, 4, 5):
            for start in range(len(EPS_GRID) - d + 1):
                eps = EPS_GRID[start:start + d]
                z, q = _printed_q(eps)
                cert = multilevel.key_probabilities_certified(eps)
                for j, c in enumerate(cert):
                    if not _inside(c, q[j]) or not (0 < c.lower and c.upper < Fraction(1, 2)):
                        keep(fails, {"eps": [str(e) for e in eps], "j": j + 1, "what": "certified q_j"})
                prop = multilevel.total_randomness(eps, "proposed", "bits")
                triv = multilevel.total_randomness(eps, "trivial", "bits")
                r_prop, r_triv = sum(_h2(x) for x in q), sum(_h2(x) for x in z)
                if not (_inside(prop, r_prop) and _inside(triv, r_triv)):
                    keep(fails, {"eps": [str(e) for e in eps], "what": "R enclosures vs mpmath"})
                if d == 1:
                    ok = not (prop.upper < triv.lower or triv.upper < prop.lower)
                else:
                    ok = prop.upper < triv.lower
                    strict += ok
                if not ok:
                    keep(fails, {"eps": [str(e) for e in eps], "what": "R_proposed < R_trivial" if d > 1 else "d = 1 equality"})
                if start == 0:
                    rows.append({"eps": [str(e) for e in eps], "R_proposed_bits": mpmath.nstr(r_prop, 12),
                                 "R_trivial_bits": mpmath.nstr(r_triv, 12)})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"identity (F.19) symbolic and exact on {len(RATIO_GRID)} ratio vectors; R_proposed < R_trivial "
                   f"certified on {strict} eps vectors (d = 2..5), equal at d = 1 ({len(fails)} failures)",
        evidence={"rows": rows, "failures": fails, "sympy_identity": symbolic,
                  "library": "bcdp.randomness.multilevel (key_probabilities, key_probabilities_certified, key_law, "
                             "total_randomness); bcdp.randomness.entropy.entropy"},
    )
