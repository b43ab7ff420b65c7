"""``bcdp reproduce``: every claim check and every table at its quick default, then a summary.

The claim checks are those of ``bcdp check``; the tables are regenerated into ``--out`` and compared
with the golden copies shipped in the package (:func:`bcdp.repro.tables.golden_dir`, whatever the
current directory; ``--golden DIR`` compares with another directory): the exact tables byte for
byte (or within their stated tolerance), a quick slice of the Fig. 3 experiment (BCDP paper,
App. B.1) trial by trial against the committed full run, and the thesis Ch. 5 figure data within a
relative 1e-9.  Exit code 1 when anything differs **or could not be compared** (no golden copy
found): a comparison that did not happen is not a pass.  ``--no-compare`` regenerates without
comparing (then only the claim checks decide the exit code).
"""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bcdp.core.errors import EXIT_CHECK_FAILED, EXIT_OK, InvalidInputError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: builtin exceptions this command reports as bad input (exit 2); every BcdpError is bad input anyway
BAD_INPUT: tuple[type[Exception], ...] = ()

#: status of a regenerated file that has no golden copy (a failure) or was not compared on request
NOT_COMPARED = "no golden copy to compare"
SKIPPED = "not compared (--no-compare)"


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("reproduce", help="all checks and tables at their quick defaults")
    p.add_argument("--out", default="bcdp-reproduce", help="where to write tables (default: ./bcdp-reproduce)")
    p.add_argument("--golden", default=None,
                   help="golden tables to compare with (default: the copies shipped in the package)")
    p.add_argument("--fig3-trials", type=int, default=20, help="Fig. 3 trials per q in the quick run (default 20)")
    p.add_argument("--no-compare", action="store_true",
                   help="regenerate the tables without comparing them with golden copies "
                        "(otherwise a table without a golden copy is a failure)")


def run(args: argparse.Namespace) -> int:
    from bcdp.claims.runner import run_all
    from bcdp.cli.check import check_table
    from bcdp.repro.tables import REGISTRY, compare_with_golden, golden_dir, write_tables

    from bcdp.cli.tables import output_directory

    if args.golden is not None and not Path(args.golden).is_dir():
        raise InvalidInputError(f"--golden {args.golden}: not a directory")
    if args.fig3_trials < 1:
        raise InvalidInputError(f"--fig3-trials must be >= 1, got {args.fig3_trials}")
    output_directory(args.out)
    print("== claim checks ==")
    results = run_all()
    print(check_table(results))
    failed = [r for r in results if not r.passed]
    print(f"\n== tables (written to {args.out}) ==")
    compare = not args.no_compare
    written = write_tables(None, Path(args.out))
    golden: Path | Traversable = golden_dir() if args.golden is None else Path(args.golden)
    found = compare_with_golden(None, golden) if compare and golden.is_dir() else {}
    # every regenerated file gets a status; without a golden copy it is "no golden copy to compare",
    # which counts as a failure unless --no-compare was given
    status: dict[str, str] = {}
    for path in written:
        status[path.name] = found.get(path.name, NOT_COMPARED) if compare else SKIPPED
        print(f"  {path}  [{status[path.name]}]")
    fig3_status = reproduce_fig3(Path(args.out), golden, args.fig3_trials, compare)
    print(f"  fig3 ({args.fig3_trials} trials per q re-run): {fig3_status}")
    if fig3_status != "match":
        status["fig3_trials.csv"] = fig3_status
    for fname, st in reproduce_figures(Path(args.out), golden, compare).items():
        print(f"  {Path(args.out) / fname}  [{st}]")
        status[fname] = st
    if not compare:
        status = {}
    differing = [k for k, v in status.items() if v not in ("match", NOT_COMPARED)]
    uncompared = [k for k, v in status.items() if v == NOT_COMPARED]
    print("\n== summary ==")
    print(f"claim checks: {len(results) - len(failed)}/{len(results)} passed"
          + (f" (failed: {', '.join(r.claim_id for r in failed)})" if failed else ""))
    if not compare:
        print(f"tables: {len(REGISTRY) + 2} regenerated, not compared (--no-compare)")
    else:
        n_match = len(status) - len(differing) - len(uncompared)
        print(f"tables: {len(REGISTRY) + 2} regenerated (incl. fig3 slice, thesis Ch. 4-6 figures), {n_match}/{len(status)} files "
              f"matching the golden copies in {golden}"
              + (f" (differ: {', '.join(differing)})" if differing else "")
              + (f" (no golden copy, not compared: {', '.join(uncompared)})" if uncompared else ""))
        if uncompared:
            print("a table that could not be compared is a failure; pass --golden DIR, "
                  "or --no-compare to regenerate without comparing")
    ok = not failed and not differing and not uncompared
    print("ALL PASSED" if ok else "SOME CHECKS FAILED")
    return EXIT_OK if ok else EXIT_CHECK_FAILED


