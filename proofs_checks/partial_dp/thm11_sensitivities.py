"""Partial DP paper, Thm 11 worked example (Sec. 4.1): Delta = sqrt(m), Delta0 = sqrt(C(d-1,k-1))
for k-way conjunctions and parities on {0,1}^d.

Brute force over all record pairs of {0,1}^d for d = 2..7 and every k (exact integers; see
:mod:`bcdp.partial.projection`).  Conjunctions: both claims hold everywhere.  Parities: Delta0
holds everywhere, but Delta^2 = m holds only for odd k (and for k = d); for even k < d the diameter
is strictly smaller and equals max_w sum_{j odd} C(w,j) C(d-w,k-j), so the ratio eps/eps0 =
Delta/Delta0 is below the claimed sqrt(d/k).  (sqrt(m) stays a valid upper bound, so the privacy
guarantee computed from it is conservative, not wrong.)
"""

from __future__ import annotations

from math import comb

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.partial.projection import FAMILIES, bits, diameters, parity_delta_sq_formula

CLAIM = ClaimSpec(
    id="PDP-Thm11-example",
    paper="partial_dp",
    group="workloads",
    where="Thm 11 and the worked example after it, Sec. 4.1",
    statement="Delta = sqrt(m), Delta0 = sqrt(C(d-1,k-1)) for k-way conjunctions/parities: brute force d = "
              "2..7; conjunctions hold, Delta0 holds, parities Delta^2 = m fails exactly for even k < d (d = "
              "4, k = 2: 4 < 6); corrected Delta^2 = max_w sum_{j odd} C(w,j)C(d-w,k-j).",
    expected="erratum",
    erratum="E-PDP-Thm11",
)

D_RANGE = range(2, 8)


def check() -> ClaimResult:
    holds: dict[str, list] = {f: [] for f in FAMILIES}
    fails: dict[str, list] = {f: [] for f in FAMILIES}
    delta0_failures = []
    formula_mismatch = []
    upper_bound_violations = []
    for d in D_RANGE:
        for k in range(1, d + 1):
            for fam in FAMILIES:
                r = diameters(fam, d, k)
                case = {"d": d, "k": k, "m": r.m, "Delta^2": r.delta_sq, "Delta0^2": r.delta0_sq,
                        "witness": [bits(r.witness[0], d), bits(r.witness[1], d)]}
                (holds if r.delta_sq == r.claimed_delta_sq else fails)[fam].append(case)
                if r.delta0_sq != r.claimed_delta0_sq:
                    delta0_failures.append({"family": fam, **case})
                if r.delta_sq > r.m:
                    upper_bound_violations.append({"family": fam, **case})
                if fam == "parity" and r.delta_sq != parity_delta_sq_formula(d, k):
                    formula_mismatch.append(case)
    parity_fail_pattern = sorted((c["d"], c["k"]) for c in fails["parity"])
    even_k_below_d = sorted((d, k) for d in D_RANGE for k in range(2, d, 2))
    pattern_ok = parity_fail_pattern == even_k_below_d
    counterexample = next(c for c in fails["parity"] if (c["d"], c["k"]) == (4, 2))
    consistent = (not fails["conjunction"] and not delta0_failures and not formula_mismatch
                  and not upper_bound_violations and pattern_ok)
    erratum = consistent and bool(fails["parity"])
    return CLAIM.result(
        verdict="erratum" if erratum else ("confirmed" if consistent and not fails["parity"] else "refuted"),
        key_figure=f"d=2..7: conjunctions {len(holds['conjunction'])}/{len(holds['conjunction']) + len(fails['conjunction'])} "
                   f"hold; parities Delta^2 = m fails in {len(fails['parity'])} cases, exactly even k < d "
                   f"(d=4,k=2: Delta^2 = {counterexample['Delta^2']} < m = {counterexample['m']}); "
                   f"Delta0 holds in all cases",
        evidence={
            "d_range": [D_RANGE.start, D_RANGE.stop - 1],
            "conjunction_failures": fails["conjunction"],
            "parity_failures": fails["parity"],
            "parity_failures_are_exactly_even_k_below_d": pattern_ok,
            "delta0_failures": delta0_failures,
            "sqrt_m_upper_bound_violations": upper_bound_violations,
            "corrected_parity_formula": "Delta^2 = max_w sum_{j odd} C(w,j) C(d-w,k-j)",
            "corrected_formula_mismatches": formula_mismatch,
            "counterexample": {**counterexample,
                               "explanation": "x xor x' = 1100: only the 4 pairs {i,j} with one of i,j in {1,2} "
                                              "change parity; pairs {1,2} and {3,4} do not"},
            "ratio_Delta_over_Delta0_sq_claimed_vs_true_d4k2": [str(comb(4, 2)) + "/" + str(comb(3, 1)),
                                                                 f"{counterexample['Delta^2']}/{counterexample['Delta0^2']}"],
        },
    )
