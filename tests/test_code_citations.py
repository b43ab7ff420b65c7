"""Code and output cite papers by section, theorem and equation, never line numbers of our extracted
text files or our notes (which a user of the package does not have): every Python file of the
package, the checks, the tests and the benchmarks is scanned.  The pattern is stricter than the
documents' one (tests/test_docs_citations.py) about what a line number is, because code has
variables such as ``l12`` and cites an algorithm's own lines ("Algorithm 2, line 6")."""

from __future__ import annotations

from pathlib import Path

import pytest

import re

FORBIDDEN = re.compile(
    r"\bL[0-9]{3,}\b"                       # L210, L2602-L2609 (text-file lines; case-sensitive)
    r"|\b[Ll]ines?\s*~?\s*[0-9]{3,}"        # line 8192, lines 498-502
    r"|\.txt\b|\bnotes/|anchors\.md|thesis_part|shared/papers"
    r"|\b[Dd]igest\b",                      # "the digest's family"
)

ROOT = Path(__file__).resolve().parent.parent

#: Files allowed to contain the pattern, with the reason.
EXEMPT = {
    # the regexes and their examples themselves
    "tests/test_docs_citations.py", "tests/test_code_citations.py", "tests/claims/test_claims.py",
    # the text of the golden files tables/partial_dp_table1.* ("Table 1 (L75-L185)", "digest (E8,
    # E9)") is frozen byte for byte; the module documents it next to the strings
    "reference/bcdp/partial/table1.py",
}


def _python_files() -> list[str]:
    files = []
    for top in ("reference/bcdp", "proofs_checks", "tests", "benchmarks"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.is_symlink() or any(p.is_symlink() for p in path.parents if ROOT in p.parents):
                continue
            rel = path.relative_to(ROOT).as_posix()
            if rel not in EXEMPT:
                files.append(rel)
    return files


@pytest.mark.parametrize("rel", _python_files())
def test_no_line_number_or_notes_citations(rel: str) -> None:
    bad = [f"{rel}:{n}: {line.strip()[:100]}" for n, line in
           enumerate((ROOT / rel).read_text(encoding="utf-8").splitlines(), 1) if FORBIDDEN.search(line)]
    assert not bad, "cite paper, section, theorem and equation instead:\n" + "\n".join(bad)


def test_the_scan_sees_the_package_and_would_flag_a_citation():
    files = _python_files()
    assert "reference/bcdp/core/numbers.py" in files and any(f.startswith("proofs_checks/thesis/") for f in files)
    for bad in ("Def. 2, L210", "see anchors.md E1", "(lines 498-502)", "line 8192", "the digest (E8)",
                "shared/papers/thesis.txt"):
        assert FORBIDDEN.search(bad), bad
    for fine in ("for l12 in subsets:", "Algorithm 2, line 6", "lines 3-4 of Algorithm 2", "Lemma 28"):
        assert not FORBIDDEN.search(fine), fine
