"""Claim checks: the record each check in ``proofs_checks/`` returns, and the runner.

A check is a module of the ``proofs_checks`` package with a function ``check() -> ClaimResult``.
Verdicts:

* ``"confirmed"``: the claim, as printed, holds on every instance examined;
* ``"erratum"``: the printed claim is wrong as stated, the counterexample is in ``evidence`` and
  the corrected statement (recorded in ``docs/errata.md``) holds;
* ``"refuted"``: the claim fails and no correction is recorded (a finding to report);
* ``"error"``: the check itself crashed (the runner's verdict, never returned by a check).

A check "passes" when its verdict is ``confirmed`` or ``erratum``.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any

PASSING_VERDICTS = ("confirmed", "erratum")


@dataclass
class ClaimResult:
    claim_id: str
    source: str
    statement: str
    verdict: str
    key_figure: str
    evidence: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING_VERDICTS

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["passed"] = self.passed
        return out


def check_modules() -> list[str]:
    """Names of every check module in the installed ``proofs_checks`` package, sorted."""
    import bcdp.checks

    return sorted(f"bcdp.checks.{m.name}" for m in pkgutil.iter_modules(bcdp.checks.__path__)
                  if not m.name.startswith("_"))


def run_check(module_name: str) -> ClaimResult:
    start = time.perf_counter()
    try:
        result = importlib.import_module(module_name).check()
        if not isinstance(result, ClaimResult):
            raise TypeError(f"{module_name}.check() returned {type(result).__name__}")
    except Exception as exc:  # a crashing check is reported, never skipped
        result = ClaimResult(claim_id=module_name.rsplit(".", 1)[-1], source="?", statement="?",
                             verdict="error", key_figure=f"{type(exc).__name__}: {exc}",
                             evidence={"traceback": traceback.format_exc()})
    result.seconds = round(time.perf_counter() - start, 3)
    return result


def run_all() -> list[ClaimResult]:
    return [run_check(m) for m in check_modules()]
