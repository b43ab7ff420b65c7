"""Thesis Example F.5.1 (App. F.5.1): the reduction of Lemma 7.5.2 on a key with 6 values and 3 inputs, recomputed.

The example has no numbers; it is recomputed exactly on concrete key laws q_1 >= ... >= q_6 (below) with the
printed key sets at one output y: U_y1 = {6}, U_y2 = {2, 3}, U_y3 = {1} (1-based).  The library's
:func:`bcdp.randomness.recoverability.reduce_column` must give the printed q~ = [q6, q2 + q3, q1, q4, q5], and
the top three of q~ renormalised by 1 - (q5 + q6), q' = [q2 + q3, q1, q4]/(1 - (q5 + q6)) (as printed).  With
e^eps the exact LDP ratio of that output's column (max/min of q6, q2 + q3, q1), the printed chain
(q2 + q3)/q1 <= (q2 + q3)/q4 <= (q2 + q3)/q6 <= e^eps and q'_max/q'_min <= e^eps hold, and H(U) >= H(U~) >= H(U')
(certified, nats).  Finding: the printed sorted order q~ = [q2 + q3, q1, q4, q5, q6] needs q2 + q3 >= q1 (it
fails on the last law below, where q1 > q2 + q3); the three largest entries, hence q', are unaffected.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import recoverability as rec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-ExampleF.5.1",
    paper="thesis",
    group="recoverability",
    where="Example F.5.1, App. F.5.1 (proof of Lemma 7.5.2)",
    statement="With U on 6 values and U_y1 = {6}, U_y2 = {2,3}, U_y3 = {1}: q~ = [q6, q2+q3, q1, q4, q5], sorted "
              "[q2+q3, q1, q4, q5, q6], q' = [q2+q3, q1, q4]/(1-(q5+q6)) with H(U) >= H(U~) >= H(U') and "
              "q'_max/q'_min <= e^eps.",
    expected="confirmed",
    also_checked_in=("`proofs_checks/thesis/lemma752_reduction.py`",),
)

LAWS = ((6, 5, 4, 3, 2, 1), (5, 5, 4, 4, 1, 1), (8, 4, 4, 2, 1, 1), (3, 3, 3, 3, 3, 3), (10, 3, 2, 2, 2, 1))


def _h(law):
    h = ball_of(0)
    for p in law:
        if p:
            b = ball_of(p)
            h -= b * b.log()
    return h


def _ge(a, b) -> bool:
    with arb_precision(128):
        lo, _ = ball_ends(_h(a) - _h(b))
    return lo >= -Fraction(1, 10 ** 30)


def check() -> ClaimResult:
    fails: list = []
    rows = []
    order_fails = []
    for weights in LAWS:
        q = tuple(Fraction(w, sum(weights)) for w in weights)
        q1, q2, q3, q4, q5, q6 = q
        out = rec.reduce_column(q, [[5], [1, 2], [0]], 3)
        printed_tilde = (q6, q2 + q3, q1, q4, q5)
        printed_sorted = (q2 + q3, q1, q4, q5, q6)
        printed_prime = tuple(p / (1 - (q5 + q6)) for p in (q2 + q3, q1, q4))
        e_eps = max(q6, q2 + q3, q1) / min(q6, q2 + q3, q1)
        qp = out["q_prime"]
        ok = (out["q_tilde"] == printed_tilde and sorted(qp) == sorted(printed_prime)
              and (q2 + q3) / q1 <= (q2 + q3) / q4 <= (q2 + q3) / q6 <= e_eps
              and max(qp) <= e_eps * min(qp) and _ge(q, out["q_tilde"]) and _ge(out["q_tilde"], qp))
        if out["q_tilde_sorted"] != printed_sorted:
            order_fails.append([str(p) for p in q])
            if q2 + q3 >= q1:
                ok = False
        if not ok:
            keep(fails, {"q": [str(p) for p in q], "library": {k: [str(p) for p in v] for k, v in out.items()}})
        rows.append({"q": [str(p) for p in q], "q_prime": [str(p) for p in qp], "e_eps": str(e_eps)})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{len(LAWS)} key laws: q~ and q' as printed, entropy chain and ratio hold; printed sorted order "
                   f"needs q2 + q3 >= q1 (differs on {len(order_fails)} law, q' unaffected); {len(fails)} failures",
        evidence={"laws": rows, "sorted_order_differs": order_fails, "failures": fails,
                  "finding": "the printed order q~ sorted = [q2+q3, q1, q4, q5, q6] assumes q2 + q3 >= q1; q' is the same "
                             "set either way",
                  "library": "bcdp.randomness.recoverability.reduce_column"},
    )
