"""The driver of the optimal allocation: pieces, branch and bound, certificate (steps 2-4 of the method).

BCDP paper (arXiv:2410.18404), Sec. 4, Theorem 2 and eq. (17); method and proofs in
:mod:`bcdp.bayesian.optimal_allocation`.  The result is an :class:`OptimalAllocation`: a certified
feasible rational allocation and the certified bracket of the optimum as a
:class:`bcdp.core.results.Certified` (``lower <= min F <= upper = F(allocation)``).
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from bcdp.bayesian.allocation import (
    BudgetAllocation,
    mse_objective,
    sorted_order,
    validate_demands,
)
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import LeafCertifier, Node, evaluate
from bcdp.bayesian.optimal_allocation.rounding import (
    certify_feasible,
    expand_groups,
    floor_rel,
    polish,
    rational_point,
)
from bcdp.core.errors import InvalidInputError, ValidityConditionError, WrongTypeError
from bcdp.core.intervals import compare
from bcdp.core.numbers import INFINITY, to_float_input
from bcdp.core.results import Certified

#: Largest eq. (17) objective the float64 search handles (its piece-0 value d^2/delta~_1^2).
MAX_FLOAT_OBJECTIVE = Fraction(10) ** 300
METHOD = "group reduction + branch-and-bound on (levels, t), secant relaxation, exact leaf bounds"
PROVENANCE = ("BCDP paper (arXiv:2410.18404), Sec. 4: minimum of the eq. (17) sum over the budgets "
              "certified private by the proof of Theorem 2 (App. B.2); " + METHOD)


def _sympy_value(x: Fraction | float) -> sympy.Expr:
    return sympy.oo if x == INFINITY else sympy.Rational(x.numerator, x.denominator)


def _fraction(x: sympy.Expr) -> Fraction | float:
    return INFINITY if x is sympy.oo else Fraction(int(x.p), int(x.q))


@dataclass(frozen=True)
class OptimalAllocation:
    """A certified-feasible rational allocation and the certified bracket of the optimum.

    ``allocation.c`` are sympy Rationals in the caller's order (``allocation.method == "optimal"``).
    ``minimum`` is a :class:`~bcdp.core.results.Certified`: ``minimum.upper`` (Fraction, or
    :data:`~bcdp.core.numbers.INFINITY`) is the exact objective of ``allocation`` and
    ``minimum.lower`` is <= the minimum of F over all feasible c; ``minimum.witness`` is the
    allocation's c.  The sympy views ``objective_upper == allocation.objective``, ``lower_bound``
    (exact Rational, or oo) and ``gap = (objective_upper - lower_bound) / objective_upper``
    (exact; 0 when both are oo) are derived from it.  ``stats`` holds solver diagnostics.
    """

    allocation: BudgetAllocation
    minimum: Certified
    method: str
    stats: dict = field(default_factory=dict, compare=False)

    @property
    def objective_upper(self) -> sympy.Expr:
        return _sympy_value(self.minimum.upper)

    @property
    def lower_bound(self) -> sympy.Expr:
        return _sympy_value(self.minimum.lower)

    @property
    def gap(self) -> sympy.Expr:
        upper, lower = self.objective_upper, self.lower_bound
        if upper is sympy.oo:
            return sympy.Integer(0) if lower is sympy.oo else sympy.oo
        return (upper - lower) / upper

    def to_json(self) -> dict[str, Any]:
        """The allocation's JSON plus the bracket (the field layout of the ``bcdp allocate`` CLI)."""
        out = self.allocation.to_json()
        out.update({
            "objective_upper": str(self.objective_upper),
            "lower_bound": str(self.lower_bound),
            "lower_bound_float": "inf" if self.lower_bound is sympy.oo else float(self.lower_bound),
            "gap": float(self.gap),
            "solver": self.method,
        })
        return out


