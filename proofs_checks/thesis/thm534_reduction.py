"""Thesis Thm 5.3.4 (5.12): reduction of any neighbouring pair to the special case, exactly.

For D = (d_1..d_n), D' = (d_1..d_{n-1}, d'_n), q = e^{-eps0}:
E_{M(D')}[(M(D)/M(D'))^alpha] <= sum_{m=0}^{n-1} Bin(n-1, q)(m) E_m, with
E_m = E_{M(D'^(n)_{m+1})}[(M(D^(n)_{m+1})/M(D'^(n)_{m+1}))^alpha], D^(n)_{m+1} = (d'_n x m, d_n),
D'^(n)_{m+1} = (d'_n x (m+1)).  Both sides are exact Fractions (E rational, integer alpha), from
the oracle's exact laws (``shuffled_law``, ``renyi_moment_exact``); seeded random eps0-LDP kernels
and datasets, n = 2..6, alpha in {2, 3, 4}.  The mixture (5.19) p~_i = (p_i - q p'_n)/(1 - q) >= 0
is checked on every instance.  Also recorded: the reduction's slack (RHS/LHS).

Paper-only (docs/testing.md, "Claim checks must touch the code"): Thm 5.3.4 is a step of the proof
of Thm 5.3.1 that no library function implements; the check evaluates both sides on the
library's exact shuffled laws (:mod:`bcdp.shuffle.exact`).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import PAPER_ONLY, keep
from ._shuffle_common import exact_api, s

CLAIM = ClaimSpec(
    id="THESIS-Thm5.3.4",
    paper="thesis",
    group="shuffle",
    where="Thm 5.3.4, eq. (5.12), Sec. 5.3.1.1; proof Sec. 5.3.2 (Lemmas 5.3.1-5.3.3, Cor 5.3.3)",
    statement="Reduction (5.12) in exact Fractions on 120 random LDP instances; mixture (5.19) valid.",
    expected="confirmed",
)

SEED = 5304
N_INSTANCES = 40


def check() -> ClaimResult:
    se = exact_api()
    rng = np.random.default_rng(SEED)
    viol: list = []
    mix_fail: list = []
    count = 0
    min_slack = None
    for i in range(N_INSTANCES):
        E = (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5))[i % 4]
        K = 2 + i % 2
        B = 2 + (i // 2) % 3
        kernel = se.random_ldp_kernel(rng, K, exp_eps0=E, n_outputs=B)
        n = int(rng.integers(2, 7))
        D = tuple(int(x) for x in rng.integers(0, K, size=n))
        dn, dpn = D[-1], (D[-1] + 1 + int(rng.integers(0, K - 1))) % K
        Dp = D[:-1] + (dpn,)
        q = 1 / E
        for v in range(K):  # mixture (5.19)
            if any((kernel[v][j] - q * kernel[dpn][j]) < 0 for j in range(B)):
                keep(mix_fail, {"kernel": [[str(x) for x in r] for r in kernel], "row": v})
        P, Q = se.shuffled_law(kernel, D), se.shuffled_law(kernel, Dp)
        for a in (2, 3, 4):
            count += 1
            lhs = se.renyi_moment_exact(P, Q, a)
            rhs = Fraction(0)
            for m in range(n):
                Dm = (dpn,) * m + (dn,)
                Dpm = (dpn,) * (m + 1)
                Em = se.renyi_moment_exact(se.shuffled_law(kernel, Dm), se.shuffled_law(kernel, Dpm), a)
                rhs += comb(n - 1, m) * q ** m * (1 - q) ** (n - 1 - m) * Em
            rec = {"E": str(E), "K": K, "B": B, "n": n, "D": list(D), "Dprime": list(Dp), "alpha": a,
                   "lhs": s(lhs), "rhs": s(rhs)}
            if lhs > rhs:
                keep(viol, {**rec, "kernel": [[str(x) for x in r] for r in kernel]})
            elif min_slack is None or rhs / lhs < min_slack[0]:
                min_slack = (rhs / lhs, rec)
    ok = not viol and not mix_fail
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} exact instances (Fractions; seed {SEED}): {len(viol)} violations; "
                   f"min RHS/LHS {s(min_slack[0], 8)}",
        evidence={"instances": count, "seed": SEED, "violations": viol, "mixture_5.19_failures": mix_fail,
                  "min_slack": {**min_slack[1], "rhs_over_lhs": s(min_slack[0], 10)},
                  "library": f"{PAPER_ONLY} (Thm 5.3.4 is a step of the proof of Thm 5.3.1; both sides are "
                             "evaluated on the library's exact laws, bcdp.shuffle.exact.shuffled_law and "
                             "renyi_moment_exact, the oracle of the bound checks)"},
    )
