"""Argument checks of the shuffle package (thesis Ch. 5), under the number-input policy of
:mod:`bcdp.core.numbers`.

* High-precision (mpmath) functions read eps0, alpha, gamma, ... with :func:`read_mpf`
  (= :func:`bcdp.accounting.inputs.to_mpf`): ints, Fractions, decimal/ratio strings, sympy Rationals,
  Decimals and ``mpmath.mpf`` values; infinity as ``math.inf`` (the library's INFINITY sentinel),
  ``mpmath.inf`` or ``"inf"``; **floats are refused** (:class:`~bcdp.core.errors.FloatRefusedError`:
  ``0.1`` is not the rational the user meant; pass ``"0.1"``, ``Fraction(1, 10)``, or
  ``mpmath.mpf(x)`` for a float's exact binary value, or call the ``*_float`` twin).
  :func:`read_exact_mpf` also accepts closed-form strings and sympy numbers such as ``"log(2)"``
  (the exact oracles of :mod:`bcdp.shuffle.exact`, where e^eps0 must often be rational).
* Float twins (``*_float`` and the float64 fast paths) read through
  :func:`bcdp.core.numbers.to_float_input` (:func:`float_eps0`, :func:`float_orders`,
  :func:`integer_orders_float`).
* Counts (n, k, m) are integers; an integral mpf, Fraction or string is accepted by the exact
  functions, an integral float only by the float twins.

Errors: :class:`~bcdp.core.errors.InvalidInputError` for values outside the domain (alpha <= 1,
eps0 < 0, n < 1, k > n, NaN, a non-integer alpha where the theorem needs an integer);
:class:`~bcdp.core.errors.ValidityConditionError` is raised by the bounds themselves when a
theorem's stated condition fails.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from numbers import Integral
from typing import TYPE_CHECKING, Any

import mpmath

from bcdp.accounting.inputs import to_mpf
from bcdp.core.errors import (
    CertificationError,
    FloatRefusedError,
    InvalidInputError,
    WrongTypeError,
)
from bcdp.core.numbers import GUARD_DPS, MAX_DPS, MIN_DPS, check_precision, to_float_input, to_fraction

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: Default working precision (decimal digits) of the closed-form bounds.
DEFAULT_DPS = 60


# -- high precision ----------------------------------------------------------------------------------

def read_mpf(value: Any, name: str = "value") -> mpmath.mpf:
    """A high-precision input as an mpf at the current precision (floats refused; module doc)."""
    if isinstance(value, bool):
        raise WrongTypeError(f"{name}: booleans are not numbers here (got {value!r})")
    return to_mpf(value, name)


#: Identifiers allowed in a closed-form string read by :func:`read_exact_mpf` (no attribute access,
#: no other names: the string is parsed by sympy only when it passes this filter).
_SAFE_NAMES = {"log", "exp", "sqrt", "pi", "E"}
_SAFE_CHARS = re.compile(r"^[0-9A-Za-z+\-*/(). ]+$")


def read_exact_mpf(value: Any, name: str, dps: int) -> mpmath.mpf:
    """An exact input rounded once to ``dps`` digits: everything :func:`read_mpf` takes, plus sympy
    numbers (``sympy.log(2)``) and closed-form strings built from numbers, + - * / ( ), ``log``,
    ``exp``, ``sqrt``, ``pi`` and ``E`` (``"log(3/2)"``); floats refused."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    if isinstance(value, bool):
        raise WrongTypeError(f"{name}: booleans are not numbers here (got {value!r})")
    if type(value).__module__.startswith("sympy"):
        import sympy

        if isinstance(value, sympy.Rational):
            with mpmath.workdps(dps):
                return read_mpf(value, name)
        val = sympy.N(value, dps + 15)
        if not (val.is_number and val.is_real):
            raise InvalidInputError(f"{name}: {value} is not a real number")
        with mpmath.workdps(dps):
            return mpmath.mpf(str(val))
    if isinstance(value, str):
        try:
            q = to_fraction(value, name)
        except InvalidInputError:
            if value.strip().lower() in ("inf", "+inf", "infinity", "oo"):
                return mpmath.inf
            return read_exact_mpf(parse_closed_form(value, name), name, dps)
        with mpmath.workdps(dps):
            return mpmath.mpf(q.numerator) / q.denominator
    with mpmath.workdps(dps):
        return read_mpf(value, name)


