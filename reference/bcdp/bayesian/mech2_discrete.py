"""Mechanism 2 with a finite output set: the exact two-point (d = 1) and cube-direction channels (Fractions).

BCDP paper (arXiv:2410.18404), Mechanism 2 (Sec. 4, Duchi et al.'s l2 channel): for v in B2(r),
K ~ Bern(p), p = e^a/(e^a + 1); S ~ Bern(1/2 + |v|/(2r)); v~ = (2S - 1) r v/|v|; Z uniform on
{z : |z| = B, (2K - 1) z^T v~ > 0}.  Its output is continuous for d >= 2; this module builds the
finite versions whose laws are exact rationals when E = e^a is rational (the privacy level is
parametrised by E, not by a, so that every probability is a Fraction).

* **d = 1 (exact, no discretisation).**  The sphere of R^1 is {-1, +1}: Z = B sgn, with
  P(Z = +B | v) = 1/2 + (2p - 1) v/(2r) for every v in [-r, r] (enumerate K, S).  With the unbiased
  constant (E-Mech2-B) B = r (E + 1)/(E - 1): rational.  :func:`two_point_law`.
* **Cube directions (a discretisation, d = m >= 1).**  The uniform law on the sphere is replaced by
  the uniform law on the 2^m directions U = {-1, +1}^m (radius sqrt(m)), inputs are restricted to
  the vertices v in {-1, +1}^m (|v| = r = sqrt(m), so S = 1 surely) and to v = 0 (S a fair coin,
  v~ irrelevant).  "Uniform on the hemisphere" becomes: u in U with weight 1 if (2K-1) u^T v~ > 0,
  1/2 if u^T v~ = 0 (the boundary, measure zero on the sphere, split evenly between the two
  hemispheres), 0 otherwise; normalised, P(u) = 2/2^m, 1/2^m, 0.  Z = B_m u.  :func:`cube_law`.

What the discretisation preserves (each proved in the function docstrings and tested):
(i) privacy: P(u | v) is 2p/2^m, 1/2^m or 2(1 - p)/2^m, so the ratio of any two inputs' laws at
any output is at most p/(1 - p) = E, with equality at (v, -v): exactly a-LDP, as Mechanism 2
(:func:`bcdp.bayesian.mechanisms_theory.privacy_ratio`); (ii) unbiasedness: sum of u over
{u^T v > 0} = T_m v for every vertex v (the signed permutations fixing v act on U), so with
B_m = 2^(m-1) (E + 1)/((E - 1) T_m) the output has mean v (:func:`cube_constant`);
(iii) constant norm |Z| = B_m sqrt(m) and isotropic second moment E[Z Z^T] = B_m^2 I (u u^T is even
in u, and the law of +-u pairs is uniform), the structure the eq. (*) variance of
:mod:`bcdp.bayesian.mmean_utility` uses with s = B_m^2 in place of B^2/m.  Not preserved: the value
of the per-coordinate second moment (B_m^2 differs from the sphere's B^2/m for m >= 2) and inputs
off the vertices (the sum over a hemisphere of U is not parallel to a general v).

:func:`mmean_cube_mechanism` runs Mechanism 1 (stage k on x_{k:d} with budget b_k = log E_k) with the
cube channel as an exact :class:`bcdp.core.spaces.Mechanism` on {-1, +1}^d (outputs: the directions
of every stage; the estimate is a post-processing, Prop. 5).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import to_fraction
from bcdp.core.spaces import Mechanism, ProductDomain

#: Largest cube dimension enumerated (2^m directions).
MAX_CUBE_DIM = 10


def privacy_factor(E: Any, name: str = "E") -> Fraction:
    """E = e^a > 1 exact (floats refused): Mechanism 2 needs a > 0 (B is infinite at a = 0)."""
    e = to_fraction(E, name)
    if e <= 1:
        raise InvalidInputError(f"{name} = e^alpha = {e} must exceed 1 (Mechanism 2 needs alpha > 0)")
    return e


def keep_probability(E: Any) -> Fraction:
    """p = e^a/(e^a + 1) = E/(E + 1), the law of K (Mechanism 2)."""
    e = privacy_factor(E)
    return e / (e + 1)


def _dim(m: Any) -> int:
    if isinstance(m, bool) or not isinstance(m, int):
        raise WrongTypeError(f"m must be an int, got {m!r}")
    if not 1 <= m <= MAX_CUBE_DIM:
        raise InvalidInputError(f"m = {m} must lie in [1, {MAX_CUBE_DIM}] (2^m directions are enumerated)")
    return m


def two_point_law(v: Any, E: Any, r: Any = 1) -> dict[int, Fraction]:
    """Mechanism 2 for d = 1 exactly: {+1: P(Z = +B), -1: P(Z = -B)} for v in [-r, r].

    Enumeration of K, S: Z = (2K - 1)(2S - 1) sgn(v) B, so P(Z = B sgn v) = P(K = S) =
    p (1/2 + |v|/(2r)) + (1 - p)(1/2 - |v|/(2r)) = 1/2 + (2p - 1)|v|/(2r); at v = 0 both signs have
    probability 1/2 (S is a fair coin).  Exact v, r > 0, E > 1."""
    p = keep_probability(E)
    rr = to_fraction(r, "r")
    if rr <= 0:
        raise InvalidInputError(f"r = {rr} must be positive")
    vv = to_fraction(v, "v")
    if abs(vv) > rr:
        raise InvalidInputError(f"v = {vv} is outside B2(r) = [-{rr}, {rr}] (Mechanism 2's input)")
    law: dict[int, Fraction] = {1: Fraction(0), -1: Fraction(0)}
    s_one = Fraction(1, 2) + abs(vv) / (2 * rr)
    for k, pk in ((1, p), (0, 1 - p)):
        for s, ps in ((1, s_one), (0, 1 - s_one)):
            sign = (2 * k - 1) * (2 * s - 1) * (1 if vv >= 0 else -1)
            law[sign] += pk * ps
    return law


def two_point_constant(E: Any, r: Any = 1) -> Fraction:
    """B = r (E + 1)/(E - 1): the unbiased constant of Mechanism 2 at d = 1 (E-Mech2-B;
    sqrt(pi) Gamma(1)/Gamma(1/2) = 1)."""
    e = privacy_factor(E)
    rr = to_fraction(r, "r")
    if rr <= 0:
        raise InvalidInputError(f"r = {rr} must be positive")
    return rr * (e + 1) / (e - 1)


def cube_hemisphere_sum(m: int) -> int:
    """T_m = sum of u_1 over u in {-1, +1}^m with u_1 + ... + u_m > 0.

    By symmetry m T_m = sum over those u of (u_1 + ... + u_m) = sum_{j > m/2} C(m, j)(2j - m)
    (j = number of +1 entries)."""
    m = _dim(m)
    total = sum(math.comb(m, j) * (2 * j - m) for j in range(m // 2 + 1, m + 1))
    if total % m:
        raise AssertionError("the hemisphere sum is not divisible by m")  # pragma: no cover
    return total // m


def cube_constant(m: int, E: Any) -> Fraction:
    """B_m with E[Z | v] = v for the cube channel: E[Z | v] = B_m (2/2^m)(2p - 1) T_m v
    (module docstring (ii)), so B_m = 2^(m-1) (E + 1)/((E - 1) T_m).  m = 1 gives (E + 1)/(E - 1)."""
    m = _dim(m)
    e = privacy_factor(E)
    return Fraction(2 ** (m - 1)) * (e + 1) / ((e - 1) * cube_hemisphere_sum(m))


def _vertex(v: Sequence[Any], m: int) -> tuple[int, ...]:
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence) or len(v) != m:
        raise InvalidInputError(f"v must be a sequence of {m} entries in {{-1, 1}} (or all 0)")
    out = tuple(to_fraction(x, f"v[{j}]") for j, x in enumerate(v))
    if all(x == 0 for x in out):
        return tuple(0 for _ in out)
    if any(x not in (-1, 1) for x in out):
        raise InvalidInputError(f"v = {[str(x) for x in out]} is neither a vertex of {{-1, 1}}^{m} nor 0 "
                                "(the cube discretisation is unbiased only there)")
    return tuple(int(x) for x in out)


def directions(m: int) -> list[tuple[int, ...]]:
    """U = {-1, +1}^m in lexicographic order (the output directions of the cube channel)."""
    return list(itertools.product((-1, 1), repeat=_dim(m)))


def cube_law(v: Sequence[Any], E: Any) -> dict[tuple[int, ...], Fraction]:
    """The cube channel's law of the direction u (Z = B_m u) at input v in {-1, 1}^m or v = 0.

    Enumerates K ~ Bern(p) and S ~ Bern(1/2 + |v|/(2r)) (S = 1 at a vertex, a fair coin at 0), then
    u uniform on the hemisphere {(2K - 1) u^T v~ > 0} of U with the boundary u^T v~ = 0 at half
    weight (module docstring)."""
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        raise InvalidInputError(f"v must be a sequence of entries in {{-1, 1}} (or all 0), got {v!r}")
    m = _dim(len(v))
    x = _vertex(v, m)
    p = keep_probability(E)
    U = directions(m)
    n = Fraction(2 ** m)
    s_one = Fraction(1, 2) if all(t == 0 for t in x) else Fraction(1)
    axis = x if any(x) else (1,) + (0,) * (m - 1)  # at v = 0 the axis is irrelevant (S is fair)
    law = {u: Fraction(0) for u in U}
    for k, pk in ((1, p), (0, 1 - p)):
        for s, ps in ((1, s_one), (0, 1 - s_one)):
            if ps == 0:
                continue
            sigma = (2 * k - 1) * (2 * s - 1)
            for u in U:
                dot = sigma * sum(a * b for a, b in zip(u, axis))
                weight = 2 if dot > 0 else (1 if dot == 0 else 0)
                law[u] += pk * ps * weight / n
    return law


def law_mean(law: dict[tuple[int, ...], Fraction], scale: Fraction) -> tuple[Fraction, ...]:
    """E[Z] = scale * sum_u u P(u) (exact)."""
    m = len(next(iter(law)))
    return tuple(scale * sum((u[j] * p for u, p in law.items()), Fraction(0)) for j in range(m))


def law_second_moment(law: dict[tuple[int, ...], Fraction], scale: Fraction) -> tuple[tuple[Fraction, ...], ...]:
    """E[Z Z^T] = scale^2 sum_u u u^T P(u) (exact)."""
    m = len(next(iter(law)))
    return tuple(tuple(scale ** 2 * sum((u[i] * u[j] * p for u, p in law.items()), Fraction(0))
                       for j in range(m)) for i in range(m))


def cube_mechanism(m: int, E: Any) -> Mechanism:
    """The cube channel on the vertices {-1, 1}^m as an exact :class:`Mechanism` (outputs: the
    directions u; Z = B_m u is a relabelling, so every privacy parameter is that of u)."""
    m = _dim(m)
    dom = ProductDomain.binary(m, (-1, 1))
    return Mechanism.from_function(dom, tuple(directions(m)), lambda x: cube_law(x, E))


def mmean_cube_mechanism(stage_factors: Sequence[Any], order: Sequence[int] | None = None) -> Mechanism:
    """Mechanism 1 (M_mean, Sec. 4) over the cube channel, exact, on {-1, 1}^d.

    ``stage_factors[k]`` = e^{b_{k+1}} with b_k = c_k - c_{k-1} the stage budgets (each > 1; a stage
    with budget 0 is not allowed here since Mechanism 2 is undefined at a = 0); stage k (k = 1..d)
    applies :func:`cube_law` to the sub-vector (x_{order[k-1]}, ..., x_{order[d-1]}).  The joint
    release (u^1, ..., u^d) has 2^(d(d+1)/2) outputs; its row is the product of the stage laws."""
    if isinstance(stage_factors, (str, bytes)) or not isinstance(stage_factors, Sequence) or not stage_factors:
        raise InvalidInputError("stage_factors must be a non-empty sequence of e^{b_k}")
    d = len(stage_factors)
    if d > 4:
        raise InvalidInputError(f"d = {d}: the joint kernel has 2^(d(d+1)/2) outputs; d <= 4 here")
    factors = [privacy_factor(f, f"stage_factors[{k}]") for k, f in enumerate(stage_factors)]
    order = tuple(range(d)) if order is None else tuple(order)
    if sorted(order) != list(range(d)):
        raise InvalidInputError(f"order {order} is not a permutation of 0..{d - 1}")
    dom = ProductDomain.binary(d, (-1, 1))
    stage_dirs = [directions(d - k) for k in range(d)]
    outputs = tuple(itertools.product(*stage_dirs))
    rows = []
    for x in dom.points:
        s = tuple(x[order[t]] for t in range(d))
        laws = [cube_law(s[k:], factors[k]) for k in range(d)]
        row = [Fraction(1)]
        for k in range(d):
            row = [a * laws[k][u] for a in row for u in stage_dirs[k]]
        rows.append(tuple(row))
    return Mechanism(dom, outputs, tuple(rows))
