"""Thesis Lemma F.2.1, App. F.2, step (a) of (F.16): merging two outputs cannot decrease P1's objective -- false.

``f(x, y) = (x - y)^2/(x + y)`` is convex and positively 1-homogeneous, hence SUB-additive:
``f(x1 + x2, y1 + y2) <= f(x1, y1) + f(x2, y2)``, so merging outputs can only lower (7.20); (F.16)(a)
uses convexity in the wrong direction.  Exact counterexample: the feasible m = 3 point of
THESIS-Lemma7.3.3 with outputs 2 and 3 merged as in the proof (value drops from 0.0464 to 0.0).
Also a typo in the merged second row (``q_{m-1,j} + q_{m,j+k/2}`` for ``q_{m-1,j+k/2} + q_{m,j+k/2}``).
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.checks.thesis import _p1_common as oracle
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import p1

CLAIM = ClaimSpec(
    id="THESIS-LemmaF.2.1",
    paper="thesis",
    group="randomness",
    where="Lemma F.2.1, App. F.2, eqs. (F.15)-(F.16) step (a) (proof of Lemma 7.3.3)",
    statement="Merging the last two outputs of a feasible pair of P1 gives a feasible pair with at least the same "
              "objective value, f(merged) - f(original) >= 0 (F.16), so m = 2 outputs are optimal.",
    expected="erratum",
    erratum="E-Thesis-Lemma7.3.3",
    also_checked_in=("`proofs_checks/thesis/erratum_lemma733_binary.py`",),
)


def _merge(row: tuple) -> tuple:
    """Outputs sorted by size; the two smallest merged (the proof's q_{m-1} + q_m after relabelling)."""
    return tuple(row[:-2]) + (row[-2] + row[-1],)


def check() -> ClaimResult:
    eps, r = Fraction(2), Fraction(527, 2000)
    a, b = p1.p1_feasible_point(3, eps, r, "bits", starts=0)
    order = sorted(range(3), key=lambda i: -a[i] - b[i])   # the large output first, then the two small ones
    a, b = tuple(a[i] for i in order), tuple(b[i] for i in order)
    ma, mb = _merge(a), _merge(b)
    before_lib, after_lib = p1.p1_value(a, b), p1.p1_value(ma, mb)
    before, after = oracle.value(a, b), oracle.value(ma, mb)
    # (F.16)(a) claims after - before >= 0; sub-additivity of f gives after - before <= 0
    step_fails = after_lib < before_lib and after < before and before_lib == before and after_lib == after
    feasible_both = p1.p1_feasible(a, b, eps, r, "bits") is True and p1.p1_feasible(ma, mb, eps, r, "bits") is True
    # sub-additivity on a grid of exact pairs (x1, y1), (x2, y2) with positive entries
    grid = [Fraction(i, 7) for i in range(1, 7)]
    sub_additive = all(oracle.value((x1 + x2,), (y1 + y2,)) <= oracle.value((x1, x2), (y1, y2))
                       for x1 in grid for x2 in grid for y1 in grid for y2 in grid)
    ok = step_fails and feasible_both and sub_additive
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"eps = 2, R = 0.2635 bit: merging outputs 2, 3 of a feasible m = 3 pair lowers V from "
                   f"{float(before):.5f} to {float(after):.5f} (exact); f is sub-additive on the grid",
        evidence={"a": [str(x) for x in a], "b": [str(x) for x in b], "merged_a": [str(x) for x in ma],
                  "merged_b": [str(x) for x in mb], "value_before": str(before), "value_after": str(after),
                  "sub_additive_on_grid": sub_additive,
                  "corrected": "(x-y)^2/(x+y) is convex and 1-homogeneous, so merging outputs never increases (7.20); "
                               "Lemma F.2.1 is false for R < H2 (THESIS-Lemma7.3.3); typo: the merged second row is "
                               "q_{m-1,j+k/2} + q_{m,j+k/2}",
                  "library": "bcdp.randomness.p1 (p1_feasible_point, p1_value, p1_feasible)"},
    )
