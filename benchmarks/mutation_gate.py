"""Mutation-testing gate (mutmut 3) over the trusted parts of bcdp: on demand, not in the default CI run.

    pip install -e '.[dev]'                                   # mutmut (the dev extra)
    python3 benchmarks/mutation_gate.py                       # every gated package, each judged by its own tests
    python3 benchmarks/mutation_gate.py core accounting       # selected packages
    python3 benchmarks/mutation_gate.py --report              # re-read the last run, no new run
    python3 benchmarks/mutation_gate.py accounting --resume   # continue an interrupted run
    python3 benchmarks/mutation_gate.py shuffle --refresh     # bring the last run up to the checkout
    python3 benchmarks/mutation_gate.py core --survivors      # print each survivor's diff of the last run (read-only)
    python3 benchmarks/mutation_gate.py --check tests/core/test_x.py --mutants 'bcdp.core.spaces.*'
                                                              # which survivors a new test kills

mutmut 3 resolves module names from file paths under ``./``, ``src/`` or ``source/``; our sources are
under ``reference/`` and three data packages are mapped in by ``package-dir``.  So the script stages a
copy of the tree in ``build/mutation/<package>/`` (``src/bcdp`` with ``checks``, ``golden`` and ``data`` copied
in, ``tests/``, a ``pyproject.toml`` holding the mutmut configuration below), runs ``mutmut run`` there,
and reads the verdicts back.  Your checkout is never modified.

Each package is mutated in its own stage (``build/mutation/<package>/``) and judged by its own tests,
``tests/<package>/`` (``GATE_TESTS``): a bug in a package must be caught by the package's tests, and
the slow CLI, claims and reproduction tests (seconds to minutes each) would make a run take hours.
``--full-suite`` judges by every default test instead; its kill rate can only be higher.  Every
mutant is run against those of the selected tests that execute its function (mutmut records them in
a first pass, ``-m 'not slow'``).  A mutant is *killed* when one of
them fails or times out; a *survivor* is either a missing test or a documented equivalent mutant in
``benchmarks/mutation_equivalents.toml`` (its mutant name, the changed line it must still show, and
the reason it cannot change behaviour).  "No tests" counts as survived.

Kill rate of a package = killed / (mutants - documented equivalents).  The script exits 0 only when
every package meets ``--target`` (default 0.95) and no equivalent entry is stale; 1 otherwise.

Not mutated, by configuration (``DO_NOT_MUTATE_PATTERNS``): the text of error messages (the lines of a
``raise`` statement) and provenance strings (``source=`` / ``label=`` / ``evidence=`` arguments and
the ``SOURCE``/``PROVENANCE`` constants).  They are text, not arithmetic; the messages that are
contracts are pinned by the CLI tests (``tests/cli/``) that match on them.  Everything else --
numbers, comparisons, operators, arguments, defaults, keywords, returns -- is mutated.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# BCDP_MUTATION_STAGE: use another checkout's stages (--check from a git worktree: its test files,
# the main checkout's mutants)
STAGE_ROOT = Path(os.environ.get("BCDP_MUTATION_STAGE", ROOT / "build" / "mutation"))
EQUIVALENTS = ROOT / "benchmarks" / "mutation_equivalents.toml"

# package label -> module globs (relative to the staged src/): the core, the three papers' accountants
# and bounds, the allocation, the mechanisms and the conversions, the thesis Ch. 3 mechanisms (dme), and the
# Ch. 4 (fl) and Ch. 6 (bandits) packages.
GATE: dict[str, list[str]] = {
    "core": ["bcdp/core/*"],
    "accounting": ["bcdp/accounting/*"],
    "bayesian": [
        "bcdp/bayesian/allocation.py", "bcdp/bayesian/optimal_allocation/*", "bcdp/bayesian/mechanisms.py",
        "bcdp/bayesian/notions.py", "bcdp/bayesian/cdp_to_bcdp.py", "bcdp/bayesian/variants.py",
    ],
    "partial": [
        "bcdp/partial/pure.py", "bcdp/partial/concentrated.py", "bcdp/partial/dstar.py",
        "bcdp/partial/robust_error.py", "bcdp/partial/histogram.py",
    ],
    "shuffle": [
        "bcdp/shuffle/shuffled_bounds.py", "bcdp/shuffle/subsampled_bounds.py", "bcdp/shuffle/subsampled.py",
        "bcdp/shuffle/float_bounds.py", "bcdp/shuffle/composition.py", "bcdp/shuffle/rr_pair.py",
        "bcdp/shuffle/inputs.py", "bcdp/shuffle/subsampled_balls.py", "bcdp/shuffle/calibration.py",
        "bcdp/shuffle/kary_worst_pair.py", "bcdp/shuffle/cldp_rdp.py", "bcdp/shuffle/efm19_dp.py",
    ],
    "dme": ["bcdp/dme/*"],
    "fl": ["bcdp/fl/*"],
    "bandits": ["bcdp/bandits/*"],
    "randomness": ["bcdp/randomness/*"],
}

TIMEOUT_MULTIPLIER, TIMEOUT_CONSTANT = 4.0, 10.0

# the tests that judge a package's mutants: the package's own tests (tests/ mirrors the source tree).
# The CLI, claims and reproduction tests also exercise these functions and would kill more mutants,
# but each of them runs for seconds to minutes; a bug in a package must be caught by its own tests.
# --full-suite uses every default test instead (several hours on 2 cores).
GATE_TESTS: dict[str, list[str]] = {p: [f"tests/{p}"] for p in GATE}

# tests of the repository's text and layout (module sizes, citations, the README's commands): they read
# files, not behaviour, and the trampolined copy mutmut runs is not the repository's layout
LAYOUT_TESTS = ["tests/test_architecture.py", "tests/test_code_citations.py", "tests/test_docs_citations.py",
                "tests/test_readme.py"]

# tests that list the functions of the modules by introspection: under mutmut every function has
# trampolined twins (x_<name>__mutmut_<k>), so the lists differ; they test the namespace, not behaviour
INTROSPECTION_TESTS = ["tests/core/test_precision.py::test_every_public_precision_parameter_is_covered"]

DO_NOT_MUTATE_PATTERNS = [
    r"^\s*raise\s",                                   # error messages (the whole raise statement)
    r"^\s*(source|label|evidence|provenance)\s*=",    # provenance text passed as keyword arguments
    r"^\s*[A-Z_]*(SOURCE|PROVENANCE)[A-Z_]*\s*=",     # provenance constants
]


def stage_of(package: str) -> Path:
    """Each package runs in its own stage, so the results of several packages coexist."""
    return STAGE_ROOT / package


# what a stage holds of the checkout: (origin in the checkout, place in the stage)
STAGED_TREES = (("reference/bcdp", "src/bcdp"), ("proofs_checks", "src/bcdp/checks"), ("tables", "src/bcdp/golden"),
                ("docs", "src/bcdp/data"), ("tests", "tests"), ("benchmarks", "benchmarks"))
NOT_STAGED = ("__pycache__", ".hypothesis")


def _files(tree: Path, skip: tuple[str, ...] = ()) -> dict[str, Path]:
    """Relative path -> file under ``tree``, without caches and without the subtrees named in ``skip``."""
    out = {}
    for path in tree.rglob("*"):
        rel = path.relative_to(tree)
        if path.is_file() and not any(part in NOT_STAGED or part.endswith(".pyc") for part in rel.parts) \
                and rel.parts[0] not in skip:
            out[rel.as_posix()] = path
    return out


def sync_stage(stage_dir: Path) -> int:
    """Make the stage's copy of the checkout equal to the checkout: copy every file whose bytes differ
    (stamped now, so mutmut sees the source as newer than its mutants and regenerates that file) and
    delete what the checkout no longer has.  Returns the number of files changed."""
    changed = 0
    for origin, place in STAGED_TREES:
        skip = ("checks", "golden", "data") if place == "src/bcdp" else ()
        want, have = _files(ROOT / origin, skip), _files(stage_dir / place, skip)
        for rel, path in want.items():
            target = stage_dir / place / rel
            if rel not in have or target.read_bytes() != path.read_bytes():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
                os.utime(target)
                changed += 1
        for rel in have.keys() - want.keys():
            (stage_dir / place / rel).unlink()
            changed += 1
    for extra in ("README.md", "CHANGELOG.md"):
        shutil.copy2(ROOT / extra, stage_dir / extra)
    return changed


def stage(package: str, full_suite: bool) -> None:
    """Copy the tree into build/mutation/<package> (fresh each run) and write mutmut's configuration."""
    stage_dir = stage_of(package)
    if stage_dir.exists():
        shutil.rmtree(stage_dir)
    (stage_dir / "src" / "bcdp").mkdir(parents=True)
    sync_stage(stage_dir)
    # tests that read the repository layout (reference/, proofs_checks/, tables/, docs/) find the staged
    # copy: symlinks in the stage and, pre-created (mutmut keeps what exists), in mutmut's mutants/ tree
    for where in (stage_dir, stage_dir / "mutants"):
        where.mkdir(exist_ok=True)
        for name, target in (("reference", "src"), ("proofs_checks", "src/bcdp/checks"),
                             ("tables", "src/bcdp/golden"), ("docs", "src/bcdp/data")):
            (where / name).symlink_to(target, target_is_directory=True)
    # tests that run the CLI in a subprocess (cwd = a temporary directory, PYTHONPATH = mutants/src)
    # import the trampolined modules, and mutmut reads its configuration from the cwd at import: load
    # it from the stage first (sitecustomize runs at interpreter start-up, only under mutmut)
    (stage_dir / "mutants" / "src").mkdir(parents=True, exist_ok=True)
    (stage_dir / "mutants" / "src" / "sitecustomize.py").write_text(
        "import os\n"
        "if 'MUTANT_UNDER_TEST' in os.environ:\n"
        "    _cwd = os.getcwd()\n"
        f"    os.chdir({str(stage_dir / 'mutants')!r})\n"
        "    try:\n"
        "        from mutmut.configuration import config\n"
        "        config()\n"
        "    finally:\n"
        "        os.chdir(_cwd)\n")
    write_config(package, full_suite)


