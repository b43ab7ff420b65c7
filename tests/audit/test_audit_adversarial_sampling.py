"""Adversarial checks of bcdp.audit.sampling: seeding per chunk, independence of chunks and inputs,
and the binning at the bin edges.

* Seeding contract (module docstring): chunk c of input i uses
  ``default_rng(SeedSequence(seed, spawn_key=(i, c)))``.  The oracle rebuilds those generators
  here, calls the sampler itself chunk by chunk and counts with ``np.unique``; the module's counts
  must be equal (this is what makes the counts reproducible outside bcdp).
* Independence (statistical, independent of the contract): with 1000 chunks of 7 draws of a sampler
  uniform on 10 labels that ignores its input, each input's counts pass Pearson's chi-square test at
  a false-failure probability of 1e-6 (scipy's chi2 quantile); chunks reusing one stream would make
  the counts 1000 times one chunk's (statistic in the thousands).  Two inputs must not get the same
  count vector: for independent draws that has probability at most the largest multinomial pmf,
  checked here below 1e-9.
* Edges (documented cell j = [e_j, e_{j+1})): integer outputs lying exactly on the edges, counted
  by hand; the last edge itself is outside the bins; a never-seen last label gives a zero count.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from bcdp.audit import sampling
from bcdp.audit.sampling import Binning, sample_counts
from bcdp.core.errors import InvalidInputError
from scipy.stats import chi2, multinomial


def _uniform10(x, rng, size):
    return rng.integers(0, 10, size)


def _labelled(x, rng, size):
    """Input-dependent law on 4 labels (so a mix-up of inputs or chunks changes the counts)."""
    return np.minimum(rng.geometric(0.3 + 0.2 * x, size) - 1, 3)


def test_counts_follow_the_documented_per_chunk_seeding(monkeypatch):
    monkeypatch.setattr(sampling, "CHUNK", 400)
    draws, seed, inputs = 1000, 12345, [0, 1, 2]         # chunks of 400, 400, 200 per input
    got = sample_counts(_labelled, inputs, Binning(labels=(0, 1, 2, 3)), draws, seed)
    want = np.zeros((3, 4), dtype=np.int64)
    for i, x in enumerate(inputs):
        for c, m in enumerate((400, 400, 200)):
            rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(i, c)))
            values, counts = np.unique(_labelled(x, rng, size=m), return_counts=True)
            want[i, values] += counts
    assert np.array_equal(got.counts, want)


def test_chunks_and_inputs_draw_independent_streams(monkeypatch):
    monkeypatch.setattr(sampling, "CHUNK", 7)
    draws = 7000
    audit = sample_counts(_uniform10, [0, 1], Binning(labels=tuple(range(10))), draws, seed=3)
    limit = chi2.isf(1e-6, 9)
    for row in audit.counts:
        stat = float(((row - draws / 10) ** 2 / (draws / 10)).sum())
        assert stat <= limit
    # P(two independent count vectors coincide) = sum_k pmf(k)^2 <= max_k pmf(k) (at the mode)
    assert multinomial.pmf([draws // 10] * 10, draws, [0.1] * 10) < 1e-9
    assert not np.array_equal(audit.counts[0], audit.counts[1])


def _on_edges(x, rng, size):
    return np.arange(size) % 4                       # 0, 1, 2, 3, 0, 1, ... exactly on the edges


def test_outputs_on_the_edges_fall_in_the_cell_they_open():
    audit = sample_counts(_on_edges, [0], Binning(edges=(0.0, 1.0, 2.0, 3.0, 4.0)), 400, seed=1)
    assert audit.counts.tolist() == [[100, 100, 100, 100]]
    audit = sample_counts(_on_edges, [0], Binning(edges=(0.0, 2.0, math.inf)), 400, seed=1)
    assert audit.counts.tolist() == [[200, 200]]
    just_below = np.nextafter(4.0, 0.0)
    audit = sample_counts(lambda x, rng, size: np.full(size, just_below), [0],
                          Binning(edges=(0.0, 1.0, 4.0)), 10, seed=1)
    assert audit.counts.tolist() == [[0, 10]]


def test_the_last_edge_is_outside_the_bins():
    with pytest.raises(InvalidInputError, match="outside the bins"):
        sample_counts(lambda x, rng, size: np.full(size, 4.0), [0], Binning(edges=(0.0, 1.0, 4.0)), 10, seed=1)
    with pytest.raises(InvalidInputError, match="outside the bins"):
        sample_counts(lambda x, rng: np.nextafter(0.0, -1.0), [0], Binning(edges=(0.0, 1.0)), 3, seed=1)


def test_labels_never_returned_get_zero_counts():
    audit = sample_counts(lambda x, rng, size: np.zeros(size, dtype=np.int64), [0, 1], Binning(labels=(0, 1, 2)),
                          50, seed=1)
    assert audit.counts.tolist() == [[50, 0, 0], [50, 0, 0]]
    audit = sample_counts(lambda x, rng: "b", [0], Binning(labels=("a", "b", "c")), 5, seed=1)
    assert audit.counts.tolist() == [[0, 5, 0]]


def test_a_numpy_scalar_outside_the_set_is_named_as_a_plain_number():
    with pytest.raises(InvalidInputError, match=r"returned 7, which is not in the declared output set"):
        sample_counts(lambda x, rng: np.int64(7), [0], Binning(labels=(0, 1)), 3, seed=1)

