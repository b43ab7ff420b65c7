"""Audits of user-supplied mechanisms: :mod:`bcdp.audit.kernel` (BCDP paper notions) and
:mod:`bcdp.audit.partial` (partial DP)."""
