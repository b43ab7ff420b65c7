"""Mechanism 1 (M_mean) with a finite-output LDP channel, as a high-precision joint kernel.

BCDP paper (arXiv:2410.18404), Mechanism 1 (Sec. 4) and the proof of Theorem 2 (App. B.2, eq. (61)).
M_mean(x, c) with c non-decreasing and c_0 = 0 makes d calls: stage k (k = 1..d) applies an LDP
channel with budget b_k = c_k - c_{k-1} to the sub-vector x_{k:d} and releases Y^k; the estimate
nu_hat is a deterministic function of (Y^1, ..., Y^d), so by Proposition 5 every privacy
parameter of nu_hat is at most that of the joint release M~(x) = (Y^1, ..., Y^d) of eq. (61),
which is what the theorem's proof bounds and what this module builds.

Channels (all b-LDP on {v0, v1}^m, with finite outputs {v0, v1}^m):

* ``"rr"``: randomized response over the sub-vector's 2^m values: the input w.p.
  e^b / (e^b + 2^m - 1), each other value w.p. 1 / (e^b + 2^m - 1)  (ratio of any two rows at
  any output is 1 or e^{+-b});
* ``"coordinate_rr"``: binary randomized response on each of the m coordinates independently,
  each with budget b/m (keep w.p. e^{b/m} / (1 + e^{b/m})); b-LDP by composition;
* ``"mech2_cube"``: Mechanism 2 itself with its sphere of directions discretised to the cube
  {-1, 1}^m (values must be (-1, 1)): output direction u w.p. 2p/2^m, 1/2^m or 2(1-p)/2^m as
  u^T x > 0, = 0, < 0, p = e^b/(e^b + 1) (:func:`bcdp.bayesian.mech2_discrete.cube_law`, whose
  docstring lists what the discretisation preserves); at b = 0 the direction is uniform.

Coordinate order.  Mechanism 1 assumes delta sorted non-decreasingly.  For an unsorted demand
the allocation (:func:`bcdp.bayesian.allocation.allocate_budgets`) returns ``order``: ``order[t]`` is the
original index of the t-th smallest demand and ``c_sorted[t] = c[order[t]]``.  Stage k must see
the coordinates in sorted order, i.e. the sub-vector (x[order[k-1]], ..., x[order[d-1]]).  The
kernel built here is indexed by x in the caller's (original) coordinate order, so its
bcdp_vector entry i is to be compared with delta~_i = min(delta_i, eps) directly.

Outputs are tuples (Y^1, ..., Y^d), Y^k a tuple of d - k + 1 values listed in sorted coordinate
order (Y^k_j is the release for coordinate order[k-1+j-1]); the output set is the product of the
stage output sets, of size 2^(d + (d-1) + ... + 1) = 2^(d(d+1)/2) (64 for d = 3, 1024 for d = 4).
The joint kernel row of x is the Kronecker product of the stage rows (independent stages given x).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import mpmath

from bcdp.bayesian.exact_inputs import exact_expr
from bcdp.bayesian.highprec import DEFAULT_DPS, HPMechanism, mpf_of
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import compare
from bcdp.core.numbers import MAX_DPS, MIN_DPS, check_precision
from bcdp.core.spaces import ProductDomain

CHANNELS = ("rr", "coordinate_rr", "mech2_cube")


def stage_budgets(c_sorted: Sequence[Any], dps: int = DEFAULT_DPS) -> list[mpmath.mpf]:
    """b_k = c_k - c_{k-1} (c_0 = 0) at ``dps`` digits.

    Exact inputs (sympy closed forms, Fractions, ints, rational strings; floats refused) are differenced exactly
    and evaluated through a certified enclosure; the sign of each difference is decided by
    :func:`bcdp.core.intervals.compare` (a proven tie gives exactly 0; a negative difference, i.e. c
    not non-decreasing or c_1 < 0, raises).  mpf inputs are differenced in mpmath.
    """
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    out = []
    prev: Any = 0
    for k, ck in enumerate(c_sorted, start=1):
        if isinstance(ck, mpmath.mpf) or isinstance(prev, mpmath.mpf):
            with mpmath.workdps(dps):
                b = mpmath.mpf(ck) - mpmath.mpf(prev)
            if b < 0:
                raise InvalidInputError(f"c is not non-decreasing at stage {k} (c_0 = 0)")
            out.append(b)
        else:
            diff = exact_expr(ck, f"c[{k - 1}]") - exact_expr(prev, "c_(k-1)")
            sign = compare(diff, 0)
            if sign < 0:
                raise InvalidInputError(f"c is not non-decreasing at stage {k} (c_0 = 0): c_k - c_(k-1) = {diff}")
            out.append(mpmath.mpf(0) if sign == 0 else mpf_of(diff, dps))
        prev = ck
    return out


def _sign(t) -> int:
    return (t > 0) - (t < 0)


def stage_kernel(channel: str, m: int, b: mpmath.mpf, values: tuple = (0, 1),
                 dps: int = DEFAULT_DPS) -> dict[tuple, list[mpmath.mpf]]:
    """One stage's channel on {values}^m: ``{input: row}``, rows over
    ``itertools.product(values, repeat=m)`` (see the module docstring for the two channels)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    pts = list(itertools.product(values, repeat=m))
    with mpmath.workdps(dps):
        if channel == "rr":
            eb = mpmath.exp(b)
            den = eb + (2 ** m - 1)
            same, other = eb / den, 1 / den
            return {x: [same if y == x else other for y in pts] for x in pts}
        if channel == "coordinate_rr":
            eb = mpmath.exp(b / m)
            keep, flip = eb / (1 + eb), 1 / (1 + eb)
            rows = {}
            for x in pts:
                row = []
                for y in pts:
                    p = mpmath.mpf(1)
                    for xj, yj in zip(x, y):
                        p *= keep if xj == yj else flip
                    row.append(p)
                rows[x] = row
            return rows
        if channel == "mech2_cube":
            if tuple(values) != (-1, 1):
                raise InvalidInputError(f"channel 'mech2_cube' needs values (-1, 1) (vertices of the cube), got {values}")
            eb = mpmath.exp(b)
            p = eb / (1 + eb)
            n = mpmath.mpf(2) ** m
            level = {1: 2 * p / n, 0: 1 / n, -1: 2 * (1 - p) / n}
            return {x: [level[_sign(sum(a * c for a, c in zip(x, y)))] for y in pts] for x in pts}
    raise InvalidInputError(f"unknown channel {channel!r}; expected one of {CHANNELS}")


