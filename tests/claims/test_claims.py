"""The claim registry and the claim checks.

* every check module declares exactly one ``CLAIM = ClaimSpec(...)`` and builds its result from it;
  every claim id is declared once;
* every registered check runs and returns its spec's expected verdict (a change is a finding: the
  test fails), with a strictly JSON-serialisable record;
* ``docs/theory_index.md`` is exactly what :func:`bcdp.claims.index.render_index` generates;
* no registry text cites line numbers of our text files or our notes files, and every file, test,
  module and errata entry it names exists.
"""

from __future__ import annotations

import ast
import difflib
import importlib
import importlib.util
import json
import re
from pathlib import Path

import pytest
from bcdp.claims import PASSING_VERDICTS, check_modules, run_check
from bcdp.claims.index import REGENERATE, render_index
from bcdp.claims.registry import (
    EXPECTED_KINDS,
    PAPERS,
    ClaimSpec,
    check_package_modules,
    registered,
)

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "docs" / "theory_index.md"
ERRATA = ROOT / "docs" / "errata.md"
JSON_FIELDS = {"claim_id", "source", "statement", "verdict", "key_figure", "evidence", "seconds", "passed"}

#: Citations by line number of our text files ("line 243", "lines 498-511", "L295") or of our
#: notes files ("anchors.md E1", "digest E3").  ``.md`` is allowed only in paths of repository
#: files under docs/ and tables/ (checked to exist below).
LINE_CITATION = re.compile(r"\blines? ~?\d|\bL\d{2,}|\.md\b|anchors|digest|shared/|thesis_part", re.I)
REPO_MD_PATH = re.compile(r"`(?:docs|tables)/[\w./*-]+\.md`")


def _source(module_name: str) -> str:
    return Path(importlib.import_module(module_name).__file__).read_text(encoding="utf-8")


def _spec_texts(spec: ClaimSpec) -> dict[str, str]:
    return {"id": spec.id, "where": spec.where, "citation": spec.citation, "statement": spec.statement,
            "status": spec.status, "erratum": spec.erratum,
            **{f"also_checked_in[{i}]": text for i, text in enumerate(spec.also_checked_in)}}


# -- declarations ---------------------------------------------------------------------------------

@pytest.mark.parametrize("module_name", check_modules())
def test_check_module_declares_exactly_one_claim(module_name):
    tree = ast.parse(_source(module_name))
    claims = [node for node in tree.body if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "CLAIM" for t in node.targets)]
    assert len(claims) == 1, f"{module_name}: {len(claims)} module-level CLAIM assignments"
    value = claims[0].value
    assert isinstance(value, ast.Call) and getattr(value.func, "id", None) == "ClaimSpec"
    assert not any(isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CLAIMS" for t in node.targets)
                   for node in tree.body), f"{module_name}: check modules declare CLAIM, not CLAIMS"
    built = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "id", None) == "ClaimResult"]
    assert not built, f"{module_name}: builds ClaimResult(...) directly instead of CLAIM.result(...)"
    module = importlib.import_module(module_name)
    assert isinstance(module.CLAIM, ClaimSpec) and callable(module.check)


def test_claim_ids_are_unique_and_every_declaration_is_registered():
    declared = []
    for name in check_package_modules():
        module = importlib.import_module(name)
        if isinstance(getattr(module, "CLAIM", None), ClaimSpec):
            declared.append((module.CLAIM.id, name))
        declared += [(spec.id, name) for spec in getattr(module, "CLAIMS", ())]
    ids = [i for i, _ in declared]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"claim ids declared more than once: {duplicates}"
    assert sorted(ids) == sorted(r.spec.id for r in registered())
    checks = {r.module for r in registered() if r.has_check}
    assert checks == set(check_modules())


def test_declaration_modules_hold_only_specs():
    for name in check_package_modules():
        if name in check_modules():
            continue
        module = importlib.import_module(name)
        assert not hasattr(module, "check") and not hasattr(module, "CLAIM"), name
        assert all(isinstance(spec, ClaimSpec) for spec in getattr(module, "CLAIMS", ()))


def test_expected_verdicts():
    for r in registered():
        assert r.spec.expected in EXPECTED_KINDS
        if r.has_check:
            assert r.spec.expected in PASSING_VERDICTS, f"{r.spec.id}: a check must expect a passing verdict"


def test_spec_validation_rejects_bad_fields():
    good = dict(id="BCDP-Example", paper="bcdp", group="notions", where="Sec. 2", statement="s",
                expected="confirmed")
    ClaimSpec(**good)
    for bad in ({"id": "bcdp_example"}, {"paper": "unknown"}, {"group": "halfspaces"},
                {"expected": "refuted"}, {"also_checked_in": "tests/x.py"}):
        with pytest.raises((ValueError, TypeError)):
            ClaimSpec(**{**good, **bad})


# -- running the checks ---------------------------------------------------------------------------

