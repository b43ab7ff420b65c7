"""Sampling on a local Dask cluster gives exactly the serial counts (slow; needs the `dask` extra).

The oracle is the serial run of bcdp.audit.sampling.sample_counts with the same seed and draws; the
sampler lives in a module written to a temporary directory (shipped to the workers by value).
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from bcdp.audit import sampling
from bcdp.audit.sampling import Binning, dask_chunk_mapper, sample_counts
from bcdp.core.errors import InvalidInputError

pytestmark = pytest.mark.slow
pytest.importorskip("distributed")


def test_local_cluster_counts_equal_the_serial_counts(tmp_path, monkeypatch):
    (tmp_path / "dask_sampler_mod.py").write_text(textwrap.dedent("""
        import numpy as np

        def draw(x, rng, size):
            return np.where(rng.random(size) < 0.7, x, 1 - x)
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import dask_sampler_mod

    monkeypatch.setattr(sampling, "CHUNK", 3000)        # 4 chunks per input, the last one partial
    args = (dask_sampler_mod.draw, [0, 1], Binning(labels=(0, 1)), 10000, 17)
    serial = sample_counts(*args)
    spread = sample_counts(*args, map_chunks=dask_chunk_mapper("local"))
    assert np.array_equal(serial.counts, spread.counts)
    assert serial.counts.sum() == 20000


def test_an_unreachable_scheduler_is_bad_input():
    mapper = dask_chunk_mapper("tcp://127.0.0.1:9")
    with pytest.raises(InvalidInputError, match="cannot reach the Dask scheduler"):
        sample_counts(lambda x, rng, size: np.zeros(size), [0], Binning(labels=(0.0,)), 10, 1, map_chunks=mapper)
