"""Intervals and rounding: the one certification backend of bcdp, python-flint's arb balls.

Everything certified in the library is an enclosure computed here or with the helpers here.

**Backend.**  Arb (python-flint ``flint.arb``: a midpoint-radius ball whose every operation is
proved to enclose the exact result).  It was measured against ``mpmath.iv`` on the library's
workloads (``benchmarks/bench_intervals.py``): arb is 10-45x faster, and mpmath 1.3's ``iv.exp``,
``iv.log1p`` and ``iv.expm1`` return enclosures that *exclude* the true value for tiny arguments
(e.g. ``iv.exp(-2**-53)`` at 53 bits is the single point 1 - 2^-53; mpmath issue #1181), which no
certified result may rest on; no module of bcdp does ``mpmath.iv`` arithmetic (a test enforces it).

* :func:`arb_precision` -- the working precision (bits) of arb for a block, restored after;
* :func:`ball_of` -- an exact number (int, Fraction, float, mpf, sympy Rational) as a ball (exact
  for dyadic values, one outward rounding for other rationals);
* :func:`ball` -- an enclosure of a closed-form sympy expression (rationals, +, *, powers, exp, log,
  Min, Max, E);
* :func:`ball_lower` / :func:`ball_upper` -- exact endpoints of a ball as Fractions;
* :func:`float_down` / :func:`float_up` -- directed rounding of an exact value (int, Fraction, mpf)
  to the largest float <= it / the smallest float >= it, subnormals and overflow included;
  :func:`outward_floats` applies both to a ball (or an ``mpmath.iv`` interval), so that decimal
  strings printed from it are themselves a valid enclosure;
* :func:`compare` -- the exact sign of a - b for closed forms: enclosures at 53, 120, ... 1000 bits
  until one excludes zero; if none does, sympy must prove the difference identically 0 (a tie),
  otherwise :class:`~bcdp.core.errors.UndecidedComparison` is raised instead of guessing.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import mpmath

from bcdp.core.errors import InvalidInputError, UndecidedComparison
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, check_precision

if TYPE_CHECKING:  # pragma: no cover
    import flint
    import sympy

PRECISIONS = (53, 120, 250, 500, 1000)


def exact_fraction(x: Any) -> Fraction:
    """The exact rational value of an int, Fraction, finite float, mpf or exact (zero-radius) ball."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, bool):
        raise InvalidInputError("booleans are not numbers here")
    if isinstance(x, (int, float)):
        if isinstance(x, float) and not math.isfinite(x):
            raise InvalidInputError(f"{x!r} has no exact rational value")
        return Fraction(x)
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise InvalidInputError(f"{x} has no exact rational value")
        sign, man, exp, _bc = x._mpf_
        value = _dyadic(int(man), int(exp))
        return -value if sign else value
    if type(x).__name__ == "arb":
        if not (x.is_finite() and x.is_exact()):
            raise InvalidInputError(f"ball {x} is not an exact finite point")
        m, e = x.man_exp()
        return _dyadic(int(m), int(e))
    raise InvalidInputError(f"cannot take the exact value of {type(x).__name__} {x!r}")


def _dyadic_directed(m: int, e: int, up: bool) -> float | None:
    """The smallest float >= m 2^e (``up``) or the largest float <= it, in integer arithmetic; None
    when the result would not be a normal float (subnormal or beyond the range: the caller then takes
    the Fraction path of :func:`_directed`).  The mantissa is cut to 53 bits by a floor (Python's
    ``>>`` floors negative integers too), plus one if ``up`` and bits were dropped; the result then
    has at most 53 significant bits (2^53 after a carry) and ``math.ldexp`` is exact."""
    if m == 0:
        return 0.0
    shift = abs(m).bit_length() - 53
    if shift > 0:
        t = m >> shift
        if up and (t << shift) != m:
            t += 1
        m, e = t, e + shift
    top = e + abs(m).bit_length()                # |m 2^e| lies in [2^(top-1), 2^top]
    if top - 1 < -1022 or top > 1024:
        return None
    return math.ldexp(m, e)


def _directed(x: Any, up: bool) -> float:
    if type(x).__name__ == "arb" and x.is_finite() and x.is_exact():
        m, e = x.man_exp()
        f = _dyadic_directed(int(m), int(e), up)
        if f is not None:
            return f
    elif isinstance(x, Fraction) and x.denominator & (x.denominator - 1) == 0:
        f = _dyadic_directed(x.numerator, 1 - x.denominator.bit_length(), up)
        if f is not None:
            return f
    if isinstance(x, mpmath.mpf) and mpmath.isinf(x):
        return math.inf if x > 0 else -math.inf
    if isinstance(x, float) and math.isinf(x):
        return x
    q = exact_fraction(x)
    if q == 0:
        return 0.0
    try:
        f = float(q)  # correctly rounded (to nearest); subnormals included; raises beyond the range
    except OverflowError:
        big = sys.float_info.max
        return (math.inf if up else big) if q > 0 else (-big if up else -math.inf)
    if up and Fraction(f) < q:
        f = math.nextafter(f, math.inf)
    elif not up and Fraction(f) > q:
        f = math.nextafter(f, -math.inf)
    return f


