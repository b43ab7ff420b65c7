"""``bcdp partial audit FILE.json``: exact partial-DP parameters of a mechanism on datasets.

Per-attribute eps0, whole-record eps and the nabla profile of the partial DP paper (Ghazi, Kumar,
Manurangsi, Steinke), and with ``--concentrated`` the certified nabla0-CDP eps0 and zCDP rho
(:mod:`bcdp.audit.partial`).  A malformed file raises :class:`bcdp.core.errors.InputFileError`
(exit 2, reported by :mod:`bcdp.cli.main`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bcdp.core.errors import EXIT_OK

#: builtin exceptions this command reports as bad input (exit 2); every BcdpError is bad input anyway
BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("partial", help="partial DP (per-attribute privacy, central model)")
    psub = p.add_subparsers(dest="partial_command", required=True)
    q = psub.add_parser("audit", help="exact partial-DP parameters of a mechanism on datasets (JSON)")
    q.add_argument("file", help="JSON file (format: docs/file_format.md, 'Partial DP audit input')")
    q.add_argument("--json", action="store_true", help="print one JSON object")
    q.add_argument("--concentrated", action="store_true",
                   help="also certified eps0 of nabla0-CDP and rho of zCDP (D* enclosures; slower)")


def run(args: argparse.Namespace) -> int:
    from bcdp.audit.partial import format_partial_report, load_partial_audit_file, partial_audit_report

    audit = load_partial_audit_file(args.file)
    report = partial_audit_report(audit, args.concentrated)
    print(json.dumps(report, indent=2, allow_nan=False) if args.json else format_partial_report(report))
    return EXIT_OK
