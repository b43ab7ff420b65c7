"""Thesis Lemma 6.3.1 (zeta-nets, [Ver18]) on finite sets of S^{d-1}, d = 2, 3, and the batch growth q of Alg 6.3.1.

Printed (Sec. 6.3): for A in the unit ball spanning R^d there is a zeta-net N in A, |N| <= (3/zeta)^d + d,
spanning R^d, with every a within zeta of N; Alg 6.3.1 step 3 sets q = (2T)^{1/log T} (footnote: e <= q <= e^2).
Oracles written here: rational points of S^1 and S^2 by inverse stereographic projection; covering and
separation by enumeration of all exact squared distances, span by sympy rank, the printed bound
(3/zeta)^d + d; q against exp(1 + log 2/log T) at 50 digits and e < q <= e^2.  Library:
:mod:`bcdp.bandits.nets` (zeta_net_exact, zeta_net_float, net_size_bound, batch_growth).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import sympy
from bcdp.bandits import nets
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma6.3.1",
    paper="thesis",
    group="bandits",
    where="Lemma 6.3.1, Sec. 6.3 ([Ver18, Cor. 4.2.13]); Alg 6.3.1 steps 2-3 and the footnote on q",
    statement="A spanning A in the unit ball of R^d has a zeta-net N in A with |N| <= (3/zeta)^d + d that spans R^d; "
              "q = (2T)^{1/log T} lies in [e, e^2].",
    expected="confirmed",
    also_checked_in=("`tests/bandits/test_bandits_nets.py`",),
)


def _sphere_points(d: int, grid: list[Fraction]) -> list[list[Fraction]]:
    pts = []
    for t in itertools.product(grid, repeat=d - 1):
        s = sum(v * v for v in t)
        pts.append([2 * v / (s + 1) for v in t] + [(s - 1) / (s + 1)])
    pts.append([Fraction(0)] * (d - 1) + [Fraction(1)])  # the projection pole
    return pts


def check() -> ClaimResult:
    fails: list = []
    rows = []
    for d, grid in ((2, [Fraction(k, 4) for k in range(-12, 13)]), (3, [Fraction(k, 2) for k in range(-4, 5)])):
        pts = _sphere_points(d, grid)
        for zeta in (Fraction(1), Fraction(1, 2), Fraction(1, 4), Fraction(1, 10)):
            net = nets.zeta_net_exact(pts, zeta)
            dist2 = [[sum((a - b) ** 2 for a, b in zip(p, pts[j])) for j in net] for p in pts]
            covered = all(min(r) <= zeta * zeta for r in dist2)
            spans = sympy.Matrix([pts[j] for j in net]).rank() == d
            printed = (3 / zeta) ** d + d
            size_ok = len(net) <= printed and nets.net_size_bound(zeta, d) == printed
            if not (covered and spans and size_ok):
                keep(fails, {"d": d, "zeta": str(zeta), "size": len(net), "covered": covered, "spans": spans})
            rows.append({"d": d, "K": len(pts), "zeta": str(zeta), "net_size": len(net), "bound": str(printed)})
    rng = np.random.default_rng(631)
    for d in (2, 3):
        x = rng.normal(size=(2000, d))
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        for zeta in (0.5, 0.2):
            idx = nets.zeta_net_float(x, zeta)
            dmin = np.sqrt(((x[:, None, :] - x[idx][None, :, :]) ** 2).sum(-1)).min(axis=1).max()
            if not (dmin <= zeta and len(idx) <= (3 / zeta) ** d + d and np.linalg.matrix_rank(x[idx]) == d):
                keep(fails, {"float": True, "d": d, "zeta": zeta, "size": len(idx), "max_dist": float(dmin)})
            rows.append({"d": d, "K": 2000, "zeta": zeta, "net_size": int(len(idx)), "float": True})
    q_rows = []
    with mpmath.workdps(50):
        for T in (2, 3, 10, 1000, 10 ** 6, 10 ** 12):
            q = nets.batch_growth(T)
            qm = mpmath.mpf(str(sympy.N(q, 60)))
            orc = mpmath.e ** (1 + mpmath.log(2) / mpmath.log(T))
            inside = mpmath.e < qm <= mpmath.e ** 2 * (1 + mpmath.mpf(10) ** -45)
            if not (mpmath.almosteq(qm, orc, 1e-45) and inside):
                keep(fails, {"T": T, "q": mpmath.nstr(qm, 20)})
            q_rows.append({"T": T, "q": mpmath.nstr(qm, 12)})
    if sympy.simplify(nets.batch_growth(2) - sympy.E ** 2) != 0:
        keep(fails, {"what": "q(2) = e^2 exactly"})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"greedy nets on rational points of S^1 ({rows[0]['K']} points) and S^2 ({rows[4]['K']}): cover, span, sizes "
                   + ", ".join(f"d={r['d']} zeta={r['zeta']}: {r['net_size']}" for r in rows[:8])
                   + "; q(2) = e^2, q(1e12) = " + q_rows[-1]["q"],
        evidence={"rows": rows, "q": q_rows, "failures": fails,
                  "library": "bcdp.bandits.nets (zeta_net_exact, zeta_net_float, net_size_bound, batch_growth)"},
    )
