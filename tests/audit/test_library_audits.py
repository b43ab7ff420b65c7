"""The worked audits of docs/audits/README.md, re-run (slow; needs the `peers` extra).

Every command on the page is run in-process from docs/audits/.  The reproducible ones (diffprivlib,
seeded through `random_state`, and our own broken mechanism) must print exactly the output on the
page; OpenDP cannot be seeded, so for it the verdict and the exit code are compared, and the lower
bound must lie below the documented epsilon (a false alarm has probability at most 0.05 by
construction; the test's own false-failure probability is that).  The broken mechanism must be
reported "violated" with the planned number of draws, which is recomputed here from its exact kernel.
"""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import pytest
from bcdp.audit.confidence import draws_to_refute
from bcdp.cli import main

pytestmark = pytest.mark.slow
PAGE = Path(__file__).resolve().parents[2] / "docs" / "audits"


def _audits() -> list[tuple[str, int, str]]:
    text = (PAGE / "README.md").read_text()
    found = re.findall(r"\n    (bcdp audit-sampler [^\n]+)\n\nexit code (\d):\n\n((?:    [^\n]*\n)+)", text)
    return [(cmd, int(code), "\n".join(line[4:] for line in out.rstrip("\n").split("\n"))) for cmd, code, out in found]


def test_page_lists_seven_audits():
    assert len(_audits()) == 7


@pytest.mark.parametrize("cmd,code,output", _audits(), ids=lambda v: v.split()[2] if isinstance(v, str) and
                         v.startswith("bcdp") else None)
def test_documented_audit_reruns(cmd, code, output, capsys, monkeypatch):
    module = "opendp" if "opendp" in cmd else "diffprivlib" if "diffprivlib" in cmd else None
    if module:
        pytest.importorskip(module)
    monkeypatch.chdir(PAGE)
    monkeypatch.syspath_prepend(str(PAGE))
    got = main(shlex.split(cmd)[1:])
    out = capsys.readouterr().out.rstrip("\n")
    assert got == code
    if module == "opendp":
        assert out.splitlines()[1].split("claim")[1].split(":")[1].strip().startswith("not refuted")
        lower = float(re.search(r"lower bound ([0-9.]+)", out).group(1))
        assert lower <= math.log(3) if "randomized_response" in cmd else lower <= 1.0
    else:
        assert out == output


def test_broken_mechanism_plan_is_the_documented_draws():
    keep = math.exp(2) / (1 + math.exp(2))
    planned = draws_to_refute(keep, 1 - keep, 1.0, 0.95, cells=4, power=0.9)
    broken = [cmd for cmd, _, _ in _audits() if "broken" in cmd]
    assert broken and f"--draws {planned} " in broken[0] + " "


def test_documented_kernel_is_randomized_response_at_eps_1():
    """rr_eps1_kernel.json: keep probability e / (1 + e) within half an ulp (mpmath, 50 digits)."""
    import json

    import mpmath

    mpmath.mp.dps = 50
    keep = mpmath.e / (1 + mpmath.e)
    rows = json.loads((PAGE / "rr_eps1_kernel.json").read_text())
    want = [[keep, 1 - keep], [1 - keep, keep]]
    for row, wrow in zip(rows, want):
        for v, w in zip(row, wrow):
            assert abs(mpmath.mpf(v) - w) <= math.ulp(v) / 2
