"""Two-level key laws of the thesis Ch. 7 and their certified entropies.

A key ``U`` on ``[k]`` whose law takes two values, ``1/t`` on ``k - s`` symbols and ``e^eps/t`` on
``s`` symbols, ``t = s e^eps + k - s`` (eq. (7.46), the vertices of the polytope
``{q : q_max / q_min <= e^eps}``), is the building block of Sec. 7.5-7.6:

- :func:`two_level_entropy`: ``H(U^s_min)``, evaluated from the law itself (not from the closed form
  (7.47), ``log t - s eps e^eps / t`` in nats, which the checks compare against it);
- :func:`min_two_level_entropy`: ``min_{1 <= s <= k-1} H(U^s_min)`` by brute force over ``s``
  (Thm 7.5.1's ``H(U^{s*}_min)``; the rule (7.48) for ``s*`` is checked against it elsewhere);
- :func:`asz19_parameters`: the Hadamard-response parameters ``(B, b, K, s)`` of [ASZ19, Sec. 5]
  quoted in Sec. 7.5.2 (``K = B b``, ``s = b / 2``, ``B = 2^(ceil(log2 min{e^eps, 2k}) - 1)``,
  ``b = 2^ceil(log2(k / B + 1))``), whose key law is the two-level law with ``(K, s)`` (Thm 7.5.2).

``eps`` is exact (int, Fraction, numeric string) and ``e^eps`` is enclosed in an arb ball, so the
entropies are :class:`~bcdp.core.results.Certified` enclosures.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bcdp.core.errors import InvalidInputError, UndecidedComparison
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified, decide_le
from bcdp.randomness.entropy import check_unit

#: Largest alphabet size the brute force over ``s`` accepts.
MAX_K = 10 ** 6
#: Largest exact ``eps`` accepted (``e^eps`` stays representable in arb).
MAX_EPS = 10_000


def _eps(eps: Any) -> Fraction:
    e = to_fraction(eps, "eps")
    if e < 0 or e > MAX_EPS:
        raise InvalidInputError(f"eps must be in [0, {MAX_EPS}], got {brief_number(e)}")
    return e


def _k(k: Any, minimum: int = 1) -> int:
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidInputError(f"k must be an integer, got {k!r}")
    if k < minimum or k > MAX_K:
        raise InvalidInputError(f"k must be in [{minimum}, {MAX_K}], got {k}")
    return k


def two_level_entropy_ball(k: int, s: int, eps: Fraction, unit: str) -> Any:
    """Arb ball of ``H(U^s_min)`` at the current arb precision (inputs already checked)."""
    big = ball_of(eps).exp()
    t = big * s + (k - s)
    low, high = 1 / t, big / t
    h = -((k - s) * low * low.log()) - s * high * high.log()  # a zero count gives an exact 0 term
    if unit == "bits":
        h /= ball_of(2).log()
    return h


def two_level_entropy(k: int, s: int, eps: Any, unit: str = "nats", prec: int = 128) -> Certified:
    """Certified entropy of the two-level key law of eq. (7.46): ``k - s`` symbols of mass ``1/t``
    and ``s`` of mass ``e^eps / t``, ``t = s e^eps + k - s``; ``0 <= s <= k``."""
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    k, e = _k(k), _eps(eps)
    if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= k:
        raise InvalidInputError(f"s must be an integer in [0, {k}], got {s!r}")
    with arb_precision(prec):
        lo, hi = ball_ends(two_level_entropy_ball(k, s, e, check_unit(unit)))
    lo = max(lo, Fraction(0))  # an entropy is >= 0
    return Certified(lower=lo, upper=hi, provenance="H(U^s_min), thesis eq. (7.46)",
                     details={"k": k, "s": s, "eps": e, "unit": unit})


def min_two_level_entropy(k: int, eps: Any, unit: str = "nats", prec: int = 128) -> Certified:
    """Certified ``min_{1 <= s <= k - 1} H(U^s_min)`` by brute force over ``s`` (thesis Thm 7.5.1,
    the minimum of the concave ``H`` over the vertices (7.46)); ``k >= 2``.

    ``lower``/``upper`` enclose the minimum; the detail ``argmin`` lists every ``s`` whose enclosure
    can attain it (one ``s`` when the enclosures decide, several at a tie, e.g. ``eps = 0``).
    """
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    k, e = _k(k, 2), _eps(eps)
    with arb_precision(prec):
        balls = [two_level_entropy_ball(k, s, e, check_unit(unit)) for s in range(1, k)]
        ends = [ball_ends(b) for b in balls]
    lower = max(Fraction(0), min(lo for lo, _ in ends))  # an entropy is >= 0
    upper = min(hi for _, hi in ends)
    argmin = tuple(s for s, (lo, _) in zip(range(1, k), ends) if lo <= upper)
    return Certified(lower=lower, upper=upper, witness=argmin,
                     provenance="min_s H(U^s_min), thesis Thm 7.5.1 (brute force over s)",
                     details={"k": k, "eps": e, "unit": unit, "argmin": argmin})


def _ceil_log2(n: int) -> int:
    """Exact ``ceil(log2 n)`` for an integer ``n >= 1``."""
    return (n - 1).bit_length()


def asz19_parameters(k: int, eps: Any, prec: int = 128) -> dict[str, int]:
    """The Hadamard-response parameters of [ASZ19, Sec. 5] as quoted in thesis Sec. 7.5.2 (Thm 7.5.2):
    ``B = 2^(ceil(log2 min{e^eps, 2k}) - 1)``, ``b = 2^ceil(log2(k / B + 1))``, ``K = B b``,
    ``s = b / 2``; ``eps > 0``, ``k >= 2``.

    ``ceil(eps / log 2)`` is decided with certified arithmetic (``eps / log 2`` is never an integer for
    a rational ``eps > 0``, so the decision always terminates).
    """
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    k, e = _k(k, 2), _eps(eps)
    if e == 0:
        raise InvalidInputError("eps must be > 0 for the Hadamard-response parameters")
    with arb_precision(prec):
        e_big = ball_of(e).exp()
        eps_is_small = decide_le(e_big, ball_of(2 * k))  # e^eps <= 2k: never a tie (e^eps irrational)
        if eps_is_small is None:
            raise UndecidedComparison("e^eps vs 2k undecided; raise prec")
        if eps_is_small:
            ratio = ball_of(e) / ball_of(2).log()
            lo, hi = ball_ends(ratio)
            j_lo, j_hi = -((-lo.numerator) // lo.denominator), -((-hi.numerator) // hi.denominator)
            if j_lo != j_hi:
                raise UndecidedComparison("ceil(eps / log 2) undecided; raise prec")
            exponent = j_lo
        else:
            exponent = _ceil_log2(2 * k)
    # exponent >= 1 (e^eps > 1), so B = 2^(exponent - 1) is an integer power of 2 and
    # ceil(log2(k / B + 1)) = ceil(log2(k + B)) - (exponent - 1) exactly
    big_b = 2 ** (exponent - 1)
    small_b = 2 ** (_ceil_log2(k + big_b) - (exponent - 1))
    return {"B": big_b, "b": small_b, "K": big_b * small_b, "s": small_b // 2}
