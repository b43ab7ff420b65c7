"""Proposition 5: post-processing K o M of a delta-BCDP pair is delta-BCDP.

Checked exactly for (a) deterministic maps K: Y -> Z (``post_process``): every map of a 2- or
3-output mechanism onto {0, 1, 2} (all merges of outputs) and random maps for larger Y, and
(b) random Markov kernels K (``post_process_kernel``, the randomized version, which follows from
(a) by the usual argument of adding independent randomness), with zeros in K.  For every
instance and every K: each bcdp_vector entry of K o M is <= the entry of M.  Bonus: LDP, BDP and
every CDP entry never increase either.
"""

from __future__ import annotations

import itertools
import random

from bcdp import (
    Mechanism,
    Prior,
    bcdp_vector,
    bdp_epsilon,
    cdp_vector,
    ldp_epsilon,
    post_process,
    post_process_kernel,
)
from bcdp.bayesian.random_instances import random_pmf
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.parameters import ratio_at_most

from .._common import describe, enumerated_pairs, keep, random_pairs, vec_str, verdict

CLAIM = ClaimSpec(
    id="BCDP-Prop5",
    paper="bcdp",
    group="notions",
    where="Prop. 5, Sec. 3.5; proof App. A.6, eqs. (56)-(58)",
    statement="Post-processing K o M (deterministic maps and Markov kernels) never increases any bcdp_vector "
              "entry; nor LDP, BDP or CDP.",
    expected="confirmed",
)

SEED = 20240606
N_RANDOM = 150
KERNELS_PER_INSTANCE = 3
MAPS_PER_INSTANCE = 3


def _params(mech: Mechanism, prior: Prior) -> dict:
    return {"bcdp": bcdp_vector(mech, prior), "ldp": [ldp_epsilon(mech)], "bdp": [bdp_epsilon(mech, prior)],
            "cdp": cdp_vector(mech)}


def _compare(before: dict, after: dict) -> list[str]:
    """Names of the parameters that increased."""
    out = []
    for name in before:
        for k, (b, a) in enumerate(zip(before[name], after[name])):
            if not ratio_at_most(a, b):
                out.append(f"{name}[{k}]")
    return out


def check() -> ClaimResult:
    rng = random.Random(SEED)
    counts = {"instances": 0, "deterministic_maps": 0, "random_kernels": 0,
              "bcdp_increases": 0, "ldp_bdp_cdp_increases": 0, "strict_bcdp_decreases": 0}
    bad: list = []

    def run(label: str, mech: Mechanism, prior: Prior, post: Mechanism, what: str, before: dict) -> None:
        after = _params(post, prior)
        up = _compare(before, after)
        if any(u.startswith("bcdp") for u in up):
            counts["bcdp_increases"] += 1
        if any(not u.startswith("bcdp") for u in up):
            counts["ldp_bdp_cdp_increases"] += 1
        if up:
            keep(bad, {"where": label, "post_processing": what, "increased": up,
                       "before": vec_str(before["bcdp"]), "after": vec_str(after["bcdp"]),
                       **describe(mech, prior)})
        if any(not ratio_at_most(b, a) for b, a in zip(before["bcdp"], after["bcdp"])):
            counts["strict_bcdp_decreases"] += 1

    # (a) every merge of the outputs of the enumerated 2x2 instances (maps {0,1} -> {0,1,2})
    for name, mech, prior in enumerated_pairs():
        counts["instances"] += 1
        before = _params(mech, prior)
        for images in itertools.product(range(3), repeat=len(mech.outputs)):
            table = dict(zip(mech.outputs, images))
            run(f"enumerated, prior {name}", mech, prior, post_process(mech, table.__getitem__),
                f"map {table}", before)
            counts["deterministic_maps"] += 1
    # random instances: every map for |Y| <= 3, random maps otherwise, and random kernels
    for mech, prior in random_pairs(SEED, N_RANDOM, max_size=12, max_outputs=5, zero_prob=0.1):
        counts["instances"] += 1
        before = _params(mech, prior)
        n_out = len(mech.outputs)
        if n_out <= 3:
            maps = list(itertools.product(range(3), repeat=n_out))
        else:
            maps = []
            for _ in range(MAPS_PER_INSTANCE):
                n_z = rng.randint(1, n_out)
                maps.append(tuple(rng.randrange(n_z) for _ in range(n_out)))
        for images in maps:
            table = dict(zip(mech.outputs, images))
            run(f"random seed {SEED}", mech, prior, post_process(mech, table.__getitem__),
                f"map {table}", before)
            counts["deterministic_maps"] += 1
        for _ in range(KERNELS_PER_INSTANCE):
            n_z = rng.randint(1, 4)
            kernel = [random_pmf(rng, n_z, zero_prob=0.3) for _ in range(n_out)]
            run(f"random seed {SEED}", mech, prior, post_process_kernel(mech, tuple(range(n_z)), kernel),
                f"kernel {[[str(p) for p in row] for row in kernel]}", before)
            counts["random_kernels"] += 1
    ok = counts["bcdp_increases"] == 0 and counts["ldp_bdp_cdp_increases"] == 0
    n_post = counts["deterministic_maps"] + counts["random_kernels"]
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{counts['instances']} instances x {n_post} post-processings; "
                   f"{counts['bcdp_increases']} BCDP increases, {counts['ldp_bdp_cdp_increases']} LDP/BDP/CDP",
        evidence={"seed": SEED, **counts, "counterexamples": bad},
    )
