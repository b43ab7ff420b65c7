"""The mutation gate's data (benchmarks/mutation_gate.py, docs/testing.md): the documented equivalent
mutants parse, name a mutant of a gated package once each, show a one-for-one line change and give a
reason.  The gate itself (mutmut) runs on demand, not here."""

import importlib.util
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _gate():
    spec = importlib.util.spec_from_file_location("mutation_gate", REPO / "benchmarks" / "mutation_gate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_documented_equivalents_are_well_formed():
    gate = _gate()
    entries = tomllib.loads((REPO / "benchmarks" / "mutation_equivalents.toml").read_text())["equivalent"]
    assert len(entries) >= 80
    names = [entry["mutant"] for entry in entries]
    assert len(names) == len(set(names)), "an equivalent is listed twice"
    for entry in entries:
        assert set(entry) == {"mutant", "change", "reason"}, entry["mutant"]
        assert "__mutmut_" in entry["mutant"] and gate.package_of(entry["mutant"]) in gate.GATE, entry["mutant"]
        lines = entry["change"].strip().splitlines()
        removed = [ln for ln in lines if ln.startswith("-")]
        added = [ln for ln in lines if ln.startswith("+")]
        assert removed and added and len(removed) + len(added) == len(lines), entry["mutant"]
        assert len(entry["reason"].split()) >= 5, entry["mutant"]


def test_survivors_reads_the_last_run_and_never_restages(monkeypatch):
    """`--survivors` once restaged the package and started a fresh run (losing the last one): it must
    only read the report, like `--report`; with `--refresh` / `--resume` it is refused."""
    import shutil
    import sys

    import pytest

    gate = _gate()
    calls = []
    for name in ("stage", "refresh", "run_mutmut"):
        monkeypatch.setattr(gate, name, lambda *a, _n=name, **k: calls.append(_n))
    monkeypatch.setattr(gate, "report", lambda packages, show: calls.append(("report", tuple(packages), show)) or 0)
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(sys, "argv", ["mutation_gate.py", "shuffle", "--survivors"])
    assert gate.main() == 0 and calls == [("report", ("shuffle",), True)]
    monkeypatch.setattr(sys, "argv", ["mutation_gate.py", "shuffle", "--survivors", "--refresh"])
    with pytest.raises(SystemExit):
        gate.main()
    assert calls == [("report", ("shuffle",), True)]
