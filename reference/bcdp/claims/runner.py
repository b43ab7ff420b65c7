"""The runner of the claim checks.

A check is a public module of the :mod:`bcdp.checks` package (``proofs_checks/``, grouped by
source: ``bcdp/``, ``partial_dp/``, ``thesis/``) that declares its claim as
``CLAIM = ClaimSpec(...)`` (:mod:`bcdp.claims.registry`) and has a function
``check() -> ClaimResult`` built with ``CLAIM.result(...)``.  Modules whose name (or whose
package's name) starts with an underscore are helpers, never run.  Verdicts and the JSON record
are described in :mod:`bcdp.claims.result`.
"""

from __future__ import annotations

import importlib
import time
import traceback

from bcdp.claims.registry import check_package_modules, is_check_module
from bcdp.claims.result import PASSING_VERDICTS, ClaimResult

__all__ = ["PASSING_VERDICTS", "ClaimResult", "check_modules", "run_all", "run_check"]


def check_modules() -> list[str]:
    """Names of every check module of the installed :mod:`bcdp.checks` package (recursively), sorted,
    e.g. ``bcdp.checks.thesis.thm531_upper``."""
    return [name for name in check_package_modules() if is_check_module(name)]


def run_check(module_name: str) -> ClaimResult:
    start = time.perf_counter()
    module = None
    try:
        module = importlib.import_module(module_name)
        result = module.check()
        if not isinstance(result, ClaimResult):
            raise TypeError(f"{module_name}.check() returned {type(result).__name__}")
    except Exception as exc:  # a crashing check is reported, never skipped
        spec = getattr(module, "CLAIM", None)
        result = ClaimResult(claim_id=getattr(spec, "id", module_name.rsplit(".", 1)[-1]),
                             source=getattr(spec, "citation", "?"), statement=getattr(spec, "statement", "?"),
                             verdict="error", key_figure=f"{type(exc).__name__}: {exc}",
                             evidence={"traceback": traceback.format_exc()})
    result.seconds = round(time.perf_counter() - start, 3)
    return result


def run_all() -> list[ClaimResult]:
    return [run_check(m) for m in check_modules()]
