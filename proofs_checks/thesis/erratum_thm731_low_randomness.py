"""Thesis Thm 7.3.1 (7.8): the lower bound tau.  Case R >= H2(e^eps/(e^eps+1)): consistent with the Hadamard
response (HR).  Case R < H2: false -- HR with q = p_R has exact worst-case risk below tau.

Counterexample (certified): k = K = 4, eps = 1, n = 10^8, R = H2(1/1000) bits = 0.0114 (so p_R = 1/1000
exactly; R < H2(e/(e+1)) = 0.8399).  The HR mechanism (7.27) with q = 1/1000 and the rational E' = lower end
of an arb enclosure of e (E' < e, so it is 1-LDP; its rows have entropy H2(q) = R and H2(q/E') < R) has the
exact rational worst-case risk 4.0002e-4 (:func:`bcdp.randomness.hadamard.worst_case_risk`, compared with the
risk at the point mass recomputed from (7.29) and its exact KKT certificate, :mod:`._hr_common`), while the
printed tau = k e/(16 n p_R^2 (e-1)^2) = 2.3017e-3 (arb ball; ratio 5.754).  The minimax risk is at most HR's risk, so
tau is not a lower bound.  The proof's extra conditions hold there: (F.6)'s n >= 4e/(p_R^2 (e-1)^2) =
3.68e6 and Assouad's delta <= 1/k ((7.25): delta^2 = e/(8 n p_R^2 (e-1)^2)).  The l1 part r^{l1} >= sqrt(k tau/8)
fails too, at p_R = 1/10^4, n = 10^9 (F.6 needs 3.68e8): HR's l1 risk is at most sqrt(k r_first_k) (Cauchy-Schwarz,
Jensen) = 0.0400 < sqrt(k tau/8) = 0.1073.

Case 1 is checked only for consistency: HR's exact worst-case risk (first k coordinates) >= tau on a grid.
That cannot confirm a minimax lower bound (it only fails to refute it with the best scheme we have).
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import arb_precision, ball_ends, ball_of
from bcdp.core.results import certainly_lt
from bcdp.randomness import entropy, hadamard

from .._common import keep
from ._hr_common import is_global_max, pow2_at_least, risk_oracle, tau_printed

CLAIM = ClaimSpec(
    id="THESIS-Thm7.3.1",
    paper="thesis",
    group="randomness",
    where="Thm 7.3.1, Sec. 7.3, eq. (7.8); proofs Sec. 7.3.1 (7.13)-(7.26) and App. F.1 (F.6)",
    statement="For every eps, R >= 0, k, n: r^{l2^2}_{eps,R,n,k} >= tau = k(e^eps+1)^2/(16 n e^eps (e^eps-1)^2) if "
              "R >= H2(e^eps/(e^eps+1)), k e^eps/(16 n p_R^2 (e^eps-1)^2) if R < H2(e^eps/(e^eps+1)); "
              "r^{l1} >= sqrt(k tau/8).",
    expected="erratum",
    erratum="E-Thesis-Thm7.3.1-Cor7.3.1",
    also_checked_in=("`proofs_checks/thesis/erratum_cor731_rate.py`",),
)

K4, N, Q = 4, 10 ** 8, Fraction(1, 1000)
#: the l1 counterexample: p_R = 1/10^4, n = 10^9 ((F.6) needs n >= 3.68e8)
N_L1, Q_L1 = 10 ** 9, Fraction(1, 10 ** 4)


def _case2(N: int = N, Q: Fraction = Q) -> dict:
    with arb_precision(128):
        e_ball = ball_of(1).exp()
        e_lo = ball_ends(e_ball)[0]
        tau = ball_of(K4) * e_ball / (16 * N * ball_of(Q) ** 2 * (e_ball - 1) ** 2)
        f6 = 4 * e_ball / (ball_of(Q) ** 2 * (e_ball - 1) ** 2)
        delta2 = e_ball / (8 * N * ball_of(Q) ** 2 * (e_ball - 1) ** 2)
        tau_lo, tau_hi = ball_ends(tau)
        f6_hi = ball_ends(f6)[1]
        delta2_hi = ball_ends(delta2)[1]
    r_bits = entropy.binary_entropy(Q, "bits")
    crit = entropy.critical_randomness(1, "bits")
    wc = hadamard.worst_case_risk(K4, N, Q, e_lo)
    wc_k = hadamard.worst_case_risk(K4, N, Q, e_lo, coordinates="first_k")
    star = tuple(wc.witness)
    oracle = risk_oracle(star, N, Q, e_lo)
    status = hadamard.ldp_status(Q, e_lo, r_bits.upper)
    # negative controls: R a little below H2(q), and q above E'/(E'+1), are not (1, R)-LDP
    short = hadamard.ldp_status(Q, e_lo, r_bits.lower * (1 - Fraction(1, 10 ** 6)))["eps_r_ldp"] is False
    too_big = hadamard.ldp_status(Fraction(3, 4), e_lo, 1)["eps_r_ldp"] is False
    ok = (1 < e_lo and wc.exact == oracle == hadamard.exact_risk(star, N, Q, e_lo) and is_global_max(star, Q, e_lo) and status["eps_r_ldp"] is True
          and short and too_big and certainly_lt(r_bits, crit) and wc.exact < tau_lo and f6_hi <= N and delta2_hi <= Fraction(1, K4 ** 2))
    return {"ok": ok, "hr_worst_risk": wc.exact, "hr_worst_first_k": wc_k.exact,
            "l1_refuted": wc_k.exact == risk_oracle(star, N, Q, e_lo, "first_k") and wc_k.exact < tau_lo / 8, "tau_lower": tau_lo, "tau_upper": tau_hi, "e_lower": e_lo,
            "R_bits": r_bits, "critical": crit, "f6_n_min": f6_hi, "delta2_upper": delta2_hi, "witness": star}


def check() -> ClaimResult:
    c2 = _case2()
    c2_l1 = _case2(N_L1, Q_L1)
    fails: list = []
    points = 0
    for k in (2, 3, 4, 10, 64, 100):
        big_k = pow2_at_least(k)
        for e in (Fraction(101, 100), Fraction(3, 2), Fraction(2718, 1000), Fraction(5), Fraction(20)):
            for n in (big_k, 1000 * big_k):
                points += 1
                q = e / (e + 1)
                wc = hadamard.worst_case_risk(k, n, q, e, coordinates="first_k")
                tau = tau_printed(k, n, e, None)
                if not (wc.exact == risk_oracle(tuple(wc.witness), n, q, e, "first_k") and wc.exact >= tau):
                    keep(fails, {"k": k, "E": str(e), "n": n, "hr": str(wc.exact), "tau": str(tau)})
    ratio = c2["tau_lower"] / c2["hr_worst_risk"]
    ok = c2["ok"] and c2_l1["ok"] and c2_l1["l1_refuted"] and not fails
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=(f"R < H2 case false: k = K = 4, eps = 1, n = 1e8, p_R = 1/1000: HR worst-case risk "
                    f"{float(c2['hr_worst_risk']):.4e} < tau = {float(c2['tau_lower']):.4e} (ratio {float(ratio):.3f}); "
                    f"l1 part false too at p_R = 1e-4, n = 1e9 (HR l1 <= sqrt(k r) = "
                    f"{float(c2_l1['hr_worst_first_k'] * K4) ** 0.5:.4f} < sqrt(k tau/8) = "
                    f"{float(c2_l1['tau_lower'] * K4 / 8) ** 0.5:.4f}); "
                    f"R >= H2 case consistent at {points - len(fails)}/{points} points"),
        evidence={"counterexample": {"k": K4, "K": K4, "n": N, "eps": 1, "q = p_R": str(Q),
                                     "R_bits": [float(c2["R_bits"].lower), float(c2["R_bits"].upper)],
                                     "critical_bits": float(c2["critical"].lower),
                                     "E_used (rational, < e)": str(c2["e_lower"]),
                                     "hr_worst_case_risk": str(c2["hr_worst_risk"]),
                                     "hr_worst_case_risk_float": float(c2["hr_worst_risk"]),
                                     "tau_enclosure": [float(c2["tau_lower"]), float(c2["tau_upper"])],
                                     "tau_over_risk_at_least": float(ratio),
                                     "F6_condition_n_min": float(c2["f6_n_min"]),
                                     "assouad_delta2_max": float(c2["delta2_upper"]),
                                     "certified": c2["ok"]},
                  "l1_counterexample": {"n": N_L1, "q = p_R": str(Q_L1), "eps": 1, "k": K4,
                                        "hr_worst_first_k": float(c2_l1["hr_worst_first_k"]),
                                        "tau_lower": float(c2_l1["tau_lower"]),
                                        "F6_condition_n_min": float(c2_l1["f6_n_min"]),
                                        "assouad_delta2_max": float(c2_l1["delta2_upper"]),
                                        "argument": "sup_p E||p_hat - p||_1 <= sqrt(k sup_p E||p_hat - p||_2^2) on the k "
                                                    "coordinates (Cauchy-Schwarz, Jensen) < sqrt(k tau/8)",
                                        "certified": bool(c2_l1["ok"] and c2_l1["l1_refuted"])},
                  "case1_points": points, "case1_failures": fails,
                  "case1_scope": "consistency only: HR's worst case >= tau cannot confirm a minimax lower bound",
                  "missing_conditions": ["n >= 4 e^eps/(p_R^2 (e^eps-1)^2) (App. F.1, (F.6)), absent from (7.8)",
                                         "Assouad's delta <= 1/k ((7.13), (7.24)-(7.25)), i.e. n large enough",
                                         "(7.25)-(7.26): the second choice of delta^2 is labelled R >= H2, read R < H2",
                                         "Sec. 7.3.2: K | n for groups of n/K users"],
                  "where_it_breaks": "tau/HR = k/(64 E K p_R (1 - p_R)) > 1 iff p_R (1 - p_R) < k/(64 E K) "
                                     "(p_R < 0.00578 at k = K, eps = 1); root: Lemma 7.3.2 (E-Thesis-Lemma7.3.2)",
                  "library": "bcdp.randomness.hadamard (worst_case_risk, ldp_status), bcdp.randomness.entropy"},
    )
