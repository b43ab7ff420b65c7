"""Proposition 1 (finite form): eps-LDP => eps-BDP, and conversely a BDP pair is LDP after a
change of the mechanism on a pi-null set.

Forward: bdp_epsilon(M, pi) <= ldp_epsilon(M).
Converse (the construction of App. A.1, eq. (34), on a finite space): M' equals M on the support
of pi and repeats a supported row x_bar elsewhere.  Then the coupling M'(x) = M(x) on the support
has P{M = M'} = pi(support) = 1, and ldp_epsilon(M') == bdp_epsilon(M, pi) exactly (so M' is
eps_B-LDP and no smaller eps works for it).  The literal Def. 2 (bruteforce over all S, S', R) is
compared with bdp_epsilon on the same small instances.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp import INFINITY, Mechanism, Prior, bdp_epsilon, ldp_epsilon
from bcdp.bayesian.bruteforce import bdp_ratio_bruteforce, ldp_ratio_bruteforce
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.parameters import ratio_at_most

from .._common import (
    SQUARE,
    describe,
    enumerated_pairs,
    example1_mechanism,
    keep,
    random_pairs,
    rstr,
    verdict,
)

CLAIM = ClaimSpec(
    id="BCDP-Prop1",
    paper="bcdp",
    group="notions",
    where="Prop. 1, Sec. 2; Defs. 1-2, eqs. (1)-(5); proof App. A.1, eqs. (23)-(38)",
    statement="eps-LDP implies eps-BDP for every prior; conversely an eps-BDP pair is eps-LDP after changing "
              "M on a pi-null set (P{M = M'} = 1). Finite form: bdp_epsilon <= ldp_epsilon, and M' = M with "
              "off-support rows replaced by a supported row has P{M = M'} = 1 and ldp_epsilon(M') = "
              "bdp_epsilon(M, pi); literal Def. 2 = engine.",
    expected="confirmed",
    also_checked_in=(
        "`tests/bayesian/test_notions_exact.py::test_prior_without_full_support_restricts_bdp`",
    ),
)

SEED = 20240101
N_RANDOM = 200
BRUTEFORCE_MAX_SIZE = 4


def modify_off_support(mechanism: Mechanism, prior: Prior) -> Mechanism:
    """M' of eq. (34): rows outside supp(pi) replaced by the first supported row x_bar."""
    support = set(prior.support())
    x_bar = min(support)
    rows = tuple(mechanism.kernel[k] if k in support else mechanism.kernel[x_bar]
                 for k in range(mechanism.domain.size))
    return Mechanism(mechanism.domain, mechanism.outputs, rows)


def coupling_agreement(mechanism: Mechanism, modified: Mechanism, prior: Prior) -> Fraction:
    """P{M(x) = M'(x)} under the coupling that runs M' = M wherever the two rows coincide.

    Rows that are identical can be coupled to agree with probability one, so the agreement
    probability is at least the prior mass of those inputs; this returns that mass.
    """
    return sum((p for k, p in enumerate(prior.pmf)
                if mechanism.kernel[k] == modified.kernel[k]), Fraction(0))


