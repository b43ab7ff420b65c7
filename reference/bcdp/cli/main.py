"""The ``bcdp`` command: builds the parser and dispatches to one module per subcommand.

Each subcommand module of :mod:`bcdp.cli` (``check``, ``audit``, ``partial``, ``allocate``, ``rdp``,
``zcdp``, ``tables``, ``reproduce``) exposes ``add_parser(subparsers)`` and ``run(args) -> int`` and
imports its heavy dependencies (sympy, scipy, mpmath, matplotlib) inside ``run`` only, so that
``bcdp --help`` starts fast.

Exceptions are mapped to exit codes here, once (:func:`bcdp.core.errors.exit_code`):

* a :class:`bcdp.core.errors.BcdpError` (bad input) -> its exit code (2), with the one-line message
  ``bcdp <command>: <message>`` on stderr;
* a builtin exception listed in the module's ``BAD_INPUT`` tuple (library input checks that still
  raise ``ValueError`` / ``TypeError``) -> 2 likewise;
* anything else (a bug) -> 3, with ``bcdp <command>: internal error (<type>): <message> (...please
  report it...)`` on stderr.  Set the environment variable ``BCDP_TRACEBACK=1`` to get the traceback.
* a command line that does not parse -> 2, one line ``bcdp: <message> (see bcdp --help)``.

Under ``--json`` every error is also a JSON object on stdout:
``{"error": {"type": "<exception class>", "message": "<message>"}, "exit_code": <code>}``.

A command returns 0 on success and 1 when a check or comparison it decides fails.  When stdout is a
pipe closed early by its reader (``bcdp check | head``) the command stops quietly with 141 (128 +
SIGPIPE, as the shell reports for ``yes | head``), not with an internal error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from bcdp import __version__
from bcdp.cli import allocate, audit, audit_plan, audit_sampler, check, partial, rdp, reproduce, tables, zcdp
from bcdp.core.errors import BcdpError, InvalidInputError, exit_code

#: the subcommands in the order of ``bcdp --help``
COMMANDS: dict[str, ModuleType] = {
    "check": check, "audit": audit, "audit-sampler": audit_sampler, "audit-plan": audit_plan, "partial": partial,
    "allocate": allocate, "rdp": rdp, "zcdp": zcdp,
    "tables": tables, "reproduce": reproduce,
}

DESCRIPTION = """bcdp: verified feature-specific differential privacy.

Commands:
  bcdp check [--json]              run every claim check (proofs_checks/) and print a table
  bcdp audit FILE.json [--json]    exact LDP/BDP/CDP/BCDP/dependence of a finite mechanism
  bcdp audit-sampler MODULE:FUNCTION --inputs FILE (--outputs FILE | --bins E0,E1,...)
        [--prior FILE] [--claim-eps E] [--claim-cdp C1,...] [--claim-delta D1,...]
        [--kernel FILE] [--draws N] [--confidence C] [--seed S] [--report F.html] [--json]
                                   black-box audit: lower confidence bounds on LDP/CDP/BCDP
  bcdp audit-plan --claim-eps E (--rr-eps E | --cell-probabilities P,Q) [--cells N]
        [--confidence C] [--power B] [--json]
                                   draws per input that refute a wrong LDP claim
  bcdp partial audit FILE.json [--json] [--concentrated]
                                   exact per-attribute eps0, whole-record eps, nabla profile;
                                   certified nabla0-CDP eps0 and zCDP rho with --concentrated
  bcdp allocate --delta D1,D2,... --eps E --q Q [--zeta Z | --optimal] [--json]
                                   Theorem 2 budgets c (eq. 16) and the eq. (17) objective, exact
  bcdp rdp shuffle --n N --eps0 E --alpha 2,3,4.5 [--bound NAME | --exact] [--json]
  bcdp rdp to-dp --n N --eps0 E --delta D [--rounds T] [--bound NAME | --exact] [--json]
  bcdp rdp calibrate --target-eps E --delta D [--rounds T] (--n N | --eps0 E) (--bound NAME | --exact)
                                   the largest eps0 or smallest n meeting the target, certified
  bcdp zcdp to-dp --rho R --delta D [--json]   certified rho-zCDP -> (eps, delta) conversions
  bcdp tables [NAME ...] [--out D] [--trials N] [--seed S]
                                   regenerate the golden tables (default: ./tables); fig3 is the
                                   Monte Carlo experiment of App. B.1 (1000 trials by default)
  bcdp reproduce [--out D]         every check and every table at its quick default, then a summary
