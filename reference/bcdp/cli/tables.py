"""``bcdp tables``: regenerate the golden tables (default: into ./tables).

The exact tables are the registry of :mod:`bcdp.repro.tables`; ``fig3`` is the Monte Carlo
experiment of the BCDP paper's App. B.1 (:mod:`bcdp.repro.fig3`) and ``shuffle`` the thesis Ch. 5
figures (:mod:`bcdp.repro.shuffle_figures`); ``dme`` writes the thesis Ch. 3 Table 3.1 / Fig. 3.2(a)
files and the PNG (:mod:`bcdp.repro.dme_figures`); ``fl`` the epsilon axes of thesis Figs 5.7 and 4.2
(:mod:`bcdp.repro.fl_figures`); ``bandits`` the thesis Ch. 6 Fig. 6.2 at small scale, seeded Monte
Carlo (:mod:`bcdp.repro.bandit_figures`); ``randomness`` the thesis Ch. 7 Table 7.1 and figures
(:mod:`bcdp.repro.ch7_figures`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bcdp.core.errors import EXIT_OK, InvalidInputError

#: builtin exceptions this command reports as bad input (exit 2); every BcdpError is bad input anyway
BAD_INPUT: tuple[type[Exception], ...] = ()

#: the tables that are not in the exact registry
EXTRA_TABLES = ("fig3", "shuffle", "dme", "fl", "bandits", "randomness")


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("tables", help="regenerate tables")
    p.add_argument("names", nargs="*", help="table names (default: all)")
    p.add_argument("--out", default="tables", help="output directory (default: ./tables)")
    p.add_argument("--trials", type=int, default=1000, help="fig3: trials per q (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="fig3: seed (default 0)")
    p.add_argument("--workers", type=int, default=2, help="fig3: worker processes (default 2)")


def output_directory(out: str) -> Path:
    """``--out``: an existing directory, or one that can be created (with its parents); a path
    naming a file, or below a file, is bad input (exit 2) before any work is done."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise InvalidInputError(f"--out {out}: exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInputError(f"--out {out}: cannot create the directory ({exc.strerror})") from exc
    return path


def run(args: argparse.Namespace) -> int:
    from bcdp.repro.tables import REGISTRY, write_tables

    known = list(REGISTRY) + list(EXTRA_TABLES)
    unknown = [n for n in args.names if n not in known]
    if unknown:
        raise InvalidInputError(f"unknown table(s) {unknown}; known: {', '.join(known)}")
    if args.trials < 1:
        raise InvalidInputError("--trials must be >= 1")
    if args.seed < 0:
        raise InvalidInputError(f"--seed must be a non-negative integer, got {args.seed}")
    if args.workers < 1:
        raise InvalidInputError(f"--workers must be >= 1, got {args.workers}")
    output_directory(args.out)
    names = args.names or known
    exact = [n for n in names if n not in EXTRA_TABLES]
    if exact:
        for path in write_tables(exact, Path(args.out)):
            print(f"wrote {path}")
    if "fig3" in names:
        from bcdp.repro.fig3 import write_fig3

        for path in write_fig3(Path(args.out), trials=args.trials, seed=args.seed, workers=args.workers):
            print(f"wrote {path}")
    if "shuffle" in names:
        from bcdp.repro.shuffle_figures import write_shuffle_figures

        for path in write_shuffle_figures(Path(args.out)):
            print(f"wrote {path}")
    if "dme" in names:
        from bcdp.repro.dme_figures import write_dme_figures

        dme = [n for n in ("dme_table3_1", "dme_fig3_2a", "dme_fig3_2b", "dme_fig3_2c") if n not in exact]
        for path in write_tables(dme, Path(args.out)) if dme else []:
            print(f"wrote {path}")
        for path in write_dme_figures(Path(args.out)):
            print(f"wrote {path}")
    if "fl" in names:
        from bcdp.repro.fl_figures import write_fl_figures

        for path in write_fl_figures(Path(args.out)):
            print(f"wrote {path}")
    if "bandits" in names:
        from bcdp.repro.bandit_figures import write_bandit_figures

        for path in write_bandit_figures(Path(args.out)):
            print(f"wrote {path}")
    if "randomness" in names:
        from bcdp.repro.ch7_figures import write_ch7_figures

        for path in write_ch7_figures(Path(args.out)):
            print(f"wrote {path}")
    return EXIT_OK
