"""User-facing documentation cites papers by their own coordinates, never by our working files.

A package user has neither the project's plain-text extractions of the papers nor its research
notes, so ``README.md`` and the API/errata guides under ``docs/`` must cite a paper by section,
definition/theorem/lemma, equation and appendix (e.g. "partial DP paper, App. A.1.3, proof of
Thm 15"), and external code by repository and file -- never by line numbers of a text file
("L3957-L3975", "line ~8330", "lines 498-502"), by the text files themselves (``*.txt``), or by a
notes file (``notes/``, ``anchors.md``, ``thesis_part*``, "the digest").

``.txt`` is rejected outright: none of these documents has a legitimate use for it (no
requirements file or text data set is referenced), so any occurrence is a paper-extraction path.

The detector is tested on the forms that actually occurred before the clean-up and on look-alikes
that must stay legal (the variable ``L0``, "Lemma 28", "(5.40)", "App. A.1.3"), so it cannot
silently pass by matching nothing. Module paths the documents mention are checked to exist
(checks may still live flat under ``proofs_checks/`` while they are regrouped by paper).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "docs/errata.md", "docs/file_format.md", "docs/mechanisms.md", "docs/partial_dp.md"]

FORBIDDEN = re.compile(
    r"\bL[0-9]{2,}\b"                # L202, L3957-L3975
    r"|\blines?\s*~?\s*[0-9]+"       # line 8192, lines 498-502, line ~1007
    r"|\.txt\b"                      # shared/papers/thesis.txt
    r"|\bnotes/"                     # shared/notes/...
    r"|anchors\.md"                  # anchors.md E1
    r"|thesis_part"                  # notes/thesis_part1.md
    r"|\bdigest\b"                   # "the digest's family"
    r"|shared/papers",
    re.IGNORECASE,
)

BAD_EXAMPLES = [
    "**Printed claim** (Example 1, Sec. 3.3, lines 498-502): for",
    "(Ghazi-Kumar-Manurangsi-Steinke, after Thm 11, L553-L570)",
    "nbar vs n (bar lost in the extraction, line 8192)",
    "- **Issue**: Def. 1 (L202) is replace-one.",
    "Line numbers refer to `shared/papers/thesis.txt`.",
    "The authors' public code (anchors.md E1) uses `<` in float64.",
    "- **Published code** (anchors.md A4, A5): the author's code",
    "(Sec. 5, Algorithm 3, line ~1007)",
    "(partial DP, L2030–L2050)",
    "see `/work/shared/notes/partial_dp.md`",
    "from thesis_part2.md Sec. 3",
    "The digest's w* = (3/10, 3/10, 1/5, 1/5)",
]

GOOD_EXAMPLES = [
    "L0 must be the *largest* such level.",
    "(partial DP paper, App. A.1.3, proof of Thm 15)",
    "(Sec. 5.3.4, proof of Thm 5.3.3, eq. (5.40))",
    "thesis, Sec. 5.5, Fig. 5.5; Lemma 28 via Lemma 29, (5) and (6)",
    "GitHub `DPBayes/PLD-Accountant`, `girgis_upper.py`",
    "every claim check keeps its verdict (Lemmas 28-30, Props 26-27)",
]


@pytest.mark.parametrize("text", BAD_EXAMPLES)
def test_detector_flags_working_file_citations(text: str) -> None:
    assert FORBIDDEN.search(text), text


@pytest.mark.parametrize("text", GOOD_EXAMPLES)
def test_detector_accepts_paper_coordinates(text: str) -> None:
    assert FORBIDDEN.search(text) is None, text


@pytest.mark.parametrize("doc", DOCS)
def test_doc_cites_no_text_file_lines_or_notes(doc: str) -> None:
    hits = [
        f"{doc}:{number}: {match.group(0)!r} in {line.strip()[:100]!r}"
        for number, line in enumerate((ROOT / doc).read_text(encoding="utf-8").splitlines(), 1)
        for match in FORBIDDEN.finditer(line)
    ]
    assert not hits, "citations of our text files / notes:\n" + "\n".join(hits)


CHECK_GROUPS = ("bcdp", "partial_dp", "thesis")


def _check_group(name: str) -> str:
    if name.startswith("pdp_"):
        return "partial_dp"
    if name.startswith("thesis_") or name in ("rdp_conversions_sound", "baseline_clones_and_kov"):
        return "thesis"
    return "bcdp"


@pytest.mark.parametrize("doc", DOCS)
def test_doc_check_paths_are_grouped_by_paper(doc: str) -> None:
    """``proofs_checks/<group>/<module>.py`` with the group of the paper the check belongs to."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    problems = []
    for match in re.finditer(r"proofs_checks/([\w/]+)\.py", text):
        parts = match.group(1).split("/")
        if len(parts) != 2 or parts[0] not in CHECK_GROUPS:
            problems.append(f"{match.group(0)}: not proofs_checks/<bcdp|partial_dp|thesis>/<module>.py")
            continue
        group, module = parts
        if not (ROOT / "proofs_checks" / group / f"{module}.py").is_file():
            problems.append(f"{match.group(0)}: no such check")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("doc", DOCS)
def test_doc_file_paths_exist(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    paths = set(re.findall(r"`((?:reference|tests|docs|benchmarks|tables)/[\w./-]+\.\w+)`", text))
    missing = sorted(p for p in paths if "*" not in p and not (ROOT / p).is_file())
    assert not missing, f"{doc} names files that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS)
def test_doc_dotted_names_resolve(doc: str) -> None:
    """Every ``bcdp.a.b.c`` the document names is an importable module or an attribute of one."""
    import importlib

    unresolved = []
    for ref in sorted(set(re.findall(r"\bbcdp(?:\.[A-Za-z_]\w*)+", (ROOT / doc).read_text(encoding="utf-8")))):
        parts = ref.split(".")
        obj, used = None, 0
        for cut in range(len(parts), 0, -1):
            try:
                obj, used = importlib.import_module(".".join(parts[:cut])), cut
                break
            except ImportError:
                continue
        for attr in parts[used:]:
            if not hasattr(obj, attr):
                unresolved.append(ref)
                break
            obj = getattr(obj, attr)
    assert not unresolved, f"{doc} names unknown objects: {unresolved}"