def _one(mech: Mechanism, prior: Prior, tally: dict, bad: dict, label: str) -> None:
    ldp = ldp_epsilon(mech)
    bdp = bdp_epsilon(mech, prior)
    tally["instances"] += 1
    if not ratio_at_most(bdp, ldp):
        tally["forward_violations"] += 1
        keep(bad["forward"], {"where": label, "ldp": rstr(ldp.ratio), "bdp": rstr(bdp.ratio),
                              **describe(mech, prior)})
    modified = modify_off_support(mech, prior)
    agree = coupling_agreement(mech, modified, prior)
    ldp_mod = ldp_epsilon(modified)
    same_on_support = all(mech.kernel[k] == modified.kernel[k] for k in prior.support())
    if agree != 1 or not same_on_support or ldp_mod.ratio != bdp.ratio:
        tally["converse_violations"] += 1
        keep(bad["converse"], {"where": label, "P(M=M')": str(agree), "ldp(M')": rstr(ldp_mod.ratio),
                               "bdp(M)": rstr(bdp.ratio), **describe(mech, prior)})
    if ldp.is_infinite and not bdp.is_infinite:
        tally["ldp_infinite_bdp_finite"] += 1
    if mech.domain.size <= BRUTEFORCE_MAX_SIZE:
        tally["bruteforce_compared"] += 1
        lit_bdp = bdp_ratio_bruteforce(mech, prior)
        lit_ldp_mod = ldp_ratio_bruteforce(modified)
        if lit_bdp != bdp.ratio or lit_ldp_mod != ldp_mod.ratio:
            tally["bruteforce_mismatches"] += 1
            keep(bad["bruteforce"], {"where": label, "bdp_literal": rstr(lit_bdp),
                                     "bdp_engine": rstr(bdp.ratio), "ldp(M')_literal": rstr(lit_ldp_mod),
                                     "ldp(M')_engine": rstr(ldp_mod.ratio), **describe(mech, prior)})


def separating_instance() -> dict:
    """Example 1's table at a = b = c = 1/2 under a prior with no mass on (0, 1): LDP is infinite
    (mu_{(0,1)}(1) = 0 < mu_{(0,0)}(1)) but every supported row is (1/2, 1/2), so BDP = 0."""
    half = Fraction(1, 2)
    mech = example1_mechanism(half, half, half)
    prior = Prior.from_table({(0, 0): Fraction(1, 3), (1, 0): Fraction(1, 3), (1, 1): Fraction(1, 3)},
                             SQUARE)
    ldp, bdp = ldp_epsilon(mech), bdp_epsilon(mech, prior)
    modified = modify_off_support(mech, prior)
    ldp_mod = ldp_epsilon(modified)
    return {"instance": describe(mech, prior), "ldp": str(ldp.exact), "ldp_witness": ldp.witness,
            "bdp": str(bdp.exact), "ldp(M')": str(ldp_mod.exact),
            "P(M=M')": str(coupling_agreement(mech, modified, prior)),
            "ok": ldp.ratio == INFINITY and bdp.ratio != INFINITY and ldp_mod.ratio == bdp.ratio
            and coupling_agreement(mech, modified, prior) == 1}


def check() -> ClaimResult:
    tally = {"instances": 0, "forward_violations": 0, "converse_violations": 0,
             "ldp_infinite_bdp_finite": 0, "bruteforce_compared": 0, "bruteforce_mismatches": 0}
    bad: dict[str, list] = {"forward": [], "converse": [], "bruteforce": []}
    n_enum = 0
    for name, mech, prior in enumerated_pairs():
        _one(mech, prior, tally, bad, f"enumerated, prior {name}")
        n_enum += 1
    for mech, prior in random_pairs(SEED, N_RANDOM, max_size=8, max_outputs=4, zero_prob=0.2):
        _one(mech, prior, tally, bad, f"random seed {SEED}")
    sep = separating_instance()
    ok = (tally["forward_violations"] == 0 and tally["converse_violations"] == 0
          and tally["bruteforce_mismatches"] == 0 and sep["ok"])
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{n_enum} enumerated + {N_RANDOM} random pairs; "
                   f"{tally['forward_violations']} forward / {tally['converse_violations']} converse / "
                   f"{tally['bruteforce_mismatches']} literal-definition failures; "
                   f"{tally['ldp_infinite_bdp_finite']} with LDP=inf, BDP finite"
                   + ("" if sep["ok"] else "; separating instance FAILED"),
        evidence={"seed": SEED, "enumerated_pairs": n_enum,
                  "enumerated": "all 81 mechanisms {0,1}^2 -> {0,1} with P{M=1|x} in {0,1/2,1} x 7 priors "
                                "(3 full support, 4 without)",
                  "random_pairs": N_RANDOM, **tally, "counterexamples": bad,
                  "separating_instance": sep},
    )
