"""One round of CLDP-SGD (thesis Alg 4.3.1, eq. (4.5) = (C.1)) enumerated exactly on small instances.

A round at model theta_t: a uniformly random set U_t of k of the n clients (line 4); each i in U_t
picks a uniformly random set S_it of s of its m records (line 6) and sends R(x_ij), j in S_it, with
x_ij = grad f(theta_t; d_ij) (lines 8-11; no clipping: the gradients are given, footnote 1); the
shuffler outputs the multiset of the ks messages (line 12, H_ks); the server forms
g_t = (1/(ks)) sum of the messages (line 13).  Every function enumerates all C(n,k) C(m,s)^k samples
and all randomizer outputs, with exact Fractions; R is a finite kernel (:mod:`bcdp.fl.kernels`).

* :func:`sample_law` / :func:`inclusion_probability` / :func:`co_occurrence_probability`: the exact
  sampling law; each record is used with probability q = ks/(mn) (thesis Sec. 4.3, before Thm 4.3.1),
  and for s = 1 two records of one client never co-occur (thesis footnote 4 of Sec. 4.3.1.1).
* :func:`output_law` (the server's view M_t(D), a law on multisets), :func:`gradient_law` (g_t),
  :func:`gradient_mean` (E[g_t] = grad F(theta_t), Sec. 4.3.1.3), :func:`second_moment`
  (E||g_t||_2^2, Lemma 4.3.2, eq. (4.6)).
* Privacy, neighbouring relation = *replace one record* of one client (D and D' differ in one d_ij,
  thesis App. C.1, D' = D'_1 U D_2 ... U D_n), both directions (C.3)-(C.4): :func:`round_delta`
  (exact hockey-stick delta at e^eps = ratio between two datasets), :func:`round_profile` (worst over
  every dataset in X^{nm} and every neighbour), :func:`shuffle_profile` (the exact (eps~, delta~) of
  Z = H_ks(R(x_1), ..., R(x_ks)) over every replace-one pair of ks-multisets of X, App. C.1),
  :func:`lemma431_parameters` (Lemma 4.3.1 / App. C.1.1, s = 1: e^eps = 1 + q(e^eps~ - 1),
  delta = q delta~) and :func:`appc12_parameters` (App. C.1.2, s > 1: e^eps = 1 + q2(e^eps~ - 1),
  q2 = s/m, delta = q delta~).
* :func:`conditional_laws`: the conditional laws A11, A10, A0 of App. C.1, (C.5), whose
  comparisons (C.6)-(C.8) carry the proof of Lemma 4.3.1.
* :func:`sample_gradients_float`: a vectorised float64 simulation of g_t (numpy Generator), tested
  against the exact law.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any, Iterable, Iterator

from bcdp.core.divergences import hockey_stick_exact
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.core.numbers import to_fraction

from .kernels import Kernel, Vector, as_vector, check_count, check_dataset, check_kernel, convolve, multiset_law, sq_norm

__all__ = [
    "MAX_SAMPLES", "appc12_parameters", "check_sizes", "conditional_laws", "lemma432_bound", "co_occurrence_probability", "gradient_law",
    "gradient_mean", "inclusion_probability", "lemma431_parameters", "neighbours", "output_law", "round_delta",
    "round_profile", "sample_gradients_float", "sample_law", "second_moment", "shuffle_profile",
]

#: Largest number C(n,k) C(m,s)^k of equally likely samples enumerated for one round.
MAX_SAMPLES = 20_000


def check_sizes(n: Any, m: Any, k: Any, s: Any) -> tuple[int, int, int, int]:
    """1 <= k <= n clients sampled, 1 <= s <= m records each (thesis Alg 4.3.1: k <= n, s <= m)."""
    n_, m_ = check_count(n, "n"), check_count(m, "m")
    k_, s_ = check_count(k, "k"), check_count(s, "s")
    if k_ > n_:
        raise ValidityConditionError(f"k = {k_} clients cannot be sampled from n = {n_} (Alg 4.3.1 needs k <= n)")
    if s_ > m_:
        raise ValidityConditionError(f"s = {s_} records cannot be sampled from m = {m_} (Alg 4.3.1 needs s <= m)")
    if comb(n_, k_) * comb(m_, s_) ** k_ > MAX_SAMPLES:
        raise InvalidInputError(f"C(n,k) C(m,s)^k = {comb(n_, k_) * comb(m_, s_) ** k_} samples exceed {MAX_SAMPLES}")
    return n_, m_, k_, s_


def sample_law(n: Any, m: Any, k: Any, s: Any) -> Iterator[tuple[tuple[tuple[int, tuple[int, ...]], ...], Fraction]]:
    """Every outcome ((i, S_i) for i in U_t) of lines 4 and 6 of Alg 4.3.1 with its exact probability
    1/(C(n,k) C(m,s)^k) (clients and records 0-based)."""
    n_, m_, k_, s_ = check_sizes(n, m, k, s)
    w = Fraction(1, comb(n_, k_) * comb(m_, s_) ** k_)
    subsets = list(itertools.combinations(range(m_), s_))
    for U in itertools.combinations(range(n_), k_):
        for choice in itertools.product(subsets, repeat=k_):
            yield tuple(zip(U, choice)), w


def inclusion_probability(n: Any, m: Any, k: Any, s: Any, client: int = 0, record: int = 0) -> Fraction:
    """P[record d_{client,record} is used in a round], by enumeration of :func:`sample_law` (thesis
    Sec. 4.3: q = ks/(mn))."""
    return sum((w for sample, w in sample_law(n, m, k, s)
                if any(i == client and record in S for i, S in sample)), Fraction(0))


def co_occurrence_probability(n: Any, m: Any, k: Any, s: Any, client: int = 0, records: tuple[int, int] = (0, 1)) -> Fraction:
    """P[two given records of one client are both used in a round], by enumeration (thesis footnote 4
    of Sec. 4.3.1.1: 0 when s = 1, unlike uniform sampling of ks records from D)."""
    a, b = records
    return sum((w for sample, w in sample_law(n, m, k, s)
                if any(i == client and a in S and b in S for i, S in sample)), Fraction(0))


def _client_law(records: tuple[Vector, ...], s: int, kernel: Kernel, cache: dict) -> dict[tuple, Fraction]:
    """Law of the multiset of the s messages of one sampled client (line 6 then line 10)."""
    key = (tuple(sorted(records)), s)
    if key not in cache:
        subsets = list(itertools.combinations(range(len(records)), s))
        w = Fraction(1, len(subsets))
        out: dict[tuple, Fraction] = {}
        for S in subsets:
            for o, p in multiset_law([records[j] for j in S], kernel).items():
                out[o] = out.get(o, Fraction(0)) + w * p
        cache[key] = out
    return cache[key]


def output_law(dataset: Any, kernel: Any, k: Any, s: Any, *, _checked: bool = False,
               _cache: dict | None = None) -> dict[tuple, Fraction]:
    """The exact law of the server's view M_t(D) = H_ks o samp_{n,k}(G_1, ..., G_n) (thesis eq. (4.5),
    (C.1)): {sorted tuple of the ks messages: probability}."""
    kern = kernel if _checked else check_kernel(kernel)
    clients = dataset if _checked else check_dataset(dataset, kern)
    n, m = len(clients), len(clients[0])
    n, m, k_, s_ = check_sizes(n, m, k, s)
    cache: dict = {} if _cache is None else _cache
    w = Fraction(1, comb(n, k_))
    out: dict[tuple, Fraction] = {}
    for U in itertools.combinations(range(n), k_):
        law: dict[tuple, Fraction] = {(): Fraction(1)}
        for i in U:
            law = convolve(law, _client_law(clients[i], s_, kern, cache))
        for o, p in law.items():
            out[o] = out.get(o, Fraction(0)) + w * p
    return out


def gradient_law(dataset: Any, kernel: Any, k: Any, s: Any) -> dict[Vector, Fraction]:
    """The exact law of g_t = (1/(ks)) sum of the ks messages (thesis Alg 4.3.1, line 13)."""
    ks = check_count(k, "k") * check_count(s, "s")
    out: dict[Vector, Fraction] = {}
    for o, p in output_law(dataset, kernel, k, s).items():
        g = tuple(sum((y[c] for y in o), Fraction(0)) / ks for c in range(len(o[0])))
        out[g] = out.get(g, Fraction(0)) + p
    return out


def gradient_mean(dataset: Any, kernel: Any, k: Any, s: Any) -> Vector:
    """E[g_t] from the exact law of :func:`gradient_law` (thesis Sec. 4.3.1.3: = grad F(theta_t) for an
    unbiased R)."""
    law = gradient_law(dataset, kernel, k, s)
    d = len(next(iter(law)))
    return tuple(sum((g[c] * p for g, p in law.items()), Fraction(0)) for c in range(d))


def second_moment(dataset: Any, kernel: Any, k: Any, s: Any) -> Fraction:
    """E||g_t||_2^2 from the exact law of :func:`gradient_law` (thesis Lemma 4.3.2, eq. (4.6))."""
    return sum((sq_norm(g) * p for g, p in gradient_law(dataset, kernel, k, s).items()), Fraction(0))


def _ratios(ratios: Iterable[Any]) -> list[Fraction]:
    out = [to_fraction(r, "ratio") for r in ratios]
    if not out:
        raise InvalidInputError("give at least one ratio e^eps")
    for r in out:
        if r < 1:
            raise InvalidInputError(f"ratio = e^eps must be >= 1 (eps >= 0), got {r}")
    return out


def round_delta(dataset: Any, other: Any, kernel: Any, k: Any, s: Any, ratio: Any) -> Fraction:
    """max(H_r(M_t(D) || M_t(D')), H_r(M_t(D') || M_t(D))) at r = e^eps, exactly: the smallest delta
    for which (C.3) and (C.4) hold between these two datasets (any two datasets of the same shape;
    neighbours in the thesis's sense differ in one record, App. C.1)."""
    kern = check_kernel(kernel)
    a, b = check_dataset(dataset, kern), check_dataset(other, kern)
    if (len(a), len(a[0])) != (len(b), len(b[0])):
        raise InvalidInputError("the two datasets must have the same n and m")
    r = _ratios([ratio])[0]
    cache: dict = {}
    P = output_law(a, kern, k, s, _checked=True, _cache=cache)
    Q = output_law(b, kern, k, s, _checked=True, _cache=cache)
    return max(hockey_stick_exact(P, Q, r), hockey_stick_exact(Q, P, r))


def neighbours(dataset: Any, domain: Iterable[Any]) -> Iterator[tuple[tuple[int, int], tuple]]:
    """Every dataset obtained by replacing one record d_ij with another value of ``domain`` (the
    neighbouring relation of thesis App. C.1), with the position (i, j) replaced."""
    clients = [list(c) for c in dataset]
    values = [as_vector(x) for x in domain]
    for i, c in enumerate(clients):
        for j, x in enumerate(c):
            for v in values:
                if v != as_vector(x):
                    new = [list(r) for r in clients]
                    new[i][j] = v
                    yield (i, j), tuple(tuple(r) for r in new)


def _canonical(clients: tuple) -> tuple:
    return tuple(sorted(tuple(sorted(c)) for c in clients))


def round_profile(kernel: Any, n: Any, m: Any, k: Any, s: Any, ratios: Iterable[Any]) -> dict[Fraction, dict]:
    """delta(eps) of one round of CLDP-SGD for each e^eps in ``ratios``: the max of :func:`round_delta`
    over every dataset D in X^{nm} (X = the kernel's domain) and every neighbour D' (replace one record,
    thesis App. C.1), both directions.  Returns {ratio: {"delta": Fraction, "dataset", "neighbour"}}."""
    kern = check_kernel(kernel)
    n_, m_, k_, s_ = check_sizes(n, m, k, s)
    rs = _ratios(ratios)
    domain = sorted(kern)
    laws: dict[tuple, dict] = {}
    cache: dict = {}

    def law(clients: tuple) -> dict:
        key = _canonical(clients)
        if key not in laws:
            laws[key] = output_law(key, kern, k_, s_, _checked=True, _cache=cache)
        return laws[key]

    best = {r: {"delta": Fraction(0), "dataset": None, "neighbour": None} for r in rs}
    seen: set = set()
    client_values = list(itertools.combinations_with_replacement(domain, m_))
    for clients in itertools.combinations_with_replacement(client_values, n_):
        P = law(clients)
        for _, other in neighbours(clients, domain):
            pair = (_canonical(clients), _canonical(other))
            if pair in seen:
                continue
            seen.add(pair)
            Q = law(other)
            for r in rs:
                d = hockey_stick_exact(P, Q, r)
                if d > best[r]["delta"]:
                    best[r] = {"delta": d, "dataset": clients, "neighbour": other}
    return best


def shuffle_profile(kernel: Any, count: Any, ratios: Iterable[Any]) -> dict[Fraction, dict]:
    """The exact privacy of Z = H_count(R(x_1), ..., R(x_count)) (thesis App. C.1, before (C.2)): for
    each e^eps~ in ``ratios``, delta~ = max over multisets M of count - 1 inputs of X and x != x' in X of
    H_r(Z(M + x) || Z(M + x')) (replace one input; both orders are covered).  Returns
    {ratio: {"delta": Fraction, "rest": M, "pair": (x, x')}}."""
    kern = check_kernel(kernel)
    c = check_count(count, "count")
    rs = _ratios(ratios)
    domain = sorted(kern)
    best = {r: {"delta": Fraction(0), "rest": None, "pair": None} for r in rs}
    for rest in itertools.combinations_with_replacement(domain, c - 1):
        laws = {x: multiset_law(list(rest) + [x], kern) for x in domain}
        for x in domain:
            for y in domain:
                if x == y:
                    continue
                for r in rs:
                    d = hockey_stick_exact(laws[x], laws[y], r)
                    if d > best[r]["delta"]:
                        best[r] = {"delta": d, "rest": rest, "pair": (x, y)}
    return best


def lemma431_parameters(n: Any, m: Any, k: Any, s: Any, ratio_tilde: Any, delta_tilde: Any) -> tuple[Fraction, Fraction]:
    """Lemma 4.3.1 (proved in App. C.1.1), s = 1: if Z = H_ks is (eps~, delta~)-DP then a round is
    (eps, delta)-DP with e^eps = 1 + q(e^eps~ - 1), delta = q delta~, q = ks/(mn) = k/(mn).  Returns
    (e^eps, delta) exactly.  ValidityConditionError unless s = 1."""
    n_, m_, k_, s_ = check_sizes(n, m, k, s)
    if s_ != 1:
        raise ValidityConditionError(f"Lemma 4.3.1 (App. C.1.1) needs s = 1, got s = {s_}; see appc12_parameters")
    r = _ratios([ratio_tilde])[0]
    dt = to_fraction(delta_tilde, "delta_tilde")
    if not 0 <= dt <= 1:
        raise InvalidInputError(f"delta_tilde must be in [0, 1], got {dt}")
    q = Fraction(k_ * s_, m_ * n_)
    return 1 + q * (r - 1), q * dt


def appc12_parameters(n: Any, m: Any, k: Any, s: Any, ratio_tilde: Any, delta_tilde: Any) -> tuple[Fraction, Fraction]:
    """App. C.1.2 (any s in [m]): e^eps = 1 + q2(e^eps~ - 1) with q2 = s/m, delta = q delta~ with
    q = ks/(mn) (Remark C.1.1: only the data-sampling factor q2 amplifies eps when s > 1)."""
    n_, m_, k_, s_ = check_sizes(n, m, k, s)
    r = _ratios([ratio_tilde])[0]
    dt = to_fraction(delta_tilde, "delta_tilde")
    if not 0 <= dt <= 1:
        raise InvalidInputError(f"delta_tilde must be in [0, 1], got {dt}")
    return 1 + Fraction(s_, m_) * (r - 1), Fraction(k_ * s_, m_ * n_) * dt


def lemma432_bound(L2: Any, fp: Any, n: Any, m: Any, k: Any, s: Any) -> Fraction:
    """Thesis Lemma 4.3.2, eq. (4.6): E||g_t||_2^2 <= L^2(1 + f_p/(qmn)) with q = ks/(mn) (so qmn = ks);
    ``L2`` = L^2 (gradients bounded by L in l2), ``fp`` = f_p(eps0, b) (condition (iv), per-vector MSE)."""
    n_, m_, k_, s_ = check_sizes(n, m, k, s)
    l2, f = to_fraction(L2, "L2"), to_fraction(fp, "fp")
    if l2 < 0 or f < 0:
        raise InvalidInputError(f"L2 and fp must be >= 0, got {l2} and {f}")
    q = Fraction(k_ * s_, m_ * n_)
    return l2 * (1 + f / (q * m_ * n_))


def sample_gradients_float(rng: Any, dataset: Any, kernel: Any, k: Any, s: Any, size: Any) -> Any:
    """``size`` independent draws of g_t (thesis Alg 4.3.1, lines 4-13) as a float64 array of shape
    (size, d), vectorised with numpy: the k clients and the s records per client are the first
    entries of random permutations (argsort of uniforms), and each message is drawn from its kernel
    row by inverse CDF.  A float twin of :func:`gradient_law` (an approximation, for simulation)."""
    import numpy as np

    from bcdp.core.errors import WrongTypeError

    if not isinstance(rng, np.random.Generator):
        raise WrongTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    kern = check_kernel(kernel)
    clients = check_dataset(dataset, kern)
    n, m, k_, s_ = len(clients), len(clients[0]), check_count(k, "k"), check_count(s, "s")
    if k_ > n or s_ > m:
        raise ValidityConditionError(f"Alg 4.3.1 needs k <= n and s <= m, got k = {k_}, n = {n}, s = {s_}, m = {m}")
    size_ = check_count(size, "size")
    inputs = sorted(kern)
    index = {x: t for t, x in enumerate(inputs)}
    outputs = sorted({y for row in kern.values() for y in row})
    cdf = np.cumsum(np.array([[float(kern[x].get(y, 0)) for y in outputs] for x in inputs]), axis=1)
    cdf[:, -1] = 1.0
    values = np.array([[float(c) for c in y] for y in outputs])
    data = np.array([[index[x] for x in c] for c in clients])
    chosen = np.argsort(rng.random((size_, n)), axis=1)[:, :k_]
    records = np.argsort(rng.random((size_, k_, m)), axis=2)[:, :, :s_]
    x_idx = data[chosen[:, :, None], records]
    u = rng.random(x_idx.shape)
    y_idx = (u[..., None] >= cdf[x_idx]).sum(axis=-1)
    y_idx = np.minimum(y_idx, len(outputs) - 1)
    return values[y_idx].reshape(size_, k_ * s_, -1).mean(axis=1)


def conditional_laws(dataset: Any, kernel: Any, k: Any, s: Any) -> dict[str, dict[tuple, Fraction]]:
    """The conditional laws of the server's view given the sampling events of thesis App. C.1, (C.5),
    for the record d_11 (client 0, record 0): "A11" (client 0 and record 0 chosen), "A10" (client 0
    chosen, record 0 not; absent when s = m) and "A0" (client 0 not chosen; absent when k = n), each
    {sorted tuple of messages: probability} summing to 1."""
    kern = check_kernel(kernel)
    clients = check_dataset(dataset, kern)
    n, m = len(clients), len(clients[0])
    cache: dict = {}
    acc: dict[str, dict[tuple, Fraction]] = {"A11": {}, "A10": {}, "A0": {}}
    for sample, w in sample_law(n, m, k, s):
        chosen = dict(sample)
        event = "A0" if 0 not in chosen else ("A11" if 0 in chosen[0] else "A10")
        inputs = tuple(sorted(clients[i][j] for i, S in sample for j in S))
        if inputs not in cache:
            cache[inputs] = multiset_law(list(inputs), kern)
        for o, p in cache[inputs].items():
            acc[event][o] = acc[event].get(o, Fraction(0)) + w * p
    out = {}
    for name, law in acc.items():
        mass = sum(law.values(), Fraction(0))
        if mass > 0:
            out[name] = {o: p / mass for o, p in law.items()}
    return out
