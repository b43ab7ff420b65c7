"""Claim checks: the registry of claims (:mod:`bcdp.claims.registry`), the runner
(:mod:`bcdp.claims.runner`) and the generated theory index (:mod:`bcdp.claims.index`)."""

from bcdp.claims.result import PASSING_VERDICTS, ClaimResult
from bcdp.claims.runner import check_modules, run_all, run_check

__all__ = ["PASSING_VERDICTS", "ClaimResult", "check_modules", "run_all", "run_check"]
