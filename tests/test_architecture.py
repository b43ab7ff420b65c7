"""The import rules of docs/architecture.md, enforced on every module of bcdp and bcdp.checks.

The imports of each module are read with :mod:`ast` (every ``import`` and ``from ... import``,
including those inside functions; imports done by name through :mod:`importlib` are not seen, which
is how the claims runner loads the checks).  Rules:

1. ``bcdp.core`` imports nothing of ours outside core;
2. ``bcdp.accounting`` imports only core (and accounting);
3. a paper package (``bayesian``, ``partial``, ``shuffle``, and any new subpackage not listed below,
   e.g. a future thesis chapter) imports only core, accounting and itself;
4. the applications (``audit``, ``repro``, ``cli``, ``claims``) import papers, accounting, core, the
   top-level ``bcdp`` and each other, never ``bcdp.checks`` (one documented exception: the claims
   runner imports the ``bcdp.checks`` package to list its modules);
5. the checks (``bcdp.checks``) import the library and ``bcdp.claims`` (their result type), no other
   application; the top-level ``bcdp`` imports only core, accounting and papers;
6. no module imports a private name (``_x``) from a module of another subpackage;
7. no import cycle between modules (strongly connected components of the module graph);
8. no module over 600 lines.

The tree does not obey every rule yet.  Each current violation is listed in an allow-list below, so
that the test fails on any NEW violation; each entry must still be a violation (a fixed one fails
the test until it is removed from its list).  Empty the lists, never extend them.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MAX_LINES = 600

# --- allow-lists of the current violations (remove entries as they are fixed; never add) ----------

#: (importer, imported module) pairs breaking rules 1-5
KNOWN_LAYER_VIOLATIONS: set[tuple[str, str]] = set()

#: (importer, "module:_name") pairs breaking rule 6 (imports, and module._name uses)
KNOWN_PRIVATE_IMPORTS: set[tuple[str, str]] = set()

#: strongly connected components (sets of modules) breaking rule 7
KNOWN_CYCLES: set[frozenset[str]] = set()

#: files (relative to the repository) over MAX_LINES lines, rule 8
KNOWN_OVERSIZE: set[str] = set()

#: permanent, documented exceptions to the layer rules
ALLOWED_EXCEPTIONS: set[tuple[str, str]] = {
    ("bcdp.claims.runner", "bcdp.checks"),  # lists the check modules (pkgutil), loads them by name
    ("bcdp.claims.registry", "bcdp.checks"),  # walks the checks package to collect the claim specs
}

# --- the layers ------------------------------------------------------------------------------------

LIBRARY = ("core", "accounting")
APPLICATIONS = ("audit", "repro", "cli", "claims")
CHECKS = "checks"
ROOT = "<root>"  # the top-level bcdp package (bcdp/__init__.py)
# (the data packages bcdp.golden = tables/ and bcdp.data = docs/ hold no code and are not scanned)


def sources(repo: Path) -> dict[str, Path]:
    """Module name -> file, for bcdp (reference/bcdp) and bcdp.checks (proofs_checks)."""
    out = {}
    for base, package in ((repo / "reference" / "bcdp", "bcdp"), (repo / "proofs_checks", "bcdp.checks")):
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(base)
            if package == "bcdp" and (base / rel.parts[0]).is_symlink():
                continue  # development symlinks (checks, golden, data) of a PYTHONPATH checkout
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([package, *parts])] = path
    return out


def subpackage(module: str) -> str:
    parts = module.split(".")
    return ROOT if len(parts) == 1 else parts[1]


def layer(sub: str) -> str:
    """core, accounting, application, checks, <root>, or paper (any other subpackage)."""
    if sub in APPLICATIONS:
        return "application"
    if sub in LIBRARY or sub in (CHECKS, ROOT):
        return sub
    return "paper"


def _resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _ours(name: str) -> bool:
    return name == "bcdp" or name.startswith("bcdp.")


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def imports_of(module: str, modules: dict[str, Path]) -> list[tuple[str, str | None]]:
    """(imported module, imported name or None) for every import statement of ``module`` that
    reaches bcdp; ``from pkg import x`` resolves to the submodule ``pkg.x`` when there is one."""
    return _scan(module, modules[module], frozenset(modules))[0]


def attribute_uses(module: str, modules: dict[str, Path]) -> list[tuple[str, str]]:
    """(module of ours, attribute) for every ``alias.attr`` where ``alias`` names an imported module
    of ours (``import bcdp.x.y as m`` / ``from bcdp.x import y as m`` / ``import bcdp.x.y``)."""
    return _scan(module, modules[module], frozenset(modules))[1]


@lru_cache(maxsize=None)
def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


@lru_cache(maxsize=None)
def _scan(module: str, path: Path, modules: frozenset[str]) -> tuple[list[tuple[str, str | None]], list[tuple[str, str]]]:
    tree = _parse(path)
    found: list[tuple[str, str | None]] = []
    aliases: dict[str, str] = {}  # local name (or dotted chain) -> module of ours
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                found.append((a.name, None))
                if _ours(a.name):
                    aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                source = _resolve_relative(module, path.name == "__init__.py", node.level, node.module)
            for a in node.names:
                sub = f"{source}.{a.name}"
                if sub in modules:
                    found.append((sub, None))
                    aliases[a.asname or a.name] = sub
                else:
                    found.append((source, a.name))
    uses = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = _dotted(node.value)
            if base in aliases and aliases[base] in modules:
                uses.append((aliases[base], node.attr))
    return [(m, n) for m, n in found if _ours(m)], uses


def owner(target: str, modules: dict[str, Path]) -> str:
    """The module of ours that ``target`` (a dotted import) loads: itself or its longest known prefix."""
    parts = target.split(".")
    while ".".join(parts) not in modules and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (anywhere in its body)."""
    return {m: {owner(t, modules) for t, _ in imports_of(m, modules)} - {m} for m in modules}


