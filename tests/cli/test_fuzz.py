"""Hypothesis fuzz of the ``bcdp`` command line and of the JSON readers (issue 12).

``bcdp.cli.main.main(argv)`` is driven in-process with command lines drawn from the real argparse
parsers (every subcommand and every option is discovered by walking :func:`bcdp.cli.main.build_parser`,
not listed by hand), with values mixing valid numbers and edge strings ('', 'inf', 'nan', '1e400',
'1/0', huge digit strings, unicode, whitespace, '--', ...), and with JSON files (recursive JSON,
documents shaped like the audit formats with fuzzed entries, and raw byte edges: non-UTF-8, deep
nesting, duplicate keys, NaN/Infinity literals) for the commands that read a file (``audit``,
``partial audit``), and damaged golden copies for ``reproduce --golden DIR``.

The property is the error contract of :mod:`bcdp.cli.main`:

* the exit code is 0, 1 or 2: never 3 (an internal error) and never an uncaught exception;
* a failure (exit 2) writes exactly one line to stderr, never a traceback;
* under ``--json`` stdout is strict JSON (``NaN``/``Infinity`` refused), and an error is the object
  ``{"error": {"type", "message"}, "exit_code"}`` whose message is the stderr line.

The commands whose successful runs are long (``check`` runs every claim check, ``tables`` and
``reproduce`` regenerate the tables) get their argument handling fuzzed with the long work replaced
by stubs; every other command runs for real, with sizes kept small (n <= 40, at most 4 orders, at
most 8 inputs or 6 datasets) so no example takes long, and each command line is stopped after
:data:`EXAMPLE_SECONDS` (a hang fails instead of stalling the suite).  The default run is bounded
(derandomized, < 60 s in total); ``-m slow`` runs a bigger sweep with fresh random examples.

stdout and stderr are captured as a UTF-8 interpreter writes them (stdout strict, stderr with
backslash escapes), so that a message the real streams cannot encode is an error here too.

Defects this fuzz found (each fixed, with a named regression case):

* a kernel row of 5000-digit strings: the message "sums to <total>" raised Python's 4300-digit
  int-to-str ValueError (exit 3): ``fuzz-kernel-row-of-5000-digit-strings``,
  ``fuzz-negative-5000-digit-entry``, ``fuzz-partial-row-of-5000-digit-strings`` in
  tests/cli/test_bad_inputs_audit.py; the same for ``allocate --zeta 99...9`` (5000 nines):
  ``fuzz-allocate-zeta-of-5000-digits``.  Following it up showed valid inputs failing the same
  way (an exact LDP ratio of 5000 digits could not be printed):
  ``test_exact_results_beyond_4300_digits_are_written_out``;
* a JSON number whose exponent ``decimal.Decimal`` cannot hold (``651e4000000000000000000``):
  a bare InvalidOperation (exit 3): ``fuzz-json-exponent-beyond-decimal``;
* ``--out`` naming a directory that is not UTF-8 (byte 0xff): the ``wrote ...`` line raised
  UnicodeEncodeError on a strict UTF-8 stdout (exit 3):
  ``test_fuzz_undecodable_out_directory_is_echoed_not_an_internal_error`` in
  tests/cli/test_cli_errors.py;
* ``rdp shuffle --eps0 1e-300`` (any eps0 below about 1.1e-16, where e^eps0 rounds to 1 in float64):
  the float64 search over all pairs put log(0) = -inf into its window width, NaN, then int(NaN)
  (exit 3); ``--eps0 50`` likewise at the other end (q = 1/(1 + e^-eps0) rounds to 1 above about
  36.7; NaN in the JSON, OverflowError above 709.8); now one-line refusals pointing to the certified
  path: four cases in ``BAD_RDP_INPUTS`` of tests/cli/test_cli_rdp.py;
* ``reproduce --golden DIR`` with a golden copy that is not UTF-8 text, or a fig3_trials.csv cell
  that is not a number: UnicodeDecodeError / ValueError (exit 3); now a differing copy (exit 1):
  ``test_fuzz_damaged_golden_copies_differ_not_crash`` in tests/repro/test_packaging.py (fixing it
  showed that a golden MSE "nan" matched anything: ``test_nan_in_the_golden_fig3_trials_does_not_match``);
* ``--js`` (an abbreviation argparse accepts for ``--json``): a successful run printed JSON but a
  parse error printed no JSON object: ``test_parse_errors_under_abbreviated_json_are_json_too`` in
  tests/cli/test_cli_errors.py.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import signal
import sys
import tempfile
import threading
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bcdp.cli import main as cli_main
from bcdp.cli.main import build_parser

#: examples of the default run, per test (the whole file stays under a minute on a shared 2-core box)
DEFAULT_EXAMPLES = {"argv": 300, "audit": 200, "partial": 150, "raw": 120, "golden": 80}
#: examples of the slow sweep, per test
SLOW_EXAMPLES = {"argv": 3000, "audit": 1500, "partial": 1200, "raw": 500, "golden": 600}


# ------------------------------------------------------------------ running one command line

#: wall-clock cap of one command line (the sizes are kept small: a typical example takes 10-100 ms,
#: the slowest about a second); beyond it the example fails instead of stalling the suite
EXAMPLE_SECONDS = 30


class ExampleTooSlow(Exception):
    """Raised in the command by :func:`time_cap` (not a BcdpError, so bcdp maps it to exit 3 and the
    contract check fails with the command line)."""


@contextmanager
def time_cap(seconds: float, argv: list[str]):
    """Interrupt the command after ``seconds`` (SIGALRM; main thread on POSIX, else no cap)."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise ExampleTooSlow(f"{argv!r} ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def run_cli(argv: list[str]) -> Outcome:
    """``main(argv)`` with stdout/stderr captured as the real interpreter encodes them under a UTF-8
    locale (stdout strict, stderr backslashreplace).  An exception escaping ``main`` propagates (a
    failure)."""
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", errors="strict", newline="", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="backslashreplace", newline="", write_through=True)
    with redirect_stdout(out), redirect_stderr(err), time_cap(EXAMPLE_SECONDS, argv):
        try:
            code = cli_main(list(argv))
        except SystemExit as exc:   # argparse: parse errors (2), --help / --version (0)
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    # bcdp.cli.main switches stdout to surrogateescape (undecodable file names written back as bytes)
    return Outcome(code, out_b.getvalue().decode("utf-8", "surrogateescape"), err_b.getvalue().decode("utf-8"))


