"""Claim checks: the registry of claims and the runner (:mod:`bcdp.claims.runner`)."""

from bcdp.claims.runner import (
                                PASSING_VERDICTS,
                                ClaimResult,
                                check_modules,
                                run_all,
                                run_check,
)

__all__ = ["PASSING_VERDICTS", "ClaimResult", "check_modules", "run_all", "run_check"]
