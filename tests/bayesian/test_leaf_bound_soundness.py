"""The certified leaf bound ``relaxation.LeafCertifier.leaf_bound`` is sound and is the larger of its two bounds.

BCDP paper (arXiv:2410.18404), Sec. 4, eq. (17); method in :mod:`bcdp.bayesian.optimal_allocation`
(steps 2-4).  On a node's box, ``leaf_bound`` must be an exact lower bound of the piece's objective
over {box, chain 0 <= z_1 <= ... <= z_p = t, z_g + L(t) <= l_g (g < j)}, equal to the larger of the
crude bound and the step-3 relaxation bound at the node's proposal (z^, y) with y clipped to y >= 0.

Independent oracles (no number computed by relaxation.py is reused):

* the objective: eq. (17), F(c) = sum_i 1/S_i with S_i = sum_{k<=i} (c_k - c_{k-1})^2 / (d - k + 1),
  evaluated in Fractions on the expanded allocation c (group g repeated n_g times, the top group
  holding every level >= l_{j+1}), at rational feasible points of the box: vertices (every coordinate
  at its lower bound or its largest feasible value), random points and the proposal z^.  Feasibility
  uses L(t) = log(1 + q (e^t - 1)) bounded above with mpmath at 60 digits (exact for q = 0 and q = 1);
* the bound: the step-3 formula R(z^) + y.(A z^ - b) + sum_h [min(r_h lo_h, r_h hi_h) - r_h z^_h],
  r = grad R(z^) + A^T y, and the crude bound sum_g n_g / sum_{h<=g} Dmax_h^2 / N_h, both re-derived
  here from the package docstring (secants, chain rows then cut rows, gradient of R by the chain rule).
  The only library number it takes is the cut offset m = Instance.cut_offset(lo_t, hi_t, a), and m is
  itself checked against min_{t in [lo_t, hi_t]} (L(t) - a t) computed with mpmath.

Nodes: the leaves ``optimal_allocation`` certifies on small instances (q = 0, 1/10, 1/2; p = 2, 3, 4,
lo_1 != lo_t), copies with y = 0 (valid but poor: the relaxation value can fall below the crude
bound), one copy with a negative multiplier on a row slack over the whole box, and a q = 1 box (for
q = 1 the search certifies every piece j >= 1 empty, so a piece-2 box with t < l_1 is built by hand).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from fractions import Fraction as F

import mpmath
from bcdp.bayesian.optimal_allocation import search
from bcdp.bayesian.optimal_allocation.instance import Instance, Piece
from bcdp.bayesian.optimal_allocation.relaxation import LeafCertifier, Node, evaluate

Value = F | float
INSTANCES = [(["3", "5", "8"], 10, "0"), (["1/4", "1/2", "3/4", "1"], 1, "0"),
             (["1/4", "1/4", "1/2", "3/4", "1"], 1, "1/10"), (["3", "5", "8"], 10, "1/10"),
             (["1/4", "1/2", "3/4"], 1, "1/2")]


@functools.cache
def _leaves() -> tuple[Node, ...]:
    """The leaves ``optimal_allocation`` hands to ``leaf_bound`` (recorded, then the method restored)."""
    got: list[Node] = []
    original = LeafCertifier.leaf_bound

    def record(self: LeafCertifier, node: Node) -> Value:
        got.append(node)
        return original(self, node)

    LeafCertifier.leaf_bound = record  # type: ignore[method-assign]
    try:
        for delta, eps, q in INSTANCES:
            search.optimal_allocation(delta, eps, q, max_nodes=40)
    finally:
        LeafCertifier.leaf_bound = original  # type: ignore[method-assign]
    return tuple(got)


def _q1_node() -> Node:
    piece = Piece(Instance([F(1, 2), F(1), F(3, 2)], F(1)), 2)
    return evaluate(piece, [0.0, 0.05, 0.25], [0.2, 0.35, 0.4], None, 10.0)[0]


def _negative_multiplier_node() -> Node:
    """A q = 0 leaf with y = -1000 on the chain row z_{p-1} - t <= 0, slack on the whole box."""
    node = next(n for n in _leaves() if n.piece.inst.q == 0 and n.piece.p == 3)
    assert node.hi[-2] < node.lo[-1]
    return dataclasses.replace(node, y=[0.0] * (len(node.y) - 1) + [-1000.0])


def _all_nodes() -> list[Node]:
    real = list(_leaves()) + [_q1_node()]
    return real + [dataclasses.replace(n, y=[0.0] * len(n.y)) for n in real] + [_negative_multiplier_node()]


def _groups(piece: Piece) -> tuple[list[int], list[F]]:
    """Group sizes n_g (levels l_1..l_j, then one top group) and the bounds l_g, from the instance."""
    counts, j = piece.inst.counts, piece.j
    return list(counts[:j]) + [sum(counts[j:])], list(piece.inst.levels[:j])


def _objective(piece: Piece, z: list[F]) -> Value:
    """Eq. (17) on the expanded allocation c, exactly (oo if some partial sum S_i is 0)."""
    n, _ = _groups(piece)
    c = [z[g] for g in range(len(z)) for _ in range(n[g])]
    d, prev, S, total = len(c), F(0), F(0), F(0)
    for k, ck in enumerate(c):
        S += (ck - prev) ** 2 / (d - k)
        prev = ck
        if S == 0:
            return math.inf
        total += 1 / S
    return total


def _L_upper(q: F, t: F) -> F:
    """A rational >= L(t) = log(1 + q (e^t - 1)) (exact for q in {0, 1})."""
    if q in (0, 1):
        return q * t
    with mpmath.workdps(60):
        val = mpmath.log1p(mpmath.mpf(q.numerator) / q.denominator
                           * mpmath.expm1(mpmath.mpf(t.numerator) / t.denominator))
        return F(mpmath.nstr(val, 55, min_fixed=-math.inf, max_fixed=math.inf)) + F(1, 10 ** 45)


def _feasible_points(node: Node, rng: random.Random) -> list[list[F]]:
    """Rational points of the box on the chain with z_g + L(t) <= l_g (g < j)."""
    piece, p = node.piece, node.piece.p
    lo, hi = [F(v) for v in node.lo], [F(v) for v in node.hi]
    _, ell = _groups(piece)
    ts = [lo[-1], hi[-1]] + [lo[-1] + (hi[-1] - lo[-1]) * F(rng.randrange(1, 1000), 1000) for _ in range(3)]
    pts: list[list[F]] = []
    for t in dict.fromkeys(ts):
        cap = [min(hi[g], ell[g] - _L_upper(piece.inst.q, t)) for g in range(p - 1)]
        for choice in range(2 ** (p - 1) + 4):           # vertices, then random points
            z, ok = [F(0)] * (p - 1) + [t], True
            for g in range(p - 2, -1, -1):
                top = min(cap[g], z[g + 1])
                if top < lo[g]:
                    ok = False
                    break
                w = F((choice >> g) & 1) if choice < 2 ** (p - 1) else F(rng.randrange(0, 1001), 1000)
                z[g] = lo[g] + (top - lo[g]) * w
            if ok:
                pts.append(z)
    if node.z is not None:
        z = [F(v) for v in node.z]
        if (all(lo[k] <= z[k] <= hi[k] for k in range(p)) and all(z[k] <= z[k + 1] for k in range(p - 1))
                and all(z[g] <= ell[g] - _L_upper(piece.inst.q, z[-1]) for g in range(p - 1))):
            pts.append(z)
    return pts


def _crude(piece: Piece, lo: list[F], hi: list[F]) -> Value:
    n, _ = _groups(piece)
    p, acc, total = len(lo), F(0), F(0)
    for h in range(p):
        acc += max(hi[h] - (lo[h - 1] if h else 0), 0) ** 2 / sum(n[h:])
        if acc <= 0:
            return math.inf
        total += n[h] / acc
    return total


def _relaxation(node: Node, m: F, y: list[F], z: list[F] | None = None) -> F | None:
    """The step-3 bound at (z^, y) for the cut offset m; None if z^ is outside E (some T_g <= 0)."""
    piece = node.piece
    n, ell = _groups(piece)
    lo, hi = [F(v) for v in node.lo], [F(v) for v in node.hi]
    z = [F(v) for v in node.z] if z is None else z
    p, a = len(lo), F(node.a)
    N = [sum(n[h:]) for h in range(p)]
    dmin = [max(lo[h] - (hi[h - 1] if h else 0), 0) for h in range(p)]
    dmax = [hi[h] - (lo[h - 1] if h else 0) for h in range(p)]
    s = [dmin[h] + dmax[h] for h in range(p)]
    T, acc = [], F(0)
    for h in range(p):
        acc += (s[h] * (z[h] - (z[h - 1] if h else 0)) - dmin[h] * dmax[h]) / N[h]
        if acc <= 0:
            return None
        T.append(acc)
    R = sum(F(n[g]) / T[g] for g in range(p))
    # dR/dz_k: z_k enters Delta_k (dT_g/dz_k = s_k/N_k, g >= k) and Delta_{k+1} (-s_{k+1}/N_{k+1}, g > k)
    r = [sum(-n[g] / T[g] ** 2 * ((s[k] / N[k] if g >= k else 0) - (s[k + 1] / N[k + 1] if g > k else 0))
             for g in range(p)) for k in range(p)]
    rows = [({h - 1: F(1), h: F(-1)}, F(0)) for h in range(1, p)]
    if piece.inst.q > 0:
        rows += [({g: F(1), p - 1: a}, ell[g] - m) for g in range(p - 1)]
    comp = F(0)
    for (row, b), yi in zip(rows, y, strict=True):
        comp += yi * (sum(c * z[k] for k, c in row.items()) - b)
        for k, c in row.items():
            r[k] += yi * c
    return R + comp + sum(min(r[k] * lo[k], r[k] * hi[k]) - r[k] * z[k] for k in range(p))


def _cut_offset(node: Node) -> F:
    if node.piece.inst.q == 0:
        return F(0)
    return node.piece.inst.cut_offset(node.lo[-1], node.hi[-1], F(node.a))


def _reference(node: Node) -> Value:
    crude = _crude(node.piece, [F(v) for v in node.lo], [F(v) for v in node.hi])
    val = _relaxation(node, _cut_offset(node), [max(F(v), F(0)) for v in node.y])
    return crude if val is None or val <= crude else val


def test_leaf_bound_is_below_the_objective_at_feasible_points() -> None:
    rng = random.Random(20241018)
    checked = 0
    for node in _all_nodes():
        bound = LeafCertifier().leaf_bound(node)
        for z in _feasible_points(node, rng):
            assert bound <= _objective(node.piece, z), (node.lo, node.hi, z)
            checked += 1
    assert checked > 1000


def test_leaf_bound_is_at_least_the_crude_bound() -> None:
    below = 0
    for node in _all_nodes():
        crude = _crude(node.piece, [F(v) for v in node.lo], [F(v) for v in node.hi])
        assert LeafCertifier().leaf_bound(node) >= crude
        val = _relaxation(node, _cut_offset(node), [max(F(v), F(0)) for v in node.y])
        below += val is not None and val < crude
    assert below >= 3            # the nodes include relaxation values below the crude bound


def test_proposal_outside_E_returns_the_crude_bound() -> None:
    for node in list(_leaves())[::4] + [_q1_node()]:
        outside = dataclasses.replace(node, z=[0.0] * node.piece.p)   # T_1 = -o_1/N_1 <= 0
        assert _relaxation(outside, _cut_offset(outside), [F(0)] * len(node.y)) is None
        crude = _crude(node.piece, [F(v) for v in node.lo], [F(v) for v in node.hi])
        assert LeafCertifier().leaf_bound(outside) == crude


def test_leaf_bound_is_the_larger_of_crude_and_relaxation_bound() -> None:
    wide_t = small_y = 0
    for node in _all_nodes():
        assert LeafCertifier().leaf_bound(node) == _reference(node)
        inst, y = node.piece.inst, [max(F(v), F(0)) for v in node.y]
        lo, hi = [F(v) for v in node.lo], [F(v) for v in node.hi]
        if 0 < inst.q < 1:       # the cut offset really bounds L(t) - a t on [lo_t, hi_t] from below
            a, lo_t, hi_t = node.a, mpmath.mpf(node.lo[-1]), mpmath.mpf(node.hi[-1])
            with mpmath.workdps(50):
                qm = mpmath.mpf(inst.q.numerator) / inst.q.denominator
                tstar = min(max(mpmath.log(a * (1 - qm) / (qm * (1 - a))), lo_t), hi_t)
                gmin = mpmath.log1p(qm * mpmath.expm1(tstar)) - a * tstar
                assert _cut_offset(node) <= F(mpmath.nstr(gmin, 45, min_fixed=-math.inf, max_fixed=math.inf)) \
                    + F(1, 10 ** 40)
        ref = _reference(node)
        # the cut offset belongs to the t-range [lo_t, hi_t], not to [lo_1, hi_t] or [lo_t, hi_1]
        if inst.q > 0 and node.piece.p >= 3 and node.lo[1] != node.lo[-1] and node.hi[1] != node.hi[-1]:
            for t_lo, t_hi in ((node.lo[1], node.hi[-1]), (node.lo[-1], node.hi[1])):
                other = _relaxation(node, inst.cut_offset(t_lo, t_hi, F(node.a)), y)
                wide_t += other is not None and other != ref != _crude(node.piece, lo, hi)
        # multipliers in (0, 1] are kept (on some nodes dropping them lowers the bound)
        if any(0 < v <= 1 for v in y):
            dropped = _relaxation(node, _cut_offset(node), [v if v > 1 else F(0) for v in y])
            small_y += dropped is not None and dropped < ref
    assert wide_t >= 6 and small_y >= 2
