"""Shared helpers of the concentrated partial-DP checks (not a check: the underscore hides it).

Instances are built like :mod:`bcdp.checks.partial_dp.composition`: exact Fraction kernels on the
record-major dataset domain of :func:`bcdp.partial.pure.dataset_domain`, enumerated grid mechanisms
and seeded :func:`bcdp.bayesian.random_instances.random_mechanism`.  D* values are certified enclosures
(:func:`bcdp.partial.concentrated.d_star`); a claimed inequality A <= B is counted

* ``violated`` when it fails for certain (lower(A) > upper(B)),
* ``certified`` when it holds for certain (upper(A) <= lower(B)),
* ``tight`` otherwise (the enclosures overlap: equality up to the enclosure width).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import mpmath
from bcdp import Mechanism
from bcdp.partial.concentrated import INFINITY, d_star, one_record_pairs
from bcdp.partial.pure import dataset_domain
from bcdp.partial.semantics import rr_row

WDPS = 70          # digits for the comparisons of enclosures (D* is computed at 50 + guard)
CHECK_TOL = "1e-20"  # relative width of the D* enclosures used by the checks


def ds(p, q):
    """Certified D*(p||q) at the checks' tolerance."""
    return d_star(p, q, CHECK_TOL)


def s(x: Any, digits: int = 25) -> str:
    """JSON string of an mpf / INFINITY / Fraction."""
    if x is None:
        return "None"
    if x == INFINITY:
        return "inf"
    if isinstance(x, Fraction):
        return str(x)
    return mpmath.nstr(x, digits)


def compare(a_lo, a_hi, b_lo, b_hi) -> str:
    """'violated' / 'certified' / 'tight' for the claim A <= B from enclosures (INFINITY allowed)."""
    with mpmath.workdps(WDPS):
        if b_hi == INFINITY and b_lo == INFINITY:
            return "certified"
        if a_lo == INFINITY:
            return "violated"
        if a_hi != INFINITY and a_hi <= b_lo:
            return "certified"
        if b_hi != INFINITY and a_lo > b_hi:
            return "violated"
        return "tight"


def sum_mechanism(d: int, n_out_pad: int, weight) -> Mechanism:
    """n = 1 record of d bits; output y in {-pad, ..., d + pad} with P(y | x) proportional to
    weight(y - sum(x)) (exact rational weights).  It depends on the attributes only through their
    sum, the case where Prop. 8's d^2 factor can be approached."""
    dom = dataset_domain([(0, 1)] * d, 1)
    outs = tuple(range(-n_out_pad, d + n_out_pad + 1))

    def law(x):
        s_ = sum(x)
        w = {y: Fraction(weight(y - s_)) for y in outs}
        tot = sum(w.values())
        return {y: v / tot for y, v in w.items()}
    return Mechanism.from_function(dom, outs, law)


def parallel_rr(p: Fraction, d: int) -> Mechanism:
    """n = 1 record of d bits, each released by independent binary RR (keep-probability p)."""
    dom = dataset_domain([(0, 1)] * d, 1)
    outs = tuple(itertools.product((0, 1), repeat=d))
    return Mechanism.from_function(dom, outs, lambda x: dict(zip(outs, rr_row(x, outs, p))))


def pair_dstars(mech: Mechanism, n: int, d: int):
    """[(record, a, b, hamming k, D* result)] over ordered one-record pairs."""
    return [(i, a, b, k, ds(mech.kernel[a], mech.kernel[b])) for i, a, b, k in one_record_pairs(mech, n, d)]
