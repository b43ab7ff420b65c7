"""Certified evaluation of closed-form sympy expressions with mpmath interval arithmetic.

:func:`interval` turns an expression built from rationals, +, *, integer/rational powers, exp, log,
Min and Max into an ``mpmath.iv`` enclosure of its exact value.  :func:`compare` decides the sign of
``a - b`` exactly: the enclosure is tightened (53, 120, 250, 500, 1000 bits) until it excludes
zero; if it never does, the difference must simplify to 0 in sympy (a proven tie), otherwise the
comparison raises instead of guessing.  For the expressions of this library (rationals, exp and log of
rationals) a non-simplifying tie cannot occur silently: the loop would raise.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy

from bcdp.core.errors import UndecidedComparison

PRECISIONS = (53, 120, 250, 500, 1000)


def interval(expr: sympy.Expr, prec: int = 53):
    """An mpmath.iv interval enclosing the exact value of ``expr`` (at ``prec`` bits)."""
    iv = mpmath.iv
    saved = iv.prec
    try:
        iv.prec = prec
        return _iv(sympy.sympify(expr), iv)
    finally:
        iv.prec = saved  # leave the global interval context as we found it


def _iv(e: sympy.Expr, iv):
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
    e = sympy.expand(expr)
    if e == 0:
        return True
    if sympy.cancel(sympy.together(e)) == 0:
        return True
    return sympy.simplify(e) == 0


def as_sympy(value) -> sympy.Expr:
    """sympy form of an exact value (Fractions become Rationals; floats are refused)."""
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
    enc = interval(expr, prec)
    with mpmath.workprec(prec):
        lo = float(mpmath.mpf(enc.a))
        hi = float(mpmath.mpf(enc.b))
    import math
    return (math.nextafter(lo, -math.inf) if lo != -math.inf else lo,
            math.nextafter(hi, math.inf) if hi != math.inf else hi)


def to_float(expr) -> float:
    """Nearest float to the exact value (midpoint of a 120-bit enclosure; inf kept)."""
    e = sympy.sympify(expr)
    if e is sympy.oo:
        return float("inf")
    enc = interval(e, 120)
    with mpmath.workprec(120):
        return float(mpmath.mpf(enc.mid))
