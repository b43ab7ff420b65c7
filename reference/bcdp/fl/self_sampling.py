"""One round of dss-SGD (client self-sampling, thesis Sec. 4.4) enumerated exactly on small instances.

A round at model theta_t: each of the n clients joins independently with probability q (U_t ~
samp^iid_{n,q}, K_t = |U_t| ~ Bin(n, q)); each participant uses one uniformly random record d_{i j_i}
of its m records and sends R(x_{i j_i}); the server forms g_t = (1/K_t) sum_{i in U_t} R(x_{i j_i})
when K_t > 0 and skips the step when K_t = 0 (thesis Sec. 4.4.1.3).  Exact Fractions; R is a finite
kernel (:mod:`bcdp.fl.kernels`); all 2^n participation sets and all outputs are enumerated.

* :func:`participation_law`, :func:`empty_probability`: K_t ~ Bin(n, q); Pr[K_t = 0] = (1 - q)^n
  (thesis Sec. 4.4.1.3, before Claim 4.4.1).
* :func:`gradient_law`: the law of g_t on {K_t > 0} (total mass 1 - (1 - q)^n).
* :func:`mean_given_participation` (E[g_t | K_t > 0], Claim 4.4.1 / App. C.3) and
  :func:`mean_with_skip` (E[g_t 1{K_t > 0}]: the expected step when a skipped round moves nothing).
* :func:`second_moment`: E[||g_t||^2 1{K_t > 0}] (App. C.4, (C.33) with E_0 = 0), against
  :func:`lemma442_printed_bound` (eq. (4.12) without its e^{-c'qn} term: L^2(1 + f_p/(q-bar m n)),
  q-bar = q/m) and :func:`c36_bound` ((C.36) without its e^{-c'qn} term: L^2(1 + 2 f_p/(qn))).
* Privacy (App. C.2, (C.11), replace-one neighbours as in App. C.1): :func:`output_law` (the
  server's view H_{K_t}: the multiset of the K_t messages, the empty tuple when K_t = 0) and
  :func:`round_profile` (exact worst delta over every dataset in X^{nm} and every neighbour).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_fraction

from bcdp.core.divergences import hockey_stick_exact

from .kernels import Vector, check_count, check_dataset, check_kernel, convolve, sq_norm

__all__ = [
    "MAX_CLIENTS", "c36_bound", "check_q", "empty_probability", "gradient_law", "lemma442_printed_bound",
    "mean_given_participation", "mean_with_skip", "output_law", "participation_law", "round_profile",
    "second_moment",
]

#: Largest n enumerated (2^n participation sets).
MAX_CLIENTS = 10


def check_q(q: Any) -> Fraction:
    """The participation probability q, an exact rational in (0, 1] (thesis Sec. 4.4: each client
    joins with probability q)."""
    p = to_fraction(q, "q")
    if not 0 < p <= 1:
        raise ValidityConditionError(f"q = {p} must be in (0, 1] (thesis Sec. 4.4: participation probability)")
    return p


def participation_law(n: Any, q: Any) -> dict[int, Fraction]:
    """{k: Pr[K_t = k]} = C(n,k) q^k (1-q)^{n-k}, K_t ~ Bin(n, q) (thesis Sec. 4.4.1.3)."""
    n_, p = check_count(n, "n"), check_q(q)
    return {k: comb(n_, k) * p ** k * (1 - p) ** (n_ - k) for k in range(n_ + 1)}


def empty_probability(n: Any, q: Any) -> Fraction:
    """Pr[K_t = 0] = (1 - q)^n (thesis Sec. 4.4.1.3), from :func:`participation_law`."""
    return participation_law(n, q)[0]


def _client_law(records: tuple[Vector, ...], kernel: dict) -> dict[Vector, Fraction]:
    """Law of one participant's message: a uniform record j_i, then R (a mixture of kernel rows)."""
    w = Fraction(1, len(records))
    out: dict[Vector, Fraction] = {}
    for x in records:
        for y, p in kernel[x].items():
            out[y] = out.get(y, Fraction(0)) + w * p
    return out


def gradient_law(dataset: Any, kernel: Any, q: Any) -> dict[Vector, Fraction]:
    """{g_t: probability} over the outcomes with K_t > 0 (the masses sum to 1 - (1 - q)^n): every
    participation set U, each participant's uniform record and R's output, g_t = (1/K_t) sum."""
    kern = check_kernel(kernel)
    clients = check_dataset(dataset, kern)
    p = check_q(q)
    n = len(clients)
    if n > MAX_CLIENTS:
        raise InvalidInputError(f"n = {n} clients exceed {MAX_CLIENTS} (2^n participation sets are enumerated)")
    d = len(clients[0][0])
    laws = [_client_law(c, kern) for c in clients]
    out: dict[Vector, Fraction] = {}
    for joined in itertools.product((False, True), repeat=n):
        K = sum(joined)
        if K == 0:
            continue
        weight = p ** K * (1 - p) ** (n - K)
        sums: dict[Vector, Fraction] = {(Fraction(0),) * d: Fraction(1)}
        for i in range(n):
            if joined[i]:
                nxt: dict[Vector, Fraction] = {}
                for s, ws in sums.items():
                    for y, wy in laws[i].items():
                        key = tuple(a + b for a, b in zip(s, y))
                        nxt[key] = nxt.get(key, Fraction(0)) + ws * wy
                sums = nxt
        for s, ws in sums.items():
            g = tuple(c / K for c in s)
            out[g] = out.get(g, Fraction(0)) + weight * ws
    return out


