"""bcdp.dme.l2_linf against a brute-force enumeration written here (thesis Algs 3.6.1-3.6.2 with Algs 3.5.1-3.5.2).

The oracle builds U from (-1)^{popcount(i & j)} s_j / sqrt(d), quantizes z = (clip(U x) + r)/(2r) by
hand (m <= 2), and enumerates every uniform block coordinate and every 2RR flip of every level and
the last coins u; nothing of the library's l_inf code is used.
"""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
import sympy

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.dme import l2_linf

X4 = ((F(1, 3), F(-1, 2), F(0), F(1, 5)), (F(1, 2), F(1, 2), F(1, 2), F(-1, 2)))
SIGNS4 = ((1, -1, 1, 1), (-1, -1, 1, -1))
P = F(1, 5)


def _u(signs):
    d = len(signs)
    return sympy.Matrix(d, d, lambda i, j: (-1) ** bin(i & j).count("1") * signs[j] / sympy.sqrt(d))


def _bern(p):
    return {1: p, 0: 1 - p}


def _rbin_law(bits, s, p):
    """Law of the decoded R^Bin vector (a = d/s, uniform coordinate per block, 2RR flip)."""
    d = len(bits)
    a = d // s
    per_block = []
    for blk in range(s):
        opts = []
        for c in range(blk * a, (blk + 1) * a):
            for flip, pf in ((0, 1 - p), (1, p)):
                sent = bits[c] ^ flip
                opts.append((c, a * (sent - p) / (1 - 2 * p), pf / a))
        per_block.append(opts)
    law = {}
    for combo in itertools.product(*per_block):
        vec = [F(0)] * d
        w = F(1)
        for c, y, pc in combo:
            vec[c] += y
            w *= pc
        law[tuple(vec)] = law.get(tuple(vec), F(0)) + w
    return law


def oracle_law(x, signs, r, m, s, p):
    """{x_hat: P} and the unclipped w, by brute force (m in {1, 2}; r rational or sqrt(2) q)."""
    U = _u(signs)
    w = [sympy.radsimp(e) for e in U * sympy.Matrix([sympy.Rational(str(v)) for v in x])]
    wc = [min(max(v, -r), r) for v in w]
    z = [sympy.Rational(sympy.radsimp((v + r) / (2 * r))) for v in wc]
    z = [F(int(v.p), int(v.q)) for v in z]
    d = len(z)
    if m == 1:
        bits1, pis = None, z
    else:
        bits1 = [1 if v >= F(1, 2) else 0 for v in z]
        pis = [2 * v - b for v, b in zip(z, bits1)]
    law = {}
    for us in itertools.product((0, 1), repeat=d):
        pu = F(1)
        for uj, pj in zip(us, pis):
            pu *= _bern(pj)[uj]
        if pu == 0:
            continue
        last = _rbin_law(list(us), s, p)
        first = _rbin_law(bits1, s, p) if m == 2 else {tuple([F(0)] * d): F(1)}
        for v1, q1 in first.items():
            for v2, q2 in last.items():
                zhat = [a / 2 + b / 2 ** (m - 1) for a, b in zip(v1, v2)]
                xh = U.T * sympy.Matrix([2 * r * sympy.Rational(str(v)) - r for v in zhat])
                key = tuple(sympy.radsimp(sympy.expand(e)) for e in xh)
                law[key] = law.get(key, F(0)) + pu * q1 * q2
    return law, w


def _as_dict(law):
    out = {}
    for p, v in law:
        out[v] = out.get(v, F(0)) + p
    return out


def _mse(law, x):
    return sympy.radsimp(sympy.expand(sum(sympy.Rational(str(p)) * sum((a - sympy.Rational(str(b))) ** 2
                                                                       for a, b in zip(v, x)) for v, p in law.items())))


