"""Wider sweep of the Theorem 2 enumeration (proofs_checks/thm2_privacy_enumeration.py).

Slow (about a minute and a half): every demand shape at d = 4 with both channels, a finer q grid,
and more random priors with dependence-controlled q.  Run with ``pytest -m slow``.
"""

from __future__ import annotations

import itertools

import pytest
from bcdp.checks.bcdp.thm2_privacy_enumeration import (
    SEED,
    correlated_instances,
    random_prior_instances,
    sweep,
)

WIDE_Q = ("0", "0.01", "0.05", "0.1", "0.2", "0.3", "0.5", "0.7", "0.9", "0.99", "1")


@pytest.mark.slow
def test_wide_sweep_has_no_violation():
    instances = itertools.chain(
        correlated_instances(3, q_grid=WIDE_Q),
        correlated_instances(4),
        random_prior_instances(3, 60, SEED + 100),
        random_prior_instances(4, 24, SEED + 100),
    )
    out = sweep(instances)
    bad = [r for r in out["records"] if r["violation"]]
    assert not bad, bad[:3]
    for r in out["records"]:
        assert all(r["consistency"].values()), r
        assert r["ties_exact_at_120dps"], r
        if r["ties"]:  # exact ties only where the theorem is tight: q = 1 with zeta = 1
            assert r["q"] == "1" and r["zeta"] == "1", r
