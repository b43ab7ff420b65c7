"""Partial DP paper, Lemmas 9 and 10, concentrated (nabla-CDP / zCDP) halves, on certified D*.

Lemma 9 (Sec. 2.2): M1 eps1-nabla-CDP, M2(., y) eps2-nabla-CDP for every y; then M12(x) = M2(x, M1(x))
is sqrt(eps1^2 + eps2^2)-nabla-CDP.  Checked at the level it rests on (BS16 adaptive composition):
for every ordered one-record pair (x, x'),

    D*(M12(x) || M12(x')) <= D*(M1(x) || M1(x')) + max_y D*(M2(x, y) || M2(x', y)),

for the joint release (y1, y2) and for the printed Y2-valued M12 (a post-processing of it); and at
the accountant level eps0(M12)^2 <= eps0(M1)^2 + max_y eps0(M2(., y))^2 (Def. 6 eps0).

Lemma 10 (Sec. 2.2): M_j (1/2) eps^2 -zCDP on column j for each j; then M is eps-nabla0-CDP.  Checked:
eps0(M) <= max_j sqrt(2 rho_j) (rho_j the zCDP parameter of M_j, Def. 3), and the number of
instances where it is attained (a single-attribute change moves one column only, so equality is
expected).  Uses ``sequential`` and ``parallel`` of the pure check :mod:`bcdp.checks.pdp_composition`.

Bad twins (the verdict requires each to be certainly violated on at least one instance):
 * "max composition" for Lemma 9: eps0(M12) <= max(eps0(M1), max_y eps0(M2(., y))) (no sqrt of the
   sum of squares); rejected when lower(eps0(M12)) > upper(max(...));
 * "no factor 2" for Lemma 10: eps0(M) <= max_j sqrt(rho_j); rejected when
   lower(eps0(M)) > upper(max_j sqrt(rho_j)).
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
from bcdp.bayesian.random_instances import random_mechanism
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.partial.concentrated import (
    INFINITY,
    one_record_pairs,
    per_attribute_cdp_epsilon,
    whole_record_zcdp,
)
from bcdp.partial.pure import dataset_domain

from .._common import enumerated_binary_mechanisms, keep, verdict
from ._cdp_common import CHECK_TOL, WDPS, compare, ds, s
from .composition import parallel, sequential

CLAIM = ClaimSpec(
    id="PDP-Lemmas9-10-CDP",
    paper="partial_dp",
    group="basics",
    where="Lemma 9 and Lemma 10, Sec. 2.2 (concentrated halves); Bun-Steinke 2016 Lemma 2.3",
    statement="Lemma 9 CDP half: pairwise D*(M12(x)||M12(x')) <= D*(M1(x)||M1(x')) + max_y "
              "D*(M2(x,y)||M2(x',y)) for the joint and the Y2-only release (9 instances, 200 finite pairs, 0 "
              "violations, 14 with equality within 1e-20), and eps0(M12)^2 <= eps0(M1)^2 + max_y eps0(M2)^2. "
              "Lemma 10 CDP half: eps0(M) <= max_j sqrt(2 rho_j) on 10 instances, equal within the enclosure "
              "wherever both are finite (7).",
    expected="confirmed",
)

SEED = 9110
FINITE_GRID = (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))


def lemma9(m1, m2s, n: int, d: int, counts: dict, violations: list, tag: str) -> None:
    for joint in (True, False):
        m12 = sequential(m1, m2s, joint)
        name = "joint" if joint else "y2_only"
        for i, a, b, k in one_record_pairs(m1, n, d):
            r12 = ds(m12.kernel[a], m12.kernel[b])
            r1 = ds(m1.kernel[a], m1.kernel[b])
            r2s = [ds(m.kernel[a], m.kernel[b]) for m in m2s]
            with mpmath.workdps(WDPS):
                if r1.upper == INFINITY or any(r.upper == INFINITY for r in r2s):
                    counts["pairs_vacuous"] += 1
                    continue
                lo = r1.lower + max(r.lower for r in r2s)
                hi = r1.upper + max(r.upper for r in r2s)
                v = compare(r12.lower, r12.upper, lo, hi)
            counts[f"pairs_{v}"] += 1
            if v == "violated":
                keep(violations, {"instance": tag, "release": name, "record": i, "x": a, "x_prime": b,
                                  "d_star_12": [s(r12.lower), s(r12.upper)], "bound": [s(lo), s(hi)]})
        e12 = per_attribute_cdp_epsilon(m12, n, d, rel_tol=CHECK_TOL)
        e1 = per_attribute_cdp_epsilon(m1, n, d, rel_tol=CHECK_TOL)
        e2s = [per_attribute_cdp_epsilon(m, n, d, rel_tol=CHECK_TOL) for m in m2s]
        with mpmath.workdps(WDPS):
            if e1.upper == INFINITY or any(e.upper == INFINITY for e in e2s):
                counts["eps0_vacuous"] += 1
                continue
            blo = e1.lower ** 2 + max(e.lower for e in e2s) ** 2
            bhi = e1.upper ** 2 + max(e.upper for e in e2s) ** 2
            v = compare(e12.lower ** 2 if e12.lower != INFINITY else INFINITY,
                        e12.upper ** 2 if e12.upper != INFINITY else INFINITY, blo, bhi)
        counts[f"eps0_{v}"] += 1
        # BAD TWIN: eps0(M12) <= max(eps1, eps2) (no sqrt of the sum of squares)
        counts["twin_max_cases"] += 1
        twin_hi = max(e1.upper, max(e.upper for e in e2s))
        with mpmath.workdps(WDPS):
            if e12.lower != INFINITY and e12.lower > twin_hi:
                counts["twin_max_rejected"] += 1
        if v == "violated":
            keep(violations, {"instance": tag, "release": name, "eps0_12": [s(e12.lower), s(e12.upper)],
                              "bound_sq": [s(blo), s(bhi)]})


def lemma10(cols, attrs, n: int, counts: dict, violations: list, tag: str) -> None:
    d = len(cols)
    rhos = [whole_record_zcdp(m, n, 1, rel_tol=CHECK_TOL) for m in cols]
    mech = parallel(cols, attrs, n)
    e0 = per_attribute_cdp_epsilon(mech, n, d, rel_tol=CHECK_TOL)
    with mpmath.workdps(WDPS):
        if any(r.upper == INFINITY for r in rhos):
            counts["l10_vacuous"] += 1
            return
        lo = max(mpmath.sqrt(2 * r.lower) for r in rhos)
        hi = max(mpmath.sqrt(2 * r.upper) for r in rhos)
        v = compare(e0.lower, e0.upper, lo, hi)
    counts[f"l10_{v}"] += 1
    # BAD TWIN: eps0 <= max_j sqrt(rho_j) (factor 2 dropped)
    counts["twin_no2_cases"] += 1
    with mpmath.workdps(WDPS):
        if e0.lower != INFINITY and e0.lower > max(mpmath.sqrt(r.upper) for r in rhos):
            counts["twin_no2_rejected"] += 1
    if v == "violated":
        keep(violations, {"instance": tag, "n": n, "d": d, "eps0": [s(e0.lower), s(e0.upper)],
                          "max_sqrt_2rho": [s(lo), s(hi)]})


def check() -> ClaimResult:
    rng = random.Random(SEED)
    counts = {k: 0 for k in ("pairs_certified", "pairs_tight", "pairs_violated", "pairs_vacuous",
                             "eps0_certified", "eps0_tight", "eps0_violated", "eps0_vacuous",
                             "l10_certified", "l10_tight", "l10_violated", "l10_vacuous",
                             "twin_max_cases", "twin_max_rejected", "twin_no2_cases", "twin_no2_rejected")}
    violations: list = []
    n9 = n10 = 0
    grid = enumerated_binary_mechanisms(FINITE_GRID)
    reps = [grid[k] for k in (1, 13, 41, 67)]
    for t, m1 in enumerate(grid[::16]):
        a, b = [(0, 1), (2, 3), (1, 2)][t % 3]
        lemma9(m1, [reps[a], reps[b]], 1, 2, counts, violations, f"grid M1 #{16 * t}")
        n9 += 1
    for t in range(3):
        n, attrs = [(1, ((0, 1),) * 2), (2, ((0, 1),))][t % 2]
        dom = dataset_domain(attrs, n)
        m1 = random_mechanism(rng, dom, rng.randint(2, 3), 0.0 if t % 3 else 0.2)
        k2 = rng.randint(2, 3)
        m2s = [random_mechanism(rng, dom, k2, 0.0) for _ in m1.outputs]
        lemma9(m1, m2s, n, len(attrs), counts, violations, f"random #{t}")
        n9 += 1
    # Lemma 10: columns of one attribute each (n records)
    col_grid = [enumerated_binary_mechanisms(FINITE_GRID)[k] for k in (10, 70)]
    for ma in col_grid:
        for mb in col_grid:
            lemma10([ma, mb], ((0, 1), (0, 1)), 2, counts, violations, "grid columns (n=2)")
            n10 += 1
    for t in range(6):
        n, attrs = [(1, ((0, 1),) * 3), (1, ((0, 1, 2), (0, 1))), (1, ((0, 1),) * 2)][t % 3]
        cols = [random_mechanism(rng, dataset_domain([vals], n), rng.randint(2, 3), 0.0 if t % 2 else 0.2)
                for vals in attrs]
        lemma10(cols, attrs, n, counts, violations, f"random columns #{t}")
        n10 += 1
    twins_ok = counts["twin_max_rejected"] > 0 and counts["twin_no2_rejected"] > 0
    ok = (counts["pairs_violated"] == 0 and counts["eps0_violated"] == 0 and counts["l10_violated"] == 0
          and twins_ok)
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"Lemma 9: {n9} instances, pairwise D* additivity certified {counts['pairs_certified']}, "
                   f"tight {counts['pairs_tight']}, violated {counts['pairs_violated']}; eps0^2 additivity "
                   f"violated {counts['eps0_violated']}; Lemma 10: {n10} instances, eps0 <= max_j sqrt(2 rho_j) "
                   f"certified {counts['l10_certified']}, equal within enclosure {counts['l10_tight']}, "
                   f"violated {counts['l10_violated']}; bad twins rejected: max(eps1, eps2) "
                   f"{counts['twin_max_rejected']}/{counts['twin_max_cases']}, sqrt(rho_j) "
                   f"{counts['twin_no2_rejected']}/{counts['twin_no2_cases']}",
        evidence={"counts": counts, "bad_twins_rejected": twins_ok, "lemma9_instances": n9, "lemma10_instances": n10, "violations": violations,
                  "random_seed": SEED, "dstar_enclosure_rel_width": CHECK_TOL},
    )
