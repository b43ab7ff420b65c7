"""Thesis Fig. 7.3 (bcdp.repro.ch7_storage_figure): the committed tables/thesis_fig7_3.csv is regenerated
exactly, the PNG is written, and the eps = 5 rows agree with mpmath (50 digits) of the s = 1 law in bits."""

from __future__ import annotations

import csv
from pathlib import Path

import mpmath
import pytest

from bcdp.repro import ch7_storage_figure as fig

TABLES = Path(__file__).resolve().parents[2] / "tables"


@pytest.mark.slow  # ~3 s: 123 brute-force minima over s (k up to 1000)
def test_regenerated_into_tmp_path_equals_the_committed_csv(tmp_path):
    paths = fig.write_storage_figure(tmp_path)
    assert [p.name for p in paths] == ["thesis_fig7_3.csv", "thesis_fig7_3.png"]
    assert (tmp_path / "thesis_fig7_3.csv").read_text() == (TABLES / "thesis_fig7_3.csv").read_text()
    assert (tmp_path / "thesis_fig7_3.png").stat().st_size > 1000


def test_committed_rows_at_eps_5_and_log2k():
    rows = list(csv.DictReader((TABLES / "thesis_fig7_3.csv").read_text().splitlines()))
    assert len(rows) == 3 * 41
    with mpmath.workdps(50):
        for k in (10, 100, 1000):
            row = next(r for r in rows if r["k"] == str(k) and r["eps"] == "5")
            assert abs(float(row["log2_k_bits"]) - float(mpmath.log(k, 2))) < 1e-11
            # brute force over s of the law (7.46) in bits, written here
            e = mpmath.exp(5)
            best = min((mpmath.log(s * e + k - s) - s * 5 * e / (s * e + k - s)) / mpmath.log(2) for s in range(1, k))
            assert abs(float(row["H_min_bits_lower"]) - float(best)) < 1e-11
        zero = [r for r in rows if r["eps"] == "0"]
        assert all(r["s_star"] == "tie" and r["H_min_bits_lower"] == r["log2_k_bits"] for r in zero)
