"""bcdp.fl.self_sampling against its surviving mutants (thesis Sec. 4.4, Lemma 4.4.2, App. C.2-C.4): the
sign checks of the bounds, the n <= MAX_CLIENTS boundary, brute-force round profiles of an asymmetric
kernel with their witnesses, and the argument named by each one-line message."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError
from bcdp.fl import self_sampling as ss
from mutation_support import raised

F = Fraction
ASYM = {0: {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}, 1: {0: F(1, 5), 1: F(3, 5), 2: F(1, 5)}, 2: {0: F(1, 10), 1: F(1, 10), 2: F(4, 5)}}
PERFECT = {0: {0: F(1, 2), 1: F(1, 2)}, 1: {0: F(1, 2), 1: F(1, 2)}}


def _hockey(P, Q, r):
    return sum((max(F(0), P.get(o, F(0)) - r * Q.get(o, F(0))) for o in set(P) | set(Q)), F(0))


def _law(D, kernel, q):
    """Brute force: every participation set, every participant's record and output."""
    out = {}
    n = len(D)
    for joined in itertools.product((0, 1), repeat=n):
        members = [i for i in range(n) if joined[i]]
        base = F(1)
        for i in range(n):
            base *= q if joined[i] else 1 - q
        for recs in itertools.product(*[range(len(D[i])) for i in members]):
            for ys in itertools.product(*[list(kernel[D[i][j]].items()) for i, j in zip(members, recs)]):
                w = base
                for i, _ in zip(members, recs):
                    w /= len(D[i])
                for _, p in ys:
                    w *= p
                o = tuple(sorted((F(y),) for y, _ in ys))
                out[o] = out.get(o, F(0)) + w
    return out


def test_argument_names():
    assert raised(FloatRefusedError, ss.c36_bound, 0.5, 1, F(1, 2), 2).startswith("L2:")
    assert raised(FloatRefusedError, ss.c36_bound, 1, 0.5, F(1, 2), 2).startswith("fp:")
    assert raised(WrongTypeError, ss.c36_bound, 1, 1, F(1, 2), 2.0).startswith("n must be an integer")
    assert raised(FloatRefusedError, ss.check_q, 0.5).startswith("q:")
    assert raised(WrongTypeError, ss.participation_law, 2.0, F(1, 2)).startswith("n must be an integer")
    assert raised(WrongTypeError, ss.lemma442_printed_bound, 1, 1, F(1, 2), 2, 2.0).startswith("m must be an integer")
    assert raised(InvalidInputError, ss.lemma442_printed_bound, 1, 1, F(1, 2), 2, 0).startswith("m must be an integer >= 1")
    for pos, name in ((1, "n"), (2, "m")):
        args = [PERFECT, 1, 1, F(1, 2), [1]]
        args[pos] = 1.0
        assert raised(WrongTypeError, ss.round_profile, *args).startswith(f"{name} must be an integer")
    assert raised(FloatRefusedError, ss.round_profile, PERFECT, 1, 1, F(1, 2), [1.5]).startswith("ratio:")


def test_bound_sign_checks_and_values():
    # (C.36): L^2 (1 + 2 f_p/(q n)); printed (4.12): L^2 (1 + f_p/(q n))
    assert ss.c36_bound(0, 3, F(1, 2), 4) == 0
    assert ss.c36_bound(F(1, 2), 0, F(1, 2), 4) == F(1, 2)
    assert ss.c36_bound(F(1, 2), 3, F(1, 2), 4) == F(1, 2) * (1 + F(6, 2))
    assert ss.lemma442_printed_bound(F(1, 2), 3, F(1, 2), 4, 3) == F(1, 2) * (1 + F(3, 2))
    assert ss.lemma442_printed_bound(F(1, 2), 0, F(1, 2), 4, 3) == F(1, 2)
    assert "L2" in raised(InvalidInputError, ss.c36_bound, -1, 1, F(1, 2), 2)
    assert "fp" in raised(InvalidInputError, ss.c36_bound, 1, -1, F(1, 2), 2)


def test_max_clients_boundary():
    ker = {0: {0: 1}}
    D = ((0,),) * ss.MAX_CLIENTS
    # deterministic output 0: g_t = 0 with probability 1 - (1 - q)^n
    assert ss.gradient_law(D, ker, F(1, 2)) == {(F(0),): 1 - F(1, 2) ** ss.MAX_CLIENTS}
    assert {o: w for o, w in ss.output_law(D, ker, 1).items() if w} == {((F(0),),) * ss.MAX_CLIENTS: F(1)}
    raised(InvalidInputError, ss.gradient_law, D + ((0,),), ker, F(1, 2))
    raised(InvalidInputError, ss.output_law, D + ((0,),), ker, F(1, 2))


@pytest.mark.parametrize("n,m", [(1, 2), (2, 1), (2, 2)])
def test_round_profile_asymmetric_kernel_brute_force_with_witness(n, m):
    q = F(1, 3)
    ratios = [F(1), F(2)]
    got = ss.round_profile(ASYM, n, m, q, ratios)
    best = {r: F(0) for r in ratios}
    for vals in itertools.product(range(3), repeat=n * m):
        D = tuple(tuple(vals[i * m + j] for j in range(m)) for i in range(n))
        P = _law(D, ASYM, q)
        for i, j, v in itertools.product(range(n), range(m), range(3)):
            if v == D[i][j]:
                continue
            E = [list(c) for c in D]
            E[i][j] = v
            Q = _law(tuple(tuple(c) for c in E), ASYM, q)
            for r in ratios:
                best[r] = max(best[r], _hockey(P, Q, r))
    for r in ratios:
        assert got[r]["delta"] == best[r] > 0
        D = tuple(tuple(int(x[0]) for x in c) for c in got[r]["dataset"])
        E = tuple(tuple(int(x[0]) for x in c) for c in got[r]["neighbour"])
        assert sum(a != b for c, e in zip(D, E) for a, b in zip(c, e)) == 1
        assert _hockey(_law(D, ASYM, q), _law(E, ASYM, q), r) == best[r]


def test_perfectly_private_kernel_reports_no_witness():
    prof = ss.round_profile(PERFECT, 2, 1, F(1, 2), [1, 2])
    for r in (F(1), F(2)):
        assert prof[r] == {"delta": 0, "dataset": None, "neighbour": None}
