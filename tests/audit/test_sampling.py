"""Running black-box samplers (bcdp.audit.sampling): counts, reproducibility, errors.

The oracle for the counts is the sampler's exact law: a chi-square goodness-of-fit test with a stated
false-failure probability of 1e-6 (scipy's chi2 quantile).  Reproducibility is checked by scheduling
the same chunks in another order (the counts must be identical), the errors by the one-line messages.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest
from bcdp.audit import sampling
from bcdp.audit.sampling import Binning, accepts_size, chunk_plan, load_sampler, sample_counts
from bcdp.core.errors import InvalidInputError
from scipy.stats import chi2

KEEP = math.exp(1) / (1 + math.exp(1))


def rr_one(x, rng):
    return x if rng.random() < KEEP else 1 - x


def rr_batched(x, rng, size):
    keep = rng.random(size) < KEEP
    return np.where(keep, x, 1 - x)


def laplace_batched(x, rng, size):
    return x + rng.laplace(0.0, 1.0, size)


def _gof_ok(counts: np.ndarray, probs: np.ndarray) -> bool:
    n = counts.sum()
    stat = float(((counts - n * probs) ** 2 / (n * probs)).sum())
    return stat <= chi2.isf(1e-6, len(probs) - 1)


@pytest.mark.parametrize("fn", [rr_one, rr_batched])
def test_counts_follow_the_sampler_law(fn):
    audit = sample_counts(fn, [0, 1], Binning(labels=(0, 1)), 20000, seed=3)
    assert audit.counts.sum(axis=1).tolist() == [20000, 20000]
    assert _gof_ok(audit.counts[0], np.array([KEEP, 1 - KEEP]))
    assert _gof_ok(audit.counts[1], np.array([1 - KEEP, KEEP]))


def test_binned_continuous_outputs_follow_the_laplace_law():
    edges = (-math.inf, -1.0, 0.0, 1.0, math.inf)
    audit = sample_counts(laplace_batched, [0.0], Binning(edges=edges), 50000, seed=11)
    cdf = lambda t: 0.5 * math.exp(t) if t < 0 else 1 - 0.5 * math.exp(-t)   # Laplace(0, 1)
    probs = np.diff([0.0, cdf(-1.0), cdf(0.0), cdf(1.0), 1.0])
    assert _gof_ok(audit.counts[0], probs)
    assert audit.outputs == ("[-inf, -1.0)", "[-1.0, 0.0)", "[0.0, 1.0)", "[1.0, inf)")


def test_counts_do_not_depend_on_the_schedule(monkeypatch):
    monkeypatch.setattr(sampling, "CHUNK", 1000)
    draws = 2500                      # three chunks per input, the last one partial
    serial = sample_counts(rr_batched, [0, 1], Binning(labels=(0, 1)), draws, seed=5)

    def reversed_map(fn, tasks):
        done = {id(t): fn(*t) for t in reversed(tasks)}
        return [done[id(t)] for t in tasks]

    other = sample_counts(rr_batched, [0, 1], Binning(labels=(0, 1)), draws, seed=5, map_chunks=reversed_map)
    assert np.array_equal(serial.counts, other.counts)
    assert not np.array_equal(serial.counts, sample_counts(rr_batched, [0, 1], Binning(labels=(0, 1)), draws,
                                                           seed=6).counts)
    assert chunk_plan(2, draws) == [(0, 0, 1000), (0, 1, 1000), (0, 2, 500), (1, 0, 1000), (1, 1, 1000),
                                    (1, 2, 500)]


def test_batching_is_detected_from_the_signature():
    assert accepts_size(rr_batched) and accepts_size(lambda x, rng, **kw: 0)
    assert not accepts_size(rr_one)


def test_load_sampler_from_a_module_file(tmp_path, monkeypatch):
    (tmp_path / "my_mech.py").write_text(textwrap.dedent("""
        def sample(x, rng):
            return x
        class Box:
            @staticmethod
            def draw(x, rng):
                return x
        NOT_CALLABLE = 3
    """))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_sampler("my_mech:sample")(4, None) == 4
    assert load_sampler("my_mech:Box.draw")(5, None) == 5
    for spec in ("my_mech", "my_mech:", ":sample", "my_mech:nope", "no_such_module_xyz:f", "my_mech:NOT_CALLABLE"):
        with pytest.raises(InvalidInputError):
            load_sampler(spec)


def _raises(x, rng):
    raise RuntimeError("boom")


def _wrong_size(x, rng, size):
    return np.zeros(size + 1)


@pytest.mark.parametrize("fn,binning,match", [
    (_raises, Binning(labels=(0, 1)), "raised RuntimeError"),
    (lambda x, rng: 7, Binning(labels=(0, 1)), "not in the declared output set"),
    (laplace_batched, Binning(edges=(-1.0, 1.0)), "outside the bins"),
    (lambda x, rng, size: np.full(size, np.nan), Binning(edges=(-math.inf, math.inf)), "outside the bins"),
    (_wrong_size, Binning(labels=(0.0,)), "returned 11 outputs for size=10"),
])
def test_bad_samplers_are_reported(fn, binning, match):
    with pytest.raises(InvalidInputError, match=match):
        sample_counts(fn, [0], binning, 10, seed=1)


@pytest.mark.parametrize("kwargs", [dict(labels=()), dict(labels=(1, 1)), dict(edges=(1.0,)),
                                    dict(edges=(1.0, 0.0)), dict(), dict(labels=(0,), edges=(0.0, 1.0))])
def test_bad_binnings_are_refused(kwargs):
    with pytest.raises(InvalidInputError):
        Binning(**kwargs)


@pytest.mark.parametrize("draws,seed", [(0, 1), (-3, 1), (1.5, 1), (True, 1), (10 ** 13, 1), (10, -1), (10, 1.0)])
def test_bad_draws_and_seeds_are_refused(draws, seed):
    with pytest.raises(InvalidInputError):
        sample_counts(rr_one, [0, 1], Binning(labels=(0, 1)), draws, seed)


def _pairs(x, rng, size):
    return rng.integers(0, 2, size=(size, 2))


def test_tuple_outputs_match_declared_tuple_labels():
    """A batched sampler returning an (m, 2) array and a per-draw one returning tuples: each row is one
    output, matched against the declared labels (JSON lists become tuples); uniform law on 4 pairs."""
    labels = ((0, 0), (0, 1), (1, 0), (1, 1))
    for fn in (_pairs, lambda x, rng: (int(rng.integers(2)), int(rng.integers(2)))):
        audit = sample_counts(fn, [0], Binning(labels=labels), 8000, seed=2)
        assert audit.counts.sum() == 8000 and _gof_ok(audit.counts[0], np.full(4, 0.25))
    with pytest.raises(InvalidInputError, match=r"\(2, 0\)"):
        sample_counts(lambda x, rng: (2, 0), [0], Binning(labels=labels), 5, seed=2)


def test_string_outputs():
    audit = sample_counts(lambda x, rng: "yes" if rng.random() < 0.5 else "no", [0], Binning(labels=("yes", "no")),
                          4000, seed=9)
    assert _gof_ok(audit.counts[0], np.array([0.5, 0.5]))
