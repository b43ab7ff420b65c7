"""Fig. 3 (App. B.1): the committed files are what the code produces.

1. The summary (fig3.csv) is recomputed from the committed per-trial file (fig3_trials.csv).
2. A sample of trials is re-run from their seeds and must reproduce the committed MSEs.
3. The committed run is the full one (1000 trials per q, n = 10000, all 10 q values).
4. Sanity of the experiment against independent facts: the baseline equals M_mean with constant
   budgets, and the budgets come from the allocation code.
"""

import csv
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from bcdp.repro.fig3 import (
    METHODS,
    N_USERS,
    Q_GRID,
    budgets_for,
    mean_estimate,
    run_trial,
    sample_correlated_signs,
    summary_rows,
)

TABLES = Path(__file__).resolve().parents[2] / "tables"


def read(name):
    with open(TABLES / name, newline="") as fh:
        return list(csv.reader(fh))


@pytest.fixture(scope="module")
def committed():
    trials = read("fig3_trials.csv")
    summary = read("fig3.csv")
    return trials[1:], summary[1:]


def test_committed_run_is_full(committed):
    trials, summary = committed
    assert len(trials) == 1000 * len(Q_GRID)
    assert {r[5] for r in summary} == {"1000"} and {r[6] for r in summary} == {str(N_USERS)}
    assert len(summary) == len(Q_GRID) * len(METHODS)
    assert (TABLES / "fig3.png").stat().st_size > 10_000


def test_summary_recomputed_from_trials(committed):
    trials, summary = committed
    budgets = [budgets_for(q) for q in Q_GRID]
    assert summary_rows(trials, budgets, N_USERS, 0) == summary


@pytest.mark.parametrize("q_index", range(len(Q_GRID)))
def test_sample_of_trials_reproduces(committed, q_index):
    trials, _ = committed
    b = budgets_for(Q_GRID[q_index])
    for t in (0, 499, 999):
        row = next(r for r in trials if int(r[0]) == q_index and int(r[2]) == t)
        fresh = run_trial(b, q_index, t, seed=0)
        for j, m in enumerate(METHODS):
            assert fresh[m] == pytest.approx(float(row[3 + j]), rel=1e-9), (q_index, t, m)


def test_correlated_signs_match_eq_60():
    # P(all equal) = q + (1-q) 2^{1-d}; marginals are fair.  Hoeffding at failure rate 1e-9.
    rng = np.random.default_rng(5)
    n, d, q = 200_000, 4, 0.3
    x = sample_correlated_signs(rng, n, d, q)
    tol = np.sqrt(np.log(2 / 1e-9) / (2 * n))
    assert abs(np.mean(np.all(x == x[:, :1], axis=1)) - (q + (1 - q) * 2 ** (1 - d))) <= tol
    assert np.max(np.abs(np.mean(x == 1, axis=0) - 0.5)) <= tol


def test_baseline_is_single_stage():
    b = budgets_for(Fraction(1, 2))
    assert b.baseline == (0.2,) * 10
    # one stage with budget 0.2 on the full vector: the estimate is Pi(mean of Mechanism 2 outputs)
    from bcdp.bayesian.mechanisms import duchi_l2, project_box

    x = sample_correlated_signs(np.random.default_rng(1), 1000, 10, 0.5)
    a = mean_estimate(x, b.baseline, np.random.default_rng(2))
    direct = project_box(duchi_l2(x, 0.2, np.sqrt(10), np.random.default_rng(2)).mean(axis=0))
    np.testing.assert_allclose(a, direct, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kwargs, words", [
    ({"workers": 0}, "workers must be >= 1, got 0"),
    ({"workers": -2}, "workers must be >= 1, got -2"),
    ({"workers": True}, "workers must be an integer"),
    ({"workers": 1.0}, "workers must be an integer"),
    ({"trials": 0}, "trials must be >= 1, got 0"),
    ({"seed": -1}, "seed must be >= 0, got -1"),
    ({"n": 0}, "n must be >= 1, got 0"),
])
def test_run_and_write_fig3_refuse_bad_arguments(kwargs, words, tmp_path, monkeypatch):
    """workers=0 (and negative) used to run silently in one process, seed=-1 died in numpy with a bare
    ValueError: both are now InvalidInputError, before any trial runs or any directory is made."""
    import bcdp.repro.fig3 as fig3
    from bcdp.core.errors import InvalidInputError

    monkeypatch.setattr(fig3, "budgets_for", lambda q: pytest.fail("a trial started"))
    with pytest.raises(InvalidInputError, match=words):
        fig3.run_fig3(**{"trials": 1, "progress": False, **kwargs})
    out = tmp_path / "never-made"
    with pytest.raises(InvalidInputError, match=words):
        fig3.write_fig3(out, **{"trials": 1, "progress": False, **kwargs})
    assert not out.exists()


def test_run_fig3_single_worker_still_runs():
    """The checks accept workers = 1 (the in-process path): one trial per q at n = 50 users."""
    from bcdp.repro.fig3 import run_fig3, run_trial

    res = run_fig3(trials=1, seed=3, n=50, workers=1, progress=False, q_grid=Q_GRID[:2])
    assert res["mse"][1] == [run_trial(res["budgets"][1], 1, 0, 3, 50)]
