"""Corollary 1: closed forms of c in each regime of q, derived in sympy, against eq. (16).

delta_i = delta (i <= k), delta_i = eps > 2 delta (i > k), zeta = 1/2.  The threshold is
q* = (e^{delta/2} - 1)/(e^eps - 1).  The derivation (bcdp.bayesian.symbolic) has three cases: regime 1
(q <= q*), regime 2a (q > q*, c_d > delta) and regime 2b (c_d <= delta, which the paper does not
separate).  Checked: the closed-form c equals the general allocation exactly (certified) at random
points; the two-level eq. (17) sum derived symbolically equals bcdp.bayesian.allocation.mse_objective; and
c_d decreases from eps (at q*) to delta/2 (at q = 1), as the corollary states.
"""

from __future__ import annotations

import random
from fractions import Fraction

import sympy
from bcdp.bayesian.allocation import allocate_budgets, mse_objective
from bcdp.bayesian.symbolic import (
    a_s,
    b_s,
    corollary1_c,
    corollary1_objective,
    corollary1_threshold,
    d_s,
    k_s,
    two_level_objective,
    two_level_objective_symbolic,
)
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import compare

from .._common import keep, verdict

CLAIM = ClaimSpec(
    id="BCDP-Cor1",
    paper="bcdp",
    group="allocation",
    where="Cor. 1, eqs. (18)-(19), Sec. 4; App. B.2, eqs. (70)-(72)",
    statement="zeta = 1/2, delta_i = delta (i <= k), eps > 2 delta otherwise: closed-form c in regimes q <= "
              "(e^{delta/2}-1)/(e^eps-1) and above (with the sub-case c_d <= delta), equal to eq. (16) "
              "exactly; c_d decreases from eps to delta/2.",
    expected="confirmed",
    also_checked_in=(
        "`tests/bayesian/test_cdp_to_bcdp.py`",
    ),
)

SEED = 1801
N_RANDOM = 40


def check() -> ClaimResult:
    rng = random.Random(SEED)
    mismatches: list = []
    regimes = {"1": 0, "2a": 0, "2b": 0}
    for t in range(N_RANDOM):
        delta = Fraction(rng.randint(1, 10), 10)
        eps = 2 * delta + Fraction(rng.randint(1, 20), 10)
        d = rng.randint(2, 6)
        k = rng.randint(1, d - 1)
        thr = corollary1_threshold(delta, eps)
        # q drawn around the threshold and across [0, 1]
        q = Fraction(rng.randint(1, 1000), 1000) if t % 2 else \
            Fraction(str(sympy.N(thr * sympy.Rational(rng.randint(5, 20), 10), 15))).limit_denominator(10 ** 6)
        q = min(max(q, Fraction(1, 10 ** 6)), Fraction(1))
        low, high, regime = corollary1_c(delta, eps, q, d, k)
        regimes[regime] += 1
        alloc = allocate_budgets([delta] * k + [eps] * (d - k), eps, q, Fraction(1, 2))
        expected = [low] * k + [high] * (d - k)
        if any(compare(a, b) != 0 for a, b in zip(alloc.c_sorted, expected)):
            keep(mismatches, {"delta": str(delta), "eps": str(eps), "q": str(q), "d": d, "k": k,
                              "regime": regime, "closed_form": [str(v) for v in expected],
                              "allocation": [str(v) for v in alloc.c_sorted]})
        elif compare(corollary1_objective(delta, eps, q, d, k), mse_objective(alloc.c_sorted)) != 0:
            keep(mismatches, {"objective differs": True, "delta": str(delta), "q": str(q), "d": d, "k": k})
    symbolic = sympy.simplify(two_level_objective_symbolic() - two_level_objective(a_s, b_s, d_s, k_s)) == 0
    # c_d at the threshold equals eps and at q = 1 equals delta/2
    delta, eps = Fraction(1, 5), Fraction(2)
    thr = corollary1_threshold(delta, eps)
    cd_thr = sympy.log((sympy.exp(sympy.Rational(1, 10)) + thr - 1) / thr)
    endpoints = sympy.simplify(cd_thr - eps) == 0 and corollary1_c(delta, eps, 1, 10, 2)[1] == delta / 2
    q_sym = sympy.symbols("q", positive=True)
    dcd = sympy.diff(sympy.log((sympy.exp(sympy.Symbol("delta", positive=True) / 2) + q_sym - 1) / q_sym), q_sym)
    decreasing = sympy.simplify(dcd * q_sym * (q_sym + sympy.exp(sympy.Symbol("delta", positive=True) / 2) - 1))
    # = -(e^{delta/2} - 1) < 0 for delta > 0
    decreasing_ok = sympy.simplify(decreasing + sympy.exp(sympy.Symbol("delta", positive=True) / 2) - 1) == 0
    ok = not mismatches and symbolic and endpoints and decreasing_ok and all(regimes.values())
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{N_RANDOM} random points (regimes {regimes}), {len(mismatches)} mismatches",
        evidence={"seed": SEED, "regime_counts": regimes, "mismatches": mismatches,
                  "two_level_objective_symbolic_identity": symbolic,
                  "c_d(threshold) = eps and c_d(1) = delta/2": endpoints,
                  "dc_d/dq = -(e^{delta/2}-1)/(q (q + e^{delta/2} - 1))": decreasing_ok},
    )
