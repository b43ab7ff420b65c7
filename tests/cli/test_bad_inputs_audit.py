"""Bad inputs of ``bcdp audit``, ``bcdp partial audit``, ``bcdp allocate``, ``bcdp tables`` and
``bcdp reproduce`` (issue 12): each gives a one-line message on stderr, exit code 2, nothing on
stdout, no traceback, and finishes quickly (no hang, no memory blow-up).

Every case runs the real command in a fresh interpreter with a time limit, so a hang fails the test
instead of stalling the suite.  Valid inputs at the same edges (a tiny eps with a decidable case
split, an objective beyond float64) must succeed with strict JSON (no ``Infinity``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import bcdp
import pytest

#: wall-clock limit of one command (the bad inputs are refused at once; sympy import included)
LIMIT_SECONDS = 60

def _audit_file(kernel: str = '[["1/2", "1/2"], ["1/3", "2/3"]]', inputs: str = "[[0], [1]]",
                outputs: str = "[0, 1]", extra: str = "") -> str:
    return f'{{"inputs": {inputs}, "outputs": {outputs}, "kernel": {kernel}{extra}}}'


#: a valid probability of 5002 characters, 10^-5000, and its complement (both read exactly)
TINY, ONE_MINUS_TINY = "0." + "0" * 4999 + "1", "0." + "9" * 5000


def _many_datasets_file(k: int) -> str:
    """k one-record datasets [[0]], [[1]], ... of one output (every pair would be compared)."""
    return json.dumps({"n": 1, "datasets": [[[v]] for v in range(k)], "outputs": [0], "kernel": [[1]] * k})


#: (id, file contents (str or bytes) or None, argv with FILE for the file, words the message must contain)
CASES = [
    ("duplicate-kernel-key", _audit_file(extra=', "kernel": [[1, 0], [0, 1]]'),
     ["audit", "FILE", "--json"], ["duplicate key 'kernel'"]),
    ("duplicate-key-nested", _audit_file(outputs='[{"a": 1, "a": 2}, 1]'),
     ["audit", "FILE"], ["duplicate key 'a'"]),
    ("tiny-json-number", _audit_file(kernel='[[1e-99999999, 1], ["1/3", "2/3"]]'),
     ["audit", "FILE", "--json"], ["exponent", "cap"]),
    ("huge-json-number-label", _audit_file(inputs="[[1e99999999], [1]]"),
     ["audit", "FILE", "--json"], ["label"]),
    ("json-number-label-1e400", _audit_file(inputs="[[1e400], [1]]"),
     ["audit", "FILE", "--json"], ["label", "string"]),
    ("json-number-label-underflow", _audit_file(inputs="[[1e-400], [0]]"),
     ["audit", "FILE", "--json"], ["label"]),
    ("5000-digit-integer", _audit_file(kernel='[["1/2", "1/2"], ["1/3", ' + "1" * 5000 + "]]"),
     ["audit", "FILE", "--json"], ["5000 digits"]),
    ("nan-constant", _audit_file(kernel='[[NaN, 1], ["1/3", "2/3"]]'),
     ["audit", "FILE", "--json"], ["NaN is not a JSON number"]),
    ("non-utf8", _audit_file(extra=', "x": "').encode() + b'\xff\xfe"}',
     ["audit", "FILE", "--json"], ["not UTF-8"]),
    ("deeply-nested", "[" * 100_000 + "]" * 100_000, ["audit", "FILE", "--json"], ["nested too deeply"]),
    ("nested-beyond-depth-cap", "[" * 200 + "]" * 200, ["audit", "FILE"], ["nested too deeply"]),
    ("dict-as-input-value", _audit_file(inputs='[[{"a": 1}], [1]]'),
     ["audit", "FILE", "--json"], ["JSON object"]),
    ("dict-as-output", _audit_file(outputs='[{"a": 1}, 1]'), ["audit", "FILE"], ["JSON object"]),
    ("dict-as-kernel-entry", _audit_file(kernel='[[{"a": 1}, 1], ["1/3", "2/3"]]'),
     ["audit", "FILE"], ["not a number"]),
    ("partial-dict-as-record-value",
     json.dumps({"n": 1, "datasets": [[[{"a": 1}]], [[0]]], "outputs": [0, 1],
                 "kernel": [["1/2", "1/2"], ["1/3", "2/3"]]}),
     ["partial", "audit", "FILE", "--json"], ["JSON object"]),
    # found by tests/cli/test_fuzz.py: exact numbers too long for str() in a message (Python's 4300-digit
    # int-to-str limit) and a JSON number whose exponent Decimal cannot hold were internal errors (exit 3)
    ("fuzz-kernel-row-of-5000-digit-strings", _audit_file(kernel='[["1/2", "1/2"], ["' + "9" * 5000 + '", 0]]'),
     ["audit", "FILE", "--json"], ["sums to about 1e+5000", "not 1"]),
    ("fuzz-negative-5000-digit-entry", _audit_file(kernel='[["1/2", "1/2"], ["-' + "9" * 5000 + '", 1]]'),
     ["audit", "FILE"], ["is negative (about -1e+5000)"]),
    ("fuzz-partial-row-of-5000-digit-strings",
     json.dumps({"n": 1, "datasets": [[[0]], [[1]]], "outputs": [0, 1],
                 "kernel": [["1/2", "1/2"], ["9" * 5000, "0"]]}),
     ["partial", "audit", "FILE", "--json"], ["sums to about 1e+5000"]),
    ("fuzz-allocate-zeta-of-5000-digits", None,
     ["allocate", "--delta", "0", "--eps", "1", "--q", "0", "--zeta", "9" * 5000, "--json"],
     ["zeta = about 1e+5000", "(0, 1]"]),
    # a valid file whose exact result is too long to write out: Prop. 8's (e^eps0)^d with e^eps0 about
    # 10^5000 and d = 30 has about 150000 digits (beyond bcdp.cli.main.MAX_EXACT_DIGITS): refused, not exit 3
    ("partial-exact-value-beyond-100000-digits",
     json.dumps({"n": 1, "datasets": [[[0] * 30], [[1] + [0] * 29]], "outputs": [0, 1],
                 "kernel": [[TINY, ONE_MINUS_TINY], ["1/2", "1/2"]]}),
     ["partial", "audit", "FILE", "--json"], ["more than 100000 digits"]),
    ("fuzz-json-exponent-beyond-decimal", '{"n": 1, "datasets": [[[651e4000000000000000000]]]}',
     ["audit", "FILE", "--json"], ["651e4000000000000000000", "exponent beyond any cap"]),
    ("partial-json-exponent-beyond-decimal", _audit_file(kernel="[[1e-10000000000000000000, 1], [0, 1]]"),
     ["partial", "audit", "FILE"], ["exponent beyond any cap"]),
    # 'n' = 1e999999999: int() of it would build a 10^9-digit integer (a hang, not a refusal)
    ("partial-n-with-a-billion-digits", '{"n": 1e999999999, "datasets": [[[0]]], "outputs": [0], "kernel": [[1]]}',
     ["partial", "audit", "FILE", "--json"], ["'n'", "more than 4000 digits"]),
    ("partial-n-fractional-decimal", '{"n": 1.5e0, "datasets": [[[0]]], "outputs": [0], "kernel": [[1]]}',
     ["partial", "audit", "FILE"], ["'n' must be a positive integer, got 1.5"]),
    ("partial-too-many-listed-datasets", _many_datasets_file(2 ** 16 + 1),
     ["partial", "audit", "FILE", "--json"], ["65537 datasets", "cap of 65536"]),
    ("partial-duplicate-n", '{"n": 1, "n": 2, "datasets": [[[0]]], "outputs": [0], "kernel": [[1]]}',
     ["partial", "audit", "FILE"], ["duplicate key 'n'"]),
    ("allocate-optimal-tiny-eps", None,
     ["allocate", "--delta", "0.2,0.2,2", "--eps", "1e-300", "--q", "0.3", "--optimal", "--json"],
     ["float64", "1e300"]),
    ("allocate-tiny-eps-undecidable-split", None,
     ["allocate", "--delta", "0.2,0.2,2", "--eps", "1e-300", "--q", "0.3", "--json"],
     ["cannot decide", "eq. (16)"]),
    ("tables-negative-seed", None, ["tables", "fig3", "--seed", "-1", "--trials", "1", "--out", "OUTDIR"],
     ["--seed"]),
    ("tables-zero-workers", None, ["tables", "fig3", "--workers", "0", "--trials", "1", "--out", "OUTDIR"],
     ["--workers"]),
    ("tables-negative-workers", None, ["tables", "fig3", "--workers", "-3", "--trials", "1", "--out", "OUTDIR"],
     ["--workers must be >= 1, got -3"]),
    ("tables-out-is-a-file", "not a directory\n", ["tables", "paper_examples", "--out", "FILE"],
     ["not a directory"]),
    ("tables-out-below-a-file", "not a directory\n", ["tables", "paper_examples", "--out", "FILE/sub"],
     ["cannot create"]),
    ("reproduce-out-is-a-file", "not a directory\n", ["reproduce", "--out", "FILE"], ["not a directory"]),
    ("reproduce-golden-missing", None, ["reproduce", "--out", "OUTDIR", "--golden", "OUTDIR/none"],
     ["--golden", "not a directory"]),
]


def run_bcdp(argv: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    env = dict(os.environ)
    root = str(Path(bcdp.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("BCDP_TRACEBACK", None)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "bcdp.cli", *argv], env=env, cwd=cwd, capture_output=True,
                          text=True, errors="replace", timeout=LIMIT_SECONDS, check=False)
    return proc, time.perf_counter() - start


def _materialise(argv: list[str], content: str | bytes | None, tmp_path: Path) -> list[str]:
    path = tmp_path / "input.json"
    if content is not None:
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    out = str(tmp_path / "out")
    return [a.replace("FILE", str(path)).replace("OUTDIR", out) for a in argv]


@pytest.mark.parametrize("content,argv,words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_exit_2(content, argv, words, tmp_path):
    proc, seconds = run_bcdp(_materialise(argv, content, tmp_path), tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    prefix = "bcdp " + " ".join(a for a in argv[:2] if a in ("audit", "partial", "allocate", "tables", "reproduce"))
    assert lines[0].startswith(prefix + ": "), lines[0]
    assert "internal error" not in lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert len(lines[0]) < 400, lines[0]
    if "--json" in argv:   # the JSON error object on stdout, with the same message
        payload = json.loads(proc.stdout)
        assert payload["exit_code"] == 2 and payload["error"]["message"] == lines[0].split(": ", 1)[1]
    else:
        assert proc.stdout == "", proc.stdout[:500]
    assert seconds < LIMIT_SECONDS


def _strict_json(text: str):
    def refuse(name):
        raise ValueError(f"non-strict JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("q", ["0", "0.5", "1"])
def test_allocate_tiny_eps_prints_strict_json(q, tmp_path):
    # eps = 1e-300: every c_i = 1e-300 and the eq. (17) objective 9/(1e-300)^2 = 9e600 is beyond float64;
    # hand check: c sorted = (e, e, e), w = (e^2/3, 0, 0), objective = 3 * 3/e^2 = 9e600
    proc, _ = run_bcdp(["allocate", "--delta", "0.2,0.2,2", "--eps", "1e-300", "--q", q, "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = _strict_json(proc.stdout)
    assert out["objective"]["float"] == "inf"
    assert out["objective"]["exact"] == "9" + "0" * 600
    assert [c["float"] for c in out["c"]] == [1e-300] * 3


def test_product_domain_size_is_refused_before_enumeration():
    from bcdp.core.errors import InvalidInputError
    from bcdp.core.spaces import MAX_DOMAIN_SIZE, ProductDomain

    start = time.perf_counter()
    with pytest.raises(InvalidInputError, match=r"1099511627776 points \(2\^40\)"):
        ProductDomain.binary(40)
    with pytest.raises(InvalidInputError, match="beyond the cap"):
        ProductDomain(((0, 1, 2),) * 13)          # 3^13 = 1594323 > 2^20
    assert time.perf_counter() - start < 1.0
    assert ProductDomain.binary(3).size == 8 and MAX_DOMAIN_SIZE == 2 ** 20


def test_json_reader_keeps_valid_documents():
    """The stricter reader still reads what the format allows: exact decimals, ints, nested labels,
    number labels that float64 represents as written."""
    from bcdp.audit.kernel import hashable_label

    assert hashable_label([1, [2, "a"]]) == (1, (2, "a"))
    from decimal import Decimal
    assert hashable_label(Decimal("0.5")) == 0.5 and hashable_label(Decimal("0.1")) == 0.1
    assert hashable_label(Decimal("3.0")) == 3 and isinstance(hashable_label(Decimal("3.0")), int)


def test_exact_results_beyond_4300_digits_are_written_out(tmp_path):
    """A kernel entry 10^-5000 is valid (5002 characters, under the input caps); the LDP ratio
    (1/2)/10^-5000 = 5 * 10^4999 has 5000 digits, beyond Python's default int-to-str limit of 4300,
    and printing it was an internal error (exit 3).  Hand check: the rows (10^-5000, 1 - 10^-5000)
    and (1/2, 1/2) give the ratios 5 * 10^4999 at output 0 and 2 (1 - 10^-5000) < 2 at output 1."""
    path = tmp_path / "m.json"
    path.write_text(_audit_file(kernel=f'[["{TINY}", "{ONE_MINUS_TINY}"], ["1/2", "1/2"]]'))
    proc, _ = run_bcdp(["audit", str(path), "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr[-500:]
    out = _strict_json(proc.stdout)
    assert out["ldp_epsilon"]["exact"] == "log(5" + "0" * 4999 + ")"
    assert out["ldp_epsilon"]["float"] == pytest.approx(4999 * 2.302585092994046 + 1.6094379124341003, rel=1e-15)
