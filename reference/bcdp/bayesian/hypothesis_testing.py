"""The hypothesis-testing view of privacy: Proposition 2 (LDP) and Theorem 1 (BCDP).

For coordinate i and sets S_i, S_i' with positive prior mass, the adversary tests
H0: Y ~ P{ . | x_i in S_i} against H1: Y ~ P{ . | x_i in S_i'} with a rejection region R.
Type I error alpha(R) = P0(R) (rejecting a true H0), type II error beta(R) = 1 - P1(R).

Theorem 1 (eq. 12): (pi, M) is delta-BCDP iff e^{delta_i} alpha + beta >= 1 for every i, S_i,
S_i', R.  For fixed (S_i, S_i') the smallest such delta_i is log max_R P1(R)/P0(R)
(= log max_R (1 - beta)/alpha), and its maximum over (S_i, S_i') is ``bcdp_vector[i]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bcdp.bayesian.bruteforce import coordinate_set_members, nonempty_subsets
from bcdp.bayesian.exact_inputs import exact_expr
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import compare
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.spaces import Mechanism, Prior

if TYPE_CHECKING:  # pragma: no cover
    import sympy

#: Exhaustive enumeration of rejection regions is refused beyond 2^MAX_OUTPUTS regions.
MAX_OUTPUTS = 16


@dataclass(frozen=True)
class TestPoint:
    """One deterministic test: rejection region (output indices) and its exact error rates."""

    region: tuple[int, ...]
    alpha: Fraction
    beta: Fraction


def law_given_coordinate_set(mechanism: Mechanism, prior: Prior, i: int,
                             values: Sequence[Hashable]) -> tuple[Fraction, ...]:
    """eq. (9): P{M(x) = y | x_i in S_i} for S_i = ``values``; refuses S_i with zero mass."""
    members = coordinate_set_members(prior, i, values)
    mass = sum((prior.pmf[k] for k in members), Fraction(0))
    if mass == 0:
        raise InvalidInputError(f"pi(x_{i} in {list(values)}) = 0: S_i is not in F+_{{X_i}} (eq. 8)")
    return tuple(sum((prior.pmf[k] * mechanism.kernel[k][m] for k in members), Fraction(0)) / mass
                 for m in range(len(mechanism.outputs)))


def exact_law(law: Sequence[Any], name: str) -> tuple[Fraction, ...]:
    """A law over the outputs as exact Fractions (:func:`bcdp.core.numbers.to_fraction`: floats refused)."""
    if isinstance(law, (str, bytes)) or not isinstance(law, Sequence):
        raise InvalidInputError(f"{name} must be a sequence of probabilities, got {law!r}")
    return tuple(to_fraction(v, f"{name}[{m}]") for m, v in enumerate(law))


def all_tests(null_law: Sequence[Fraction], alt_law: Sequence[Fraction]) -> list[TestPoint]:
    """(alpha, beta) of every rejection region R subset of Y, including the empty one (exact laws)."""
    null_law, alt_law = exact_law(null_law, "null_law"), exact_law(alt_law, "alt_law")
    n = len(null_law)
    if len(alt_law) != n:
        raise InvalidInputError("the two laws must be over the same outputs")
    if n > MAX_OUTPUTS:
        raise InvalidInputError(f"|Y| = {n} > {MAX_OUTPUTS}: use neyman_pearson_curve instead")
    points = []
    for r in range(n + 1):
        for region in itertools.combinations(range(n), r):
            alpha = sum((null_law[m] for m in region), Fraction(0))
            beta = 1 - sum((alt_law[m] for m in region), Fraction(0))
            points.append(TestPoint(region, alpha, beta))
    return points


def tradeoff_frontier(points: Sequence[TestPoint]) -> list[TestPoint]:
    """Pareto-optimal deterministic tests: no other test has both errors <= and one <."""
    pts = sorted(points, key=lambda t: (t.alpha, t.beta))
    frontier: list[TestPoint] = []
    best_beta = None
    for t in pts:
        if best_beta is None or t.beta < best_beta:
            frontier.append(t)
            best_beta = t.beta
    return frontier


def neyman_pearson_curve(null_law: Sequence[Fraction], alt_law: Sequence[Fraction]) -> list[tuple[Fraction, Fraction]]:
    """Vertices (alpha, beta) of the optimal trade-off over randomized tests (Neyman-Pearson).

    Outputs are added to the rejection region in decreasing order of the likelihood ratio
    P1(y)/P0(y) (infinite first); outputs with probability 0 under both laws are skipped; ties are merged
    into one segment.  The laws are exact (floats refused).
    """
    null_law, alt_law = exact_law(null_law, "null_law"), exact_law(alt_law, "alt_law")
    n = len(null_law)
    if len(alt_law) != n:
        raise InvalidInputError("the two laws must be over the same outputs")

    def key(m: int):
        p0, p1 = null_law[m], alt_law[m]
        if p0 == 0:
            return (0, 0) if p1 > 0 else (2, 0)
        return (1, -(p1 / p0))
    order = sorted((m for m in range(n) if null_law[m] or alt_law[m]), key=key)  # 0/0 outputs move nothing
    alpha, beta = Fraction(0), Fraction(1)
    curve = [(alpha, beta)]
    prev_key = None
    for m in order:
        k = key(m)
        alpha += null_law[m]
        beta -= alt_law[m]
        if k == prev_key:
            curve[-1] = (alpha, beta)
        else:
            curve.append((alpha, beta))
        prev_key = k
    return curve


def smallest_delta_ratio(points: Sequence[TestPoint]) -> Fraction | float:
    """min e^delta >= 1 with e^delta alpha + beta >= 1 for all tests: max over R of (1-beta)/alpha."""
    best: Fraction | float = Fraction(1)
    for t in points:
        power = 1 - t.beta
        if power <= 0:
            continue
        if t.alpha == 0:
            return INFINITY
        best = max(best, power / t.alpha)
    return best


def satisfies_testing_criterion(points: Sequence[TestPoint], delta: sympy.Expr | Fraction | int | str,
                                form: str = "type1") -> bool:
    """eq. (12) (``form="type1"``: e^delta alpha + beta >= 1) or its twin (``"type2"``:
    alpha + e^delta beta >= 1), decided for every test with the certified comparison
    :func:`bcdp.core.intervals.compare` (exact ties proved symbolically).  ``delta`` is exact: a
    rational or an exact sympy closed form such as ``log(3)`` or ``oo`` (floats refused)."""
    import sympy

    if form not in ("type1", "type2"):
        raise InvalidInputError(f"form must be 'type1' or 'type2', not {form!r}")
    d = exact_expr(delta, "delta")
    if d.is_negative:
        raise InvalidInputError("delta must be non-negative")
    if d == sympy.oo:
        return all(t.alpha > 0 or t.beta >= 1 for t in points) if form == "type1" else \
            all(t.beta > 0 or t.alpha >= 1 for t in points)
    scale = sympy.exp(d)
    for t in points:
        a, b = sympy.Rational(t.alpha.numerator, t.alpha.denominator), \
            sympy.Rational(t.beta.numerator, t.beta.denominator)
        lhs = scale * a + b if form == "type1" else a + scale * b
        if compare(lhs, 1) < 0:
            return False
    return True


def bcdp_ratio_from_tests(mechanism: Mechanism, prior: Prior, i: int) -> tuple[Fraction | float, dict]:
    """Smallest e^{delta_i} making eq. (12) hold for all S_i, S_i' in F+ and all R (brute force).

    Returns the ratio and the attaining (S_i, S_i', R).  Theorem 1 says its log equals
    ``bcdp_vector(mechanism, prior)[i]``.
    """
    laws = {}
    for s in nonempty_subsets(mechanism.domain.coordinate_values[i]):
        if sum((prior.pmf[k] for k in coordinate_set_members(prior, i, s)), Fraction(0)) > 0:
            laws[s] = law_given_coordinate_set(mechanism, prior, i, s)
    best: Fraction | float = Fraction(1)
    witness: dict = {}
    for s, s_prime in itertools.product(laws, repeat=2):
        pts = all_tests(laws[s], laws[s_prime])
        r = smallest_delta_ratio(pts)
        if not witness or r > best:
            best = r
            witness = {"S_i": list(s), "S_i_prime": list(s_prime)}
            if r == INFINITY:
                break
    return best, witness


def ldp_ratio_from_tests(mechanism: Mechanism) -> Fraction | float:
    """Proposition 2: smallest e^eps with e^eps alpha + beta >= 1 for all x, x', R (brute force)."""
    best: Fraction | float = Fraction(1)
    for a, b in itertools.product(range(mechanism.domain.size), repeat=2):
        best = max(best, smallest_delta_ratio(all_tests(mechanism.kernel[a], mechanism.kernel[b])))
        if best == INFINITY:
            break
    return best
