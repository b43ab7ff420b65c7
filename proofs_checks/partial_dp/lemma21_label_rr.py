"""Partial DP paper, Lemma 21 (Sec. 6.1): label randomized response.

Printed: apply eps-DP randomized response to each label (keep w.p. e^eps/(e^eps+1)) and run an
eps-sample-nabla0-DP learner A on the result; the composition A' is eps-nabla0-DP ("immediate"),
and, since the privatised sample is i.i.d. from D'(x, y) = e^eps/(e^eps+1) D(x, y)
+ 1/(e^eps+1) D(x, 1 - y), "exactly equivalently"

    R_gamma(h, D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h, D).          (printed)

Checked here:

1. privacy, exactly (Fraction kernels, :mod:`bcdp.partial.pure` accountant, records (x_1..x_d, y)
   with the label as attribute d+1, as in App. A.3): for random learners A and the exact exponential
   mechanism of Lemma 22, the feature ratio of A' is <= that of A and the label ratio of A' is
   <= e^eps, so A' is max(eps_A, eps)-nabla0-DP; the EM learner (eps-sample-nabla0-DP) composed
   with RR(eps) is eps-nabla0-DP.  Bad twin: A without RR has label ratio > e^eps (rejected).
2. the risk identity: the corrected form (erratum E-PDP-Lemma21)

    R_gamma(h, D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h, D) + P_D[C_h]/(e^eps+1),

   C_h = {the closed gamma d-ball around x holds both labels}, derived in sympy for a generic D
   (one symbol per point, symbolic E = e^eps) for d = 3, and, because both sides are linear in D,
   verified exactly on every point mass (hence every D) for all integer halfspaces
   w in [-2, 2]^d, d = 3, 4, every radius gamma d = 0..d, and e^eps in {2, 3, 7/2}; also on
   seeded random rational D.  The printed form fails whenever P_D[C_h] > 0 (possible iff
   gamma d >= 1); counterexample kept.  The printed 1 - y (for labels in {-1, +1}) gives a D' of
   total mass e^eps/(e^eps+1), not a distribution; -y is meant.

Verdict "erratum": (1) confirmed, the printed identity of (2) is wrong for gamma d >= 1.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction

from bcdp.bayesian.random_instances import random_mechanism
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.numbers import INFINITY
from bcdp.partial.halfspaces import (
    LABELS,
    ball_mixed,
    compose_after_label_rr,
    cube,
    decision_distance,
    em_epsilon_ratio,
    exponential_mechanism_exact,
    integer_halfspaces,
    lemma21_printed_rr_risk,
    lemma21_rr_risk,
    lemma21_symbolic_derivation,
    mixed_ball_probability,
    robust_error,
    rr_label_distribution,
    sample_and_label_epsilons,
)
from bcdp.partial.pure import dataset_domain, per_attribute_epsilon

from .._common import jsonable, keep, rstr

CLAIM = ClaimSpec(
    id="PDP-Lemma21-label-RR",
    paper="partial_dp",
    group="halfspaces",
    where="Lemma 21, Sec. 6.1 (the label as attribute d+1, as in App. A.3)",
    statement="Label RR(eps) followed by an eps-sample-nabla0-DP learner is eps-nabla0-DP (the label is "
              "attribute d+1). R_gamma(h,D') = 1/(e^eps+1) + (e^eps-1)/(e^eps+1) R_gamma(h,D) holds only if "
              "P_D[C_h] = 0; in general add P_D[C_h]/(e^eps+1)",
    expected="erratum",
    also_checked_in=(
        "`tests/partial/test_partial_dp_halfspaces.py`",
    ),
    status="privacy confirmed; risk identity erratum",
    erratum="E-PDP-Lemma21",
)

SEED = 2121
RATIOS = (Fraction(2), Fraction(3), Fraction(7, 2))
N_RANDOM_LEARNERS = 12
N_RANDOM_D = 30
N_SYMBOLIC_HALFSPACES = 6


def le(a, b) -> bool:
    return b == INFINITY or (a != INFINITY and a <= b)


def privacy_part(rng: random.Random) -> dict:
    out = {"instances": 0, "violations": 0, "bad_twin_rejected": 0, "kept": []}
    shapes = [(1, 2), (2, 2)]  # (d, n): datasets of n records (x_1..x_d, y)
    for d, n in shapes:
        dom = dataset_domain([LABELS] * (d + 1), n)
        learners = [random_mechanism(rng, dom, rng.randint(2, 3), 0.2) for _ in range(N_RANDOM_LEARNERS // 2)]
        for learner in learners:
            base = sample_and_label_epsilons(learner, d, n)
            for r in RATIOS[:2]:
                comp = compose_after_label_rr(learner, d, n, r)
                got = sample_and_label_epsilons(comp, d, n)
                ok = le(got.feature_ratio, base.feature_ratio) and le(got.label_ratio, r)
                out["instances"] += 1
                if not ok:
                    out["violations"] += 1
                    keep(out["kept"], {"d": d, "n": n, "ratio": str(r), "feature": rstr(got.feature_ratio),
                                       "label": rstr(got.label_ratio)})
                if not le(base.label_ratio, r):
                    out["bad_twin_rejected"] += 1
                out["bad_twin_instances"] = out.get("bad_twin_instances", 0) + 1
    # the Lemma 22 learner (eps-sample-nabla0-DP) composed with RR(eps) is eps-nabla0-DP
    em_rows = []
    for d, n, g, gp, b in [(2, 2, Fraction(1), Fraction(1, 2), Fraction(3, 2)),
                           (2, 2, Fraction(1, 2), Fraction(0), Fraction(2)),
                           (1, 2, Fraction(1), Fraction(0), Fraction(5, 4))]:
        hyps = [h for _, h in integer_halfspaces(d, 2)]
        em = exponential_mechanism_exact(hyps, d, n, g, gp, b)
        ratio = em_epsilon_ratio(b, g, gp, d)
        sample = sample_and_label_epsilons(em, d, n)
        comp = compose_after_label_rr(em, d, n, ratio)
        eps0 = per_attribute_epsilon(comp, n, d + 1)
        ok = (le(sample.feature_ratio, ratio) and le(eps0.epsilon.ratio, ratio) and eps0.record_scaled_holds)
        out["instances"] += 1
        out["violations"] += 0 if ok else 1
        em_rows.append({"d": d, "n": n, "gamma": str(g), "gamma_prime": str(gp), "e^eps": str(ratio),
                        "EM feature ratio": rstr(sample.feature_ratio), "EM label ratio": rstr(sample.label_ratio),
                        "EM+RR eps0 ratio": rstr(eps0.epsilon.ratio), "ok": ok})
    out["em_learner"] = em_rows
    return out


@functools.lru_cache(maxsize=None)
def corrected_cached(risk: int, mixed: int, ratio: Fraction) -> Fraction:
    """The formula functions are deterministic: on point masses only 12 argument tuples occur."""
    return lemma21_rr_risk(risk, mixed, ratio)


@functools.lru_cache(maxsize=None)
def printed_cached(risk: int, ratio: Fraction) -> Fraction:
    return lemma21_printed_rr_risk(risk, ratio)


def identity_part(rng: random.Random) -> dict:
    out = {"point_mass_checks": 0, "corrected_violations": 0, "printed_failures": 0,
           "printed_failures_with_gamma_d_below_1": 0, "random_D_checks": 0, "random_D_corrected_violations": 0,
           "random_D_printed_failures": 0, "symbolic_derivations": 0, "symbolic_nonzero": 0, "kept": []}
    for d in (3, 4):
        hyps = integer_halfspaces(d, 2)
        out[f"halfspaces_d{d}"] = len(hyps)
        for w, h in hyps:
            dec = {(x, y): decision_distance(x, y, h) for x in cube(d) for y in LABELS}
            for radius in range(d + 1):
                gamma = Fraction(radius, d)
                for x in cube(d):
                    mixed = ball_mixed(h, x, gamma)
                    for y in LABELS:
                        wrong = dec[(x, y)] <= radius  # Def. 19's event (INFINITY never <= radius)
                        wrong_flip = dec[(x, -y)] <= radius
                        for r in RATIOS:
                            keep_p = r / (r + 1)
                            actual = keep_p * wrong + (1 - keep_p) * wrong_flip  # R_gamma(h, D') at D = delta_(x,y)
                            out["point_mass_checks"] += 1
                            if actual != corrected_cached(int(wrong), int(mixed), r):
                                out["corrected_violations"] += 1
                            if actual != printed_cached(int(wrong), r):
                                out["printed_failures"] += 1
                                if radius == 0:
                                    out["printed_failures_with_gamma_d_below_1"] += 1
                                if not out["kept"]:
                                    keep(out["kept"], {"d": d, "w": list(w), "gamma": str(gamma), "x": list(x), "y": y,
                                                       "e^eps": str(r), "R(h,D)": int(wrong), "R(h,D_rr)": str(actual),
                                                       "printed": str(lemma21_printed_rr_risk(int(wrong), r)),
                                                       "P_D[C_h]": int(mixed)})
        # random rational D, through the distribution-level functions
        pts = [(x, y) for x in cube(d) for y in LABELS]
        for _ in range(N_RANDOM_D // 2):
            raw = [rng.randint(0, 6) for _ in pts]
            raw[rng.randrange(len(pts))] += 1
            D = {pt: Fraction(v, sum(raw)) for pt, v in zip(pts, raw) if v}
            w, h = rng.choice(hyps)
            gamma = Fraction(rng.randint(0, d), d)
            r = rng.choice(RATIOS)
            actual = robust_error(h, rr_label_distribution(D, r, d), gamma, d)
            risk = robust_error(h, D, gamma, d)
            out["random_D_checks"] += 1
            if actual != lemma21_rr_risk(risk, mixed_ball_probability(h, D, gamma, d), r):
                out["random_D_corrected_violations"] += 1
            if actual != lemma21_printed_rr_risk(risk, r):
                out["random_D_printed_failures"] += 1
    # symbolic derivation, generic D, d = 3
    hyps3 = integer_halfspaces(3, 2)
    for w, h in hyps3[:: max(1, len(hyps3) // N_SYMBOLIC_HALFSPACES)][:N_SYMBOLIC_HALFSPACES]:
        for radius in range(4):
            res = lemma21_symbolic_derivation(h, 3, Fraction(radius, 3))
            out["symbolic_derivations"] += 1
            if res["corrected_minus_actual"] != 0:
                out["symbolic_nonzero"] += 1
            if radius == 1 and "symbolic_example" not in out:
                out["symbolic_example"] = {"w": list(w), "gamma": "1/3",
                                           "printed_minus_actual": str(res["printed_minus_actual"]),
                                           "P_D[C_h] (generic D)": str(res["mixed_ball_mass"])}
    # printed 1 - y
    D = {((1, 1, 1), 1): Fraction(1, 2), ((1, 1, 1), -1): Fraction(1, 2)}
    printed = rr_label_distribution(D, 3, 3, flip="printed")
    out["printed_one_minus_y_total_mass"] = str(sum(printed.values(), Fraction(0)))
    return out


def check() -> ClaimResult:
    rng = random.Random(SEED)
    priv = privacy_part(rng)
    ident = identity_part(rng)
    privacy_ok = priv["violations"] == 0 and priv["bad_twin_rejected"] > 0
    corrected_ok = (ident["corrected_violations"] == 0 and ident["random_D_corrected_violations"] == 0
                    and ident["symbolic_nonzero"] == 0 and ident["printed_failures_with_gamma_d_below_1"] == 0)
    printed_wrong = ident["printed_failures"] > 0 and ident["printed_one_minus_y_total_mass"] != "1"
    ok = privacy_ok and corrected_ok
    verdict = ("erratum" if ok and printed_wrong else "confirmed" if ok else "refuted")
    ex = ident["kept"][0] if ident["kept"] else {}
    return CLAIM.result(
        verdict=verdict,
        key_figure=f"privacy: {priv['instances']} exact instances, {priv['violations']} violations; identity: "
                   f"{ident['point_mass_checks']} point-mass checks, corrected form {ident['corrected_violations']} "
                   f"violations, printed form {ident['printed_failures']} failures (e.g. d={ex.get('d')}, "
                   f"w={ex.get('w')}, gamma={ex.get('gamma')}: R(h,D')={ex.get('R(h,D_rr)')} vs printed "
                   f"{ex.get('printed')})",
        evidence=jsonable({"privacy": priv, "identity": ident}),
    )
