"""Multi-level privacy by a key cascade (thesis Sec. 7.4, Thm 7.4.1, Lemma 7.4.1, App. F.4).

``d`` analysts with privacy levels ``eps_1 > eps_2 > ... > eps_d > 0`` (validity condition of
Thm 7.4.1; the neighbouring relation is the local one: any two inputs ``x, x'`` of one user).
With ``z_j = 1/(e^eps_j + 1)`` the user draws independent keys ``U^j ~ Bern(q_j)``, eq. (7.36)::

    q_1 = z_1,    q_j = (z_j - z_{j-1}) / (1 - 2 z_{j-1})   (j > 1),

forms the binary-Hadamard first stage ``Y^1 = 1{X in B} xor U^1`` (7.37), the cascade
``Y^j = Y^1 xor U^2 xor ... xor U^j`` (7.38), publishes ``Y^d`` and gives analyst ``j`` the key
``L^j = U^d xor ... xor U^{j+1}`` (``L^d = 0``), from which it rebuilds ``Y^j = Y^d xor L^j``.
Lemma 7.4.1 / (7.40), (F.18): ``P(Y^j = 1 | X in B) = e^eps_j/(e^eps_j + 1)`` and
``P(Y^j = 1 | X not in B) = 1/(e^eps_j + 1)``.  The randomness per user is
``R_proposed = sum_j H2(q_j)`` against ``R_trivial = sum_j H2(e^eps_j/(e^eps_j + 1))`` for ``d``
independent single-level mechanisms (Sec. 7.4, (7.42)).

Two parametrisations:

- **exact ratios** ``e_eps = (E_1, ..., E_d)``, rationals ``E_1 > ... > E_d > 1`` standing for
  ``e^eps_j`` (then ``eps_j = log E_j``): :func:`key_probabilities` is exact, and the laws of the
  cascade (:func:`key_law`, :func:`cascade_conditional_law`, :func:`analyst_view_law`,
  :func:`level_output_law`) are computed exactly by enumerating the ``2^d`` key outcomes
  (``d <= MAX_ENUMERATED_LEVELS``), never by the recursion (F.19);
- **exact eps** ``(eps_1, ..., eps_d)``, rationals: ``e^eps_j`` is irrational, so
  :func:`key_probabilities_certified` and :func:`total_randomness` return certified enclosures (arb).

Equal levels: the theorem needs strictly decreasing levels.  Equal adjacent levels are refused
(:class:`~bcdp.core.errors.ValidityConditionError`) unless ``merge_equal=True``; then the repeated
level gets ``q_j = 0`` (no key: the two analysts share one view, ``Y^j = Y^{j-1}``), which is what
(7.36) gives at ``z_j = z_{j-1}``.

Float twins (``*_float``) serve figures and Monte Carlo: :func:`key_probabilities_float`,
:func:`total_randomness_float`, the vectorised sampler :func:`sample_cascade_float` and the
multi-level Hadamard-response estimator :func:`estimate_all_levels_float` ((7.29)-(7.31) per analyst).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Iterable, Sequence

import numpy as np

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.numbers import (
    MAX_PREC_BITS,
    INFINITY,
    MIN_PREC_BITS,
    brief_number,
    check_precision,
    to_fraction,
    to_float_input,
)
from bcdp.core.results import Certified
from bcdp.randomness.entropy import check_unit

#: Most levels accepted by the closed forms (q_j, randomness totals).
MAX_LEVELS = 1000
#: Most levels whose cascade is enumerated exactly (2^d key outcomes).
MAX_ENUMERATED_LEVELS = 12
#: Largest K of the float multi-level Hadamard-response estimator (K x K Sylvester matrix in memory).
MAX_HADAMARD_K = 2048
#: Largest exact eps accepted (e^eps stays representable in arb).
MAX_EPS = 10_000
SCHEMES = ("proposed", "trivial")


# -- argument checks ------------------------------------------------------------------------------

def _levels(values: Any, name: str, cap: int) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInputError(f"{name} must be a sequence of privacy levels")
    out = list(values)
    if not 1 <= len(out) <= cap:
        raise InvalidInputError(f"{name} must hold 1..{cap} levels, got {len(out)}")
    return out


def _decreasing(vals: Sequence[Fraction], name: str, merge_equal: bool) -> None:
    for j in range(1, len(vals)):
        if vals[j] > vals[j - 1]:
            raise ValidityConditionError(f"Thm 7.4.1 needs eps_1 > ... > eps_d: {name}[{j}] = "
                                         f"{brief_number(vals[j])} exceeds {name}[{j - 1}]")
        if vals[j] == vals[j - 1] and not merge_equal:
            raise ValidityConditionError(f"Thm 7.4.1 needs eps_1 > ... > eps_d: {name}[{j}] equals {name}[{j - 1}] "
                                         "(pass merge_equal=True to merge equal levels)")


def check_ratios(e_eps: Any, merge_equal: bool = False, cap: int = MAX_LEVELS) -> tuple[Fraction, ...]:
    """``e_eps`` as exact Fractions ``E_1 >= ... >= E_d > 1`` (Thm 7.4.1's ``eps_1 > ... > eps_d > 0``
    with ``E_j = e^eps_j``; equal entries only with ``merge_equal``); floats refused."""
    vals = tuple(to_fraction(v, f"e_eps[{i}]") for i, v in enumerate(_levels(e_eps, "e_eps", cap)))
    for i, v in enumerate(vals):
        if v <= 0:
            raise InvalidInputError(f"e_eps[{i}] = {brief_number(v)} is not a ratio e^eps > 0")
        if v <= 1:
            raise ValidityConditionError(f"Thm 7.4.1 needs eps_j > 0: e_eps[{i}] = {brief_number(v)} <= 1")
    _decreasing(vals, "e_eps", merge_equal)
    return vals


def check_eps(eps: Any, merge_equal: bool = False, cap: int = MAX_LEVELS) -> tuple[Fraction, ...]:
    """``eps`` as exact Fractions ``eps_1 >= ... >= eps_d > 0`` (equal entries only with
    ``merge_equal``), each at most :data:`MAX_EPS`; floats refused."""
    vals = tuple(to_fraction(v, f"eps[{i}]") for i, v in enumerate(_levels(eps, "eps", cap)))
    for i, v in enumerate(vals):
        if v < 0 or v > MAX_EPS:
            raise InvalidInputError(f"eps[{i}] must be in [0, {MAX_EPS}], got {brief_number(v)}")
        if v == 0:
            raise ValidityConditionError(f"Thm 7.4.1 needs eps_j > 0: eps[{i}] = 0")
    _decreasing(vals, "eps", merge_equal)
    return vals


def _scheme(scheme: str) -> str:
    if scheme not in SCHEMES:
        raise InvalidInputError(f"scheme must be 'proposed' or 'trivial', got {scheme!r}")
    return scheme


# -- key probabilities (7.36) ---------------------------------------------------------------------

def flip_probabilities(e_eps: Any, merge_equal: bool = False) -> tuple[Fraction, ...]:
    """Exact ``z_j = 1/(E_j + 1)``: the flip probability of the single-level binary mechanism at
    ``eps_j`` ((7.40), the less likely output's probability)."""
    return tuple(1 / (e + 1) for e in check_ratios(e_eps, merge_equal))


def key_probabilities(e_eps: Any, merge_equal: bool = False) -> tuple[Fraction, ...]:
    """Exact ``(q_1, ..., q_d)`` of eq. (7.36) (= (7.34)) for exact ratios ``E_j = e^eps_j``,
    ``E_1 > ... > E_d > 1``; then ``0 < q_j < 1/2`` (``q_j = 0`` for a merged equal level)."""
    z = flip_probabilities(e_eps, merge_equal)
    return (z[0],) + tuple((z[j] - z[j - 1]) / (1 - 2 * z[j - 1]) for j in range(1, len(z)))


def key_probability_balls(eps: Sequence[Fraction]) -> list[Any]:
    """Arb balls of ``q_1, ..., q_d`` (7.36) for already checked exact ``eps`` (see :func:`check_eps`),
    at the current arb precision (call inside :func:`~bcdp.core.intervals.arb_precision`)."""
    z = [1 / (ball_of(e).exp() + 1) for e in eps]
    out = [z[0]]
    for j in range(1, len(z)):
        if eps[j] == eps[j - 1]:
            out.append(ball_of(0))  # merged equal level: z_j = z_{j-1} exactly
        else:
            out.append((z[j] - z[j - 1]) / (1 - 2 * z[j - 1]))
    return out


def key_probabilities_certified(eps: Any, prec: int = 128, merge_equal: bool = False) -> tuple[Certified, ...]:
    """Certified enclosures of ``q_1, ..., q_d`` of eq. (7.36) for exact ``eps_1 > ... > eps_d > 0``."""
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    vals = check_eps(eps, merge_equal)
    with arb_precision(prec):
        ends = [ball_ends(b) for b in key_probability_balls(vals)]
    return tuple(Certified(lower=lo, upper=hi, provenance=f"q_{j + 1}, thesis eq. (7.36)",
                           details={"eps": vals, "level": j + 1}) for j, (lo, hi) in enumerate(ends))


def _h2_ball(p: Any, unit: str) -> Any:
    # log1p keeps the relative accuracy of (1 - p) log(1 - p) for tiny p (large eps)
    h = ball_of(0) if p.is_zero() else -(p * p.log()) - (1 - p) * (-p).log1p()
    return h / ball_of(2).log() if unit == "bits" else h


def total_randomness(levels: Any, scheme: str = "proposed", unit: str = "bits", prec: int = 128,
                     parametrization: str = "eps", merge_equal: bool = False) -> Certified:
    """Certified randomness per user of the multi-level schemes of thesis Sec. 7.4:
    ``scheme="proposed"``: ``R_proposed = sum_j H2(q_j)`` (Thm 7.4.1, (7.42));
    ``scheme="trivial"``: ``R_trivial = sum_j H2(e^eps_j/(e^eps_j + 1))`` (d single-level mechanisms).

    ``levels`` are exact ``eps_j`` (``parametrization="eps"``) or exact ratios ``E_j = e^eps_j``
    (``parametrization="e_eps"``, then the ``q_j`` are exact rationals), strictly decreasing
    (Thm 7.4.1's validity condition; equal levels only with ``merge_equal``).  R in ``unit``
    (the thesis writes R in bits)."""
    prec = check_precision(prec, "prec", MIN_PREC_BITS, MAX_PREC_BITS)
    _scheme(scheme), check_unit(unit)
    if parametrization not in ("eps", "e_eps"):
        raise InvalidInputError(f"parametrization must be 'eps' or 'e_eps', got {parametrization!r}")
    with arb_precision(prec):
        if parametrization == "e_eps":
            if scheme == "proposed":
                probs = [ball_of(q) for q in key_probabilities(levels, merge_equal)]
            else:
                probs = [ball_of(z) for z in flip_probabilities(levels, merge_equal)]
            vals: tuple = check_ratios(levels, merge_equal)
        else:
            vals = check_eps(levels, merge_equal)
            if scheme == "proposed":
                probs = key_probability_balls(vals)
            else:
                probs = [1 / (ball_of(e).exp() + 1) for e in vals]
        total = ball_of(0)
        for p in probs:
            total += _h2_ball(p, unit)
        lo, hi = ball_ends(total)
    lo = max(lo, Fraction(0))  # a sum of entropies is >= 0
    name = "sum_j H2(q_j), thesis Thm 7.4.1 / (7.42)" if scheme == "proposed" else \
        "sum_j H2(e^eps_j/(e^eps_j+1)), thesis Sec. 7.4 (trivial scheme)"
    return Certified(lower=lo, upper=hi, provenance=name,
                     details={"scheme": scheme, "unit": unit, parametrization: vals})


# -- exact laws of the cascade by enumeration ------------------------------------------------------

def cascade_outputs(in_b: Any, keys: Any) -> tuple[np.ndarray, np.ndarray]:
    """The cascade (7.37)-(7.38) as a deterministic map, vectorised over users.

    ``in_b``: shape ``(n,)``, 1 if ``X_i in B_i``; ``keys``: shape ``(n, d)``, the bits ``U^1..U^d``.
    Returns ``(Y, L)``, both ``(n, d)`` int8: ``Y[:, j-1] = Y^j = 1{X in B} xor U^1 xor ... xor U^j``
    (the published output is ``Y[:, -1] = Y^d``) and ``L[:, j-1] = L^j = U^{j+1} xor ... xor U^d``
    (``L^d = 0``)."""
    b = np.asarray(in_b, dtype=np.int8).reshape(-1)
    u = np.asarray(keys, dtype=np.int8)
    if u.ndim != 2 or u.shape[0] != b.shape[0] or u.shape[1] < 1:
        raise InvalidInputError("keys must have shape (n, d) with n = len(in_b) and d >= 1")
    if np.any((u != 0) & (u != 1)) or np.any((b != 0) & (b != 1)):
        raise InvalidInputError("in_b and keys must be bits 0/1")
    y = np.bitwise_xor.accumulate(u, axis=1) ^ b[:, None]
    tail = np.bitwise_xor.accumulate(u[:, ::-1], axis=1)[:, ::-1]  # tail[:, j] = U^{j+1} xor ... xor U^d
    keys_l = np.zeros_like(u)
    keys_l[:, :-1] = tail[:, 1:]
    return y.astype(np.int8), keys_l.astype(np.int8)


def key_law(e_eps: Any, merge_equal: bool = False) -> dict[tuple[int, ...], Fraction]:
    """Exact law of the independent keys ``(U^1, ..., U^d)``, ``U^j ~ Bern(q_j)`` (7.36): the
    ``2^d`` outcomes (zero-probability ones of merged levels included), ``d <= 12``."""
    q = key_probabilities(check_ratios(e_eps, merge_equal, MAX_ENUMERATED_LEVELS), merge_equal)
    law = {}
    for bits in itertools.product((0, 1), repeat=len(q)):
        p = Fraction(1)
        for bit, qj in zip(bits, q):
            p *= qj if bit else 1 - qj
        law[bits] = p
    return law


def cascade_conditional_law(e_eps: Any, merge_equal: bool = False) -> dict[int, dict[tuple, Fraction]]:
    """Exact conditional law of ``(Y^d, L^1, ..., L^d)`` given ``1{X in B}`` (keys ``0``/``1``), by
    enumerating the ``2^d`` key outcomes through :func:`cascade_outputs` (``d <= 12``).  Outcomes are
    ``(y_d, (l_1, ..., l_d))``; zero-probability outcomes are omitted."""
    law = key_law(e_eps, merge_equal)
    outcomes = np.array(list(law), dtype=np.int8)
    probs = list(law.values())
    out: dict[int, dict[tuple, Fraction]] = {}
    for b in (0, 1):
        y, keys_l = cascade_outputs(np.full(len(probs), b, dtype=np.int8), outcomes)
        cond: dict[tuple, Fraction] = {}
        for row in range(len(probs)):
            if probs[row]:
                key = (int(y[row, -1]), tuple(int(v) for v in keys_l[row]))
                cond[key] = cond.get(key, Fraction(0)) + probs[row]
        out[b] = cond
    return out


def _analysts(analysts: Any, d: int) -> tuple[int, ...]:
    if isinstance(analysts, bool) or not isinstance(analysts, (int, tuple, list)):
        raise InvalidInputError(f"analysts must be integers in [1, {d}], got {analysts!r}")
    items = (analysts,) if isinstance(analysts, int) else tuple(analysts)
    if not items or any(isinstance(j, bool) or not isinstance(j, int) or not 1 <= j <= d for j in items):
        raise InvalidInputError(f"analysts must be integers in [1, {d}], got {analysts!r}")
    return tuple(sorted(set(items)))


def analyst_view_law(e_eps: Any, analysts: Any, merge_equal: bool = False) -> dict[int, dict[tuple, Fraction]]:
    """Exact conditional law, given ``1{X in B}``, of what analyst ``j`` sees, ``(Y^d, L^j)`` (Sec. 7.4),
    or a coalition ``analysts = (j, j', ...)`` sees, ``(Y^d, L^j, L^j', ...)``; marginal of
    :func:`cascade_conditional_law`.  Outcomes ``(y_d, (l_j, ...))``."""
    full = cascade_conditional_law(e_eps, merge_equal)
    d = len(next(iter(full[0]))[1])
    idx = _analysts(analysts, d)
    out: dict[int, dict[tuple, Fraction]] = {}
    for b, cond in full.items():
        view: dict[tuple, Fraction] = {}
        for (y, keys_l), p in cond.items():
            key = (y, tuple(keys_l[j - 1] for j in idx))
            view[key] = view.get(key, Fraction(0)) + p
        out[b] = view
    return out


def level_output_law(e_eps: Any, level: int, merge_equal: bool = False) -> tuple[Fraction, Fraction]:
    """Exact ``(P(Y^j = 1 | X in B), P(Y^j = 1 | X not in B))`` for ``j = level``, from the enumerated
    law of the analyst's view with ``Y^j = Y^d xor L^j`` (Lemma 7.4.1 claims ``(E_j/(E_j+1), 1/(E_j+1))``)."""
    view = analyst_view_law(e_eps, level, merge_equal)
    ones = tuple(sum((p for (y, (l,)), p in view[b].items() if y ^ l == 1), Fraction(0)) for b in (1, 0))
    return ones[0], ones[1]


def view_ldp_ratio(view: dict[int, dict[tuple, Fraction]]) -> Fraction | float:
    """``max_o max(P(o | in B)/P(o | not in B), P(o | not in B)/P(o | in B))`` of a view law (from
    :func:`analyst_view_law`): ``e^eps`` of the best local-DP guarantee of that view (inf if some
    outcome has probability 0 under exactly one input class)."""
    best: Fraction | float = Fraction(1)
    for o in set(view[0]) | set(view[1]):
        a, b = view[1].get(o, Fraction(0)), view[0].get(o, Fraction(0))
        if (a == 0) != (b == 0):
            return INFINITY
        if a:
            best = max(best, a / b, b / a)
    return best


# -- float twins: randomness curves, sampler, multi-level Hadamard response ----------------------

def key_probabilities_float(eps: Any) -> np.ndarray:
    """Float twin of (7.36), vectorised over the last axis of ``eps`` (levels, decreasing, > 0);
    a merged equal level gives ``q_j = 0``."""
    e = np.asarray(eps, dtype=float)
    if e.ndim == 0 or e.shape[-1] < 1 or not np.all(np.isfinite(e)) or np.any(e <= 0):
        raise InvalidInputError("eps must be a non-empty array of finite levels > 0")
    if np.any(np.diff(e, axis=-1) > 0):
        raise ValidityConditionError("Thm 7.4.1 needs eps_1 >= ... >= eps_d (decreasing levels)")
    m = np.exp(-e)  # z = 1/(e^eps + 1) = e^-eps/(1 + e^-eps): no overflow at large eps
    z = m / (1.0 + m)
    q = np.empty_like(z)
    q[..., 0] = z[..., 0]
    q[..., 1:] = (z[..., 1:] - z[..., :-1]) / (1.0 - 2.0 * z[..., :-1])
    return q


def total_randomness_float(eps: Any, scheme: str = "proposed", unit: str = "bits") -> np.ndarray:
    """Float twin of :func:`total_randomness` (parametrisation ``eps``), vectorised over leading axes."""
    _scheme(scheme), check_unit(unit)
    e = np.asarray(eps, dtype=float)
    p = key_probabilities_float(e) if scheme == "proposed" else np.exp(-e) / (1.0 + np.exp(-e))
    with np.errstate(divide="ignore", invalid="ignore"):
        h = np.where(p > 0, -p * np.log(np.where(p > 0, p, 1.0)) - (1 - p) * np.log1p(-p), 0.0)
    return h.sum(axis=-1) / (np.log(2.0) if unit == "bits" else 1.0)


def sample_cascade_float(in_b: Any, eps: Sequence[Any], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Sample the keys ``U^j ~ Bern(q_j)`` of every user at once and run :func:`cascade_outputs`;
    returns ``(Y^d, L)`` with ``L[:, j-1] = L^j`` (the published output and the analysts' keys)."""
    q = key_probabilities_float([to_float_input(v, "eps") for v in eps])
    b = np.asarray(in_b, dtype=np.int8).reshape(-1)
    keys = (rng.random((b.shape[0], q.shape[0])) < q).astype(np.int8)
    y, keys_l = cascade_outputs(b, keys)
    return y[:, -1], keys_l


def _sylvester(k: int) -> np.ndarray:
    """The Sylvester-Hadamard matrix H_K (K a power of 2), as in thesis (7.28); minimal private copy
    (the Hadamard-response module of Sec. 7.3.2 is owned elsewhere)."""
    h = np.ones((1, 1), dtype=np.int8)
    while h.shape[0] < k:
        h = np.block([[h, h], [h, -h]])
    return h


def estimate_all_levels_float(x: Any, k_pad: int, eps: Sequence[Any], rng: np.random.Generator) -> np.ndarray:
    """Multi-level Hadamard response (Sec. 7.4 on top of Sec. 7.3.2): user ``i`` (inputs ``x`` in
    ``0..K-1``, ``K = k_pad`` a power of 2, ``n`` a multiple of ``K``) is in group ``l = i mod K`` with
    ``B_l`` = rows with +1 in column ``l`` of ``H_K``; the published bits follow (7.37)-(7.38); analyst
    ``j`` rebuilds ``Y^j = Y^d xor L^j`` and estimates ``p`` by (7.29)-(7.31) with
    ``q = e^eps_j/(e^eps_j+1)``.  Returns the ``(d, K)`` array of the analysts' estimates ``p_hat``."""
    if isinstance(k_pad, bool) or not isinstance(k_pad, (int, np.integer)) or not 1 <= k_pad <= MAX_HADAMARD_K:
        raise InvalidInputError(f"K must be a power of 2 in [1, {MAX_HADAMARD_K}], got {k_pad!r}")
    xs = np.asarray(x, dtype=np.int64).reshape(-1)
    if k_pad & (k_pad - 1) or xs.shape[0] % k_pad or np.any((xs < 0) | (xs >= k_pad)):
        raise InvalidInputError("K must be a power of 2 dividing n, and inputs must lie in 0..K-1")
    h = _sylvester(k_pad)
    group = np.arange(xs.shape[0]) % k_pad
    in_b = (h[xs, group] == 1).astype(np.int8)
    y_d, keys_l = sample_cascade_float(in_b, eps, rng)
    m = xs.shape[0] // k_pad
    out = np.empty((len(eps), k_pad))
    for j, e in enumerate(eps):  # loop over analysts only (d of them)
        small = float(np.exp(-to_float_input(e, "eps")))  # e^-eps: (big + 1)/(big - 1) = (1 + small)/(1 - small)
        y_j = y_d ^ keys_l[:, j]
        s_hat = np.bincount(group, weights=y_j, minlength=k_pad) / m
        p_b = (1 + small) / (1 - small) * (s_hat - small / (1 + small))
        out[j] = h @ (2 * p_b - 1) / k_pad
    return out
