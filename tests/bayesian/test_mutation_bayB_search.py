"""The best-first branch and bound of the optimal allocation (step 3 of the method).

Checked against the documented contract of the search, with references computed here, not
numbers copied from a run:

* bookkeeping: ``evaluated`` is the number of relaxations solved (counted by a wrapper around
  ``evaluate``), the best value is the minimum of piece 0's value d^2/l_1^2 and of every
  candidate any evaluation returned, and ``search_lb`` is the bound of the open node(s);
* the stop rule ("relative gap <= tol, or the node budget is spent", method step 4): a node is
  only split while best - lb > tol * best and fewer than max_nodes relaxations were solved, and
  the search stops only for one of those reasons (or no open node);
* the target gap: when the search stops on the gap, every leaf bound is >= best (1 - tol);
* an empty piece in the list does not stop the search of the others;
* the branching rule, with a stub relaxation whose bound and score are set by hand: the chosen
  coordinate is split at its midpoint into [lo, mid] and [mid, hi]; when it cannot be split the
  widest coordinate is split; a box with no splittable coordinate is kept as a leaf and the
  search goes on with the other nodes;
* the fallback path on a real instance at tol = 1e-15 (where boxes reach float resolution)
  completes, with every leaf a box.
"""

from __future__ import annotations

import heapq as _heapq
import math
import types
from fractions import Fraction

import pytest

from bcdp.bayesian.optimal_allocation import search
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import Node


def _F(x):
    return [Fraction(v) for v in x]


class _Recorder:
    """Wraps ``evaluate`` and ``heapq.heappop`` of the search module; records calls and pops."""

    def __init__(self, monkeypatch, state, evaluate=None):
        self.calls = []      # (piece, lo, hi, node, cand)
        self.pops = []       # (lb, best_val at the pop, evaluated at the pop)
        real = evaluate or search.evaluate

        def ev(piece, lo, hi, z0, scale):
            node, cand = real(piece, lo, hi, z0, scale)
            self.calls.append((piece, list(lo), list(hi), node, cand))
            return node, cand

        def heappop(heap):
            item = _heapq.heappop(heap)
            self.pops.append((item[0], state.best_val, state.evaluated))
            return item

        monkeypatch.setattr(search, "evaluate", ev)
        monkeypatch.setattr(search, "heapq", types.SimpleNamespace(heappush=_heapq.heappush, heappop=heappop))


def _setup(levels, q):
    inst = Instance(_F(levels), Fraction(q))
    pieces, _ = search._nonempty_pieces(inst, Fraction(q))
    l0 = inst.levels[0]
    state = search._Search(float(Fraction(inst.d ** 2) / (l0 * l0)), None, [float(l0)])
    return inst, pieces, state


CASES = [
    (["3/10", "3/5", "2", "2"], "1/20", 1e-3, 5000),
    (["3/10", "3/5", "2", "2"], "1/20", 1e-9, 5000),
    (["1/10", "1/5", "3/10", "1/2", "4/5", "1"], "1/100", 1e-3, 5000),
    (["1/10", "1/5", "3/10", "1/2", "4/5", "1"], "1/100", 1e-9, 5000),
    (["1/10", "1/5", "3/10", "1/2", "4/5", "1"], "1/100", 1e-9, 7),
    (["3/10", "3/5", "2", "2"], "1/20", 1e-9, 4),
]


@pytest.mark.parametrize("levels,q,tol,max_nodes", CASES)
def test_bookkeeping_and_stop_rule(monkeypatch, levels, q, tol, max_nodes):
    inst, pieces, state = _setup(levels, q)
    piece0 = state.best_val
    rec = _Recorder(monkeypatch, state)
    search._branch_and_bound(pieces, state, tol, max_nodes)
    # every relaxation solved is counted, once
    assert state.evaluated == len(rec.calls) >= 1
    # the best value is the best of piece 0 and of every candidate returned
    cands = [(c[4][0], c[0], c[4][1]) for c in rec.calls if c[4] is not None]
    best = min([piece0] + [v for v, _, _ in cands])
    assert state.best_val == best
    if best < piece0:
        assert any(v == best and pc is state.best_piece and z == state.best_z for v, pc, z in cands)
    # a node is split only while the gap is open and the budget not spent
    for lb, bv, ev in rec.pops:
        assert bv - lb > tol * bv
        assert ev < max_nodes
    # the search stops on the gap, on the budget, or with no open node
    if state.search_lb != math.inf:
        assert (state.best_val - state.search_lb <= tol * state.best_val) or state.evaluated >= max_nodes
    # leaves are boxes of the searched pieces
    assert all(isinstance(leaf, Node) for leaf in state.leaves)
    if state.evaluated < max_nodes:
        # target gap reached: no leaf bound below best (1 - tol)
        assert min(leaf.lb for leaf in state.leaves) >= state.best_val * (1 - tol)


