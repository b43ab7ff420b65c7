"""Robust error of halfspaces on the cube (partial DP paper, arXiv:2209.04053, Sec. 6, Def. 19).

Exact finite objects of Section 6 of Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More
Granular Differential Privacy Guarantees":

* halfspaces h_w(x) = sign(<w, x>) on the cube {-1,+1}^d (Sec. 6, opening paragraph), with the
  convention for sign(0) an explicit option (``sign_zero``: ``"plus"``, ``"minus"`` or ``"refuse"``;
  the paper leaves it unspecified);
* the decision distance dec(x, y, h) of the proof of Lemma 22;
* the gamma-robust error R_gamma(h, D) of Def. 19 (the ball ||x' - x||_0 <= gamma d is closed and x'
  ranges over {-1,+1}^d: the {0,1}^d printed in the paragraph before Def. 19 is a typo);
* the event C_h (the closed gamma d-ball around x holds both labels) of the corrected Lemma 21
  (``docs/errata.md``, E-PDP-Lemma21).

Records are tuples (x_1, ..., x_d, y) with every entry in {-1, +1}.  Exact functions refuse floats
(:func:`bcdp.core.numbers.to_fraction`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.partial.pure import hamming

LABELS = (-1, 1)
SIGN_ZERO_OPTIONS = ("plus", "minus", "refuse")

Point = tuple
Hypothesis = Mapping[Point, int]  # cube point -> label in {-1, +1}


def cube(d: int) -> list[Point]:
    """All points of {-1,+1}^d in lexicographic order."""
    if not isinstance(d, int) or isinstance(d, bool) or d < 1:
        raise InvalidInputError(f"d must be a positive integer, got {d!r}")
    return list(itertools.product(LABELS, repeat=d))


def halfspace(w: Sequence[Any], sign_zero: str = "plus") -> dict[Point, int]:
    """h_w(x) = sign(<w, x>) on {-1,+1}^d (Sec. 6, opening paragraph), as a table point -> label.

    ``sign_zero`` says what sign(0) is: ``"plus"`` (+1), ``"minus"`` (-1) or ``"refuse"`` (raise if
    some cube point has <w, x> = 0).  ``w`` is exact (ints / Fractions / strings; floats refused)."""
    if sign_zero not in SIGN_ZERO_OPTIONS:
        raise InvalidInputError(f"sign_zero must be one of {SIGN_ZERO_OPTIONS}, got {sign_zero!r}")
    ws = [to_fraction(v, f"w[{j}]") for j, v in enumerate(w)]
    table = {}
    for x in cube(len(ws)):
        s = sum((wj * xj for wj, xj in zip(ws, x)), Fraction(0))
        if s == 0:
            if sign_zero == "refuse":
                raise InvalidInputError(f"<w, x> = 0 at x = {list(x)} and sign_zero='refuse'")
            table[x] = 1 if sign_zero == "plus" else -1
        else:
            table[x] = 1 if s > 0 else -1
    return table


def integer_halfspaces(d: int, bound: int, sign_zero: str = "plus") -> list[tuple[tuple[int, ...], dict]]:
    """(w, h_w) for the integer w in [-bound, bound]^d (w != 0), one w per distinct labelling
    (the first in lexicographic order)."""
    seen: dict[tuple, tuple] = {}
    for w in itertools.product(range(-bound, bound + 1), repeat=d):
        if not any(w):
            continue
        try:
            h = halfspace(w, sign_zero)
        except InvalidInputError:
            continue
        key = tuple(h[x] for x in cube(d))
        seen.setdefault(key, (w, h))
    return list(seen.values())


def check_hypothesis(h: Hypothesis, d: int) -> None:
    """Refuse a hypothesis table without a label in {-1, +1} at some point of {-1,+1}^d."""
    for x in cube(d):
        if h.get(x) not in LABELS:
            raise InvalidInputError(f"hypothesis has no label in {{-1, +1}} at x = {list(x)}")


def robust_radius(gamma: Any, d: int, name: str = "gamma") -> Fraction:
    """The Hamming radius gamma d of Def. 19 (exact; gamma >= 0, floats refused)."""
    g = to_fraction(gamma, name)
    if g < 0:
        raise InvalidInputError(f"{name} = {g} must be >= 0")
    return g * d


def decision_distance(x: Point, y: int, h: Hypothesis) -> int | float:
    """dec(x, y, h) = min_{z : h(z) != y} ||x - z||_0 (proof of Lemma 22), by brute force over the
    cube; ``INFINITY`` if h labels every point y."""
    if y not in LABELS:
        raise InvalidInputError(f"label {y!r} not in {{-1, +1}}")
    dists = [hamming(x, z) for z, lab in h.items() if lab != y]
    return min(dists) if dists else INFINITY


def robustly_wrong(h: Hypothesis, x: Point, y: int, gamma: Any) -> bool:
    """Def. 19's event: some x' with ||x' - x||_0 <= gamma d (closed ball) has h(x') != y."""
    dec = decision_distance(x, y, h)
    return dec != INFINITY and dec <= robust_radius(gamma, len(x))


def ball_mixed(h: Hypothesis, x: Point, gamma: Any) -> bool:
    """C_h (``docs/errata.md`` E-PDP-Lemma21): the closed gamma d-ball around x contains points of
    both labels."""
    r = robust_radius(gamma, len(x))
    labels = {lab for z, lab in h.items() if hamming(x, z) <= r}
    return len(labels) == 2


def check_distribution(dist: Mapping[tuple, Any], d: int) -> dict[tuple, Fraction]:
    """A finite distribution {(x, y): probability} on {-1,+1}^d x {-1,+1} as exact Fractions
    (duplicate keys summed); refuses points outside the set, negative masses, a total != 1."""
    out: dict[tuple, Fraction] = {}
    for key, p in dist.items():
        x, y = key
        if len(x) != d or any(v not in LABELS for v in x) or y not in LABELS:
            raise InvalidInputError(f"support point {key!r} is not in {{-1,+1}}^{d} x {{-1,+1}}")
        q = to_fraction(p, f"D[{key!r}]")
        if q < 0:
            raise InvalidInputError(f"D[{key!r}] = {q} < 0")
        out[(tuple(x), y)] = out.get((tuple(x), y), Fraction(0)) + q
    total = sum(out.values(), Fraction(0))
    if total != 1:
        raise InvalidInputError(f"the distribution sums to {total}, not 1")
    return out


def robust_error(h: Hypothesis, dist: Mapping[tuple, Any], gamma: Any, d: int) -> Fraction:
    """R_gamma(h, D) of Def. 19 for a finite D given as {(x, y): probability}, exactly."""
    check_hypothesis(h, d)
    D = check_distribution(dist, d)
    return sum((p for (x, y), p in D.items() if robustly_wrong(h, x, y, gamma)), Fraction(0))


def mixed_ball_probability(h: Hypothesis, dist: Mapping[tuple, Any], gamma: Any, d: int) -> Fraction:
    """P_{(x,y) <- D}[C_h(x)] (``docs/errata.md`` E-PDP-Lemma21)."""
    D = check_distribution(dist, d)
    return sum((p for (x, _), p in D.items() if ball_mixed(h, x, gamma)), Fraction(0))
