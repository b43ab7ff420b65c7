"""Fast start: building the ``bcdp`` parser and printing every ``--help`` loads no heavy library.

Checked in a fresh interpreter (a subprocess), because the test process itself has long imported
sympy and friends.  The subprocess imports the same bcdp as this process.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import bcdp

HEAVY = ("sympy", "scipy", "matplotlib", "mpmath")

PROGRAM = r"""
import contextlib, io, json, sys
from bcdp.cli.main import COMMANDS, build_parser

helps = {}
for argv in [["--help"]] + [[name, "--help"] for name in COMMANDS] + [
        ["partial", "audit", "--help"], ["rdp", "shuffle", "--help"], ["rdp", "to-dp", "--help"],
        ["zcdp", "to-dp", "--help"], ["--version"]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            build_parser().parse_args(argv)
        except SystemExit as exc:
            assert exc.code == 0, (argv, exc.code)
    helps[" ".join(argv)] = out.getvalue()
loaded = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"helps": helps, "loaded": loaded, "file": sys.modules["bcdp"].__file__}))
"""


def run_fresh(program: str) -> dict:
    env = dict(os.environ)
    root = str(Path(bcdp.__file__).resolve().parents[1])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(proc.stdout)


def test_help_loads_no_heavy_module():
    res = run_fresh(PROGRAM)
    assert Path(res["file"]).resolve() == Path(bcdp.__file__).resolve()
    assert not set(HEAVY) & set(res["loaded"]), sorted(set(HEAVY) & set(res["loaded"]))
    # the help texts really were produced (the check above is not vacuous)
    assert "bcdp check [--json]" in res["helps"]["--help"]
    assert "--concentrated" in res["helps"]["partial audit --help"]
    assert "--allow-slow" in res["helps"]["rdp shuffle --help"]
    assert res["helps"]["--version"].strip() == f"bcdp {bcdp.__version__}"


def test_the_probe_detects_a_heavy_import():
    # the same probe sees sympy when something does import it
    res = run_fresh("import sympy\n" + PROGRAM)
    assert "sympy" in res["loaded"] and "mpmath" in res["loaded"]