def test_root_only_search_lower_bound_is_the_root_bound(monkeypatch):
    # one piece, max_nodes = 1: only its root is solved; it is the one open node, so the
    # search lower bound is its bound (a positive finite float, below the best value found).
    inst, pieces, state = _setup(["3/10", "3/5", "2", "2"], "1/20")
    assert [pc.j for pc in pieces] == [1, 2]
    rec = _Recorder(monkeypatch, state)
    search._branch_and_bound(pieces[:1], state, 1e-9, 1)
    assert len(rec.calls) == 1 and rec.pops == []
    root = rec.calls[0][3]
    assert state.search_lb == root.lb
    assert 0 < state.search_lb < state.best_val < math.inf
    # and the root's candidate was taken: it beats piece 0 = d^2 / l_1^2 = 16 / 0.09
    assert state.best_val < 16 / 0.09 and state.best_piece is pieces[0]


def test_two_pieces_roots_counted(monkeypatch):
    # levels (1/2, 3/4, 1, 2, 3), q = 1/2: pieces 1 and 2 are non-empty; with max_nodes = 2 only
    # the two roots are solved
    inst, pieces, state = _setup(["1/2", "3/4", "1", "2", "3"], "1/2")
    assert [pc.j for pc in pieces] == [1, 2]
    rec = _Recorder(monkeypatch, state)
    search._branch_and_bound(pieces, state, 1e-9, 2)
    assert state.evaluated == len(rec.calls) == 2


def test_an_empty_piece_first_does_not_stop_the_search(monkeypatch):
    # piece 3 of (1/2, 3/4, 1, 2, 3), q = 1/2 is empty (x_1 <= 1/2 - L(1) < 0): its root box is None
    inst, pieces, state = _setup(["1/2", "3/4", "1", "2", "3"], "1/2")
    empty = Piece(inst, 3)
    assert empty.root_box() is None
    rec = _Recorder(monkeypatch, state)
    search._branch_and_bound([empty] + pieces, state, 1e-9, 5000)
    searched = {c[0].j for c in rec.calls}
    assert searched == {1, 2}
    assert {leaf.piece.j for leaf in state.leaves} <= {1, 2} and state.leaves


def test_fallback_at_float_resolution_completes(monkeypatch):
    # tol = 1e-15 is below what the float search can separate: boxes shrink to float resolution and
    # the fallback branches (widest coordinate, or keep the box as a leaf) are exercised
    inst, pieces, state = _setup(["3/10", "3/5", "2", "2"], "1/20")
    rec = _Recorder(monkeypatch, state)
    search._branch_and_bound(pieces, state, 1e-15, 400)
    assert state.evaluated == len(rec.calls)
    assert all(isinstance(leaf, Node) for leaf in state.leaves)
    for lb, bv, ev in rec.pops:
        assert bv - lb > 1e-15 * bv and ev < 400
    if state.search_lb != math.inf:
        assert (state.best_val - state.search_lb <= 1e-15 * state.best_val) or state.evaluated >= 400


# ---------------------------------------------------------------- the branching rule, stub relaxation


def _stub(score_of, lb_of):
    """A relaxation stub: bound lb_of(lo, hi), score score_of(lo, hi), no candidate."""
    def ev(piece, lo, hi, z0, scale):
        return Node(piece, list(lo), list(hi), lb_of(lo, hi), None, None, 0.0, score_of(lo, hi)), None
    return ev


def _q0_piece():
    # q = 0, levels (1, 2, 3), piece 2: no cuts, so propagation is the chain 0 <= x_1 <= x_2 <= t only
    inst = Instance(_F([1, 2, 3]), Fraction(0))
    return Piece(inst, 2)