@pytest.mark.parametrize("module_name", check_modules())
def test_claim_check_returns_expected_verdict(module_name):
    spec = importlib.import_module(module_name).CLAIM
    result = run_check(module_name)
    assert result.verdict == spec.expected, (
        f"{module_name}: verdict {result.verdict!r}, expected {spec.expected!r} (a change is a finding); "
        f"key figure {result.key_figure!r}\n{json.dumps(result.to_json(), indent=1, default=str)[:4000]}")
    assert result.passed
    assert (result.claim_id, result.source, result.statement) == (spec.id, spec.citation, spec.statement)
    text = json.dumps(result.to_json())  # no default=: the evidence itself must be JSON-serialisable
    record = json.loads(text)
    assert set(record) == JSON_FIELDS
    assert record["claim_id"] == spec.id and record["key_figure"]
    assert not LINE_CITATION.search(result.key_figure), result.key_figure
    assert not re.search(r"anchors|digest|shared/|/work/", json.dumps(record["evidence"])), module_name


# -- the generated index --------------------------------------------------------------------------

def test_theory_index_is_generated_from_the_registry():
    expected = render_index()
    committed = INDEX.read_text(encoding="utf-8")
    if committed != expected:
        diff = "".join(list(difflib.unified_diff(committed.splitlines(True), expected.splitlines(True),
                                                 "docs/theory_index.md (committed)", "generated"))[:60])
        pytest.fail(f"docs/theory_index.md differs from the registry; regenerate it from the repository "
                    f"root with\n    {REGENERATE}\n{diff}")


def test_index_lists_every_claim_once_under_its_paper():
    text = render_index()
    for r in registered():
        rows = [line for line in text.splitlines() if line.startswith(f"| {r.spec.id} |")]
        assert len(rows) == 1, r.spec.id
        section = text[:text.index(rows[0])].rsplit("\n## ", 1)[-1]
        assert section.startswith(PAPERS[r.spec.paper].heading), r.spec.id
        if r.has_check:
            assert f"`{r.path}`" in rows[0] and (ROOT / r.path).is_file(), r.path


# -- citations ------------------------------------------------------------------------------------

def test_no_line_number_or_notes_citations():
    offenders = []
    for r in registered():
        for field, text in _spec_texts(r.spec).items():
            if LINE_CITATION.search(REPO_MD_PATH.sub("", text)):
                offenders.append(f"{r.spec.id}.{field}: {text}")
    for paper in PAPERS.values():
        for text in (paper.reference, paper.cite, paper.heading):
            if LINE_CITATION.search(text):
                offenders.append(f"PAPERS[{paper.key}]: {text}")
    assert not offenders, "\n".join(offenders)


def test_line_citation_pattern_catches_the_old_forms():
    for old in ("Prop. 1, Sec. 2 (line 243)", "Example 1 (lines 498-511)", "L295 (after Def. 6)",
                "eq. (16); anchors.md E1", "digest E12"):
        assert LINE_CITATION.search(old), old
    assert not LINE_CITATION.search(REPO_MD_PATH.sub("", "`tables/fig3.md`; Lemma 10, Sec. 2.2"))


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            if importlib.util.find_spec(name) is None:
                continue
        except ModuleNotFoundError:
            continue
        obj = importlib.import_module(name)
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_named_files_tests_and_modules_exist():
    missing = []
    for r in registered():
        for field, text in _spec_texts(r.spec).items():
            for token in re.findall(r"`([^`]+)`", text):
                path, _, test_name = token.partition("::")
                if re.match(r"(tests|tables|docs|proofs_checks)/", path):
                    if not list(ROOT.glob(path)):
                        missing.append(f"{r.spec.id}.{field}: {path}")
                    elif test_name and not re.search(rf"^def {re.escape(test_name)}\(",
                                                     (ROOT / path).read_text(encoding="utf-8"), re.M):
                        missing.append(f"{r.spec.id}.{field}: {token}")
                elif re.fullmatch(r"bcdp(\.\w+)+", token) and not _resolves(token):
                    missing.append(f"{r.spec.id}.{field}: {token}")
            # "`f`, `g(...)` in `bcdp.x.y`": the functions exist in that module
            owner = re.search(r" in `(bcdp[\w.]+)`", text)
            if owner:
                for name in re.findall(r"`(\w+)(?:\([^`]*\))?`", text[:owner.start()]):
                    if not _resolves(f"{owner.group(1)}.{name}"):
                        missing.append(f"{r.spec.id}.{field}: {name} in {owner.group(1)}")
    assert not missing, "\n".join(missing)


def test_errata_entries_exist():
    headings = set(re.findall(r"^## (E[\w.\-]*?)[.:]?(?=[\s(:])", ERRATA.read_text(encoding="utf-8"), re.M))
    missing = []
    for r in registered():
        named = {r.spec.erratum} if r.spec.erratum else set()
        for text in (r.spec.where, r.spec.statement, r.spec.status):
            named |= {m.rstrip(".") for m in re.findall(r"\berratum (E[\w.\-]+)", text)}
        missing += [f"{r.spec.id}: {e}" for e in sorted(named - headings)]
    assert not missing, f"errata ids not found as headings of docs/errata.md: {missing}"
