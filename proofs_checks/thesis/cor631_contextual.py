"""Thesis Cor 6.3.1 (Sec. 6.3, reduction of [HYF23]): contextual bandits with a known context law reduce
exactly to linear bandits over X = {g(theta)}, so Alg 6.3.1's privacy carries over (JDP).

Printed: with g(theta) = E_c[phi(a*(c, theta), c)] known, running Alg 6.3.1 on X and letting the client
play a*(c_t, theta_t) is (eps, 0)-JDP with regret (6.8).  The regret is O(.) with an unspecified
constant and [HYF23]'s |R_T - R_T^L| = O~(sqrt T) is cited, so neither is decided here.  What is decided,
exactly on seeded random finite instances (rational features, context laws and parameters), is the
reduction the corollary rests on, through :mod:`bcdp.bandits.contextual`:

* linearity: the expected reward of the client's greedy choice, computed by the oracle here by
  enumerating contexts with its own argmax, equals <g(theta), theta*> for the library's g, for every
  theta of a finite Theta and every theta*;
* optimality: the best policy (the oracle enumerates every map context -> action) earns exactly
  <g(theta*), theta*>, and no x of the library's X earns more, so per-round regrets coincide.

The JDP part is post-processing of Alg 6.3.1's released sums, whose privacy THESIS-Alg6.3.1-privacy
decides (with Delta = 2, docs/errata.md E-Thesis-E.1.1).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from bcdp.bandits import contextual
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Cor6.3.1",
    paper="thesis",
    group="bandits",
    where="Cor 6.3.1, eq. (6.8), Sec. 6.3 (the reduction of [HYF23])",
    statement="With a known context law, playing Alg 6.3.1 on X = {g(theta)} and the greedy action a*(c, theta) is "
              "an exact reduction: the client's expected reward is <g(theta), theta*> and the best policy earns "
              "max_X <x, theta*> = <g(theta*), theta*>; privacy is Alg 6.3.1's by post-processing. (The O(.) "
              "regret (6.8) and [HYF23]'s O~(sqrt T) gap are cited, not decided.)",
    expected="confirmed",
    also_checked_in=("`tests/bandits/test_bandits_contextual.py`",),
)

SEED = 631
INSTANCES = 40


def _rand_q(rng: random.Random, den: int = 6) -> Fraction:
    return Fraction(rng.randint(-den, den), den)


def _instance(rng: random.Random):
    d = rng.choice((2, 3))
    n_ctx = rng.choice((2, 3))
    weights = [rng.randint(1, 5) for _ in range(n_ctx)]
    total = sum(weights)
    contexts = [(Fraction(w, total), [tuple(_rand_q(rng) for _ in range(d)) for _ in range(rng.choice((2, 3, 4)))])
                for w in weights]
    thetas = [tuple(_rand_q(rng, 4) for _ in range(d)) for _ in range(6)]
    return d, contexts, thetas


def _oracle_reward(theta, theta_star, contexts) -> Fraction:
    total = Fraction(0)
    for p, feats in contexts:
        scores = [sum(a * b for a, b in zip(f, theta)) for f in feats]
        best = min(range(len(feats)), key=lambda i: (-scores[i], i))   # lowest-index argmax
        total += p * sum(a * b for a, b in zip(feats[best], theta_star))
    return total


def _oracle_best_policy(theta_star, contexts) -> Fraction:
    best = None
    for policy in itertools.product(*[range(len(feats)) for _, feats in contexts]):
        v = sum(p * sum(a * b for a, b in zip(feats[i], theta_star)) for (p, feats), i in zip(contexts, policy))
        best = v if best is None or v > best else best
    return best


def check() -> ClaimResult:
    rng = random.Random(SEED)
    fails: list = []
    pairs = 0
    for k in range(INSTANCES):
        d, contexts, thetas = _instance(rng)
        X = contextual.reduced_action_set(thetas, contexts)
        for theta_star in thetas:
            for theta in thetas:
                pairs += 1
                g = contextual.reduced_action(theta, contexts)
                lin = sum(a * b for a, b in zip(g, theta_star))
                want = _oracle_reward(theta, theta_star, contexts)
                if lin != want:
                    keep(fails, {"instance": k, "what": "<g(theta), theta*> != expected greedy reward",
                                 "library": str(lin), "oracle": str(want)})
            opt = _oracle_best_policy(theta_star, contexts)
            g_star = contextual.reduced_action(theta_star, contexts)
            at_star = sum(a * b for a, b in zip(g_star, theta_star))
            best_x = max(sum(a * b for a, b in zip(x, theta_star)) for x, _ in X)
            if not (at_star == opt and best_x == opt):
                keep(fails, {"instance": k, "what": "optimum", "best policy": str(opt),
                             "<g(theta*), theta*>": str(at_star), "max over X": str(best_x)})
    verdict = "confirmed" if not fails else "refuted"
    return CLAIM.result(
        verdict=verdict,
        key_figure=(f"{INSTANCES} seeded instances (d = 2, 3; 2-3 contexts; 2-4 actions), {pairs} (theta, theta*) pairs: "
                 "the greedy reward is linear in g(theta) exactly and the best of all context->action policies "
                 "earns <g(theta*), theta*> = max_X <x, theta*>" if not fails else f"{len(fails)} failures kept"),
        evidence={"failures": fails, "seed": SEED,
                  "library": "bcdp.bandits.contextual.reduced_action / reduced_action_set vs oracles written here"},
    )
