"""Partial DP paper, Lemma 23's proof step (Sec. 6.3): the integrality issue (erratum E-PDP-Lemma23).

Printed step: with ||w*||_1 = 1, z in {-1,+1}^d and <w*, z> < nu, "it is always possible to find
z' in B_{2 nu d}(z) with <w*, z'> < 0" (B_r: closed Hamming ball).  The Hamming radius is an
integer, so for 2 nu d < 1 the ball is {z} and the step fails whenever 0 <= <w*, z> < nu.

Checked by brute force (exact Fractions) over every w* on the rational grid of the unit l1
sphere with denominator 40 (d = 3) and 25 (d = 4) (integer numpy arithmetic, cross-checked
against the exact Fraction functions on 300 random pairs), every z, and nu in {1/10, 1/5, 1/4, 1/2}:
the number of (w*, z) satisfying the premise for which the step fails with radius floor(2 nu d),
and the largest radius actually needed.  Also the two explicit d = 4, nu = 1/10 counterexamples:
w* = (3/10, 3/10, 1/5, 1/5), z = (1,-1,1,-1) (<w*, z> = 0, so it depends on sign(0))
and w* = (3/10, 7/25, 11/50, 1/5) (<w*, z> = 1/25 > 0, no sign(0) issue).

Correction recorded: one flip always suffices when nu <= 1/(d-1) (the largest positive term
w_j z_j >= (1 + s)/(2d) > s/2 for s = <w*, z> < 1/(d-1)), so the step holds with radius
max(1, floor(2 nu d)) in that range; the grid confirms needed radius 1 in every case examined.
Verdict "erratum" when the printed step fails at 2 nu d < 1 and never for 2 nu d >= 1 here.
Whether claim (4) itself fails (it quantifies over *any* nu-net) is not decided here.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.partial.halfspaces import cube, lemma23_minimal_radius, lemma23_step_holds

from .._common import jsonable, keep

CLAIM = ClaimSpec(
    id="PDP-Lemma23-net",
    paper="partial_dp",
    group="halfspaces",
    where="the proof of Lemma 23, Sec. 6.3",
    statement="Proof step: ‖w*‖_1 = 1 and <w*,z> < nu imply some z' in B_{2 nu d}(z) has <w*,z'> < 0",
    expected="erratum",
    also_checked_in=(
        "`tests/partial/test_partial_dp_halfspaces.py`",
    ),
    status="erratum: fails when 2 nu d < 1; radius max(1, floor(2 nu d)) works for nu <= 1/(d-1). Claim (4) "
           "itself not decided",
    erratum="E-PDP-Lemma23",
)

NUS = (Fraction(1, 10), Fraction(1, 5), Fraction(1, 4), Fraction(1, 2))
GRIDS = {3: 40, 4: 25}
N_CROSS = 300  # (w, z) pairs also decided by the exact Fraction functions of the module


def sphere(d: int, den: int) -> np.ndarray:
    """den * w for every w with ||w||_1 = 1 and entries in (1/den) Z (integer rows)."""
    out = []
    for comp in itertools.product(range(den + 1), repeat=d):
        if sum(comp) != den:
            continue
        for signs in itertools.product((1, -1), repeat=d):
            if any(c == 0 and s == -1 for c, s in zip(comp, signs)):
                continue
            out.append([c * s for c, s in zip(comp, signs)])
    return np.array(out, dtype=np.int64)


def check() -> ClaimResult:
    rows, kept = [], []
    printed_fail_large = printed_fail_small = corrected_fail = cross_mismatch = 0
    rng = random.Random(2323)
    for d, den in GRIDS.items():
        W = sphere(d, den)
        zs = cube(d)
        Z = np.array(zs, dtype=np.int64)
        dots = W @ Z.T                                     # den * <w, z>, exact integers
        ham = (Z[:, None, :] != Z[None, :, :]).sum(axis=2)  # Hamming distances between cube points
        big = d + 1
        need = np.where(dots[:, None, :] < 0, ham[None, :, :], big).min(axis=2)  # [w, z]
        for _ in range(N_CROSS // len(GRIDS)):  # cross-check with the exact module function
            a, b = rng.randrange(len(W)), rng.randrange(len(zs))
            w = [Fraction(int(v), den) for v in W[a]]
            if lemma23_minimal_radius(w, zs[b]) != int(need[a, b]):
                cross_mismatch += 1
        for nu in NUS:
            radius = math.floor(2 * nu * d)
            premise = dots * nu.denominator < nu.numerator * den  # <w, z> < nu, exactly
            fails_mask = premise & (need > radius)
            fails = int(fails_mask.sum())
            max_need = int(need[premise].max())
            for a, b in zip(*np.nonzero(fails_mask)):
                if len(kept) >= 3:
                    break
                if dots[a, b] > 0:  # keep sign(0)-free examples
                    keep(kept, {"d": d, "nu": str(nu), "w": [str(Fraction(int(v), den)) for v in W[a]],
                                "z": list(zs[b]), "<w,z>": str(Fraction(int(dots[a, b]), den)),
                                "radius floor(2 nu d)": radius, "needed": int(need[a, b])})
            if nu <= Fraction(1, d - 1):
                corrected_fail += int((premise & (need > max(1, radius))).sum())
            if 2 * nu * d < 1:
                printed_fail_small += fails
            else:
                printed_fail_large += fails
            rows.append({"d": d, "grid_denominator": den, "w_count": len(W), "nu": str(nu),
                         "2 nu d": str(2 * nu * d), "radius": radius, "premise_cases": int(premise.sum()),
                         "printed_step_failures": fails,
                         "failures_with_positive_inner_product": int((fails_mask & (dots > 0)).sum()),
                         "max_radius_needed": max_need})
    zero_inner_product_example = lemma23_step_holds([Fraction(3, 10), Fraction(3, 10), Fraction(1, 5), Fraction(1, 5)],
                                        (1, -1, 1, -1), Fraction(1, 10))
    clean_example = lemma23_step_holds([Fraction(3, 10), Fraction(7, 25), Fraction(11, 50), Fraction(1, 5)],
                                       (1, -1, 1, -1), Fraction(1, 10))
    clean_fixed = lemma23_step_holds([Fraction(3, 10), Fraction(7, 25), Fraction(11, 50), Fraction(1, 5)],
                                     (1, -1, 1, -1), Fraction(1, 10), radius=1)
    erratum = (cross_mismatch == 0 and printed_fail_small > 0 and printed_fail_large == 0 and corrected_fail == 0
               and zero_inner_product_example is False and clean_example is False and clean_fixed is True)
    return CLAIM.result(
        verdict="erratum" if erratum else "refuted",
        key_figure=f"d=4, nu=1/10: w*=(3/10,7/25,11/50,1/5), z=(1,-1,1,-1), <w*,z>=1/25 < nu, B_0.8(z)={{z}}: "
                   f"step fails; {printed_fail_small} grid failures with 2 nu d < 1, {printed_fail_large} with "
                   f"2 nu d >= 1; radius needed never above 1",
        evidence=jsonable({"rows": rows, "kept": kept, "zero_inner_product_example_holds": zero_inner_product_example,
                           "clean_example_holds": clean_example, "clean_example_radius_1_holds": clean_fixed,
                           "corrected_radius_failures": corrected_fail,
                           "cross_checked_pairs": N_CROSS, "cross_check_mismatches": cross_mismatch}),
    )
