"""Figure 1: the parameter relations between LDP, BDP, CDP and BCDP.

Arrows checked exactly, on enumerated and random instances (all on full product domains):

* CDP => LDP:  eps_L <= sum_i c_i   (exp: eps ratio <= product of the c ratios);
* LDP => CDP:  c_i <= eps_L for every i;
* BDP => BCDP: delta_i <= eps_B for every i;
* LDP <=> BDP: eps_B <= eps_L always, and eps_L = eps_B when the prior has full support.

The fifth arrow (c-CDP => delta-BCDP with delta a function of (c, pi)) is Proposition 4 and is
not part of this check.
"""

from __future__ import annotations

from bcdp import Mechanism, Prior, bcdp_vector, bdp_epsilon, cdp_vector, ldp_epsilon
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.parameters import product_of_ratios, ratio_at_most

from .._common import (
    describe,
    enumerated_pairs,
    keep,
    random_pairs,
    random_pairs_split,
    rstr,
    verdict,
)

CLAIM = ClaimSpec(
    id="BCDP-Fig1",
    paper="bcdp",
    group="notions",
    where="Figure 1, Sec. 3",
    statement="eps_L <= sum_i c_i; c_i <= eps_L; delta_i <= eps_B; eps_B <= eps_L; eps_L = eps_B when the "
              "prior has full support. (The CDP => BCDP arrow is Prop. 4, checked separately.)",
    expected="confirmed",
)

SEED = 20240707
N_RANDOM = 200
N_RANDOM_FINITE = 200

ARROWS = ("eps_L <= sum c_i", "c_i <= eps_L", "delta_i <= eps_B", "eps_B <= eps_L",
          "eps_L == eps_B (full support)")


def _check_instance(mech: Mechanism, prior: Prior) -> dict[str, bool]:
    eps_l, eps_b = ldp_epsilon(mech), bdp_epsilon(mech, prior)
    c, delta = cdp_vector(mech), bcdp_vector(mech, prior)
    full = all(p > 0 for p in prior.pmf)
    return {
        "eps_L <= sum c_i": ratio_at_most(eps_l, product_of_ratios(c)),
        "c_i <= eps_L": all(ratio_at_most(ci, eps_l) for ci in c),
        "delta_i <= eps_B": all(ratio_at_most(di, eps_b) for di in delta),
        "eps_B <= eps_L": ratio_at_most(eps_b, eps_l),
        "eps_L == eps_B (full support)": (not full) or eps_l.ratio == eps_b.ratio,
    }


def check() -> ClaimResult:
    pairs = [(f"enumerated, prior {name}", m, p) for name, m, p in enumerated_pairs()]
    pairs += [(f"random seed {SEED}", m, p)
              for m, p in random_pairs(SEED, N_RANDOM, max_size=12, max_outputs=4, zero_prob=0.1)]
    pairs += [(f"random seed {SEED + 1}, zero-free kernels", m, p)
              for m, p in random_pairs_split(SEED + 1, N_RANDOM_FINITE, kernel_zero=0.0, prior_zero=0.2)]
    violations = {a: 0 for a in ARROWS}
    bad: list = []
    n_full = n_finite = n_tight_sum = 0
    for label, mech, prior in pairs:
        res = _check_instance(mech, prior)
        n_full += all(p > 0 for p in prior.pmf)
        eps_l = ldp_epsilon(mech)
        if not eps_l.is_infinite:
            n_finite += 1
            n_tight_sum += eps_l.ratio == product_of_ratios(cdp_vector(mech))
        for arrow, holds in res.items():
            if not holds:
                violations[arrow] += 1
                keep(bad, {"where": label, "arrow": arrow, "eps_L": rstr(eps_l.ratio), **describe(mech, prior)})
    ok = all(v == 0 for v in violations.values())
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{len(pairs)} instances x 5 relations; {sum(violations.values())} violations",
        evidence={"seeds": [SEED, SEED + 1], "instances": len(pairs), "full_support_priors": n_full,
                  "finite_eps_L": n_finite, "eps_L_equals_sum_c": n_tight_sum,
                  "violations": violations, "counterexamples": bad,
                  "not_checked_here": "c-CDP => BCDP with delta = f(c, pi) (Proposition 4)"},
    )
