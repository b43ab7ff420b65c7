"""The Fig. 3 experiment of the BCDP paper (Appendix B.1), reproducible trial by trial.

Setting: d = 10, delta = (0.2, 0.2, 2, ..., 2), eps = 2, q on 10 evenly spaced points from 0.01 to
1, n = 10000 users with data 2 Bern(1/2) - 1 drawn from the correlated prior with dependence q
(eqs. 59-60), 1000 trials per q.  Each trial draws one data set and runs, on that same data,
* ``thm2``: M_mean (Mechanism 1 over the unbiased Mechanism 2) with the eq. (16) budgets for
  zeta = (1 + q)/2 (the heuristic of App. B.1);
* ``optimal``: M_mean with the certified optimal allocation (bcdp.bayesian.optimal_allocation);
* ``baseline``: the min-delta LDP baseline, Mechanism 2 with budget min delta = 0.2 on the whole
  vector (= M_mean with c_i = 0.2 for all i);
and records the squared error |x_bar - Pi(estimate)|^2 of each.  Trial t at grid index i uses the
generator ``numpy.random.default_rng([seed, i, t])``, so any trial can be re-run alone and the
results do not depend on the number of worker processes.

Only the user-average of each stage's outputs is needed (the estimate is linear in them before
the projection), so no per-user estimate is stored.
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from bcdp.bayesian.mechanisms import (
    duchi_l2_sum,
    paper_weights,
    project_box,
    stage_budgets,
)
from bcdp.core.errors import InvalidInputError

D = 10
EPS = Fraction(2)
DELTA = [Fraction(1, 5), Fraction(1, 5)] + [Fraction(2)] * 8
N_USERS = 10_000
Q_GRID = [Fraction(1, 100) + Fraction(11, 100) * i for i in range(10)]  # 0.01, 0.12, ..., 1
METHODS = ("thm2", "optimal", "baseline")


@dataclass(frozen=True)
class Fig3Budgets:
    q: Fraction
    thm2: tuple[float, ...]
    optimal: tuple[float, ...]
    baseline: tuple[float, ...]


def budgets_for(q: Fraction) -> Fig3Budgets:
    """Sorted budgets for the three methods at dependence q (exact allocation, then float)."""
    from bcdp.bayesian.allocation import allocate_budgets, min_delta_baseline
    from bcdp.bayesian.optimal_allocation import optimal_allocation
    from bcdp.core.intervals import to_float

    thm2 = allocate_budgets(DELTA, EPS, q, (1 + q) / 2).c_sorted
    opt = optimal_allocation(DELTA, EPS, q).allocation.c_sorted
    base = min_delta_baseline(DELTA, EPS, q).c_sorted
    f = lambda c: tuple(to_float(v) for v in c)
    return Fig3Budgets(q, f(thm2), f(opt), f(base))


def sample_correlated_signs(rng: np.random.Generator, n: int, d: int, q: float) -> np.ndarray:
    """n draws of eq. (60) with values +-1: w.p. q all coordinates equal one fair sign, else i.i.d."""
    shared = rng.random(n) < q
    common = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    iid = np.where(rng.random((n, d)) < 0.5, 1.0, -1.0)
    return np.where(shared[:, None], common[:, None], iid)


def mean_estimate(x: np.ndarray, c_sorted: Sequence[float], rng: np.random.Generator) -> np.ndarray:
    """Pi((1/n) sum_j M_mean(x_j, c)): per-stage user averages combined with the weights w_k."""
    n, d = x.shape
    inc = stage_budgets(c_sorted)
    w = paper_weights(c_sorted)
    num = np.zeros(d)
    den = np.zeros(d)
    for k in range(d):
        if inc[k] <= 0:
            continue
        num[k:] += w[k] * duchi_l2_sum(x[:, k:], float(inc[k]), math.sqrt(d - k), rng) / n
        den[k:] += w[k]
    est = np.zeros(d)
    est[den > 0] = num[den > 0] / den[den > 0]
    return project_box(est)


def run_trial(budgets: Fig3Budgets, q_index: int, trial: int, seed: int, n: int = N_USERS) -> dict[str, float]:
    rng = np.random.default_rng([seed, q_index, trial])
    x = sample_correlated_signs(rng, n, D, float(budgets.q))
    xbar = x.mean(axis=0)
    out = {}
    for method in METHODS:
        est = mean_estimate(x, getattr(budgets, method), rng)
        out[method] = float(np.sum((xbar - est) ** 2))
    return out


def _run_q(args: tuple) -> tuple[int, list[dict[str, float]]]:
    budgets, q_index, trials, seed, n = args
    return q_index, [run_trial(budgets, q_index, t, seed, n) for t in trials]


def _count(value: object, name: str, minimum: int) -> int:
    """An int (not a bool) >= ``minimum``, else :class:`InvalidInputError` naming the argument."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise InvalidInputError(f"{name} must be >= {minimum}, got {value}")
    return value