def write_config(package: str, full_suite: bool) -> None:
    """mutmut's configuration in the stage's pyproject.toml (the repository's own, then the gate's):
    the package's modules (GATE), the tests that judge them, timeouts."""
    stage_dir = stage_of(package)
    only = [f"src/{glob}" for glob in GATE[package]]
    selection = ["tests"] if full_suite else GATE_TESTS[package]
    config = {
        "source_paths": ["src/bcdp"],
        "only_mutate": only,
        "do_not_mutate_patterns": DO_NOT_MUTATE_PATTERNS,
        "pytest_add_cli_args_test_selection": selection,
        "also_copy": ["README.md", "CHANGELOG.md", "benchmarks"],
        # a mutant whose tests take 4x their clean time + 10 s is killed by timeout (mutmut's default,
        # 15x + 1 s, lets one looping mutant of a 30 s test set hold a worker for 7 minutes)
        "timeout_multiplier": TIMEOUT_MULTIPLIER,
        "timeout_constant": TIMEOUT_CONSTANT,
    }
    lines = [
        "[tool.pytest.ini_options]",
        f"testpaths = {json.dumps(selection)}",
        'markers = ["slow: long sweeps, excluded from the default run (run with -m slow)"]',
        "addopts = \"-m 'not slow' -p no:xdist -p no:cacheprovider " + " ".join(f"--ignore={t}" for t in LAYOUT_TESTS)
        + " " + " ".join(f"--deselect={t}" for t in INTROSPECTION_TESTS) + "\"",
        "",
        "[tool.mutmut]",
    ]
    lines += [f"{key} = {json.dumps(value)}" for key, value in config.items()]
    # the repository's own pyproject (tests read it: packages list, extras) followed by ours
    own = (ROOT / "pyproject.toml").read_text()
    own = re.sub(r"(?ms)^\[tool\.pytest\.ini_options\].*?(?=^\[|\Z)", "", own)
    (stage_dir / "pyproject.toml").write_text(own.rstrip() + "\n\n" + "\n".join(lines) + "\n")


