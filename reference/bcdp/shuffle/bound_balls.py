"""Certified enclosures (arb balls) of the thesis Ch. 5 upper bounds (5.4), (5.5), (5.7) and (5.8).

Source: Girgis, PhD thesis, Chapter 5, Sec. 5.3: Thm 5.3.1 (5.4), Cor 5.3.1 (5.5), Thm 5.3.2 (5.7)
and [EFM19, Remark 1] as quoted in (5.8).  The same printed formulas as the mpmath functions of
:mod:`bcdp.shuffle.shuffled_bounds` (conventions there: E = e^{eps0}, nbar = floor((n-1)/(2E)) + 1,
replacement neighbours, sup over both directions), evaluated in arb ball arithmetic (python-flint,
the certification backend :mod:`bcdp.core.intervals`), so that the returned ball is proved to
contain the exact value of the bound at the exact eps0 and alpha given (strings are the decimals or
ratios they spell).  ``bcdp rdp to-dp --bound NAME`` composes and converts these balls.

Numerics: E - 1 and E^2 - 1 are taken as expm1(eps0) and expm1(2 eps0) (no cancellation at tiny
eps0), log(1 + x) as log1p(x), and log(e^u + e^v) as max + log1p(e^{min - max}); the floor in nbar
and the condition of Cor 5.3.1 are decided on the balls (the precision is doubled while a ball
straddles an integer or the threshold).  The working precision starts at :data:`PREC` bits and is
doubled until the radius is below :data:`REL` times the midpoint (or :data:`MAX_PREC` is reached:
the wider ball is still an enclosure).  eps0 = inf gives ``None`` (every bound is +inf there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath

from bcdp.core.errors import (
    CertificationError,
    InvalidInputError,
    UndecidedComparison,
    ValidityConditionError,
)
from bcdp.shuffle.inputs import check_alpha, check_count, check_eps0

#: First working precision (bits).
PREC = 200
#: Largest working precision tried (bits).
MAX_PREC = 3200
#: Target relative radius of the returned ball.
REL = 1e-30

#: The bounds enclosed here: name -> the orders they take ("integer"; "real"; (5.4) at a real order
#: is its interpolation (5.6), Remark 5.3.2).
UPPER_BOUNDS = {"thm531_upper": "real (5.6)", "cor531_upper": "integer", "thm532_upper": "real", "efm19_upper": "real"}


def _nbar(n: int, E: Any) -> int:
    """nbar = floor((n-1)/(2E)) + 1 from the ball E (UndecidedComparison if the ball straddles an integer)."""
    fl = ((n - 1) / (2 * E)).floor().unique_fmpz()
    if fl is None:
        raise UndecidedComparison("undecided at this precision")   # retried with more bits
    return int(fl) + 1


def _log1p_over(x: Any, a: Any) -> Any:
    return x.log1p() / (a - 1)


def _thm531(n: int, e0: Any, a: int) -> Any:
    """(5.4): 1/(a-1) log(1 + C(a,2)(E-1)^2/(nbar E) + sum_{i=3}^a C(a,i) i Gamma(i/2)
    ((E^2-1)^2/(2 E^2 nbar))^{i/2} + e^{eps0 a - (n-1)/(8E)})."""
    import flint

    from bcdp.core.intervals import ball_power

    E = e0.exp()
    nb = _nbar(n, E)
    em1 = e0.expm1()
    x = (2 * e0).expm1() ** 2 / (2 * E * E * nb)
    root = x.sqrt()
    inner = flint.arb(a * (a - 1) // 2) * em1 ** 2 / (nb * E)
    binom = a * (a - 1) // 2
    for i in range(3, a + 1):
        binom = binom * (a - i + 1) // i          # C(a, i), exact integers
        inner += flint.arb(binom * i) * (flint.arb(i) / 2).gamma() * ball_power(root, i)
    inner += (e0 * a - flint.arb(n - 1) / (8 * E)).exp()
    return _log1p_over(inner, flint.arb(a))


def _cor531(n: int, e0: Any, a: int) -> Any:
    """(5.5): 1/(a-1) log(1 + 4 C(a,2)(E-1)^2/n), if a^4 e^{5 eps0} < n/9 (decided on balls)."""
    import flint

    gap = flint.arb(a) ** 4 * (5 * e0).exp() - flint.arb(n) / 9
    if gap >= 0:
        raise ValidityConditionError(f"Cor 5.3.1 needs alpha^4 e^(5 eps0) < n/9; alpha={a}, n={n} violate it")
    if not gap < 0:
        raise UndecidedComparison("undecided at this precision")   # retried with more bits
    return _log1p_over(flint.arb(2 * a * (a - 1)) * e0.expm1() ** 2 / n, flint.arb(a))


def _thm532(n: int, e0: Any, a: Any) -> Any:
    """(5.7): 1/(a-1) log(e^{a^2 (E-1)^2/nbar} + e^{eps0 a - (n-1)/(8E)})."""
    import flint

    E = e0.exp()
    nb = _nbar(n, E)
    u = a * a * e0.expm1() ** 2 / nb
    v = e0 * a - flint.arb(n - 1) / (8 * E)
    # log(e^u + e^v) = hi + log1p(e^{lo - hi}) for either labelling (an identity); the larger one as
    # hi keeps the argument of log1p small
    hi, lo = (u, v) if u.mid() >= v.mid() else (v, u)
    return (hi + (lo - hi).exp().log1p()) / (a - 1)


def _thm531_real(n: int, e0: Any, a: Any) -> Any:
    """(5.4) at a real order through (5.6), Remark 5.3.2: with lo = floor(a), hi = ceil(a), w = hi - a,
    [w (lo-1) eps(lo) + (1-w)(hi-1) eps(hi)]/(a-1), the lo = 1 term being 0; integer a: (5.4)."""
    fl = a.floor().unique_fmpz()
    if fl is None:
        raise UndecidedComparison("undecided at this precision")   # retried with more bits
    lo = int(fl)
    if a.is_exact() and a == lo:
        return _thm531(n, e0, lo)
    w = (lo + 1) - a
    term_lo = 0 if lo == 1 else w * (lo - 1) * _thm531(n, e0, lo)
    return (term_lo + (1 - w) * lo * _thm531(n, e0, lo + 1)) / (a - 1)


def _efm19(n: int, e0: Any, a: Any) -> Any:
    """(5.8): 2 a e^{4 eps0} (E-1)^2/n."""
    return 2 * a * (4 * e0).exp() * e0.expm1() ** 2 / n


_EVAL: dict[str, Callable[[int, Any, Any], Any]] = {
    "thm531_upper": _thm531_real, "cor531_upper": _cor531, "thm532_upper": _thm532, "efm19_upper": _efm19,
}


def upper_bound_ball(name: str, n: int, eps0: Any, alpha: Any) -> Any:
    """An arb ball containing the exact value of the upper bound ``name`` (a key of
    :data:`UPPER_BOUNDS`) at (n, eps0, alpha), or ``None`` at eps0 = inf (the bound is +inf).

    Inputs as the mpmath bounds (:mod:`bcdp.shuffle.inputs`: exact values, floats refused); integer
    orders for (5.5), real orders for (5.4) through (5.6).  Cor 5.3.1's condition is enforced
    (:class:`~bcdp.core.errors.ValidityConditionError`).  A floor or condition still undecided at
    :data:`MAX_PREC` bits raises :class:`~bcdp.core.errors.CertificationError`."""
    import flint

    from bcdp.accounting.inputs import enclose
    from bcdp.core.intervals import arb_precision

    if name not in _EVAL:
        raise InvalidInputError(f"no certified evaluation of {name!r}; known: {', '.join(UPPER_BOUNDS)}")
    n = check_count(n)
    e = check_eps0(eps0)
    integer = UPPER_BOUNDS[name] == "integer"
    a = check_alpha(alpha, integer=integer)
    if mpmath.isinf(e):       # check_eps0 refused NaN and negatives
        return None
    if mpmath.isinf(a):
        raise InvalidInputError("alpha must be finite")
    prec = PREC
    while True:
        with arb_precision(prec):
            e0 = enclose(eps0, "eps0")
            A = int(a) if integer else (flint.arb(int(a)) if a == int(a) else enclose(alpha, "alpha"))
            try:
                out = _EVAL[name](n, e0, A)
            except UndecidedComparison:
                out = None
        if out is not None and out.is_finite() and (out.rad() <= abs(out.mid()) * REL or out.rad() == 0):
            return out
        if prec >= MAX_PREC:
            if out is not None and out.is_finite():
                return out
            raise CertificationError(f"{name}: no finite enclosure at n={n}, eps0={eps0}, alpha={alpha} "
                                     f"within {MAX_PREC} bits")
        prec *= 2


__all__ = ["MAX_PREC", "PREC", "REL", "UPPER_BOUNDS", "upper_bound_ball"]
