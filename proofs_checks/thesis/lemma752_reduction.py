"""Thesis Lemma 7.5.2 (App. F.5.1): an eps-LDP-Rec mechanism with a key on m > k values yields one with a key on
[k] and no more entropy.

Instances: (a) exhaustive, k = 2 inputs, keys on m = 3 values, every map f: [2] x [3] -> [3] (729), under key
laws q in (1/N)Z^3 (N <= 7, positive entries); (b) seeded random, k = 3, m in {4, 5, 6}, 300 recoverable maps
into 3 or 4 outputs, all reached by every input (finite ratio), with random positive laws.  Each mechanism is eps-LDP-Rec at its own exact ratio
e_eps = ldp_ratio (library :func:`bcdp.randomness.recoverability.is_ldp_rec`, confirmed by an oracle written
here: x -> f(x, u) injective for every u).  The library's reduction (``reduce_key``, the proof's construction)
must give q' on [k] with H(q') <= H(q) (certified, arb), q'_max/q'_min <= e_eps, and the shift mechanism with q'
eps-LDP-Rec (Lemma 7.5.1).  Also checked: the proof's pre-trimming law q~ (``reduce_column``) is the law of a
function of U (H(q~) <= H(q)) and q~ sorted has q~_1/q~_k <= e_eps (properties 1-2 of App. F.5.1).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import recoverability as rec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.5.2",
    paper="thesis",
    group="recoverability",
    where="Lemma 7.5.2, Sec. 7.5.1; proof App. F.5.1 (with Lemma F.5.1)",
    statement="If an eps-LDP-Rec mechanism on [k] uses a key on m > k values, some eps-LDP-Rec mechanism on [k] -> [k] "
              "uses a key U' on [k] with H(U) >= H(U').",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_recoverability.py`",),
)


def _h(law):
    h = ball_of(0)
    for p in law:
        if p:
            b = ball_of(p)
            h -= b * b.log()
    return h


def _le(a, b) -> bool:
    with arb_precision(128):
        lo, hi = ball_ends(_h(b) - _h(a))
    return lo >= -Fraction(1, 10 ** 30) if hi - lo < Fraction(1, 10 ** 25) else lo >= 0


def _recoverable(f, q) -> bool:
    return all(len({row[u] for row in f}) == len(f) for u in range(len(q)) if q[u])


def _one(f, q, fails: list) -> bool:
    if not _recoverable(f, q):
        return False
    ratio = rec.ldp_ratio(rec.induced_channel(f, q))
    if ratio == float("inf"):
        return False
    k = len(f)
    if not rec.is_ldp_rec(f, q, ratio):
        keep(fails, {"what": "library refuses an LDP-Rec mechanism", "f": f, "q": [str(p) for p in q]})
        return True
    qp = rec.reduce_key(f, q)
    u1 = max(range(len(q)), key=lambda u: (q[u], -u))
    y = f[0][u1]
    col = rec.reduce_column(q, [[u for u in range(len(q)) if f[x][u] == y] for x in range(k)], k)
    srt = col["q_tilde_sorted"]
    ok = (len(qp) == k and sum(qp) == 1 and _le(qp, q) and _le(col["q_tilde"], q)
          and max(qp) <= ratio * min(qp) and srt[0] <= ratio * srt[k - 1]
          and rec.is_ldp_rec(rec.shift_mechanism(k), qp, ratio))
    if not ok:
        keep(fails, {"f": f, "q": [str(p) for p in q], "e_eps": str(ratio), "q_prime": [str(p) for p in qp]})
    return True


def check() -> ClaimResult:
    fails: list = []
    n_exh = n_rand = 0
    laws = [tuple(Fraction(p, n) for p in parts) for n in range(3, 8)
            for parts in itertools.product(range(1, n), repeat=3) if sum(parts) == n]
    for flat in itertools.product(range(3), repeat=6):
        f = (flat[:3], flat[3:])
        for q in laws:
            n_exh += _one(f, q, fails)
    rng = random.Random(7502)
    while n_rand < 300:
        m = rng.choice((4, 5, 6))
        outs = rng.choice((3, 4))
        f = tuple(zip(*[rng.sample(range(outs), 3) for _ in range(m)]))
        if any(len(set(row)) != outs for row in f):
            continue  # an output missed by some input: infinite ratio, not LDP
        w = [rng.randint(1, 9) for _ in range(m)]
        q = tuple(Fraction(x, sum(w)) for x in w)
        n_rand += _one(f, q, fails)
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{n_exh} exhaustive (k = 2, m = 3) + {n_rand} random (k = 3, m = 4..6) LDP-Rec mechanisms: "
                   f"reduced key on [k] with H(q') <= H(q), ratio <= e^eps, shift LDP-Rec; {len(fails)} failures",
        evidence={"exhaustive": n_exh, "random": n_rand, "seed": 7502, "failures": fails,
                  "library": "bcdp.randomness.recoverability (reduce_key, reduce_column, is_ldp_rec, ldp_ratio, "
                             "shift_mechanism)"},
    )
