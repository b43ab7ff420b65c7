"""Theorem 3, privacy part, by exact enumeration of Algorithm 3's two copies of M_mean at c/2.

Algorithm 3 (Sec. 5) sends x^(i,1) = M_mean(x, c/2) and x^(i,2) = M_mean(x, c/2), independent, with
c the eq. (16) allocation of Theorem 2; BCDP does not compose (Example 2), so the claim is that
halving c (not delta) keeps the pair delta-BCDP and eps-LDP (proof of Thm. 3, App. C.1: LDP and
CDP compose, then Prop. 4 as in Thm. 2).  Both copies are run with a finite b-LDP channel per
stage (``"rr"`` / ``"coordinate_rr"`` of :mod:`bcdp.bayesian.mmean_finite`); the joint release is
built by :func:`bcdp.bayesian.mmean_finite.mmean_two_copies_kernel` (each stage's two outputs reduced
to their unordered pair, a sufficient statistic: 1080 outputs for d = 3, 146880 for d = 4), and
its LDP epsilon and BCDP vector are computed at 60 digits by :mod:`bcdp.bayesian.highprec`, as in
:mod:`proofs_checks.bcdp.thm2_privacy_enumeration` (instance families reused from there).

Decision: a violation is bcdp_i > min(delta_i, eps) + 1e-40 or ldp > eps + 1e-40; a coordinate
within 1e-40 is a tie, recomputed at 120 digits where |slack| must be < 1e-100.  d = 3: correlated
prior of App. B.1 (q in {0, 0.1, 0.5, 1}, zeta in {1/2, (1+q)/2}, three demand shapes, both
channels) and 12 seeded random priors with q = their exact eq. (13) dependence; d = 4: one
Fig. 3-like instance (rr, q = 1/10, zeta = 1/2; BCDP only, the LDP level is checked at d = 3).
Negative control: the two copies at the full c (no halving) must be flagged.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from bcdp import Prior
from bcdp.bayesian import highprec as hp
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.bayesian.mmean_finite import mmean_two_copies_kernel
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import verdict
from .thm2_privacy_enumeration import SEED, SHAPES, correlated_instances, random_prior_instances

CLAIM = ClaimSpec(
    id="BCDP-Thm3-privacy-enumerated",
    paper="bcdp",
    group="mechanisms",
    where="Thm. 3, Algorithm 3, Sec. 5; proof App. C.1",
    statement="Algorithm 3's per-user release (M_mean(x, c/2), M_mean(x, c/2)), independent copies, c from eq. "
              "(16), each stage a finite b-LDP channel (rr or coordinate-wise RR), enumerated exactly on "
              "{0,1}^d / {-1,1}^d for d = 3 (1080 outputs) and d = 4 (146880 outputs): bcdp_i <= "
              "min(delta_i, eps) and ldp <= eps at 60 digits (margin 1e-40). 55 instances (54 at d = 3, 1 at d = 4), 0 violations; "
              "ties only at q = 1 (exact at 120 digits); min untied slack 0.052. The copies at the full c are "
              "flagged (bcdp_1 = 0.2551 > delta~_1 = 1/5).",
    also_checked_in=("`tests/bayesian/test_mmean_utility_copies.py` (reduction = ordered product, d = 2)",),
    expected="confirmed",
)

DPS = 60
TIE_DPS = 120
MARGIN = mpmath.mpf("1e-40")
TIE_TOL = mpmath.mpf("1e-100")


def evaluate(d: int, channel: str, prior: Prior, delta: list, eps, q: Fraction, zeta: Fraction,
             values: tuple = (0, 1), with_ldp: bool = True, scale: int = 1) -> dict:
    """Allocate (eq. 16), enumerate the two copies at c/2 (``scale = 2``: at c, the negative
    control) and compare with delta~ = min(delta, eps)."""
    alloc = allocate_budgets(delta, eps, q, zeta)
    c = [scale * v for v in alloc.c_sorted]

    def build(dps):
        return mmean_two_copies_kernel(c, d, channel, dps, alloc.order, values)

    mech = build(DPS)
    bcdp = [v.value for v in hp.bcdp_vector(mech, prior)]
    target = [hp.mpf_of(sympy.Min(v, alloc.eps), DPS) for v in alloc.delta]
    c_d = hp.mpf_of(alloc.c_sorted[-1], DPS)
    with mpmath.workdps(DPS):
        slack = [t - b for t, b in zip(target, bcdp)]
        ldp = hp.ldp_epsilon(mech).value if with_ldp else None
        ldp_violation = with_ldp and ldp > hp.mpf_of(alloc.eps, DPS) + MARGIN
        consistent = True
        if with_ldp and channel == "rr" and scale == 1:  # the pair is exactly c_d-LDP for rr
            consistent = abs(ldp - c_d) <= MARGIN
    ties = [i for i, s in enumerate(slack) if abs(s) <= MARGIN]
    tie_slack = {}
    if ties:
        hi = hp.bcdp_vector(build(TIE_DPS), prior)
        for i in ties:
            with mpmath.workdps(TIE_DPS):
                tie_slack[i] = hp.mpf_of(sympy.Min(alloc.delta[i], alloc.eps), TIE_DPS) - hi[i].value
    violated = [i for i, s in enumerate(slack) if s < -MARGIN]
    violated += [i for i, s in tie_slack.items() if s < -TIE_TOL and i not in violated]
    return {"d": d, "channel": channel, "q": str(q), "zeta": str(zeta), "delta": [str(v) for v in alloc.delta],
            "eps": str(alloc.eps), "c": [hp.nstr(hp.mpf_of(v, DPS), 15) for v in alloc.c_sorted],
            "outputs": len(mech.outputs), "ldp": None if ldp is None else hp.nstr(ldp, 20),
            "bcdp": [hp.nstr(v, 20) for v in bcdp], "slack": [hp.nstr(v, 20) for v in slack],
            "ties": ties, "ties_exact": all(abs(s) < TIE_TOL for s in tie_slack.values()),
            "consistent": bool(consistent), "violation": bool(violated or ldp_violation),
            "violated_coordinates": violated, "_untied": [s for i, s in enumerate(slack) if i not in ties]}


def instances():
    yield from correlated_instances(3, q_grid=("0", "0.1", "0.5", "1"))
    yield from random_prior_instances(3, 12, SEED)
    prior4 = Prior.correlated_bits(4, Fraction(1, 10), values=(-1, 1))
    delta4, eps4 = SHAPES[4]["fig3-like"]
    yield {"family": "correlated_bits", "shape": "fig3-like", "prior": "correlated_bits(d=4, q=0.1)"}, \
        (4, "rr", prior4, delta4, eps4, Fraction(1, 10), Fraction(1, 2), (-1, 1))


def check() -> ClaimResult:
    records = []
    for label, args in instances():
        records.append({**label, **evaluate(*args, with_ldp=args[0] <= 3)})
    violations = [r for r in records if r["violation"]]
    bad = [i for i, r in enumerate(records) if not r["consistent"] or not r["ties_exact"]]
    untied = [s for r in records for s in r.pop("_untied")]
    tie_q = sorted({r["q"] for r in records if r["ties"]})
    ctrl = evaluate(3, "rr", Prior.correlated_bits(3, Fraction(1, 2), values=(-1, 1)), *SHAPES[3]["fig3-like"],
                    Fraction(1, 2), Fraction(1, 2), (-1, 1), with_ldp=False, scale=2)
    ctrl.pop("_untied")
    ok = not violations and not bad and ctrl["violation"]
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{len(records)} instances (d = 3: {sum(r['d'] == 3 for r in records)}, d = 4: "
                   f"{sum(r['d'] == 4 for r in records)}), {len(violations)} violations; ties at q in {tie_q}; "
                   f"min untied slack {mpmath.nstr(min(untied), 6)}; copies at full c flagged: {ctrl['violation']} "
                   f"(bcdp {ctrl['bcdp'][0][:8]} > delta~ {ctrl['delta'][0]})",
        evidence={"dps": DPS, "margin": "1e-40", "tie_dps": TIE_DPS, "violations": violations,
                  "inconsistent_records": bad, "negative_control_full_c": ctrl, "instances": records,
                  "library": "bcdp.bayesian.mmean_finite.mmean_two_copies_kernel, bcdp.bayesian.highprec"},
    )
