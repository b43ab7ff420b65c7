"""`bcdp audit FILE --fast` against the exact report (the oracle: bcdp.audit.kernel.audit_report in
Fractions, through the CLI with and without --fast on the same file).

Random rational mechanisms on 2 x 3 and 2 x 2 x 2 domains (seeded), with zeros (infinite ratios) and a
prior with a zero entry: every fast value is within 1e-12 relative of the exact value's float (both
infinite when it is), and each fast witness attains the exact value on the exact kernel.  A 256 x 256
kernel (16 x 16 domain) runs in seconds on the fast path.
"""

from __future__ import annotations

import json
import math
import random
import time
from fractions import Fraction as F
from itertools import product

import pytest
from bcdp.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _document(shape: tuple[int, ...], n_out: int, rng: random.Random) -> dict:
    inputs = [list(p) for p in product(*(range(s) for s in shape))]
    kernel = []
    for _ in inputs:
        w = [rng.choice([0, 1, 2, 3, 5, 8]) for _ in range(n_out)]
        if sum(w) == 0:
            w[0] = 1
        kernel.append([str(F(v, sum(w))) for v in w])
    pw = [rng.choice([0, 1, 2, 3]) for _ in inputs]
    pw[0] = pw[0] or 1
    return {"inputs": inputs, "outputs": list(range(n_out)), "kernel": kernel,
            "prior": [str(F(v, sum(pw))) for v in pw]}


def _values(report: dict) -> dict[str, dict]:
    out = {}
    for key, v in report.items():
        if key in ("accuracy",):
            continue
        for i, e in enumerate(v if isinstance(v, list) else [v]):
            out[f"{key}[{i}]"] = e
    return out


def _as_float(v) -> float:
    return math.inf if v == "inf" else float(v)


@pytest.mark.parametrize("seed,shape", [(1, (2, 3)), (2, (2, 3)), (3, (2, 2, 2)), (4, (3, 2)), (5, (2, 2, 2))])
def test_fast_values_match_the_exact_report(capsys, tmp_path, seed, shape):
    doc = _document(shape, 3, random.Random(seed))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    exact = _values(json.loads(run(capsys, "audit", str(path), "--json")[1]))
    code, out, err = run(capsys, "audit", str(path), "--fast", "--json")
    assert code == 0, err
    fast = _values(json.loads(out))
    assert fast.keys() == exact.keys()
    kernel = {tuple(x): [F(v) for v in row] for x, row in zip(doc["inputs"], doc["kernel"])}
    for name, e in exact.items():
        want, got = _as_float(e["float"]), _as_float(fast[name]["float"])
        assert fast[name]["exact"] is None
        if math.isinf(want):
            assert math.isinf(got), name
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-15), name
        w = fast[name]["witness"]
        if name.startswith(("ldp", "cdp")) and w is not None and want > 0:
            a, b = kernel[tuple(w["x"])][w["R"][0]], kernel[tuple(w["x_prime"])][w["R"][0]]
            assert (b == 0 and math.isinf(want)) or math.log(a / b) == pytest.approx(want, rel=1e-12)


def test_fast_refuses_against(capsys, tmp_path):
    doc = _document((2, 2), 2, random.Random(0))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    code, _, err = run(capsys, "audit", str(path), "--fast", "--against", str(path))
    assert code == 2 and "without --fast" in err


def test_a_256_by_256_kernel_runs_in_seconds(capsys, tmp_path):
    rng = random.Random(7)
    inputs = [list(p) for p in product(range(16), range(16))]
    kernel = [[rng.randint(1, 9) for _ in range(256)] for _ in inputs]
    doc = {"inputs": inputs, "outputs": list(range(256)),
           "kernel": [[str(F(v, sum(row))) for v in row] for row in kernel]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(doc))
    start = time.perf_counter()
    code, out, _ = run(capsys, "audit", str(path), "--fast", "--json")
    elapsed = time.perf_counter() - start
    assert code == 0 and elapsed < 10
    # the LDP epsilon: max over columns of log(max / min), computed here from the integer weights
    want = max(math.log(max(kernel[x][y] / sum(kernel[x]) for x in range(256))
                        / min(kernel[x][y] / sum(kernel[x]) for x in range(256))) for y in range(256))
    assert json.loads(out)["ldp_epsilon"]["float"] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("change,message", [
    (lambda d: d["kernel"][0].__setitem__(0, "-1/2"), "negative"),
    (lambda d: d["kernel"][1].__setitem__(0, "0.9"), "sums to"),
    (lambda d: d["kernel"][1].append("0"), "entries"),
    (lambda d: d.__setitem__("prior", ["1"] * 4), "'prior' sums to"),
    (lambda d: d["kernel"][2].__setitem__(1, "x"), "kernel[2][1]"),
    (lambda d: d.__setitem__("extra", 1), "unknown keys"),
])
def test_fast_path_bad_documents_exit_2(capsys, tmp_path, change, message):
    doc = _document((2, 2), 2, random.Random(0))
    change(doc)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(doc))
    code, out, err = run(capsys, "audit", str(path), "--fast", "--json")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert json.loads(out)["exit_code"] == 2
