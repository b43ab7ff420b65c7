"""A per-draw sampler returning its output as a 0-d numpy array (what ``np.where(cond, a, b)`` gives on
scalars, a common way to write randomized response) against declared output labels.

Found by the adversarial review: bcdp.audit.sampling._label_key iterated such an array as a
sequence, so `bcdp audit-sampler` stopped with "internal error (TypeError): iteration over a 0-d
array" (exit 3).  The oracle is the sampler's own law (keep probability 3/4): Pearson's chi-square at
a false-failure probability of 1e-6 (scipy's chi2 quantile), and the one-line message naming the
value for an output outside the set.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from bcdp.audit.sampling import Binning, sample_counts
from bcdp.cli import main
from bcdp.core.errors import InvalidInputError
from scipy.stats import chi2


def _rr_zero_d(x, rng):
    """One draw of randomized response returned as a 0-d array, as np.where on scalars gives it."""
    return np.where(rng.random() < 0.75, x, 1 - x)


def test_a_per_draw_sampler_returning_0d_arrays_is_counted():
    """A 0-d array is one output (the sampler convention: fn(x, rng) returns one output); it compares
    with the declared labels as its value.  Law: keep with probability 3/4, chi-square at 1e-6."""
    audit = sample_counts(_rr_zero_d, [0, 1], Binning(labels=(0, 1)), 4000, seed=4)
    limit = chi2.isf(1e-6, 1)
    for x, row in enumerate(audit.counts):
        want = np.array([0.75, 0.25] if x == 0 else [0.25, 0.75]) * 4000
        assert float(((row - want) ** 2 / want).sum()) <= limit
    with pytest.raises(InvalidInputError, match=r"returned 5, which is not in the declared output set"):
        sample_counts(lambda x, rng: np.array(5), [0], Binning(labels=(0, 1)), 3, seed=1)


def test_audit_sampler_cli_accepts_0d_outputs(tmp_path, monkeypatch, capsys):
    (tmp_path / "zero_d_mech.py").write_text(
        "import numpy as np\n"
        "def rr(x, rng):\n"
        "    return np.where(rng.random() < 0.75, x, 1 - x)\n")
    (tmp_path / "io.json").write_text("[0, 1]")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["audit-sampler", "zero_d_mech:rr", "--inputs", "io.json", "--outputs", "io.json", "--draws", "2000",
                 "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["ldp"]["lower_bound"] > 0
