"""Thesis Def 7.5.1 and Lemma 7.5.1 (App. F.5, (F.20)-(F.21)): Y = X + U mod k is eps-LDP-Rec iff q_max/q_min <= e^eps.

For every key law q on [k] (k = 2..5) with entries in (1/N)Z (N <= 7, all entries positive, plus some with a
zero) the check builds the library's construction (:func:`bcdp.randomness.recoverability.shift_mechanism`,
:func:`~bcdp.randomness.recoverability.is_ldp_rec`) and compares with an oracle written here from the printed
(F.20): Q(y|x) = q_{(y - x) mod k}, recoverability = "for each (y, u) exactly one x with x + u = y", and the
LDP ratio computed column by column.  Both sides of the boundary: e_eps = q_max/q_min (LDP-Rec) and
e_eps = q_max/q_min - 1/1000 (not), exactly.  ``e_eps = e^eps`` is an exact rational (eps = log e_eps).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import recoverability as rec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.5.1",
    paper="thesis",
    group="recoverability",
    where="Def 7.5.1 and Lemma 7.5.1, Sec. 7.5.1; proof App. F.5, eqs. (F.20)-(F.21)",
    statement="A key U on [k] with q_max/q_min <= e^eps gives the eps-LDP-Rec mechanism Y = X (+) U (Q(y|x) = q_u "
              "for y = x (+) u); the construction is eps-LDP-Rec exactly when the ratio condition holds.",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_recoverability.py`",),
)


def _laws(k: int, n: int):
    for parts in itertools.product(range(n + 1), repeat=k):
        if sum(parts) == n:
            yield tuple(Fraction(p, n) for p in parts)


def _oracle(q: tuple, e_eps: Fraction) -> bool:
    k = len(q)
    chan = [[q[(y - x) % k] for y in range(k)] for x in range(k)]
    recover = all(sum(1 for x in range(k) if (x + u) % k == y) == 1 for y in range(k) for u in range(k))
    for y in range(k):
        col = [chan[x][y] for x in range(k)]
        if max(col) > 0 and (min(col) == 0 or max(col) > e_eps * min(col)):
            return False
    return recover


def check() -> ClaimResult:
    fails: list = []
    n_laws = n_decisions = holds = 0
    for k in range(2, 6):
        for n in range(k, 8 if k < 5 else 6):
            for q in _laws(k, n):
                n_laws += 1
                f = rec.shift_mechanism(k)
                if rec.induced_channel(f, q) != tuple(tuple(q[(y - x) % k] for y in range(k)) for x in range(k)):
                    keep(fails, {"q": [str(p) for p in q], "what": "channel (F.20)"})
                ratio = max(q) / min(q) if min(q) else None
                cands = [Fraction(1), Fraction(3)] if ratio is None else [ratio, ratio - Fraction(1, 1000), ratio + 1]
                for e in cands:
                    if e < 1:
                        continue
                    n_decisions += 1
                    lib, orc = rec.is_ldp_rec(f, q, e), _oracle(q, e)
                    cond = rec.lemma751_condition(q, e)
                    printed = ratio is not None and ratio <= e
                    if not (lib == orc == cond == printed):
                        keep(fails, {"q": [str(p) for p in q], "e_eps": str(e), "library": lib, "oracle": orc,
                                     "condition": cond, "printed": printed})
                    holds += lib
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{n_laws} key laws (k = 2..5), {n_decisions} decisions at and around e_eps = q_max/q_min: "
                   f"library = oracle = ratio condition ({holds} LDP-Rec, {len(fails)} failures)",
        evidence={"key_laws": n_laws, "decisions": n_decisions, "ldp_rec": holds, "failures": fails,
                  "library": "bcdp.randomness.recoverability (shift_mechanism, induced_channel, is_ldp_rec, "
                             "lemma751_condition)"},
    )
