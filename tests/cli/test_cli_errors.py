"""The error contract of the ``bcdp`` command line: one line on stderr, exit 2 for bad input and for
a command line that does not parse, 3 for an internal error, and under ``--json`` a strict JSON error
object on stdout (``{"error": {"type", "message"}, "exit_code"}``)."""

from __future__ import annotations

import json

import pytest

from bcdp.cli import main


def _run(capsys, *argv):
    code = None
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ("allocate", "--eps", "1"),                       # missing required option
    ("rdp", "shuffle", "--n", "10", "--bogus"),        # unknown option
    ("nosuchcommand",),
    ("zcdp",),                                         # missing subcommand
])
def test_parse_errors_are_one_line_exit_2(capsys, argv):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("bcdp") and "see bcdp" in err and "--help" in err


def test_parse_errors_under_json_are_a_json_object(capsys):
    code, out, err = _run(capsys, "allocate", "--eps", "1", "--json")
    assert code == 2 and err.count("\n") == 1
    payload = json.loads(out)
    assert payload["exit_code"] == 2 and payload["error"]["type"] == "UsageError"
    assert "required" in payload["error"]["message"]


def test_bad_input_under_json_is_a_json_object(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, err = _run(capsys, "audit", str(bad), "--json")
    assert code == 2 and err.count("\n") == 1 and err.startswith("bcdp audit: ")
    payload = json.loads(out)
    assert payload["exit_code"] == 2 and payload["error"]["type"] == "InputFileError"
    assert payload["error"]["message"] == err.strip().removeprefix("bcdp audit: ")


def _bcdp_env() -> dict:
    import os
    from pathlib import Path

    import bcdp

    env = dict(os.environ)
    root = str(Path(bcdp.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("BCDP_TRACEBACK", None)
    return env


def test_fuzz_undecodable_out_directory_is_echoed_not_an_internal_error(tmp_path):
    """Found by tests/cli/test_fuzz.py: ``--out`` naming a directory whose name is not UTF-8 (byte
    0xff, which reaches Python as the surrogate escape U+DCFF) made ``wrote <dir>/...`` raise
    UnicodeEncodeError on a strict UTF-8 stdout (any UTF-8 locale but C.UTF-8): exit 3 after the
    tables were written.  The name is now written back as the bytes it came from."""
    import subprocess
    import sys

    env = _bcdp_env()
    env["PYTHONIOENCODING"] = "utf-8:strict"          # stdout as under en_US.UTF-8
    proc = subprocess.run([sys.executable, "-m", "bcdp.cli", "tables", "paper_examples", "--out", b"\xff"],
                          cwd=tmp_path, env=env, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr[-1000:]
    assert proc.stdout.splitlines()[0] == b"wrote \xff/paper_examples.csv"
    assert (tmp_path / "\udcff" / "paper_examples.csv").is_file()     # the same bytes on disk


def test_broken_pipe_is_a_quiet_141_not_an_internal_error():
    """``bcdp ... | head`` closing the pipe early: no traceback, no "internal error", exit 141
    (128 + SIGPIPE).  Before, the BrokenPipeError was reported as an internal error, and under
    --json the error object hit the same closed pipe (a traceback)."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)                                  # the reader is gone before bcdp writes
    try:
        proc = subprocess.run([sys.executable, "-m", "bcdp.cli", "zcdp", "to-dp", "--rho", "1/2", "--delta",
                               "1e-6", "--json"], stdout=write_end, stderr=subprocess.PIPE, env=_bcdp_env(),
                              timeout=120, check=False)
    finally:
        os.close(write_end)
    assert proc.returncode == 141 and proc.stderr == b"", proc.stderr[-1000:]


@pytest.mark.parametrize("argv, wants_json", [
    (("zcdp", "to-dp", "--rho", "1", "--js"), True),       # an abbreviation of --json, missing --delta
    (("zcdp", "to-dp", "--rho", "1", "--jso"), True),
    (("zcdp", "to-dp", "--rho", "1", "--json"), True),
    (("zcdp", "to-dp", "--rho", "1"), False),
    (("audit", "--", "--json"), False),                    # a file named --json (not readable): no JSON
])
def test_parse_errors_under_abbreviated_json_are_json_too(capsys, argv, wants_json):
    """argparse accepts ``--js`` for ``--json`` (a successful run printed JSON) but a parse error
    under ``--js`` printed no JSON object, since only the literal ``--json`` was looked for."""
    code, out, err = _run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1
    if wants_json:
        payload = json.loads(out)
        assert payload["exit_code"] == 2 and payload["error"]["message"] == err.strip().split(": ", 1)[1]
    else:
        assert out == ""


def test_check_json_is_strict_json_for_any_evidence(monkeypatch, capsys):
    """`bcdp check --json` printed Python's `Infinity`/`NaN` tokens (json.dumps without
    allow_nan=False) and str() of Fractions and mpf via default=str; now strict JSON: infinities
    "inf", NaN in evidence "nan", exact numbers as strings."""
    import json as _json
    from fractions import Fraction

    import bcdp.claims.runner
    import mpmath
    import numpy as np
    from bcdp.claims import ClaimResult
    from bcdp.cli import main

    evidence = {"inf": float("inf"), "nan": float("nan"), "neg": -float("inf"), "q": Fraction(1, 3),
                "mp": mpmath.mpf("0.5"), "mpnan": mpmath.mpf("nan"), "arr": np.array([1.0, np.inf, np.nan]),
                "nested": [(1, float("nan"))]}
    results = [ClaimResult("X-1", "src", "stmt", "confirmed", "k", evidence, 0.5)]
    monkeypatch.setattr(bcdp.claims.runner, "run_all", lambda *a, **k: results)
    assert main(["check", "--json"]) == 0
    out = capsys.readouterr().out

    def refuse(token):
        raise AssertionError(f"non-strict JSON token {token}")

    data = _json.loads(out, parse_constant=refuse)
    ev = data[0]["evidence"]
    assert ev["inf"] == "inf" and ev["neg"] == "-inf" and ev["nan"] == "nan" and ev["q"] == "1/3"
    assert ev["mp"] == "0.5" and ev["mpnan"] == "nan" and ev["arr"] == [1.0, "inf", "nan"]
    assert ev["nested"] == [[1, "nan"]] and data[0]["passed"] is True
