"""The README runs: its Python examples execute (from an unrelated directory) and print what their
``# -> `` comments say, its two commands are the documented ones, and the layout table names modules
that exist."""

import contextlib
import io
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.M | re.S)


PYTHON_BLOCKS = blocks("python")


def expected_output(block: str) -> list[str]:
    """The ``# -> text`` comments of the block's print lines, in order."""
    return [line.split("# -> ", 1)[1].rstrip() for line in block.splitlines() if "# -> " in line]


def test_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 2
    assert all(expected_output(b) for b in PYTHON_BLOCKS)


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_python_block_runs_and_prints_what_it_says(index, tmp_path, monkeypatch):
    block = PYTHON_BLOCKS[index]
    monkeypatch.chdir(tmp_path)  # the examples do not depend on the current directory
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, f"README.md python block {index}", "exec"), {"__name__": "__readme__"})
    assert out.getvalue().splitlines() == expected_output(block)


def test_the_two_commands():
    bash = "\n".join(blocks("bash"))
    assert "python3 -m pip install . && bcdp reproduce" in bash
    assert "python3 -m pip install -e '.[test]' && python3 -m pytest -q" in bash
    assert "python3 -m pytest -q" in (REPO / ".ci" / "run").read_text()


def test_tour_commands_exist():
    from bcdp.cli.main import COMMANDS

    tour = [line.split()[1] for b in blocks("bash") for line in b.splitlines() if line.startswith("bcdp ")]
    assert {t for t in tour if not t.startswith("-")} <= set(COMMANDS)
    for line in (line for b in blocks("bash") for line in b.splitlines()):
        for path in re.findall(r"\bdocs/examples/\S+\.json", line):
            assert (REPO / path).is_file(), path


def test_layout_table_names_existing_modules():
    rows = [line for line in README.split("## Layout", 1)[1].splitlines() if line.startswith("| `reference/bcdp/")]
    assert len(rows) >= 6
    checked = 0
    for row in rows:
        first, rest = row.split("|")[1], "|".join(row.split("|")[2:])
        packages = re.findall(r"reference/bcdp/(\w+)/", first)
        for name in re.findall(r"`([\w.]+)`", rest):
            if "." in name:
                package, module = name.split(".", 1)
            elif len(packages) == 1:
                package, module = packages[0], name
            else:
                continue
            base = REPO / "reference" / "bcdp" / package
            assert (base / f"{module}.py").is_file() or (base / module / "__init__.py").is_file(), (row[:40], name)
            checked += 1
    assert checked >= 40