MODULES = sources(REPO)
GRAPH = import_graph(MODULES)


def allowed(importer: str, imported: str) -> bool:
    src, dst = subpackage(importer), subpackage(imported)
    if src == dst or (importer, imported) in ALLOWED_EXCEPTIONS:
        return True
    kind, target_kind = layer(src), layer(dst)
    if kind == "core":
        return False
    if kind == "accounting":
        return target_kind == "core"
    if kind in ("paper", ROOT):
        return target_kind in ("core", "accounting") or (kind == ROOT and target_kind == "paper")
    if kind == "application":
        return target_kind != CHECKS
    if kind == CHECKS:
        return target_kind != "application" or dst == "claims"
    raise AssertionError(kind)


def layer_violations(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(m, t) for m, targets in graph.items() for t in targets if not allowed(m, t)}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(modules: dict[str, Path]) -> set[tuple[str, str]]:
    out = set()
    for m in modules:
        for target, name in attribute_uses(m, modules):
            if _private(name) and subpackage(target) != subpackage(m):
                out.add((m, f"{target}:{name}"))
        for target, name in imports_of(m, modules):
            mod = owner(target, modules)
            private_module = any(_private(p) for p in target.split(".")[2:])
            private_name = name is not None and _private(name)
            if (private_module or private_name) and subpackage(mod) != subpackage(m):
                out.add((m, f"{target}:{name}" if name else target))
    return out


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result = set()
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    result.add(frozenset(component))
    return result


def oversize(modules: dict[str, Path], repo: Path) -> set[str]:
    return {p.relative_to(repo).as_posix() for p in set(modules.values())
            if len(p.read_text().splitlines()) > MAX_LINES}


def _compare(current: set, known: set, what: str) -> None:
    new = current - known
    fixed = known - current
    assert not new, f"new {what} (fix them; do not add them to the allow-list): {sorted(map(sorted_repr, new))}"
    assert not fixed, f"fixed {what}: remove from the allow-list: {sorted(map(sorted_repr, fixed))}"


