"""Thesis (5.40): the likelihood ratio of the shuffled 2RR pair is affine in the count, but the
printed left side has the ratio upside down.

Setting (thesis Sec. 5.3.4): binary randomized response with P[R(d) = d] = E/(E+1), D = 0^n,
D' = 0^{n-1}1, k = number of ones in the shuffled output, p = 1/(E+1):
M(D)(k) = C(n,k) p^k (1-p)^{n-k},
M(D')(k) = (1-p) C(n-1,k-1) p^{k-1} (1-p)^{n-k} + p C(n-1,k) p^k (1-p)^{n-k-1}.

Printed (Sec. 5.3.4, proof of Thm 5.3.3): "M(D)(k)/M(D')(k) - 1 = ... = ((e^{2 eps0} - 1)/(n e^{eps0}))(k - n/(e^{eps0}+1))";
the printed intermediate steps (k/n (1-p)/p + (n-k)/n p/(1-p) - 1) compute M(D')/M(D) - 1, which
is what the rest of the proof uses (E_{k~M(D)}[(M(D')/M(D))^alpha]).  Checked: sympy residual of
the corrected identity is 0 and of the printed one is not; exact Fractions for E in {2, 3/2, 5, 7/3},
n <= 12, every k (the corrected identity holds at every point, the printed one fails).  The laws
written here must equal the library's exact shuffled laws (:func:`bcdp.shuffle.exact.shuffled_law`
with the 2RR kernel) at every point, so the identity is checked on the laws the library uses.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import exact as shuffle_exact
from bcdp.shuffle.symbolic import ratio_identity_540

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-eq5.40",
    paper="thesis",
    group="shuffle",
    where="eq. (5.40) in the proof of Thm 5.3.3, Sec. 5.3.4",
    statement="Printed M(D)/M(D') - 1 = ((E^2-1)/(nE))(k - n/(E+1)); true for M(D')/M(D) - 1 (sympy; 360 "
              "exact points).",
    expected="erratum",
    erratum="E-Thesis-5.40",
)


def laws(n: int, k: int, E: Fraction) -> tuple[Fraction, Fraction]:
    p = 1 / (E + 1)
    q = 1 - p
    md = comb(n, k) * p ** k * q ** (n - k)
    mdp = Fraction(0)
    if k >= 1:
        mdp += q * comb(n - 1, k - 1) * p ** (k - 1) * q ** (n - k)
    if k <= n - 1:
        mdp += p * comb(n - 1, k) * p ** k * q ** (n - k - 1)
    return md, mdp


def check() -> ClaimResult:
    sym = ratio_identity_540()
    correct_fail: list = []
    printed_fail = 0
    printed_examples: list = []
    points = 0
    library_mismatch: list = []
    for E in (Fraction(2), Fraction(3, 2), Fraction(5), Fraction(7, 3)):
        kernel = shuffle_exact.kary_rr_kernel(2, exp_eps0=E)
        for n in range(1, 13):
            # the library's exact shuffled laws of D = 0^n and D' = 0^{n-1}1 (histogram (n - k, k))
            lib_d = shuffle_exact.shuffled_law(kernel, [0] * n)
            lib_dp = shuffle_exact.shuffled_law(kernel, [0] * (n - 1) + [1])
            for k in range(n + 1):
                points += 1
                md, mdp = laws(n, k, E)
                if (lib_d.get((n - k, k), 0), lib_dp.get((n - k, k), 0)) != (md, mdp):
                    keep(library_mismatch, {"E": str(E), "n": n, "k": k})
                affine = (E * E - 1) / (n * E) * (k - Fraction(n) / (E + 1))
                if mdp / md - 1 != affine:
                    keep(correct_fail, {"E": str(E), "n": n, "k": k})
                if md / mdp - 1 != affine:
                    printed_fail += 1
                    keep(printed_examples, {"E": str(E), "n": n, "k": k, "M(D)/M(D')-1": str(md / mdp - 1),
                                            "M(D')/M(D)-1": str(mdp / md - 1), "affine": str(affine)})
    correct_ok = sym["residual_correct"] == 0 and not correct_fail
    printed_wrong = sym["residual_printed"] != 0 and printed_fail > 0
    ok = correct_ok and printed_wrong and not library_mismatch
    cex = sym["printed_counterexample"]
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"corrected identity: sympy residual 0, {points} exact points, {len(correct_fail)} failures; "
                   f"printed side fails at {printed_fail}/{points} (n=2, k=0, E=2: printed LHS "
                   f"{cex['printed_lhs']}, affine {cex['affine_rhs']})",
        evidence={"sympy_residual_corrected": str(sym["residual_correct"]),
                  "sympy_residual_printed": str(sym["residual_printed"]),
                  "counterexample_n2_k0_E2": {k: str(v) for k, v in cex.items()},
                  "exact_points": points, "corrected_failures": correct_fail,
                  "printed_failures": printed_fail, "printed_examples": printed_examples,
                  "library_law_mismatches": library_mismatch,
                  "library": "bcdp.shuffle.symbolic.ratio_identity_540 (sympy residuals); the laws written here "
                             "from the 2RR definition equal the library's bcdp.shuffle.exact.shuffled_law"},
    )
