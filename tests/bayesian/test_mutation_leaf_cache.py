"""The cut-offset cache of ``relaxation.LeafCertifier`` never changes a certified leaf bound.

BCDP paper (arXiv:2410.18404), Sec. 4, step 4 of :mod:`bcdp.bayesian.optimal_allocation`: the leaf bound
is recomputed exactly, with the cut offset m of the node's t-range [lo_t, hi_t] and slope a; one
certifier caches m per (piece, lo_t, hi_t, a).  Oracle: invariance -- a certifier that has already
certified other nodes (same slope, other t-ranges or another instance) gives each node exactly the
bound a fresh certifier gives it.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import LeafCertifier, evaluate

TILDE = [F(1, 4), F(1, 4), F(1, 2), F(3, 4), F(1)]


def _node(piece, lo, hi, a=None):
    node, _ = evaluate(piece, list(lo), list(hi), None, 2.0)
    assert node.z is not None and sum(node.y[2:]) > 0     # the cuts enter the bound
    return dataclasses.replace(node, a=a) if a is not None else node


def test_cached_cut_offsets_do_not_leak_between_nodes():
    piece = Piece(Instance(TILDE, F(1, 2)), 2)
    first = _node(piece, [0.0, 0.05, 0.5], [0.2, 0.4, 0.75])
    a = first.a
    others = [
        _node(piece, [0.0, 0.05, 0.55], [0.2, 0.4, 0.75], a),   # other lo_t, same lo_2, hi_t, a
        _node(piece, [0.0, 0.05, 0.5], [0.2, 0.4, 0.7], a),     # other hi_t, same hi_2, lo_t, a
        _node(Piece(Instance(TILDE, F(1, 4)), 2), [0.0, 0.05, 0.5], [0.2, 0.4, 0.75], a),  # other instance
    ]
    for other in others:
        shared = LeafCertifier()
        shared.leaf_bound(first)
        fresh = LeafCertifier().leaf_bound(other)
        assert shared.leaf_bound(other) == fresh
    # the cut offsets of the four nodes really differ (else the test could not fail)
    offs = {n.piece.inst.cut_offset(n.lo[-1], n.hi[-1], F(n.a)) for n in [first] + others}
    assert len(offs) == 4
