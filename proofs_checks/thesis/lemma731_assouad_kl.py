"""Thesis Lemma 7.3.1, eq. (7.16), Sec. 7.3.1 / App. F.1.1, on tiny instances.

Printed: ``r >= phi(delta) (k/2) (1 - sqrt((n/2) sup_{j, i, nu: nu_j = 1, Q_i in Q(eps,R)}
D_KL(M^nu_i || M^{nu-2e_j}_i)))``.  For one mechanism ``Q`` used by all users the ``sup`` over
``Q(eps, R)`` is at least the ``max`` over ``(j, nu)`` for that ``Q``, so the printed right-hand side is
at most :func:`bcdp.randomness.assouad.lemma731_rhs` (certified, arb).  The check verifies, on the
instances of ``_ch7_assouad`` (k = 4, n in {1, 2, 3}, 3 certified-feasible (3, 1 bit)-LDP mechanisms,
k-RR and binary Hadamard), ``lemma731_rhs <= (F.17) RHS <= exact Bayes risk <= every evaluated
estimator's risk`` (the chain of F.1.1: convexity of TV, Pinsker, tensorisation of KL), and recomputes the
KL maximum with mpmath at 50 digits from the enumerated marginals (oracle).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import keep
from . import _ch7_assouad as inst

CLAIM = ClaimSpec(
    id="THESIS-Lemma7.3.1",
    paper="thesis",
    group="randomness",
    where="Lemma 7.3.1, eq. (7.16), Sec. 7.3.1; proof App. F.1.1",
    statement="r >= phi(delta) (k/2) (1 - sqrt((n/2) sup D_KL(M^nu_i || M^{nu-2e_j}_i))) for the packing (7.13).",
    expected="confirmed",
    also_checked_in=("`tests/randomness/test_randomness_assouad.py`",),
)


def _max_kl(q, delta):
    best = mpmath.mpf(0)
    for nu in inst.NUS:
        for j in range(inst.K // 2):
            if nu[j] != 1:
                continue
            other = list(nu)
            other[j] = -1
            a = [sum(inst.pack(delta, nu)[x] * q[x][y] for x in range(inst.K)) for y in range(len(q[0]))]
            b = [sum(inst.pack(delta, other)[x] * q[x][y] for x in range(inst.K)) for y in range(len(q[0]))]
            kl = sum(mpmath.mpf(u.numerator) / u.denominator * mpmath.log(mpmath.mpf((u / v).numerator) / (u / v).denominator)
                     for u, v in zip(a, b) if u)
            best = max(best, kl)
    return best


def check() -> ClaimResult:
    fails: list = []
    rows = inst.table()
    mechs = dict(inst.instances())
    positive = 0
    with mpmath.workdps(50):
        for r in rows:
            tag = {"mechanism": r["mechanism"], "n": r["n"], "delta": str(r["delta"]), "loss": r["loss"]}
            cert = r["l731"]
            kl = _max_kl(mechs[r["mechanism"]], r["delta"])
            phi = r["delta"] ** 2 if r["loss"] == "l2" else r["delta"]
            oracle = phi * inst.K / 2 * (1 - mpmath.sqrt(r["n"] * kl / 2))
            lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in (cert.lower, cert.upper))
            if not lo - mpmath.mpf(10) ** -30 <= oracle <= hi + mpmath.mpf(10) ** -30:
                keep(fails, {**tag, "what": "(7.16) RHS library vs mpmath oracle"})
            if not cert.upper <= r["f17_library"] <= r["bayes"]:
                keep(fails, {**tag, "what": "(7.16) RHS above the exact Bayes risk", "rhs_upper": str(cert.upper),
                             "bayes": str(r["bayes"])})
            if min(a for a, _ in r["risks"].values()) < cert.upper:
                keep(fails, {**tag, "what": "an estimator below the (7.16) RHS"})
            positive += cert.lower > Fraction(0)
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{len(rows)} instances: certified (7.16) RHS <= (F.17) RHS <= exact Bayes risk "
                   f"({positive} with a positive RHS; {len(fails)} failures)",
        evidence={"instances": len(rows), "positive_rhs": positive, "failures": fails,
                  "library": "bcdp.randomness.assouad (lemma731_rhs, assouad_rhs, bayes_risk)"},
    )
