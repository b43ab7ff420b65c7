"""Thesis Fig 7.4: the feasible region of problem P1 (Sec. 7.3.1, eqs. (7.20)-(7.21)) for m = 2 outputs.

A binary pair of rows is ``a = (a_1, 1 - a_1)``, ``b = (b_1, 1 - b_1)``; the feasible set in the
``(a_1, b_1)`` plane is ``H2(a_1) <= R``, ``H2(b_1) <= R`` (so each coordinate lies in
``[0, p_R] u [1 - p_R, 1]``) and ``e^-eps <= a_l/b_l <= e^eps`` for both outputs (four half-planes).
It is a union of convex polygons, one per pair of entropy intervals, computed here by clipping; the
objective (7.20) is convex, so the m = 2 optimum is the best polygon vertex (marked).  The thesis
does not print its parameters; we draw eps = 1 and R in {0.3, 0.6, 1} bits (H2(e/(e+1)) = 0.840 bit:
the first two are below the critical randomness, R = 1 bit is unconstrained).

``write_p1_figure(out_dir)`` writes ``thesis_fig7_4.csv`` (one row per polygon vertex, then one
``optimum`` row per R) and the labelled ``thesis_fig7_4.png``.  Float geometry (a figure, not a
guarantee); the certified m = 2 optimum is :func:`bcdp.randomness.p1.p1_binary_upper`.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from bcdp.randomness import entropy as ent
from bcdp.randomness import p1

EPS = 1.0
RS_BITS = (0.3, 0.6, 1.0)
HEADER = ["eps", "R_bits", "kind", "piece", "vertex", "a1", "b1", "V"]


def _clip(poly: list, f) -> list:
    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp, fq = f(p), f(q)
        if fp >= 0:
            out.append(p)
        if fp * fq < 0:
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def region(eps: float, r_bits: float) -> list[list[tuple[float, float]]]:
    """The convex pieces (vertex lists) of the m = 2 feasible region in the (a_1, b_1) plane."""
    big = math.exp(eps)
    p = float(ent.inverse_binary_entropy_float(r_bits, "bits"))
    intervals = [(0.0, 1.0)] if p >= 0.5 else [(0.0, p), (1.0 - p, 1.0)]
    planes = (lambda v: big * v[1] - v[0], lambda v: big * v[0] - v[1],
              lambda v: big * (1 - v[1]) - (1 - v[0]), lambda v: big * (1 - v[0]) - (1 - v[1]))
    pieces = []
    for a0, a1 in intervals:
        for b0, b1 in intervals:
            poly = [(a0, b0), (a1, b0), (a1, b1), (a0, b1)]
            for plane in planes:
                poly = _clip(poly, plane) if poly else poly
            if len(poly) >= 3:
                pieces.append(poly)
    return pieces


def _v(a: float, b: float) -> float:
    return float(p1.p1_value_float([a, 1 - a], [b, 1 - b]))


def _fmt(x: float) -> str:
    return f"{x:.12g}"


def csv_text() -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for r in RS_BITS:
        pieces = region(EPS, r)
        best = (-1.0, (0.0, 0.0))
        for i, poly in enumerate(pieces):
            for j, (a, b) in enumerate(poly):
                v = _v(a, b)
                best = max(best, (v, (a, b)))
                w.writerow([_fmt(EPS), _fmt(r), "vertex", i, j, _fmt(a), _fmt(b), _fmt(v)])
        w.writerow([_fmt(EPS), _fmt(r), "optimum", "", "", _fmt(best[1][0]), _fmt(best[1][1]), _fmt(best[0])])
    return buf.getvalue()


def write_p1_figure(out_dir: str | Path) -> list[Path]:
    """Write ``thesis_fig7_4.csv`` and ``thesis_fig7_4.png`` into ``out_dir``; return the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    csv_path, png_path = out / "thesis_fig7_4.csv", out / "thesis_fig7_4.png"
    csv_path.write_text(csv_text())
    fig, axes = plt.subplots(1, len(RS_BITS), figsize=(4 * len(RS_BITS), 4))
    for ax, r in zip(axes, RS_BITS):
        pieces = region(EPS, r)
        for poly in pieces:
            xs, ys = zip(*(poly + poly[:1]))
            ax.fill(xs, ys, alpha=0.35, color="tab:blue")
            ax.plot(xs, ys, color="tab:blue", lw=1)
        opt = max(((_v(a, b), (a, b)) for poly in pieces for a, b in poly))
        ax.plot(*opt[1], "r*", ms=12, label=f"optimum V = {opt[0]:.4g}")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.set_xlabel("a1 = Q(y1 | j)")
        ax.set_ylabel("b1 = Q(y1 | j + k/2)")
        ax.set_title(f"eps = {EPS:g}, R = {r:g} bit")
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle("Thesis Fig 7.4: feasible region of P1 for m = 2 (shaded), optimum of (7.20) marked")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return [csv_path, png_path]