def refresh(package: str, full_suite: bool = False) -> None:
    """Bring the last run of ``package`` up to the checkout without discarding what still holds.

    The stage's copy of the checkout is synced (``sync_stage``); mutmut then regenerates the mutants
    of every changed source file and, function by function (it hashes each function), forgets the
    verdicts of the functions whose code changed.  This function also forgets every survivor and
    every "no tests" verdict, so the new tests are run against them, except the documented
    equivalents and the survivors a ``--check`` with a still-unchanged test file has killed.  What is
    kept: the killed verdicts of unchanged functions (tests are only added; a fresh run, without
    ``--refresh``, re-measures everything)."""
    stage_dir = stage_of(package)
    if not (stage_dir / "mutants").exists():
        sys.exit(f"no earlier run of {package} to refresh: run the gate without --refresh first")
    changed = sync_stage(stage_dir)
    write_config(package, full_suite)              # the modules gated may have changed (GATE)
    # a module newly gated has a plain copy in mutants/ and no .meta: stamp its source now, so that
    # mutmut sees it newer than that copy and generates its mutants
    for glob in GATE[package]:
        for src in (stage_dir / "src").glob(glob):
            if src.suffix == ".py" and not (stage_dir / "mutants" / src.relative_to(stage_dir)).with_suffix(
                    ".py.meta").exists():
                os.utime(src)
    # mutmut regenerates only the Python files of its mutants/ tree: the data files under src/bcdp
    # (docs read by doctests, golden tables) are brought up to the stage here
    src, mut = stage_dir / "src" / "bcdp", stage_dir / "mutants" / "src" / "bcdp"
    for rel, path in _files(src).items():
        target = mut / rel
        if not rel.endswith(".py") and (not target.exists() or target.read_bytes() != path.read_bytes()):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    keep = killed_by_check(package) | set(load_equivalents())
    forgotten = 0
    for meta in (stage_dir / "mutants" / "src").rglob("*.meta"):
        data = json.loads(meta.read_text())
        codes = data.get("exit_code_by_key", {})
        for name, code in codes.items():
            if code in (0, 33) and name not in keep:
                codes[name] = None
                forgotten += 1
        meta.write_text(json.dumps(data, indent=4))
    print(f"refreshed {package}: {changed} files synced, {forgotten} survivors to run again", flush=True)