def _search_options(tol: Any, max_nodes: Any) -> tuple[float, int]:
    tol_f = to_float_input(tol, "tol")
    if not tol_f > 0:
        raise InvalidInputError(f"tol must be a positive number, got {tol!r}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
        raise WrongTypeError(f"max_nodes must be an integer, got {max_nodes!r}")
    if max_nodes < 1:
        raise InvalidInputError(f"max_nodes must be >= 1, got {max_nodes}")
    return tol_f, max_nodes


def _nonempty_pieces(inst: Instance, qf: Fraction) -> tuple[list[Piece], int]:
    """The pieces j >= 1 that can hold a better point, and the number certified empty or dominated."""
    level0 = inst.levels[0]
    pieces: list[Piece] = []
    skipped = 0
    for j in range(1, inst.m):
        if qf == 0 and j < inst.m - 1:
            # q = 0: raising c_d to delta~_d keeps feasibility and only increases S_d, so
            # t = l_m (piece m - 1) dominates every other t (method, step 2).
            skipped += 1
            continue
        if qf > 0:
            # non-empty iff L^{-1}(l_1) > l_j  (certified)
            linv = sympy.log(1 + (sympy.exp(sympy.Rational(level0.numerator, level0.denominator)) - 1)
                             / sympy.Rational(qf.numerator, qf.denominator))
            lj = inst.levels[j - 1]
            if compare(linv, sympy.Rational(lj.numerator, lj.denominator)) <= 0:
                skipped += 1
                continue
        pieces.append(Piece(inst, j))
    return pieces, skipped


@dataclass
class _Search:
    """State of the best-first branch and bound (step 3)."""

    best_val: float
    best_piece: Piece | None
    best_z: list[float]
    evaluated: int = 0
    leaves: list[Node] = field(default_factory=list)
    search_lb: float = math.inf

    def offer(self, piece: Piece, cand: tuple[float, list[float]] | None) -> None:
        if cand is not None and cand[0] < self.best_val:
            self.best_val, self.best_piece, self.best_z = cand[0], piece, cand[1]


def _branch_and_bound(pieces: list[Piece], state: _Search, tol: float, max_nodes: int) -> None:
    heap: list[tuple[float, int]] = []
    nodes: dict[int, Node] = {}
    pruned: list[Node] = []
    counter = 0
    for piece in pieces:
        box = piece.root_box()
        if box is None:
            continue
        node, cand = evaluate(piece, box[0], box[1], None, state.best_val)
        state.evaluated += 1
        state.offer(piece, cand)
        nodes[counter] = node
        heapq.heappush(heap, (node.lb, counter))
        counter += 1

    stuck: list[Node] = []
    while heap:
        lb, nid = heap[0]
        if state.best_val - lb <= tol * state.best_val or state.evaluated >= max_nodes:
            break
        heapq.heappop(heap)
        node = nodes.pop(nid)
        if lb >= state.best_val * (1 - tol / 4):
            pruned.append(node)
            continue
        piece = node.piece
        k = int(np.argmax(node.score))
        mid = 0.5 * (node.lo[k] + node.hi[k])
        if not (node.lo[k] < mid < node.hi[k]):
            widths = [node.hi[i] - node.lo[i] for i in range(piece.p)]
            k = int(np.argmax(widths))
            mid = 0.5 * (node.lo[k] + node.hi[k])
            if not (node.lo[k] < mid < node.hi[k]):
                stuck.append(node)
                continue
        for side in (0, 1):
            lo, hi = list(node.lo), list(node.hi)
            if side == 0:
                hi[k] = mid
            else:
                lo[k] = mid
            box = piece.propagate(lo, hi)
            if box is None:
                continue
            child, cand = evaluate(piece, box[0], box[1], node.z, state.best_val)
            state.evaluated += 1
            state.offer(piece, cand)
            if child.lb >= state.best_val * (1 - tol / 4):
                pruned.append(child)
            else:
                nodes[counter] = child
                heapq.heappush(heap, (child.lb, counter))
                counter += 1
    state.leaves = list(nodes.values()) + pruned + stuck
    # the smallest bound over every leaf (open, pruned or stuck): a lower bound on the piece even when
    # the search ended by pruning all of them (the open heap alone would then give inf)
    state.search_lb = min((leaf.lb for leaf in state.leaves), default=math.inf)


def optimal_allocation(delta: Sequence[Any], eps: Any, q: Any, *, tol: float = 1e-9,
                       max_nodes: int = 5000) -> OptimalAllocation:
    """Minimise the eq. (17) objective over the privacy-feasible c (method in
    :mod:`bcdp.bayesian.optimal_allocation`).

    ``delta`` (any order), ``eps`` > 0 and ``q`` in [0, 1] must be exact (ints, Fractions, sympy
    Rationals or strings such as "0.2"; floats are refused, :class:`~bcdp.core.errors.FloatRefusedError`).
    ``tol`` (a float solver setting) is the target relative gap of the search; ``max_nodes`` caps
    the branch-and-bound (the returned bounds stay certified, only the gap may be larger).
    """
    start_time = time.perf_counter()
    d_exact, e, qq = validate_demands(delta, eps, q)
    tol, max_nodes = _search_options(tol, max_nodes)
    order = sorted_order(d_exact)
    tilde = [_fraction(min(d_exact[i], e)) for i in order]
    qf, ef = _fraction(qq), _fraction(e)
    inst = Instance(tilde, qf)
    d = inst.d
    stats: dict[str, Any] = {"levels": [str(v) for v in inst.levels], "counts": list(inst.counts)}

    def finish(c_sorted: list[Fraction], lower: Fraction | float, extra: dict) -> OptimalAllocation:
        c = [sympy.Integer(0)] * d
        for pos, i in enumerate(order):
            c[i] = sympy.Rational(c_sorted[pos].numerator, c_sorted[pos].denominator)
        t = c_sorted[-1]
        branch_sorted = ["c_d <= delta~_i" if t <= dt else "c_d > delta~_i" for dt in tilde]
        branches = [""] * d
        for pos, i in enumerate(order):
            branches[i] = branch_sorted[pos]
        alloc = BudgetAllocation(tuple(d_exact), e, qq, None, "optimal", tuple(order), tuple(c),
                                 tuple(branches))
        upper = _fraction(mse_objective(alloc.c_sorted))
        minimum = Certified(lower, upper, exact=upper if lower == upper else None, witness=alloc.c,
                            provenance=PROVENANCE)
        stats.update(extra)
        stats["seconds"] = time.perf_counter() - start_time
        return OptimalAllocation(alloc, minimum, METHOD, stats)

    level0 = inst.levels[0]
    if level0 == 0:
        # c_1 + L(t) <= 0 or t <= 0 forces c_1 = 0: every feasible c has S_1 = 0, F = oo.
        return finish([Fraction(0)] * d, INFINITY, {"note": "delta~_1 = 0: objective is infinite"})

    # piece 0: exact
    piece0_value = Fraction(d * d) / (level0 * level0)
    if piece0_value > MAX_FLOAT_OBJECTIVE:
        shown = f"{float(level0):.3g}" if level0 >= Fraction(1, 10 ** 300) else "below 1e-300"
        raise ValidityConditionError(
            f"the optimal allocation searches in float64 and needs d^2/delta~_1^2 <= 1e300 "
            f"(delta~_1 = min(delta_1, eps)); here delta~_1 is {shown}")
    pieces, skipped = _nonempty_pieces(inst, qf)
    state = _Search(float(piece0_value), None, [float(level0)])
    _branch_and_bound(pieces, state, tol, max_nodes)

    # certificate: exact leaf bounds
    cert = LeafCertifier()
    lower: Fraction | float = piece0_value
    for leaf in state.leaves:
        lower = min(lower, cert.leaf_bound(leaf))
    if lower != math.inf:  # piece 0 is always finite here
        lower = floor_rel(Fraction(lower), 17)

    # upper bound: polish, rationalise, certify
    candidates: list[list[Fraction]] = [[level0] * d]   # piece 0's optimum (always feasible)
    certified = None
    if state.best_piece is not None:
        z = polish(state.best_piece, state.best_z)
        certified = False
        for attempt in range(4):
            zr = rational_point(state.best_piece, z, attempt)
            c_sorted = expand_groups(inst, state.best_piece, zr, level0)
            if zr[0] > 0 and certify_feasible(c_sorted, tilde, ef, qf):
                candidates.append(c_sorted)
                certified = True
                break
    best_c = min(candidates, key=exact_objective)
    extra = {"nodes": state.evaluated, "leaves": len(state.leaves), "pieces": len(pieces),
             "pieces_certified_empty": skipped, "search_lower_bound": state.search_lb,
             "search_upper_bound": state.best_val, "rounded_point_certified": certified,
             "t": str(best_c[-1])}
    return finish(best_c, lower, extra)


def exact_objective(c_sorted: list[Fraction]) -> Fraction | float:
    """The eq. (17) sum of a rational sorted c, in Fractions (``math.inf`` if some partial sum is 0)."""
    d = len(c_sorted)
    prev = Fraction(0)
    S = Fraction(0)
    tot = Fraction(0)
    for k, ck in enumerate(c_sorted):
        S += (ck - prev) ** 2 / (d - k)
        prev = ck
        if S == 0:
            return math.inf
        tot += 1 / S
    return tot
