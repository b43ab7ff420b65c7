"""assouad.mixture_pair against a direct enumeration: the normalised mixtures M^n_{+j}, M^n_{-j} of the
product output laws over the packing (7.13), weight 2/|V| (App. F.3)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from bcdp.core.errors import InvalidInputError
from bcdp.randomness import assouad

Q = [[F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)], [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]


def _oracle(q, k, delta, n, j):
    plus, minus = {}, {}
    nus = list(itertools.product((-1, 1), repeat=k // 2))
    for nu in nus:
        p = [F(1, k) + delta * v for v in nu] + [F(1, k) - delta * v for v in nu]
        marginal = [sum(p[x] * q[x][y] for x in range(k)) for y in range(len(q[0]))]
        target = plus if nu[j - 1] == 1 else minus
        for seq in itertools.product(range(len(q[0])), repeat=n):
            prob = F(1)
            for y in seq:
                prob *= marginal[y]
            target[seq] = target.get(seq, F(0)) + prob / (len(nus) // 2)
    return plus, minus


@pytest.mark.parametrize("n,j,delta", [(1, 1, F(1, 8)), (2, 1, F(1, 8)), (2, 2, F(1, 4)), (3, 2, F(1, 16))])
def test_mixture_pair_matches_enumeration(n, j, delta):
    plus, minus = assouad.mixture_pair(Q, 4, delta, n, j)
    want_plus, want_minus = _oracle(Q, 4, delta, n, j)
    assert {s: v for s, v in plus.items() if v} == {s: v for s, v in want_plus.items() if v}
    assert {s: v for s, v in minus.items() if v} == {s: v for s, v in want_minus.items() if v}
    assert sum(plus.values()) == sum(minus.values()) == 1


def test_mixture_pair_inputs():
    with pytest.raises(InvalidInputError, match="^j must be"):
        assouad.mixture_pair(Q, 4, F(1, 8), 1, 3)
    with pytest.raises(InvalidInputError, match="inputs, expected k"):
        assouad.mixture_pair(Q[:2], 4, F(1, 8), 1, 1)
