"""bcdp.fl.rounds.round_profile (thesis App. C.1, replace-one neighbours, both directions) against a
brute-force maximum over all 2^(nm) datasets of a binary asymmetric kernel and every neighbour: the
deduplication of already-compared pairs must skip only that pair, not the rest of the neighbours."""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import comb

import pytest
from bcdp.fl import rounds

B = {0: {0: F(9, 10), 1: F(1, 10)}, 1: {0: F(1, 5), 1: F(4, 5)}}


def _hockey(P, Q, r):
    return sum((max(F(0), P.get(o, F(0)) - r * Q.get(o, F(0))) for o in set(P) | set(Q)), F(0))


def _law(D, k, s):
    n, m = len(D), len(D[0])
    out = {}
    w = F(1, comb(n, k) * comb(m, s) ** k)
    for U in itertools.combinations(range(n), k):
        for Ss in itertools.product(list(itertools.combinations(range(m), s)), repeat=k):
            inputs = [D[i][j] for i, S in zip(U, Ss) for j in S]
            for ys in itertools.product(*[list(B[x].items()) for x in inputs]):
                p = w
                for _, q in ys:
                    p *= q
                o = tuple(sorted((F(y),) for y, _ in ys))
                out[o] = out.get(o, F(0)) + p
    return out


@pytest.mark.parametrize("n,m,k,s", [(3, 1, 1, 1), (2, 2, 1, 1), (2, 2, 1, 2)])
def test_round_profile_binary_asymmetric_kernel_brute_force(n, m, k, s):
    ratios = [F(1), F(3, 2), F(3)]
    got = rounds.round_profile(B, n, m, k, s, ratios)
    best = {r: F(0) for r in ratios}
    for vals in itertools.product((0, 1), repeat=n * m):
        D = tuple(tuple(vals[i * m + j] for j in range(m)) for i in range(n))
        P = _law(D, k, s)
        for i, j in itertools.product(range(n), range(m)):
            E = [list(c) for c in D]
            E[i][j] = 1 - D[i][j]
            Q = _law(tuple(tuple(c) for c in E), k, s)
            for r in ratios:
                best[r] = max(best[r], _hockey(P, Q, r))
    for r in ratios:
        assert got[r]["delta"] == best[r]