def _strict_json(text: str):
    def refuse(name: str):
        raise ValueError(f"non-strict JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def _json_requested(argv: list[str]) -> bool:
    """``--json`` given as an option, or an abbreviation that argparse accepts for it (``--js``),
    before a ``--`` that ends the options."""
    head = argv[:argv.index("--")] if "--" in argv else argv
    return any(len(t) >= 3 and "--json".startswith(t.split("=", 1)[0]) for t in head)


def check_contract(argv: list[str], res: Outcome) -> None:
    """The error contract of bcdp.cli.main (module docstring)."""
    context = f"argv={argv!r} code={res.code} stderr={res.err[-1500:]!r} stdout={res.out[:500]!r}"
    assert res.code in (0, 1, 2), context
    assert "Traceback" not in res.err and "internal error" not in res.err, context
    help_or_version = any(a in ("-h", "--help", "--version") for a in argv)
    if res.code == 2:
        assert res.err.endswith("\n") and res.err.count("\n") == 1, context
        assert res.err.startswith("bcdp"), context
    if _json_requested(argv) and not (help_or_version and res.code == 0):
        try:
            payload = _strict_json(res.out)
        except ValueError as exc:   # not JSON, or NaN / Infinity
            raise AssertionError(f"stdout is not strict JSON ({exc}): {context}") from exc
        if res.code == 2:
            assert set(payload) == {"error", "exit_code"} and payload["exit_code"] == 2, context
            assert set(payload["error"]) == {"type", "message"}, context
            assert isinstance(payload["error"]["type"], str) and payload["error"]["type"], context
            message = payload["error"]["message"].encode("utf-8", "backslashreplace").decode("utf-8")
            assert message == res.err.rstrip("\n").split(": ", 1)[1], context   # as stderr escapes it


@pytest.mark.parametrize("argv, outcome", [
    (["audit", "f"], Outcome(3, "", "bcdp audit: internal error (ValueError): x (a bug in bcdp...)\n")),
    (["audit", "f"], Outcome(2, "", "bcdp audit: one\ntwo\n")),
    (["audit", "f"], Outcome(2, "", "")),
    (["audit", "f", "--json"], Outcome(2, "", "bcdp audit: bad\n")),
    (["audit", "f", "--json"], Outcome(0, '{"x": NaN}', "")),
    (["audit", "f", "--json"], Outcome(2, '{"error": {"type": "E", "message": "other"}, "exit_code": 2}',
                                       "bcdp audit: bad\n")),
    (["audit", "f", "--json"], Outcome(2, '{"error": "bad", "exit_code": 2}', "bcdp audit: bad\n")),
])
def test_the_contract_check_can_fail(argv, outcome):
    """The property is not vacuous: each broken outcome is caught."""
    with pytest.raises(AssertionError):
        check_contract(argv, outcome)


def test_the_contract_check_accepts_a_good_error():
    check_contract(["audit", "f", "--json"],
                   Outcome(2, '{"error": {"type": "InputFileError", "message": "bad"}, "exit_code": 2}\n',
                           "bcdp audit: bad\n"))


def test_the_time_cap_interrupts_a_slow_command(monkeypatch):
    """A command that hangs is stopped at the cap and reported (exit 3 fails the contract)."""
    import time

    import bcdp.cli.zcdp

    monkeypatch.setattr(bcdp.cli.zcdp, "run", lambda args: time.sleep(60))
    monkeypatch.setattr(sys.modules[__name__], "EXAMPLE_SECONDS", 0.5)
    start = time.perf_counter()
    res = run_cli(["zcdp", "to-dp", "--rho", "1", "--delta", "0.1"])
    assert time.perf_counter() - start < 10
    assert res.code == 3 and "ExampleTooSlow" in res.err


# ------------------------------------------------------------------ the parsers, discovered

def leaf_parsers() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every runnable command line prefix (``("rdp", "to-dp")``, ...) with its parser."""
    out: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            out[path] = parser
            return
        for name, sub in subs[0].choices.items():
            walk(sub, path + (name,))

    walk(build_parser(), ())
    return out


LEAVES = leaf_parsers()


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def _positionals(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not a.option_strings]


def test_the_parsers_are_discovered():
    """The walk finds every subcommand of bcdp.cli.main.COMMANDS and their options."""
    from bcdp.cli.main import COMMANDS

    assert {path[0] for path in LEAVES} == set(COMMANDS)
    assert ("partial", "audit") in LEAVES and ("rdp", "to-dp") in LEAVES and ("zcdp", "to-dp") in LEAVES
    assert "--workers" in {s for a in _options(LEAVES[("tables",)]) for s in a.option_strings}
    assert [a.dest for a in _positionals(LEAVES[("audit",)])] == ["file"]


# ------------------------------------------------------------------ values

#: option values naming a file or directory (the tests run in a temporary working directory)
PATH_DESTS = {"file", "out", "golden"}

EDGE_STRINGS = [
    "", " ", "\t", "\n", "inf", "-inf", "+inf", "Infinity", "nan", "NaN", "-nan", "1e400", "-1e400", "1e-400",
    "1/0", "0/0", "-1/0", "1/3", "-1/3", "2/4", "1/-3", "0", "-0", "-1", "1", "2", "0.5", "1e20", "1e100",
    "1e-20", "1e10000", "1e10001", "1e-10001", "1" + "0" * 400, "9" * 5000, "9" * 10001, "0." + "0" * 300 + "1",
    " 1 ", "1 /3", "1_000", "0x10", "1e", ".5", "5.", "+1", "--", "-", ",", "1,", ",1", ",,", "1,,2",
    "True", "None", "null", "[]", "{}", "\u0661", "\u00b2", "\u00bd", "\u2167", "\uff11", "\u00a0", "\u200b",
    "\udcff", "x\udcfey", "é", "日本", "2,3,4.5", "0.2,0.2,2", "2,3", "-1,2", "1e400,2", "inf,2", "2," * 5,
    "cks", "mironov", "asoodeh", "paper_examples", "fig3", "shuffle", "-h", "--help", "--version", "--json",
]


def _bound_names() -> list[str]:
    from bcdp.cli.rdp import ALIASES, CURVE_BOUNDS

    return list(ALIASES) + list(CURVE_BOUNDS)


def _table_names() -> list[str]:
    from bcdp.cli.tables import EXTRA_TABLES
    from bcdp.repro.tables import REGISTRY

    return list(REGISTRY) + list(EXTRA_TABLES)


small_numbers = st.one_of(
    st.integers(-3, 64).map(str),
    st.fractions(min_value=-2, max_value=10, max_denominator=20).map(str),
    st.decimals(min_value=-2, max_value=10, places=3, allow_nan=False, allow_infinity=False).map(str),
    st.sampled_from(["1e-3", "2.5e-1", "1e-300", "3e0", "0.999", "1.000001"]),
)
number_lists = st.lists(small_numbers, min_size=1, max_size=4).map(",".join)
free_text = st.text(st.characters(blacklist_characters="\x00/\\", blacklist_categories=("Cs",)), max_size=12)
values = st.one_of(small_numbers, small_numbers, number_lists, st.sampled_from(EDGE_STRINGS), free_text,
                   st.sampled_from(_bound_names() + _table_names()))
#: names relative to the working directory: never absolute, never with a '/' beyond the ones written here
path_values = st.one_of(st.sampled_from(["input.json", "missing.json", "", ".", "outdir", "input.json/sub",
                                         "newdir", "\udcff", "é", " "]), free_text)


def _decimals(*texts: str) -> st.SearchStrategy[str]:
    return st.sampled_from(list(texts))


def _lists(element: st.SearchStrategy[str], max_size: int = 4) -> st.SearchStrategy[str]:
    return st.lists(element, min_size=1, max_size=max_size).map(",".join)


#: values that are valid for an option (by its dest; (command, dest) where commands differ), kept
#: small so that every valid run is quick (n <= 40, at most 4 orders): about half of the command
#: lines then pass validation and run for real
VALID = {
    "n": st.integers(1, 40).map(str) | _decimals("1e1", "2e1", "32"),
    "eps0": _decimals("0.1", "0.5", "1", "2", "1/2", "3", "0.01", "5", "1e-300", "1e-20", "1e-9", "20", "50"),
    "alpha": _lists(_decimals("2", "3", "4.5", "1.5", "8", "16", "32", "64", "1.01", "1.000001", "256", "1000")),
    "orders": _lists(st.integers(2, 40).map(str)),
    ("rdp", "delta"): _decimals("1e-6", "1/1000", "0.01", "1e-10", "0.5", "1e-300", "0.999999"),
    ("zcdp", "delta"): _decimals("1e-6", "1/1000", "0.01", "1e-10", "0.5", "1e-300", "0.999999"),
    ("allocate", "delta"): _lists(_decimals("0.2", "2", "1", "1/2", "0.05", "3"), 5),
    "eps": _decimals("1", "2", "0.5", "1/3", "4", "1e-300", "100"),
    "q": _decimals("0", "0.3", "1", "1/2", "0.99", "0.01", "1e-300"),
    "zeta": _decimals("0.5", "1", "0.65", "2/3", "0.01", "1e-300"),
    "rho": _decimals("0", "0.1", "1/2", "2", "1e-9", "10", "1e-300", "1e6"),
    "rounds": _decimals("1", "2", "10", "1e3", "100", "1e100"),
    "trials": _decimals("1", "5", "1000"),
    "seed": _decimals("0", "7", "12345"),
    "workers": _decimals("1", "2", "4"),
    "fig3_trials": _decimals("1", "20"),
    "method": st.sampled_from(["cks", "mironov", "asoodeh"]),
}


def option_value(path: tuple[str, ...], action: argparse.Action) -> st.SearchStrategy[str]:
    """Mostly (3 in 4) a valid value for the option, else a value from the edge mix."""
    if action.dest in PATH_DESTS:
        return path_values
    if action.dest == "bound":
        valid = st.sampled_from(_bound_names())
    elif action.choices:
        valid = st.sampled_from(list(action.choices))
    else:
        valid = VALID.get((path[0], action.dest), VALID.get(action.dest, values))
    return st.integers(0, 3).flatmap(lambda k: valid if k else values)


@st.composite
def command_lines(draw) -> list[str]:
    """A command line of one leaf parser: its words, some of its options (each with a value from
    :func:`option_value`), its positionals, and now and then a stray token, in a random order."""
    path = draw(st.sampled_from(sorted(LEAVES)))
    parser = LEAVES[path]
    groups: list[list[str]] = []
    for action in _options(parser):
        if not (action.required or draw(st.booleans())):
            continue
        flag = draw(st.sampled_from(action.option_strings))
        if flag.startswith("--") and len(flag) > 3 and draw(st.integers(0, 9)) == 0:
            flag = flag[:draw(st.integers(3, len(flag) - 1))]      # an abbreviation (argparse allows them)
        if action.nargs == 0:
            groups.append([flag])
        elif draw(st.integers(0, 9)) == 0:       # --opt=value form
            groups.append([f"{flag}={draw(option_value(path, action))}"])
        else:
            groups.append([flag, draw(option_value(path, action))])
    for action in _positionals(parser):
        if action.dest == "names":                # bcdp tables [NAME ...]
            groups += [[draw(st.one_of(st.sampled_from(_table_names()), values))]
                       for _ in range(draw(st.integers(0, 2)))]
        elif draw(st.integers(0, 19)):
            groups.append([draw(st.one_of(st.just("input.json"), path_values))])
    for _ in range(draw(st.integers(0, 2)) if draw(st.integers(0, 5)) == 0 else 0):
        groups.insert(draw(st.integers(0, len(groups))), [draw(values)])
    groups = draw(st.permutations(groups))
    if draw(st.integers(0, 19)) == 0:                # no command, a bare group, an unknown word
        path = path[:draw(st.integers(0, len(path) - 1))] + tuple(draw(st.lists(values, max_size=1)))
    return list(path) + [tok for g in groups for tok in g]


# ------------------------------------------------------------------ stubs for the long commands

@pytest.fixture
def quick_long_commands(monkeypatch):
    """``check``, ``tables`` and ``reproduce`` with their long work replaced (argument handling kept):
    no claim check is run and no table is written."""
    import bcdp.claims.runner
    import bcdp.cli.reproduce
    import bcdp.repro.bandit_figures
    import bcdp.repro.ch7_figures
    import bcdp.repro.dme_figures
    import bcdp.repro.fig3
    import bcdp.repro.fl_figures
    import bcdp.repro.shuffle_figures
    import bcdp.repro.tables

    monkeypatch.setattr(bcdp.claims.runner, "run_all", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.tables, "write_tables", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.tables, "compare_with_golden", lambda *a, **k: {})
    monkeypatch.setattr(bcdp.repro.shuffle_figures, "write_shuffle_figures", lambda *a, **k: [])
    # the chapter figure writers (seconds each, the bandit Monte Carlo ~20 s) write nothing either
    monkeypatch.setattr(bcdp.repro.dme_figures, "write_dme_figures", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.fl_figures, "write_fl_figures", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.bandit_figures, "write_bandit_figures", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.ch7_figures, "write_ch7_figures", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.fig3, "write_fig3", _fig3_arguments_only)
    monkeypatch.setattr(bcdp.cli.reproduce, "reproduce_fig3", lambda *a, **k: "match")
    monkeypatch.setattr(bcdp.cli.reproduce, "reproduce_figures", lambda *a, **k: {})


def _fig3_arguments_only(out_dir, trials=1000, seed=0, workers=2, progress=True, **kw):
    from bcdp.repro.fig3 import check_fig3_arguments

    check_fig3_arguments(trials, seed, workers)
    return []


class WorkDir:
    """A fresh temporary working directory for one example (relative paths of the fuzz land in it)."""

    def __enter__(self) -> Path:
        self._tmp = tempfile.TemporaryDirectory(prefix="bcdp-fuzz-")
        self._old = os.getcwd()
        os.chdir(self._tmp.name)
        return Path(self._tmp.name)

    def __exit__(self, *exc) -> None:
        os.chdir(self._old)
        self._tmp.cleanup()


def _fuzz_settings(key: str, slow: bool = False):
    return settings(max_examples=(SLOW_EXAMPLES if slow else DEFAULT_EXAMPLES)[key], deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large], derandomize=not slow)


# ------------------------------------------------------------------ JSON documents

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(EDGE_STRINGS), free_text,
)
json_values = st.recursive(json_scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(free_text, kids, max_size=4)), max_leaves=20)
#: kernel / prior entries: exact strings, JSON numbers (small, huge, tiny), edge strings, junk
entries = st.one_of(
    st.sampled_from(["1/2", "1/3", "2/3", "1/4", "3/4", "0", "1", 0, 1, "0.5"]),
    st.fractions(min_value=0, max_value=1, max_denominator=12).map(str),
    st.sampled_from(EDGE_STRINGS), json_scalars, st.just([]), st.just({}),
)
labels = st.one_of(st.integers(-2, 3), st.sampled_from(["a", "b", 0.5, True, None, [0, 1], "1/2"]), json_scalars)


@st.composite
def pmf_row(draw, m: int) -> list:
    """A row of m entries: mostly an exact pmf, sometimes with fuzzed entries."""
    weights = draw(st.lists(st.integers(0, 4), min_size=m, max_size=m))
    if sum(weights) == 0:
        weights[0] = 1
    row: list = [f"{w}/{sum(weights)}" for w in weights]
    if draw(st.integers(0, 11)) == 0:
        row[draw(st.integers(0, m - 1))] = draw(entries)
    return row


def _maybe(draw, good, junk=json_values):
    """Usually ``good``, sometimes (1 in 15) any JSON value (the readers must refuse it cleanly)."""
    return draw(junk) if draw(st.integers(0, 14)) == 0 else good


@st.composite
def audit_documents(draw) -> dict:
    """Documents shaped like ``bcdp audit`` input (docs/file_format.md) with fuzzed parts."""
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3).filter(lambda s: _prod(s) <= 8))
    import itertools

    inputs = [list(p) for p in itertools.product(*(range(k) for k in shape))]
    if draw(st.integers(0, 4)) == 0:       # drop, repeat or relabel a point
        k = draw(st.integers(0, len(inputs) - 1))
        choice = draw(st.integers(0, 2))
        if choice == 0 and len(inputs) > 1:
            inputs.pop(k)
        elif choice == 1:
            inputs.append(list(inputs[k]))
        else:
            inputs[k] = [draw(labels) for _ in inputs[k]]
    m = draw(st.integers(1, 4))
    outputs = list(range(m)) if draw(st.booleans()) else [draw(labels) for _ in range(m)]
    doc = {"inputs": _maybe(draw, inputs), "outputs": _maybe(draw, outputs),
           "kernel": _maybe(draw, [draw(pmf_row(m)) for _ in inputs])}
    if draw(st.booleans()):
        doc["prior"] = _maybe(draw, draw(pmf_row(len(inputs))))
    if draw(st.integers(0, 9)) == 0:
        doc[draw(free_text)] = draw(json_values)
    if draw(st.integers(0, 9)) == 0:
        doc.pop(draw(st.sampled_from(sorted(doc))))
    return doc


@st.composite
def partial_documents(draw) -> dict:
    """Documents shaped like ``bcdp partial audit`` input with fuzzed parts (n <= 3 records)."""
    import itertools

    n = draw(st.integers(1, 3))
    sizes = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
    records = list(itertools.product(*(range(s) for s in sizes)))
    all_ds = [list(map(list, ds)) for ds in itertools.product(records, repeat=n)]
    k = draw(st.integers(1, min(6, len(all_ds))))
    datasets = draw(st.permutations(all_ds))[:k] if len(all_ds) <= 8 else all_ds[:k]
    if draw(st.integers(0, 5)) == 0 and datasets:
        datasets[0] = [[draw(labels) for _ in sizes] for _ in range(n)]
    m = draw(st.integers(1, 3))
    doc = {"n": _maybe(draw, n, st.one_of(json_scalars, st.just(10 ** 6), st.just(0))),
           "datasets": _maybe(draw, datasets), "outputs": _maybe(draw, list(range(m))),
           "kernel": _maybe(draw, [draw(pmf_row(m)) for _ in datasets])}
    if draw(st.booleans()):
        doc["attributes"] = _maybe(draw, [list(range(s)) for s in sizes])
    if draw(st.integers(0, 9)) == 0:
        doc.pop(draw(st.sampled_from(sorted(doc))))
    return doc


def _prod(s):
    out = 1
    for v in s:
        out *= v
    return out


def _dumps(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", errors="surrogatepass")


@st.composite
def raw_files(draw, partial: bool) -> bytes:
    """Byte-level edges around a document of the command's format: non-UTF-8 bytes, a BOM, deep
    nesting, duplicate keys, NaN/Infinity literals, huge and tiny number literals, truncation, junk."""
    base = _dumps(draw(partial_documents() if partial else audit_documents()))
    kind = draw(st.integers(0, 9))
    if kind == 0:
        pos = draw(st.integers(0, len(base)))
        return base[:pos] + draw(st.binary(min_size=1, max_size=4)) + base[pos:]
    if kind == 1:
        return draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b""])) + base
    if kind == 2:
        depth = draw(st.sampled_from([63, 64, 65, 100, 1000, 100_000]))
        return b"[" * depth + b"]" * depth
    if kind == 3:
        key = draw(st.sampled_from([b'"kernel"', b'"inputs"', b'"n"', b'"outputs"']))
        return base[:-1] + b", " + key + b": " + draw(st.sampled_from([b"[]", b"1", b"null"])) + b"}"
    if kind == 4:
        lit = draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity", b"1e400", b"1e-400", b"1e99999999",
                                    b"-0", b"1E+10000", b"0e-99999", b"1" * 5000, b"-" + b"9" * 4001]))
        return base.replace(b'"1/2"', lit, 1).replace(b"0", lit, 1)
    if kind == 5:
        return base[:draw(st.integers(0, len(base)))]
    if kind == 6:
        return draw(st.binary(max_size=40))
    if kind == 7:
        return _dumps(draw(json_values))
    return base


def _write_and_run(raw: bytes, argv: list[str]) -> None:
    with WorkDir() as tmp:
        (tmp / "input.json").write_bytes(raw)
        argv = [str(tmp / "input.json") if a == "FILE" else a for a in argv]
        check_contract(argv, run_cli(argv))


FILE_COMMANDS = st.sampled_from([["audit", "FILE", "--json"], ["audit", "FILE"],
                                 ["partial", "audit", "FILE", "--json"], ["partial", "audit", "FILE"]])


# ------------------------------------------------------------------ golden copies (bcdp reproduce --golden)

#: the regenerated files of the stubbed ``bcdp reproduce`` (one exact table, the Fig. 3 trials, one
#: thesis figure); the golden directory of each example holds fuzzed copies of them
FRESH_FIG3 = "q_index,q,trial,mse_thm2,mse_optimal,mse_baseline\n0,0.01,0,0.125,0.25,0.5\n1,0.12,0,1e-3,2e-3,3e-3\n"
FRESH_SHUFFLE = "alpha,epsilon\n2,0.0123\n64,1.5\n"


def _fresh_table():
    from bcdp.repro.tables import Table

    return Table(name="fuzz_table", title="t", source="s", header=["a", "b"], rows=[["1", "0.5"], ["x", "2e-3"]],
                 numeric_rtol=1e-9)


def _fresh_files() -> dict[str, str]:
    return {**_fresh_table().files(), "fig3_trials.csv": FRESH_FIG3, "shuffle_fuzz.csv": FRESH_SHUFFLE}


@pytest.fixture
def golden_comparisons_only(monkeypatch):
    """``bcdp reproduce`` with cheap regenerated files (above) and no claim check; the comparisons
    with the golden copies (bcdp.repro.tables.compare_with_golden, bcdp.cli.reproduce.reproduce_fig3
    and reproduce_figures) run for real; the Ch. 4, 6 and 7 figure writers write nothing."""
    import bcdp.claims.runner
    import bcdp.repro.bandit_figures
    import bcdp.repro.ch7_figures
    import bcdp.repro.fig3
    import bcdp.repro.fl_figures
    import bcdp.repro.shuffle_figures
    import bcdp.repro.tables

    def write_fig3(out, **kw):
        (Path(out) / "fig3_trials.csv").write_text(FRESH_FIG3)
        return [Path(out) / "fig3_trials.csv"]

    def write_shuffle(out):
        (Path(out) / "shuffle_fuzz.csv").write_text(FRESH_SHUFFLE)
        return [Path(out) / "shuffle_fuzz.csv"]

    monkeypatch.setattr(bcdp.claims.runner, "run_all", lambda *a, **k: [])
    monkeypatch.setattr(bcdp.repro.tables, "REGISTRY", {"fuzz_table": _fresh_table})
    monkeypatch.setattr(bcdp.repro.fig3, "write_fig3", write_fig3)
    monkeypatch.setattr(bcdp.repro.shuffle_figures, "write_shuffle_figures", write_shuffle)
    monkeypatch.setattr(bcdp.repro.fl_figures, "write_fl_figures", lambda out: [])
    monkeypatch.setattr(bcdp.repro.bandit_figures, "write_bandit_figures", lambda out: [])
    monkeypatch.setattr(bcdp.repro.ch7_figures, "write_ch7_figures", lambda out: [])


@st.composite
def golden_copy(draw, fresh: str):
    """One golden file: absent, exact, or damaged (a cell changed, a line dropped or cut, junk bytes,
    not UTF-8, a directory of that name)."""
    kind = draw(st.integers(0, 8))
    if kind == 0:
        return None
    if kind == 1:
        return fresh.encode()
    lines = fresh.splitlines(keepends=True)
    if kind == 2:       # one cell replaced
        k = draw(st.integers(0, len(lines) - 1))
        cells = lines[k].rstrip("\n").split(",")
        cells[draw(st.integers(0, len(cells) - 1))] = draw(st.one_of(st.sampled_from(EDGE_STRINGS), free_text))
        lines[k] = ",".join(cells) + "\n"
        return "".join(lines).encode("utf-8", "surrogatepass")
    if kind == 3:       # a line dropped, or cut short
        k = draw(st.integers(0, len(lines) - 1))
        lines[k] = lines[k][:draw(st.integers(0, len(lines[k])))]
        return "".join(lines).encode()
    if kind == 4:
        pos = draw(st.integers(0, len(fresh)))
        return fresh.encode()[:pos] + draw(st.binary(min_size=1, max_size=4)) + fresh.encode()[pos:]
    if kind == 5:
        return draw(st.binary(max_size=60))
    if kind == 6:
        return "dir"
    return fresh.encode() + draw(st.sampled_from([b"extra,row\n", b"\n", b",,,\n", b"\xff\n"]))


def _golden_fuzz(data) -> None:
    with WorkDir() as tmp:
        golden = tmp / "golden"
        golden.mkdir()
        for name, text in _fresh_files().items():
            content = data.draw(golden_copy(text), label=name)
            if content == "dir":
                (golden / name).mkdir()
            elif content is not None:
                (golden / name).write_bytes(content)
        argv = ["reproduce", "--out", "out", "--golden", "golden"] + data.draw(
            st.sampled_from([[], ["--no-compare"], ["--fig3-trials", "2"]]), label="options")
        check_contract(argv, run_cli(argv))


# ------------------------------------------------------------------ the fuzz tests

def _argv_case(argv: list[str], raw: bytes) -> None:
    with WorkDir() as tmp:
        (tmp / "input.json").write_bytes(raw)
        (tmp / "outdir").mkdir()
        check_contract(argv, run_cli(argv))


def _argv_fuzz(data) -> None:
    argv = data.draw(command_lines(), label="argv")
    raw = _dumps(data.draw(st.one_of(audit_documents(), partial_documents()), label="file"))
    _argv_case(argv, raw)


def _audit_fuzz(data) -> None:
    doc = data.draw(audit_documents(), label="doc")
    _write_and_run(_dumps(doc), data.draw(st.sampled_from([["audit", "FILE", "--json"], ["audit", "FILE"]])))


def _partial_fuzz(data) -> None:
    doc = data.draw(partial_documents(), label="doc")
    argv = data.draw(st.sampled_from([["partial", "audit", "FILE", "--json"], ["partial", "audit", "FILE"],
                                      ["partial", "audit", "FILE", "--json", "--concentrated"]]))
    _write_and_run(_dumps(doc), argv)


def _raw_fuzz(data) -> None:
    argv = data.draw(FILE_COMMANDS, label="argv")
    _write_and_run(data.draw(raw_files(argv[0] == "partial"), label="raw"), argv)


@_fuzz_settings("argv")
@given(data=st.data())
def test_fuzz_command_lines(quick_long_commands, data):
    _argv_fuzz(data)


@_fuzz_settings("audit")
@given(data=st.data())
def test_fuzz_audit_files(data):
    _audit_fuzz(data)


@_fuzz_settings("partial")
@given(data=st.data())
def test_fuzz_partial_audit_files(data):
    _partial_fuzz(data)


@_fuzz_settings("raw")
@given(data=st.data())
def test_fuzz_raw_file_bytes(data):
    _raw_fuzz(data)


@_fuzz_settings("golden")
@given(data=st.data())
def test_fuzz_golden_copies(golden_comparisons_only, data):
    _golden_fuzz(data)


@pytest.mark.slow
@_fuzz_settings("golden", slow=True)
@given(data=st.data())
def test_fuzz_golden_copies_sweep(golden_comparisons_only, data):
    _golden_fuzz(data)


@pytest.mark.slow
@_fuzz_settings("argv", slow=True)
@given(data=st.data())
def test_fuzz_command_lines_sweep(quick_long_commands, data):
    _argv_fuzz(data)


@pytest.mark.slow
@_fuzz_settings("audit", slow=True)
@given(data=st.data())
def test_fuzz_audit_files_sweep(data):
    _audit_fuzz(data)


@pytest.mark.slow
@_fuzz_settings("partial", slow=True)
@given(data=st.data())
def test_fuzz_partial_audit_files_sweep(data):
    _partial_fuzz(data)


@pytest.mark.slow
@_fuzz_settings("raw", slow=True)
@given(data=st.data())
def test_fuzz_raw_file_bytes_sweep(data):
    _raw_fuzz(data)
