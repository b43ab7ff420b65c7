"""Shared by the ``*_checks_touch_code.py`` tests of bcdp.dme: the verdict of one thesis claim check,
run through the claims runner (an ``error`` verdict fails the test with the check's traceback)."""

from __future__ import annotations

import importlib

from bcdp.claims import run_check


def thesis_verdict(name: str) -> str:
    """Import ``bcdp.checks.thesis.<name>`` and return the verdict of its ``check()``."""
    importlib.import_module(f"bcdp.checks.thesis.{name}")
    result = run_check(f"bcdp.checks.thesis.{name}")
    assert result.verdict != "error", result.evidence.get("traceback")
    return result.verdict