def sorted_repr(item) -> str:
    return repr(sorted(item)) if isinstance(item, frozenset) else repr(item)


# --- the tests -------------------------------------------------------------------------------------

def test_sources_found():
    assert "bcdp.core.errors" in MODULES and "bcdp.cli.main" in MODULES and "bcdp.checks" in MODULES
    assert len([m for m in MODULES if m.startswith("bcdp.checks.")]) > 50


def test_layers():
    _compare(layer_violations(GRAPH), KNOWN_LAYER_VIOLATIONS, "layer violations")


def test_no_private_imports_across_subpackages():
    _compare(private_imports(MODULES), KNOWN_PRIVATE_IMPORTS, "private cross-subpackage imports")


def test_no_import_cycles():
    _compare(cycles(GRAPH), KNOWN_CYCLES, "import cycles")


def test_module_size():
    _compare(oversize(MODULES, REPO), KNOWN_OVERSIZE, f"modules over {MAX_LINES} lines")


def test_allow_lists_name_existing_modules():
    for importer, imported in KNOWN_LAYER_VIOLATIONS | ALLOWED_EXCEPTIONS:
        assert importer in MODULES and imported in MODULES, (importer, imported)
    for component in KNOWN_CYCLES:
        assert component <= set(MODULES), component


def documented_tree(text: str) -> set[str]:
    """The .py paths listed in the ``text`` block of the "The tree" section (two spaces per level)."""
    block = text.split("## The tree", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    stack: list[str] = []
    listed = set()
    for line in block.splitlines():
        if not line.strip():
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2
        name = line.split()[0]
        del stack[depth:]
        if name.endswith("/"):
            stack.append(name.rstrip("/"))
        elif name.endswith(".py"):
            listed.add("/".join(stack + [name]))
    return listed


def test_architecture_document_lists_every_module():
    listed = documented_tree((REPO / "docs" / "architecture.md").read_text())
    actual = {p.relative_to(REPO).as_posix() for p in MODULES.values()}
    assert not actual - listed, f"add to docs/architecture.md: {sorted(actual - listed)}"
    assert not listed - actual, f"no longer exist, remove from docs/architecture.md: {sorted(listed - actual)}"


# --- the checker checks itself on small synthetic trees --------------------------------------------

@pytest.mark.parametrize("importer, imported, ok", [
    ("bcdp.core.numbers", "bcdp.core.errors", True),
    ("bcdp.core.numbers", "bcdp.accounting.conversion", False),
    ("bcdp.core.numbers", "bcdp", False),
    ("bcdp.accounting.conversion", "bcdp.core.numbers", True),
    ("bcdp.accounting.conversion", "bcdp.shuffle.bounds", False),
    ("bcdp.bayesian.notions", "bcdp.accounting.conversion", True),
    ("bcdp.bayesian.notions", "bcdp.partial.pure", False),
    ("bcdp.thesis6.chapter", "bcdp.shuffle.bounds", False),  # a future paper package
    ("bcdp.thesis6.chapter", "bcdp.core.numbers", True),
    ("bcdp.bayesian.notions", "bcdp.repro.tables", False),
    ("bcdp.repro.tables", "bcdp.partial.table1", True),
    ("bcdp.cli.main", "bcdp.claims.runner", True),
    ("bcdp.cli.main", "bcdp", True),
    ("bcdp.cli.check", "bcdp.checks._common", False),
    ("bcdp.claims.runner", "bcdp.checks", True),  # the documented exception
    ("bcdp.claims.runner", "bcdp.checks._common", False),
    ("bcdp.checks.prop1_ldp_bdp", "bcdp.claims", True),
    ("bcdp.checks.prop1_ldp_bdp", "bcdp.repro.tables", False),
    ("bcdp", "bcdp.bayesian.notions", True),
    ("bcdp", "bcdp.cli.main", False),
])
def test_rule_table(importer, imported, ok):
    assert allowed(importer, imported) is ok


def test_documented_tree_reader():
    text = "## The tree\n```text\na/  x\n  b.py  y\n  c/\n    d.py\n  e.py\nf.py\n```\n"
    assert documented_tree(text) == {"a/b.py", "a/c/d.py", "a/e.py", "f.py"}


def test_checker_on_a_synthetic_tree(tmp_path):
    pkg = tmp_path / "reference" / "bcdp"
    (pkg / "core").mkdir(parents=True)
    (pkg / "shuffle").mkdir()
    (tmp_path / "proofs_checks").mkdir()
    files = {
        "proofs_checks/__init__.py": "",
        "reference/bcdp/__init__.py": "",
        "reference/bcdp/core/__init__.py": "",
        "reference/bcdp/core/a.py": "def f():\n    from bcdp.core import b\n",  # import inside a function
        "reference/bcdp/core/b.py": "from . import c\n",  # relative import of a submodule
        "reference/bcdp/core/c.py": "import bcdp.core.a\nfrom bcdp.shuffle.x import _private\n",
        "reference/bcdp/shuffle/__init__.py": "",
        "reference/bcdp/shuffle/x.py": "from bcdp.shuffle import y\n" + "pass\n" * MAX_LINES,
        "reference/bcdp/shuffle/y.py": "from bcdp.shuffle.x import _ok\nimport os\n",
        "reference/bcdp/shuffle/z.py": "from bcdp.core import a as m\nimport bcdp.core.b\n"
                                       "m._f(); bcdp.core.b._g(); m.public(); os._exit\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).write_text(text)
    modules = sources(tmp_path)
    graph = import_graph(modules)
    assert graph["bcdp.core.a"] == {"bcdp.core.b"} and graph["bcdp.core.b"] == {"bcdp.core.c"}
    assert cycles(graph) == {frozenset({"bcdp.core.a", "bcdp.core.b", "bcdp.core.c"}),
                             frozenset({"bcdp.shuffle.x", "bcdp.shuffle.y"})}
    assert layer_violations(graph) == {("bcdp.core.c", "bcdp.shuffle.x")}
    assert private_imports(modules) == {("bcdp.core.c", "bcdp.shuffle.x:_private"),
                                        ("bcdp.shuffle.z", "bcdp.core.a:_f"), ("bcdp.shuffle.z", "bcdp.core.b:_g")}
    assert oversize(modules, tmp_path) == {"reference/bcdp/shuffle/x.py"}


def _mpmath_iv_uses(source: str) -> list[int]:
    """Lines doing ``mpmath.iv`` arithmetic: the attribute ``mpmath.iv`` (or ``mp.iv``), or
    ``from mpmath import iv``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "iv" and isinstance(node.value, ast.Name) \
                and node.value.id in ("mpmath", "mp"):
            lines.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and node.module == "mpmath" and any(a.name == "iv" for a in node.names):
            lines.append(node.lineno)
    return lines


def test_one_certification_backend():
    """Rule 9: certified arithmetic goes through bcdp.core.intervals (arb balls); no module of the
    package or the checks does mpmath.iv arithmetic (its exp/log1p/expm1 can exclude the truth)."""
    offenders = []
    for top in ("reference/bcdp", "proofs_checks"):
        for path in sorted((REPO / top).rglob("*.py")):
            if path.is_symlink() or (REPO / top / "checks") in path.parents:
                continue
            offenders += [f"{path.relative_to(REPO)}:{n}" for n in _mpmath_iv_uses(path.read_text())]
    assert offenders == []
    assert _mpmath_iv_uses("import mpmath\nx = mpmath.iv.mpf(1)\n") == [2]
    assert _mpmath_iv_uses("from mpmath import iv\n") == [1]
