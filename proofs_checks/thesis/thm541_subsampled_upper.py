"""Thesis Thm 5.4.1: the subsampled-shuffle upper bound, its published-code variants, and Upsilon.

Exact values (oracle ``subsampled_shuffled_rdp_exact``, uniform k-of-n without replacement, both
directions): seeded random K-ary eps0-LDP kernels with random datasets (n <= 6, every k), shuffled
2RR over every neighbouring pair (others hold j ones, j = 0..n-1) for n <= 14, and the 2RR extreme
pair for n up to 200.  Each must be <= the bound.  The same instances are run through the
variants found in published code (``variant="girgis_code"``, the author's privacy_computation.py;
``"koskela"``, PLD-Accountant girgis_upper.py) and their ratio to the thesis formula is reported,
also at the setting of Koskela et al.'s published comparison (eps0 = 3, n = 1e5, gamma = 0.01).

Upsilon: Lemma 5.4.1 applied to (5.43) equals the printed bound (sympy, alpha = 2..8, symbols
gamma, E, kbar, k) because sum_{lambda>=2} C(alpha,lambda) x^lambda = (1+x)^alpha - 1 - alpha x
(alpha = 2..30); numerically ``thm541_upper`` = ``lemma541_subsampled(thm544_ternary)``.  Twin
"541_dropped_alpha" ((1+x)^alpha - 1 - x, as in the author's code) is rejected by that identity
(residual (1 - alpha) x).  Ambiguity k vs kbar: both readings (variant ``k_unbarred``) and the
unfloored kbar (twin "541_no_floor") stay above every exact value here, so the oracle does not
decide it; kbar follows from the proof (the Chernoff split of Thm 5.4.5 as in (5.14)-(5.15)),
and the same reading for nbar in Thm 5.3.1 *is* decided by the oracle.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb
from bcdp.shuffle.symbolic import upsilon_identity

from .._common import keep
from ._shuffle_common import exact_api, s
from ._shuffle_instances import eps0_of

CLAIM = ClaimSpec(
    id="THESIS-Thm5.4.1",
    paper="thesis",
    group="subsampled",
    where="Thm 5.4.1, Sec. 5.4; proof Sec. 5.4.1; the re-implementation in Koskela et al.'s PLD accountant "
          "(DPBayes/PLD-Accountant)",
    statement="Subsampled upper bound >= exact (106 instances, uniform k-of-n); variants `girgis_code`, "
              "`koskela` (published code), `k_unbarred`, unfloored kbar all above the exact values, ratios "
              "quantified; Upsilon = binomial identity, Lemma 5.4.1 o (5.43) = Thm 5.4.1 (sympy); "
              "dropped-alpha tail rejected.",
    expected="confirmed",
    also_checked_in=(
        "`tests/shuffle/test_shuffle_bounds.py`",
    ),
)

SEED = 5341
VARIANTS = ("thesis", "girgis_code", "koskela", "k_unbarred", "no_floor")


def _bound(variant: str, n: int, k: int, e, a: int) -> mpmath.mpf:
    if variant == "no_floor":
        return sb.thm541_upper(n, k, e, a, kbar_floor=False)
    return sb.thm541_upper(n, k, e, a, variant=variant)


def _exact_rows(se):
    rng = np.random.default_rng(SEED)
    rows = []
    for t in range(16):
        E = (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5))[t % 4]
        K, B = 2 + t % 2, 2 + (t // 2) % 2
        kernel = se.random_ldp_kernel(rng, K, exp_eps0=E, n_outputs=B)
        n = int(rng.integers(2, 7))
        k = int(rng.integers(1, n + 1))
        D = tuple(int(x) for x in rng.integers(0, K, size=n))
        Dp = D[:-1] + ((D[-1] + 1) % K,)
        for a in (2, 3, 4, 6):
            v = max(se.subsampled_shuffled_rdp_exact(kernel, D, Dp, a, "uniform", k, direction=d)
                    for d in ("DDprime", "DprimeD"))
            rows.append((f"random K={K} B={B} E={E} n={n} k={k}", E, n, k, a, v))
    for E in (Fraction(2), Fraction(5)):
        rr = se.kary_rr_kernel(2, exp_eps0=E)
        for n, k in ((6, 3), (10, 5), (14, 14), (14, 4)):
            for a in (2, 4, 8):
                best = mpmath.mpf(0)
                for j in range(n):
                    others = (1,) * j + (0,) * (n - 1 - j)
                    for d in ("DDprime", "DprimeD"):
                        best = max(best, se.subsampled_shuffled_rdp_exact(rr, others + (0,), others + (1,), a, "uniform",
                                                                          k, direction=d))
                rows.append((f"2RR all pairs E={E} n={n} k={k}", E, n, k, a, best))
        for n, k in ((60, 20), (200, 40), (200, 200)):
            for a in (2, 8, 16):
                D, Dp = (0,) * n, (0,) * (n - 1) + (1,)
                v = max(se.subsampled_shuffled_rdp_exact(rr, D, Dp, a, "uniform", k, direction=d)
                        for d in ("DDprime", "DprimeD"))
                rows.append((f"2RR extreme pair E={E} n={n} k={k}", E, n, k, a, v))
    return rows


def check() -> ClaimResult:
    se = exact_api()
    viol = {v: [] for v in VARIANTS}
    nviol = {v: 0 for v in VARIANTS}
    min_ratio: dict = {v: None for v in VARIANTS}
    over_eps0 = 0
    with mpmath.workdps(60):
        rows = _exact_rows(se)
        for label, E, n, k, a, ex in rows:
            e = eps0_of(E)
            for v in VARIANTS:
                b = _bound(v, n, k, e, a)
                if ex > b:
                    nviol[v] += 1
                    keep(viol[v], {"instance": label, "alpha": a, "exact": s(ex), "bound": s(b)})
                elif ex > 0 and (min_ratio[v] is None or b / ex < min_ratio[v][0]):
                    min_ratio[v] = (b / ex, {"instance": label, "alpha": a})
                if v == "thesis" and b > e:
                    over_eps0 += 1
        # thm541 == Lemma 5.4.1 o (5.43), numerically
        lemma_mismatch: list = []
        for n, k, e in ((100, 10, mpmath.mpf("0.5")), (1000, 1000, mpmath.mpf(2)), (10 ** 5, 1000, mpmath.mpf(3))):
            for a in (2, 5, 16):
                direct = sb.thm541_upper(n, k, e, a)
                via = sb.lemma541_subsampled(lambda lam: sb.thm544_ternary(k, e, lam), Fraction(k, n), a)
                if abs(direct / via - 1) > mpmath.mpf(10) ** -45:
                    keep(lemma_mismatch, {"n": n, "k": k, "alpha": a, "direct": s(direct, 20), "via": s(via, 20)})
        # variant ratios at Koskela et al.'s setting
        a5 = []
        for a in (2, 8, 32, 128):
            th = sb.thm541_upper(10 ** 5, 1000, 3, a)
            a5.append({"alpha": a, "thesis": s(th, 6),
                       **{v: s(sb.thm541_upper(10 ** 5, 1000, 3, a, variant=v) / th, 6) + "x"
                          for v in ("girgis_code", "koskela")}})
    sym = upsilon_identity(30)
    ups_ok = all(r == 0 for r in sym["per_alpha_residuals"].values())
    full_ok = all(r == 0 for r in sym["lemma541_of_543_minus_thm541"].values())
    dropped_rejected = all(r != 0 for a, r in sym["dropped_alpha_factor_residuals"].items() if a >= 2)
    ok = nviol["thesis"] == 0 and ups_ok and full_ok and dropped_rejected and not lemma_mismatch
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{len(rows)} exact subsampled instances: violations per variant {nviol}; min bound/exact (thesis) "
                   f"{s(min_ratio['thesis'][0], 4)}; > eps0 at {over_eps0}; Upsilon identity and Lemma 5.4.1 o (5.43) = "
                   f"Thm 5.4.1: {ups_ok and full_ok}; dropped-alpha twin rejected: {dropped_rejected}",
        evidence={"instances": len(rows), "seed": SEED, "violations": viol, "violation_counts": nviol,
                  "min_ratio_bound_over_exact": {v: None if r is None else {**r[1], "ratio": s(r[0], 6)}
                                                 for v, r in min_ratio.items()},
                  "thesis_bound_exceeds_eps0": over_eps0,
                  "variants_at_koskela_setting_(eps0=3,n=1e5,k=1000)": a5,
                  "upsilon_identity_alpha_2_30": ups_ok, "lemma541_of_543_equals_thm541_sympy": full_ok,
                  "lemma541_of_543_numeric_mismatches": lemma_mismatch,
                  "twin_dropped_alpha_residuals": {str(a): str(r) for a, r in sym["dropped_alpha_factor_residuals"].items()},
                  "twins_rejected": {"541_dropped_alpha": dropped_rejected,
                                     "541_no_floor": "not by the oracle (0 violations on these instances); only by the "
                                                     "proof's integrality of kbar - 1 (index of the Bin(k-1, 1/E) split)"},
                  "k_vs_kbar": "not decided by the oracle (k_unbarred has 0 violations here); kbar from the proof"},
    )
