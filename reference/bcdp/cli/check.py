"""``bcdp check``: run every claim check of the papers and print one row per claim.

The checks are the modules of :mod:`bcdp.checks` (one per claim of the BCDP paper, arXiv:2410.18404;
the partial DP paper; and the thesis Ch. 5), run by :func:`bcdp.claims.runner.run_all`.  Exit code 1
when a check fails.
"""

from __future__ import annotations

import argparse
import json
from typing import Any, Iterable

from bcdp.core.errors import EXIT_CHECK_FAILED, EXIT_OK
from bcdp.core.results import jsonable

#: builtin exceptions this command reports as bad input (exit 2); every BcdpError is bad input anyway
BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("check", help="run every claim check")
    p.add_argument("--json", action="store_true", help="print the results as JSON")


def check_table(results: Iterable[Any]) -> str:
    """The plain-text table of claim results: claim, source, verdict, key figure, time."""
    rows = [(r.claim_id, r.source, r.verdict, r.key_figure, f"{r.seconds:.2f}s") for r in results]
    header = ("claim", "source", "verdict", "key figure", "time")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    widths = [min(w, 72) for w in widths]

    def line(cells: Iterable[Any]) -> str:
        return "  ".join(str(c)[:w].ljust(w) for c, w in zip(cells, widths)).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    from bcdp.claims.runner import run_all

    results = run_all()
    failed = [r for r in results if not r.passed]
    if args.json:
        print(json.dumps(jsonable([r.to_json() for r in results], nan="nan"), indent=2, allow_nan=False))
    else:
        print(check_table(results))
        print(f"\n{len(results) - len(failed)}/{len(results)} claim checks passed"
              + (f"; FAILED: {', '.join(r.claim_id for r in failed)}" if failed else ""))
    return EXIT_CHECK_FAILED if failed else EXIT_OK
