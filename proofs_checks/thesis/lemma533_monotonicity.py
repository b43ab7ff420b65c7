"""Thesis Lemma 5.3.3 (5.26): removing a common record never decreases the Renyi moment.

For neighbouring D, D' (last record replaced) and any i in [n-1]:
E_{M(D')}[(M(D)/M(D'))^alpha] <= E_{M(D'_{-i})}[(M(D_{-i})/M(D'_{-i}))^alpha], exactly in
Fractions (oracle laws), seeded random eps0-LDP kernels and datasets, n = 2..6, every i,
alpha in {2, 3, 5}.  (The proof (App. D.3.3) relaxes client i to the simplex, so it is also
tested with the removed record's row replaced by an arbitrary distribution, which the proof
covers.)

Paper-only (docs/testing.md, "Claim checks must touch the code"): Lemma 5.3.3 is a step of the proof
of Thm 5.3.1 that no library function implements; the check evaluates both sides on the
library's exact shuffled laws (:mod:`bcdp.shuffle.exact`).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import PAPER_ONLY, keep
from ._shuffle_common import exact_api, s

CLAIM = ClaimSpec(
    id="THESIS-Lemma5.3.3",
    paper="thesis",
    group="shuffle",
    where="Lemma 5.3.3, eq. (5.26), Sec. 5.3.2; proof App. D.3.3",
    statement="Removing a common record never decreases E_{M(D')}[(M(D)/M(D'))^alpha] (291 exact removals, "
              "incl. non-LDP removed rows).",
    expected="confirmed",
)

SEED = 5333
N_INSTANCES = 30


def check() -> ClaimResult:
    se = exact_api()
    rng = np.random.default_rng(SEED)
    viol: list = []
    count = 0
    ties = 0
    for t in range(N_INSTANCES):
        E = (Fraction(3, 2), Fraction(2), Fraction(4))[t % 3]
        K, B = 3, 2 + t % 3
        kernel = se.random_ldp_kernel(rng, K, exp_eps0=E, n_outputs=B)
        if t % 2:  # input 2 gets an arbitrary (non-LDP) row; it only ever appears as a removable record
            raw = [Fraction(int(x), 16) for x in rng.integers(0, 17, size=B)]
            if sum(raw) == 0:
                raw[0] = Fraction(1)
            kernel = [kernel[0], kernel[1], [x / sum(raw) for x in raw]]
        n = int(rng.integers(2, 7))
        others = tuple(int(x) for x in rng.integers(0, 3, size=n - 1))
        D, Dp = others + (0,), others + (1,)
        for a in (2, 3, 5):
            full = se.renyi_moment_exact(se.shuffled_law(kernel, D), se.shuffled_law(kernel, Dp), a)
            for i in range(n - 1):
                count += 1
                Dm, Dpm = D[:i] + D[i + 1:], Dp[:i] + Dp[i + 1:]
                red = se.renyi_moment_exact(se.shuffled_law(kernel, Dm), se.shuffled_law(kernel, Dpm), a)
                if full > red:
                    keep(viol, {"E": str(E), "kernel": [[str(x) for x in r] for r in kernel], "D": list(D),
                                "Dprime": list(Dp), "i": i, "alpha": a, "full": s(full), "removed": s(red)})
                ties += full == red
    return CLAIM.result(
        verdict="confirmed" if not viol else "refuted",
        key_figure=f"{count} exact removals (seed {SEED}): {len(viol)} violations, {ties} ties",
        evidence={"removals": count, "seed": SEED, "violations": viol, "exact_ties": ties,
                  "library": f"{PAPER_ONLY} (Lemma 5.3.3 is a step of the proof of Thm 5.3.1; both sides are "
                             "evaluated on the library's exact laws, bcdp.shuffle.exact.shuffled_law and "
                             "renyi_moment_exact, the oracle of the bound checks)"},
    )