def parse_closed_form(text: str, name: str) -> Any:
    """A sympy expression from a closed-form string, only if it is built from numbers, + - * / ( )
    and the names ``log``, ``exp``, ``sqrt``, ``pi``, ``E`` (no attribute access, no other names:
    the filter runs before sympy parses it)."""
    import sympy

    names = set(re.findall(r"[A-Za-z_]+", text))
    if not _SAFE_CHARS.match(text) or not names <= _SAFE_NAMES:
        raise InvalidInputError(f"{name}: cannot read {text!r} as a number or a closed form "
                                f"(allowed names: {', '.join(sorted(_SAFE_NAMES))})")
    try:
        return sympy.sympify(text, locals={"E": sympy.E})
    except (sympy.SympifyError, SyntaxError, TypeError) as exc:
        raise InvalidInputError(f"{name}: cannot read {text!r} as a closed form") from exc


def check_count(n: Any, name: str = "n", *, allow_float: bool = False) -> int:
    """A positive integer count.  Integral mpf/Fraction/strings are accepted; floats only when
    ``allow_float`` (float twins) and integral."""
    if isinstance(n, bool) or n is None:
        raise WrongTypeError(f"{name} must be a positive integer, got {n!r}")
    if isinstance(n, Integral):
        value = int(n)
    elif isinstance(n, float) or type(n).__module__.startswith("numpy"):
        x = float(n)
        if not allow_float:
            raise FloatRefusedError(f"{name} must be an int, got float {n!r}")
        if not (math.isfinite(x) and x == int(x)):
            raise InvalidInputError(f"{name} must be a positive integer, got {n!r}")
        value = int(x)
    else:
        x = read_mpf(n, name)
        if not mpmath.isfinite(x) or x != mpmath.floor(x):
            raise InvalidInputError(f"{name} must be a positive integer, got {n!r}")
        value = int(x)
    if value < 1:
        raise InvalidInputError(f"{name} must be >= 1, got {value}")
    return value


def check_nk(n: Any, k: Any, *, allow_float: bool = False) -> tuple[int, int]:
    """Counts 1 <= k <= n (subsampling k of n without replacement, thesis (5.3))."""
    n = check_count(n, allow_float=allow_float)
    k = check_count(k, "k", allow_float=allow_float)
    if k > n:
        raise InvalidInputError(f"k must be <= n, got k={k}, n={n}")
    return n, k


def check_eps0(eps0: Any) -> mpmath.mpf:
    """eps0 >= 0 (inf allowed: no local privacy), high precision."""
    e = read_mpf(eps0, "eps0")
    if mpmath.isnan(e):
        raise InvalidInputError("eps0 is NaN")
    if e < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    return e


#: Cap of :func:`cancellation_digits` (eps0 down to 10^-5000 keeps its relative precision).
MAX_CANCELLATION_DIGITS = 5000


def cancellation_digits(eps0: Any) -> int:
    """Extra working digits for the closed forms that form E - 1 = e^eps0 - 1 (or E - 1/E) by
    subtraction: about log10(1/eps0) digits cancel for 0 < eps0 < 1 (eps0 = 1e-80 would otherwise
    leave no correct digit of (E - 1)^2), none for eps0 = 0 (E - 1 = 0 exactly) or eps0 >= 1;
    capped at :data:`MAX_CANCELLATION_DIGITS`."""
    with mpmath.workdps(15):
        e = read_mpf(eps0, "eps0")
        if not 0 < e < 1:
            return 0
        return min(MAX_CANCELLATION_DIGITS, int(-mpmath.log10(e)) + 2)


def check_alpha(alpha: Any, integer: bool) -> mpmath.mpf:
    """alpha > 1 (real) or an integer >= 2; +inf allowed only for real-order bounds."""
    if alpha is None or isinstance(alpha, bool):
        raise WrongTypeError(f"alpha must be a real number > 1, got {alpha!r}")
    with mpmath.workdps(max(mpmath.mp.dps, 80)):    # "1.000000000000000000001" is > 1
        a = read_mpf(alpha, "alpha")
    if mpmath.isnan(a):
        raise InvalidInputError("alpha is NaN")
    if a <= 1:
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    if integer and (mpmath.isinf(a) or a != mpmath.floor(a)):
        raise InvalidInputError(
            f"this theorem holds for integer orders alpha >= 2 only, got {alpha!r} "
            "(use interpolate_real_alpha, Remark 5.3.2, for real orders)")
    return a


