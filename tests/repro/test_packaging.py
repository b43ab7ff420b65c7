"""The wheel is self-contained: golden tables, example inputs and the file format ship as data packages.

``bcdp.golden`` is ``tables/`` and ``bcdp.data`` is ``docs/`` (pyproject ``package-dir``); the golden
lookup of ``bcdp reproduce`` goes through :mod:`importlib.resources`, never through ``./tables`` of
the current directory.  Checked three ways: the installed resources equal the repository files byte
for byte; the package build (setuptools ``build_py``, the step that fills the wheel) puts them in
place; and ``bcdp reproduce`` run from an unrelated directory compares against them.
"""

import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from bcdp.cli import main
from bcdp.repro import tables as tables_mod
from bcdp.repro.tables import compare_with_golden, golden_dir

REPO = Path(__file__).resolve().parents[2]
TABLES = REPO / "tables"
DOCS = REPO / "docs"
#: what bcdp.data ships (pyproject package-data); the rest of docs/ stays in the repository
DATA_FILES = ["file_format.md"] + [f"examples/{p.name}" for p in sorted((DOCS / "examples").glob("*.json"))]


def test_packaged_golden_tables_equal_the_repository_files():
    packaged = golden_dir()
    repo_files = sorted(p.name for p in TABLES.iterdir() if p.is_file())
    assert len(repo_files) >= 20 and "paper_examples.csv" in repo_files
    for name in repo_files:
        assert (packaged / name).read_bytes() == (TABLES / name).read_bytes(), name
    assert {p.name for p in packaged.iterdir() if p.is_file()} >= set(repo_files)


def test_packaged_docs_equal_the_repository_files():
    packaged = resources.files("bcdp.data")
    assert len(DATA_FILES) >= 4
    for rel in DATA_FILES:
        assert (packaged / rel).read_bytes() == (DOCS / rel).read_bytes(), rel


def test_golden_comparison_does_not_read_the_current_directory(tmp_path, monkeypatch):
    # a ./tables in the current directory with a wrong golden file must not matter
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "paper_examples.csv").write_text("not the golden table\n")
    assert compare_with_golden(["paper_examples"], golden_dir()) == {
        "paper_examples.csv": "match", "paper_examples.md": "match"}
    # the comparison itself can fail: against the wrong copy it reports it
    assert compare_with_golden(["paper_examples"], Path("tables"))["paper_examples.csv"] == "differs"


@pytest.fixture
def quick_reproduce(monkeypatch):
    """``bcdp reproduce`` with the slow parts replaced: no claim checks, two exact tables, and the
    Monte Carlo / figure writers replaced by copies of the repository's golden files."""
    import bcdp.claims.runner
    import bcdp.repro.bandit_figures
    import bcdp.repro.ch7_figures
    import bcdp.repro.fig3
    import bcdp.repro.fl_figures
    import bcdp.repro.shuffle_figures

    monkeypatch.setattr(bcdp.claims.runner, "run_all", lambda: [])
    subset = {k: tables_mod.REGISTRY[k] for k in ("paper_examples", "correlated_prior_dependence")}
    monkeypatch.setattr(tables_mod, "REGISTRY", subset)

    def copy_golden(names):
        def writer(out, **kwargs):
            out.mkdir(parents=True, exist_ok=True)
            return [Path(shutil.copy(TABLES / n, out / n)) for n in names]
        return writer

    monkeypatch.setattr(bcdp.repro.fig3, "write_fig3", copy_golden(["fig3_trials.csv"]))
    csvs = {prefix: sorted(p.name for p in TABLES.glob(f"{prefix}_*.csv")) for prefix in ("shuffle", "fl", "bandits", "thesis")}
    assert all(csvs.values())
    monkeypatch.setattr(bcdp.repro.shuffle_figures, "write_shuffle_figures", copy_golden(csvs["shuffle"]))
    monkeypatch.setattr(bcdp.repro.fl_figures, "write_fl_figures", copy_golden(csvs["fl"]))
    monkeypatch.setattr(bcdp.repro.bandit_figures, "write_bandit_figures", copy_golden(csvs["bandits"]))
    monkeypatch.setattr(bcdp.repro.ch7_figures, "write_ch7_figures", copy_golden(csvs["thesis"]))
    return sum(len(v) for v in csvs.values())


