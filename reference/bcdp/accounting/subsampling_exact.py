"""Exact privacy of a subsampled finite mechanism M' = M o samp_{n,k}, by enumeration (thesis
Lemma 2.1.1, Sec. 2.1.1: amplification by subsampling [KLN11, Ull17]).

Setting (thesis Sec. 2.1.1): samp_{n,k}: X^n -> X^k selects a uniformly random subset of k of the n
records (without replacement); we hand the k selected records to M in their original index order.
M: X^k -> V is a finite mechanism given by its exact rows (one law over a common output list per
input tuple).  Neighbouring relation: **replace-one** (D ~ D' when they differ in exactly one
record, thesis Sec. 2.1), on X^k for M and on X^n for M'.  Lemma 2.1.1 states that if M is
(eps, delta)-DP then M' is (eps', delta')-DP with e^{eps'} = 1 + q(e^eps - 1), delta' = q delta,
q = k/n.

Everything here is exact (Fractions): :func:`subsampled_law` averages the C(n, k) laws of M over
the subsets; :func:`privacy_profile` is delta(e^eps) = max over ordered neighbouring pairs of the
hockey-stick divergence H_{e^eps} (:func:`bcdp.core.divergences.hockey_stick_exact`), for M itself
(``n = None``) or for M'; :func:`max_privacy_ratio` is the largest e^{D_inf} over neighbouring
pairs (the pure-DP level).  Builders: :func:`rr_count_mechanism` (the number of 1-reports of k
randomized responses with ratio e^eps), :func:`two_rr_sum_mechanism` (the sum of the k unbiased
2RR outputs of thesis Alg 2.2.1) and :func:`random_mechanism` (seeded random rows).

Cost: |X|^n laws of C(n, k) subsets each, then n (|X| - 1) |X|^n hockey-sticks; refused above
:data:`MAX_WORK` (about a second of Fraction arithmetic).
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable, Mapping, Sequence

from bcdp.core.divergences import d_infinity, exact_row, hockey_stick_exact
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import INFINITY, brief_number, to_fraction

#: Largest |X|^n * C(n, k) * |outputs| accepted by the enumerations.
MAX_WORK = 2_000_000


@dataclass(frozen=True)
class FiniteMechanism:
    """M: X^k -> V with exact rows: ``rows[x]`` is the law of M(x) over ``outputs``, x in X^k."""

    alphabet: tuple[Hashable, ...]
    k: int
    outputs: tuple[Hashable, ...]
    rows: Mapping[tuple, tuple[Fraction, ...]]


def _count(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WrongTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def _ratio(value: Any, name: str = "ratio") -> Fraction:
    r = to_fraction(value, name)
    if r < 1:
        raise InvalidInputError(f"{name} = e^eps must be >= 1 (eps >= 0), got {brief_number(r)}")
    return r


def _check_rows(alphabet_size: int, k: int, n_outputs: int) -> None:
    """Refuse |X|^k rows of n_outputs entries above MAX_WORK (before building them)."""
    if alphabet_size ** k * n_outputs > MAX_WORK:
        raise InvalidInputError(f"too many rows: |X|^k |outputs| = {alphabet_size}^{k} * {n_outputs} > {MAX_WORK}")


def finite_mechanism(alphabet: Sequence[Hashable], k: int, outputs: Sequence[Hashable],
                     rows: Mapping[tuple, Sequence[Any]]) -> FiniteMechanism:
    """A validated :class:`FiniteMechanism`: one exact probability row per tuple of X^k."""
    k = _count(k, "k", 1)
    alphabet, outputs = tuple(alphabet), tuple(outputs)
    if len(set(alphabet)) != len(alphabet) or len(alphabet) < 2:
        raise InvalidInputError(f"the alphabet needs at least 2 distinct values, got {alphabet!r}")
    if len(set(outputs)) != len(outputs) or not outputs:
        raise InvalidInputError("the outputs must be distinct and non-empty")
    _check_rows(len(alphabet), k, len(outputs))
    clean = {}
    for x in itertools.product(alphabet, repeat=k):
        if x not in rows:
            raise InvalidInputError(f"no row for the input {x!r}")
        row = exact_row(rows[x], f"row {x!r}")
        if len(row) != len(outputs):
            raise InvalidInputError(f"row {x!r} has {len(row)} entries for {len(outputs)} outputs")
        clean[x] = row
    if len(clean) != len(rows):
        raise InvalidInputError("rows has inputs outside alphabet^k")
    return FiniteMechanism(alphabet, k, outputs, clean)


def _rr_count_law(ones: int, k: int, ratio: Fraction) -> tuple[Fraction, ...]:
    """Law of sum_i RR(x_i) over {0..k} when ``ones`` of the k bits are 1 (RR keeps a bit w.p.
    r/(1+r))."""
    keep = ratio / (1 + ratio)
    law = [Fraction(1)]
    for bit in [1] * ones + [0] * (k - ones):
        p1 = keep if bit else 1 - keep
        law = [(law[c] if c < len(law) else 0) * (1 - p1) + (law[c - 1] if c >= 1 else 0) * p1
               for c in range(len(law) + 1)]
    return tuple(law)


def rr_count_mechanism(k: int, ratio: Any) -> FiniteMechanism:
    """M(x) = sum_{i <= k} RR(x_i) on X = {0, 1}: binary randomized response with P{RR(b) = b} =
    r/(1+r), r = e^eps (exact rational >= 1), then the count of 1-reports (outputs 0..k).  M is
    eps-DP (replace-one on X^k), and the ratio r is attained at the outputs 0 and k."""
    k = _count(k, "k", 1)
    r = _ratio(ratio)
    _check_rows(2, k, k + 1)
    rows = {x: _rr_count_law(sum(x), k, r) for x in itertools.product((0, 1), repeat=k)}
    return FiniteMechanism((0, 1), k, tuple(range(k + 1)), rows)


def two_rr_sum_mechanism(k: int, p: Any) -> FiniteMechanism:
    """M(x) = sum_{i <= k} y_i with y_i the unbiased 2RR output of thesis Alg 2.2.1 on the bit x_i
    (y = (b - p)/(1 - 2p) w.p. 1 - p, (1 - b - p)/(1 - 2p) w.p. p), p in (0, 1/2) exact.  Outputs
    are the exact sums; the LDP ratio of one report is (1 - p)/p (thesis Thm 2.4.1)."""
    k = _count(k, "k", 1)
    pp = to_fraction(p, "p")
    if not 0 < pp < Fraction(1, 2):
        raise InvalidInputError(f"p must be in (0, 1/2), got {brief_number(pp)}")
    _check_rows(2, k, k + 1)
    lo, hi = -pp / (1 - 2 * pp), (1 - pp) / (1 - 2 * pp)
    outputs = tuple(c * hi + (k - c) * lo for c in range(k + 1))   # c = number of reports equal to hi
    ratio = (1 - pp) / pp
    rows = {x: _rr_count_law(sum(x), k, ratio) for x in itertools.product((0, 1), repeat=k)}
    return FiniteMechanism((0, 1), k, outputs, rows)


def random_mechanism(seed: int, k: int, alphabet: Sequence[Hashable] = (0, 1), n_outputs: int = 3,
                     denominator: int = 12) -> FiniteMechanism:
    """Seeded random rows with entries in (1/denominator) Z, all positive (finite eps), no symmetry
    assumed (the order of the k selected records matters)."""
    k = _count(k, "k", 1)
    n_outputs = _count(n_outputs, "n_outputs", 2)
    denominator = _count(denominator, "denominator", n_outputs)
    _check_rows(len(tuple(alphabet)), k, n_outputs)
    rng = random.Random(seed)
    rows = {}
    for x in itertools.product(tuple(alphabet), repeat=k):
        cuts = sorted(rng.sample(range(1, denominator), n_outputs - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [denominator])]
        rows[x] = tuple(Fraction(c, denominator) for c in parts)
    return finite_mechanism(alphabet, k, tuple(range(n_outputs)), rows)


def _mechanism(mech: Any) -> FiniteMechanism:
    if not isinstance(mech, FiniteMechanism):
        raise WrongTypeError(f"mech must be a FiniteMechanism (see finite_mechanism), got {type(mech).__name__}")
    return mech


def _check_size(mech: FiniteMechanism, n: int) -> None:
    work = len(mech.alphabet) ** n * math.comb(n, mech.k) * len(mech.outputs)
    if work > MAX_WORK:
        raise InvalidInputError(f"enumeration too large: |X|^n C(n,k) |outputs| = {work} > {MAX_WORK}")


def subsampled_law(mech: FiniteMechanism, dataset: Sequence[Hashable]) -> tuple[Fraction, ...]:
    """The exact law of M'(D) = M(samp_{n,k}(D)): the average over the C(n, k) subsets S (records in
    index order) of the law of M(D_S)."""
    mech = _mechanism(mech)
    if isinstance(dataset, (str, bytes)) or not isinstance(dataset, Sequence):
        raise WrongTypeError(f"dataset must be a sequence of records, got {type(dataset).__name__}")
    n = len(dataset)
    if n < mech.k:
        raise InvalidInputError(f"the dataset has {n} records, fewer than k = {mech.k}")
    if any(v not in mech.alphabet for v in dataset):
        raise InvalidInputError("the dataset has a record outside the alphabet")
    acc = [Fraction(0)] * len(mech.outputs)
    subsets = 0
    for S in itertools.combinations(range(n), mech.k):
        subsets += 1
        for j, v in enumerate(mech.rows[tuple(dataset[i] for i in S)]):
            acc[j] += v
    return tuple(v / subsets for v in acc)


def _laws(mech: FiniteMechanism, n: int | None) -> dict[tuple, tuple[Fraction, ...]]:
    mech = _mechanism(mech)
    if n is None:
        return dict(mech.rows)
    n = _count(n, "n", mech.k)
    _check_size(mech, n)
    return {D: subsampled_law(mech, D) for D in itertools.product(mech.alphabet, repeat=n)}


def _neighbour_pairs(laws: dict, alphabet: tuple):
    """Ordered replace-one pairs (D, D') of the keys of ``laws``."""
    for D in laws:
        for i, v in enumerate(D):
            for w in alphabet:
                if w != v:
                    yield D, D[:i] + (w,) + D[i + 1:]


def privacy_profile(mech: FiniteMechanism, ratio: Any, n: int | None = None) -> tuple[Fraction, dict]:
    """delta(e^eps) = max over ordered replace-one pairs D ~ D' of H_{e^eps}(law(D) || law(D')),
    exactly, for M itself (``n=None``, pairs in X^k) or for M' = M o samp_{n,k} (pairs in X^n).
    The mechanism is (eps, delta)-DP iff delta >= this value.  Returns (delta, witness pair)."""
    r = _ratio(ratio)
    laws = _laws(mech, n)
    best, arg = Fraction(-1), None
    for D, E in _neighbour_pairs(laws, mech.alphabet):
        h = hockey_stick_exact(laws[D], laws[E], r)
        if h > best:
            best, arg = h, {"D": D, "D_prime": E}
    return best, arg


def max_privacy_ratio(mech: FiniteMechanism, n: int | None = None) -> tuple[Fraction | float, dict]:
    """max over ordered replace-one pairs of e^{D_inf(law(D) || law(D'))}, exactly (the pure-DP
    level e^eps; :data:`INFINITY` if some output is impossible under one of a pair), for M
    (``n=None``) or M' = M o samp_{n,k}.  Returns (ratio, witness pair and output)."""
    laws = _laws(mech, n)
    best: Fraction | float = Fraction(0)
    arg: dict = {}
    for D, E in _neighbour_pairs(laws, mech.alphabet):
        d = d_infinity(laws[D], laws[E])
        if d.ratio > best:
            best = d.ratio
            arg = {"D": D, "D_prime": E, "output": mech.outputs[d.witness["output"]]}
            if best == INFINITY:
                break
    return best, arg

