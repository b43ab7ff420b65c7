"""`bcdp audit FILE --against GOLDEN.json`: CI pinning of the privacy values (issue 13).

The contract: the exact values are compared, not the witnesses and not the order in which the inputs
are listed.  The oracle for "no drift" is the same mechanism written with its inputs (and kernel rows,
prior entries) permuted, and with its outputs permuted (columns); for "drift", a kernel changed by
hand so that exactly one known parameter moves (coordinate 2's leakage: keep probability 3/4 -> 4/5
on the second bit, so c_2 = log 4 instead of log 3 while c_1 stays log 3).
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from bcdp.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "randomized_response_two_bits.json"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _pin(capsys, tmp_path) -> Path:
    code, out, _ = run(capsys, "audit", str(EXAMPLE), "--json")
    assert code == 0
    golden = tmp_path / "golden.json"
    golden.write_text(out)
    return golden


def _two_bits(keep1: F, keep2: F) -> dict:
    rr = lambda keep, x, y: keep if x == y else 1 - keep
    inputs = [[0, 0], [0, 1], [1, 0], [1, 1]]
    outputs = ["00", "01", "10", "11"]
    kernel = [[str(rr(keep1, x[0], int(y[0])) * rr(keep2, x[1], int(y[1]))) for y in outputs] for x in inputs]
    return {"inputs": inputs, "outputs": outputs, "kernel": kernel, "prior": ["2/5", "1/10", "1/10", "2/5"]}


def test_the_example_is_the_two_bit_mechanism_written_here():
    """The oracle document equals the shipped example (so permuting it tests the pinned file)."""
    shipped = json.loads(EXAMPLE.read_text())
    mine = _two_bits(F(3, 4), F(3, 4))
    assert shipped["inputs"] == mine["inputs"] and shipped["outputs"] == mine["outputs"]
    assert [[F(str(v)) for v in row] for row in shipped["kernel"]] == [[F(v) for v in row] for row in mine["kernel"]]
    assert [F(str(v)) for v in shipped["prior"]] == [F(v) for v in mine["prior"]]


@pytest.mark.parametrize("rows,cols", [([3, 1, 0, 2], [0, 1, 2, 3]), ([0, 1, 2, 3], [2, 0, 3, 1]),
                                       ([2, 3, 1, 0], [3, 2, 1, 0])])
def test_a_permuted_listing_has_no_drift(capsys, tmp_path, rows, cols):
    golden = _pin(capsys, tmp_path)
    doc = _two_bits(F(3, 4), F(3, 4))
    permuted = {"inputs": [doc["inputs"][r] for r in rows], "outputs": [doc["outputs"][c] for c in cols],
                "kernel": [[doc["kernel"][r][c] for c in cols] for r in rows], "prior": [doc["prior"][r] for r in rows]}
    path = tmp_path / "permuted.json"
    path.write_text(json.dumps(permuted))
    code, out, err = run(capsys, "audit", str(path), "--against", str(golden), "--json")
    assert code == 0, err
    assert json.loads(out)["against"]["drift"] == []


def test_a_changed_mechanism_reports_exactly_the_moved_values(capsys, tmp_path):
    golden = _pin(capsys, tmp_path)
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(_two_bits(F(3, 4), F(4, 5))))
    code, out, _ = run(capsys, "audit", str(path), "--against", str(golden))
    assert code == 1
    drift = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert "cdp[1]: log(4) != log(3) (golden)" in drift
    assert not any(line.startswith("cdp[0]") for line in drift)          # c_1 = log 3 in both
    assert any(line.startswith("ldp_epsilon: log(12) != log(9)") for line in drift)   # 3 * 4 vs 3 * 3


def test_a_golden_file_without_a_prior_section_is_drift(capsys, tmp_path):
    golden = _pin(capsys, tmp_path)
    doc = json.loads(golden.read_text())
    for key in ("bdp_epsilon", "bcdp", "dependence"):
        del doc[key]
    golden.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "audit", str(EXAMPLE), "--against", str(golden), "--json")
    assert code == 1
    assert sorted(line.split(":")[0] for line in json.loads(out)["against"]["drift"]) == \
        ["bcdp", "bdp_epsilon", "dependence"]


@pytest.mark.parametrize("content", ["[1]", "{\"ldp_epsilon\": {\"float\": 1}}", "not json", "{\"cdp\": [1, 2]}"])
def test_a_malformed_golden_file_is_bad_input(capsys, tmp_path, content):
    golden = tmp_path / "golden.json"
    golden.write_text(content)
    code, out, err = run(capsys, "audit", str(EXAMPLE), "--against", str(golden), "--json")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert json.loads(out)["exit_code"] == 2
