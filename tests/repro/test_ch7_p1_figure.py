"""Thesis Fig 7.4 (bcdp.repro.ch7_p1_figure): the committed tables/thesis_fig7_4.csv is regenerated, and
its marked optimum agrees with the certified m = 2 optimum of problem P1 (bcdp.randomness.p1)."""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

from bcdp.randomness import p1
from bcdp.repro import ch7_p1_figure as fig

TABLES = Path(__file__).resolve().parents[2] / "tables"


def test_csv_is_regenerated(tmp_path):
    paths = fig.write_p1_figure(tmp_path)
    assert [p.name for p in paths] == ["thesis_fig7_4.csv", "thesis_fig7_4.png"]
    assert (tmp_path / "thesis_fig7_4.csv").read_text() == (TABLES / "thesis_fig7_4.csv").read_text()
    assert (tmp_path / "thesis_fig7_4.png").stat().st_size > 1000


def test_optimum_rows_agree_with_the_certified_optimum():
    rows = [r for r in csv.DictReader((TABLES / "thesis_fig7_4.csv").open()) if r["kind"] == "optimum"]
    assert [r["R_bits"] for r in rows] == ["0.3", "0.6", "1"]
    for row in rows:
        r = Fraction(row["R_bits"])
        if p1.below_critical(1, r):
            cert = p1.p1_binary_upper(1, r)
        else:
            cert = p1.classical_bound(1)
        assert abs(float(row["V"]) - float(cert.upper)) < 1e-9
