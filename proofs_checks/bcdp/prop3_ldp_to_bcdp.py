"""Proposition 3: an eps-LDP mechanism is (eps 1)-BCDP under every prior, i.e. delta_i <= eps_L.

Checked exactly on enumerated and random instances (priors with and without full support).

A "bad twin" that must be rejected rides along: "c-CDP implies c-BCDP" (coordinate DP with
correlation ignored, the misreading warned against in Sec. 2 after Def. 3 and in Sec. 3.4).  The
check exhibits a counterexample, the redundant-copies prior of Sec. 3.4 (correlated_bits with
q = 1: x_1 = x_2) with randomized response on x_1 alone, where c = (log 3, 0) but
delta = (log 3, log 3), and also counts counterexamples that the engine finds among random
instances.  The verdict is "confirmed" only if Prop. 3 holds everywhere AND the bad twin is
rejected.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from bcdp import Mechanism, Prior, ProductDomain, bcdp_vector, cdp_vector, ldp_epsilon
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.parameters import ratio_at_most

from .._common import (
    describe,
    enumerated_pairs,
    keep,
    random_pairs,
    random_pairs_split,
    vec_str,
    verdict,
)

CLAIM = ClaimSpec(
    id="BCDP-Prop3",
    paper="bcdp",
    group="notions",
    where="Prop. 3, Sec. 3.2; proof App. A.3; the CDP caveat after Def. 3 (Sec. 2) and in Sec. 3.4",
    statement="An eps-LDP mechanism is (eps 1)-BCDP: delta_i <= eps_L for every prior. Bad twin rejected in "
              "the same check: \"c-CDP implies c-BCDP\" fails (redundant copies x1 = x2, randomized response "
              "on x1: c = (log 3, 0), delta = (log 3, log 3)).",
    expected="confirmed",
)

SEED = 20240404
N_RANDOM = 150
N_RANDOM_FINITE = 250


def redundant_copies_instance() -> tuple[Mechanism, Prior]:
    """x = (z, z) with z ~ Bern(1/2); M(x) = x_1 with probability 3/4, 1 - x_1 otherwise."""
    prior = Prior.correlated_bits(2, 1)
    three_q = Fraction(3, 4)
    mech = Mechanism.from_function(ProductDomain.binary(2), (0, 1),
                                   lambda x: {x[0]: three_q, 1 - x[0]: 1 - three_q})
    return mech, prior


def _twin_violations(mech: Mechanism, prior: Prior) -> list[int]:
    """Coordinates i with delta_i > c_i (where c-CDP would wrongly promise c-BCDP)."""
    c, delta = cdp_vector(mech), bcdp_vector(mech, prior)
    return [i for i in range(len(c)) if not ratio_at_most(delta[i], c[i])]


def check() -> ClaimResult:
    pairs = [(f"enumerated, prior {name}", m, p) for name, m, p in enumerated_pairs()]
    pairs += [(f"random seed {SEED}", m, p)
              for m, p in random_pairs(SEED, N_RANDOM, max_size=12, max_outputs=4, zero_prob=0.1)]
    # kernels without zeros (finite eps_L, where Prop. 3 has content) under priors with zeros
    pairs += [(f"random seed {SEED + 1}, zero-free kernels", m, p)
              for m, p in random_pairs_split(SEED + 1, N_RANDOM_FINITE, kernel_zero=0.0, prior_zero=0.25)]
    n_coords = n_viol = n_finite_ldp = 0
    bad: list = []
    twin_random_hits = 0
    twin_first_random = None
    for label, mech, prior in pairs:
        eps = ldp_epsilon(mech)
        n_finite_ldp += not eps.is_infinite
        vec = bcdp_vector(mech, prior)
        for i, delta in enumerate(vec):
            n_coords += 1
            if not ratio_at_most(delta, eps):
                n_viol += 1
                keep(bad, {"where": label, "coordinate": i, "delta_i": str(delta.exact),
                           "eps_L": str(eps.exact), **describe(mech, prior)})
        hits = _twin_violations(mech, prior)
        if hits:
            twin_random_hits += 1
            if twin_first_random is None and not any(ci.is_infinite for ci in cdp_vector(mech)):
                c = cdp_vector(mech)
                twin_first_random = {"where": label, "coordinates": hits, "c": vec_str(c),
                                     "delta": vec_str(vec), **describe(mech, prior)}

    mech, prior = redundant_copies_instance()
    c, delta, eps = cdp_vector(mech), bcdp_vector(mech, prior), ldp_epsilon(mech)
    log3 = sympy.log(3)
    constructed_ok = (c[0].exact == log3 and c[1].exact == 0 and delta[0].exact == log3
                      and delta[1].exact == log3 and not ratio_at_most(delta[1], c[1]))
    twin_rejected = constructed_ok and twin_first_random is not None
    prop3_ok = n_viol == 0
    return CLAIM.result(
        verdict=verdict(prop3_ok and twin_rejected),
        key_figure=f"{len(pairs)} instances, {n_coords} coordinates; {n_viol} violations; bad twin "
                   f"{'rejected' if twin_rejected else 'NOT rejected'}: "
                   f"c = ({c[0].exact}, {c[1].exact}), delta = ({delta[0].exact}, {delta[1].exact})",
        evidence={"seeds": [SEED, SEED + 1], "enumerated": len(pairs) - N_RANDOM - N_RANDOM_FINITE,
                  "random": N_RANDOM, "random_zero_free_kernels": N_RANDOM_FINITE,
                  "instances_with_finite_ldp": n_finite_ldp, "coordinates": n_coords,
                  "violations": n_viol, "counterexamples": bad,
                  "bad_twin": {
                      "claim": "c-CDP implies c-BCDP (i.e. delta_i <= c_i) -- must be rejected",
                      "rejected": twin_rejected,
                      "constructed_counterexample": {
                          "description": "correlated_bits(d=2, q=1) prior (x_1 = x_2), randomized response "
                                         "on x_1 with P(truth) = 3/4",
                          "cdp": vec_str(c), "bcdp": vec_str(delta), "ldp": str(eps.exact),
                          "delta_2_witness": delta[1].witness, "c_2 < delta_2": constructed_ok,
                          **describe(mech, prior)},
                      "instances_with_some_delta_i_gt_c_i": twin_random_hits,
                      "first_engine_found_counterexample_with_finite_c": twin_first_random},
                  },
    )