def _run_stub(monkeypatch, root, score_of, lb_of, max_nodes):
    piece = _q0_piece()
    monkeypatch.setattr(piece, "root_box", lambda: (list(root[0]), list(root[1])))
    state = search._Search(100.0, None, [1.0])
    rec = _Recorder(monkeypatch, state, evaluate=_stub(score_of, lb_of))
    search._branch_and_bound([piece], state, 1e-9, max_nodes)
    return state, rec


def test_branch_on_the_scored_coordinate_at_its_midpoint(monkeypatch):
    # root box [0,1/2] x [0,2] x [3,3]; score picks coordinate 0 (not the widest, 1):
    # children [0, 1/4] and [1/4, 1/2] in coordinate 0 (chain: x_2 >= x_1 >= 1/4 in the second)
    root = ([0.0, 0.0, 3.0], [0.5, 2.0, 3.0])
    state, rec = _run_stub(monkeypatch, root, lambda lo, hi: [5.0, 1.0, 0.0], lambda lo, hi: 1.0, 3)
    assert len(rec.calls) == 3
    boxes = sorted((c[1], c[2]) for c in rec.calls[1:])
    assert boxes == sorted([([0.0, 0.0, 3.0], [0.25, 2.0, 3.0]), ([0.25, 0.25, 3.0], [0.5, 2.0, 3.0])])


def test_unsplittable_scored_coordinate_falls_back_to_the_widest(monkeypatch):
    # score picks coordinate 2 (t pinned: width 0); the widest is coordinate 1 ([0.25, 2], width
    # 1.75; coordinate 0 has width 0.25): children split coordinate 1 at 1.125
    root = ([0.0, 0.25, 3.0], [0.25, 2.0, 3.0])
    state, rec = _run_stub(monkeypatch, root, lambda lo, hi: [0.0, 0.0, 9.0], lambda lo, hi: 1.0, 3)
    assert len(rec.calls) == 3
    boxes = sorted((c[1], c[2]) for c in rec.calls[1:])
    assert boxes == sorted([([0.0, 0.25, 3.0], [0.25, 1.125, 3.0]), ([0.0, 1.125, 3.0], [0.25, 2.0, 3.0])])


PREV1 = math.nextafter(1.0, 0.0)   # 1 - 2^-53
NEXT1 = math.nextafter(1.0, 2.0)   # 1 + 2^-52


@pytest.mark.parametrize("box_a", [
    # 0.5 (prev1 + 1) rounds (tie, to even) up to 1.0 = hi: the midpoint is not inside
    ([PREV1, 1.0, 3.0], [1.0, 1.0, 3.0]),
    # 0.5 (1 + next1) rounds (tie, to even) down to 1.0 = lo: the midpoint is not inside
    ([1.0, 1.0, 3.0], [NEXT1, NEXT1, 3.0]),
])
def test_point_box_is_kept_as_a_leaf_and_the_search_goes_on(monkeypatch, box_a):
    # two roots: A, one float step wide in x_1 (and at most in x_2), nothing to split; bound 1,
    # popped first; and B = [0, 1] x [0, 2] x [3, 3] (bound 2, splittable in x_1).
    # A must be kept as a leaf and the search must go on and split B: 2 roots + 2 children.
    prev1 = box_a[0][0]
    boxes = {"A": box_a, "B": ([0.0, 0.0, 3.0], [1.0, 2.0, 3.0])}
    pa, pb = _q0_piece(), _q0_piece()
    monkeypatch.setattr(pa, "root_box", lambda: (list(boxes["A"][0]), list(boxes["A"][1])))
    monkeypatch.setattr(pb, "root_box", lambda: (list(boxes["B"][0]), list(boxes["B"][1])))
    state = search._Search(100.0, None, [1.0])
    rec = _Recorder(monkeypatch, state, evaluate=_stub(lambda lo, hi: [1.0, 0.0, 0.0],
                                                       lambda lo, hi: 1.0 if lo[0] == prev1 else 2.0))
    search._branch_and_bound([pa, pb], state, 1e-9, 4)
    assert state.evaluated == len(rec.calls) == 4
    assert all(isinstance(leaf, Node) for leaf in state.leaves)
    assert any(leaf.piece is pa and (leaf.lo, leaf.hi) == boxes["A"] for leaf in state.leaves)
    assert sorted((c[1], c[2]) for c in rec.calls[2:]) == sorted(
        [([0.0, 0.0, 3.0], [0.5, 2.0, 3.0]), ([0.5, 0.5, 3.0], [1.0, 2.0, 3.0])])
