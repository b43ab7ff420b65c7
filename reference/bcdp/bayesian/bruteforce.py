"""The literal definitions, by enumeration of every event and conditioning set (exponential).

These are the oracles against which the finite reductions (R1)-(R3) of :mod:`bcdp.bayesian.notions` are
tested: BDP (Def. 2) over all S, S' subsets of X with positive mass and all R subsets of Y; BCDP
(Def. 4) over all S_i, S_i' subsets of X_i with positive mass and all R; LDP and CDP (Defs. 1, 3)
over all R; the dependence (eq. 13) over all S_i, S_i'.  Only for tiny instances: the cost is
2^|X| x 2^|X| x 2^|Y| for BDP.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from fractions import Fraction

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY
from bcdp.core.spaces import Mechanism, Prior

MAX_ENUMERATED = 16


def nonempty_subsets(items: Sequence) -> list[tuple]:
    if len(items) > MAX_ENUMERATED:
        raise InvalidInputError(f"refusing to enumerate 2^{len(items)} subsets (limit 2^{MAX_ENUMERATED})")
    return [s for r in range(1, len(items) + 1) for s in itertools.combinations(items, r)]


def _ratio(num: Fraction, den: Fraction) -> Fraction | float | None:
    """num/den with 0/0 -> None (no constraint) and positive/0 -> INFINITY."""
    if den == 0:
        return None if num == 0 else INFINITY
    return num / den


def sup_ratio_over_events(laws: Sequence[Sequence[Fraction]]) -> Fraction | float:
    """max over ordered pairs of laws and all events R of law_a(R) / law_b(R) (1 if none)."""
    n_out = len(laws[0]) if laws else 0
    best: Fraction | float = Fraction(1)
    for region in nonempty_subsets(range(n_out)):
        masses = [sum((law[m] for m in region), Fraction(0)) for law in laws]
        for a, b in itertools.permutations(range(len(laws)), 2):
            r = _ratio(masses[a], masses[b])
            if r is not None and r > best:
                best = r
    return best


def ldp_ratio_bruteforce(mechanism: Mechanism) -> Fraction | float:
    return sup_ratio_over_events(mechanism.kernel)


def cdp_ratios_bruteforce(mechanism: Mechanism) -> list[Fraction | float]:
    dom = mechanism.domain
    out = []
    for i in range(dom.d):
        best: Fraction | float = Fraction(1)
        for a, b in itertools.permutations(range(dom.size), 2):
            pa, pb = dom.points[a], dom.points[b]
            if pa[:i] + pa[i + 1:] != pb[:i] + pb[i + 1:]:
                continue
            r = sup_ratio_over_events([mechanism.kernel[a], mechanism.kernel[b]])
            best = max(best, r)
        out.append(best)
    return out


def _law_given_set(mechanism: Mechanism, prior: Prior, members: Sequence[int]) -> tuple[Fraction, ...] | None:
    mass = sum((prior.pmf[k] for k in members), Fraction(0))
    if mass == 0:
        return None
    return tuple(sum((prior.pmf[k] * mechanism.kernel[k][m] for k in members), Fraction(0)) / mass
                 for m in range(len(mechanism.outputs)))


def bdp_ratio_bruteforce(mechanism: Mechanism, prior: Prior) -> Fraction | float:
    """Def. 2 literally: all S, S' subsets of X (positive mass), all R subsets of Y."""
    laws = [law for s in nonempty_subsets(range(mechanism.domain.size))
            if (law := _law_given_set(mechanism, prior, s)) is not None]
    return sup_ratio_over_events(laws)


def coordinate_set_members(prior: Prior, i: int, values: Sequence[Hashable]) -> list[int]:
    vals = set(values)
    return [k for k, p in enumerate(prior.domain.points) if p[i] in vals]


def bcdp_ratios_bruteforce(mechanism: Mechanism, prior: Prior) -> list[Fraction | float]:
    """Def. 4 literally: all S_i, S_i' subsets of X_i (positive mass), all R subsets of Y."""
    out = []
    for i in range(mechanism.domain.d):
        laws = []
        for s in nonempty_subsets(mechanism.domain.coordinate_values[i]):
            law = _law_given_set(mechanism, prior, coordinate_set_members(prior, i, s))
            if law is not None:
                laws.append(law)
        out.append(sup_ratio_over_events(laws))
    return out


def dependence_bruteforce(prior: Prior) -> list[Fraction]:
    """eq. (13) literally: all S_i, S_i' with positive mass, TV as max over events of x_-i."""
    dom = prior.domain
    out = []
    for i in range(dom.d):
        rests = list(dict.fromkeys(p[:i] + p[i + 1:] for p in dom.points))
        conds = []
        for s in nonempty_subsets(dom.coordinate_values[i]):
            members = coordinate_set_members(prior, i, s)
            mass = sum((prior.pmf[k] for k in members), Fraction(0))
            if mass == 0:
                continue
            cond = {z: Fraction(0) for z in rests}
            for k in members:
                p = dom.points[k]
                cond[p[:i] + p[i + 1:]] += prior.pmf[k] / mass
            conds.append(cond)
        best = Fraction(0)
        events = nonempty_subsets(rests) if len(rests) <= 10 else None
        for a, b in itertools.permutations(range(len(conds)), 2):
            if events is None:  # TV as half the l1 distance (an identity, not the reduction under test)
                tv = sum((abs(conds[a][z] - conds[b][z]) for z in rests), Fraction(0)) / 2
            else:
                tv = max(sum((conds[a][z] - conds[b][z] for z in e), Fraction(0)) for e in events)
            best = max(best, tv)
        out.append(best)
    return out
