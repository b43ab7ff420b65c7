"""The record a claim check returns (:class:`ClaimResult`) and the verdicts that count as passing.

Verdicts:

* ``"confirmed"``: the claim, as printed, holds on every instance examined;
* ``"erratum"``: the printed claim is wrong as stated, the counterexample is in ``evidence`` and
  the corrected statement (recorded in the project's errata list) holds;
* ``"refuted"``: the claim fails and no correction is recorded (a finding to report);
* ``"error"``: the check itself crashed (the runner's verdict, never returned by a check).

A check "passes" when its verdict is ``confirmed`` or ``erratum``.  The JSON form
(:meth:`ClaimResult.to_json`) has exactly the fields claim_id, source, statement, verdict,
key_figure, evidence, seconds and passed.
"""

from __future__ import annotations

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
