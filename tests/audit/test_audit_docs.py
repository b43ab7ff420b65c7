"""docs/audits/README.md runs without the peer libraries: its Python examples (doctest) and its
`bcdp audit-plan` command print what the page says.  (Its audit-sampler commands need the `peers`
extra: test_library_audits.py, slow.)"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

from bcdp.cli import main

PAGE = Path(__file__).resolve().parents[2] / "docs" / "audits" / "README.md"


def test_python_examples_of_the_audit_page():
    result = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


def test_audit_plan_command_of_the_audit_page(capsys):
    found = re.findall(r"\n    (bcdp audit-plan [^\n]+)\n    ([^\n]+)\n", PAGE.read_text())
    assert len(found) == 1
    cmd, output = found[0]
    assert main(shlex.split(cmd)[1:]) == 0
    assert capsys.readouterr().out.rstrip("\n") == output