CASES = [(x, sg, r, m, s) for x in X4 for sg in SIGNS4 for r in (F(1), F(1, 8)) for m in (1, 2) for s in (1, 2, 4)
         if not (m == 2 and s == 1 and r == F(1, 8))]


@pytest.mark.parametrize("x, signs, r, m, s", CASES[::3])
def test_law_mean_mse_match_brute_force(x, signs, r, m, s):
    lib = l2_linf.l2_linf_law(x, signs, r, m, s, (P,) * m)
    oracle, w = oracle_law(x, signs, sympy.Rational(str(r)), m, s, P)
    assert _as_dict(lib) == oracle
    mse = _mse(oracle, x)
    assert l2_linf.l2_linf_mse(x, signs, r, m, s, (P,) * m) == mse
    assert sympy.simplify(l2_linf.l2_linf_mse_closed_form(x, signs, r, m, s, (P,) * m) - mse) == 0
    # rotation invariance: the same MSE measured on w (the l_inf step's own error plus clipping)
    U = _u(signs)
    w_mse = sum(sympy.Rational(str(pr)) * sum(e ** 2 for e in (U * sympy.Matrix(v) - sympy.Matrix(w)))
                for v, pr in oracle.items())
    assert sympy.simplify(w_mse - mse) == 0
    mean = [sum(pr * v[j] for v, pr in oracle.items()) for j in range(4)]
    clipped = any(abs(v) > r for v in w)
    bias = l2_linf.l2_linf_bias(x, signs, r)
    assert [sympy.radsimp(sympy.expand(a - sympy.Rational(str(b)))) for a, b in zip(mean, x)] == list(bias)
    assert any(b != 0 for b in bias) == clipped


def test_clipping_active_and_inactive_both_seen():
    states = set()
    for x, sg, r, _, _ in CASES:
        states.add(any(b != 0 for b in l2_linf.l2_linf_bias(x, sg, r)))
    assert states == {True, False}


def test_d2_surd_radius():
    x, sg = (F(1, 2), F(1, 4)), (1, -1)
    r = sympy.sqrt(2) * sympy.Rational(3, 4)
    for m, s in ((1, 1), (1, 2), (2, 2)):
        lib = _as_dict(l2_linf.l2_linf_law(x, sg, r, m, s, (P,) * m))
        oracle, _ = oracle_law(x, sg, r, m, s, P)
        assert lib == oracle
        assert sympy.simplify(l2_linf.l2_linf_mse_closed_form(x, sg, r, m, s, (P,) * m) - _mse(oracle, x)) == 0
    with pytest.raises(InvalidInputError):
        l2_linf.l2_linf_law(x, sg, 1, 1, 1, (P,))  # z irrational at a rational r


def test_estimator_two_clients():
    xs, sg, r = X4, SIGNS4[0], F(1)
    lib = _as_dict(l2_linf.l2_linf_estimator_law(xs, sg, r, 1, 4, (P,)))
    a, _ = oracle_law(xs[0], sg, sympy.Integer(1), 1, 4, P)
    b, _ = oracle_law(xs[1], sg, sympy.Integer(1), 1, 4, P)
    conv = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            key = tuple(sympy.radsimp(sympy.expand((p + q) / 2)) for p, q in zip(va, vb))
            conv[key] = conv.get(key, F(0)) + pa * pb
    assert lib == conv
    target = [(p + q) / 2 for p, q in zip(*xs)]
    per = [l2_linf.l2_linf_mse(x, sg, r, 1, 4, (P,)) for x in xs]
    assert _mse(conv, target) == (per[0] + per[1]) / 4  # unbiased: the 1/n^2 sum of (3.36)'s proof
    assert _mse(conv, target) != (per[0] + per[1]) / 2  # a 1/n (not 1/n^2) twin is rejected


