"""Tiny instances of the Assouad bounds of the thesis Sec. 7.3.1 / App. F.1.1, F.3 (not a check itself).

``k = 4``, ``n in {1, 2, 3}``, ``delta in {1/4 (= 1/k), 1/8}``, both losses, and the mechanisms: three
certified-feasible (eps, R)-LDP mechanisms from :func:`bcdp.randomness.model.feasible_mechanisms`
(``4 x 2``, grid 1/4, ``e_eps = 3``, ``R = 1`` bit), k-RR with ``e_eps = 2`` and the (7.27) binary
Hadamard mechanism with ``e_eps = 3`` (:mod:`bcdp.randomness.mechanisms`).  Oracles written here: the
product laws and the mixtures ``M^n_{+-j}`` (normalised) by enumeration, TV as half the l1 distance,
the posterior-mean / posterior-median estimators and the MAP packing estimator as explicit functions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

from bcdp.randomness import assouad, mechanisms, model

K = 4
NS = (1, 2, 3)
DELTAS = (Fraction(1, 4), Fraction(1, 8))
LOSSES = ("l2", "l1")
NUS = list(itertools.product((-1, 1), repeat=K // 2))


def instances() -> list[tuple[str, tuple]]:
    feas = model.feasible_mechanisms(K, 2, 4, 3, 1, "bits")
    picks = [feas[0], feas[len(feas) // 2], feas[-1]] if feas else []
    out = [(f"feasible[{i}]", q) for i, q in zip((0, len(feas) // 2, len(feas) - 1), picks)]
    out.append(("k_rr(4, 2)", mechanisms.k_rr(K, 2)))
    out.append(("binary_hadamard(4, 3)", mechanisms.binary_hadamard(K, 3)))
    return out


def pack(delta, nu):
    half = [Fraction(1, K) + delta * v for v in nu]
    return half + [Fraction(1, K) - delta * v for v in nu]


def laws(q, delta, n):
    m = len(q[0])
    out = {}
    for nu in NUS:
        p = pack(delta, nu)
        marg = [sum(p[x] * q[x][y] for x in range(K)) for y in range(m)]
        law = {}
        for seq in itertools.product(range(m), repeat=n):
            pr = Fraction(1)
            for y in seq:
                pr *= marg[y]
            law[seq] = pr
        out[nu] = law
    return out


def rhs_f17(q, delta, n, loss):
    ls = laws(q, delta, n)
    phi = delta * delta if loss == "l2" else delta
    total = Fraction(0)
    for j in range(K // 2):
        plus = {s: sum(ls[nu][s] for nu in NUS if nu[j] == 1) * 2 / len(NUS) for s in ls[NUS[0]]}
        minus = {s: sum(ls[nu][s] for nu in NUS if nu[j] == -1) * 2 / len(NUS) for s in ls[NUS[0]]}
        total += 1 - sum(abs(plus[s] - minus[s]) for s in plus) / 2
    return phi * total


def estimators(q, delta, n):
    """Explicit estimators (functions of y^n): posterior mean, posterior median, MAP packing, uniform."""
    ls = laws(q, delta, n)
    packs = {nu: pack(delta, nu) for nu in NUS}

    def post(seq):
        w = {nu: ls[nu][seq] for nu in NUS}
        tot = sum(w.values())
        return w, tot

    def mean(seq):
        w, tot = post(seq)
        if tot == 0:
            return [Fraction(1, K)] * K
        return [sum(w[nu] * packs[nu][i] for nu in NUS) / tot for i in range(K)]

    def median(seq):
        w, tot = post(seq)
        out = []
        for i in range(K):
            up = sum(w[nu] for nu in NUS if packs[nu][i] > Fraction(1, K))
            out.append(Fraction(1, K) + (delta if 2 * up >= tot else -delta))
        return out

    def map_pack(seq):
        w, _ = post(seq)
        return packs[max(NUS, key=lambda nu: (w[nu], nu))]

    def memo(f):
        cache: dict = {}

        def g(seq):
            if seq not in cache:
                cache[seq] = f(seq)
            return cache[seq]
        return g

    return {"posterior_mean": memo(mean), "posterior_median": memo(median), "map_packing": memo(map_pack),
            "uniform": lambda seq: [Fraction(1, K)] * K}


@lru_cache(maxsize=1)
def table() -> tuple:
    """One row per (mechanism, n, delta, loss): library values and the oracles' values."""
    rows = []
    for name, q in instances():
        for n in NS:
            for delta in DELTAS:
                ests = estimators(q, delta, n)
                for loss in LOSSES:
                    risks = {}
                    for ename, est in ests.items():
                        per_nu = [model.exact_risk(q, est, pack(delta, nu), n, loss) for nu in NUS]
                        risks[ename] = (sum(per_nu) / len(per_nu), max(per_nu))
                    rows.append({
                        "mechanism": name, "n": n, "delta": delta, "loss": loss,
                        "bayes": assouad.bayes_risk(q, K, delta, n, loss),
                        "f17_library": assouad.assouad_rhs(q, K, delta, n, loss),
                        "f17_oracle": rhs_f17(q, delta, n, loss),
                        "l731": assouad.lemma731_rhs(q, K, delta, n, loss),
                        "risks": risks,
                        "bayes_estimator": "posterior_mean" if loss == "l2" else "posterior_median",
                    })
    return tuple(rows)


def exact_ratio_oracle(q):
    """max_{y, x, x'} Q(y|x)/Q(y|x') by direct enumeration (inf when a zero meets a non-zero): the
    checks' independent oracle of (7.1) for ``model.ldp_epsilon_ratio``."""
    from bcdp.core.numbers import INFINITY

    best = Fraction(1)
    for a in q:
        for b in q:
            for x, y in zip(a, b):
                if x and not y:
                    return INFINITY
                if y:
                    best = max(best, x / y)
    return best
