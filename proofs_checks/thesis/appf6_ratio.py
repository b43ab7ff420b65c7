"""Thesis App. F.6 (Sec. 7.5.1): for |U| = |Y| = |X| = k, recoverability + eps-LDP force q_max/q_min <= e^eps.

Exhaustive: k = 2 and 3, every recoverable map f: [k] x [k] -> [k] (each key column a permutation: (k!)^k maps),
every key law q on [k] with entries in (1/N)Z (N <= 5 for k = 3, N <= 9 for k = 2, positive and with zeros).
An oracle written here computes each mechanism's exact LDP ratio r (column-wise max/min of Q(y|x) = sum of q_u);
the library's :func:`bcdp.randomness.recoverability.is_ldp_rec` must accept at e_eps = r and refuse just below
q_max/q_min, and r >= q_max/q_min (the printed conclusion); the bound is attained (Lemma 7.5.1's shift map accepts
at e_eps = q_max/q_min).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import recoverability as rec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-AppF.6",
    paper="thesis",
    group="recoverability",
    where="App. F.6 (claim q_k/q_1 <= e^eps of Sec. 7.5.1, used for (7.44))",
    statement="For an eps-LDP-Rec mechanism with |U| = |Y| = |X| = k and key law q: q_max/q_min <= e^eps.",
    expected="confirmed",
    also_checked_in=("`proofs_checks/thesis/lemma751_shift.py`",),
)


def _oracle_ratio(f, q):
    """(recoverable, exact LDP ratio or None if infinite) from Q(y|x) = sum of q_u, written here."""
    k = len(f)
    chan = [[sum((q[u] for u in range(k) if f[x][u] == y), Fraction(0)) for y in range(k)] for x in range(k)]
    worst = Fraction(1)
    for y in range(k):
        col = [chan[x][y] for x in range(k)]
        if max(col):
            if min(col) == 0:
                return None
            worst = max(worst, max(col) / min(col))
    recover = all(len({f[x][u] for x in range(k)}) == k for u in range(k) if q[u])
    return worst if recover else None


def check() -> ClaimResult:
    fails: list = []
    n = accepted = 0
    for k, top in ((2, 10), (3, 6)):
        cols = list(itertools.permutations(range(k)))
        maps = [tuple(zip(*c)) for c in itertools.product(cols, repeat=k)]
        laws = [tuple(Fraction(p, d) for p in parts) for d in range(k, top)
                for parts in itertools.product(range(d + 1), repeat=k) if sum(parts) == d]
        for q in laws:
            ratio = max(q) / min(q) if min(q) else None
            below = max(Fraction(1), ratio - Fraction(1, 100)) if ratio is not None else Fraction(1000)
            for f in maps:
                n += 1
                own = _oracle_ratio(f, q)
                if own is not None:
                    # the mechanism is LDP-Rec exactly at e_eps >= own: the claim says own >= q_max/q_min
                    lib_at, lib_below = rec.is_ldp_rec(f, q, own), rec.is_ldp_rec(f, q, below)
                    accepted += lib_at
                    if not lib_at or (ratio is None or own < ratio) or (lib_below and below < ratio):
                        keep(fails, {"k": k, "f": f, "q": [str(p) for p in q], "own_ratio": str(own)})
                elif rec.is_ldp_rec(f, q, Fraction(1000)):
                    keep(fails, {"k": k, "f": f, "q": [str(p) for p in q], "what": "library accepts, oracle refuses"})
            if ratio is not None and not rec.is_ldp_rec(rec.shift_mechanism(k), q, ratio):
                keep(fails, {"k": k, "q": [str(p) for p in q], "what": "shift map at the boundary"})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{n} (recoverable map, law) pairs for k = 2, 3: each LDP-Rec one ({accepted}) has its exact LDP "
                   f"ratio >= q_max/q_min, and is refused just below q_max/q_min; {len(fails)} failures",
        evidence={"pairs": n, "ldp_rec": accepted, "failures": fails,
                  "library": "bcdp.randomness.recoverability (is_ldp_rec, shift_mechanism)"},
    )
