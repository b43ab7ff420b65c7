"""Proposition 2: M is eps-LDP iff e^eps alpha + beta >= 1 for all x, x' and rejection regions R
(and equivalently alpha + e^eps beta >= 1).

For every instance: the smallest e^eps satisfying the type-I form over all tests (x, x', R)
(``hypothesis_testing.ldp_ratio_from_tests``) and the smallest e^eps satisfying the twin form
(computed here: max over tests of (1 - alpha)/beta) both equal exp(ldp_epsilon(M)).  On a subset
the criterion is also evaluated with sympy at eps (must hold for every test, both forms) and at a
smaller eps (must fail for some test, both forms).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Sequence

import sympy
from bcdp import INFINITY, Mechanism, ldp_epsilon
from bcdp.bayesian.hypothesis_testing import (
    TestPoint,
    all_tests,
    ldp_ratio_from_tests,
    satisfies_testing_criterion,
)
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.numbers import log_of_ratio

from .._common import (
    describe,
    enumerated_binary_mechanisms,
    keep,
    random_pairs,
    rstr,
    verdict,
)

CLAIM = ClaimSpec(
    id="BCDP-Prop2",
    paper="bcdp",
    group="notions",
    where="Prop. 2, Sec. 3.1, eq. (11) and its twin form",
    statement="M is eps-LDP iff e^eps alpha + beta >= 1 (equivalently alpha + e^eps beta >= 1) for all x, "
              "x', R; the smallest such eps is ldp_epsilon.",
    expected="confirmed",
)

SEED = 20240202
N_RANDOM = 150
N_SYMPY_FINITE = 30  # instances (finite eps) on which the criterion is evaluated at eps and below
N_SYMPY_INFINITE = 10  # instances (infinite eps) on which it is shown to fail for every finite eps
ENUM_GRID = (Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(1))


def smallest_ratio_type2(points: Sequence[TestPoint]) -> Fraction | float:
    """min e^eps >= 1 with alpha + e^eps beta >= 1 for all tests: max of (1 - alpha)/beta."""
    best: Fraction | float = Fraction(1)
    for t in points:
        need = 1 - t.alpha
        if need <= 0:
            continue
        if t.beta == 0:
            return INFINITY
        best = max(best, need / t.beta)
    return best


def ldp_ratio_from_tests_type2(mechanism: Mechanism) -> Fraction | float:
    best: Fraction | float = Fraction(1)
    for a, b in itertools.product(range(mechanism.domain.size), repeat=2):
        best = max(best, smallest_ratio_type2(all_tests(mechanism.kernel[a], mechanism.kernel[b])))
        if best == INFINITY:
            break
    return best


def smaller_ratio(ratio: Fraction) -> Fraction:
    """A ratio strictly between 1 and ``ratio`` (> 1): ratio * 1000/1001, or the midpoint."""
    r = ratio * Fraction(1000, 1001)
    return r if r > 1 else (1 + ratio) / 2


def criterion_everywhere(mechanism: Mechanism, delta: sympy.Expr, form: str) -> bool:
    """eq. (11) (or its twin) for every ordered pair of inputs and every R, decided with sympy."""
    return all(satisfies_testing_criterion(all_tests(mechanism.kernel[a], mechanism.kernel[b]), delta, form)
               for a, b in itertools.product(range(mechanism.domain.size), repeat=2))


def _blocks_every_finite_eps(t: TestPoint, form: str) -> bool:
    if form == "type1":
        return t.alpha == 0 and t.beta < 1
    return t.beta == 0 and t.alpha < 1


def check() -> ClaimResult:
    instances = [("enumerated", m) for m in enumerated_binary_mechanisms(ENUM_GRID)]
    instances += [(f"random seed {SEED}", m)
                  for m, _ in random_pairs(SEED, N_RANDOM, max_size=8, max_outputs=4, zero_prob=0.03)]
    mismatches: list = []
    n_mismatch = n_type2_mismatch = 0
    sympy_finite = sympy_infinite = sympy_failures = 0
    n_inf = 0
    for label, mech in instances:
        eps = ldp_epsilon(mech)
        n_inf += eps.is_infinite
        r1 = ldp_ratio_from_tests(mech)
        r2 = ldp_ratio_from_tests_type2(mech)
        if r1 != eps.ratio:
            n_mismatch += 1
            keep(mismatches, {"where": label, "form": "type1", "tests": rstr(r1), "ldp": rstr(eps.ratio),
                              **describe(mech)})
        if r2 != eps.ratio:
            n_type2_mismatch += 1
            keep(mismatches, {"where": label, "form": "type2", "tests": rstr(r2), "ldp": rstr(eps.ratio),
                              **describe(mech)})
        if (sympy_infinite < N_SYMPY_INFINITE) if eps.is_infinite else (sympy_finite < N_SYMPY_FINITE):
            if eps.is_infinite:
                sympy_infinite += 1
            else:
                sympy_finite += 1
            for form in ("type1", "type2"):
                if eps.is_infinite:
                    # No finite eps works: some test has alpha = 0 < 1 - beta (type1) or beta = 0 <
                    # 1 - alpha (type2), which violates the criterion for every finite eps; the
                    # criterion is also evaluated at eps = log(10^30).
                    holds = any(_blocks_every_finite_eps(t, form) for a, b in
                                itertools.product(range(mech.domain.size), repeat=2)
                                for t in all_tests(mech.kernel[a], mech.kernel[b]))
                    below = log_of_ratio(Fraction(10) ** 30)
                else:
                    holds = criterion_everywhere(mech, eps.exact, form)
                    below = log_of_ratio(smaller_ratio(eps.ratio)) if eps.ratio > 1 else None
                fails_below = below is None or not criterion_everywhere(mech, below, form)
                if not (holds and fails_below):
                    sympy_failures += 1
                    keep(mismatches, {"where": label, "form": form, "holds_at_eps_or_certificate": holds,
                                      "fails_below_eps": fails_below, "eps": str(eps.exact),
                                      **describe(mech)})
    ok = n_mismatch == 0 and n_type2_mismatch == 0 and sympy_failures == 0
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{len(instances)} mechanisms, both forms; {n_mismatch + n_type2_mismatch + sympy_failures} "
                   f"mismatches",
        evidence={"seed": SEED,
                  "enumerated": f"all {len(ENUM_GRID) ** 4} mechanisms {{0,1}}^2 -> {{0,1}} with P{{M=1|x}} in "
                                "{0, 1/3, 1/2, 1}",
                  "random": N_RANDOM, "infinite_eps": n_inf, "finite_eps": len(instances) - n_inf,
                  "type1_mismatches": n_mismatch, "type2_mismatches": n_type2_mismatch,
                  "sympy_criterion_instances": {"finite_eps": sympy_finite, "infinite_eps": sympy_infinite},
                  "sympy_criterion_failures": sympy_failures,
                  "smaller_eps_used": "log(r * 1000/1001) (or log((1+r)/2) when r * 1000/1001 <= 1); "
                                      "log(10^30) when eps is infinite",
                  "infinite_eps_certificate": "a test with alpha = 0 < 1 - beta (type1), resp. beta = 0 < "
                                              "1 - alpha (type2): the criterion fails for every finite eps",
                  "counterexamples": mismatches},
    )