def check_chernoff_gamma(g: Any) -> mpmath.mpf:
    """The Chernoff parameter of (5.14) (Remark 5.3.3): gamma in (0, 1)."""
    gg = read_mpf(g, "chernoff_gamma")
    if mpmath.isnan(gg) or not (0 < gg < 1):
        raise InvalidInputError(f"chernoff_gamma must lie in (0, 1), got {g!r}")
    return gg


#: the arb precision at which :func:`floor_certified` starts, and the one at which it gives up
FLOOR_START_BITS, FLOOR_MAX_BITS = 128, 1 << 16


def floor_certified(x_ball: Callable[[], Any]) -> int:
    """floor(x), decided on arb balls: ``x_ball()`` returns a ball enclosing x at the current arb
    precision (inputs read exactly, e.g. through :func:`bcdp.accounting.inputs.enclose`).  The
    precision is doubled while the ball straddles an integer; an exact integer x (eps0 = 0 gives an
    exact ball) is its own floor.  :class:`~bcdp.core.errors.UndecidedComparison` beyond
    :data:`FLOOR_MAX_BITS`.  (It decided on mpmath values "equal at 80 digits", which is not a proof:
    nbar(3251, "1e-110") came out 1626 instead of 1625.)"""
    from bcdp.core.errors import UndecidedComparison
    from bcdp.core.intervals import arb_precision

    bits = FLOOR_START_BITS
    while True:
        with arb_precision(bits):
            x = x_ball()
            if not x.is_finite():
                raise InvalidInputError(f"floor of a non-finite value {x}")
            fl = x.floor().unique_fmpz()
            if fl is not None:
                return int(fl)
        if bits >= FLOOR_MAX_BITS:
            raise UndecidedComparison(f"floor undecided at {FLOOR_MAX_BITS} bits (ball {x})")
        bits *= 2


def sign_certified(x_ball: Callable[[], Any]) -> int:
    """The sign (-1, 0 or 1) of x, decided on arb balls: ``x_ball()`` returns a ball enclosing x at the
    current arb precision (inputs read exactly, e.g. through :func:`bcdp.accounting.inputs.enclose`).
    The precision is doubled from :data:`FLOOR_START_BITS` while the ball contains 0 and is not the
    exact point 0; :class:`~bcdp.core.errors.UndecidedComparison` beyond :data:`FLOOR_MAX_BITS`.
    (The validity conditions of Cor 5.3.1 and Lemma 3.3.1 were decided on mpmath values at dps + 20
    digits: gdd21e_condition(5625, "1e-110", 5) came out True although 5^4 e^{5e-110} > 5625/9.)"""
    from bcdp.core.errors import UndecidedComparison
    from bcdp.core.intervals import arb_precision

    bits = FLOOR_START_BITS
    while True:
        with arb_precision(bits):
            x = x_ball()
            if not x.is_finite():
                raise InvalidInputError(f"sign of a non-finite value {x}")
            if x > 0:
                return 1
            if x < 0:
                return -1
            if x.is_zero():
                return 0
        if bits >= FLOOR_MAX_BITS:
            raise UndecidedComparison(f"sign undecided at {FLOOR_MAX_BITS} bits (ball {x})")
        bits *= 2


def condition_gap_sign(n: int, eps0: Any, alpha: Any) -> int:
    """The sign of alpha^4 e^{5 eps0} - n/9 (the validity conditions of thesis Cor 5.3.1, "< n/9", and
    of [GDD21e] Lemma 3.3.1 as quoted in thesis Sec. 3.3.1, "<= n/9"), decided by
    :func:`sign_certified` on the exact inputs (finite eps0 >= 0, finite alpha > 1)."""
    import flint

    from bcdp.accounting.inputs import enclose

    def gap() -> Any:
        return enclose(alpha, "alpha") ** 4 * (5 * enclose(eps0, "eps0")).exp() - flint.arb(n) / 9

    return sign_certified(gap)


def capped(value: mpmath.mpf, eps0: Any, cap: bool) -> mpmath.mpf:
    """min(value, eps0) when ``cap`` (the shuffled histogram is eps0-DP: D_alpha <= D_inf <= eps0)."""
    if cap:
        e = read_mpf(eps0, "eps0")
        if value > e:
            return e
    return value


def log1p_over(x: mpmath.mpf, a: mpmath.mpf) -> mpmath.mpf:
    """log(1 + x)/(a - 1), inf for x = inf."""
    if mpmath.isinf(x):
        return mpmath.inf
    return mpmath.log1p(x) / (a - 1)


