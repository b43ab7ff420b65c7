"""Example 1: a pair that is BCDP (finite delta) but not LDP, BDP or CDP.

The conditional laws P{M = y | x_i = v} are derived symbolically in a, b, c (module
``_example1_symbolic``, written from the paper's table, not from the engine) and delta_i is the
symbolic maximum of the log-ratios.  The check compares the symbolic value with the engine at many
rational (a, b, c) in (0, 1] (corners with coordinates equal to 1 included), evaluates the paper's
instance a = b = c = 1/2 (printed value: (log 2, log 2)), and verifies that LDP, BDP and both CDP
coordinates are infinite at every point sampled.  Its statement covers these parts; the printed
"finite multiplicative ranges for all a, b, c in (0, 1]" fails at the corners b = c = 1 and
a = b = 1 and is handled by ``erratum_example1_parameter_range``.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import sympy
from bcdp import Prior, bcdp_vector, bdp_epsilon, cdp_vector, ldp_epsilon
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.numbers import INFINITY

from .._common import SQUARE, example1_mechanism, keep, rstr, vec_str, verdict
from . import _example1_symbolic as sym

CLAIM = ClaimSpec(
    id="BCDP-Example1",
    paper="bcdp",
    group="notions",
    where="Example 1 (table of P{M(x) = 1 | x}), Sec. 3.3",
    statement="The table mechanism with x1, x2 i.i.d. Bern(1/2) is not LDP, BDP or CDP for any a, b, c in "
              "(0, 1]; its BCDP vector (derived symbolically) matches the engine and is (log 2, log 2) at a "
              "= b = c = 1/2.",
    expected="confirmed",
)

SEED = 20240505
N_RANDOM = 80


def sample_points(seed: int = SEED, n: int = N_RANDOM) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Random rationals in (0, 1] (about one coordinate in six set to exactly 1), plus the grid
    {1/4, 1/2, 3/4, 1}^3, which contains every corner case."""
    rng = random.Random(seed)
    pts = []
    for _ in range(n):
        def draw() -> Fraction:
            if rng.random() < 1 / 6:
                return Fraction(1)
            q = rng.randint(2, 40)
            return Fraction(rng.randint(1, q), q)
        pts.append((draw(), draw(), draw()))
    grid = [Fraction(k, 4) for k in range(1, 5)]
    pts += list(itertools.product(grid, repeat=3))
    return pts


def check() -> ClaimResult:
    prior = Prior.uniform(SQUARE)
    formulas = [str(sym.delta_symbolic(i)) for i in (0, 1)]
    mismatches: list = []
    n_mismatch = 0
    not_private_failures: list = []
    n_not_private_fail = 0
    n_finite_both = 0
    points = sample_points()
    for (va, vb, vc) in points:
        values = {sym.a: sympy.Rational(va.numerator, va.denominator),
                  sym.b: sympy.Rational(vb.numerator, vb.denominator),
                  sym.c: sympy.Rational(vc.numerator, vc.denominator)}
        mech = example1_mechanism(va, vb, vc)
        engine = bcdp_vector(mech, prior)
        symbolic = [sym.delta_ratio_at(i, values) for i in (0, 1)]
        for i in (0, 1):
            if symbolic[i] != engine[i].ratio:
                n_mismatch += 1
                keep(mismatches, {"abc": [str(va), str(vb), str(vc)], "coordinate": i,
                                  "symbolic": rstr(symbolic[i]), "engine": rstr(engine[i].ratio)})
        n_finite_both += all(e.ratio != INFINITY for e in engine)
        ldp, bdp, cdp = ldp_epsilon(mech), bdp_epsilon(mech, prior), cdp_vector(mech)
        if not (ldp.is_infinite and bdp.is_infinite and all(ci.is_infinite for ci in cdp)):
            n_not_private_fail += 1
            keep(not_private_failures, {"abc": [str(va), str(vb), str(vc)], "ldp": str(ldp.exact),
                                        "bdp": str(bdp.exact), "cdp": vec_str(cdp)})

    half = Fraction(1, 2)
    at_half = bcdp_vector(example1_mechanism(half, half, half), prior)
    sym_half = [sympy.simplify(sym.delta_symbolic(i).subs({s: sympy.Rational(1, 2) for s in sym.SYMBOLS}))
                for i in (0, 1)]
    log2 = sympy.log(2)
    half_ok = (all(d.ratio == 2 for d in at_half)
               and all(sympy.simplify(s - log2) == 0 for s in sym_half))
    ldp_half = ldp_epsilon(example1_mechanism(half, half, half))
    ok = n_mismatch == 0 and n_not_private_fail == 0 and half_ok
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"delta(1/2,1/2,1/2) = ({at_half[0].exact}, {at_half[1].exact}); {len(points)} points "
                   f"symbolic == engine ({n_mismatch} mismatches); LDP = BDP = CDP = inf at all",
        evidence={
            "seed": SEED, "points": len(points),
            "points_description": f"{N_RANDOM} random rationals in (0,1] + grid {{1/4,1/2,3/4,1}}^3",
            "conditional_laws_symbolic": {f"x{i + 1}={v}": [str(e) for e in sym.conditional_laws(i)[v]]
                                          for i in (0, 1) for v in (0, 1)},
            "delta_symbolic": {"delta_1": formulas[0], "delta_2": formulas[1]},
            "symbolic_vs_engine_mismatches": n_mismatch, "mismatch_examples": mismatches,
            "points_with_both_delta_finite": n_finite_both,
            "not_ldp_bdp_cdp_failures": n_not_private_fail, "failure_examples": not_private_failures,
            "a=b=c=1/2": {"paper": "(log(2), log(2))", "engine": vec_str(at_half),
                          "engine_witnesses": [d.witness for d in at_half],
                          "symbolic": [str(s) for s in sym_half], "ldp": str(ldp_half.exact),
                          "ldp_witness": ldp_half.witness, "matches": half_ok},
            "see_also": "erratum_example1_parameter_range: delta is infinite at b = c = 1 and at a = b = 1",
        },
    )
