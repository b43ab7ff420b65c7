"""Run a claim check from a test and return its verdict (the "checks touch code" tests: a bad twin is
patched in with monkeypatch, then the verdict must change).  Shared by tests/claims and tests/dme."""

from __future__ import annotations

from bcdp.claims import run_check


def verdict(module: str) -> str:
    """The verdict of the check ``bcdp.checks.<module>`` (e.g. ``"thesis.lemma332_fmt23"``); a check that
    raised (verdict "error") fails the test with its traceback instead of returning."""
    result = run_check(f"bcdp.checks.{module}")
    assert result.verdict != "error", result.evidence.get("traceback")
    return result.verdict
