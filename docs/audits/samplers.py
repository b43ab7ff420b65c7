"""Samplers of real DP libraries (and one deliberately broken mechanism) for ``bcdp audit-sampler``.

Each follows the audit's convention ``fn(x, rng, size=m)`` (m outputs for input x).  diffprivlib's
mechanisms take a ``random_state``: it is drawn from ``rng``, so a run is reproducible with
``--seed``.  OpenDP samples from the operating system's cryptographic generator and cannot be seeded:
its counts differ between runs (the verdicts do not, with the stated confidence).

Documented privacy: diffprivlib ``Binary`` (randomised response on two labels) and ``Geometric``
(two-sided geometric, sensitivity 1) are epsilon-DP for their ``epsilon``; OpenDP's
``make_randomized_response_bool(prob)`` is ln(prob / (1 - prob))-DP and ``make_laplace`` on integers
(the discrete Laplace mechanism) is (1 / scale)-DP at distance 1 (its privacy map).
"""

from __future__ import annotations

import math

import numpy as np

EPSILON = 1.0


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(2 ** 31 - 1))


def diffprivlib_binary(x, rng, size):
    """diffprivlib.mechanisms.Binary(epsilon=1) on the labels "0" and "1"."""
    from diffprivlib.mechanisms import Binary

    mech = Binary(epsilon=EPSILON, value0="0", value1="1", random_state=_seed(rng))
    return [mech.randomise(x) for _ in range(size)]


def diffprivlib_geometric(x, rng, size):
    """diffprivlib.mechanisms.Geometric(epsilon=1, sensitivity=1) on integer inputs."""
    from diffprivlib.mechanisms import Geometric

    mech = Geometric(epsilon=EPSILON, sensitivity=1, random_state=_seed(rng))
    return np.array([mech.randomise(x) for _ in range(size)], dtype=float)


def opendp_randomized_response(x, rng, size):
    """OpenDP make_randomized_response_bool(prob=0.75): documented ln 3 = 1.0986...-DP."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    mech = dp.m.make_randomized_response_bool(prob=0.75)
    return [int(mech(bool(x))) for _ in range(size)]


def opendp_discrete_laplace(x, rng, size):
    """OpenDP make_laplace on integers with scale 1: the discrete Laplace mechanism, 1-DP at distance 1."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    mech = dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0)
    return np.array([mech(int(x)) for _ in range(size)], dtype=float)


def broken_randomized_response(x, rng, size):
    """Deliberately broken: claims epsilon = 1 but keeps with probability e^(2 eps) / (1 + e^(2 eps))."""
    keep = math.exp(2 * EPSILON) / (1 + math.exp(2 * EPSILON))
    return np.where(rng.random(size) < keep, x, 1 - x)
