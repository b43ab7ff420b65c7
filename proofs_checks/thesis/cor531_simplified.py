"""Thesis Cor 5.3.1 (5.5): under alpha^4 e^{5 eps0} < n/9, eps(alpha) <= log(1 + 4 C(alpha,2)(E-1)^2/n)/(alpha-1).

The corollary says "we can simplify the bound in (5.4) to" (5.5), and App. D.1 proves
(5.4) <= (5.5) through (D.2)-(D.9).  Two steps fail for admissible (n, eps0, alpha):

* (D.5), e^{eps0 alpha - (n-1)/(8E)} <= (i = 3 term), is only shown "for sufficiently large n";
  it is false for small eps0: the i = 3 term vanishes like eps0^3 while the tail tends to
  e^{-(n-1)/8}.  At eps0 = 0 (allowed: "eps0 >= 0") (5.5) = 0 < (5.4) for every n; at
  n = 145, eps0 = 1/1000, alpha = 2 (admissible: 16 e^{0.005} * 9 = 144.7 < 145)
  (5.4) = 2.94e-8 > (5.5) = 2.76e-8.
* (D.9), "2 nbar E = n - 1 + 2E >= n", ignores the floor in nbar; at the same point
  2 nbar E = 144 e^{0.001} = 144.144 < 145.

So (5.5) does not follow from (5.4) as printed.  Correction: with the refined tail of
:func:`bcdp.shuffle.bounds.thm531_upper` (``tail="refined"``: (E_0 - 1) e^{-(n-1)/(8E)},
E_0 <= (E^alpha + E^{1-alpha})/(E+1), which the proof of (5.14) supports because E_m >= 1),
(5.4)-refined <= (5.5) on every admissible grid point below (a computed check over the stated
range, not a proof), and (5.5) itself is >= the exact shuffled-2RR RDP (both directions of the
extreme pair, which is the worst pair, see ``thesis_thm531_upper``) at admissible points.
The condition is enforced by ``cor531_upper`` (ValidityConditionError).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import exact_api, s

CLAIM = ClaimSpec(
    id="THESIS-Cor5.3.1",
    paper="thesis",
    group="shuffle",
    where="Cor 5.3.1, eq. (5.5), Sec. 5.3; proof App. D.1",
    statement="Printed: under alpha^4 e^{5 eps0} < n/9, (5.4) simplifies to (5.5). Fails for small eps0 "
              "((D.5), (D.9); n = 145, eps0 = 1/1000: 2.94e-8 > 2.76e-8); with the refined Chernoff tail the "
              "chain holds on 520 admissible points and (5.5) >= exact 2RR; condition enforced.",
    expected="erratum",
    erratum="E-Thesis-D1",
)

EPS_GRID = ("0", "1e-6", "1e-4", "1e-3", "1e-2", "0.05", "0.1", "0.2", "0.3", "0.5", "0.7", "1", "1.5")
ALPHAS = (2, 3, 4, 5, 6, 8, 10, 12)


def n_min(eps0: mpmath.mpf, alpha: int) -> int:
    with mpmath.workdps(60):
        return int(mpmath.floor(9 * mpmath.mpf(alpha) ** 4 * mpmath.exp(5 * eps0))) + 1


def check() -> ClaimResult:
    se = exact_api()
    printed_fail: list = []
    n_printed_fail = 0
    n_printed_fail_pos = 0
    refined_fail: list = []
    d9_fail: list = []
    n_d9_fail = 0
    points = 0
    with mpmath.workdps(60):
        for e_str in EPS_GRID:
            e = mpmath.mpf(e_str)
            for a in ALPHAS:
                n0 = n_min(e, a)
                for n in sorted({n0, n0 + 1, 2 * n0 + 1, 5 * n0, 20 * n0}):
                    if not sb.cor531_condition(n, e, a):
                        continue
                    points += 1
                    cor = sb.cor531_upper(n, e, a)
                    ub = sb.thm531_upper(n, e, a)
                    ref = sb.thm531_upper(n, e, a, tail="refined")
                    if ub > cor:
                        n_printed_fail += 1
                        n_printed_fail_pos += e > 0
                        keep(printed_fail, {"n": n, "eps0": e_str, "alpha": a, "(5.4)": s(ub), "(5.5)": s(cor)})
                    if ref > cor:
                        keep(refined_fail, {"n": n, "eps0": e_str, "alpha": a, "refined": s(ref), "(5.5)": s(cor)})
                    nb = sb.nbar(n, e)
                    if 2 * nb * mpmath.exp(e) < n:
                        n_d9_fail += 1
                        keep(d9_fail, {"n": n, "eps0": e_str, "alpha": a, "2 nbar E": s(2 * nb * mpmath.exp(e))})
        # the headline counterexample
        e = mpmath.mpf(1) / 1000
        cex = {"n": 145, "eps0": "1/1000", "alpha": 2, "condition_holds": sb.cor531_condition(145, e, 2),
               "(5.4)": s(sb.thm531_upper(145, e, 2)), "(5.5)": s(sb.cor531_upper(145, e, 2)),
               "refined (5.4)": s(sb.thm531_upper(145, e, 2, tail="refined")),
               "2 nbar E": s(2 * sb.nbar(145, e) * mpmath.exp(e))}
        # (5.5) against the exact 2RR RDP (both directions of the extreme pair)
        exact_fail: list = []
        exact_points = 0
        min_ratio = None
        for e_frac in (Fraction(0), Fraction(1, 1000), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(1)):
            for a in (2, 3, 5, 8):
                n0 = n_min(mpmath.mpf(e_frac.numerator) / e_frac.denominator, a)
                for n in (n0, 4 * n0):
                    if n > 300000:
                        continue
                    exact_points += 1
                    cor = sb.cor531_upper(n, e_frac, a)
                    ex = max(se.rr_pair_rdp_mp(n, e_frac, a, "DDprime"), se.rr_pair_rdp_mp(n, e_frac, a, "DprimeD"))
                    if ex > cor:
                        keep(exact_fail, {"n": n, "eps0": str(e_frac), "alpha": a, "exact": s(ex), "(5.5)": s(cor)})
                    if ex > 0:
                        r = cor / ex
                        if min_ratio is None or r < min_ratio[0]:
                            min_ratio = (r, {"n": n, "eps0": str(e_frac), "alpha": a})
        # enforcement
        try:
            sb.cor531_upper(1000, Fraction(1, 2), 2)
            enforced = False
        except sb.ValidityConditionError:
            enforced = True
    printed_wrong = n_printed_fail > 0 and n_d9_fail > 0
    ok = printed_wrong and not refined_fail and not exact_fail and enforced
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"{points} admissible grid points: (5.4) > (5.5) at {n_printed_fail} (e.g. n=145, eps0=1/1000, "
                   f"alpha=2: {cex['(5.4)']} > {cex['(5.5)']}), (D.9) fails at {n_d9_fail}; refined (5.4) > (5.5) at "
                   f"{len(refined_fail)}; (5.5) < exact 2RR at {len(exact_fail)}/{exact_points}",
        evidence={"grid": {"eps0": list(EPS_GRID), "alpha": list(ALPHAS),
                           "n": "n_min, n_min+1, 2 n_min+1, 5 n_min, 20 n_min with n_min = floor(9 alpha^4 e^{5 eps0})+1"},
                  "admissible_points": points, "printed_chain_failures": n_printed_fail,
                  "printed_chain_failures_with_eps0_positive": n_printed_fail_pos,
                  "printed_chain_examples": printed_fail, "d9_failures": n_d9_fail, "d9_examples": d9_fail,
                  "headline_counterexample": cex, "refined_chain_failures": refined_fail,
                  "exact_2rr_points": exact_points, "exact_2rr_failures": exact_fail,
                  "min_ratio_(5.5)_over_exact": None if min_ratio is None else
                  {**min_ratio[1], "ratio": s(min_ratio[0], 6)},
                  "condition_enforced": enforced},
    )
