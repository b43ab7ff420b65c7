"""Thesis Thm 3.6.3 step (e) and the uncapped rates (3.38)/(3.16): false for eps0 >> d (exact counterexample).

Step (e) of (3.43) drops -d^{1-2/p}/n assuming min{eps0, eps0^2} <= O(d).  With Lemma 3.6.1's constant
c the chain is (c/2) d^{1-2/p} min{1, d/(n m)} - d^{1-2/p}/n, >= c' d^{1-2/p} min{...} iff
(c/2 - c') min{1, d/(n m)} >= 1/n (decided exactly at its boundary).  Without the assumption the
stated bound is false, not just unproven: at d = 1 an unbiased E-LDP scalar mechanism
(:func:`bcdp.dme.lower_bounds.grid_rr_law`) has variance below C/eps0 (and C/eps0^2) for large eps0.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import lower_bounds as lb

CLAIM = ClaimSpec(
    id="THESIS-Thm3.6.3-step-e",
    paper="thesis",
    group="dme",
    where="Thm 3.6.3 (3.38), proof (3.43) step (e), Sec. 3.6.2; also Thm 3.4.3 (3.16)",
    statement="For every unbiased eps0-LDP scheme and every eps0 > 0, MSE = Omega(r^2 d^{2-2/p}/(n min{eps0, eps0^2})) "
              "(p >= 2; (3.16): r^2 d/(n eps0^2) for p in [1, 2)); step (e) drops -d^{1-2/p}/n.",
    expected="erratum",
    erratum="E-Thesis-Thm3.6.3e",
    also_checked_in=("`tests/dme/test_dme_lower_bounds_exact.py`",
                     "`tests/dme/test_dme_lower_bounds_checks_touch_code.py`"),
)

E, K = Fraction(10 ** 6), 100


def check() -> ClaimResult:
    xs = [Fraction(i, 10) for i in range(-10, 11)]
    laws = {x: lb.grid_rr_law(x, E, K) for x in xs}
    unbiased = all(sum(p * v for v, p in law.items()) == x for x, law in laws.items())
    worst_ratio = max(laws[a][v] / laws[b][v] for a in xs[::5] for b in xs[::5] for v in laws[a])
    var = max(sum(p * v * v for v, p in law.items()) - x * x for x, law in laws.items())
    bound = lb.grid_rr_sup_variance_bound(E, K)
    with mpmath.workdps(50):
        eps0 = mpmath.log(E.numerator)
        vb = mpmath.mpf(bound.numerator) / bound.denominator
        c38, c16 = vb * eps0, vb * eps0 ** 2     # the largest C with C/eps0 (C/eps0^2) <= the variance bound
    private = worst_ratio <= E
    counterexample = unbiased and private and var <= bound and c38 < mpmath.mpf(1) / 100 and c16 < mpmath.mpf(1) / 10
    # step (e), exact: (c/2 - c') d = 2 at c = 1, c' = 1/4, d = 8
    boundary = (lb.thm363_step_e_holds(1, Fraction(1, 4), 10 ** 6, 8, 2)
                and not lb.thm363_step_e_holds(1, Fraction(1, 4), 10 ** 6, 8, Fraction(2) + Fraction(1, 10 ** 6)))
    chain_vacuous = bool(lb.thm363_chain_bound(1, 10 ** 6, 8, "inf", 16) <= 0)         # m = 16 >= c d / 2 = 4
    ok = counterexample and boundary and chain_vacuous
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"d = 1, E = 10^6 (eps0 = 13.8), K = {K}: unbiased, ratio <= E, sup variance <= "
                   f"{mpmath.nstr(vb, 4)} = {mpmath.nstr(c38, 3)}/eps0 = {mpmath.nstr(c16, 3)}/eps0^2",
        evidence={"unbiased_on_21_points": unbiased, "max_likelihood_ratio": str(worst_ratio),
                  "max_variance_on_grid": str(var), "sup_variance_bound": str(bound),
                  "C_for_3.38": mpmath.nstr(c38, 15), "C_for_3.16": mpmath.nstr(c16, 15),
                  "step_e_boundary_exact": boundary, "chain_vacuous_at_eps0_16_d_8_c_1": chain_vacuous,
                  "corrected": "MSE >= (c/2) d^{1-2/p} min{1, d/(n m)} - d^{1-2/p}/n (m = min{eps0, eps0^2}); this "
                               "is Omega(d^{2-2/p}/(n m)) only when n m >= d and m <= (c/2 - c') d",
                  "library": "bcdp.dme.lower_bounds (grid_rr_law, grid_rr_sup_variance_bound, thm363_step_e_holds, "
                             "thm363_chain_bound)"},
    )
