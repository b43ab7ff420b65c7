"""Thesis Figs 7.9 and 7.10 (Sec. 7.7, "Multi-level privacy"): randomness per user, in bits, of the key cascade
of Thm 7.4.1 (``R_proposed = sum_j H2(q_j)``, (7.36), (7.42)) against ``d`` independent single-level
mechanisms (``R_trivial = sum_j H2(e^eps_j/(e^eps_j+1))``, Sec. 7.4).

- Fig. 7.9: two levels, ``eps_1 = 1`` and ``eps_2 = 0.01, 0.02, ..., 1.00`` (the caption's ``[0.01 : 1]``);
  at ``eps_2 = 1 = eps_1`` the equal levels merge (``q_2 = 0``, see :mod:`bcdp.randomness.multilevel`) and
  the ratio is exactly 2, the limit of "approximately twice".
- Fig. 7.10: ``d = 1..10``, ``eps_1 = 2`` and ``eps_j = 2 - 0.1 j`` for ``j = 2..d`` (our reading of the
  caption "eps_j = eps - 0.1j" with eps = eps_1: ``eps_2 = 1.8, ..., eps_10 = 1.0``).

The values are the float twin :func:`bcdp.randomness.multilevel.total_randomness_float` printed at 12
significant digits (certified enclosures of the same quantities: ``total_randomness``; the claim checks
THESIS-Fig7.9 / THESIS-Fig7.10 compare both with 50-digit mpmath).  ``write_multilevel_figures`` writes
``thesis_fig7_9.csv/.png`` and ``thesis_fig7_10.csv/.png``; the CSVs are deterministic.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from bcdp.randomness import multilevel

__all__ = ["FIG79_EPS1", "FIG79_EPS2", "FIG710_D", "fig710_levels", "fig79_rows", "fig710_rows", "csv_texts",
           "write_multilevel_figures"]

FIG79_EPS1 = 1.0
FIG79_EPS2 = tuple(k / 100 for k in range(1, 101))
FIG710_D = tuple(range(1, 11))


def _g(x: float) -> str:
    return f"{float(x):.12g}"


def fig710_levels(d: int) -> list[float]:
    """eps_1 = 2, eps_j = 2 - 0.1 j for j = 2..d (Fig. 7.10, our reading of the caption)."""
    return [2.0] + [(20 - j) / 10 for j in range(2, d + 1)]


def fig79_rows() -> list[list[str]]:
    eps = np.array([[FIG79_EPS1, e2] for e2 in FIG79_EPS2])
    triv = multilevel.total_randomness_float(eps, "trivial")
    prop = multilevel.total_randomness_float(eps, "proposed")
    return [[_g(FIG79_EPS1), _g(e2), _g(t), _g(p), _g(t / p)] for e2, t, p in zip(FIG79_EPS2, triv, prop)]


def fig710_rows() -> list[list[str]]:
    rows = []
    for d in FIG710_D:
        eps = fig710_levels(d)
        t = float(multilevel.total_randomness_float(eps, "trivial"))
        p = float(multilevel.total_randomness_float(eps, "proposed"))
        rows.append([str(d), _g(eps[-1]), _g(t), _g(p), _g(t - p)])
    return rows


HEADERS = {"thesis_fig7_9.csv": ["eps1", "eps2", "R_trivial_bits", "R_proposed_bits", "ratio_trivial_over_proposed"],
           "thesis_fig7_10.csv": ["d", "eps_d", "R_trivial_bits", "R_proposed_bits", "gap_bits"]}


def csv_texts() -> dict[str, str]:
    """The two CSV files as text (header + rows)."""
    out = {}
    for name, rows in (("thesis_fig7_9.csv", fig79_rows()), ("thesis_fig7_10.csv", fig710_rows())):
        out[name] = "\n".join(",".join(r) for r in [HEADERS[name]] + rows) + "\n"
    return out


def write_multilevel_figures(out_dir: Any) -> list[Path]:
    """Write thesis_fig7_9.csv/.png and thesis_fig7_10.csv/.png into ``out_dir``; returns the paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    texts = csv_texts()
    for name, text in texts.items():
        path = out / name
        path.write_text(text)
        paths.append(path)
    r9 = [[float(v) for v in r] for r in fig79_rows()]
    r10 = [[float(v) for v in r] for r in fig710_rows()]
    panels = (("thesis_fig7_9.png", [r[1] for r in r9], [r[2] for r in r9], [r[3] for r in r9],
               "eps_2 (eps_1 = 1)", "Thesis Fig. 7.9: two privacy levels"),
              ("thesis_fig7_10.png", [r[0] for r in r10], [r[2] for r in r10], [r[3] for r in r10],
               "number of levels d (eps_1 = 2, eps_j = 2 - 0.1 j)", "Thesis Fig. 7.10: d privacy levels"))
    for name, x, triv, prop, xlabel, title in panels:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(x, triv, "o-" if len(x) < 20 else "-", label="trivial scheme: sum_j H2(e^eps_j/(e^eps_j+1))")
        ax.plot(x, prop, "s-" if len(x) < 20 else "-", label="proposed (Thm 7.4.1): sum_j H2(q_j)")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("total randomness per user (bits)")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = out / name
        fig.savefig(path, dpi=100, metadata={"Software": None})
        plt.close(fig)
        paths.append(path)
    return paths
