"""Shared oracles of the thesis Sec. 7.6 checks (not a check: the leading underscore hides it).

Written from the printed statements, independently of :mod:`bcdp.randomness.sequences`:

* :func:`dbs` / :func:`hamming1` -- ``[k]^T`` in lexicographic order and the neighbouring relation of
  eq. (7.7) (differ in exactly one time index), by direct comparison of tuples;
* :func:`dp_oracle` -- Def 7.6.1 / eq. (7.53) by brute force over all pairs of databases;
* :func:`channel_oracle` -- eq. (F.24) ``Q(y|x) = q_f(x (+) y)`` written from the printed formula;
* :func:`channel_dp_oracle` -- eq. (7.7) over all outputs and all neighbouring pairs;
* :func:`dd_vertices` -- the vertices of ``{q : q_a <= E q_b for neighbours, sum q = 1}`` by an exact
  double-description (Motzkin) enumeration of the extreme rays of the cone, integer arithmetic; it
  knows nothing of the labelling characterisation the library uses;
* :func:`two_level_min_ends` -- ``min_{1 <= s <= k-1} H(U^s_min)`` of eq. (7.46) for an arb ball
  ``E`` (brute force over ``s``, the law's entropy term by term);
* :func:`entropy_ball` -- ``-sum p log p`` of an exact law (nats), term by term;
* :func:`random_interior` -- seeded random convex combinations (exact Fractions) of given vertices.
"""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction
from math import gcd
from typing import Any, Sequence

from bcdp.core.intervals import ball_ends, ball_of


def dbs(k: int, T: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(k), repeat=T))


def hamming1(x: Sequence[int], y: Sequence[int]) -> bool:
    return sum(a != b for a, b in zip(x, y)) == 1


def dp_oracle(q: Sequence[Fraction], k: int, T: int, e: Fraction, f: Sequence[int] | None = None) -> bool:
    d = dbs(k, T)
    f = list(range(len(d))) if f is None else list(f)
    return all(q[f[i]] <= e * q[f[j]] for i, j in itertools.permutations(range(len(d)), 2) if hamming1(d[i], d[j]))


def channel_oracle(q: Sequence[Fraction], k: int, T: int, f: Sequence[int] | None = None) -> list[list[Fraction]]:
    d = dbs(k, T)
    f = list(range(len(d))) if f is None else list(f)
    pos = {x: i for i, x in enumerate(d)}
    return [[q[f[pos[tuple((a + b) % k for a, b in zip(x, y))]]] for y in d] for x in d]


def channel_dp_oracle(Q: Sequence[Sequence[Fraction]], k: int, T: int, e: Fraction) -> bool:
    d = dbs(k, T)
    den = 1
    for row in Q:
        for v in row:
            den = den * v.denominator // gcd(den, v.denominator)
    ints = [[v.numerator * (den // v.denominator) for v in row] for row in Q]  # Q * den, exact integers
    p, r = Fraction(e).numerator, Fraction(e).denominator
    return all(r * ints[i][y] <= p * ints[j][y] for i, j in itertools.permutations(range(len(d)), 2)
               if hamming1(d[i], d[j]) for y in range(len(Q[0])))


@functools.lru_cache(maxsize=8)
def dd_vertices(k: int, T: int, e_eps: Fraction) -> frozenset[tuple[Fraction, ...]]:
    """Exact vertices of the eps-DP polytope of ``[k]^T`` (``E = e_eps`` rational) by double description.

    Motzkin's method on the cone ``{q >= 0, E q_j - q_i >= 0 for neighbours}`` in integers; the zero set of a
    ray (the constraints it makes tight) is an int bitmask, and two rays are adjacent iff no third ray's zero
    set contains the intersection of theirs (the combinatorial test).  Cached: an oracle independent of the
    library, so bad twins of the library cannot change it."""
    d = dbs(k, T)
    n = len(d)
    num, den = Fraction(e_eps).numerator, Fraction(e_eps).denominator
    cons = []
    for i, j in itertools.permutations(range(n), 2):
        if hamming1(d[i], d[j]):  # E q_j - q_i >= 0
            h = [0] * n
            h[j] += num
            h[i] -= den
            cons.append(h)
    # start: the cone q >= 0 (implied by the others, but it makes the first cone pointed); constraint b = q_b >= 0
    rays = {tuple(int(a == b) for a in range(n)): ((1 << n) - 1) & ~(1 << b) for b in range(n)}
    for c, h in enumerate(cons, start=n):
        val = {r: sum(a * b for a, b in zip(h, r)) for r in rays}
        pos = [r for r in rays if val[r] > 0]
        neg = [r for r in rays if val[r] < 0]
        new = {}
        for p, m in itertools.product(pos, neg):
            common = rays[p] & rays[m]
            if any(common & ~z == 0 for r, z in rays.items() if r != p and r != m):
                continue  # not adjacent
            w = [val[p] * b - val[m] * a for a, b in zip(p, m)]
            g = 0
            for x in w:
                g = gcd(g, x)
            new[tuple(x // g for x in w)] = common | (1 << c)
        rays = {r: z | ((1 << c) if val[r] == 0 else 0) for r, z in rays.items() if val[r] >= 0}
        rays.update(new)
    return frozenset(tuple(Fraction(x, sum(r)) for x in r) for r in rays)


def two_level_min_ends(k: int, big: Any, log_big: Any) -> tuple[Fraction, Fraction]:
    """Enclosure ``(lower, upper)`` of ``min_{1 <= s <= k-1} H(U^s_min)`` (nats, eq. (7.46)) with ``E = big``
    (an arb ball, ``log_big`` its log), brute force over ``s`` with the law's entropy term by term."""
    ends = []
    for s in range(1, k):
        t = big * s + (k - s)
        lo, hi = 1 / t, big / t
        h = -(k - s) * lo * lo.log() - s * hi * (log_big - t.log())
        ends.append(ball_ends(h))
    return min(a for a, _ in ends), min(b for _, b in ends)


def entropy_ball(p: Sequence[Fraction]) -> Any:
    h = ball_of(0)
    for v in p:
        if v:
            b = ball_of(v)
            h -= b * b.log()
    return h


def random_interior(vertices: Sequence[Sequence[Fraction]], count: int, seed: int) -> list[tuple[Fraction, ...]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        chosen = rng.sample(list(vertices), min(len(vertices), rng.randint(2, 6)))
        w = [Fraction(rng.randint(1, 9)) for _ in chosen]
        z = sum(w)
        out.append(tuple(sum(wi * v[i] for wi, v in zip(w, chosen)) / z for i in range(len(chosen[0]))))
    return out
