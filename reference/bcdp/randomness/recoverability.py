"""Private recoverability (thesis Sec. 7.5, App. F.5, F.5.1, F.6, F.9): mechanisms driven by a key.

A *keyed mechanism* is a deterministic map ``f: [k] x [u] -> [m]`` (``f[x][j]`` is the output of input
``x`` under key value ``j``) together with a key law ``q`` on ``[u]`` independent of the input ``X``.  It
induces the channel ``Q(y|x) = sum_{j: f(x, j) = y} q_j`` (:func:`induced_channel`, exact).

- :func:`is_recoverable`: ``X`` is a function of ``(Y, U)`` on the support, i.e. ``x -> f(x, j)`` is
  injective for every key value ``j`` with ``q_j > 0`` (Def 7.5.1, "possible to recover X from Y and U").
- :func:`ldp_ratio` / :func:`is_ldp_rec`: the exact LDP ratio ``max_y max_{x, x'} Q(y|x)/Q(y|x')``
  (``inf`` when a zero meets a non-zero) and Def 7.5.1: eps-LDP-Rec = eps-LDP (ratio <= ``e_eps``)
  and recoverable.  Neighbouring relation: any two inputs ``x, x'`` (local DP).
- :func:`shift_mechanism` / :func:`shift_channel`: Lemma 7.5.1's construction (App. F.5, (F.20)):
  ``Y = X + U mod k`` for a key on ``[k]``, ``Q(y|x) = q_{(y - x) mod k}``; it is eps-LDP-Rec iff
  ``q_max / q_min <= e^eps`` (:func:`lemma751_condition`).
- :func:`trim_least_likely`: Lemma F.5.1 (App. F.9): remove the least likely symbol and renormalise.
- :func:`reduce_column` / :func:`reduce_key`: the reduction of Lemma 7.5.2 (App. F.5.1): from an
  eps-LDP-Rec mechanism with ``m > k`` key values, a key law on ``[k]`` with no more entropy and
  ``q'_max / q'_min <= e^eps``.
- :func:`shift_capacity`: ``max_p I(X; Y)`` of the shift channel, ``log k - H(q)`` (the channel is
  symmetric: every row a permutation of ``q``, so the uniform input attains the capacity); Remark 7.5.2.

``e^eps`` enters as an exact rational ratio ``e_eps >= 1`` (then ``eps = log e_eps``), so every decision
here is exact; entropies are :class:`~bcdp.core.results.Certified` (arb) with an explicit unit.
Indices are 0-based (the thesis writes ``[k] = {1, ..., k}`` and ``x (+) u = [(x + u - 2) mod k] + 1``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import INFINITY, MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified
from bcdp.randomness.entropy import check_unit, entropy_ball, exact_pmf

#: Largest input alphabet / key size accepted by the exact functions (they enumerate tables).
MAX_SIZE = 4096

Table = tuple[tuple[int, ...], ...]


def _ratio(e_eps: Any) -> Fraction:
    e = to_fraction(e_eps, "e_eps")
    if e < 1:
        raise InvalidInputError(f"e_eps = e^eps must be >= 1, got {brief_number(e)}")
    return e


def check_table(f: Sequence[Sequence[int]], key_size: int | None = None) -> Table:
    """``f`` as a tuple table ``f[x][j]`` of non-negative ints, ``k >= 1`` rows of equal length ``u >= 1``."""
    try:
        rows = tuple(tuple(row) for row in f)
    except TypeError as exc:
        raise InvalidInputError("f must be a table f[x][j] of output indices") from exc
    if not rows or len(rows) > MAX_SIZE or not rows[0] or len(rows[0]) > MAX_SIZE:
        raise InvalidInputError(f"f must have 1..{MAX_SIZE} rows of 1..{MAX_SIZE} entries")
    width = len(rows[0])
    for row in rows:
        if len(row) != width:
            raise InvalidInputError("f must have rows of equal length (one entry per key value)")
        for y in row:
            if isinstance(y, bool) or not isinstance(y, int) or y < 0:
                raise InvalidInputError(f"f's entries must be non-negative int outputs, got {y!r}")
    if key_size is not None and width != key_size:
        raise InvalidInputError(f"f has {width} key columns but the key law has {key_size} values")
    return rows


def induced_channel(f: Sequence[Sequence[int]], q: Sequence[Any]) -> tuple[tuple[Fraction, ...], ...]:
    """Exact ``Q(y|x) = sum_{j: f(x, j) = y} q_j`` on outputs ``0..max(f)`` (rows indexed by ``x``)."""
    probs = exact_pmf(q, "q")
    rows = check_table(f, len(probs))
    m = 1 + max(max(row) for row in rows)
    out = []
    for row in rows:
        col = [Fraction(0)] * m
        for j, y in enumerate(row):
            col[y] += probs[j]
        out.append(tuple(col))
    return tuple(out)


def is_recoverable(f: Sequence[Sequence[int]], q: Sequence[Any]) -> bool:
    """True iff ``X`` is a function of ``(Y, U)`` on the support: for every key value ``j`` with
    ``q_j > 0`` the map ``x -> f(x, j)`` is injective (Def 7.5.1; App. F.6, first part)."""
    probs = exact_pmf(q, "q")
    rows = check_table(f, len(probs))
    for j, p in enumerate(probs):
        if p and len({row[j] for row in rows}) != len(rows):
            return False
    return True


def ldp_ratio(channel: Sequence[Sequence[Any]]) -> Fraction | float:
    """Exact ``max_y max_{x, x'} Q(y|x) / Q(y|x')`` of a channel given as rows ``Q[x][y]`` (``0/0`` skipped,
    ``INFINITY`` when some column has a zero and a non-zero entry); 1 for a single input."""
    cols = list(zip(*channel))
    worst: Fraction | float = Fraction(1)
    for col in cols:
        hi, lo = max(col), min(col)
        if hi == 0:
            continue
        if lo == 0:
            return INFINITY
        worst = max(worst, Fraction(hi) / Fraction(lo))
    return worst


def is_ldp_rec(f: Sequence[Sequence[int]], q: Sequence[Any], e_eps: Any) -> bool:
    """Def 7.5.1 (thesis Sec. 7.5): the keyed mechanism is eps-LDP (``ldp_ratio <= e_eps``, exact) and
    ``X`` is recoverable from ``(Y, U)``; ``e_eps = e^eps >= 1`` exact rational."""
    e = _ratio(e_eps)
    return is_recoverable(f, q) and ldp_ratio(induced_channel(f, q)) <= e


def shift_mechanism(k: int) -> Table:
    """Lemma 7.5.1's map (App. F.5): ``f(x, u) = (x + u) mod k`` on ``[k] x [k]`` (0-based ``x (+) u``)."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_SIZE:
        raise InvalidInputError(f"k must be an integer in [1, {MAX_SIZE}], got {k!r}")
    return tuple(tuple((x + u) % k for u in range(k)) for x in range(k))