def mean_with_skip(dataset: Any, kernel: Any, q: Any) -> Vector:
    """E[g_t 1{K_t > 0}]: the expected step direction when a round with K_t = 0 moves nothing
    (= (1 - (1 - q)^n) grad F for an unbiased R; thesis Sec. 4.4.1.3)."""
    law = gradient_law(dataset, kernel, q)
    d = len(next(iter(law)))
    return tuple(sum((g[c] * w for g, w in law.items()), Fraction(0)) for c in range(d))


def mean_given_participation(dataset: Any, kernel: Any, q: Any) -> Vector:
    """E[g_t | K_t > 0] (thesis Claim 4.4.1, App. C.3: = grad F(theta_t) for an unbiased R)."""
    law = gradient_law(dataset, kernel, q)
    mass = sum(law.values(), Fraction(0))
    d = len(next(iter(law)))
    return tuple(sum((g[c] * w for g, w in law.items()), Fraction(0)) / mass for c in range(d))


def second_moment(dataset: Any, kernel: Any, q: Any) -> Fraction:
    """E[||g_t||_2^2 1{K_t > 0}] (thesis App. C.4, (C.33) with E_0 = 0: nothing is updated when no
    client participates)."""
    return sum((sq_norm(g) * w for g, w in gradient_law(dataset, kernel, q).items()), Fraction(0))


def _bound_args(L2: Any, fp: Any, q: Any, n: Any) -> tuple[Fraction, Fraction, Fraction, int]:
    l2, f = to_fraction(L2, "L2"), to_fraction(fp, "fp")
    if l2 < 0 or f < 0:
        raise InvalidInputError(f"L2 and fp must be >= 0, got {l2} and {f}")
    return l2, f, check_q(q), check_count(n, "n")


def lemma442_printed_bound(L2: Any, fp: Any, q: Any, n: Any, m: Any) -> Fraction:
    """The printed (4.12) of thesis Lemma 4.4.2 without its additive e^{-c'qn}: L^2(1 + f_p/(q-bar m n))
    with q-bar = q/m, i.e. L^2(1 + f_p/(qn)).  ``L2`` = L^2, ``fp`` = f_p(eps0, b)."""
    l2, f, p, n_ = _bound_args(L2, fp, q, n)
    qbar = p / check_count(m, "m")
    return l2 * (1 + f / (qbar * check_count(m, "m") * n_))


def c36_bound(L2: Any, fp: Any, q: Any, n: Any) -> Fraction:
    """(C.36) of thesis App. C.4 without its additive e^{-c'qn}: L^2(1 + 2 f_p/(qn))."""
    l2, f, p, n_ = _bound_args(L2, fp, q, n)
    return l2 * (1 + 2 * f / (p * n_))


def output_law(dataset: Any, kernel: Any, q: Any, *, _checked: bool = False) -> dict[tuple, Fraction]:
    """The exact law of the server's view M_t(D) = H_{K_t} o samp^iid_{n,q}(G_1, ..., G_n) (thesis
    eq. (4.11) = (C.11)): {sorted tuple of the K_t messages: probability}; the empty tuple (no
    message, the round is skipped) has probability (1 - q)^n.  Enumerates all 2^n participation sets."""
    kern = kernel if _checked else check_kernel(kernel)
    clients = dataset if _checked else check_dataset(dataset, kern)
    p = check_q(q)
    n = len(clients)
    if n > MAX_CLIENTS:
        raise InvalidInputError(f"n = {n} clients exceed {MAX_CLIENTS} (2^n participation sets are enumerated)")
    laws = [{(y,): w for y, w in _client_law(c, kern).items()} for c in clients]
    out: dict[tuple, Fraction] = {}
    for joined in itertools.product((False, True), repeat=n):
        K = sum(joined)
        law: dict[tuple, Fraction] = {(): p ** K * (1 - p) ** (n - K)}
        for i in range(n):
            if joined[i]:
                law = convolve(law, laws[i])
        for o, w in law.items():
            out[o] = out.get(o, Fraction(0)) + w
    return out


def round_profile(kernel: Any, n: Any, m: Any, q: Any, ratios: Any) -> dict[Fraction, dict]:
    """delta(eps) of one dss-SGD round for each e^eps in ``ratios`` (each >= 1): the max of the
    hockey-stick divergence between :func:`output_law` of D and of D', over every D in X^{nm} (X = the
    kernel's domain) and every D' obtained by replacing one record (thesis App. C.2, (C.13)-(C.14)),
    both directions.  Returns {ratio: {"delta", "dataset", "neighbour"}}."""
    kern = check_kernel(kernel)
    n_, m_, p = check_count(n, "n"), check_count(m, "m"), check_q(q)
    rs = [to_fraction(r, "ratio") for r in ratios]
    if not rs or min(rs) < 1:
        raise InvalidInputError("give ratios e^eps >= 1")
    domain = sorted(kern)
    laws: dict[tuple, dict] = {}

    def law(clients: tuple) -> dict:
        key = tuple(sorted(tuple(sorted(c)) for c in clients))
        if key not in laws:
            laws[key] = output_law(key, kern, p, _checked=True)
        return laws[key]

    best = {r: {"delta": Fraction(0), "dataset": None, "neighbour": None} for r in rs}
    for clients in itertools.combinations_with_replacement(list(itertools.combinations_with_replacement(domain, m_)), n_):
        P = law(clients)
        for i in range(n_):
            for j in range(m_):
                for v in domain:
                    if v == clients[i][j]:
                        continue
                    other = [list(c) for c in clients]
                    other[i][j] = v
                    Q = law(tuple(tuple(c) for c in other))
                    for r in rs:
                        d = hockey_stick_exact(P, Q, r)
                        if d > best[r]["delta"]:
                            best[r] = {"delta": d, "dataset": clients, "neighbour": tuple(tuple(c) for c in other)}
    return best
