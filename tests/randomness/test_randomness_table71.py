"""thesis Table 7.1 (bcdp.repro.ch7_table71): regenerated into tmp_path equals the committed tables/, and
its printed column is re-evaluated here with mpmath (50 digits) from the printed formulas."""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

import mpmath

from bcdp.repro import ch7_table71

TABLES = Path(__file__).resolve().parents[2] / "tables"


def test_regenerated_files_equal_the_committed_ones(tmp_path):
    for path in ch7_table71.write_table71(tmp_path):
        assert path.read_text() == (TABLES / path.name).read_text()


def test_printed_column_against_mpmath():
    with mpmath.workdps(50):
        rows = list(csv.DictReader((TABLES / "thesis_table7_1.csv").read_text().splitlines()))
        for r in rows:
            k, eps = int(r["k"]), mpmath.mpf(Fraction(r["eps"]).numerator) / Fraction(r["eps"]).denominator
            e = mpmath.exp(eps)
            h2 = lambda p: -p * mpmath.log(p) - (1 - p) * mpmath.log(1 - p)  # noqa: E731
            want = {"RAPPOR": k * h2(e / (e + 1)), "RAPPOR (eps/2 per bit)": k * h2(e / (e + 1)),
                    "RR": mpmath.log(k - 1 + e) - eps * e / (k - 1 + e),
                    "HR": mpmath.log(2 * k * (3 * e - 1) / e) - eps * e / (3 * e - 1), "BH": h2(e / (e + 1))}
            assert abs(float(r["printed_nats"]) - float(want[r["mechanism"]])) <= 1e-10 * float(want[r["mechanism"]])
            if r["mechanism"] == "RAPPOR (eps/2 per bit)":
                half = mpmath.exp(eps / 2)
                assert abs(float(r["actual_nats"]) - float(k * h2(half / (half + 1)))) <= 1e-9
                assert r["verdict"] == "printed BELOW actual"
            else:
                assert r["verdict"] in ("agree", "printed >= actual")