def shift_channel(q: Sequence[Any]) -> tuple[tuple[Fraction, ...], ...]:
    """(F.20): ``Q(y|x) = q_{(y - x) mod k}``, the channel of :func:`shift_mechanism` with key law ``q``."""
    probs = exact_pmf(q, "q")
    k = len(probs)
    if k > MAX_SIZE:
        raise InvalidInputError(f"q must have at most {MAX_SIZE} values")
    return tuple(tuple(probs[(y - x) % k] for y in range(k)) for x in range(k))


def lemma751_condition(q: Sequence[Any], e_eps: Any) -> bool:
    """Lemma 7.5.1's hypothesis ``q_max / q_min <= e^eps`` (exact; False when ``q_min = 0``)."""
    probs = exact_pmf(q, "q")
    e = _ratio(e_eps)
    return min(probs) > 0 and max(probs) <= e * min(probs)


def trim_least_likely(q: Sequence[Any]) -> tuple[Fraction, ...]:
    """Lemma F.5.1 (App. F.5.1, (F.36)): drop one least likely symbol (the last of the minima) and
    renormalise, ``q'_j = q_j / (1 - q_min)``; ``len(q) >= 2``.  The order of the others is kept."""
    probs = exact_pmf(q, "q")
    if len(probs) < 2:
        raise InvalidInputError("trimming needs at least 2 symbols")
    low = min(probs)
    drop = max(i for i, p in enumerate(probs) if p == low)
    rest = probs[:drop] + probs[drop + 1:]
    return tuple(p / (1 - low) for p in rest)


