"""Shared helper of the partial-DP semantics checks (Props. 26, 27; not a check: the underscore
hides it)."""

from __future__ import annotations

from fractions import Fraction

from bcdp import Mechanism
from bcdp.core.numbers import INFINITY
from bcdp.partial.pure import per_attribute_matrix


def eps_ratio(mech: Mechanism, n: int, d: int) -> Fraction | float:
    """e^{eps0} of eps0-nabla0-DP: the largest constrained entry of the accountant's per-attribute
    matrix (1 when nothing is constrained; ``INFINITY`` wins)."""
    best: Fraction | float = Fraction(1)
    for row in per_attribute_matrix(mech, n, d):
        for p in row:
            if p.witness is not None and (p.ratio == INFINITY or p.ratio > best):
                best = p.ratio
    return best