def _check_kernel_arguments(c_sorted: Sequence[Any], d: int, channel: str, dps: int,
                            order: Sequence[int] | None, values: tuple) -> tuple[int, tuple[int, ...]]:
    """The checked (dps, order) of :func:`mmean_joint_kernel` and :func:`mmean_two_copies_kernel`
    (one-line errors for a bad precision, channel, budget count, order or pair of values)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    if channel not in CHANNELS:
        raise InvalidInputError(f"unknown channel {channel!r}; expected one of {CHANNELS}")
    if len(c_sorted) != d:
        raise InvalidInputError(f"c has {len(c_sorted)} entries, d = {d}")
    order = tuple(range(d)) if order is None else tuple(order)
    if sorted(order) != list(range(d)):
        raise InvalidInputError(f"order {order} is not a permutation of 0..{d - 1}")
    if len(values) != 2:
        raise InvalidInputError("binary inputs only: values must name two values")
    return dps, order


def mmean_joint_kernel(c_sorted: Sequence[Any], d: int, channel: str = "rr", dps: int = DEFAULT_DPS,
                       order: Sequence[int] | None = None, values: tuple = (0, 1)) -> HPMechanism:
    """The joint release (Y^1, ..., Y^d) of Mechanism 1 on {values}^d as an :class:`HPMechanism`.

    ``c_sorted``: the non-decreasing budgets (exact sympy values from
    :class:`bcdp.bayesian.allocation.BudgetAllocation.c_sorted`, or mpf); ``order``: the allocation's
    ``order`` (identity if None), see the module docstring; ``channel``: ``"rr"`` or
    ``"coordinate_rr"``.  ``meta`` records the stage budgets and the order.
    """
    dps, order = _check_kernel_arguments(c_sorted, d, channel, dps, order, values)
    budgets = stage_budgets(c_sorted, dps)
    stages = [stage_kernel(channel, d - k, budgets[k], values, dps) for k in range(d)]
    stage_outputs = [list(itertools.product(values, repeat=d - k)) for k in range(d)]
    outputs = tuple(itertools.product(*stage_outputs))
    domain = ProductDomain.binary(d, values)
    rows = []
    with mpmath.workdps(dps):
        for x in domain.points:
            s = tuple(x[order[t]] for t in range(d))  # x in sorted coordinate order
            row = [mpmath.mpf(1)]
            for k in range(d):
                srow = stages[k][s[k:]]
                row = [a * b for a in row for b in srow]  # Kronecker product, outputs in product order
            rows.append(tuple(row))
    meta = {"channel": channel, "order": list(order), "stage_budgets": budgets, "values": list(values)}
    return HPMechanism(domain, outputs, tuple(rows), dps, meta)


def mmean_for_allocation(allocation, d: int | None = None, channel: str = "rr", dps: int = DEFAULT_DPS,
                         values: tuple = (0, 1)) -> HPMechanism:
    """:func:`mmean_joint_kernel` for a :class:`bcdp.bayesian.allocation.BudgetAllocation` (its c_sorted
    and order)."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    d = len(allocation.c) if d is None else d
    return mmean_joint_kernel(allocation.c_sorted, d, channel, dps, allocation.order, values)


