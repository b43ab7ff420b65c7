"""The binary Hadamard response with limited randomness (thesis Sec. 7.3.2, eqs. (7.27)-(7.33)), exact.

Setting (thesis Sec. 7.3.2, adapting [AS19]): inputs ``X in [k]``, ``K = 2^ceil(log2 k)``, ``H_K``
the Sylvester Hadamard matrix (``H_1 = (1)``, ``H_2K = [[H, H], [H, -H]]``), ``B_j`` the set of
rows with ``+1`` in column ``j`` (symbols ``0..K-1`` here; the thesis counts from 1, so its
``B_1 = [K]`` is our ``B_0``).  The ``n`` users are split into ``K`` groups; a user of group ``j``
sends one bit with (7.27)::

    Q(Y = 1 | X) = q        if X in B_j,
                   q / E    if X not in B_j,          E = e^eps.

**Exact ``E``.**  ``e^eps`` is irrational for a rational ``eps > 0``; the exact functions take the
ratio ``e_eps = E`` itself as an exact rational ``> 1`` (then ``eps = log E``).  A mechanism built
with a rational ``E' <= e^eps`` is ``eps``-LDP, which is how the checks certify statements at
``eps = 1``.

**Groups.**  The thesis gives each group ``n / K`` users (it assumes ``K | n``).  ``split="exact"``
requires ``K | n`` (ValidityConditionError otherwise); ``split="floor"`` gives every group
``floor(n / K)`` users and leaves the ``n mod K`` others out (the simulator of Sec. 7.7).  Both
give equal groups of ``m`` users, which the closed forms below use.

**Estimator** (7.29)-(7.31): ``s_j = q/E + p(B_j) q (E-1)/E``; ``p_hat(B_j) = E/(q(E-1)) (s_hat_j
- q/E)`` from the group mean ``s_hat_j``; ``p_hat = (1/K) H_K (2 p_hat(B) - 1_K)``, a ``K``-vector
estimating ``p`` padded with zeros.  ``coordinates="all"`` measures the loss on all ``K``
coordinates (the thesis' ``p_hat``), ``"first_k"`` on the first ``k`` (an estimate of ``p in
Delta_k``).

**Exact risk** (derived here, not printed in the thesis): ``p_hat - p = (2/K) H_K d`` with ``d_j =
p_hat(B_j) - p(B_j)`` independent, ``Var d_j = E^2 s_j (1 - s_j) / (q^2 (E-1)^2 m)``, and
``H_K^T H_K = K I``, so every coordinate of ``p_hat`` has the same variance
``(4/K^2) sum_j Var d_j`` and::

    E ||p_hat - p||_2^2 = c * 4 E^2 / (K^2 m q^2 (E-1)^2) * sum_j s_j (1 - s_j)   on c coordinates,

i.e. ``4 E^2 / (n q^2 (E-1)^2) sum_j s_j (1 - s_j)`` for ``c = K`` coordinates and ``m = n / K``
(re-derived here; s (1 - s) <= 1/4 and K <= 2k turn it into (7.32)), times ``k / K`` on the first ``k`` coordinates.

**Worst case** over ``p in Delta_k``: with ``u = H_K p`` (``u_0 = 1``, ``sum_j u_j = K p_0``,
``||u||^2 = K ||p||^2``) and ``M = q (E+1)/(2E)``, ``b = q (E-1)/E``,
``sum_j s_j (1 - s_j) = K [M (1 - M) + (b/2)(1 - 2M) p_0 - (b^2/4) ||p||^2]``: a concave function of
``p_0`` and ``||p||^2`` only, maximal with the other ``k - 1`` masses equal and
``p_0 = clip((1 + (k-1)(1-2M)/b)/k, 0, 1)``; for ``q <= 1/2`` that is the point mass on symbol 0 and
the worst case is ``4 E^2 K (1 - q)/(n q (E-1)^2)`` (all coordinates).  Exact rationals throughout.

The choice (7.33) of ``q`` and the (eps, R)-LDP status use :mod:`bcdp.randomness.entropy` (R in bits
or nats, explicit).  The seeded float sampler and estimator are in
:mod:`bcdp.randomness.hadamard_sim`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import brief_number, to_fraction
from bcdp.core.results import Certified, decide_le
from bcdp.randomness import entropy as ent

#: Largest alphabet size accepted by the exact functions (``K <= 2^20``).
MAX_K = 2 ** 20
#: Largest number of users accepted.
MAX_N = 10 ** 15
SPLITS = ("exact", "floor")
COORDINATES = ("all", "first_k")


# -- arguments --------------------------------------------------------------------------------------

def _int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise InvalidInputError(f"{name} must be in [{low}, {high}], got {value}")
    return value


def check_k(k: Any) -> int:
    """Alphabet size ``1 <= k <= MAX_K``."""
    return _int(k, "k", 1, MAX_K)


def check_e_eps(e_eps: Any) -> Fraction:
    """``E = e^eps`` as an exact rational ``> 1`` (``eps > 0``: the estimator divides by ``E - 1``)."""
    e = to_fraction(e_eps, "e_eps")
    if e <= 1:
        raise ValidityConditionError(f"e_eps must be > 1 (eps > 0), got {brief_number(e)}")
    return e


def check_q(q: Any) -> Fraction:
    """The truth probability ``q in (0, 1]`` of (7.27)."""
    v = to_fraction(q, "q")
    if not 0 < v <= 1:
        raise InvalidInputError(f"q must be in (0, 1], got {brief_number(v)}")
    return v


def _choice(value: str, allowed: tuple[str, ...], name: str) -> str:
    if value not in allowed:
        raise InvalidInputError(f"{name} must be one of {allowed}, got {value!r}")
    return value


# -- the Hadamard structure -------------------------------------------------------------------------

def hadamard_size(k: Any) -> int:
    """``K = 2^ceil(log2 k)``, the smallest power of 2 that is ``>= k`` (Sec. 7.3.2)."""
    k = check_k(k)
    return 1 << (k - 1).bit_length()


def sylvester(size: Any) -> tuple[tuple[int, ...], ...]:
    """The Sylvester Hadamard matrix ``H_K`` (eq. (7.28) for ``K = 4``), ``K`` a power of 2:
    ``H[x][j] = (-1)^popcount(x & j)``."""
    big_k = _int(size, "K", 1, 2 ** 12)
    if big_k & (big_k - 1):
        raise InvalidInputError(f"K must be a power of 2, got {big_k}")
    return tuple(tuple(-1 if bin(x & j).count("1") % 2 else 1 for j in range(big_k)) for x in range(big_k))


def in_block(x: int, j: int) -> bool:
    """``x in B_j``: ``H_K[x][j] = +1`` (symbols and groups counted from 0)."""
    return bin(x & j).count("1") % 2 == 0


def blocks(k: Any) -> tuple[frozenset[int], ...]:
    """``(B_0, ..., B_{K-1})`` as sets of symbols in ``[K]`` (0-based; thesis' ``B_{j+1}``)."""
    big_k = hadamard_size(k)
    if big_k > 2 ** 12:
        raise InvalidInputError(f"blocks are listed only for K <= 4096, got K = {big_k}")
    return tuple(frozenset(x for x in range(big_k) if in_block(x, j)) for j in range(big_k))


def group_size(n: Any, big_k: int, split: str = "exact") -> int:
    """Users per group ``m``: ``n / K`` (``split="exact"``, requires ``K | n``) or ``floor(n / K)``
    (``split="floor"``, the other ``n mod K`` users are left out); ``m >= 1`` is required."""
    n = _int(n, "n", 1, MAX_N)
    _choice(split, SPLITS, "split")
    if n < big_k:
        raise ValidityConditionError(f"n = {n} users cannot fill K = {big_k} groups")
    if split == "exact" and n % big_k:
        raise ValidityConditionError(f"K = {big_k} does not divide n = {n} (thesis Sec. 7.3.2 gives each group n/K "
                                     "users); use split='floor'")
    return n // big_k


# -- the mechanism ----------------------------------------------------------------------------------

def one_probability(inside: bool, q: Any, e_eps: Any) -> Fraction:
    """``Q(Y = 1 | X)`` of (7.27): ``q`` if ``X in B_j``, ``q / E`` otherwise."""
    qq, e = check_q(q), check_e_eps(e_eps)
    return qq if inside else qq / e


def channel(k: Any, j: Any, q: Any, e_eps: Any) -> tuple[tuple[Fraction, Fraction], ...]:
    """Rows ``(Q(0|x), Q(1|x))`` for ``x in [k]`` of the mechanism (7.27) of group ``j``."""
    k = check_k(k)
    big_k = hadamard_size(k)
    j = _int(j, "j", 0, big_k - 1)
    qq, e = check_q(q), check_e_eps(e_eps)
    rows = []
    for x in range(k):
        one = qq if in_block(x, j) else qq / e
        rows.append((1 - one, one))
    return tuple(rows)


def ldp_status(q: Any, e_eps: Any, r: Any, unit: str = "bits", prec: int = 128) -> dict[str, Any]:
    """The (eps, R)-LDP status (eq. (7.2)) of (7.27) with ``k >= 2`` and ``E = e^eps``.

    ``ldp`` is exact: the ratio ``q / (q/E) = E`` always holds and ``(1 - q/E)/(1 - q) <= E`` iff
    ``q <= E/(E+1)``.  The rows have entropies ``H2(q)`` (``x in B_j``) and ``H2(q/E)``; for
    ``q <= E/(E+1)`` the larger is ``H2(q)`` (``q/E <= min(q, 1-q)``).  ``randomness`` is the certified
    decision ``max row entropy <= R`` (``None`` if undecided); ``eps_r_ldp`` = both (or ``None``).
    """
    qq, e = check_q(q), check_e_eps(e_eps)
    rr = to_fraction(r, "R")
    if rr < 0:
        raise InvalidInputError(f"R must be >= 0, got {brief_number(rr)}")
    ldp = qq <= e / (e + 1)
    h_in = ent.binary_entropy(qq, unit, prec)
    h_out = ent.binary_entropy(qq / e, unit, prec)
    fits = [ent.entropy_at_most((1 - x, x), rr, unit, prec) for x in (qq, qq / e)]
    randomness = False if False in fits else (None if None in fits else True)
    both = False if (not ldp or randomness is False) else (None if randomness is None else True)
    return {"ldp": ldp, "randomness": randomness, "eps_r_ldp": both, "row_entropy_in": h_in,
            "row_entropy_out": h_out, "unit": unit, "q": qq, "e_eps": e, "R": rr}


def choose_q(e_eps: Any, r: Any, unit: str = "bits", prec: int = 128) -> Certified:
    """The choice (7.33): ``q = E/(E+1)`` if ``R >= H2(E/(E+1))`` (exact), else ``q = p_R = H2^{-1}(R)``.

    In the second regime ``p_R`` is irrational in general; ``lower``/``upper`` enclose it and
    ``exact`` is ``None``; the detail ``usable_q`` is the rational ``lower`` end, whose row entropy
    ``H2(lower) <= R`` is certified, so the mechanism with ``usable_q`` is (eps, R)-LDP.  The detail
    ``regime`` is ``"R >= H2"`` or ``"R < H2"``.  An undecided comparison of ``R`` with the critical
    randomness (a tie, e.g. ``R`` exactly ``H2(E/(E+1))`` given as an enclosure) raises.
    """
    e = check_e_eps(e_eps)
    rr = to_fraction(r, "R")
    if rr < 0:
        raise InvalidInputError(f"R must be >= 0, got {brief_number(rr)}")
    crit = ent.binary_entropy(1 / (e + 1), unit, prec)
    high = decide_le(crit, rr)
    if high is None:
        raise ValidityConditionError("R vs H2(E/(E+1)) undecided at this precision")
    if high:
        q = e / (e + 1)
        return Certified(lower=q, upper=q, exact=q, provenance="q = e^eps/(e^eps+1), thesis (7.33)",
                         details={"regime": "R >= H2", "usable_q": q, "critical": crit})
    p_r = ent.inverse_binary_entropy(rr, unit, prec)
    if p_r.lower == 0:
        raise ValidityConditionError("R = 0 (or p_R below the precision): no mechanism with q > 0")
    return Certified(lower=p_r.lower, upper=p_r.upper, provenance="q = p_R = H2^{-1}(R), thesis (7.33)",
                     details={"regime": "R < H2", "usable_q": p_r.lower, "critical": crit})


# -- exact risk -------------------------------------------------------------------------------------

def padded_pmf(p: Sequence[Any], k: int | None = None) -> tuple[tuple[Fraction, ...], int]:
    """``p`` as exact Fractions (checked pmf) and its length ``k``."""
    probs = ent.exact_pmf(p, "p")
    if len(probs) > MAX_K:
        raise InvalidInputError(f"p has more than {MAX_K} entries")
    return probs, len(probs)


def block_masses(p: Sequence[Any]) -> tuple[Fraction, ...]:
    """``p(B_j)`` for ``j in [K]`` by the relation (7.30) ``p(B) = (H_K p + 1_K)/2`` (exact fast
    Walsh-Hadamard transform; the tests compare it with sums over the sets ``B_j``)."""
    probs, k = padded_pmf(p)
    big_k = hadamard_size(k)
    u = list(probs) + [Fraction(0)] * (big_k - k)
    h = 1
    while h < big_k:  # exact fast Walsh-Hadamard transform: u = H_K p (H_K symmetric)
        for start in range(0, big_k, 2 * h):
            for i in range(start, start + h):
                u[i], u[i + h] = u[i] + u[i + h], u[i] - u[i + h]
        h *= 2
    return tuple((1 + x) / 2 for x in u)


def one_rates(p: Sequence[Any], q: Any, e_eps: Any) -> tuple[Fraction, ...]:
    """``s_j = P(Y_i = 1)`` for a user of group ``j``, eq. (7.29)."""
    qq, e = check_q(q), check_e_eps(e_eps)
    return tuple(qq / e + m * qq * (e - 1) / e for m in block_masses(p))


def _scale(k: int, big_k: int, coordinates: str) -> Fraction:
    _choice(coordinates, COORDINATES, "coordinates")
    return Fraction(1) if coordinates == "all" else Fraction(k, big_k)


def exact_risk(p: Sequence[Any], n: Any, q: Any, e_eps: Any, split: str = "exact",
               coordinates: str = "all") -> Fraction:
    """``E ||p_hat - p||_2^2`` of the estimator (7.29)-(7.31), exactly (derivation in the module doc):
    ``(4 E^2 / (m K q^2 (E-1)^2)) sum_j s_j (1 - s_j)`` on all ``K`` coordinates, ``m`` users per
    group (``= n / K`` for ``split="exact"``), times ``k / K`` for ``coordinates="first_k"``."""
    probs, k = padded_pmf(p)
    big_k = hadamard_size(k)
    m = group_size(n, big_k, split)
    qq, e = check_q(q), check_e_eps(e_eps)
    total = sum((s * (1 - s) for s in one_rates(probs, qq, e)), Fraction(0))
    return _scale(k, big_k, coordinates) * 4 * e * e * total / (m * big_k * qq * qq * (e - 1) ** 2)


def worst_case_pmf(k: Any, q: Any, e_eps: Any) -> tuple[Fraction, ...]:
    """A maximiser over ``Delta_k`` of the exact risk (module doc): mass ``t`` on symbol 0 and
    ``(1 - t)/(k - 1)`` on the others, ``t = clip((1 + (k-1)(1-2M)/b)/k, 0, 1)``; the point mass on
    symbol 0 when ``q <= 1/2``."""
    k = check_k(k)
    qq, e = check_q(q), check_e_eps(e_eps)
    if k == 1:
        return (Fraction(1),)
    mid = qq * (e + 1) / (2 * e)
    b = qq * (e - 1) / e
    t = min(Fraction(1), max(Fraction(0), (1 + (k - 1) * (1 - 2 * mid) / b) / k))
    rest = (1 - t) / (k - 1)
    return (t,) + (rest,) * (k - 1)


def worst_case_risk(k: Any, n: Any, q: Any, e_eps: Any, split: str = "exact",
                    coordinates: str = "all") -> Certified:
    """``sup_{p in Delta_k} E ||p_hat - p||_2^2``, exact (the sup of a concave quadratic over the
    simplex, attained at :func:`worst_case_pmf`; derivation in the module doc).  ``exact`` is the
    rational value, ``witness`` the maximiser.  Computed from the closed form of ``sum_j s_j (1 - s_j)``
    (module doc) in O(1); the tests and checks compare it with :func:`exact_risk` at the witness."""
    k = check_k(k)
    qq, e = check_q(q), check_e_eps(e_eps)
    star = worst_case_pmf(k, qq, e)
    big_k = hadamard_size(k)
    m = group_size(n, big_k, split)
    # closed form of sum_j s_j (1 - s_j) at star (module doc): O(1) instead of a transform of size K
    mid, b = qq * (e + 1) / (2 * e), qq * (e - 1) / e
    t = star[0]
    norm2 = t * t + (1 - t) ** 2 / (k - 1) if k > 1 else Fraction(1)
    total = big_k * (mid * (1 - mid) + b / 2 * (1 - 2 * mid) * t - b * b / 4 * norm2)
    value = _scale(k, big_k, coordinates) * 4 * e * e * total / (m * big_k * qq * qq * (e - 1) ** 2)
    return Certified(lower=value, upper=value, exact=value, witness=star,
                     provenance="sup_p E||p_hat - p||^2 of the Hadamard response, thesis Sec. 7.3.2 (7.27)-(7.31)",
                     details={"k": k, "K": hadamard_size(k), "coordinates": coordinates, "split": split})


def lemma734_bound(k: Any, n: Any, q: Any, e_eps: Any) -> Fraction:
    """The printed bound (7.32) of Lemma 7.3.4: ``2 k E^2 / (n q^2 (E-1)^2)``."""
    k = check_k(k)
    n = _int(n, "n", 1, MAX_N)
    qq, e = check_q(q), check_e_eps(e_eps)
    return 2 * k * e * e / (n * qq * qq * (e - 1) ** 2)


def corrected_upper(k: Any, n: Any, p_r: Any, e_eps: Any) -> Fraction:
    """The corrected low-randomness order (ours, erratum E-Thesis-Thm7.3.1-Cor7.3.1):
    ``8 k E^2 / (n p_R (E-1)^2)``, an upper bound on the HR worst-case risk with ``q = p_R <= 1/2``
    (``4 E^2 K (1-q)/(n q (E-1)^2)`` with ``K < 2k``, or ``K = 1``)."""
    k = check_k(k)
    n = _int(n, "n", 1, MAX_N)
    pr, e = check_q(p_r), check_e_eps(e_eps)
    if pr > Fraction(1, 2):
        raise ValidityConditionError(f"p_R must be <= 1/2, got {brief_number(pr)}")
    return 8 * k * e * e / (n * pr * (e - 1) ** 2)


def thm732_eta(k: Any, n: Any, e_eps: Any, q: Any) -> Fraction:
    """The printed eta of Thm 7.3.2 (7.10) at ``q``: ``2 k E^2 / (n q^2 (E-1)^2)``, which is
    ``2k(E+1)^2/(n(E-1)^2)`` at ``q = E/(E+1)`` and ``2k E^2/(n p_R^2 (E-1)^2)`` at ``q = p_R``."""
    return lemma734_bound(k, n, q, e_eps)


def thm731_tau(k: Any, n: Any, e_eps: Any, p_r: Any | None = None) -> Fraction:
    """The printed lower bound tau of Thm 7.3.1 (7.8): ``k (E+1)^2 / (16 n E (E-1)^2)`` (``p_r=None``,
    the regime ``R >= H2(E/(E+1))``) or ``k E / (16 n p_R^2 (E-1)^2)`` (regime ``R < H2``).  As printed;
    the second case is false (erratum E-Thesis-Thm7.3.1-Cor7.3.1)."""
    k = check_k(k)
    n = _int(n, "n", 1, MAX_N)
    e = check_e_eps(e_eps)
    if p_r is None:
        return k * (e + 1) ** 2 / (16 * n * e * (e - 1) ** 2)
    pr = check_q(p_r)
    return k * e / (16 * n * pr * pr * (e - 1) ** 2)
