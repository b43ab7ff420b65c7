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
