"""Shared helpers and bad twins for the thesis Chapter 5 checks (shuffle-model RDP).

Not a check (leading underscore).  Values go into evidence as decimal strings (``s``) so that
the JSON never carries a float that the reader might take for exact.

Bad twins: deliberately wrong versions of the thesis formulas.  Each check that owns a twin must
reject it (the rejection is part of the check's verdict); ``tests/test_shuffle_bounds.py``
asserts that each twin is rejected by the test named in its record.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable

import mpmath
from bcdp.shuffle import bounds as sb

DPS = 60
#: relative tolerance for "equal" at DPS = 60 (values are sums of a few hundred positive terms)
EQ_TOL = mpmath.mpf(10) ** -45


def s(x: Any, digits: int = 12) -> str:
    """A number as a decimal string (``inf`` for infinities)."""
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction):
        if x.denominator < 10 ** 12 and abs(x.numerator) < 10 ** 12:
            return str(x)
        with mpmath.workdps(digits + 10):
            return mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, digits)
    x = mpmath.mpf(x)
    if mpmath.isinf(x):
        return "inf" if x > 0 else "-inf"
    return mpmath.nstr(x, digits)


def rel_diff(a: Any, b: Any) -> mpmath.mpf:
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if a == b:
        return mpmath.mpf(0)
    return abs(a - b) / max(abs(a), abs(b))


def exact_api():
    """The exact oracles (``bcdp.shuffle.exact``, written separately from these bounds)."""
    from bcdp.shuffle import (
        exact as shuffle_exact,  # imported lazily: a missing module is an 'error' verdict
    )

    return shuffle_exact


EPS_GRID = (mpmath.mpf("0.1"), mpmath.mpf("0.5"), mpmath.mpf(1), mpmath.mpf(2), mpmath.mpf(3))


def eps_str(e: Any) -> str:
    return mpmath.nstr(mpmath.mpf(e), 6)


# -- bad twins -----------------------------------------------------------------------------------

def twin_531_no_floor(n: int, eps0: Any, alpha: int) -> mpmath.mpf:
    """(5.4) with nbar = (n-1)/(2E) + 1 (floor dropped; what App. D.1 (D.1)/(D.9) write)."""
    nb = sb.nbar(n, eps0, floor=False, dps=DPS)
    with mpmath.workdps(DPS + 10):
        E = mpmath.exp(mpmath.mpf(eps0))
        inner = (mpmath.binomial(alpha, 2) * (E - 1) ** 2 / (nb * E) + sb.special_sum(nb, E, alpha)
                 + mpmath.exp(mpmath.mpf(eps0) * alpha - (n - 1) / (8 * E)))
        return mpmath.log1p(inner) / (alpha - 1)


def twin_535_at(m_real: Any, eps0: Any, alpha: int) -> mpmath.mpf:
    """Thm 5.3.5's right side at a possibly non-integer m (what the no-floor twin applies)."""
    with mpmath.workdps(DPS + 10):
        E = mpmath.exp(mpmath.mpf(eps0))
        m = mpmath.mpf(m_real)
        return 1 + mpmath.binomial(alpha, 2) * (E - 1) ** 2 / (m * E) + sb.special_sum(m, E, alpha)


def twin_531_n_unbarred(n: int, eps0: Any, alpha: int) -> mpmath.mpf:
    """(5.4) with n for nbar (drops the factor ~2E of nbar ~ n/(2E))."""
    return sb.thm531_upper(n, eps0, alpha, variant="n_unbarred", dps=DPS)


def twin_533_nbar(n: int, eps0: Any, alpha: int) -> mpmath.mpf:
    """(5.9) with nbar for n in the coefficients."""
    return sb.thm533_lower(n, eps0, alpha, variant="nbar", dps=DPS)


def twin_542_kbar(n: int, k: int, eps0: Any, alpha: int) -> mpmath.mpf:
    """Thm 5.4.2 with kbar for k."""
    return sb.thm542_lower(n, k, eps0, alpha, variant="kbar", dps=DPS)


def twin_upsilon_dropped_alpha(alpha: int, x: Any) -> mpmath.mpf:
    """(1 + x)^alpha - 1 - x: the Upsilon tail with its alpha factor dropped."""
    with mpmath.workdps(DPS + 10):
        x = mpmath.mpf(x)
        return (1 + x) ** alpha - 1 - x


#: twin name -> (what it is, the check that rejects it)
TWINS: dict[str, tuple[str, str]] = {
    "531_no_floor": ("(5.4) with nbar unfloored", "bcdp.checks.thesis.thm531_upper"),
    "531_n_unbarred": ("(5.4) with n for nbar (dropped factor 2E)", "bcdp.checks.thesis.thm531_upper"),
    "533_swapped": ("(5.9) claimed for D_alpha(M(D)||M(D')) (swapped M(D)/M(D'))",
                    "bcdp.checks.thesis.thm533_lower"),
    "533_nbar": ("(5.9) with nbar for n", "bcdp.checks.thesis.thm533_lower"),
    "540_printed": ("(5.40) as printed, M(D)/M(D') - 1 = affine", "bcdp.checks.thesis.erratum_eq540"),
    "541_no_floor": ("Thm 5.4.1 with kbar unfloored -- NOT rejected by the oracle on the check's instances "
                     "(no tight step exists in the ternary chain); rejected only by the proof's integrality",
                     "bcdp.checks.thesis.thm541_subsampled_upper"),
    "541_dropped_alpha": ("Upsilon with the alpha factor dropped",
                          "bcdp.checks.thesis.thm541_subsampled_upper"),
    "542_kbar": ("Thm 5.4.2 with kbar for k", "bcdp.checks.thesis.thm542_subsampled_lower"),
    "542_swapped": ("Thm 5.4.2 claimed for D_alpha(M_s(D)||M_s(D'))",
                    "bcdp.checks.thesis.thm542_subsampled_lower"),
}


def seeded(seed: int) -> random.Random:
    return random.Random(seed)


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    import time

    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t