def run_mutmut(package: str, max_children: int) -> None:
    stage_dir = stage_of(package)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    log = stage_dir / "mutmut-run.log"
    with log.open("w") as out:
        proc = subprocess.run(["mutmut", "run", "--max-children", str(max_children)], cwd=stage_dir, env=env,
                              stdout=out, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        sys.exit(f"mutmut run failed (exit {proc.returncode}); see {log}")


def results(package: str) -> dict[str, str]:
    """mutant name -> status, as mutmut reports it ('killed', 'survived', 'no tests', 'timeout', ...)."""
    if not (stage_of(package) / "mutants").exists():
        return {}
    out = subprocess.run(["mutmut", "results", "--all", "true"], cwd=stage_of(package), capture_output=True, text=True,
                         check=True).stdout
    status = {}
    for line in out.splitlines():
        name, sep, verdict = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            status[name] = verdict.strip()
    return status


def diff_of(name: str) -> str:
    return subprocess.run(["mutmut", "show", name], cwd=stage_of(package_of(name) or ""), capture_output=True, text=True).stdout


def changed_lines(diff: str) -> list[str]:
    return [ln for ln in diff.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def package_of(name: str) -> str | None:
    from fnmatch import fnmatch

    module = name.split(".x_")[0].split(".xǁ")[0]
    path = module.replace(".", "/")
    for label, globs in GATE.items():
        for glob in globs:
            if fnmatch(path + ".py", glob) or fnmatch(path + "/__init__.py", glob):
                return label
    return None


def load_equivalents() -> dict[str, dict]:
    if not EQUIVALENTS.exists():
        return {}
    data = tomllib.loads(EQUIVALENTS.read_text())
    return {entry["mutant"]: entry for entry in data.get("equivalent", [])}


# "suspicious" is mutmut's verdict for any other non-zero exit of the test process, e.g. -6 when a
# mutant makes scipy abort the interpreter (SIGABRT): the tests did not pass, the mutant was detected.
KILLED = {"killed", "timeout", "segfault", "suspicious"}


def report(packages: list[str], show_survivors: bool) -> int:
    status = {name: verdict for p in packages for name, verdict in results(p).items()}
    later = set().union(*(killed_by_check(p) for p in packages)) if packages else set()
    equivalents = load_equivalents()
    stale = []
    per = {p: Counter() for p in packages}
    survivors: dict[str, list[str]] = {p: [] for p in packages}
    for name, verdict in sorted(status.items()):
        pkg = package_of(name)
        if pkg not in per:
            continue
        per[pkg]["mutants"] += 1
        if verdict == "not checked":          # the run was interrupted (or is still going)
            per[pkg]["not checked"] += 1
        elif verdict in KILLED:
            per[pkg]["killed"] += 1
        elif name in later:
            per[pkg]["killed"] += 1
            per[pkg]["killed by --check"] += 1
        elif name in equivalents:
            want = equivalents[name].get("change", "").strip().splitlines()
            if [ln.strip() for ln in want] != [ln.strip() for ln in changed_lines(diff_of(name))]:
                stale.append(name)
                per[pkg]["survived"] += 1
                survivors[pkg].append(name)
            else:
                per[pkg]["equivalent"] += 1
        else:
            per[pkg]["survived"] += 1
            per[pkg]["no tests" if verdict == "no tests" else "survived (tested)"] += 1
            survivors[pkg].append(name)
    for name in equivalents:
        if name not in status and package_of(name) in per:
            stale.append(name)

    ok = not stale
    rows = ["| package | mutants | killed (of which by --check) | documented equivalent | survived (of which no tests) "
            "| kill rate |",
            "|---|---:|---:|---:|---:|---:|"]
    summary = {}
    for pkg in packages:
        c = per[pkg]
        denominator = c["mutants"] - c["equivalent"] - c["not checked"]
        rate = c["killed"] / denominator if denominator else 1.0
        ok &= rate >= ARGS.target and not c["not checked"] and c["mutants"] > 0
        summary[pkg] = dict(c, kill_rate=rate)
        rows.append(f"| {pkg} | {c['mutants']} | {c['killed']} ({c['killed by --check']}) | {c['equivalent']} | "
                    f"{c['survived']} ({c['no tests']}) | {100 * rate:.1f}%"
                    + (f" ({c['not checked']} not checked yet)" if c["not checked"] else "")
                    + (" (not run)" if not c["mutants"] else "") + " |")
    print("\n".join(rows))
    if stale:
        print(f"\n{len(stale)} stale equivalent entries (mutant gone or its change differs): {', '.join(stale)}")
    STAGE_ROOT.mkdir(parents=True, exist_ok=True)
    # the report keeps the other packages' entries of earlier runs
    path = STAGE_ROOT / "report.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    merged = {key: {**(saved.get(key) if isinstance(saved.get(key), dict) else {}), **fresh} for key, fresh in
              (("packages", summary), ("survivors", survivors),
               ("stale_equivalents", {p: [n for n in stale if package_of(n) == p] for p in packages}))}
    path.write_text(json.dumps(merged, indent=1))
    if show_survivors:
        for pkg in packages:
            for name in survivors[pkg]:
                print(f"\n## {name} ({status[name]})\n" + "\n".join(changed_lines(diff_of(name))))
    print(f"\ngate {'PASSED' if ok else 'FAILED'} (target {100 * ARGS.target:.0f}% per package); "
          f"survivor list: {STAGE_ROOT / 'report.json'}")
    return 0 if ok else 1


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pytest_under(name: str, stage_dir: Path, test_files: list[str]) -> int:
    env = dict(os.environ, MUTANT_UNDER_TEST=name, PYTHONDONTWRITEBYTECODE="1")
    env["PYTHONPATH"] = str(stage_dir / "mutants" / "src")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                           *test_files], cwd=stage_dir / "mutants", env=env, capture_output=True,
                          text=True).returncode


