"""`bcdp audit` and the file format (docs/file_format.md), end to end through the CLI."""

import json
from pathlib import Path

import pytest
import sympy
from bcdp.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_audit_json_example1_matches_paper(capsys):
    # BCDP paper, Example 1 at a = b = c = 1/2: "(log(2), log(2))-BCDP" and "not LDP".
    # The file lists P(y=0), P(y=1) per input with x = (x1, x2); row [0, 1] has P(M=1) = 0.
    code, out, _ = run(capsys, "audit", str(EXAMPLES / "example1.json"), "--json")
    assert code == 0
    rep = json.loads(out)
    assert set(rep) == {"ldp_epsilon", "bdp_epsilon", "cdp", "bcdp", "dependence"}
    assert [v["exact"] for v in rep["bcdp"]] == ["log(2)", "log(2)"]
    assert rep["ldp_epsilon"] == {"exact": "oo", "float": "inf", "witness": rep["ldp_epsilon"]["witness"]}
    assert rep["ldp_epsilon"]["witness"]["x_prime"] == [0, 1]
    assert [v["exact"] for v in rep["dependence"]] == ["0", "0"]
    for v in rep["bcdp"]:
        assert v["float"] == pytest.approx(float(sympy.log(2)), rel=1e-15)


def test_audit_randomized_response_independent_oracle(capsys):
    # Two independent bits through RR with keep probability 3/4 each: the kernel factorises, so
    # eps_LDP = 2 log 3 and c_i = log 3 (ratios (3/4)/(1/4) per coordinate).  The prior is
    # 0.4/0.1/0.1/0.4, so x_2 | x_1 = 0 is (4/5, 1/5) and | x_1 = 1 is (1/5, 4/5): TV = 3/5.
    # P(y_1 = 0 | x_1 = 0) etc. are computed here by hand with sympy.
    code, out, _ = run(capsys, "audit", str(EXAMPLES / "randomized_response_two_bits.json"), "--json")
    assert code == 0
    rep = json.loads(out)
    assert sympy.simplify(sympy.sympify(rep["ldp_epsilon"]["exact"]) - 2 * sympy.log(3)) == 0
    assert [sympy.simplify(sympy.sympify(v["exact"]) - sympy.log(3)) for v in rep["cdp"]] == [0, 0]
    assert [v["exact"] for v in rep["dependence"]] == ["3/5", "3/5"]
    # P(y | x_1 = 0): x_2 ~ (4/5, 1/5), y = (y1, y2) with y1 ~ RR(0), y2 ~ RR(x_2)
    R = sympy.Rational
    keep, flip = R(3, 4), R(1, 4)
    def law(x1):
        px2 = {0: R(4, 5), 1: R(1, 5)} if x1 == 0 else {0: R(1, 5), 1: R(4, 5)}
        out = {}
        for y1 in (0, 1):
            for y2 in (0, 1):
                p1 = keep if y1 == x1 else flip
                out[(y1, y2)] = sum(px2[x2] * p1 * (keep if y2 == x2 else flip) for x2 in (0, 1))
        return out
    l0, l1 = law(0), law(1)
    expected = max(max(l0[y] / l1[y], l1[y] / l0[y]) for y in l0)
    assert sympy.simplify(sympy.sympify(rep["bcdp"][0]["exact"]) - sympy.log(expected)) == 0


def test_audit_text_output(capsys):
    code, out, _ = run(capsys, "audit", str(EXAMPLES / "example1.json"))
    assert code == 0
    assert "BCDP delta_i" in out and "log(2)" in out


def test_audit_without_prior_omits_prior_keys(tmp_path, capsys):
    doc = json.loads((EXAMPLES / "example1.json").read_text())
    del doc["prior"]
    f = tmp_path / "m.json"
    f.write_text(json.dumps(doc))
    code, out, _ = run(capsys, "audit", str(f), "--json")
    assert code == 0
    assert set(json.loads(out)) == {"ldp_epsilon", "cdp"}


def test_audit_reordered_inputs_give_same_report(tmp_path, capsys):
    doc = json.loads((EXAMPLES / "randomized_response_two_bits.json").read_text())
    perm = [3, 1, 0, 2]
    shuffled = {k: [doc[k][i] for i in perm] for k in ("inputs", "kernel", "prior")}
    shuffled["outputs"] = doc["outputs"]
    f = tmp_path / "m.json"
    f.write_text(json.dumps(shuffled))
    _, a, _ = run(capsys, "audit", str(EXAMPLES / "randomized_response_two_bits.json"), "--json")
    _, b, _ = run(capsys, "audit", str(f), "--json")
    ja, jb = json.loads(a), json.loads(b)
    for key in ja:
        va = ja[key] if isinstance(ja[key], list) else [ja[key]]
        vb = jb[key] if isinstance(jb[key], list) else [jb[key]]
        assert [v["exact"] for v in va] == [v["exact"] for v in vb]


BAD_CASES = [
    (lambda d: d["kernel"].__setitem__(1, ["1/2", "1/3"]), r"kernel\[1\] \(input \[1, 0\]\) sums to 5/6"),
    (lambda d: d["kernel"].__setitem__(2, [-1, 2]), r"kernel\[2\] \(input \[0, 1\]\)\[0\] is negative"),
    (lambda d: d.__setitem__("prior", ["1/4", "1/4", "1/4", "1/5"]), r"'prior' sums to 19/20"),
    (lambda d: d.__setitem__("prior", ["1/4", "3/4"]), r"'prior' has 2 entries but there are 4 inputs"),
    (lambda d: d["kernel"].__setitem__(0, ["1"]), r"kernel\[0\] \(input \[0, 0\]\) has 1 entries"),
    (lambda d: d["kernel"].pop(), r"'kernel' has 3 rows but there are 4 inputs"),
    (lambda d: d["inputs"].__setitem__(3, [0, 0]), r"repeats"),
    (lambda d: d["kernel"].__setitem__(0, ["x", 1]), r"kernel\[0\].*cannot read"),
    (lambda d: d.pop("outputs"), r"missing key 'outputs'"),
]


@pytest.mark.parametrize("mutate,message", BAD_CASES)
def test_audit_rejects_bad_files_with_exit_2(tmp_path, capsys, mutate, message):
    import re
    doc = json.loads((EXAMPLES / "example1.json").read_text())
    mutate(doc)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))
    code, out, err = run(capsys, "audit", str(f), "--json")
    assert code == 2
    assert re.search(message, err), err
    # under --json the error is also a JSON object on stdout, with the same message
    payload = json.loads(out)
    assert payload["exit_code"] == 2 and payload["error"]["type"] == "InputFileError"
    assert re.search(message, payload["error"]["message"])


def test_audit_rejects_invalid_json(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    code, _, err = run(capsys, "audit", str(f))
    assert code == 2 and "not valid JSON" in err


def test_audit_missing_file(capsys):
    code, _, err = run(capsys, "audit", "/nonexistent/file.json")
    assert code == 2 and "cannot read" in err
