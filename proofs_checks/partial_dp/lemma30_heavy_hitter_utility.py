"""Partial DP paper, Lemma 30 (App. A.1.2): for eta, nu in (0, 0.1], tau = 0.5 nu n,
tau >= 8 mu log2 d + 8 lambda ln(d/(eta nu)) and mu >= lambda ln(16/nu), PrivHeavyHitter
(1) finds every s with f_s >= 2 tau with probability >= 1 - eta/2, and (2) has E|L_[d]| <= 8/nu.

Setting: d = 16, eps = 1, nu = eta = 1/10, lambda = 3, mu = 3 ln 160, n = 13,286 (the least n with
tau = nu n/2 >= the Lemma 30 threshold 664.28...).  Three datasets (seeded): A = 5 heavy strings at
frequency 0.12 + uniform rest; B = 9 strings just below 2 tau + uniform rest; C = 18 strings with count
ceil(tau + 48), just above the last threshold tau_4 = tau + 3 mu (inclusion probabilities near 1/2);
D = 39 strings just above 0.5 tau (the |S| < 4/nu boundary of the proof) + uniform rest.

Exact (mpmath, 50 digits, :func:`bcdp.partial.heavy_hitters.inclusion_law`): E|L_[d]| by the
factorised law, and P[some heavy string missed] <= sum over heavy s and nodes I of the exact
rejection probability of s|_I (the union bound of the proof).  Statistical (float64 sampler, seeded):
over T trials the number of runs missing a heavy string and the number with |L| > 32/nu (Markov
from E|L| <= 8/nu gives probability <= 1/4) must not exceed the binomial quantile; the empirical
inclusion frequency of every C string must be within the Hoeffding radius of its exact probability
(tests the sampler against the exact law).  Statistical tests: 4 datasets x 2 binomial tests + 1
Hoeffding test (itself a union bound over the 18 C strings) = 9; each runs at false-failure rate
1e-6 / 9, so by the union bound the check's overall false-failure rate is <= 1e-6.
Bad twin: lambda = 100 (conditions violated) must show a miss bound > eta/2.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.partial.heavy_hitters import (
    DPS,
    hh_params,
    inclusion_law,
    int_to_bits,
    lemma30_conditions,
    miss_probability_union_bound,
    priv_heavy_hitter_sample,
)

CLAIM = ClaimSpec(
    id="PDP-Lemma30-heavy-hitter-utility",
    paper="partial_dp",
    group="histograms",
    where="Lemma 30 and eq. (9), App. A.1.2",
    statement="Setting: d = 16, eps = 1, nu = eta = 1/10, n = 13,286 (the least n meeting the tau "
              "condition). Exact E|L| is 5.064, 9.232, 15.63 and 0.0004 on 4 datasets, all <= 8/nu = 80. The "
              "union bound on missing a heavy hitter is 2.5e-128 <= eta/2. In 300 sampler runs per dataset, "
              "heavy-hitter misses and |L| > 32/nu stay within binomial quantiles (false-failure rate 1e-6). "
              "The induction identity 4/nu + (nu/16)(8/nu)^2 = 8/nu is checked in sympy. Bad twin: lambda = "
              "100 loses the heavy hitters.",
    expected="confirmed",
)

D, NU, ETA, LAM = 16, Fraction(1, 10), Fraction(1, 10), 3
TRIALS, SEED, FALSE_FAILURE = 300, 20261122, Fraction(1, 10**6)
#: 4 datasets x 2 binomial tests + 1 Hoeffding test (union over the 18 C strings)
N_STAT_TESTS = 9
ALPHA_PER_TEST = FALSE_FAILURE / N_STAT_TESTS
#: an integer >= 3 ln 160 = 15.2255... so that C's count ceil(tau + 3 * 16) sits just above tau_4 = tau + 3 mu
MU_FLOAT_UPPER = 16


def binomial_upper_quantile(trials: int, p: Fraction, alpha: Fraction) -> int:
    """Least k with P[Bin(trials, p) > k] <= alpha (exact Fractions)."""
    tail = Fraction(1)
    for k in range(trials + 1):
        tail -= math.comb(trials, k) * p**k * (1 - p) ** (trials - k)
        if tail <= alpha:
            return k
    return trials


def datasets(n: int, rng: np.random.Generator) -> dict[str, tuple[np.ndarray, list[str]]]:
    out = {}
    tau = Fraction(n) * NU / 2
    for name, count, k in (("A_5_heavy_0.12", int(Fraction(12, 100) * n), 5),
                           ("B_9_just_below_2tau", math.ceil(2 * tau) - 1, 9),
                           ("C_18_at_top_threshold", math.ceil(tau + 3 * MU_FLOAT_UPPER), 18),
                           ("D_39_just_above_half_tau", math.floor(tau / 2) + 1, 39)):
        strings = rng.choice(2**D, size=k, replace=False)
        rows = [np.array([[int(b) for b in int_to_bits(s, D)]] * count) for s in strings]
        rest = rng.integers(0, 2, size=(n - k * count, D))
        out[name] = (np.vstack(rows + [rest]), [int_to_bits(s, D) for s in strings])
    return out


def check() -> ClaimResult:
    f = lambda v: mp.nstr(v, 10)  # noqa: E731
    with mp.workdps(DPS):
        mu = LAM * mp.log(160)
        threshold = 8 * mu * 4 + 8 * LAM * mp.log(D / (mp.mpf(1) / 100))
        n = int(mp.ceil(2 * threshold / (mp.mpf(1) / 10)))
    cond = lemma30_conditions(D, n, LAM, mu, NU, ETA)
    violations, rows = [], {}
    if not (cond["tau_ok"] and cond["mu_ok"] and cond["nu_eta_ok"]):
        violations.append({"setting": "Lemma 30 conditions do not hold for the chosen n", "conditions":
                           {k: bool(v) for k, v in cond.items() if k in ("tau_ok", "mu_ok", "nu_eta_ok")}})
    p = hh_params(LAM, mu, Fraction(n) * NU / 2)
    rng = np.random.default_rng(SEED)
    data = datasets(n, rng)
    k_fail = binomial_upper_quantile(TRIALS, ETA / 2, ALPHA_PER_TEST)
    k_big = binomial_upper_quantile(TRIALS, Fraction(1, 4), ALPHA_PER_TEST)
    hoeff = math.sqrt(math.log(2 * 18 / float(ALPHA_PER_TEST)) / (2 * TRIALS))
    for name, (arr, strings) in data.items():
        law = inclusion_law(arr, p, D)
        expected = law.expected_size[(0, D)]
        counts = {s: int((arr == np.array([int(b) for b in s])).all(axis=1).sum()) for s in strings}
        heavy = [s for s in strings if counts[s] >= 2 * p.tau]
        miss_bound = sum((miss_probability_union_bound(arr, s, p, D) for s in heavy), mp.mpf(0))
        runs = priv_heavy_hitter_sample(arr, float(LAM), float(mu), float(p.tau), rng, trials=TRIALS)
        keys = {s: int(s, 2) for s in strings}
        fails = sum(1 for out in runs if any(keys[s] not in set(out.tolist()) for s in heavy))
        big = sum(1 for out in runs if len(out) > 32 / NU)
        row = {"n": n, "heavy_strings": len(heavy), "exact_E_size": f(expected), "bound_8_over_nu": "80",
               "miss_union_bound": mp.nstr(miss_bound, 5), "eta_over_2": "1/20",
               "sampler_runs": TRIALS, "runs_missing_heavy": fails, "allowed_missing": k_fail,
               "runs_size_over_32_over_nu": big, "allowed_size_over": k_big,
               "sampler_mean_size": round(float(np.mean([len(o) for o in runs])), 4)}
        if expected > 8 / (mp.mpf(1) / 10) or miss_bound > mp.mpf(1) / 20:
            violations.append({name: "exact bound violated"})
        if fails > k_fail or big > k_big:
            violations.append({name: "statistical bound violated"})
        if name.startswith("C"):
            worst = 0.0
            for s in strings:
                freq = sum(1 for out in runs if keys[s] in set(out.tolist())) / TRIALS
                exact = float(law.inclusion[(0, D)].get(s, 0))
                worst = max(worst, abs(freq - exact))
            row["sampler_vs_exact_inclusion_max_gap"] = round(worst, 4)
            row["hoeffding_radius"] = round(hoeff, 4)
            if worst > hoeff:
                violations.append({name: "sampler disagrees with exact inclusion law"})
        rows[name] = row
    # the proof's induction arithmetic (around eq. (9)), symbolic
    v = sympy.Symbol("nu", positive=True)
    induction_ok = sympy.simplify(4 / v + (v / 16) * (8 / v) ** 2 - 8 / v) == 0
    floor_ok = sympy.simplify(sympy.Rational(1, 2) * sympy.exp(-sympy.log(16 / v)) - v / 32) == 0
    if not (induction_ok and floor_ok):
        violations.append("induction arithmetic")
    # bad twin: lambda = 100 violates the conditions and loses the heavy hitters
    twin = hh_params(100, 100 * mp.log(160), Fraction(n) * NU / 2)
    arr, strings = data["A_5_heavy_0.12"]
    twin_miss = max(1 - inclusion_law(arr, twin, D).inclusion[(0, D)][s] for s in strings)
    twin_cond = lemma30_conditions(D, n, 100, 100 * mp.log(160), NU, ETA)
    twin_rejected = twin_miss > mp.mpf(1) / 20 and not twin_cond["tau_ok"]
    if not twin_rejected:
        violations.append("bad twin not rejected")
    a = rows["A_5_heavy_0.12"]
    return CLAIM.result(
        verdict="confirmed" if not violations else "refuted",
        key_figure=f"d=16, eps=1, nu=eta=1/10, n={n}: exact E|L| = {a['exact_E_size']} (A), "
                   f"{rows['B_9_just_below_2tau']['exact_E_size']} (B), {rows['C_18_at_top_threshold']['exact_E_size']} (C), "
                   f"{rows['D_39_just_above_half_tau']['exact_E_size']} (D) <= 80; miss union bound "
                   f"{a['miss_union_bound']} <= 1/20; {TRIALS} sampler runs per "
                   f"dataset within binomial quantiles ({N_STAT_TESTS} statistical tests at 1e-6/{N_STAT_TESTS} each, "
                   f"overall false-failure <= 1e-6)",
        evidence={"precision_digits": DPS, "lambda": LAM, "mu": f(mu), "tau": f(p.tau), "n": n,
                  "tau_threshold": f(threshold), "seed": SEED, "datasets": rows,
                  "statistical_tests": N_STAT_TESTS, "false_failure_per_test": str(ALPHA_PER_TEST),
                  "false_failure_overall_union_bound": str(FALSE_FAILURE),
                  "induction_identity_4/nu+(nu/16)(8/nu)^2=8/nu": bool(induction_ok),
                  "floor_(1/2)e^(-mu/lambda)=nu/32": bool(floor_ok),
                  "bad_twin_lambda_100": {"max_miss_probability": mp.nstr(twin_miss, 6),
                                          "conditions_hold": bool(twin_cond["tau_ok"]), "rejected": bool(twin_rejected)},
                  "violations": violations, "violation_count": len(violations)},
    )