def check(test_files: list[str], patterns: list[str]) -> int:
    """Run the given test files (copied fresh from the checkout into the package's stage) under each
    survivor of the last run whose name matches one of ``patterns`` (fnmatch); print which of them the
    tests now kill.

    The files must first pass on the unmutated stage (otherwise a "kill" could be a test of code
    changed since the run).  Each kill is recorded in ``<stage>/check_kills.json`` with the SHA-256 of
    every test file that killed it; ``--report`` counts a survivor as killed by a later test only
    while one of those files is unchanged in the checkout (column "killed by --check").  The next full
    run re-measures everything."""
    from concurrent.futures import ThreadPoolExecutor
    from fnmatch import fnmatch

    report_path = STAGE_ROOT / "report.json"
    if not report_path.exists():
        sys.exit("no previous run in build/mutation: run the gate first")
    survivors = [name for names in json.loads(report_path.read_text())["survivors"].values() for name in names
                 if not patterns or any(fnmatch(name, p) for p in patterns)]
    packages = sorted({package_of(name) for name in survivors})
    for package in packages:
        for test in test_files:
            target = stage_of(package) / "mutants" / test
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / test, target)
        clean = _pytest_under("", stage_of(package), test_files)
        if clean != 0:
            sys.exit(f"{', '.join(test_files)} fail(s) on the unmutated stage of {package} (pytest exit "
                     f"{clean}): the stage is older than the code they test; re-run the gate")
    hashes = {test: _sha256(ROOT / test) for test in test_files}

    def one(name: str) -> tuple[str, str]:
        code = _pytest_under(name, stage_of(package_of(name)), test_files)
        return name, "killed" if code == 1 else ("survived" if code == 0 else f"exit {code}")

    killed: list[str] = []
    with ThreadPoolExecutor(max_workers=max(1, ARGS.max_children)) as pool:
        for name, verdict in pool.map(one, survivors):
            if verdict == "killed":
                killed.append(name)
            print(f"{verdict:9s} {name}", flush=True)
    for package in packages:
        path = stage_of(package) / "check_kills.json"
        record = json.loads(path.read_text()) if path.exists() else {}
        for name in killed:
            if package_of(name) == package:
                record.setdefault(name, {}).update(hashes)
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False))
    print(f"{len(killed)}/{len(survivors)} of the selected survivors killed by {', '.join(test_files)}")
    return 0


