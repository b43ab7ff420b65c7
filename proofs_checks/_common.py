"""Shared helpers for the claim checks (not a check itself: the leading underscore hides it).

Everything here is exact: ratios are Fractions or :data:`bcdp.core.numbers.INFINITY`, and the JSON
forms are strings ("inf", "3/2", "log(2)") so that evidence never carries a float.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any, Iterator, Sequence

from bcdp import INFINITY, Mechanism, Prior, ProductDomain
from bcdp.bayesian import examples
from bcdp.bayesian.random_instances import random_instance
from bcdp.core.parameters import LogRatioParameter

#: How many counterexamples a check keeps in its evidence (the counts are always complete).
MAX_KEPT = 5

#: The opening of ``evidence["library"]`` of a check whose claim no library function implements
#: (pure paper math, e.g. a step of a proof); docs/testing.md, "Claim checks must touch the code",
#: lists these checks.
PAPER_ONLY = "checks the paper's statement; no library function implements it"


def rstr(ratio: Fraction | float) -> str:
    """Exact string of a ratio e^eps: "inf" or "p/q"."""
    return "inf" if ratio == INFINITY else str(Fraction(ratio))


def pstr(param: LogRatioParameter) -> str:
    """Exact string of a log-ratio parameter, e.g. "log(2)", "0", "oo"."""
    return str(param.exact)


def vec_str(params: Sequence[LogRatioParameter]) -> list[str]:
    return [pstr(p) for p in params]


def jsonable(value: Any) -> Any:
    """Tuples -> lists, Fractions -> strings, recursively (witnesses may hold tuples)."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value == INFINITY:
        return "inf"
    return value


def describe(mechanism: Mechanism, prior: Prior | None = None) -> dict:
    """An instance as exact strings, enough to rebuild it."""
    out: dict[str, Any] = {
        "domain": [list(v) for v in mechanism.domain.coordinate_values],
        "outputs": jsonable(list(mechanism.outputs)),
        "kernel": [[str(p) for p in row] for row in mechanism.kernel],
    }
    if prior is not None:
        out["prior"] = [str(p) for p in prior.pmf]
    return out


def keep(store: list, item: Any) -> None:
    if len(store) < MAX_KEPT:
        store.append(item)


# -- instance families ----------------------------------------------------------------------------

GRID = (Fraction(0), Fraction(1, 2), Fraction(1))
SQUARE = ProductDomain.binary(2)


def enumerated_binary_mechanisms(grid: Sequence[Fraction] = GRID) -> list[Mechanism]:
    """Every mechanism {0,1}^2 -> {0,1} with P{M = 1 | x} in ``grid`` (|grid|^4 of them)."""
    out = []
    for ps in itertools.product(grid, repeat=SQUARE.size):
        out.append(Mechanism(SQUARE, (0, 1), tuple((1 - p, p) for p in ps)))
    return out


def enumerated_priors() -> dict[str, Prior]:
    """Priors on {0,1}^2: full support (independent and correlated) and several without."""
    half, third = Fraction(1, 2), Fraction(1, 3)
    return {
        "uniform": Prior.uniform(SQUARE),
        "independent(1/3,1/4)": Prior.independent([{0: Fraction(2, 3), 1: third},
                                                   {0: Fraction(3, 4), 1: Fraction(1, 4)}]),
        "correlated_bits(q=1/2)": Prior.correlated_bits(2, half),
        "correlated_bits(q=1) [support {00,11}]": Prior.correlated_bits(2, 1),
        "point mass (0,0)": Prior.from_table({(0, 0): 1}, SQUARE),
        "support {00,01}": Prior.from_table({(0, 0): third, (0, 1): 2 * third}, SQUARE),
        "support {00,10,11}": Prior.from_table({(0, 0): half, (1, 0): Fraction(1, 4),
                                                (1, 1): Fraction(1, 4)}, SQUARE),
    }


def enumerated_pairs(grid: Sequence[Fraction] = GRID) -> Iterator[tuple[str, Mechanism, Prior]]:
    priors = enumerated_priors()
    for mech in enumerated_binary_mechanisms(grid):
        for name, prior in priors.items():
            yield name, mech, prior


def random_pairs(seed: int, n: int, **kwargs: Any) -> Iterator[tuple[Mechanism, Prior]]:
    """``n`` seeded random instances (zeros in kernels and priors by default)."""
    rng = random.Random(seed)
    for _ in range(n):
        yield random_instance(rng, **kwargs)


def verdict(ok: bool) -> str:
    """A claim without a recorded correction is either confirmed or refuted."""
    return "confirmed" if ok else "refuted"


def example1_mechanism(a: Fraction, b: Fraction, c: Fraction) -> Mechanism:
    """Example 1's table (BCDP paper, Sec. 3.3) as a mechanism on SQUARE: (x1, x2) = (0, 0) -> a,
    (1, 0) -> b, (0, 1) -> 0, (1, 1) -> c for P{M(x) = 1 | x} (see bcdp.bayesian.examples)."""
    return examples.example1_mechanism(a, b, c)[0]


def random_pairs_split(seed: int, n: int, kernel_zero: float, prior_zero: float, max_d: int = 3,
                       max_values: int = 3, max_size: int = 12, max_outputs: int = 4
                       ) -> Iterator[tuple[Mechanism, Prior]]:
    """Like :func:`random_pairs` but with separate zero rates for kernels and priors (e.g. kernels
    without zeros, so that the LDP epsilon is finite, under priors without full support)."""
    from bcdp.bayesian.random_instances import (
        random_domain,
        random_mechanism,
        random_prior,
    )

    rng = random.Random(seed)
    for _ in range(n):
        dom = random_domain(rng, max_d, max_values, max_size)
        mech = random_mechanism(rng, dom, rng.randint(2, max_outputs), kernel_zero)
        yield mech, random_prior(rng, dom, prior_zero)