def test_reproduce_from_another_directory_compares_with_packaged_copies(tmp_path, monkeypatch, capsys,
                                                                        quick_reproduce):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tables").mkdir()
    for name in ("paper_examples.csv", "fig3_trials.csv"):
        (tmp_path / "tables" / name).write_text("not the golden table\n")
    code = main(["reproduce", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0, out
    n_files = 4 + quick_reproduce  # two tables x (csv, md) and the Ch. 4-7 figure CSVs
    assert f"{n_files}/{n_files} files matching the golden copies in {golden_dir()}" in out
    assert "fig3 (20 trials per q re-run): match" in out  # fig3 is counted only when it differs
    assert "ALL PASSED" in out
    # --golden still points elsewhere on request, and then the wrong copies are caught
    code = main(["reproduce", "--out", str(tmp_path / "out"), "--golden", "tables"])
    out = capsys.readouterr().out
    assert code == 1 and "SOME CHECKS FAILED" in out
    assert "(differ: paper_examples.csv, " in out and "fig3_trials.csv)" in out


def test_reproduce_without_golden_copies_fails_unless_asked_not_to_compare(tmp_path, monkeypatch, capsys,
                                                                          quick_reproduce):
    """Issue 12: a comparison that did not happen is a failure (exit 1), not "ALL PASSED"."""
    n_files = 4 + quick_reproduce + 1  # two tables x (csv, md), the Ch. 4-7 figure CSVs and fig3
    # no packaged golden copies at all (a broken install), and an empty --golden directory
    monkeypatch.setattr(tables_mod, "golden_dir", lambda: tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    for extra in ([], ["--golden", str(tmp_path / "empty")]):
        code = main(["reproduce", "--out", str(tmp_path / "out"), *extra])
        out = capsys.readouterr().out
        assert code == 1, out
        assert "[no golden copy to compare]" in out and "ALL PASSED" not in out
        assert f"0/{n_files} files matching" in out and "no golden copy, not compared: " in out
        assert "SOME CHECKS FAILED" in out
    # one golden copy missing among present ones is a failure too
    partial = tmp_path / "partial"
    shutil.copytree(TABLES, partial)
    (partial / "paper_examples.md").unlink()
    code = main(["reproduce", "--out", str(tmp_path / "out"), "--golden", str(partial)])
    out = capsys.readouterr().out
    assert code == 1 and "SOME CHECKS FAILED" in out, out
    # asked for no comparison: regenerated, nothing compared, exit 0
    code = main(["reproduce", "--out", str(tmp_path / "out"), "--no-compare"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "not compared (--no-compare)" in out and "ALL PASSED" in out
    assert "no golden copy" not in out
    # a --golden that is not a directory is bad input
    code = main(["reproduce", "--out", str(tmp_path / "out"), "--golden", str(tmp_path / "missing")])
    assert code == 2 and "not a directory" in capsys.readouterr().err


def test_package_build_contains_the_data(tmp_path):
    """setuptools ``build_py`` (what ``pip wheel`` puts in the wheel) on a copy of the sources."""
    pytest.importorskip("setuptools")
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("proofs_checks", "tables", "docs"):
        shutil.copytree(REPO / name, src / name, ignore=skip)
    # the package itself, without the development symlinks (checks, golden, data) a checkout may have
    shutil.copytree(REPO / "reference", src / "reference", ignore=lambda d, names: [
        n for n in names if n == "__pycache__" or (Path(d) / n).is_symlink()])
    out = tmp_path / "lib"
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                    "--build-lib", str(out)], cwd=src, check=True, capture_output=True, timeout=300)
    for p in TABLES.iterdir():
        if p.is_file():
            assert (out / "bcdp" / "golden" / p.name).read_bytes() == p.read_bytes(), p.name
    for rel in DATA_FILES:
        assert (out / "bcdp" / "data" / rel).read_bytes() == (DOCS / rel).read_bytes(), rel
    assert (out / "bcdp" / "checks" / "__init__.py").is_file()
    assert (out / "bcdp" / "cli" / "main.py").is_file()
    # only the documented data: the rest of docs/ stays out of the wheel
    assert not (out / "bcdp" / "data" / "errata.md").exists()


def test_every_package_directory_is_listed_in_pyproject():
    """The wheel lists its packages explicitly (package-dir mappings): a new subpackage missing from
    the list would be absent from the wheel although the editable install finds it."""
    tomllib = pytest.importorskip("tomllib")
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    config = tomllib.loads((repo / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = set()
    for root, name in (("reference/bcdp", "bcdp"), ("proofs_checks", "bcdp.checks")):
        base = repo / root
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            if "checks" in rel.parts and root == "reference/bcdp":
                continue  # the development symlink reference/bcdp/checks -> proofs_checks
            found.add(".".join((name, *rel.parts)) if rel.parts else name)
    assert found - listed == set(), f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    data = {p for p, d in config["package-dir"].items() if p in ("bcdp.golden", "bcdp.data")}
    assert listed - found - data == set(), f"listed but missing: {sorted(listed - found - data)}"


def _golden_copy(tmp_path) -> Path:
    gold = tmp_path / "golden"
    shutil.copytree(TABLES, gold)
    return gold


@pytest.mark.parametrize("damage", ["non-utf8-shuffle", "non-utf8-table", "nul-in-fig3", "junk-fig3-cell"])
def test_fuzz_damaged_golden_copies_differ_not_crash(tmp_path, monkeypatch, capsys, quick_reproduce, damage):
    """Found by tests/cli/test_fuzz.py (test_fuzz_golden_copies): a golden copy given with --golden
    that is not UTF-8 text made `bcdp reproduce` end in an internal error (UnicodeDecodeError, exit
    3), a cell of fig3_trials.csv that is not a number in ValueError.  Each is now a copy that
    differs: exit 1, "SOME CHECKS FAILED".  (A NUL byte, csv.Error before Python 3.11, is covered
    too: caught as unreadable there, a differing row from 3.11 on.)"""
    monkeypatch.chdir(tmp_path)
    gold = _golden_copy(tmp_path)
    shuffle_csv = sorted(gold.glob("shuffle_*.csv"))[0]
    if damage == "non-utf8-shuffle":
        shuffle_csv.write_bytes(b"\xff" + shuffle_csv.read_bytes())
    elif damage == "non-utf8-table":
        (gold / "paper_examples.csv").write_bytes(b"\x80\x81")
    elif damage == "nul-in-fig3":            # in a data row (csv.Error "line contains NUL" before 3.11)
        lines = (gold / "fig3_trials.csv").read_bytes().split(b"\n")
        lines[1] = lines[1].replace(b",", b"\x00,", 1)
        (gold / "fig3_trials.csv").write_bytes(b"\n".join(lines))
    else:
        text = (gold / "fig3_trials.csv").read_text().splitlines()
        cells = text[1].split(",")
        cells[3] = "not a number"
        text[1] = ",".join(cells)
        (gold / "fig3_trials.csv").write_text("\n".join(text) + "\n")
    code = main(["reproduce", "--out", str(tmp_path / "out"), "--golden", str(gold)])
    out, err = capsys.readouterr()
    assert code == 1 and err == "", err
    assert "SOME CHECKS FAILED" in out and "differ" in out


def test_nan_in_the_golden_fig3_trials_does_not_match(tmp_path, monkeypatch, capsys, quick_reproduce):
    """Found while fixing the fuzz's defect above: a golden MSE cell "nan" matched any fresh value,
    since abs(x - nan) > tol is False, so a corrupted golden fig3_trials.csv passed ("ALL PASSED",
    exit 0).  NaN now never matches."""
    monkeypatch.chdir(tmp_path)
    gold = _golden_copy(tmp_path)
    lines = (gold / "fig3_trials.csv").read_text().splitlines()
    lines = [lines[0]] + [",".join(row.split(",")[:3] + ["nan"] * 3) for row in lines[1:]]
    (gold / "fig3_trials.csv").write_text("\n".join(lines) + "\n")
    code = main(["reproduce", "--out", str(tmp_path / "out"), "--golden", str(gold)])
    out = capsys.readouterr().out
    assert code == 1 and "SOME CHECKS FAILED" in out
    rows = len(lines) - 1     # quick_reproduce re-runs by copying the committed trials: every one differs
    assert f"fig3 (20 trials per q re-run): differs ({rows} of {rows} trials)" in out


def test_extras_refer_to_this_distribution_by_its_own_name():
    """An extra that includes another extra must name this distribution (``bcdp-reference``): the
    import name ``bcdp`` is a different, unrelated project on PyPI, and ``bcdp[test]`` once made
    ``pip install -e .[dev]`` install it over our package."""
    tomllib = pytest.importorskip("tomllib")
    import re

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    own = project["name"]
    assert own == "bcdp-reference"
    names = [re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0]
             for extra in project.get("optional-dependencies", {}).values() for req in extra]
    names += [re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0] for req in project.get("dependencies", [])]
    assert "bcdp" not in {n.lower().replace("_", "-") for n in names}
    assert own in names  # the dev extra includes the test extra through the own name
