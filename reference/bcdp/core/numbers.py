"""The number-input policy of bcdp: exact scalars for exact functions, floats only for float twins.

Every exact function of :mod:`bcdp`, in every paper's package, funnels its numeric inputs through
:func:`to_fraction` (or :func:`to_probability`).  Accepted: ``int``, ``Fraction``, sympy ``Rational``,
``decimal.Decimal`` and strings such as ``"1/3"``, ``"0.2"`` or ``"1e-300"`` (read as the exact
decimal they spell).  Refused: ``float`` (a binary float such as ``0.1`` is not the rational the user
meant: :class:`~bcdp.core.errors.FloatRefusedError`), ``bool``, NaN and infinities.  Sizes are capped
*before* the exact conversion (:data:`MAX_DIGITS` characters, decimal exponents up to
:data:`MAX_DECIMAL_EXPONENT`), so that ``"1e-999999999"`` is refused at once instead of building a
billion-digit denominator.

Working precisions (``dps=`` decimal digits, ``prec=`` / ``bits=`` binary digits) of every public
function are checked by the one validator :func:`check_precision`: an int (bools and floats
refused, :class:`~bcdp.core.errors.WrongTypeError`) within [minimum, maximum]
(:class:`~bcdp.core.errors.InvalidInputError`), the caps being :data:`MAX_DPS` and
:data:`MAX_PREC_BITS` unless a function states its own.

Float twins (functions named ``*_float``, and the float64 fast paths) take their inputs through
:func:`to_float_input`, which accepts ints, floats, Fractions and numeric strings and refuses bools,
NaN and (unless allowed) infinities.  They are documented as approximations; only exact functions and
certified enclosures are guarantees.

sympy is imported only when a sympy value is met or a sympy result is asked for.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError

if TYPE_CHECKING:  # pragma: no cover
    import sympy

#: Sentinel for an infinite privacy parameter (a ratio with zero denominator, non-zero numerator).
INFINITY = math.inf

#: Longest numeric string accepted by :func:`to_fraction` (characters, after stripping).
MAX_DIGITS = 10_000
#: Largest |exponent| of a decimal accepted by :func:`to_fraction` (``"1e-5000"`` is fine).
MAX_DECIMAL_EXPONENT = 10_000


#: Smallest working precision in decimal digits accepted by default (double precision).
MIN_DPS = 15
#: Largest working precision in decimal digits (mpmath ``dps``) a public function accepts.
MAX_DPS = 10_000
#: Guard digits that internal evaluations may add to a caller's ``dps`` when they call another
#: public function (e.g. a bound calling ``upsilon(..., dps=dps + 10)``): the functions called that
#: way (core divergences, the shuffle input helpers, ``upsilon``, ``binomial_central_moments``)
#: accept up to ``MAX_DPS + GUARD_DPS``.
GUARD_DPS = 100
#: Smallest arb working precision in bits accepted from callers (a float's 53 bits).
MIN_PREC_BITS = 53
#: Largest arb working precision in bits: 2^17, room for the guard bits a computation at
#: :data:`MAX_DPS` digits adds (about 33,220 bits) several times over.
MAX_PREC_BITS = 2 ** 17


def check_precision(value: Any, name: str, minimum: int, maximum: int) -> int:
    """A working precision: an int in [minimum, maximum], returned as a plain int.

    Refuses bools, floats (also integral ones: ``2.0``), strings and every non-integer with
    :class:`~bcdp.core.errors.WrongTypeError`, and values outside [minimum, maximum] (``0``, ``-1``,
    ``10**9``) with :class:`~bcdp.core.errors.InvalidInputError`; the message names ``name`` and the
    accepted range.  numpy integers are accepted as ints."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise WrongTypeError(f"{name} must be an integer in [{minimum}, {maximum}], got {type(value).__name__} "
                             f"{value!r}")
    v = int(value)
    if not minimum <= v <= maximum:
        raise InvalidInputError(f"{name} must be an integer in [{minimum}, {maximum}], got {v}")
    return v


def _is_sympy(value: Any) -> bool:
    return type(value).__module__.startswith("sympy")


def _checked_decimal(dec: Decimal, value: Any, name: str) -> Fraction:
    if not dec.is_finite():
        raise InvalidInputError(f"{name}: non-finite value {value!r}")
    if dec != 0 and abs(dec.adjusted()) > MAX_DECIMAL_EXPONENT:
        raise InvalidInputError(f"{name}: exponent of {value!r} is beyond the cap 10^{MAX_DECIMAL_EXPONENT}")
    if len(dec.as_tuple().digits) > MAX_DIGITS:
        raise InvalidInputError(f"{name}: {value!r} has more than {MAX_DIGITS} digits")
    return Fraction(dec)


def to_fraction(value: Any, name: str = "value") -> Fraction:
    """Return ``value`` as an exact Fraction, refusing floats, bools and non-finite values."""
    if isinstance(value, bool):
        raise WrongTypeError(f"{name}: booleans are not numbers here (got {value!r})")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        raise FloatRefusedError(
            f"{name}: floats are refused by exact functions (got {value!r}); "
            "pass a Fraction, an int, a sympy Rational or a string such as '1/3' or '0.1'"
        )
    if isinstance(value, Decimal):
        return _checked_decimal(value, value, name)
    if _is_sympy(value):
        import sympy

        if isinstance(value, sympy.Rational):
            return Fraction(int(value.p), int(value.q))
        raise WrongTypeError(f"{name}: sympy value {value} is not a rational number")
    if isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_DIGITS:
            raise InvalidInputError(f"{name}: numeric string longer than {MAX_DIGITS} characters")
        try:
            if "/" in text:
                num, den = text.split("/", 1)
                return Fraction(int(num.strip()), int(den.strip()))
            dec = Decimal(text)
        except (ValueError, InvalidOperation, ZeroDivisionError) as exc:
            raise InvalidInputError(f"{name}: cannot read {value!r} as an exact rational") from exc
        return _checked_decimal(dec, value, name)
    raise WrongTypeError(f"{name}: cannot use {type(value).__name__} {value!r} as an exact rational")


