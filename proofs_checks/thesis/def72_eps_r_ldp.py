"""Thesis Sec. 7.2, eqs. (7.1)-(7.3) and Fig. 7.2: (eps, R)-LDP, the key representation, Y = X xor U.

Printed: a mechanism is eps-LDP if ``sup_y Q(y|x)/Q(y|x') <= e^eps`` (7.1); (eps, R)-LDP if moreover
``H(Y|X=x) <= R`` for all x (7.2); every mechanism is ``Q(y|x) = sum_{u in U_yx} q_u`` for a key ``U``
(7.3), so ``H(Y|X=x) <= H(U)``; Fig. 7.2: ``Y = X xor U``, ``U ~ [e^eps/(e^eps+1), 1/(e^eps+1)]`` is
eps-LDP (with randomness ``H2(e^eps/(e^eps+1))``).
The check calls :mod:`bcdp.randomness.model` and compares it with oracles written here: a brute-force
max over ``(y, x, x')`` of the ratios, the key law re-summed by hand, entropies at 50 digits (mpmath),
and the Fig. 7.2 channel built from ``Y = X xor U`` by enumerating ``(x, u)``.  Instances: 40 random
rational mechanisms (k, m in 2..4, seeded) and ``e_eps`` in {3/2, 2, 5} for Fig. 7.2.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.numbers import INFINITY
from bcdp.randomness import model

from .._common import keep
from . import _ch7_assouad as _ch7

CLAIM = ClaimSpec(
    id="THESIS-Def7.2-eps-R-LDP",
    paper="thesis",
    group="randomness",
    where="Sec. 7.2.1-7.2.2, eqs. (7.1)-(7.3), Fig. 7.2",
    statement="(eps, R)-LDP = (7.1) and H(Y|X=x) <= R for all x (7.2); every finite mechanism has a key "
              "representation Q(y|x) = sum_{u in U_yx} q_u (7.3), hence H(Y|X=x) <= H(U); Fig. 7.2's "
              "Y = X xor U with U ~ [e^eps/(e^eps+1), 1/(e^eps+1)] is eps-LDP with randomness H2(e^eps/(e^eps+1)).",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_model.py`",),
)

SEED = 72
E_VALUES = (Fraction(3, 2), Fraction(2), Fraction(5))


def _random_mechanism(rng: random.Random) -> list[list[Fraction]]:
    k, m = rng.randint(2, 4), rng.randint(2, 4)
    rows = []
    for _ in range(k):
        w = [rng.randint(0 if rng.random() < 0.15 else 1, 9) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([Fraction(v, sum(w)) for v in w])
    return rows


def _h(pmf, unit="bits"):
    h = -sum((mpmath.mpf(p.numerator) / p.denominator) * mpmath.log(mpmath.mpf(p.numerator) / p.denominator)
             for p in pmf if p)
    return h / mpmath.log(2) if unit == "bits" else h


def _inside(cert, value) -> bool:
    return mpmath.mpf(cert.lower.numerator) / cert.lower.denominator <= value <= \
        mpmath.mpf(cert.upper.numerator) / cert.upper.denominator


def check() -> ClaimResult:
    rng = random.Random(SEED)
    fails: list = []
    sizes = []
    with mpmath.workdps(50):
        for i in range(40):
            q = _random_mechanism(rng)
            k, m = len(q), len(q[0])
            if model.ldp_epsilon_ratio(q) != _ch7.exact_ratio_oracle(q):
                keep(fails, {"instance": i, "what": "(7.1) ratio"})
            rep = model.key_representation(q)
            resummed = [[sum((rep.q[u] for u in range(len(rep.q)) if rep.f[x][u] == y), Fraction(0))
                         for y in range(m)] for x in range(k)]
            if resummed != q or sum(rep.q) != 1 or any(v <= 0 for v in rep.q) or len(rep.q) > k * (m - 1) + 1:
                keep(fails, {"instance": i, "what": "(7.3) key representation", "q": [str(v) for v in rep.q]})
            sizes.append(len(rep.q))
            rand = model.mechanism_randomness(q, "bits")
            true_rand = max(_h(row) for row in q)
            if not _inside(rand, true_rand):
                keep(fails, {"instance": i, "what": "max_x H(Y|X=x)"})
            if not true_rand <= _h(rep.q) + mpmath.mpf(10) ** -40:
                keep(fails, {"instance": i, "what": "H(Y|X=x) <= H(U)"})
            r_above = Fraction(int(true_rand * 10 ** 6) + 1, 10 ** 6)
            r_below = Fraction(int(true_rand * 10 ** 6) - 1, 10 ** 6)
            ratio = _ch7.exact_ratio_oracle(q)
            e_ok = ratio if ratio != INFINITY else Fraction(10 ** 6)
            expect = ratio != INFINITY
            if model.is_eps_r_ldp(q, r=r_above, e_eps=e_ok) is not expect or \
                    model.is_eps_r_ldp(q, r=r_below, e_eps=e_ok) is not False:
                keep(fails, {"instance": i, "what": "(7.2) decision at R = randomness +- 1e-6"})
        fig = []
        for e in E_VALUES:
            law = (e / (e + 1), 1 / (e + 1))
            q = [[sum((law[u] for u in (0, 1) if x ^ u == y), Fraction(0)) for y in (0, 1)] for x in (0, 1)]
            ratio = model.ldp_epsilon_ratio(q)
            rand = model.mechanism_randomness(q, "bits")
            h2 = _h(law)
            ok = (ratio == e and model.is_eps_ldp(q, e_eps=e) is True
                  and model.is_eps_ldp(q, e_eps=e - Fraction(1, 10 ** 9)) is False and _inside(rand, h2))
            if not ok:
                keep(fails, {"e_eps": str(e), "what": "Fig. 7.2"})
            fig.append({"e_eps": str(e), "ratio": str(ratio), "H2_bits": mpmath.nstr(h2, 15)})
        # eps given exactly (e^eps irrational): a channel of ratio 2 is eps-LDP iff eps >= log 2 = 0.6931...
        q2 = [[Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)]]
        if model.is_eps_ldp(q2, Fraction(7, 10)) is not True or model.is_eps_ldp(q2, Fraction(69, 100)) is not False:
            keep(fails, {"what": "(7.1) with exact eps around log 2"})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"40 random rational mechanisms: exact (7.1) ratio, exact key representation (|U| <= "
                   f"{max(sizes)}), H(Y|X=x) <= H(U); Fig. 7.2 ratio = e^eps exactly at {len(E_VALUES)} e_eps "
                   f"({len(fails)} failures)",
        evidence={"fig7_2": fig, "key_sizes": sizes, "failures": fails, "seed": SEED,
                  "library": "bcdp.randomness.model (ldp_epsilon_ratio, is_eps_ldp, is_eps_r_ldp, "
                             "mechanism_randomness, key_representation)"},
    )
