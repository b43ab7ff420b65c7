"""Shared test configuration: the tests mirror the source tree (tests/core, tests/bayesian, ...);
``strategies`` (hypothesis strategies shared by several packages' tests) lives here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_input_caches():
    """Every test starts with the remembered readings of delta (bcdp.accounting.inputs: its check,
    log(1/delta) and enclosures) empty, so that a test exercises them instead of an answer left by an
    earlier test (or, under mutation testing, by the unmutated code before the fork)."""
    from bcdp.accounting import inputs

    for cache in (inputs._check_delta_cached, inputs._log_inverse_cached, inputs._enclose_cached,
                  inputs._enclose_log_inverse_cached):
        cache.cache_clear()
    yield


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """A test that sets mpmath's global precision (``mpmath.mp.dps = ...``) does not leak it into the
    tests that run after it in the same worker (an oracle computed at the ambient precision then
    depended on the test order)."""
    import mpmath

    prec = mpmath.mp.prec
    yield
    mpmath.mp.prec = prec