def read_gamma(gamma: Any) -> mpmath.mpf:
    """A sampling fraction gamma in (0, 1] (high precision)."""
    g = read_mpf(gamma, "gamma")
    if mpmath.isnan(g) or not (0 < g <= 1):
        raise InvalidInputError(f"gamma must lie in (0, 1], got {gamma!r}")
    return g


#: Directions of a neighbouring pair: "DprimeD" = D_alpha(M(D') || M(D)) (thesis (5.9));
#: "DDprime" = D_alpha(M(D) || M(D')).
DIRECTIONS = ("DprimeD", "DDprime")


def check_direction(direction: str) -> str:
    """One of :data:`DIRECTIONS`."""
    if direction not in DIRECTIONS:
        raise InvalidInputError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    return direction


def exact_alpha(alpha: Any, dps: int) -> mpmath.mpf:
    """A finite real order alpha > 1 read by :func:`read_exact_mpf` at ``dps`` digits."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    a = read_exact_mpf(alpha, "alpha", dps)
    if mpmath.isnan(a):
        raise InvalidInputError("alpha is NaN")
    if not a > 1:
        raise InvalidInputError(f"alpha must be > 1, got {alpha!r}")
    if mpmath.isinf(a):
        raise InvalidInputError("alpha must be finite")
    return a


def exact_eps0(eps0: Any, dps: int) -> mpmath.mpf:
    """A finite eps0 >= 0 read by :func:`read_exact_mpf` at ``dps`` digits."""
    dps = check_precision(dps, "dps", MIN_DPS, MAX_DPS + GUARD_DPS)
    e = read_exact_mpf(eps0, "eps0", dps)
    if mpmath.isnan(e):
        raise InvalidInputError("eps0 is NaN")
    if e < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    if mpmath.isinf(e):
        raise InvalidInputError("eps0 must be finite")
    return e


# -- float twins -------------------------------------------------------------------------------------

def float_eps0(eps0: Any, *, allow_inf: bool = True) -> float:
    """A float twin's eps0 >= 0 (inf allowed unless ``allow_inf=False``)."""
    e = to_float_input(eps0, "eps0", allow_inf=allow_inf)
    if e < 0:
        raise InvalidInputError(f"eps0 must be >= 0, got {eps0!r}")
    return e


def integer_orders_float(alphas: Sequence[int] | np.ndarray | int) -> np.ndarray:
    """A float twin's integer orders >= 2 as an int64 array (at least 1-d)."""
    import numpy as np

    arr = np.atleast_1d(np.asarray(alphas))
    if arr.dtype.kind == "f":
        if np.any(np.isnan(arr)):
            raise InvalidInputError("alpha is NaN")
        if np.any(arr != np.floor(arr)) or np.any(~np.isfinite(arr)):
            raise InvalidInputError("integer orders alpha >= 2 required")
    arr = arr.astype(np.int64)
    if np.any(arr < 2):
        raise InvalidInputError("alpha must be an integer >= 2")
    return arr


def float_orders(alphas: Sequence[float] | np.ndarray, *, finite: bool = False) -> np.ndarray:
    """A float twin's real orders: a 1-D float array, every entry > 1 and not NaN (and finite if
    ``finite``)."""
    import numpy as np

    arr = np.atleast_1d(np.asarray(alphas, dtype=float))
    if arr.ndim != 1:
        raise InvalidInputError("alphas must be a scalar or a 1-d array")
    if np.any(np.isnan(arr)):
        raise InvalidInputError("alpha is NaN")
    if np.any(arr <= 1):
        raise InvalidInputError(f"alpha must be > 1, got {arr[arr <= 1][0]}")
    if finite and not np.all(np.isfinite(arr)):
        raise InvalidInputError("alpha must be finite")
    return arr


__all__ = [
    "DEFAULT_DPS", "DIRECTIONS", "MAX_CANCELLATION_DIGITS", "cancellation_digits", "capped", "check_alpha",
    "check_chernoff_gamma", "check_count",
    "check_direction", "check_eps0", "check_nk", "condition_gap_sign", "exact_alpha", "exact_eps0",
    "float_eps0", "float_orders", "floor_certified", "integer_orders_float", "log1p_over",
    "parse_closed_form", "read_exact_mpf", "read_gamma", "read_mpf", "sign_certified",
]