def float_up(x: Any) -> float:
    """The smallest float >= x, for an exact x (int, Fraction, float, mpf, exact ball); +inf if
    x exceeds the largest float."""
    return _directed(x, True)


def float_down(x: Any) -> float:
    """The largest float <= x, for an exact x (int, Fraction, float, mpf, exact ball); -inf if
    x is below the most negative float."""
    return _directed(x, False)


def outward_floats(x: Any) -> tuple[float, float]:
    """(lo, hi) floats with lo <= every point of the arb ball x <= hi ((-inf, inf) if not finite)."""
    if not x.is_finite():
        return -math.inf, math.inf
    a, b, e = _ends_on_common_exponent(x)
    lo, hi = _dyadic_directed(a - b, e, False), _dyadic_directed(a + b, e, True)
    if lo is None or hi is None:
        return float_down(_dyadic(a - b, e)), float_up(_dyadic(a + b, e))
    return lo, hi


# -- arb (the backend) --------------------------------------------------------------------------------

@contextmanager
def arb_precision(bits: int) -> Iterator[Any]:
    """Set arb's working precision to ``bits`` for the block and restore it; yields ``flint.arb``.
    ``bits`` is an int in [53, 2^17] (:func:`bcdp.core.numbers.check_precision`)."""
    import flint

    bits = check_precision(bits, "bits", MIN_PREC_BITS, MAX_PREC_BITS)

    with flint.ctx.workprec(bits):
        yield flint.arb


def ball_of(x: Any) -> flint.arb:
    """An exact number as an arb ball at the current arb precision: exact for ints, floats, mpf and
    dyadic Fractions; one outward rounding for other rationals.  Floats are taken at their exact
    binary value (callers that refuse floats do so before)."""
    import flint

    if isinstance(x, flint.arb):
        return x
    if isinstance(x, bool):
        raise InvalidInputError("booleans are not numbers here")
    if isinstance(x, int):
        return flint.arb(flint.fmpz(x))
    if isinstance(x, float):
        if math.isnan(x):
            raise InvalidInputError("NaN has no enclosure")
        return flint.arb(x) if math.isfinite(x) else (flint.arb.pos_inf() if x > 0 else flint.arb.neg_inf())
    if isinstance(x, mpmath.mpf):
        if mpmath.isinf(x):
            return flint.arb.pos_inf() if x > 0 else flint.arb.neg_inf()
        q = exact_fraction(x)
    elif type(x).__module__.startswith("sympy"):
        q = Fraction(int(x.p), int(x.q))
    else:
        q = Fraction(x)
    if q.denominator & (q.denominator - 1) == 0:  # dyadic: exact, the mantissa at its full width
        # (arb's product with 2^-k would round a numerator wider than the working precision)
        return flint.arb((q.numerator, -(q.denominator.bit_length() - 1)))
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def ball_ends(x: flint.arb) -> tuple[Fraction, Fraction]:
    """The exact ends (mid - rad, mid + rad) of a finite ball, as Fractions, whatever the current
    arb precision (no rounding: the midpoint is exact, the radius is taken at its exact value or,
    if arb reports it inexactly, at an upper end)."""
    if not x.is_finite():
        raise InvalidInputError(f"ball {x} is not finite")
    a, b, e = _ends_on_common_exponent(x)
    return _dyadic(a - b, e), _dyadic(a + b, e)


def _ends_on_common_exponent(x: flint.arb) -> tuple[int, int, int]:
    """(a, b, e) with the finite ball's ends (mid - rad, mid + rad) = ((a - b) 2^e, (a + b) 2^e), all
    integers (the radius at its exact value or, if arb reports it inexactly, at an upper end)."""
    rad = x.rad()
    if not rad.is_exact():
        rad = rad.upper()
    m1, e1 = (int(v) for v in x.mid().man_exp())
    m2, e2 = (int(v) for v in rad.man_exp())
    e = min(e1, e2)
    return m1 << (e1 - e), m2 << (e2 - e), e


def _dyadic(m: int, e: int) -> Fraction:
    """m * 2^e as a Fraction."""
    return Fraction(m << e) if e >= 0 else Fraction(m, 1 << -e)


