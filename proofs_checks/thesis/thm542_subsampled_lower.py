"""Thesis Thm 5.4.2: the subsampled lower bound is the exact subsampled-2RR divergence (with k).

For 2RR, D = 0^n, D' = 0^{n-1}1, uniform k-of-n subsampling without replacement (5.3), the printed
bound (``thm542_lower``, exact binomial central moments of Bin(k, 1/(E+1))) equals
D_alpha(M_s(D') || M_s(D)) from the oracle's exact subsampled laws (``subsampled_shuffled_rdp_exact``,
Fractions then 60-digit mpmath) at every point.  Ambiguity settled: the printed coefficient 'k'
is k, not kbar (the kbar reading, twin "542_kbar", differs from the exact value, and exceeds eps0
at n = k = 12, E = 2, alpha = 8: impossible for an eps0-DP mechanism).  Twin "542_swapped" (the value claimed for the
direction D_alpha(M_s(D) || M_s(D'))) differs from the oracle.  Unlike the unsampled case, the
forward direction used here is the larger one at most points (recorded).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import EQ_TOL, exact_api, rel_diff, s
from ._shuffle_instances import eps0_of

CLAIM = ClaimSpec(
    id="THESIS-Thm5.4.2",
    paper="thesis",
    group="subsampled",
    where="Thm 5.4.2, Sec. 5.4",
    statement="Subsampled lower bound equals the exact subsampled 2RR D_alpha(M_s(D')||M_s(D)) with k (84 "
              "points); kbar reading exceeds eps0; swapped twin rejected.",
    expected="confirmed",
)

CASES = ((10, 4), (20, 5), (12, 12), (30, 1), (60, 20), (150, 30), (40, 39))


def check() -> ClaimResult:
    se = exact_api()
    eq_fail: list = []
    swapped_eq: list = []
    kbar_eq: list = []
    kbar_over_eps0: list = []
    fwd_larger = 0
    points = 0
    with mpmath.workdps(60):
        for E in (Fraction(3, 2), Fraction(2), Fraction(5)):
            e = eps0_of(E)
            rr = se.kary_rr_kernel(2, exp_eps0=E)
            for n, k in CASES:
                D, Dp = (0,) * n, (0,) * (n - 1) + (1,)
                for a in (2, 3, 5, 8):
                    points += 1
                    fwd = se.subsampled_shuffled_rdp_exact(rr, D, Dp, a, "uniform", k, direction="DprimeD")
                    rev = se.subsampled_shuffled_rdp_exact(rr, D, Dp, a, "uniform", k, direction="DDprime")
                    lb = sb.thm542_lower(n, k, e, a)
                    if rel_diff(lb, fwd) > EQ_TOL:
                        keep(eq_fail, {"E": str(E), "n": n, "k": k, "alpha": a, "bound": s(lb, 25), "exact": s(fwd, 25)})
                    if k < n or n > 1:
                        if rel_diff(lb, rev) <= EQ_TOL:
                            keep(swapped_eq, {"E": str(E), "n": n, "k": k, "alpha": a})
                    fwd_larger += fwd > rev
                    if sb.kbar(k, e) != k:
                        tw = sb.thm542_lower(n, k, e, a, variant="kbar")
                        if rel_diff(tw, fwd) <= EQ_TOL:
                            keep(kbar_eq, {"E": str(E), "n": n, "k": k, "alpha": a})
                        if tw > e:
                            keep(kbar_over_eps0, {"E": str(E), "n": n, "k": k, "alpha": a, "twin": s(tw), "eps0": s(e)})
    twins = {"542_kbar": not kbar_eq, "542_swapped": not swapped_eq}
    ok = not eq_fail and all(twins.values())
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{points - len(eq_fail)}/{points} points equal to the exact subsampled value (rel. tol 1e-45); "
                   f"forward direction larger at {fwd_larger}/{points}; twins rejected: {twins}",
        evidence={"points": points, "cases_(n,k)": [list(c) for c in CASES], "equality_failures": eq_fail,
                  "forward_larger_count": fwd_larger, "twin_swapped_equal_at": swapped_eq,
                  "twin_kbar_equal_at": kbar_eq, "twin_kbar_exceeds_eps0": kbar_over_eps0, "twins_rejected": twins},
    )
