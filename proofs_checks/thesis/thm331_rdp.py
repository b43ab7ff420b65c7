"""Thesis Thm 3.3.1, RDP part: R^Bin_{v,s} is (alpha, s eps_2RR(alpha))-RDP, decided exactly.

Printed (thesis Sec. 3.3, Thm 3.3.1 and its use in Thm 3.3.2): the client's s messages are each
(alpha, eps_2RR(alpha))-RDP with eps_2RR(alpha) = log(p^alpha (1-p)^{1-alpha} + p^{1-alpha}
(1-p)^alpha)/(alpha - 1) (eq. (3.4)), so the client is (alpha, s eps_2RR(alpha))-RDP by composition.

Decided on d = 1..4, every s in 1..d, p in {1/5, 1/10}, every ordered pair of inputs b != b' in
{0,1}^d and alpha in {2, 3, 5}: the library's exact message laws (:func:`bcdp.dme.binary_vector.
message_law`) give the Renyi moment K_alpha = E_{P_b'}[(P_b/P_b')^alpha] exactly
(:func:`bcdp.core.divergences.renyi_moment_exact`, Fractions), compared with K_2RR^s, K_2RR =
p^alpha (1-p)^{1-alpha} + p^{1-alpha} (1-p)^alpha written here from (3.4) (the claim is K <= K_2RR^s).
Finding: the bound holds everywhere; on this grid it is attained (equality) exactly when s divides d
(no padding) and b, b' differ in every coordinate (then whichever coordinate a block samples
differs); otherwise sampling the coordinate makes the client strictly more private than the
composition bound.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core import divergences
from bcdp.dme import binary_vector as bv

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Thm3.3.1-RDP",
    paper="thesis",
    group="dme",
    where="Thm 3.3.1 (RDP statement, with eq. (3.4)), Sec. 3.3; used in Thm 3.3.2",
    statement="R^Bin_{v,s} is (alpha, s eps_2RR(alpha))-RDP, eps_2RR of (3.4) at the per-message p "
              "(exact Renyi moments of the message laws, every input pair, d <= 4).",
    expected="confirmed",
    also_checked_in=("`tests/dme/test_dme_binary_rdp.py`",),
)

ORDERS = (2, 3, 5)
PS = (Fraction(1, 5), Fraction(1, 10))


def two_rr_moment(p: Fraction, a: int) -> Fraction:
    """K of (3.4): p^a (1-p)^(1-a) + p^(1-a) (1-p)^a, exact for integer a."""
    q = 1 - p
    return p ** a / q ** (a - 1) + q ** a / p ** (a - 1)


def check() -> ClaimResult:
    viol: list = []
    count = ties = 0
    tight_cases = set()
    for d in range(1, 5):
        for s in range(1, d + 1):
            for p in PS:
                params = bv.binary_vector_params(d, s, p=p)
                laws = {b: bv.message_law(b, params) for b in itertools.product((0, 1), repeat=d)}
                for b, b2 in itertools.permutations(laws, 2):
                    P, Q = laws[b], laws[b2]
                    keys = sorted(set(P) | set(Q))
                    for a in ORDERS:
                        count += 1
                        K = divergences.renyi_moment_exact([P.get(k, 0) for k in keys],
                                                            [Q.get(k, 0) for k in keys], a)
                        bound = two_rr_moment(p, a) ** s
                        if K > bound:
                            keep(viol, {"d": d, "s": s, "p": str(p), "b": b, "b_prime": b2, "alpha": a,
                                        "moment": str(K), "bound": str(bound)})
                        if K == bound:
                            ties += 1
                            tight_cases.add((d, s, params.a, sum(x != y for x, y in zip(b, b2))))
    return CLAIM.result(
        verdict="confirmed" if not viol else "refuted",
        key_figure=f"{count} exact (pair, order) moments: {len(viol)} above K_2RR^s, {ties} equal to it",
        evidence={"instances": count, "violations": viol, "ties": ties,
                  "tight_cases_(d,s,a,hamming)": sorted(tight_cases),
                  "library": "bcdp.dme.binary_vector.message_law (the exact law of the s messages), "
                             "bcdp.core.divergences.renyi_moment_exact"},
    )
