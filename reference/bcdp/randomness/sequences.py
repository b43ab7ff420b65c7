"""Keys for sequences of ``T`` samples (thesis Sec. 7.6, App. F.7-F.8): eps-DP distributions, the
additive eps-DP-Rec mechanism, and the exact minimum key entropy.

Inputs are databases ``x = (x(1), ..., x(T))`` in ``[k]^T`` (``[k] = {0, ..., k-1}``, App. F.7),
indexed in lexicographic order (Sec. 7.6.1: sorted by ``x(1)``, then ``x(2)``, ...; index
``sum_t x(t) k^(T-t)``).  **Neighbouring relation** (eq. (7.7)): ``x`` and ``x'`` differ in exactly
one time index, i.e. they are adjacent in the Hamming graph ``K_k^T``.

- Def 7.6.1 / eq. (7.53): :func:`is_dp_distribution` decides exactly whether a key law ``q`` on
  ``[k^T]`` with a bijection ``f: [k]^T -> [k^T]`` satisfies ``q_f(x) <= e^eps q_f(x')`` for all
  neighbours; :func:`find_dp_bijection` searches all bijections (backtracking, ``k^T <= 9``).
- Lemma 7.6.1 / eq. (F.24): :func:`mechanism` is ``Q(y|x) = q_f(x (+) y)`` (coordinatewise addition
  mod ``k``), output ``y = f^{-1}(U) (-) x``; :func:`decode` recovers ``x = f^{-1}(u) (-) y``;
  :func:`is_dp_channel` and :func:`is_dp_rec` decide eq. (7.7) and recoverability exactly.
- Thm 7.6.1 (2): :func:`min_key_entropy` is the exact minimum of ``H(q)`` over the eps-DP
  distributions (identity bijection; every other bijection permutes the same polytope, so the
  minimum is the same).  The feasible set ``{q >= 0, sum q = 1, q_a <= E q_b for neighbours}``
  (``E = e^eps``) is a polytope and ``H`` is concave, so the minimum is at a vertex.  A vertex is the
  unique solution of ``k^T - 1`` independent tight constraints ``q_a = E q_b`` plus ``sum q = 1``; the
  tight edges then form a connected spanning subgraph, so every vertex is ``q_x = E^{c(x)} / Z`` with
  an integer labelling ``c`` that is 1-Lipschitz on the Hamming graph (``|c(x) - c(x')| <= 1``) and
  whose edges with ``|c(x) - c(x')| = 1`` connect all databases (:func:`vertex_labellings`); conversely
  each such ``c`` gives a feasible point.  (The tests compare this vertex set with an exact
  double-description enumeration.)  For ``T = 1`` the labellings are 0/1, the two-level laws (7.46).
- :func:`is_product_labelling`: ``c(x) = sum_t c_t(x(t))``; then ``q`` is a product law and
  ``H(q) = sum_t H(q_t)`` exactly (used to decide ties with ``T H(U_min,1)`` without arithmetic).

``e_eps`` (``E = e^eps >= 1``) is an exact rational where laws and channels are built with exact
Fractions (then ``eps = log e_eps``); :func:`min_key_entropy` takes either an exact ``eps`` (``E`` is
then enclosed in an arb ball, as :func:`bcdp.randomness.keys.min_two_level_entropy` does) or an
exact ``e_eps``.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Iterator, Sequence

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import MAX_PREC_BITS, MIN_PREC_BITS, brief_number, check_precision, to_fraction
from bcdp.core.results import Certified
from bcdp.randomness.entropy import check_unit, exact_pmf

#: Largest ``k^T`` of the exact channel functions.
MAX_DATABASES = 4096
#: Largest ``k^T`` of the exhaustive labelling enumeration (:func:`min_key_entropy`).
MAX_ENUMERATED = 16
#: Largest ``k^T`` of the bijection search (:func:`find_dp_bijection`).
MAX_BIJECTION_SEARCH = 9
#: Largest exact ``eps`` / ``e_eps`` accepted.
MAX_EPS = 10_000


# -- inputs -------------------------------------------------------------------------------------

def _size(k: Any, T: Any, limit: int = MAX_DATABASES) -> int:
    for name, v, lo in (("k", k, 2), ("T", T, 1)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise InvalidInputError(f"{name} must be an integer >= {lo}, got {v!r}")
    if T > 64 or k ** T > limit:
        raise InvalidInputError(f"k^T must be at most {limit} here, got k = {k}, T = {T}")
    return k ** T


def _e_eps(e_eps: Any) -> Fraction:
    e = to_fraction(e_eps, "e_eps")
    if e < 1 or e > MAX_EPS:
        raise InvalidInputError(f"e_eps = e^eps must be in [1, {MAX_EPS}], got {brief_number(e)}")
    return e


def _pmf(q: Sequence[Any], n: int) -> tuple[Fraction, ...]:
    probs = exact_pmf(q, "q")
    if len(probs) != n:
        raise InvalidInputError(f"q must have k^T = {n} entries, got {len(probs)}")
    return probs


def _bijection(f: Any, n: int) -> tuple[int, ...]:
    if f is None:
        return tuple(range(n))
    try:
        out = tuple(f)
    except TypeError as exc:
        raise InvalidInputError("f must be a sequence: f[i] = key index of the i-th database") from exc
    if sorted(out) != list(range(n)) or any(isinstance(v, bool) or not isinstance(v, int) for v in out):
        raise InvalidInputError(f"f must be a bijection onto 0..{n - 1} (a permutation of length {n})")
    return out


# -- the Hamming graph ---------------------------------------------------------------------------

def databases(k: int, T: int) -> list[tuple[int, ...]]:
    """The ``k^T`` databases of ``[k]^T`` in lexicographic order (Sec. 7.6.1)."""
    _size(k, T)
    return list(itertools.product(range(k), repeat=T))


def index_of(x: Sequence[int], k: int) -> int:
    """Lexicographic index ``sum_t x(t) k^(T - t)`` of a database."""
    i = 0
    for v in x:
        i = i * k + v
    return i


def are_neighbours(x: Sequence[int], x2: Sequence[int]) -> bool:
    """Neighbouring relation of eq. (7.7): ``x`` and ``x2`` differ in exactly one time index."""
    if len(x) != len(x2):
        raise InvalidInputError("databases must have the same length T")
    return sum(a != b for a, b in zip(x, x2)) == 1


def neighbour_pairs(k: int, T: int) -> list[tuple[int, int]]:
    """Edges ``(i, j)``, ``i < j``, of the Hamming graph on the lexicographic indices."""
    n = _size(k, T)
    out = []
    for i in range(n):
        for t in range(T):
            w = k ** (T - 1 - t)
            digit = (i // w) % k
            for v in range(digit + 1, k):
                out.append((i, i + (v - digit) * w))
    return out


def _add(x: Sequence[int], y: Sequence[int], k: int) -> tuple[int, ...]:
    return tuple((a + b) % k for a, b in zip(x, y))


def _sub(x: Sequence[int], y: Sequence[int], k: int) -> tuple[int, ...]:
    return tuple((a - b) % k for a, b in zip(x, y))


# -- Def 7.6.1 -----------------------------------------------------------------------------------

def is_dp_distribution(q: Sequence[Any], k: int, T: int, e_eps: Any, f: Sequence[int] | None = None) -> bool:
    """Def 7.6.1, eq. (7.53): ``q_f(x) <= e_eps q_f(x')`` for every neighbouring ``x, x'`` in ``[k]^T``
    (exact; ``f[i]`` is the key index of the ``i``-th database, identity when ``None``)."""
    n = _size(k, T)
    probs, e, fb = _pmf(q, n), _e_eps(e_eps), _bijection(f, n)
    return all(probs[fb[i]] <= e * probs[fb[j]] and probs[fb[j]] <= e * probs[fb[i]]
               for i, j in neighbour_pairs(k, T))


def find_dp_bijection(q: Sequence[Any], k: int, T: int, e_eps: Any) -> tuple[int, ...] | None:
    """A bijection ``f`` making ``q`` an eps-DP distribution (Def 7.6.1), or ``None`` if there is none:
    exhaustive backtracking over the ``(k^T)!`` bijections (``k^T <= 9``)."""
    n = _size(k, T, MAX_BIJECTION_SEARCH)
    probs, e = _pmf(q, n), _e_eps(e_eps)
    earlier: list[list[int]] = [[] for _ in range(n)]
    for i, j in neighbour_pairs(k, T):
        earlier[j].append(i)
    chosen: list[int] = []
    used = [False] * n

    def extend(pos: int) -> bool:
        if pos == n:
            return True
        for key in range(n):
            if used[key]:
                continue
            p = probs[key]
            if all(p <= e * probs[chosen[i]] and probs[chosen[i]] <= e * p for i in earlier[pos]):
                used[key] = True
                chosen.append(key)
                if extend(pos + 1):
                    return True
                chosen.pop()
                used[key] = False
        return False

    return tuple(chosen) if extend(0) else None


# -- Lemma 7.6.1 ---------------------------------------------------------------------------------

def mechanism(q: Sequence[Any], k: int, T: int, f: Sequence[int] | None = None) -> tuple[tuple[Fraction, ...], ...]:
    """The channel of Lemma 7.6.1, eq. (F.24): ``Q[x][y] = q_f(x (+) y)`` (rows: inputs, columns:
    outputs, both in lexicographic order; ``(+)`` coordinatewise addition mod ``k``).  The output is
    ``Y = f^{-1}(U) (-) x`` with the key ``U ~ q``."""
    n = _size(k, T)
    probs, fb = _pmf(q, n), _bijection(f, n)
    dbs = list(itertools.product(range(k), repeat=T))
    return tuple(tuple(probs[fb[index_of(_add(x, y, k), k)]] for y in dbs) for x in dbs)


def output_of(x: Sequence[int], u: int, k: int, f: Sequence[int] | None = None) -> tuple[int, ...]:
    """The deterministic output ``y = f^{-1}(u) (-) x`` of Lemma 7.6.1's mechanism for key value ``u``."""
    T = len(x)
    n = _size(k, T)
    fb = _bijection(f, n)
    inverse = {v: i for i, v in enumerate(fb)}
    if isinstance(u, bool) or not isinstance(u, int) or u not in inverse:
        raise InvalidInputError(f"u must be a key index in 0..{n - 1}, got {u!r}")
    base = next(itertools.islice(itertools.product(range(k), repeat=T), inverse[u], None))
    return _sub(base, x, k)


def decode(y: Sequence[int], u: int, k: int, f: Sequence[int] | None = None) -> tuple[int, ...]:
    """Bob's recovery (App. F.7): ``x = f^{-1}(u) (-) y`` from the output ``y`` and the key ``u``."""
    T = len(y)
    n = _size(k, T)
    fb = _bijection(f, n)
    inverse = {v: i for i, v in enumerate(fb)}
    if isinstance(u, bool) or not isinstance(u, int) or u not in inverse:
        raise InvalidInputError(f"u must be a key index in 0..{n - 1}, got {u!r}")
    base = next(itertools.islice(itertools.product(range(k), repeat=T), inverse[u], None))
    return _sub(base, y, k)


def is_dp_channel(channel: Sequence[Sequence[Any]], k: int, T: int, e_eps: Any) -> bool:
    """Eq. (7.7), exact: ``Q(y|x) <= e_eps Q(y|x')`` for every output ``y`` and neighbouring ``x, x'``
    (rows of ``channel`` are the ``k^T`` inputs in lexicographic order)."""
    n = _size(k, T)
    e = _e_eps(e_eps)
    rows = [tuple(to_fraction(v, "channel entry") for v in row) for row in channel]
    if len(rows) != n or len({len(r) for r in rows}) != 1:
        raise InvalidInputError(f"channel must have k^T = {n} rows of equal length")
    ints = _common_integers(rows)
    p, r = e.numerator, e.denominator  # a <= (p / r) b  <=>  r a <= p b, in integers
    return all(r * a <= p * b and r * b <= p * a
               for i, j in neighbour_pairs(k, T) for a, b in zip(ints[i], ints[j]))


def _common_integers(rows: Sequence[Sequence[Fraction]]) -> list[list[int]]:
    """The entries times the lcm of their denominators (exact integers; ratios unchanged)."""
    lcm = 1
    for row in rows:
        for v in row:
            lcm = lcm * v.denominator // math.gcd(lcm, v.denominator)
    return [[v.numerator * (lcm // v.denominator) for v in row] for row in rows]


def is_dp_rec(outputs: Sequence[Sequence[int]], key: Sequence[Any], k: int, T: int, e_eps: Any) -> dict[str, Any]:
    """Exact eps-DP-Rec decision (Sec. 7.6, Def. 7.5.1 with (7.7)) of a deterministic encoder
    ``outputs[x][u] = y`` (output label of input ``x`` under key value ``u``) with key law ``key``:
    recoverable iff for every key value ``u`` with ``key[u] > 0`` the map ``x -> outputs[x][u]`` is
    injective; eps-DP iff the induced channel ``Q(y|x) = sum_{u: outputs[x][u] = y} key[u]`` satisfies
    (7.7).  Returns ``{"recoverable", "dp", "dp_rec", "channel", "labels"}``."""
    n = _size(k, T)
    e = _e_eps(e_eps)
    probs = exact_pmf(key, "key")
    if len(outputs) != n or any(len(row) != len(probs) for row in outputs):
        raise InvalidInputError(f"outputs must have k^T = {n} rows of len(key) = {len(probs)} labels")
    labels = sorted({y for row in outputs for y in row})
    where = {y: i for i, y in enumerate(labels)}
    channel = [[Fraction(0)] * len(labels) for _ in range(n)]
    for x, row in enumerate(outputs):
        for u, y in enumerate(row):
            channel[x][where[y]] += probs[u]
    recoverable = all(len({outputs[x][u] for x in range(n)}) == n for u in range(len(probs)) if probs[u])
    dp = is_dp_channel(channel, k, T, e)
    return {"recoverable": recoverable, "dp": dp, "dp_rec": recoverable and dp,
            "channel": tuple(tuple(r) for r in channel), "labels": tuple(labels)}


# -- vertices of the DP polytope (Thm 7.6.1) ------------------------------------------------------

def lipschitz_labellings(k: int, T: int) -> Iterator[tuple[int, ...]]:
    """Every integer labelling ``c`` of ``[k]^T`` (lexicographic order) with ``min c = 0`` and
    ``|c(x) - c(x')| <= 1`` for neighbours (values lie in ``0..T``, the graph's diameter)."""
    n = _size(k, T, MAX_ENUMERATED)
    earlier: list[list[int]] = [[] for _ in range(n)]
    for i, j in neighbour_pairs(k, T):
        earlier[j].append(i)
    c = [0] * n

    def rec(pos: int) -> Iterator[tuple[int, ...]]:
        if pos == n:
            if min(c) == 0:
                yield tuple(c)
            return
        if earlier[pos]:
            lo = max(c[i] for i in earlier[pos]) - 1
            hi = min(c[i] for i in earlier[pos]) + 1
        else:
            lo, hi = 0, T
        for v in range(max(lo, 0), min(hi, T) + 1):
            c[pos] = v
            yield from rec(pos + 1)

    yield from rec(0)


def is_vertex_labelling(c: Sequence[int], k: int, T: int) -> bool:
    """True iff the edges with ``|c(x) - c(x')| = 1`` connect all of ``[k]^T`` (then ``E^c / Z`` is
    the unique solution of its tight constraints, a vertex, for every ``E > 1``)."""
    n = _size(k, T, MAX_DATABASES)
    if len(c) != n:
        raise InvalidInputError(f"c must have k^T = {n} entries, got {len(c)}")
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for i, j in neighbour_pairs(k, T):
        if abs(c[i] - c[j]) == 1:
            parent[find(i)] = find(j)
    return len({find(i) for i in range(n)}) == 1


def vertex_labellings(k: int, T: int) -> list[tuple[int, ...]]:
    """The labellings of the vertices of the eps-DP polytope (any ``E > 1``), see the module docstring."""
    return [c for c in lipschitz_labellings(k, T) if is_vertex_labelling(c, k, T)]


def labelling_law(c: Sequence[int], e_eps: Any) -> tuple[Fraction, ...]:
    """The exact law ``q_x = e_eps^{c(x)} / sum_x' e_eps^{c(x')}``."""
    e = _e_eps(e_eps)
    if not c or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in c):
        raise InvalidInputError("c must be a non-empty sequence of integers >= 0")
    weights = [e ** v for v in c]
    z = sum(weights)
    return tuple(w / z for w in weights)


def dp_vertices(k: int, T: int, e_eps: Any) -> list[tuple[Fraction, ...]]:
    """The vertices of ``{q : q_a <= e_eps q_b for neighbours, sum q = 1}`` as exact laws (distinct;
    the single uniform law when ``e_eps = 1``)."""
    e = _e_eps(e_eps)
    seen = dict.fromkeys(labelling_law(c, e) for c in vertex_labellings(k, T))
    return list(seen)


def is_product_labelling(c: Sequence[int], k: int, T: int) -> bool:
    """True iff ``c(x) = c(0) + sum_t [c(0, .., x(t), .., 0) - c(0)]`` (a sum of per-time labellings,
    so ``E^c / Z`` is a product law and its entropy is the sum of the marginals' entropies)."""
    n = _size(k, T)
    if len(c) != n:
        raise InvalidInputError(f"c must have k^T = {n} entries")
    for i, x in enumerate(itertools.product(range(k), repeat=T)):
        parts = sum(c[x[t] * k ** (T - 1 - t)] - c[0] for t in range(T))
        if c[i] != c[0] + parts:
            return False
    return True


def _labelling_entropy_ball(c: Sequence[int], big: Any, log_big: Any, unit: str) -> Any:
    """Arb ball of ``H(E^c / Z) = log Z - log(E) sum_x c(x) E^{c(x)} / Z`` (nats; ``/ log 2`` for bits)."""
    counts: dict[int, int] = {}
    for v in c:
        counts[v] = counts.get(v, 0) + 1
    powers = {v: big ** v for v in counts}
    z = sum((m * powers[v] for v, m in counts.items()), ball_of(0))
    mean = sum((m * v * powers[v] for v, m in counts.items()), ball_of(0)) / z
    h = z.log() - log_big * mean
    if unit == "bits":
        h /= ball_of(2).log()
    return h


def min_key_entropy(k: int, T: int, eps: Any = None, e_eps: Any = None, unit: str = "nats",
                    prec: int = 128) -> Certified:
    """Certified ``min H(q)`` over the eps-DP distributions on ``[k]^T`` (Def 7.6.1; thesis Thm 7.6.1 (2)
    states it equals ``T min_s H(U^s_min)``), by enumerating the vertex labellings (``k^T <= 16``).

    Give exactly one of ``eps`` (exact, ``>= 0``) or ``e_eps`` (exact, ``>= 1``).  ``witness`` lists the
    labellings whose enclosures can attain the minimum; details: ``vertices`` (number of vertex
    labellings), ``argmin_all_products`` (every candidate minimiser is a product labelling, see
    :func:`is_product_labelling`), ``second`` (certified lower end of the least entropy among the
    vertices that are not candidate minimisers, or ``None``).
    """
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    _size(k, T, MAX_ENUMERATED)
    unit = check_unit(unit)
    if (eps is None) == (e_eps is None):
        raise InvalidInputError("give exactly one of eps or e_eps")
    if eps is not None:
        e = to_fraction(eps, "eps")
        if e < 0 or e > MAX_EPS:
            raise InvalidInputError(f"eps must be in [0, {MAX_EPS}], got {brief_number(e)}")
        param: dict[str, Any] = {"eps": e}
    else:
        param = {"e_eps": _e_eps(e_eps)}
    labellings = vertex_labellings(k, T)
    with arb_precision(prec):
        if eps is not None:
            log_big = ball_of(param["eps"])
            big = log_big.exp()
        else:
            big = ball_of(param["e_eps"])
            log_big = big.log()
        # H(E^c / Z) depends on c only through the level counts: one ball per distinct count profile
        profiles = [tuple(sorted(c)) for c in labellings]
        by_profile = {pr: ball_ends(_labelling_entropy_ball(pr, big, log_big, unit)) for pr in set(profiles)}
        ends = [by_profile[pr] for pr in profiles]
    upper = min(hi for _, hi in ends)
    lower = min(lo for lo, _ in ends)
    argmin = tuple(c for c, (lo, _) in zip(labellings, ends) if lo <= upper)
    others = [lo for c, (lo, _) in zip(labellings, ends) if lo > upper]
    return Certified(lower=lower, upper=upper, witness=argmin,
                     provenance="min H over the eps-DP distributions on [k]^T (vertex enumeration), "
                                "thesis Def 7.6.1 / Thm 7.6.1",
                     details={"k": k, "T": T, **param, "unit": unit, "vertices": len(labellings),
                              "argmin_all_products": all(is_product_labelling(c, k, T) for c in argmin),
                              "second": min(others) if others else None})
