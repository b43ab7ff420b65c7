"""Thesis Figs 7.7 and 7.8 (Sec. 7.7): l1 error of the Hadamard response with limited randomness, seeded
Monte Carlo (:mod:`bcdp.randomness.hadamard_sim`).

``write_hr_figures(out_dir)`` writes ``thesis_fig7_7.csv/.png`` and ``thesis_fig7_8.csv/.png``.  Setting
(Sec. 7.7): k = 1000 (K = 1024), p = Geo(0.8) truncated to [k] and normalised (p_i = C 0.8^{i-1} 0.2), 20 runs
per point, q by (7.33) (q = e^eps/(e^eps+1) if R >= H2(e^eps/(e^eps+1)) bits, else p_R = H2^{-1}(R), float
bisection), groups of floor(n/K) users (the n mod K others are left out), estimate restricted to the first k
coordinates.  The thesis does not state its post-processing; the columns give three readings, and the
plotted one is ``l1_clip`` (negatives to 0, renormalised), the one that reproduces the printed reading of
Fig 7.7 (l1 = 1.4 at n ~ 150k for R = 1 and ~ 850k for R = 0.7):

- Fig 7.7: eps = 1, R in {0.7, 1} bits, n = 100000, 150000, ..., 1000000 (19 points).
- Fig 7.8: n = 500000, eps = 0.1, 0.2, ..., 3.0, R in {1, 0.6} (the legend) and 0.9 (the text: "R = 0.9 <
  H(e^eps/(e^eps+1)) for all eps < 0.8").

The curves of Fig 7.8 jump where R crosses the threshold: below it q = p_R < 1/(e^eps+1), above it
q = e^eps/(e^eps+1) (no q in between meets both constraints of (eps, R)-LDP for (7.27); the printed eta of
(7.10) jumps by e^{2 eps} there too).

Each point draws its own counts from ``np.random.default_rng([SEED, figure, R in milli-bits, n or
eps in milli-units])``; ``sem`` is the standard error of the mean over the 20 runs.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np

from bcdp.randomness.entropy import binary_entropy_float, inverse_binary_entropy_float
from bcdp.randomness.hadamard_sim import estimate_float, sample_counts

K_ALPHABET = 1000
GEO = 0.8
RUNS = 20
SEED = 7007
FIG77_EPS = 1.0
FIG77_RS = (0.7, 1.0)
FIG77_NS = tuple(range(100_000, 1_000_001, 50_000))
FIG78_N = 500_000
FIG78_RS = (1.0, 0.9, 0.6)
FIG78_EPS = tuple(round(0.1 * i, 1) for i in range(1, 31))
POSTS = ("clip", "raw", "project")
HEADER77 = ["n", "R_bits", "q", "regime", "l1_clip", "sem_clip", "l1_raw", "l1_project"]
HEADER78 = ["eps", "R_bits", "critical_bits", "q", "regime", "l1_clip", "sem_clip", "l1_raw", "l1_project"]


def geometric_pmf(k: int = K_ALPHABET, ratio: float = GEO) -> np.ndarray:
    """p_i = C ratio^{i-1} (1 - ratio), i = 1..k, normalised (Sec. 7.7)."""
    p = ratio ** np.arange(k) * (1 - ratio)
    return p / p.sum()


def choose_q_float(eps: float, r_bits: float) -> tuple[float, str]:
    """(7.33) in floats: (q, regime)."""
    e = float(np.exp(eps))
    if r_bits >= float(binary_entropy_float(e / (e + 1), "bits")):
        return e / (e + 1), "R >= H2"
    return float(inverse_binary_entropy_float(r_bits, "bits")), "R < H2"


def l1_point(n: int, r_bits: float, eps: float, seed: Any, runs: int = RUNS) -> dict[str, float]:
    """Mean l1 error (and its standard error for clip) over ``runs`` seeded runs at one setting."""
    p = geometric_pmf()
    q, regime = choose_q_float(eps, r_bits)
    e = float(np.exp(eps))
    counts, m = sample_counts(p, n, q, e, runs, np.random.default_rng(seed))
    out: dict[str, Any] = {"q": q, "regime": regime}
    for post in POSTS:
        est = estimate_float(counts, m, q, e, K_ALPHABET, post, "first_k")
        l1 = np.abs(est - p).sum(axis=-1)
        out[f"l1_{post}"] = float(l1.mean())
        if post == "clip":
            out["sem_clip"] = float(l1.std(ddof=1) / np.sqrt(runs))
    return out


def _fmt(x: Any) -> str:
    return f"{x:.10g}" if isinstance(x, float) else str(x)


def fig7_7_rows() -> list[list[str]]:
    rows = []
    for r in FIG77_RS:
        for n in FIG77_NS:
            pt = l1_point(n, r, FIG77_EPS, [SEED, 77, int(round(r * 1000)), n])
            rows.append([_fmt(v) for v in (n, r, pt["q"], pt["regime"], pt["l1_clip"], pt["sem_clip"],
                                           pt["l1_raw"], pt["l1_project"])])
    return rows


def fig7_8_rows() -> list[list[str]]:
    rows = []
    for r in FIG78_RS:
        for eps in FIG78_EPS:
            e = float(np.exp(eps))
            crit = float(binary_entropy_float(e / (e + 1), "bits"))
            pt = l1_point(FIG78_N, r, eps, [SEED, 78, int(round(r * 1000)), int(round(eps * 1000))])
            rows.append([_fmt(v) for v in (eps, r, crit, pt["q"], pt["regime"], pt["l1_clip"], pt["sem_clip"],
                                           pt["l1_raw"], pt["l1_project"])])
    return rows


def csv_texts() -> dict[str, str]:
    """The two CSV files as text (deterministic)."""
    out = {}
    for name, header, rows in (("thesis_fig7_7.csv", HEADER77, fig7_7_rows()),
                               ("thesis_fig7_8.csv", HEADER78, fig7_8_rows())):
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
        out[name] = buf.getvalue()
    return out


def _plot(plt: Any, rows: list[list[str]], header: list[str], x: str, title: str, xlabel: str, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(6, 4))
    ix, ir, iy = header.index(x), header.index("R_bits"), header.index("l1_clip")
    for r in sorted({row[ir] for row in rows}, key=float, reverse=True):
        pts = [(float(row[ix]), float(row[iy])) for row in rows if row[ir] == r]
        ax.plot([a for a, _ in pts], [b for _, b in pts], marker="o", ms=3, label=f"R = {r} bits")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("l1 error (clip and renormalise), mean of 20 runs")
    ax.set_title(title, fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def write_hr_figures(out_dir: Any) -> list[Path]:
    """Write ``thesis_fig7_7.csv/.png`` and ``thesis_fig7_8.csv/.png`` into ``out_dir``."""
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
    rows77 = list(csv.reader(texts["thesis_fig7_7.csv"].splitlines()))[1:]
    rows78 = list(csv.reader(texts["thesis_fig7_8.csv"].splitlines()))[1:]
    png77, png78 = out / "thesis_fig7_7.png", out / "thesis_fig7_8.png"
    _plot(plt, rows77, HEADER77, "n", "Thesis Fig 7.7: HR, k = 1000, eps = 1, p = Geo(0.8)", "number of users n", png77)
    _plot(plt, rows78, HEADER78, "eps", "Thesis Fig 7.8: HR, k = 1000, n = 500000, p = Geo(0.8)", "privacy level eps",
          png78)
    return paths + [png77, png78]
