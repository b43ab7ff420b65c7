"""Thesis Fig. 7.3 (Sec. 7.3 / 7.7): bits needed to store the private key U (Thm 7.5.1) vs log2 k bits to store X.

For k in {10, 100, 1000} and eps on the grid 0, 1/4, ..., 10, the least key entropy of an eps-LDP-Rec mechanism,
``min_s H(U^s_min)`` in bits (:func:`bcdp.randomness.keys.min_two_level_entropy`, brute force over s, certified),
next to ``log2 k``.  :func:`write_storage_figure` writes ``thesis_fig7_3.csv`` (the certified enclosure's ends
rounded to 12 decimals, and the minimising s) and a labelled ``thesis_fig7_3.png``.  The Sec. 7.7 gain
``(log k - H_min)/log k`` is :func:`bcdp.randomness.recoverability_bounds.storage_gain`.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import keys

KS = (10, 100, 1000)
EPS_GRID = tuple(Fraction(j, 4) for j in range(41))
HEADER = ("eps", "k", "log2_k_bits", "H_min_bits_lower", "H_min_bits_upper", "s_star")


def rows() -> list[tuple[str, ...]]:
    out = []
    for k in KS:
        with arb_precision(128):
            lo, hi = ball_ends(ball_of(k).log() / ball_of(2).log())
        for eps in EPS_GRID:
            h = keys.min_two_level_entropy(k, eps, "bits")
            star = h.argmin[0] if len(h.argmin) == 1 else "tie"
            out.append((str(eps), str(k), f"{float(lo):.12f}", f"{float(h.lower):.12f}", f"{float(h.upper):.12f}",
                        str(star)))
    return out


def csv_text() -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    w.writerows(rows())
    return buf.getvalue()


def write_storage_figure(out_dir) -> list[Path]:
    """Write ``thesis_fig7_3.csv`` and ``thesis_fig7_3.png`` into ``out_dir``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    text = csv_text()
    csv_path = out / "thesis_fig7_3.csv"
    csv_path.write_text(text)
    data = list(csv.reader(text.splitlines()))[1:]
    fig, ax = plt.subplots(figsize=(6, 4))
    for k in KS:
        pts = [(float(Fraction(r[0])), float(r[3])) for r in data if r[1] == str(k)]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", label=f"H(U) key, k = {k}")
        ax.axhline(float(data[[r[1] for r in data].index(str(k))][2]), color="black", linewidth=1)
    ax.set_xlabel("privacy level eps")
    ax.set_ylabel("bits to store")
    ax.set_title("Thesis Fig. 7.3: key U (Thm 7.5.1) vs log2 k (black)")
    ax.legend()
    fig.tight_layout()
    png_path = out / "thesis_fig7_3.png"
    fig.savefig(png_path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return [csv_path, png_path]