def killed_by_check(package: str) -> set[str]:
    """Survivors of the last run killed by a later --check whose test file is unchanged."""
    path = stage_of(package) / "check_kills.json"
    if not path.exists():
        return set()
    current: dict[str, str | None] = {}

    def sha_now(test: str) -> str | None:
        if test not in current:
            current[test] = _sha256(ROOT / test) if (ROOT / test).exists() else None
        return current[test]

    return {name for name, files in json.loads(path.read_text()).items()
            if any(sha_now(test) == sha for test, sha in files.items())}


def main() -> int:
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", help=f"gated packages (default: all of {', '.join(GATE)})")
    parser.add_argument("--report", action="store_true", help="re-read the last run in build/mutation")
    parser.add_argument("--survivors", action="store_true",
                        help="print every survivor's changed lines of the last run (read-only, like --report)")
    parser.add_argument("--check", nargs="+", metavar="TEST_FILE",
                        help="run these test files under the last run's survivors (matching --mutants)")
    parser.add_argument("--mutants", nargs="*", default=[], metavar="PATTERN",
                        help="with --check: fnmatch patterns of survivor names, e.g. 'bcdp.core.spaces.*'")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--target", type=float, default=0.95)
    parser.add_argument("--resume", action="store_true",
                        help="continue an interrupted run in the existing stages (mutmut keeps its verdicts)")
    parser.add_argument("--refresh", action="store_true",
                        help="bring the last run up to the checkout: re-run changed functions and survivors only")
    parser.add_argument("--full-suite", action="store_true",
                        help="judge mutants by every default test, not only the package's own tests")
    ARGS = parser.parse_args()
    packages = ARGS.packages or list(GATE)
    unknown = sorted(set(packages) - set(GATE))
    if unknown:
        parser.error(f"unknown package(s) {', '.join(unknown)}; choose from {', '.join(GATE)}")
    if shutil.which("mutmut") is None:
        sys.exit("mutmut is not installed: pip install -e '.[dev]'")
    if ARGS.check:
        return check(ARGS.check, ARGS.mutants)
    if ARGS.survivors and (ARGS.refresh or ARGS.resume):
        parser.error("--survivors reads the last run; run --refresh / --resume first, then --survivors")
    if not (ARGS.report or ARGS.survivors):        # --survivors never restages: it reads the last run
        for package in packages:
            print(f"mutating {package} (tests: {'all' if ARGS.full_suite else ' '.join(GATE_TESTS[package])})",
                  flush=True)
            if ARGS.refresh:
                refresh(package, ARGS.full_suite)
            elif not (ARGS.resume and (stage_of(package) / "mutants").exists()):
                stage(package, ARGS.full_suite)
            run_mutmut(package, ARGS.max_children)
    return report(packages, ARGS.survivors)


ARGS: argparse.Namespace
if __name__ == "__main__":
    sys.exit(main())
