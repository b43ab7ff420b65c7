"""Thesis Remark 7.5.2: Shannon's perfect secrecy is the eps = 0 case (H(U) >= log k), and an eps-LDP-Rec scheme
leaks at most max_p I(X; Y) <= eps.

(a) eps = 0: keys.min_two_level_entropy(k, 0) encloses log k (k = 2..12); the shift map (Lemma 7.5.1) is 0-LDP-Rec
    only for the uniform key (all laws on [k] in (1/N)Z, k <= 4, N <= 8); every recoverable map f: [2] x [m] -> [3]
    (m = 2, 3 keys) that the library accepts as 0-LDP-Rec under a positive law in (1/N)Z (N <= 6) has
    H(U) >= log 2 (certified).
(b) Leakage: for the shift channel with key q (two-level laws (7.46) with E in {3/2, 2, 5, 20} on k in {2, 3, 5, 8},
    and seeded random positive laws) the library's certified capacity
    (:func:`bcdp.randomness.recoverability.shift_capacity`, log k - H(q)) encloses a Blahut-Arimoto float run
    written here (1e-9) and is certified <= eps = log(q_max/q_min).
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import keys
from bcdp.randomness import recoverability as rec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Remark7.5.2",
    paper="thesis",
    group="recoverability",
    where="Remark 7.5.2, Sec. 7.5 ([Sha49] perfect secrecy)",
    statement="A 0-LDP-Rec mechanism is a perfectly secret cryptosystem (H(U) >= log k); an eps-LDP-Rec mechanism "
              "leaks max_p I(X;Y) <= eps.",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_recoverability.py`",),
)


def _blahut_arimoto(w: np.ndarray, iters: int = 300) -> float:
    """Capacity (nats) of the channel with rows w[x] (float), Blahut-Arimoto with a final upper/lower check."""
    p = np.full(w.shape[0], 1.0 / w.shape[0])
    for _ in range(iters):
        r = p @ w
        d = np.sum(np.where(w > 0, w * np.log(np.where(w > 0, w, 1) / r), 0.0), axis=1)
        p = p * np.exp(d)
        p /= p.sum()
    r = p @ w
    d = np.sum(np.where(w > 0, w * np.log(np.where(w > 0, w, 1) / r), 0.0), axis=1)
    return float(p @ d)


def _h_ball(q):
    h = ball_of(0)
    for v in q:
        if v:
            b = ball_of(v)
            h -= b * b.log()
    return h


def check() -> ClaimResult:
    fails: list = []
    with arb_precision(128):
        for k in range(2, 13):
            c = keys.min_two_level_entropy(k, 0)
            lo, hi = ball_ends(ball_of(k).log())
            if not (c.lower <= hi and lo <= c.upper):
                keep(fails, {"what": "min entropy at eps = 0", "k": k})
    n_shift = 0
    for k in range(2, 5):
        for d in range(k, 9):
            for parts in itertools.product(range(d + 1), repeat=k):
                if sum(parts) != d:
                    continue
                q = tuple(Fraction(x, d) for x in parts)
                n_shift += 1
                if rec.is_ldp_rec(rec.shift_mechanism(k), q, 1) != (len(set(q)) == 1):
                    keep(fails, {"what": "shift at eps = 0", "q": [str(x) for x in q]})
    n_maps = 0
    laws = {m: [tuple(Fraction(x, d) for x in parts) for d in range(m, 7)
                for parts in itertools.product(range(1, d), repeat=m) if sum(parts) == d] for m in (2, 3)}
    for m in (2, 3):
        for flat in itertools.product(range(3), repeat=2 * m):
            f = (flat[:m], flat[m:])
            if any(f[0][u] == f[1][u] for u in range(m)):
                continue
            for q in laws[m]:
                if rec.is_ldp_rec(f, q, 1):
                    n_maps += 1
                    with arb_precision(128):
                        lo, _ = ball_ends(_h_ball(q) - ball_of(2).log())
                    if lo < -Fraction(1, 10 ** 30):
                        keep(fails, {"what": "H(U) < log 2 at eps = 0", "f": f, "q": [str(x) for x in q]})
    rows = []
    rng = random.Random(752)
    cases = [(k, s, e) for k in (2, 3, 5, 8) for e in (Fraction(3, 2), Fraction(2), Fraction(5), Fraction(20))
             for s in sorted({1, k // 2, k - 1})]
    for item in cases + [("random", i, None) for i in range(12)]:
        if item[0] == "random":
            k = rng.randint(2, 8)
            w = [rng.randint(1, 9) for _ in range(k)]
            q = tuple(Fraction(x, sum(w)) for x in w)
        else:
            k, s, e = item
            t = s * e + k - s
            q = tuple([1 / t] * (k - s) + [e / t] * s)
        e = max(q) / min(q)
        cap = rec.shift_capacity(q, "nats")
        ba = _blahut_arimoto(np.array([[float(v) for v in row] for row in rec.shift_channel(q)]))
        with arb_precision(128):
            eps_lo, _ = ball_ends(ball_of(e).log())
        bounded = cap.upper <= eps_lo if e > 1 else cap.lower <= 0 <= cap.upper  # eps = 0: capacity exactly 0
        ok = float(cap.lower) - 1e-9 <= ba <= float(cap.upper) + 1e-9 and bounded
        if not ok:
            keep(fails, {"q": [str(x) for x in q], "capacity": [str(cap.lower), str(cap.upper)], "ba": ba})
        rows.append({"k": k, "e_eps": str(e), "capacity_nats": f"{float(cap.upper):.10f}",
                     "eps": f"{math.log(e):.10f}"})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"eps = 0: min key entropy = log k (k = 2..12), shift 0-LDP-Rec iff uniform ({n_shift} laws), "
                   f"{n_maps} 0-LDP-Rec maps with H >= log 2; capacity <= eps certified on {len(rows)} keys "
                   f"(= Blahut-Arimoto); {len(fails)} failures",
        evidence={"capacities": rows, "shift_laws": n_shift, "zero_ldp_rec_maps": n_maps, "failures": fails,
                  "library": "bcdp.randomness.recoverability (shift_capacity, shift_channel, is_ldp_rec), "
                             "bcdp.randomness.keys.min_two_level_entropy"},
    )