def check_fig3_arguments(trials: int, seed: int, workers: int, n: int = N_USERS) -> None:
    """Refuse (:class:`InvalidInputError`) what :func:`run_fig3` cannot run: trials, workers and n
    below 1 (``workers=0`` used to run silently in one process), a negative seed (numpy's
    ``default_rng([seed, i, t])`` refuses it with a bare ValueError), non-integers and bools."""
    _count(trials, "trials", 1)
    _count(seed, "seed", 0)
    _count(workers, "workers", 1)
    _count(n, "n", 1)


def run_fig3(trials: int = 1000, seed: int = 0, n: int = N_USERS, workers: int = 2,
             progress: bool = True, q_grid: Sequence[Fraction] = tuple(Q_GRID)) -> dict:
    """All trials for every q: {"budgets": [...], "mse": {q_index: [per-trial dicts]}}; the
    arguments are checked first (:func:`check_fig3_arguments`)."""
    check_fig3_arguments(trials, seed, workers, n)
    budgets = [budgets_for(q) for q in q_grid]
    chunk = max(1, min(50, trials // 4 or 1))
    tasks = [(budgets[i], i, list(range(s, min(trials, s + chunk))), seed, n)
             for i in range(len(q_grid)) for s in range(0, trials, chunk)]
    results: dict[int, list] = {i: [] for i in range(len(q_grid))}
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(q_grid) * trials, desc="Fig. 3 trials", unit="trial")
        except ImportError:  # pragma: no cover - tqdm is a dependency, but stay usable without it
            bar = None
    pieces: dict[tuple[int, int], list] = {}
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for (q_index, rows), task in zip(pool.map(_run_q, tasks), tasks):
                pieces[(q_index, task[2][0])] = rows
                if bar:
                    bar.update(len(rows))
    else:
        for task in tasks:
            q_index, rows = _run_q(task)
            pieces[(q_index, task[2][0])] = rows
            if bar:
                bar.update(len(rows))
    if bar:
        bar.close()
    for (q_index, start) in sorted(pieces):
        results[q_index].extend(pieces[(q_index, start)])
    return {"budgets": budgets, "mse": results, "trials": trials, "seed": seed, "n": n}


# -- files -------------------------------------------------------------------------------------

SUMMARY_HEADER = ["q", "method", "median_mse", "p25_mse", "p75_mse", "trials", "n", "seed",
                  "c_1", "c_3", "c_10"]
TRIALS_HEADER = ["q_index", "q", "trial"] + [f"mse_{m}" for m in METHODS]
LABELS = {"thm2": "M_mean, Thm 2 budgets, zeta = (1+q)/2", "optimal": "M_mean, optimal budgets",
          "baseline": "min-delta LDP (Mechanism 2, eps = 0.2)"}


def _q_str(q: Fraction) -> str:
    return f"{float(q):.2f}"


def trial_rows(result: dict) -> list[list[str]]:
    rows = []
    for i, budgets in enumerate(result["budgets"]):
        for t, mse in enumerate(result["mse"][i]):
            rows.append([str(i), _q_str(budgets.q), str(t)] + [repr(mse[m]) for m in METHODS])
    return rows


def summary_rows(trials: list[list[str]], budgets: Sequence[Fig3Budgets], n: int, seed: int) -> list[list[str]]:
    """Median and quartiles (numpy 'linear' percentiles) per q and method, from the trial rows."""
    rows = []
    for i, b in enumerate(budgets):
        mine = [r for r in trials if int(r[0]) == i]
        for j, m in enumerate(METHODS):
            v = np.array([float(r[3 + j]) for r in mine])
            p25, med, p75 = np.percentile(v, [25, 50, 75])
            c = getattr(b, m)
            rows.append([_q_str(b.q), m, f"{med:.6g}", f"{p25:.6g}", f"{p75:.6g}", str(len(v)), str(n),
                         str(seed), f"{c[0]:.6g}", f"{c[2]:.6g}", f"{c[-1]:.6g}"])
    return rows


def write_fig3(out_dir, trials: int = 1000, seed: int = 0, workers: int = 2, progress: bool = True,
               n: int = N_USERS) -> list:
    """Run the experiment and write fig3.csv, fig3.md, fig3_trials.csv and fig3.png (the arguments
    are checked before the directory is created: :func:`check_fig3_arguments`)."""
    import csv
    from pathlib import Path

    check_fig3_arguments(trials, seed, workers, n)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    result = run_fig3(trials=trials, seed=seed, n=n, workers=workers, progress=progress)
    trows = trial_rows(result)
    srows = summary_rows(trows, result["budgets"], n, seed)
    paths = []
    for name, header, rows in (("fig3_trials.csv", TRIALS_HEADER, trows), ("fig3.csv", SUMMARY_HEADER, srows)):
        with open(out / name, "w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)
        paths.append(out / name)
    md = ["# Fig. 3 of the BCDP paper, regenerated", "",
          "Source: Aliakbarpour et al. (2024), App. B.1, Fig. 3 (d = 10, delta = (0.2, 0.2, 2 x 8), eps = 2, "
          f"n = {n}, data 2 Bern(1/2) - 1 from the correlated prior of eqs. (59)-(60)); {trials} trials per q, "
          f"seed {seed}.", "",
          "MSE = |x_bar - Pi(estimate)|^2. Methods: " + "; ".join(f"`{k}` = {v}" for k, v in LABELS.items()) + ".",
          "", "| " + " | ".join(SUMMARY_HEADER) + " |", "|" + "|".join("---" for _ in SUMMARY_HEADER) + "|"]
    md += ["| " + " | ".join(r) + " |" for r in srows]
    md += ["", "- Mechanism 2 uses the unbiased constant B (the printed one is 2x too large; docs/errata.md).",
           "- Trial t at q index i uses numpy.random.default_rng([seed, i, t]); every trial is in fig3_trials.csv.",
           "- Regenerate with `bcdp tables fig3 --trials 1000 --seed 0` (about a minute on 2 cores).", ""]
    (out / "fig3.md").write_text("\n".join(md))
    paths.append(out / "fig3.md")
    paths.append(plot_fig3(srows, out / "fig3.png", trials))
    return paths


def plot_fig3(summary: list[list[str]], path, trials: int):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    for m, color in zip(METHODS, ("tab:blue", "tab:green", "tab:red")):
        rows = [r for r in summary if r[1] == m]
        q = [float(r[0]) for r in rows]
        med, lo, hi = ([float(r[k]) for r in rows] for k in (2, 3, 4))
        ax.plot(q, med, marker="o", ms=3, color=color, label=LABELS[m])
        ax.fill_between(q, lo, hi, color=color, alpha=0.2)
    ax.set_yscale("log")
    ax.set_xlabel("dependence q")
    ax.set_ylabel("MSE (median, 25-75% band)")
    ax.set_title(f"BCDP Fig. 3 regenerated ({trials} trials per q)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})  # no version stamp: stable bytes
    plt.close(fig)
    return path
