"""``bcdp audit FILE.json``: exact LDP / BDP / CDP / BCDP / dependence of a finite mechanism.

The notions are Defs. 1-4 and eq. (13) of the BCDP paper (Aliakbarpour et al. 2024, arXiv:2410.18404),
computed by :mod:`bcdp.audit.kernel`; the file format is ``docs/file_format.md`` (shipped in the
package as ``bcdp.data/file_format.md``).  A malformed file raises
:class:`bcdp.core.errors.InputFileError` (exit 2, reported by :mod:`bcdp.cli.main`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bcdp.core.errors import EXIT_OK

#: builtin exceptions this command reports as bad input (exit 2); every BcdpError is bad input anyway
BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("audit", help="audit a finite mechanism given as JSON")
    p.add_argument("file", help="JSON file (format: docs/file_format.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from bcdp.audit.kernel import audit_report, format_report, load_audit_file

    mech, prior = load_audit_file(args.file)
    report = audit_report(mech, prior)
    print(json.dumps(report, indent=2, allow_nan=False) if args.json else format_report(report))
    return EXIT_OK
