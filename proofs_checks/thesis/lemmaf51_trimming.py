"""Thesis Lemma F.5.1 (App. F.5.1, (F.22); proof App. F.9, (F.36)-(F.40)): trimming the least likely symbol and
renormalising does not increase the entropy.

For every pmf on m = 2..5 symbols with entries in (1/N)Z, N <= 9 (in every order, zeros included) the
library's :func:`bcdp.randomness.recoverability.trim_least_likely` is compared with the printed (F.36),
q'_j = q_j/(1 - q_m) with q_m the smallest entry, written here; then H(U) >= H(U') is decided with certified
entropies (arb, nats), strictly when q_m > 0 (then H(U) - H(U') = H2(q_m) - q_m H(U') >= q_m log(m/(m-1)) > 0)
and with equality when q_m = 0; the printed intermediate bound (F.38), H(U) - H(U') >= H2(q_m) - q_m log(m-1)
>= 0, is checked too.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.randomness import recoverability as rec

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-LemmaF.5.1",
    paper="thesis",
    group="recoverability",
    where="Lemma F.5.1, App. F.5.1, eq. (F.22); proof App. F.9, eqs. (F.36)-(F.40)",
    statement="Removing the least likely symbol of U and renormalising (q'_j = q_j/(1 - q_m)) gives U' with "
              "H(U) >= H(U').",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_recoverability.py`",),
)


def _h(law) -> object:
    h = ball_of(0)
    for p in law:
        if p:
            b = ball_of(p)
            h -= b * b.log()
    return h


def check() -> ClaimResult:
    fails: list = []
    n = strict = equal = 0
    worst_gap = None
    for m in range(2, 6):
        for den in range(2, 10 if m < 5 else 7):
            for parts in itertools.product(range(den + 1), repeat=m):
                if sum(parts) != den or max(parts) == den:
                    continue
                q = tuple(Fraction(p, den) for p in parts)
                n += 1
                low = min(q)
                drop = max(i for i, p in enumerate(q) if p == low)
                printed = tuple(p / (1 - low) for i, p in enumerate(q) if i != drop)
                lib = rec.trim_least_likely(q)
                if lib != printed:
                    keep(fails, {"q": [str(p) for p in q], "what": "(F.36)", "library": [str(p) for p in lib]})
                    continue
                with arb_precision(128):
                    diff = _h(q) - _h(lib)
                    h2 = _h((low, 1 - low))
                    f38 = h2 - ball_of(low) * ball_of(m - 1).log()
                    lo, hi = ball_ends(diff)
                    f38_lo, f38_hi = ball_ends(f38)
                    slack_lo, _ = ball_ends(diff - f38)
                if low == 0:
                    ok = lib == tuple(p for i, p in enumerate(q) if i != drop) and lo <= 0 <= hi
                    equal += ok
                else:
                    ok = lo > 0 and f38_lo >= 0 and slack_lo >= -Fraction(1, 10 ** 30)
                    strict += ok
                    worst_gap = lo if worst_gap is None else min(worst_gap, lo)
                if not ok:
                    keep(fails, {"q": [str(p) for p in q], "H(U)-H(U')": [str(lo), str(hi)],
                                 "F38": [str(f38_lo), str(f38_hi)]})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{n} pmfs (m = 2..5): (F.36) exact; H(U) > H(U') certified at {strict}, equal (q_m = 0) at "
                   f"{equal}; smallest gap {float(worst_gap):.3e} nats; {len(fails)} failures",
        evidence={"pmfs": n, "strict": strict, "equal_zero_min": equal, "smallest_gap_nats": str(worst_gap),
                  "failures": fails, "library": "bcdp.randomness.recoverability.trim_least_likely"},
    )