def exact_mpf(x: flint.arb) -> mpmath.mpf:
    """The exact value of an exact (zero-radius) arb ball as an mpf (no rounding, any precision)."""
    man, exp = x.man_exp()
    return mpmath.mp.make_mpf(mpmath.libmp.from_man_exp(int(man), int(exp)))


def ball_ends_mpf(x: flint.arb) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The exact ends (mid - rad, mid + rad) of a ball as mpf (exact sums, no rounding);
    (-inf, inf) when the ball is not finite."""
    if not x.is_finite():
        return mpmath.mpf("-inf"), mpmath.mpf("inf")
    rad = x.rad()
    if not rad.is_exact():
        rad = rad.upper()
    mid, r = exact_mpf(x.mid()), exact_mpf(rad)
    return mpmath.fsub(mid, r, exact=True), mpmath.fadd(mid, r, exact=True)


def ball_lower(x: flint.arb) -> Fraction:
    """The exact lower end of a finite ball, as a Fraction (see :func:`ball_ends`)."""
    return ball_ends(x)[0]


def ball_upper(x: flint.arb) -> Fraction:
    """The exact upper end of a finite ball, as a Fraction (see :func:`ball_ends`)."""
    return ball_ends(x)[1]


def ball_power(b: flint.arb, n: int) -> flint.arb:
    """b^n for an integer n, also when the ball b contains 0 (python-flint 0.9's ``arb ** int``
    returns nan there): even powers of such a ball are [0, max|b|^n], odd powers a product."""
    import flint

    if n < 0:
        return flint.arb(1) / ball_power(b, -n)
    if n == 0:
        return flint.arb(1)
    if not b.contains(0):
        return b ** n
    if n % 2 == 0:
        return flint.arb(0).union(b.abs_upper() ** n)
    out = b
    for _ in range(n - 1):
        out = out * b
    return out


def ball(expr: sympy.Expr, prec: int = 53) -> flint.arb:
    """An arb ball enclosing the exact value of the closed form ``expr`` (at ``prec`` bits, an int in
    [53, 2^17])."""
    import sympy

    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    with arb_precision(prec):
        return _ball(sympy.sympify(expr))


def _ball(e: Any) -> Any:
    import flint
    import sympy

    arb = flint.arb
    if e is sympy.oo:
        return arb.pos_inf()
    if e is sympy.S.NegativeInfinity:
        return arb.neg_inf()
    if isinstance(e, sympy.Rational):
        return ball_of(e)
    if e is sympy.E:
        return arb(1).exp()
    if isinstance(e, sympy.Add):
        out = arb(0)
        for a in e.args:
            out = out + _ball(a)
        return out
    if isinstance(e, sympy.Mul):
        out = arb(1)
        for a in e.args:
            out = out * _ball(a)
        return out
    if isinstance(e, sympy.Pow):
        base, ex = e.args
        if isinstance(ex, sympy.Integer):
            return ball_power(_ball(base), int(ex))
        return (_ball(ex) * _ball(base).log()).exp()
    if isinstance(e, sympy.exp):
        return _ball(e.args[0]).exp()
    if isinstance(e, sympy.log):
        return _ball(e.args[0]).log()
    if isinstance(e, (sympy.Min, sympy.Max)):
        vals = [_ball(a) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.min(v) if isinstance(e, sympy.Min) else out.max(v)
        return out
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
        with arb_precision(prec):
            enc = _ball(diff)
            if enc > 0:
                return 1
            if enc < 0:
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
    """(lower, upper) floats bracketing the exact value (outward-rounded to float); ``prec`` bits as
    in :func:`ball`."""
    return outward_floats(ball(expr, check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)))


def _nearest_float(q: Fraction) -> float:
    """The float nearest to the exact q (ties to even, as ``float(Fraction)``); +-inf beyond the range."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def to_float(expr) -> float:
    """Nearest float to the exact value (inf kept).

    Both ends of enclosures at 120, 250, 500, 1000 bits are rounded to the nearest float until they
    give the same float; rounding to nearest is monotone, so the exact value between them rounds to
    it too.  (The midpoint of one 120-bit ball rounded again to 53 bits is a double rounding: a value
    just above a midpoint between two floats could round to the float below.)  A value within about
    2^-1000 (relative) of such a midpoint may get either of the two floats around it: when no
    1000-bit enclosure settles it, the midpoint of the 1000-bit ball, rounded.  Beyond the float
    range: +-inf.
    """
    import sympy

    e = sympy.sympify(expr)
    if e is sympy.oo:
        return math.inf
    for prec in PRECISIONS[1:]:
        with arb_precision(prec):
            b = _ball(e)
        if not b.is_finite():
            return float(b.mid())
        lo, hi = ball_ends(b)
        nearest = _nearest_float(lo)
        if nearest == _nearest_float(hi):
            return nearest
    return float(b.mid())
