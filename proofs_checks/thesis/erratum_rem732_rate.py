"""Thesis Remark 7.3.2: for R < H2(e^eps/(e^eps+1)) the minimax risk decreases "proportionally to 1/p_R^2" as R
grows -- false: the Hadamard response (HR) with q = p_R has risk proportional to 1/p_R.

Budgets R in bits (exact rationals) below the threshold at E = 2718/1000; p_R from the library's certified
inversion (:func:`bcdp.randomness.hadamard.choose_q`, rational lower end of the enclosure), the HR worst case
from :func:`~bcdp.randomness.hadamard.worst_case_risk` checked against the oracle of :mod:`._hr_common`.  The
log-log slope d log r / d log p_R between consecutive budgets tends to -1 (r is exactly proportional to
(1 - p_R)/p_R), never the printed -2; since the minimax risk is at most HR's, a 1/p_R^2 law is impossible for small p_R.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import hadamard

from .._common import keep
from ._hr_common import is_global_max, risk_oracle

CLAIM = ClaimSpec(
    id="THESIS-Remark7.3.2",
    paper="thesis",
    group="randomness",
    where="Remark 7.3.2, Sec. 7.3 (after Cor 7.3.1)",
    statement="When R < H2(e^eps/(e^eps+1)), as R increases the minimax risk decreases proportionally to 1/p_R^2; "
              "for R >= H2(e^eps/(e^eps+1)) it is not affected by R.",
    expected="erratum",
    erratum="E-Thesis-Thm7.3.1-Cor7.3.1",
)

E = Fraction(2718, 1000)
RS = (Fraction(1, 2), Fraction(1, 5), Fraction(1, 20), Fraction(1, 100), Fraction(1, 1000), Fraction(1, 10 ** 4))


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    k, n = 4, 4 * 10 ** 6
    prev = None
    for r in RS:
        c = hadamard.choose_q(E, r)
        q = c.usable_q
        wc = hadamard.worst_case_risk(k, n, q, E)
        star = tuple(wc.witness)
        if c.regime != "R < H2" or not (wc.exact == risk_oracle(star, n, q, E) and is_global_max(star, q, E)):
            keep(fails, {"R": str(r), "what": "regime or oracle"})
            continue
        row = {"R_bits": str(r), "p_R": float(q), "worst_risk": float(wc.exact)}
        if prev is not None:
            with mpmath.workdps(30):
                slope = mpmath.log(mpmath.mpf(wc.exact.numerator) / wc.exact.denominator
                                   / (mpmath.mpf(prev[1].numerator) / prev[1].denominator)) / mpmath.log(
                    mpmath.mpf(q.numerator) / q.denominator / (mpmath.mpf(prev[0].numerator) / prev[0].denominator))
            row["loglog_slope"] = float(slope)
            if not -1.25 < slope < -0.95:
                keep(fails, {"R": str(r), "slope": float(slope)})
        rows.append(row)
        prev = (q, wc.exact)
    ok = not fails
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=("HR risk vs p_R below the threshold (E = 2.718, k = 4): log-log slopes "
                    + ", ".join(f"{x['loglog_slope']:.3f}" for x in rows[1:]) + " (-> -1, printed -2)"
                    if ok else f"{len(fails)} failures"),
        evidence={"rows": rows, "failures": fails, "k": k, "n": n, "E": str(E),
                  "corrected": "the risk grows like 1/p_R (THESIS-Cor7.3.1-corrected); R = H2(E/(E+1)) is still the point "
                               "beyond which R does not matter (q = E/(E+1) needs exactly that entropy)",
                  "library": "bcdp.randomness.hadamard (choose_q, worst_case_risk), bcdp.randomness.entropy"},
    )