def reduce_column(q: Sequence[Any], column_sets: Sequence[Sequence[int]], k: int) -> dict[str, Any]:
    """The reduction step of Lemma 7.5.2 (App. F.5.1) at one output ``y``.

    ``column_sets[x]`` is ``U_yx``, the key values mapping input ``x`` to ``y`` (pairwise disjoint: recoverable).
    ``q_tilde = [Q(y|x) for x] + [q_u for u not in U_y]`` (the law of a function of ``U``), sorted in
    decreasing order (``q_tilde_sorted``), and its ``k`` largest entries renormalised (``q_prime``: the
    trimming of Lemma F.5.1 applied ``len(q_tilde) - k`` times).  Returns the three lists.
    """
    probs = exact_pmf(q, "q")
    if len(column_sets) != k:
        raise InvalidInputError(f"column_sets must have one key set per input (k = {k})")
    used: set[int] = set()
    col = []
    for x, keys in enumerate(column_sets):
        keys = set(keys)
        if not keys <= set(range(len(probs))):
            raise InvalidInputError(f"U_y{x} has key values outside [0, {len(probs)})")
        if keys & used:
            raise InvalidInputError("the sets U_yx must be pairwise disjoint (recoverability)")
        used |= keys
        col.append(sum((probs[u] for u in keys), Fraction(0)))
    rest = [probs[u] for u in range(len(probs)) if u not in used]
    q_tilde = tuple(col + rest)
    ordered = tuple(sorted(q_tilde, reverse=True))
    top = ordered[:k]
    total = sum(top)
    return {"q_tilde": q_tilde, "q_tilde_sorted": ordered, "q_prime": tuple(p / total for p in top)}


def reduce_key(f: Sequence[Sequence[int]], q: Sequence[Any]) -> tuple[Fraction, ...]:
    """Lemma 7.5.2 (App. F.5.1): from a recoverable keyed mechanism ``f`` with key law ``q`` on ``m`` values and
    ``k`` inputs, the key law ``q'`` on ``[k]`` of the proof (take the output ``y = f(0, u_1)`` reached with a
    most likely key value ``u_1``, then :func:`reduce_column`).  If ``f`` is eps-LDP-Rec then
    ``H(q') <= H(q)`` and ``q'_max / q'_min <= e^eps``, so :func:`shift_mechanism` with ``q'`` is eps-LDP-Rec."""
    probs = exact_pmf(q, "q")
    rows = check_table(f, len(probs))
    if not is_recoverable(rows, probs):
        raise InvalidInputError("f is not recoverable under q (Lemma 7.5.2 needs an LDP-Rec mechanism)")
    u1 = max(range(len(probs)), key=lambda u: (probs[u], -u))
    y = rows[0][u1]
    sets = [[u for u in range(len(probs)) if row[u] == y and probs[u]] for row in rows]
    return reduce_column(probs, sets, len(rows))["q_prime"]


def key_entropy(q: Sequence[Any], unit: str = "nats", prec: int = 128) -> Certified:
    """Certified ``H(U)`` of a key law (thin wrapper naming the unit; thesis Sec. 7.5 uses nats)."""
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    probs = exact_pmf(q, "q")
    with arb_precision(prec):
        lo, hi = ball_ends(entropy_ball(probs, check_unit(unit)))
    return Certified(lower=lo, upper=hi, provenance="H(U) of a key law", details={"unit": unit})


def shift_capacity(q: Sequence[Any], unit: str = "nats", prec: int = 128) -> Certified:
    """Certified ``max_p I(X; Y) = log k - H(q)`` of the shift channel (F.20) (Remark 7.5.2).

    Every row of ``Q`` is a permutation of ``q`` and every column too, so ``I(X; Y) = H(Y) - H(q)`` is
    maximised by the uniform input (``H(Y) = log k``), and ``log k - H(q)`` is also the upper bound
    ``max_x D(Q(.|x) || uniform)``: the value is exact, not a bound.
    """
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    probs = exact_pmf(q, "q")
    unit = check_unit(unit)
    with arb_precision(prec):
        log_k = ball_of(len(probs)).log()
        if unit == "bits":
            log_k /= ball_of(2).log()
        lo, hi = ball_ends(log_k - entropy_ball(probs, unit))
    return Certified(lower=lo, upper=hi, provenance="capacity of Y = X + U mod k: log k - H(q), Remark 7.5.2",
                     details={"unit": unit, "k": len(probs)})
