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

from bcdp.core.errors import EXIT_CHECK_FAILED, EXIT_OK, InvalidInputError

#: builtin exceptions this command reports as bad input (exit 2); every BcdpError is bad input anyway
BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("audit", help="audit a finite mechanism given as JSON")
    p.add_argument("file", help="JSON file (format: docs/file_format.md)")
    p.add_argument("--against", metavar="GOLDEN.json",
                   help="compare the privacy values with a pinned `bcdp audit --json` report; exit 1 on drift")
    p.add_argument("--report", metavar="FILE.html", help="also write a self-contained HTML report (exact path)")
    p.add_argument("--fast", action="store_true",
                   help="float64 fast path for large kernels (floats within a few ulps; no exact values)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from bcdp.core.results import jsonable
    from bcdp.audit.kernel import audit_report, format_report, load_audit_file, read_json_document, report_drift

    if args.fast and (args.against is not None or args.report is not None):
        raise InvalidInputError("--against and --report use the exact values: run them without --fast")
    golden = None if args.against is None else read_json_document(args.against)
    if args.fast:
        from bcdp.audit.fast_report import fast_audit_report

        report = fast_audit_report(read_json_document(args.file))
    else:
        mech, prior = load_audit_file(args.file)
        report = audit_report(mech, prior)
        if args.report is not None:
            from bcdp.audit.html_report import exact_audit_page, write_report

            write_report(args.report, exact_audit_page(mech, report, args.file, prior))
    drift = None if golden is None else report_drift(report, _plain_json(golden))
    if args.json:
        out = dict(report) if drift is None else {**report, "against": {"golden": args.against, "drift": drift}}
        print(json.dumps(jsonable(out), indent=2, allow_nan=False))
    else:
        print(format_report(report))
        if drift is not None:
            print(f"against {args.against}: " + ("no drift" if not drift else f"{len(drift)} value(s) differ"))
            for line in drift:
                print(f"  {line}")
    return EXIT_CHECK_FAILED if drift else EXIT_OK


def _plain_json(value: Any) -> Any:
    """The golden document as json.loads reads it (its numbers are not compared: exact values are strings)."""
    if isinstance(value, dict):
        return {k: _plain_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_json(v) for v in value]
    return str(value) if not isinstance(value, (str, bool, type(None))) else value
