"""docs/accounting.md runs: every example (doctest) prints what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "accounting.md"


def test_accounting_page_examples():
    result = doctest.testfile(str(PAGE), module_relative=False)
    assert result.attempted >= 15 and result.failed == 0
