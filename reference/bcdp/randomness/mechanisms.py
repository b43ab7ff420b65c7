"""Exact channels of the eps-LDP mechanisms of the thesis Table 7.1 (Sec. 7.3), for an exact ``e_eps``.

Each constructor takes the input size ``k`` and ``e_eps = e^eps`` as an exact rational ``>= 1`` (so
``eps = log e_eps``) and returns a ``k x m`` row-stochastic matrix of Fractions (inputs ``0..k-1``):

- :func:`k_rr`: k-ary randomized response [War65]: ``Q(y|x) = e^eps/(k-1+e^eps)`` if ``y = x``, else
  ``1/(k-1+e^eps)``; eps-LDP, randomness ``log(k-1+e^eps) - eps e^eps/(k-1+e^eps)`` nats.
- :func:`rappor`: RAPPOR [EPK14] *as printed in Table 7.1*: the one-hot encoding of ``x`` in ``k`` bits,
  each flipped independently with probability ``f = 1/(e_bit + 1)``, ``e_bit = e_eps`` by default;
  outputs are the ``2^k`` bit vectors (output index = the integer whose bit ``i`` is bit ``i``).  Two
  inputs differ in two bits, so the exact LDP ratio is ``e_bit^2``: with ``e_bit = e^eps`` the printed
  mechanism is ``2 eps``-LDP; the eps-LDP RAPPOR uses ``e_bit = e^{eps/2}``.
- :func:`binary_hadamard`: the binary Hadamard response (7.27) [AS19] of one group ``j``:
  ``Q(Y=1|x) = q`` if ``x in B_j`` (the rows of the Sylvester ``H_K`` with ``+1`` in column ``j``,
  ``K = 2^ceil(log2 k)``), else ``q/e^eps``; ``q = e^eps/(e^eps+1)`` by default; outputs ``(0, 1)``.
- :func:`hadamard_response`: the [ASZ19] HR channel (7.49) on ``[K]``: ``e^eps/t`` on ``C_x``,
  ``1/t`` elsewhere, ``t = s e^eps + K - s``, ``K = B b``, ``s = b/2``.  ``C_x`` (our construction, any
  with ``|C_x| = s`` and distinct sets will do for the randomness): input ``x`` goes to block
  ``x mod B`` and to row ``r = floor(x/B) + 1`` of the Sylvester ``H_b``; ``C_x`` = the ``b/2`` columns
  where that row is ``+1``, inside the block.

:func:`row_levels` gives, for each mechanism, the distinct entries of every row with their
multiplicities as functions of a number ``E`` of any numeric type (Fraction or an arb ball): the
per-user randomness ``max_x H(Y|X=x)`` of (7.2) for irrational ``e^eps`` (Table 7.1) is computed from
it; tests check it against the explicit channels at rational ``e_eps``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import brief_number, to_fraction

#: Largest k of the explicit RAPPOR channel (2^k outputs) and of the other channels.
MAX_RAPPOR_K = 12
MAX_K = 4096
#: Largest number of entries (``k x m``) of an explicit channel built here (k-RR at k = 4096 took 81 s).
MAX_ENTRIES = 1 << 18
MECHANISMS = ("RAPPOR", "RR", "HR", "BH")


def _k(k: Any, hi: int = MAX_K) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= hi:
        raise InvalidInputError(f"k must be an integer in [2, {hi}], got {k!r}")
    return k


def _e(e_eps: Any, name: str = "e_eps") -> Fraction:
    e = to_fraction(e_eps, name)
    if e < 1:
        raise InvalidInputError(f"{name} must be >= 1, got {brief_number(e)}")
    return e


def _entries(k: int, m: int, what: str) -> None:
    if k * m > MAX_ENTRIES:
        raise InvalidInputError(f"the {what} channel would have {k} x {m} entries, more than {MAX_ENTRIES}")


def _hr_params(params: Any) -> tuple[int, int]:
    """``(B, b)`` from ``params``: positive integers, ``b >= 2`` a power of 2 (Sylvester ``H_b``)."""
    try:
        big_b, b = params["B"], params["b"]
    except (TypeError, KeyError):
        raise InvalidInputError("HR params must be a mapping with integer entries 'B' and 'b'") from None
    for name, v in (("B", big_b), ("b", b)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InvalidInputError(f"HR parameter {name} must be a positive integer, got {v!r}"[:120])
    if b < 2 or b & (b - 1):
        raise InvalidInputError(f"HR parameter b must be a power of 2 >= 2, got {brief_number(b)}")
    return big_b, b


def hadamard_entry(r: int, c: int) -> int:
    """Entry ``(r, c)`` (from 0) of the Sylvester Hadamard matrix: ``(-1)^popcount(r & c)``."""
    return -1 if bin(r & c).count("1") % 2 else 1


def k_rr(k: int, e_eps: Any) -> tuple[tuple[Fraction, ...], ...]:
    """k-ary randomized response [War65], exact; eps-LDP with ``e^eps = e_eps``."""
    k, e = _k(k), _e(e_eps)
    _entries(k, k, "k-RR")
    t = k - 1 + e
    return tuple(tuple(e / t if y == x else 1 / t for y in range(k)) for x in range(k))


def rappor(k: int, e_eps: Any, e_bit: Any = None) -> tuple[tuple[Fraction, ...], ...]:
    """RAPPOR [EPK14]: ``k`` one-hot bits, each flipped with probability ``1/(e_bit + 1)``
    (``e_bit = e_eps`` as printed in Table 7.1); ``2^k`` outputs, ``k <= 12``."""
    k = _k(k, MAX_RAPPOR_K)
    eb = _e(e_eps if e_bit is None else e_bit, "e_bit")
    keep, flip = eb / (eb + 1), 1 / (eb + 1)
    rows = []
    for x in range(k):
        row = []
        for y in range(1 << k):
            diff = bin(y ^ (1 << x)).count("1")
            row.append(keep ** (k - diff) * flip ** diff)
        rows.append(tuple(row))
    return tuple(rows)


def binary_hadamard(k: int, e_eps: Any, group: int = 1, q: Any = None) -> tuple[tuple[Fraction, ...], ...]:
    """The binary mechanism (7.27) of group ``group`` (a column ``1 <= group < K`` of ``H_K``, from 0;
    column 0 is all ``+1`` and gives a constant channel): ``P(Y=1|x) = q`` if ``H_K[x][group] = +1``
    else ``q/e_eps``; ``q = e_eps/(e_eps+1)`` by default; ``q <= e_eps/(e_eps+1)`` (else the channel is
    not eps-LDP: ValidityConditionError).  Outputs ``(Y=0, Y=1)``."""
    k, e = _k(k), _e(e_eps)
    big_k = 2 ** (k - 1).bit_length()  # K = 2^ceil(log2 k)
    if isinstance(group, bool) or not isinstance(group, int) or not 0 <= group < big_k:
        raise InvalidInputError(f"group must be an integer in [0, {big_k - 1}], got {group!r}")
    qq = e / (e + 1) if q is None else to_fraction(q, "q")
    if not 0 <= qq <= 1:
        raise InvalidInputError(f"q must be a probability, got {brief_number(qq)}")
    if qq > e / (e + 1):
        raise ValidityConditionError(f"(7.27) is eps-LDP only for q <= e^eps/(e^eps+1) = {brief_number(e / (e + 1))}, "
                                     f"got q = {brief_number(qq)}")
    rows = []
    for x in range(k):
        one = qq if hadamard_entry(x, group) == 1 else qq / e
        rows.append((1 - one, one))
    return tuple(rows)


def hr_parameters(k: int, e_eps: Any) -> dict[str, int]:
    """[ASZ19, Sec. 5] parameters (Sec. 7.5.2) for an exact rational ``e_eps >= 2``:
    ``B = 2^(ceil(log2 min{e_eps, 2k}) - 1)``, ``b = 2^ceil(log2(k/B + 1))``, ``K = B b``, ``s = b/2``
    (the exact-rational twin of :func:`bcdp.randomness.keys.asz19_parameters`; computed by
    :func:`bcdp.randomness.recoverability_bounds.hr_parameters_exact`)."""
    k, e = _k(k), _e(e_eps)
    if e < 2:
        raise InvalidInputError("[ASZ19]'s B = 2^(ceil(log2 e^eps) - 1) needs e^eps > 1; use e_eps >= 2 here")
    from bcdp.randomness.recoverability_bounds import hr_parameters_exact  # arb/mpmath only when used

    return hr_parameters_exact(k, e)


def hr_sets(k: int, big_b: int, b: int) -> list[frozenset[int]]:
    """Our ``C_x`` (see the module docstring): block ``x mod B``, row ``floor(x/B) + 1`` of ``H_b``."""
    sets = []
    for x in range(k):
        block, row = x % big_b, x // big_b + 1
        if row >= b:
            raise InvalidInputError(f"k = {k} inputs do not fit B = {big_b} blocks of b = {b}")
        sets.append(frozenset(block * b + c for c in range(b) if hadamard_entry(row, c) == 1))
    return sets


def hadamard_response(k: int, e_eps: Any, params: dict[str, int] | None = None) -> tuple[tuple[Fraction, ...], ...]:
    """The HR channel (7.49) on ``[K]`` with our ``C_x``; ``params`` = ``{"B", "b"}`` (default
    :func:`hr_parameters`)."""
    k, e = _k(k), _e(e_eps)
    big_b, b = _hr_params(hr_parameters(k, e) if params is None else params)
    big_k, s = big_b * b, b // 2
    _entries(k, big_k, "HR")
    t = s * e + big_k - s
    return tuple(tuple(e / t if y in cx else 1 / t for y in range(big_k)) for cx in hr_sets(k, big_b, b))


def row_levels(name: str, k: int, big_e: Any, params: dict[str, int] | None = None) -> list[list[tuple[Any, int]]]:
    """For mechanism ``name`` in :data:`MECHANISMS` (``RAPPOR`` as printed, flip ``1/(E+1)``; ``BH`` of
    group 1 with ``q = E/(E+1)``; ``HR`` with ``params`` = ``{"B", "b"}``), every row's distinct entries
    with multiplicities ``[(value, count), ...]``, as expressions in ``E`` (any numeric type)."""
    k = _k(k)
    if name == "RR":
        t = big_e + (k - 1)
        return [[(big_e / t, 1), (1 / t, k - 1)] for _ in range(k)]
    if name == "RAPPOR":
        keep, flip = big_e / (big_e + 1), 1 / (big_e + 1)
        return [[(keep ** (k - c) * flip ** c, comb(k, c)) for c in range(k + 1)] for _ in range(k)]
    if name == "BH":
        q = big_e / (big_e + 1)
        return [[(q, 1), (1 - q, 1)] if hadamard_entry(x, 1) == 1 else [(q / big_e, 1), (1 - q / big_e, 1)]
                for x in range(k)]
    if name == "HR":
        if params is None:
            raise InvalidInputError("HR needs params {'B', 'b'}")
        big_b, b = _hr_params(params)
        big_k, s = big_b * b, b // 2
        t = big_e * s + (big_k - s)
        return [[(big_e / t, s), (1 / t, big_k - s)] for _ in range(k)]
    raise InvalidInputError(f"mechanism must be one of {MECHANISMS}, got {name!r}")