def test_clipping_event_probability_brute_force():
    xs = [X4[1], (F(1), F(0), F(0), F(0))]
    for t2 in (F(1, 16), F(1, 9), F(1, 4), F(1, 3), F(1)):
        ok = 0
        for sg in itertools.product((1, -1), repeat=4):
            U = _u(sg)
            peak = max(max(e ** 2 for e in U * sympy.Matrix([sympy.Rational(str(v)) for v in x])) for x in xs)
            ok += int(bool(peak <= sympy.Rational(str(t2))))
        assert l2_linf.clipping_event_probability(xs, t2) == F(ok, 16)
    e1 = [xs[1]]
    assert l2_linf.clipping_event_probability(e1, F(1, 4)) == 1  # ||U e_1||_inf = 1/2 for every D
    assert l2_linf.clipping_event_probability(e1, F(1, 4) - F(1, 10 ** 9)) == 0
    assert l2_linf.clipping_event_probability(xs, F(1, 3)) == F(1, 2)  # X4[1]: half the D give 1


def test_bounds_explicit_form_and_validity():
    r2, d, n, beta = F(3, 2), 4, 3, F(1, 10)
    L = sympy.log(sympy.Rational(d * n) / sympy.Rational(1, 10))
    for m, s, e in ((1, 1, F(1)), (2, 2, F(5, 2)), (3, 4, F(1, 3))):
        oracle = 100 * sympy.Rational(9, 4) * L * 4 * (sympy.Rational(d, n)) * (
            sympy.Rational(4, 3 * s) + 5 * s / sympy.Rational(str(e)) ** 2 + sympy.Rational(1, d * 4 ** m))
        assert sympy.simplify(l2_linf.thm361_mse_bound(r2, d, n, beta, m, s, e) - oracle) == 0
    eps, delta = F(1, 2), F(1, 1000)
    Ld = sympy.log(1000)
    for C, coeff in ((144, 720), (432, 2160), (1, 5)):
        got = l2_linf.thm362_mse_bound(r2, d, n, beta, 1, 2, eps, delta, C)
        oracle = 400 * sympy.Rational(9, 4) * L / d * (sympy.Rational(4 * d * d, 3 * n) * sympy.Rational(1, 4)
                                                       + coeff * d * d * Ld / (n * n * sympy.Rational(1, 4))
                                                       + sympy.Rational(d, n * 4))
        assert sympy.simplify(got - oracle) == 0
    with pytest.raises(InvalidInputError):
        l2_linf.thm361_mse_bound(1, 4, 1, F(1, 2), 1, 3, 1)  # s does not divide d (padding erratum)
    with pytest.raises(InvalidInputError):
        l2_linf.thm361_mse_bound(1, 6, 1, F(1, 2), 1, 2, 1)  # d not a power of 2
    l2_linf.thm361_mse_bound(1, 4, 1, F(999, 1000), 1, 4, 1)
    with pytest.raises(InvalidInputError):
        l2_linf.thm361_mse_bound(1, 4, 1, 1, 1, 4, 1)  # beta = 1
    with pytest.raises(InvalidInputError):
        l2_linf.thm361_mse_bound(1, 4, 1, F(1, 2), 1, 4, 0)  # eps0 = 0
    with pytest.raises(InvalidInputError):
        l2_linf.thm362_mse_bound(1, 4, 1, F(1, 2), 1, 4, F(1, 2), 1)  # delta = 1
    with pytest.raises(FloatRefusedError):
        l2_linf.thm361_mse_bound(1, 4, 1, 0.5, 1, 4, 1)
    with pytest.raises(FloatRefusedError):
        l2_linf.l2_linf_law((0.25, 0, 0, 0), SIGNS4[0], 1, 1, 4, (P,))
    with pytest.raises(FloatRefusedError):
        l2_linf.l2_linf_law(X4[0], SIGNS4[0], 1.0, 1, 4, (P,))
    with pytest.raises(InvalidInputError):
        l2_linf.l2_linf_law(X4[0], SIGNS4[0], 0, 1, 4, (P,))