def reproduce_fig3(out: Path, golden: Path | Traversable, trials: int, compare: bool = True) -> str:
    """Quick Fig. 3 run; its trials must equal the first ones of the committed full run."""
    from bcdp.repro.fig3 import write_fig3

    write_fig3(out, trials=trials, seed=0, workers=2, progress=False)
    if not compare:
        return SKIPPED
    from bcdp.repro.tables import UNREADABLE, read_golden

    gold = golden / "fig3_trials.csv"
    if not gold.is_file():
        return NOT_COMPARED
    fresh = list(csv.reader(io.StringIO((out / "fig3_trials.csv").read_text())))[1:]
    text = read_golden(gold)
    try:
        rows = [] if text is None else list(csv.reader(io.StringIO(text)))[1:]
    except csv.Error:          # e.g. a NUL byte
        text = None
    if text is None:
        return UNREADABLE
    committed = {(r[0], r[2]): r for r in rows if len(r) >= 3}
    bad = 0
    for row in fresh:
        ref = committed.get((row[0], row[2]))
        if ref is None or len(ref) != len(row) or not all(_close(a, b) for a, b in zip(row[3:], ref[3:])):
            bad += 1
    return "match" if bad == 0 else f"differs ({bad} of {len(fresh)} trials)"


def _close(fresh: str, golden: str) -> bool:
    """A trial's MSE equals the golden one within 1e-9 relative; a golden cell that is not a number,
    or NaN, never matches (``abs(x - nan) > tol`` is False: NaN used to match anything)."""
    try:
        x, y = float(fresh), float(golden)
    except ValueError:
        return False
    return x == y or abs(x - y) <= 1e-9 * abs(y)


#: the thesis figure writers ``bcdp reproduce`` re-runs (module, function; resolved at call time):
#: Ch. 5 (about a minute), Ch. 4 epsilon curves and Ch. 6 Fig 6.2 at small scale (about 25 s together),
#: Ch. 7 Table 7.1 and figures
FIGURE_WRITERS = (("bcdp.repro.shuffle_figures", "write_shuffle_figures"),
                  ("bcdp.repro.fl_figures", "write_fl_figures"),
                  ("bcdp.repro.bandit_figures", "write_bandit_figures"),
                  ("bcdp.repro.ch7_figures", "write_ch7_figures"))


def reproduce_figures(out: Path, golden: Path | Traversable, compare: bool = True) -> dict[str, str]:
    """The thesis figures of :data:`FIGURE_WRITERS`; their CSVs compared with the golden copies (rtol 1e-9)."""
    import importlib

    from bcdp.repro.tables import UNREADABLE, read_golden, texts_match

    result = {}
    for module, function in FIGURE_WRITERS:
        write = getattr(importlib.import_module(module), function)
        for path in write(out):
            if path.suffix != ".csv":
                continue
            gold = golden / path.name
            if not compare:
                result[path.name] = SKIPPED
            elif not gold.is_file():
                result[path.name] = NOT_COMPARED
            else:
                text = read_golden(gold)
                result[path.name] = (UNREADABLE if text is None
                                     else "match" if texts_match(text, path.read_text(), 1e-9) else "differs")
    return result
