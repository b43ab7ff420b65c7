"""Theorem 2, privacy part, through Proposition 4: the eq. (16) allocation satisfies delta-BCDP.

The proof sketch (Sec. 4 after Thm 2, App. B.2) says M_mean is c-CDP and c_d-LDP, so by Prop. 4
part 2 it is delta'-BCDP with delta'_i = min{c_i + log(1 + q e^{c_d} - q), c_d}; the allocation
must make delta'_i <= delta~_i = min(delta_i, eps), with c non-decreasing, c >= 0 and
c_d <= eps.  Checked exactly (certified interval comparisons) on random (delta, eps, q, zeta),
unsorted delta included, and on the Fig. 3 setting for zeta = 1/2 and zeta = (1 + q)/2.
(The exact enumeration of M_mean itself belongs to the mechanisms issue.)
"""

from __future__ import annotations

import random
from fractions import Fraction

import sympy
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.bayesian.cdp_to_bcdp import prop4_bcdp_bound
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import compare

from .._common import keep, verdict

CLAIM = ClaimSpec(
    id="BCDP-Thm2-privacy",
    paper="bcdp",
    group="allocation",
    where="Thm. 2, eq. (16), Sec. 4; proof App. B.2",
    statement="The eq. (16) budgets make M_mean delta-BCDP and eps-LDP through Prop. 4 part 2 (c "
              "non-decreasing, c >= 0, c_d <= eps, implied delta'_i <= delta~_i), decided with certified "
              "interval arithmetic. (M_mean itself is enumerated in BCDP-Thm2-privacy-enumerated.)",
    expected="confirmed",
    also_checked_in=(
        "`tests/bayesian/test_allocation.py`",
    ),
)

SEED = 2016
N_RANDOM = 60
FIG3_DELTA = ["0.2", "0.2"] + ["2"] * 8
FIG3_Q = ["0", "0.01", "0.05", "0.1", "0.2", "0.3", "0.5", "0.7", "0.9", "1"]


def violations_of(delta, eps, q, zeta) -> list[str]:
    alloc = allocate_budgets(delta, eps, q, zeta)
    cs = alloc.c_sorted
    out = []
    if any(compare(cs[i], cs[i + 1]) > 0 for i in range(len(cs) - 1)):
        out.append("c not non-decreasing")
    if compare(cs[0], 0) < 0:
        out.append("c_1 < 0")
    if compare(cs[-1], alloc.eps) > 0:
        out.append("c_d > eps")
    implied = prop4_bcdp_bound(cs, [alloc.q] * len(cs), eps=cs[-1])
    tilde = [sympy.Min(alloc.delta[i], alloc.eps) for i in alloc.order]
    out += [f"delta'_{i} > delta~_{i}" for i in range(len(cs)) if compare(implied[i], tilde[i]) > 0]
    return out


def check() -> ClaimResult:
    rng = random.Random(SEED)
    bad: list = []
    n = 0
    for _ in range(N_RANDOM):
        d = rng.randint(1, 6)
        delta = [Fraction(rng.randint(0, 40), 10) for _ in range(d)]
        eps = Fraction(rng.randint(1, 30), 10)
        q = Fraction(rng.randint(0, 10), 10)
        zeta = Fraction(rng.randint(1, 10), 10)
        n += 1
        v = violations_of(delta, eps, q, zeta)
        if v:
            keep(bad, {"delta": [str(x) for x in delta], "eps": str(eps), "q": str(q), "zeta": str(zeta), "why": v})
    for q in FIG3_Q:
        for zeta in (Fraction(1, 2), (1 + Fraction(q)) / 2):
            n += 1
            v = violations_of(FIG3_DELTA, 2, q, zeta)
            if v:
                keep(bad, {"fig3 q": q, "zeta": str(zeta), "why": v})
    return CLAIM.result(
        verdict=verdict(not bad),
        key_figure=f"{n} allocations (incl. Fig. 3 grid x 2 zetas), {len(bad)} violations",
        evidence={"seed": SEED, "allocations": n, "violations": bad},
    )
