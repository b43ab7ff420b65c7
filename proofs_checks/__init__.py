"""Claim checks, one module per claim, grouped by source: ``bcdp`` (the BCDP paper),
``partial_dp`` (the partial DP paper) and ``thesis`` (thesis Ch. 5, Renyi DP of the shuffle model).

Each check module declares ``CLAIM = bcdp.claims.registry.ClaimSpec(...)`` and exposes
``check() -> bcdp.claims.ClaimResult``; claims checked only by tests or tables are declared in
each subpackage's ``_declared.py``.  Private modules (leading underscore) hold shared helpers.
"""
