"""Brute-force oracles for the tests of bcdp.fl (thesis Ch. 4), written from the printed algorithms
(Alg 4.3.1; Sec. 4.4) with plain Fractions, independently of bcdp.fl: every sample is listed
explicitly and every joint output of the randomizers is enumerated with itertools.product."""

from __future__ import annotations

import itertools
from fractions import Fraction


def rr_kernel(p: Fraction, domain=(-1, 1)) -> dict:
    """Scalar unbiased randomizer on [-1, 1] written from scratch: output +-1/(1-2p) with
    P[+1/(1-2p)] = (1 + x(1-2p))/2 (stochastic rounding then binary randomized response with flip
    probability p, rescaled to be unbiased)."""
    a = 1 / (1 - 2 * Fraction(p))
    return {Fraction(x): {a: (1 + Fraction(x) / a) / 2, -a: (1 - Fraction(x) / a) / 2} for x in domain}


def vec(x) -> tuple:
    return tuple(Fraction(c) for c in x) if isinstance(x, tuple) else (Fraction(x),)


def row(kernel: dict, x) -> list:
    for k, r in kernel.items():
        if vec(k) == vec(x):
            return [(vec(y), w) for y, w in r.items()]
    raise KeyError(x)


def cldp_outcomes(D, kernel, k: int, s: int):
    """(sorted tuple of the ks messages, probability) for every sample and joint output."""
    n, m = len(D), len(D[0])
    samples = [[D[i][j] for i, S in zip(U, Ss) for j in S]
               for U in itertools.combinations(range(n), k)
               for Ss in itertools.product(list(itertools.combinations(range(m), s)), repeat=k)]
    for inputs in samples:
        for joint in itertools.product(*[row(kernel, x) for x in inputs]):
            w = Fraction(1, len(samples))
            for _, p in joint:
                w *= p
            yield tuple(sorted(y for y, _ in joint)), w


def law(pairs) -> dict:
    out: dict = {}
    for o, w in pairs:
        out[o] = out.get(o, Fraction(0)) + w
    return out


def hockey(P: dict, Q: dict, r) -> Fraction:
    return sum((max(Fraction(0), w - r * Q.get(o, Fraction(0))) for o, w in P.items()), Fraction(0))


def dss_outcomes(D, kernel, q: Fraction):
    """(K, messages, probability) for every participation pattern, record choice and joint output."""
    n, m = len(D), len(D[0])
    for joined in itertools.product((0, 1), repeat=n):
        U = [i for i in range(n) if joined[i]]
        base = q ** len(U) * (1 - q) ** (n - len(U)) / Fraction(m) ** len(U)
        for picks in itertools.product(range(m), repeat=len(U)):
            for joint in itertools.product(*[row(kernel, D[i][j]) for i, j in zip(U, picks)]):
                w = base
                for _, p in joint:
                    w *= p
                yield len(U), [y for y, _ in joint], w


def sq(v) -> Fraction:
    return sum((c * c for c in v), Fraction(0))


def average(msgs) -> tuple:
    return tuple(sum(y[c] for y in msgs) / len(msgs) for c in range(len(msgs[0])))
