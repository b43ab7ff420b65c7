"""The committed tables/ are golden: regenerating them must reproduce the files byte for byte."""

from pathlib import Path

import pytest
from bcdp.repro.tables import REGISTRY, compare_with_golden

GOLDEN = Path(__file__).resolve().parents[2] / "tables"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_table_matches_committed_file(name):
    status = compare_with_golden([name], GOLDEN)
    assert status and all(v == "match" for v in status.values()), (
        f"{status}: code and tables/ disagree; run `bcdp tables {name}` and review the diff")
