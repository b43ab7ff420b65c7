"""Seeded random exact instances (priors, kernels) for the claim checks and tests.

Probabilities are random rationals with small denominators; a fraction of entries is forced to
zero to exercise the infinite/0-0 cases, and optional tiny entries (down to 2^-200) exercise
extreme ratios.  Everything is exact (Fractions); the generator is a ``random.Random`` seeded by
the caller so that checks are reproducible.
"""

from __future__ import annotations

import random
from fractions import Fraction

from bcdp.core.spaces import Mechanism, Prior, ProductDomain


def random_pmf(rng: random.Random, n: int, zero_prob: float = 0.0, tiny_prob: float = 0.0,
               max_weight: int = 9) -> tuple[Fraction, ...]:
    """A random exact pmf on n points (at least one positive entry)."""
    while True:
        weights = []
        for _ in range(n):
            u = rng.random()
            if u < zero_prob:
                weights.append(Fraction(0))
            elif u < zero_prob + tiny_prob:
                weights.append(Fraction(1, 2 ** rng.randint(30, 200)))
            else:
                weights.append(Fraction(rng.randint(1, max_weight)))
        total = sum(weights, Fraction(0))
        if total > 0:
            return tuple(w / total for w in weights)


def random_domain(rng: random.Random, max_d: int = 3, max_values: int = 3, max_size: int = 12) -> ProductDomain:
    while True:
        d = rng.randint(1, max_d)
        shape = [rng.randint(2, max_values) for _ in range(d)]
        size = 1
        for s in shape:
            size *= s
        if size <= max_size:
            return ProductDomain(tuple(tuple(range(s)) for s in shape))


def random_prior(rng: random.Random, domain: ProductDomain, zero_prob: float = 0.0,
                 tiny_prob: float = 0.0) -> Prior:
    return Prior(domain, random_pmf(rng, domain.size, zero_prob, tiny_prob))


def random_mechanism(rng: random.Random, domain: ProductDomain, n_outputs: int,
                     zero_prob: float = 0.0, tiny_prob: float = 0.0) -> Mechanism:
    rows = tuple(random_pmf(rng, n_outputs, zero_prob, tiny_prob) for _ in range(domain.size))
    return Mechanism(domain, tuple(range(n_outputs)), rows)


def random_instance(rng: random.Random, max_d: int = 3, max_values: int = 3, max_size: int = 12,
                    max_outputs: int = 4, zero_prob: float = 0.15, tiny_prob: float = 0.0
                    ) -> tuple[Mechanism, Prior]:
    dom = random_domain(rng, max_d, max_values, max_size)
    mech = random_mechanism(rng, dom, rng.randint(2, max_outputs), zero_prob, tiny_prob)
    prior = random_prior(rng, dom, zero_prob, tiny_prob)
    return mech, prior
