"""Thesis Sec. 2.1.1 (after Def. 2.1.2): "(eps, delta)-DP iff D_inf <= eps with probability 1 - delta" holds one way only.

Printed (thesis Sec. 2.1.1, the paragraph after Def. 2.1.2, citing [BS16]): M is (eps, delta)-DP if and
only if, for every neighbouring D ~ D', the privacy loss L = log(P(Y)/P'(Y)) (Y ~ M(D)) is <= eps with
probability >= 1 - delta.  "If" is true: H_{e^eps}(P||Q) = E_P[(1 - e^{eps - L})_+] <= P{L > eps}.
"Only if" is false.  Exact counterexample (Fractions): P = (3/5, 2/5), Q = (1/2, 1/2), eps = 0: the pair is
(0, 1/10)-DP in both directions (hockey-stick 1/10) but P{L > 0} = 3/5; with eps > 0: randomized
response with ratio 3 at e^eps = 2 has delta = 1/4 but P{L > log 2} = 3/4.  Correct converse (derived
from the event S = {L > eps'}: P(S) - e^eps Q(S) <= delta and Q(S) <= e^{-eps'} P(S)): (eps, delta)-DP
implies P{L > eps'} <= delta/(1 - e^{eps - eps'}) for every eps' > eps.  Both the "if" direction and the
corrected converse are checked exactly on 200 seeded random pairs.  Library:
:func:`bcdp.core.divergences.hockey_stick_exact` and :func:`~bcdp.core.divergences.privacy_loss_tail_exact`,
compared with oracles written here (sup over all events; the mass of {P > r Q}).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core import divergences

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Def2.1.2-iff",
    paper="thesis",
    group="background",
    where="Sec. 2.1.1, the paragraph after Def. 2.1.2 (eq. (2.2), citing [BS16])",
    statement="M is (eps, delta)-DP iff D_inf(M(D)||M(D')) <= eps with probability 1 - delta: only the 'if' "
              "direction holds; (eps, delta)-DP gives P{L > eps'} <= delta/(1 - e^{eps - eps'}) for eps' > eps.",
    expected="erratum",
    erratum="E-Thesis-Def2.1.2-iff",
)

N_RANDOM = 200
RATIOS = (Fraction(1), Fraction(5, 4), Fraction(2))
STRETCH = (Fraction(3, 2), Fraction(3))          # e^{eps' - eps}


def _hs_oracle(P, Q, r: Fraction) -> Fraction:
    """sup over events S of P(S) - r Q(S) (all 2^m events)."""
    idx = range(len(P))
    return max(sum((P[i] - r * Q[i] for i in S), Fraction(0))
               for m in range(len(P) + 1) for S in itertools.combinations(idx, m))


def _tail_oracle(P, Q, r: Fraction) -> Fraction:
    return sum((p for p, q in zip(P, Q) if (q == 0 and p > 0) or (q > 0 and p / q > r)), Fraction(0))


def _random_law(rng: random.Random, m: int, den: int) -> tuple[Fraction, ...]:
    cuts = sorted(rng.sample(range(1, den), m - 1))
    return tuple(Fraction(b - a, den) for a, b in zip([0] + cuts, cuts + [den]))


def check() -> ClaimResult:
    fails: list = []
    counter = []
    for P, Q, r, label in (((Fraction(3, 5), Fraction(2, 5)), (Fraction(1, 2), Fraction(1, 2)), Fraction(1),
                            "P = (3/5, 2/5), Q = (1/2, 1/2), eps = 0"),
                           ((Fraction(3, 4), Fraction(1, 4)), (Fraction(1, 4), Fraction(3, 4)), Fraction(2),
                            "RR ratio 3 at e^eps = 2")):
        delta = max(divergences.hockey_stick_exact(P, Q, r), divergences.hockey_stick_exact(Q, P, r))
        tail = max(divergences.privacy_loss_tail_exact(P, Q, r), divergences.privacy_loss_tail_exact(Q, P, r))
        counter.append({"instance": label, "delta (both directions)": str(delta), "P{L > eps}": str(tail)})
        if not (delta == max(_hs_oracle(P, Q, r), _hs_oracle(Q, P, r))
                and tail == max(_tail_oracle(P, Q, r), _tail_oracle(Q, P, r)) and tail > delta):
            keep(fails, {"counterexample": label, "delta": str(delta), "tail": str(tail)})
    rng = random.Random(2112)
    cases = 0
    worst_converse = Fraction(0)
    for _ in range(N_RANDOM):
        m = rng.randint(2, 5)
        P, Q = _random_law(rng, m, 12), _random_law(rng, m, 12)
        for r in RATIOS:
            cases += 1
            hs = divergences.hockey_stick_exact(P, Q, r)
            tail = divergences.privacy_loss_tail_exact(P, Q, r)
            if hs != _hs_oracle(P, Q, r) or tail != _tail_oracle(P, Q, r) or hs > tail:
                keep(fails, {"P": [str(x) for x in P], "Q": [str(x) for x in Q], "ratio": str(r), "what": "if"})
            for t in STRETCH:
                bound = hs / (1 - 1 / t)
                tail2 = divergences.privacy_loss_tail_exact(P, Q, r * t)
                if tail2 > bound:
                    keep(fails, {"P": [str(x) for x in P], "Q": [str(x) for x in Q], "ratio": str(r),
                                 "stretch": str(t), "what": "corrected converse"})
                if bound > 0:
                    worst_converse = max(worst_converse, tail2 / bound)
    ok = not fails
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"'only if' false: (0, 1/10)-DP pair with P{{L > 0}} = 3/5, RR(3) at e^eps = 2: delta = 1/4, "
                   f"P{{L > log 2}} = 3/4; 'if' and the corrected converse hold on {cases} random pairs x ratios "
                   f"(largest tail/bound {float(worst_converse):.3f}; {len(fails)} failures)",
        evidence={"counterexamples": counter, "failures": fails, "random_cases": cases,
                  "largest_converse_ratio": str(worst_converse),
                  "corrected": "P{L > eps} <= delta implies (eps, delta)-DP; (eps, delta)-DP implies "
                               "P{L > eps'} <= delta/(1 - e^{eps - eps'}) for eps' > eps",
                  "library": "bcdp.core.divergences (hockey_stick_exact, privacy_loss_tail_exact)"},
    )