def two_copies_stage_kernel(channel: str, m: int, b: mpmath.mpf, values: tuple = (0, 1),
                            dps: int = DEFAULT_DPS) -> tuple[list[tuple], dict[tuple, list[mpmath.mpf]]]:
    """Two independent copies of one stage's channel at budget ``b`` (Algorithm 3 runs M_mean twice,
    each at c/2), reduced to the unordered pair of outputs: ``(outputs, {input: row})``.

    The unordered pair {y, y'} is a sufficient statistic of the ordered pair: both orders have the
    same probability P(y|s) P(y'|s) for every input s, so the ordered pair is the unordered one
    plus a fair coin independent of s (and conversely), and by Prop. 5 both releases have the same
    LDP, CDP and BCDP parameters.  Output {y, y'} has probability 2 P(y|s) P(y'|s) (y != y') or
    P(y|s)^2 (y = y')."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS)
    single = stage_kernel(channel, m, b, values, dps)
    pts = list(itertools.product(values, repeat=m))
    pairs = [(i, j) for i in range(len(pts)) for j in range(i, len(pts))]
    rows = {}
    with mpmath.workdps(dps):
        for s, row in single.items():
            rows[s] = [row[i] * row[j] * (1 if i == j else 2) for i, j in pairs]
    return [(pts[i], pts[j]) for i, j in pairs], rows


def mmean_two_copies_kernel(c_sorted: Sequence[Any], d: int, channel: str = "rr", dps: int = DEFAULT_DPS,
                            order: Sequence[int] | None = None, values: tuple = (0, 1)) -> HPMechanism:
    """Algorithm 3's release per user, (M_mean(x, c/2), M_mean(x, c/2)) with independent copies
    (BCDP paper, Sec. 5, Algorithm 3; Thm. 3), as the joint stage releases of both copies.

    Stage k of both copies is grouped (independent given x): its factor is
    :func:`two_copies_stage_kernel` at budget (c_k - c_{k-1})/2; the kernel row of x is the
    Kronecker product of the stage factors.  ``c_sorted``, ``order``, ``values``: as in
    :func:`mmean_joint_kernel` (the halving is done here, exactly).  Outputs are tuples of the
    stages' unordered pairs; d = 3 has 3 * 10 * 36 = 1080 outputs."""
    dps, order = _check_kernel_arguments(c_sorted, d, channel, dps, order, values)
    halves = [v / 2 if isinstance(v, mpmath.mpf) else exact_expr(v, f"c[{k}]") / 2 for k, v in enumerate(c_sorted)]
    budgets = stage_budgets(halves, dps)
    stages = [two_copies_stage_kernel(channel, d - k, budgets[k], values, dps) for k in range(d)]
    outputs = tuple(itertools.product(*(st[0] for st in stages)))
    domain = ProductDomain.binary(d, values)
    rows = []
    with mpmath.workdps(dps):
        for x in domain.points:
            s = tuple(x[order[t]] for t in range(d))
            row = [mpmath.mpf(1)]
            for k in range(d):
                srow = stages[k][1][s[k:]]
                row = [a * b for a in row for b in srow]
            rows.append(tuple(row))
    meta = {"channel": channel, "order": list(order), "stage_budgets_per_copy": budgets, "values": list(values),
            "copies": 2}
    return HPMechanism(domain, outputs, tuple(rows), dps, meta)