"""


#: set by :func:`main` when the command line asks for JSON, so that parse errors are JSON too
_JSON_REQUESTED = False

#: most digits of an integer a command converts to or from text (:func:`exact_digits`); converting
#: 10^5 digits takes about half a second
MAX_EXACT_DIGITS = 100_000

#: exit code when stdout is a pipe whose reader has gone (``bcdp ... | head``): 128 + SIGPIPE, what
#: the shell reports for a process killed by SIGPIPE; nothing is written to stderr
EXIT_BROKEN_PIPE = 141

REPORT_HINT = "a bug in bcdp: please report it with the command line (BCDP_TRACEBACK=1 shows the traceback)"


def _print_json_error(kind: str, message: str, code: int) -> None:
    print(json.dumps({"error": {"type": kind, "message": message}, "exit_code": code}, allow_nan=False))


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2) and the JSON error object under ``--json``."""

    def error(self, message: str):  # type: ignore[override]
        text = f"{_one_line(message)} (see {self.prog} --help)"
        print(f"{self.prog}: {text}", file=sys.stderr)
        if _JSON_REQUESTED:
            _print_json_error("UsageError", text, 2)
        sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="bcdp", description=DESCRIPTION,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"bcdp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS.values():
        module.add_parser(sub)
    return parser


def command_name(args: argparse.Namespace) -> str:
    """``bcdp <command> [<subcommand>]``, the prefix of every error message."""
    words = ["bcdp", args.command]
    sub = getattr(args, f"{args.command}_command", None)
    if sub:
        words.append(sub)
    return " ".join(words)


def _one_line(text: str) -> str:
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def report_error(args: argparse.Namespace, exc: Exception) -> int:
    """Print the message of ``exc`` and return its exit code (the one place they are mapped)."""
    if not isinstance(exc, BcdpError) and isinstance(exc, COMMANDS[args.command].BAD_INPUT):
        exc = InvalidInputError(str(exc))
    code = exit_code(exc)
    name = command_name(args)
    if isinstance(exc, BcdpError):
        message = _one_line(str(exc))
        print(f"{name}: {message}", file=sys.stderr)
    else:
        message = f"internal error ({type(exc).__name__}): {_one_line(str(exc))}"
        if os.environ.get("BCDP_TRACEBACK"):
            traceback.print_exception(exc, file=sys.stderr)
        print(f"{name}: {message} ({REPORT_HINT})", file=sys.stderr)
    if getattr(args, "json", False):
        _print_json_error(type(exc).__name__, message, code)
    return code


def _stdout_passes_undecodable_names_through() -> None:
    """A path argument that is not valid UTF-8 reaches Python as surrogate escapes (PEP 383); echoing
    it on a strict UTF-8 stdout (``wrote <dir>/...``) raised UnicodeEncodeError, an internal error
    after the work was done.  stdout writes such names back as the bytes they came from, as Python
    already does under the C/POSIX locale."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="surrogateescape")
        except (ValueError, OSError):  # a stream that cannot be reconfigured: keep it as it is
            pass


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so that the flush at exit does not fail again
    (Python documentation, "Note on SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (an in-process capture)
        pass


@contextmanager
def exact_digits(limit: int = MAX_EXACT_DIGITS) -> Iterator[None]:
    """Let integers of up to ``limit`` digits be converted to and from text while a command runs,
    then restore Python's limit (4300 by default since 3.11, a guard against quadratic conversion).
    An exact result of capped inputs can be longer than 4300 digits: a kernel entry 10^-5000
    (valid, 5002 characters) gives the ratio (1 - 10^-5000)/10^-5000, and printing it raised
    ValueError (exit 3).  An unlimited setting (0) is kept as it is."""
    get = getattr(sys, "get_int_max_str_digits", None)
    if get is None:            # a Python without the limit
        yield
        return
    old = get()
    sys.set_int_max_str_digits(0 if old == 0 else max(old, limit))
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def _digits_error(exc: Exception) -> bool:
    """Python's ValueError for an integer beyond the int/str conversion limit."""
    return isinstance(exc, ValueError) and "integer string conversion" in str(exc)


def json_requested(argv: list[str]) -> bool:
    """Whether the command line asks for ``--json``, as argparse reads it: the option or an
    abbreviation of it (``--js``; no other option starts with ``--j``), before a ``--`` that ends
    the options.  (Only ``"--json" in argv`` was tested: ``--js`` gave JSON on success but a parse
    error printed no JSON object, and ``audit FILE -- --json`` printed one for a file name.)"""
    head = argv[:argv.index("--")] if "--" in argv else argv
    return any(len(t.split("=", 1)[0]) >= 3 and "--json".startswith(t.split("=", 1)[0]) for t in head)


def main(argv: list[str] | None = None) -> int:
    global _JSON_REQUESTED
    _JSON_REQUESTED = json_requested(sys.argv[1:] if argv is None else list(argv))
    _stdout_passes_undecodable_names_through()
    args = build_parser().parse_args(argv)
    with exact_digits():
        try:
            return COMMANDS[args.command].run(args)
        except KeyboardInterrupt:
            print(f"{command_name(args)}: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:   # the reader of stdout went away (bcdp ... | head): not an error of bcdp
            _silence_stdout()
            return EXIT_BROKEN_PIPE
        except Exception as exc:  # noqa: BLE001 - mapped to exit codes 2 / 3 in one place
            if _digits_error(exc) and not isinstance(exc, BcdpError):
                exc = InvalidInputError(f"an exact value has more than {MAX_EXACT_DIGITS} digits, beyond what "
                                        f"bcdp writes out (use inputs with fewer digits)")
            return report_error(args, exc)


if __name__ == "__main__":
    sys.exit(main())
