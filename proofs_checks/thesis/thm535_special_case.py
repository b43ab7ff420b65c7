"""Thesis Thm 5.3.5 (5.13), Thm 5.3.6 (5.16) and Lemma 5.3.5 (5.39): the special case.

Special pairs D_m = (d x m), D'_m = (d x (m-1), d'): the moment
E_{M(D_m)}[(M(D'_m)/M(D_m))^alpha] is computed exactly (Fractions, oracle laws) for seeded random
eps0-LDP kernels (every ordered pair of inputs), m = 1..8, alpha in {2, 3, 4, 6}, and must be
<= (5.13) and <= (5.16).  At alpha = 2 the moment is 1 + chi^2(p'||p)/m (Lemma 5.3.4(2)) and for
2RR it equals (5.13) exactly: 1 + (E-1)^2/(mE) (Lemma 5.3.5 attained; exact Fractions).
Lemma 5.3.5: sup over eps0-LDP pairs of sum_j p'_j^2/p_j - 1 = (E-1)^2/E -- sympy (vertex value
and 2RR value, ``bcdp.shuffle.symbolic.chi_square_lemma535``) and exact Fractions on every pair
of rows of the random kernels (never above it).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb
from bcdp.shuffle.symbolic import chi_square_lemma535

from .._common import keep
from ._shuffle_common import exact_api, s
from ._shuffle_instances import eps0_of

CLAIM = ClaimSpec(
    id="THESIS-Thm5.3.5",
    paper="thesis",
    group="shuffle",
    where="Thms 5.3.5 and 5.3.6, Sec. 5.3.1; Lemmas 5.3.4 and 5.3.5, Sec. 5.3.3",
    statement="Special-case moments <= (5.13) and (5.16) (1536 exact); equality at alpha = 2 for 2RR; Lemma "
              "5.3.4(2) variance identity; Lemma 5.3.5 chi^2 <= (E-1)^2/E (sympy vertex value, exact pairs).",
    expected="confirmed",
)

SEED = 5335


def check() -> ClaimResult:
    se = exact_api()
    rng = np.random.default_rng(SEED)
    viol535: list = []
    viol536: list = []
    var_fail: list = []
    chi_fail: list = []
    count = 0
    chi_pairs = 0
    max_chi_ratio = Fraction(0)
    with mpmath.workdps(60):
        for t in range(12):
            E = (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(6))[t % 4]
            e = eps0_of(E)
            K = 2 + t % 2
            kernel = se.random_ldp_kernel(rng, K, exp_eps0=E, n_outputs=2 + t % 3)
            for d in range(K):
                for dp in range(K):
                    if d == dp:
                        continue
                    p, pp = kernel[d], kernel[dp]
                    chi = sum(b * b / a for a, b in zip(p, pp)) - 1
                    chi_pairs += 1
                    max_chi_ratio = max(max_chi_ratio, chi / ((E - 1) ** 2 / E))
                    if chi > (E - 1) ** 2 / E:
                        keep(chi_fail, {"E": str(E), "p": [str(x) for x in p], "pprime": [str(x) for x in pp]})
                    for m in range(1, 9):
                        P = se.shuffled_law(kernel, (d,) * (m - 1) + (dp,))
                        Q = se.shuffled_law(kernel, (d,) * m)
                        for a in (2, 3, 4, 6):
                            count += 1
                            mom = se.renyi_moment_exact(P, Q, a)
                            mm = mpmath.mpf(mom.numerator) / mom.denominator
                            if a == 2 and mom != 1 + chi / m:
                                keep(var_fail, {"E": str(E), "m": m})
                            if mm > sb.thm535_special_case(m, e, a):
                                keep(viol535, {"E": str(E), "m": m, "alpha": a, "moment": s(mm)})
                            if mm > sb.thm536_special_case(m, e, a):
                                keep(viol536, {"E": str(E), "m": m, "alpha": a, "moment": s(mm)})
        # 2RR: equality at alpha = 2, exactly
        eq_fail: list = []
        eq_points = 0
        for E in (Fraction(3, 2), Fraction(2), Fraction(5)):
            rr = se.kary_rr_kernel(2, exp_eps0=E)
            for m in range(1, 13):
                eq_points += 1
                mom = se.renyi_moment_exact(se.shuffled_law(rr, (0,) * (m - 1) + (1,)), se.shuffled_law(rr, (0,) * m), 2)
                if mom != 1 + (E - 1) ** 2 / (m * E):
                    keep(eq_fail, {"E": str(E), "m": m, "moment": str(mom)})
                bound = sb.thm535_special_case(m, eps0_of(E), 2)
                if abs(mpmath.mpf(mom.numerator) / mom.denominator / bound - 1) > mpmath.mpf(10) ** -50:
                    keep(eq_fail, {"E": str(E), "m": m, "moment": str(mom), "(5.13)": s(bound, 30)})
    sym = chi_square_lemma535()
    sym_ok = sym["vertex_residual"] == 0 and sym["rr_residual"] == 0
    ok = not (viol535 or viol536 or var_fail or chi_fail or eq_fail) and sym_ok
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} exact special-case moments: {len(viol535)} above (5.13), {len(viol536)} above (5.16); "
                   f"2RR alpha = 2 equality at {eq_points - len(eq_fail)}/{eq_points}; chi^2 <= (E-1)^2/E on "
                   f"{chi_pairs} LDP pairs (max ratio {s(max_chi_ratio, 6)}); sympy vertex value = (E-1)^2/E: {sym_ok}",
        evidence={"moments": count, "seed": SEED, "violations_5.13": viol535, "violations_5.16": viol536,
                  "variance_identity_failures": var_fail, "chi_square_failures": chi_fail,
                  "max_chi_square_over_bound": s(max_chi_ratio, 10), "rr_equality_failures": eq_fail,
                  "sympy": {k: str(v) for k, v in sym.items()}},
    )