def to_float_input(value: Any, name: str = "value", *, allow_inf: bool = False) -> float:
    """The input policy of float twins: a float from an int, float, Fraction, Decimal or numeric string.

    Refuses bools, NaN, non-numeric types and (unless ``allow_inf``) infinities, with
    :class:`~bcdp.core.errors.InvalidInputError` naming ``name``.
    """
    if isinstance(value, bool):
        raise WrongTypeError(f"{name}: booleans are not numbers here (got {value!r})")
    if isinstance(value, str):
        text = value.strip()
        if len(text) > MAX_DIGITS:
            raise InvalidInputError(f"{name}: numeric string longer than {MAX_DIGITS} characters")
        try:
            out = float(Fraction(text)) if "/" in text else float(text)
        except (ValueError, ZeroDivisionError, OverflowError) as exc:
            raise InvalidInputError(f"{name}: cannot read {value!r} as a number") from exc
    elif isinstance(value, (int, float, Fraction, Decimal)) or _is_sympy(value):
        try:
            out = float(value)
        except (TypeError, ValueError, OverflowError) as exc:
            raise InvalidInputError(f"{name}: cannot use {value!r} as a float") from exc
    else:
        try:
            out = float(value)  # numpy scalars
        except (TypeError, ValueError) as exc:
            raise WrongTypeError(f"{name}: cannot use {type(value).__name__} {value!r} as a number") from exc
    if math.isnan(out):
        raise InvalidInputError(f"{name}: NaN is not a number here")
    if math.isinf(out) and not allow_inf:
        raise InvalidInputError(f"{name} must be finite, got {value!r}")
    return out


def to_probability(value: Any, name: str = "probability") -> Fraction:
    """Exact probability in [0, 1]."""
    p = to_fraction(value, name)
    if p < 0 or p > 1:
        raise InvalidInputError(f"{name}: {brief_number(p)} is not a probability in [0, 1]")
    return p


#: Largest number of digits of a numerator or denominator that :func:`brief_number` writes out exactly.
BRIEF_DIGITS = 40
#: beyond this size (about 60000 digits) brief_number estimates its 6 digits from the leading bits
BRIEF_EXACT_BITS = 200_000


def brief_number(value: int | Fraction | sympy.Rational) -> str:
    """An exact rational for an error message, never a crash: the exact ``p/q`` when numerator and
    denominator have at most :data:`BRIEF_DIGITS` digits, otherwise ``about 1.23457e+4999``: 6
    significant digits, correctly rounded (half to even) by integer arithmetic while numerator and
    denominator have at most :data:`BRIEF_EXACT_BITS` bits, from their leading 64 bits beyond that.
    ``str`` of a rational whose numerator has more than 4300 digits raises ValueError (Python's
    int-to-str limit), which turned a bad input (a kernel row of 5000-digit integers that does not
    sum to 1) into an internal error."""
    q = Fraction(value)
    num, den = abs(q.numerator), q.denominator
    limit = int(BRIEF_DIGITS * 3.3219280948873626)       # bits of a BRIEF_DIGITS-digit number
    if num.bit_length() <= limit and den.bit_length() <= limit:
        return str(q)
    sign = "-" if q < 0 else ""

    def log10(i: int) -> float:                        # log10 of a positive int from its top 64 bits
        shift = max(0, i.bit_length() - 64)
        return math.log10(i >> shift) + shift * math.log10(2)

    exponent10 = log10(num) - log10(den)
    e = math.floor(exponent10)
    if max(num.bit_length(), den.bit_length()) > BRIEF_EXACT_BITS:
        return f"about {sign}{10 ** (exponent10 - e):.6g}e{e:+d}"
    while True:                                        # the float estimate of e is off by at most 1
        digits = round(Fraction(num, den) * Fraction(10) ** (5 - e))   # exact, half to even
        if digits >= 10 ** 6:                          # also 9.999995 rounded up to 10.0000
            e += 1
        elif digits < 10 ** 5:
            e -= 1
        else:
            break
    mantissa = f"{digits // 10 ** 5}.{digits % 10 ** 5:05d}".rstrip("0").rstrip(".")
    return f"about {sign}{mantissa}e{e:+d}"


def log_of_ratio(ratio: Fraction | float) -> sympy.Expr:
    """sympy value of ``log(ratio)``; ``oo`` for the infinite sentinel."""
    import sympy

    if ratio == INFINITY:
        return sympy.oo
    return sympy.log(sympy.Rational(ratio.numerator, ratio.denominator))


def ratio_to_float_log(ratio: Fraction | float) -> float:
    """float64 ``log(ratio)`` of an exact ratio, accurate to about one ulp.

    Evaluated with mpmath at 40 digits, as log1p of the exact excess r - 1 near 1 (``log(p) -
    log(q)`` in float64 would lose ~1e-13 when p and q are huge and the ratio is near 1).
    """
    if ratio == INFINITY:
        return math.inf
    r = Fraction(ratio)
    if r <= 0:
        raise InvalidInputError(f"log of non-positive ratio {r}")
    import mpmath

    with mpmath.workdps(40):
        excess = r - 1
        if abs(excess) < Fraction(1, 2):  # log1p of the exact excess keeps relative precision
            return float(mpmath.log1p(mpmath.mpf(excess.numerator) / excess.denominator))
        return float(mpmath.log(mpmath.mpf(r.numerator) / r.denominator))
