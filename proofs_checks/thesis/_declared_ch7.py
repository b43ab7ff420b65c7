"""Claims of the thesis Ch. 7 checked only by documents or not checkable (no check module).

Declared here so that the theory index is generated entirely from the registry (:mod:`bcdp.claims.registry`).
"""

from __future__ import annotations

from bcdp.claims.registry import ClaimSpec

CLAIMS: tuple[ClaimSpec, ...] = (
    ClaimSpec(
        id="THESIS-Remark7.3.1",
        paper="thesis",
        group="randomness",
        where="Remark 7.3.1, eq. (7.9), Sec. 7.3",
        statement="[YB18]: without a randomness constraint (R -> inf), r^{l2^2}_{eps,inf,n,k} >= k(e^eps+1)^2/(512 n "
                  "(e^eps-1)^2) for e^eps < 3 and >= k/(64 n (e^eps-1)) for e^eps >= 3; Thm 7.3.1 is tighter with "
                  "smaller constants.",
        expected="not reproduced",
        also_checked_in=(),
        status="declared: a cited result of [YB18] (minimax over all eps-LDP mechanisms and all n), not reproducible "
               "by finite enumeration; the comparison 'tighter' inherits THESIS-Eq7.17's factor 4 on the Assouad "
               "route of Thm 7.3.1",
    ),
)
