"""Claim checks, one module per claim; each exposes ``check() -> bcdp.claims.ClaimResult``."""
