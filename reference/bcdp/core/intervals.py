"""Intervals and rounding: the one certification backend of bcdp (``mpmath.iv``).

Everything certified in the library is an enclosure computed here or with the helpers here:

* :func:`iv_precision` -- the one context manager that sets the working precision of ``mpmath.iv``
  (bits) and restores it;
* :func:`lower_end` / :func:`upper_end` -- the exact endpoints of an ``mpmath.iv`` interval as mpf;
* :func:`float_down` / :func:`float_up` -- directed rounding of an exact mpf to the largest float
  <= it / the smallest float >= it (mpmath converts to nearest, so the result is corrected with
  ``math.nextafter``); :func:`outward_floats` applies both to an interval: a pair of floats whose
  interval contains the enclosure, so the decimal strings printed from it are themselves a valid
  enclosure.

Backend choice: ``mpmath.iv`` (outward-rounded interval arithmetic on mpf endpoints).  python-flint's
arb balls were measured against it on the library's workloads (``benchmarks/bench_intervals.py``).

Certified evaluation of closed-form sympy expressions:

:func:`interval` turns an expression built from rationals, +, *, integer/rational powers, exp, log,
Min and Max into an ``mpmath.iv`` enclosure of its exact value.  :func:`compare` decides the sign of
``a - b`` exactly: the enclosure is tightened (53, 120, 250, 500, 1000 bits) until it excludes
zero; if it never does, the difference must simplify to 0 in sympy (a proven tie), otherwise the
comparison raises instead of guessing.  For the expressions of this library (rationals, exp and log of
rationals) a non-simplifying tie cannot occur silently: the loop would raise.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath

from bcdp.core.errors import UndecidedComparison

if TYPE_CHECKING:  # pragma: no cover
    import sympy

PRECISIONS = (53, 120, 250, 500, 1000)


@contextmanager
def iv_precision(bits: int) -> Iterator[Any]:
    """Set ``mpmath.iv.prec`` to ``bits`` for the block and restore it; yields ``mpmath.iv``."""
    saved = mpmath.iv.prec
    mpmath.iv.prec = bits
    try:
        yield mpmath.iv
    finally:
        mpmath.iv.prec = saved


def lower_end(x: Any) -> mpmath.mpf:
    """The exact lower endpoint of an ``mpmath.iv`` interval, as an mpf (no rounding)."""
    return mpmath.mp.make_mpf(x._mpi_[0])


def upper_end(x: Any) -> mpmath.mpf:
    """The exact upper endpoint of an ``mpmath.iv`` interval, as an mpf (no rounding)."""
    return mpmath.mp.make_mpf(x._mpi_[1])


def float_up(x: Any) -> float:
    """The smallest float >= x, for an exact mpf (or int/Fraction) x; +inf if it overflows."""
    x = x if isinstance(x, mpmath.mpf) else _exact_mpf(x)
    if mpmath.isinf(x):
        return math.inf if x > 0 else -math.inf
    f = float(x)
    if mpmath.mpf(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def float_down(x: Any) -> float:
    """The largest float <= x, for an exact mpf (or int/Fraction) x; -inf if it overflows."""
    x = x if isinstance(x, mpmath.mpf) else _exact_mpf(x)
    if mpmath.isinf(x):
        return math.inf if x > 0 else -math.inf
    f = float(x)
    if mpmath.mpf(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def _exact_mpf(x: Any) -> mpmath.mpf:
    if isinstance(x, int):
        return mpmath.mpf(x)  # exact: mpf integers carry arbitrary precision
    raise TypeError(f"float_up/float_down need an exact mpf or int, got {type(x).__name__}")


def outward_floats(x: Any) -> tuple[float, float]:
    """(lo, hi) floats with lo <= every point of the ``mpmath.iv`` interval x <= hi."""
    return float_down(lower_end(x)), float_up(upper_end(x))


def interval(expr: sympy.Expr, prec: int = 53):
    """An mpmath.iv interval enclosing the exact value of ``expr`` (at ``prec`` bits)."""
    import sympy

    with iv_precision(prec) as iv:
        return _iv(sympy.sympify(expr), iv)


def _iv(e: sympy.Expr, iv):
    import sympy

    if e is sympy.oo:
        return iv.mpf([mpmath.inf, mpmath.inf])
    if e is sympy.S.NegativeInfinity:
        return iv.mpf([-mpmath.inf, -mpmath.inf])
    if isinstance(e, sympy.Rational):
        return iv.mpf(int(e.p)) / iv.mpf(int(e.q))
    if e is sympy.E:
        return iv.exp(iv.mpf(1))
    if isinstance(e, sympy.Add):
        out = iv.mpf(0)
        for a in e.args:
            out = out + _iv(a, iv)
        return out
    if isinstance(e, sympy.Mul):
        out = iv.mpf(1)
        for a in e.args:
            out = out * _iv(a, iv)
        return out
    if isinstance(e, sympy.Pow):
        base, ex = e.args
        if isinstance(ex, sympy.Integer):
            b = _iv(base, iv)
            n = int(ex)
            return b ** n if n >= 0 else iv.mpf(1) / (b ** (-n))
        return iv.exp(_iv(ex, iv) * iv.log(_iv(base, iv)))
    if isinstance(e, sympy.exp):
        return iv.exp(_iv(e.args[0], iv))
    if isinstance(e, sympy.log):
        return iv.log(_iv(e.args[0], iv))
    if isinstance(e, (sympy.Min, sympy.Max)):
        vals = [_iv(a, iv) for a in e.args]
        lo = [v.a for v in vals]
        hi = [v.b for v in vals]
        pick = min if isinstance(e, sympy.Min) else max
        return iv.mpf([pick(lo), pick(hi)])
    raise TypeError(f"cannot evaluate {e} ({type(e).__name__}) with interval arithmetic")


def compare(a, b) -> int:
    """Exact sign of a - b: -1, 0 or 1 (certified; see module docstring).

    Order of work: enclosures at 53, 120, ... 1000 bits (cheap; settle every non-tie in practice);
    only if all of them contain zero does sympy try to prove the difference identically 0 (a tie).
    Structural ties such as log(exp(1/5)) - 1/5 are already 0 after sympy's automatic evaluation.
    """

    diff = as_sympy(a) - as_sympy(b)
    if diff == 0:
        return 0
    for prec in PRECISIONS:
        enc = interval(diff, prec)
        if enc.a > 0:
            return 1
        if enc.b < 0:
            return -1
    if is_identically_zero(diff):
        return 0
    raise UndecidedComparison(f"cannot certify the sign of {diff}")


def is_identically_zero(expr: sympy.Expr) -> bool:
    """Try to prove expr == 0 symbolically: expand, then cancel, then full simplify."""
    import sympy

    e = sympy.expand(expr)
    if e == 0:
        return True
    if sympy.cancel(sympy.together(e)) == 0:
        return True
    return sympy.simplify(e) == 0


def as_sympy(value) -> sympy.Expr:
    """sympy form of an exact value (Fractions become Rationals; floats are refused)."""
    import sympy

    if isinstance(value, float):
        raise TypeError(f"float {value!r} given where an exact value is required")
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    return sympy.sympify(value)


def leq(a, b) -> bool:
    """Certified a <= b."""
    return compare(a, b) <= 0


def enclosure(expr, prec: int = 120) -> tuple[float, float]:
    """(lower, upper) floats bracketing the exact value (outward-rounded to float)."""
    return outward_floats(interval(expr, prec))


def to_float(expr) -> float:
    """Nearest float to the exact value (midpoint of a 120-bit enclosure; inf kept)."""
    import sympy

    e = sympy.sympify(expr)
    if e is sympy.oo:
        return float("inf")
    enc = interval(e, 120)
    with mpmath.workprec(120):
        return float(mpmath.mpf(enc.mid))
