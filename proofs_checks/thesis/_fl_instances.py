"""Finite 2RR-based local randomizers and small datasets for the Ch. 4 (federated learning) checks.

Not a check (leading underscore).  The scalar randomizer on gradients x in [-L, L] (L rational) is
stochastic rounding to a bit b ~ Ber((x + L)/(2L)) followed by 2RR with parameter p
(:mod:`bcdp.dme.two_rr`, thesis Alg 2.2.1) and the affine map y -> L(2y - 1): unbiased (E[y] = b) and
(e^{eps0} = (1-p)/p)-LDP.  The d-dimensional one applies it to each coordinate independently
(e^{eps0} = ((1-p)/p)^d).  Built here, outside :mod:`bcdp.fl`, because a chapter package does not
import another one.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.dme import two_rr


def scalar_kernel(p: Fraction, domain, L: Fraction = Fraction(1)) -> dict:
    """{x: {L(2y-1): P}} for x in ``domain`` (each in [-L, L]): stochastic rounding then 2RR(p)."""
    out = {}
    for x in domain:
        x = Fraction(x)
        pi = (x + L) / (2 * L)
        row: dict = {}
        for bit, weight in ((1, pi), (0, 1 - pi)):
            for y, w in two_rr.two_rr_law(bit, p).items():
                v = L * (2 * y - 1)
                row[v] = row.get(v, Fraction(0)) + weight * w
        out[x] = row
    return out


def product_kernel(p: Fraction, coordinate_domain, d: int, L: Fraction = Fraction(1)) -> dict:
    """The d-fold product of :func:`scalar_kernel` on the grid coordinate_domain^d (vectors as tuples)."""
    base = scalar_kernel(p, coordinate_domain, L)
    out = {}
    for x in itertools.product([Fraction(c) for c in coordinate_domain], repeat=d):
        row: dict = {(): Fraction(1)}
        for c in x:
            row = {y + (v,): w * w2 for y, w in row.items() for v, w2 in base[c].items()}
        out[x] = row
    return out


#: (label, kernel) pairs used by the checks: scalar 2RR at e^eps0 = 3 and 9 on {-1, 1}, at e^eps0 = 3
#: on {-1, 0, 1}, and 2-d at e^eps0 = 9 (coordinate e^eps0 = 3) on {-1, 1}^2.
def kernels() -> list[tuple[str, dict]]:
    q, t = Fraction(1, 4), Fraction(1, 10)
    return [
        ("2RR p=1/4 on {-1,1}", scalar_kernel(q, (-1, 1))),
        ("2RR p=1/10 on {-1,1}", scalar_kernel(t, (-1, 1))),
        ("2RR p=1/4 on {-1,0,1}", scalar_kernel(q, (-1, 0, 1))),
        ("2-d 2RR p=1/4 on {-1,1}^2", product_kernel(q, (-1, 1), 2)),
    ]


def fstr(v) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(str(c) for c in v) + ")"
    return str(v)


def dstr(dataset) -> list:
    """A dataset of vectors as nested lists of strings."""
    if dataset is None:
        return []
    return [[fstr(x) for x in c] for c in dataset]


# -- brute-force oracles (written from Alg 4.3.1 and Sec. 4.4 directly, not from bcdp.fl) -------------

def _rows(kernel, x):
    key = x if isinstance(x, tuple) else (Fraction(x),)
    for k, row in kernel.items():
        kk = k if isinstance(k, tuple) else (Fraction(k),)
        if kk == key:
            return [((y if isinstance(y, tuple) else (Fraction(y),)), w) for y, w in row.items()]
    raise KeyError(x)


def brute_output_law(dataset, kernel, k: int, s: int) -> dict:
    """Law of the sorted tuple of the ks messages: every k-set of clients, every s-set of records per
    client (all equally likely) and every joint output of the ks independent randomizations."""
    n, m = len(dataset), len(dataset[0])
    outcomes = []
    for U in itertools.combinations(range(n), k):
        for choice in itertools.product(list(itertools.combinations(range(m), s)), repeat=k):
            outcomes.append([dataset[i][j] for i, S in zip(U, choice) for j in S])
    w0 = Fraction(1, len(outcomes))
    law: dict = {}
    for inputs in outcomes:
        for joint in itertools.product(*[_rows(kernel, x) for x in inputs]):
            key = tuple(sorted(y for y, _ in joint))
            w = w0
            for _, p in joint:
                w *= p
            law[key] = law.get(key, Fraction(0)) + w
    return law


def brute_dss_outcomes(dataset, kernel, q: Fraction):
    """Every outcome of one dss-SGD round (each client joins w.p. q, a participant uses one uniform
    record): yields (K, tuple of messages, probability)."""
    n, m = len(dataset), len(dataset[0])
    for joined in itertools.product((0, 1), repeat=n):
        pj = Fraction(1)
        for b in joined:
            pj *= q if b else 1 - q
        U = [i for i in range(n) if joined[i]]
        for picks in itertools.product(range(m), repeat=len(U)):
            inputs = [dataset[i][j] for i, j in zip(U, picks)]
            for joint in itertools.product(*[_rows(kernel, x) for x in inputs]):
                w = pj / Fraction(m) ** len(U)
                for _, p in joint:
                    w *= p
                yield len(U), tuple(y for y, _ in joint), w


def hockey(P: dict, Q: dict, r: Fraction) -> Fraction:
    """sum_o max(0, P(o) - r Q(o)) (written here, not bcdp.core.divergences)."""
    return sum((max(Fraction(0), w - r * Q.get(o, Fraction(0))) for o, w in P.items()), Fraction(0))
