"""This library's own lemma: the reductions (R1)-(R3) of ``bcdp.bayesian.notions``.

The suprema of Defs. 1-4 and eq. (13) over all events R and all conditioning sets S, S' / S_i,
S_i' are attained at singletons, so ``ldp_epsilon``, ``bdp_epsilon``, ``cdp_vector``,
``bcdp_vector`` and ``coordinate_dependence`` (finite maxima) equal the literal definitions of
``bcdp.bayesian.bruteforce`` (enumeration of every subset).  Checked exactly on a few hundred small random
instances with zeros in kernels and priors (priors without full support, 0/0 and x/0 ratios) and
some tiny entries (down to 2^-200).  Each reported witness is also re-evaluated: the ratio (or TV)
at the witness sets must equal the reported value.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp import (
    INFINITY,
    Mechanism,
    Prior,
    bcdp_vector,
    bdp_epsilon,
    cdp_vector,
    coordinate_dependence,
    ldp_epsilon,
)
from bcdp.bayesian import bruteforce as bf
from bcdp.bayesian.hypothesis_testing import law_given_coordinate_set
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import describe, keep, random_pairs, rstr, verdict

CLAIM = ClaimSpec(
    id="BCDP-Lemma-R1R3",
    paper="bcdp",
    group="beyond",
    where="Defs. 1-4 (Sec. 2) and eq. (13) (Sec. 3.4); reductions R1-R3 of this library (docstring of "
          "`bcdp.bayesian.notions`)",
    statement="The suprema over events and conditioning sets in Defs. 1-4 and eq. (13) are attained at "
              "singletons, so ldp_epsilon, bdp_epsilon, cdp_vector, bcdp_vector, coordinate_dependence equal "
              "the literal definitions; every witness attains its value.",
    expected="confirmed",
    also_checked_in=(
        "`tests/bayesian/test_notions_exact.py::test_reductions_equal_literal_definitions`",
        "`tests/bayesian/test_notions_exact.py::test_witnesses_attain_the_values`",
    ),
)

SEED = 20240808
N_SMALL = 250      # |X| <= 6, |Y| <= 3: every oracle including BDP (2^|X| x 2^|X| x 2^|Y|)
N_MEDIUM = 80      # |X| <= 12, |Y| <= 4: every oracle except BDP
BDP_MAX_SIZE = 6


def _ratio(num: Fraction, den: Fraction) -> Fraction | float:
    if den == 0:
        return INFINITY if num > 0 else Fraction(1)
    return num / den


def _witness_ok(mech: Mechanism, prior: Prior) -> list[str]:
    """Names of the parameters whose witness does not attain the reported value."""
    out = []
    pos = {y: m for m, y in enumerate(mech.outputs)}
    idx = mech.domain.index
    eps = ldp_epsilon(mech)
    if eps.witness is not None:
        m = pos[eps.witness["R"][0]]
        r = _ratio(mech.row(eps.witness["x"])[m], mech.row(eps.witness["x_prime"])[m])
        if r != eps.ratio:
            out.append("ldp")
    b = bdp_epsilon(mech, prior)
    if b.witness is not None:
        m = pos[b.witness["R"][0]]
        s, s2 = tuple(b.witness["S"][0]), tuple(b.witness["S_prime"][0])
        if prior.pmf[idx[s]] == 0 or prior.pmf[idx[s2]] == 0 or \
                _ratio(mech.row(s)[m], mech.row(s2)[m]) != b.ratio:
            out.append("bdp")
    for i, c in enumerate(cdp_vector(mech)):
        if c.witness is not None:
            m = pos[c.witness["R"][0]]
            x, x2 = c.witness["x"], c.witness["x_prime"]
            if x[:i] + x[i + 1:] != x2[:i] + x2[i + 1:] or _ratio(mech.row(x)[m], mech.row(x2)[m]) != c.ratio:
                out.append(f"cdp[{i}]")
    for i, d in enumerate(bcdp_vector(mech, prior)):
        if d.witness is not None:
            m = pos[d.witness["R"][0]]
            p0 = law_given_coordinate_set(mech, prior, i, d.witness["S_i"])
            p1 = law_given_coordinate_set(mech, prior, i, d.witness["S_i_prime"])
            if _ratio(p0[m], p1[m]) != d.ratio:
                out.append(f"bcdp[{i}]")
    for i, q in enumerate(coordinate_dependence(prior)):
        if q.witness is not None:
            c0 = prior.rest_conditional(i, q.witness["S_i"][0])
            c1 = prior.rest_conditional(i, q.witness["S_i_prime"][0])
            tv = sum((c0[tuple(z)] - c1[tuple(z)] for z in q.witness["event"]), Fraction(0))
            if tv != q.value:
                out.append(f"dependence[{i}]")
    return out


def check() -> ClaimResult:
    counts = {"instances": 0, "bdp_compared": 0, "mismatches": 0, "witness_failures": 0,
              "infinite_values": 0, "priors_without_full_support": 0}
    per_notion = {"ldp": 0, "bdp": 0, "cdp": 0, "bcdp": 0, "dependence": 0}
    bad: list = []
    batches = [("small", random_pairs(SEED, N_SMALL, max_size=BDP_MAX_SIZE, max_outputs=3,
                                      zero_prob=0.2, tiny_prob=0.05)),
               ("medium", random_pairs(SEED + 1, N_MEDIUM, max_size=12, max_outputs=4,
                                       zero_prob=0.15, tiny_prob=0.05))]
    for batch, gen in batches:
        for mech, prior in gen:
            counts["instances"] += 1
            counts["priors_without_full_support"] += any(p == 0 for p in prior.pmf)
            found = {
                "ldp": ([ldp_epsilon(mech).ratio], [bf.ldp_ratio_bruteforce(mech)]),
                "cdp": ([c.ratio for c in cdp_vector(mech)], bf.cdp_ratios_bruteforce(mech)),
                "bcdp": ([d.ratio for d in bcdp_vector(mech, prior)], bf.bcdp_ratios_bruteforce(mech, prior)),
                "dependence": ([q.value for q in coordinate_dependence(prior)], bf.dependence_bruteforce(prior)),
            }
            if mech.domain.size <= BDP_MAX_SIZE:
                counts["bdp_compared"] += 1
                found["bdp"] = ([bdp_epsilon(mech, prior).ratio], [bf.bdp_ratio_bruteforce(mech, prior)])
            for notion, (engine, literal) in found.items():
                counts["infinite_values"] += sum(v == INFINITY for v in engine)
                if list(engine) != list(literal):
                    counts["mismatches"] += 1
                    per_notion[notion] += 1
                    keep(bad, {"batch": batch, "notion": notion, "engine": [rstr(v) for v in engine],
                               "literal": [rstr(v) for v in literal], **describe(mech, prior)})
            wit = _witness_ok(mech, prior)
            if wit:
                counts["witness_failures"] += 1
                keep(bad, {"batch": batch, "witness_failures": wit, **describe(mech, prior)})
    ok = counts["mismatches"] == 0 and counts["witness_failures"] == 0
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{counts['instances']} instances ({counts['bdp_compared']} with BDP oracle); "
                   f"{counts['mismatches']} mismatches, {counts['witness_failures']} bad witnesses",
        evidence={"seeds": [SEED, SEED + 1], "small": N_SMALL, "medium": N_MEDIUM, **counts,
                  "mismatches_per_notion": per_notion, "counterexamples": bad},
    )
