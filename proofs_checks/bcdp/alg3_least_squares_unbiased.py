"""Algorithm 3 / App. C.1 eq. (77): f_hat is an unbiased estimator of f at every fixed theta.

f_hat(theta) = (1/2n) sum_i (theta^T z^(i,1) z^(i,2)^T theta - 2 theta^T l^(i,1) z^(i,2))   (74)

with x^(i,j) = [z^(i,j); l^(i,j)] = M_mean(x^(i), c/2), j = 1, 2, independent.  Decided in closed
form, in three sympy steps:

1. Mechanism 2's mean factor E[Z | v]/v is 1 for the corrected constant B and 2 for the printed
   one, for symbolic d (bcdp.bayesian.mechanisms_theory.mean_factor; erratum E-Mech2-B).
2. Mechanism 1: E[nu_i] = sum_{k<=i} w_k kappa x_i / sum_{k<=i} w_k = kappa x_i for symbolic
   positive weights w_1..w_d (d = 2..5) and channel factor kappa.
3. Independence of the copies gives E[f_hat_i] = (1/2) m^T M m (m = kappa x, M the bilinear
   matrix of (74)); sympy expands E[f_hat_i] - kappa^2 ((1/2)(theta^T z - l)^2 - l^2/2) to 0 for
   symbolic theta, z, l (p = 1..3).  So with kappa = 1, E[f_hat] = f of eq. (73), i.e. f of eq.
   (20) minus the theta-free (1/2n) sum l^2 (the proof in App. C.1 drops it); adding
   (1/2n) sum l^(i,1) l^(i,2) makes it unbiased for (20).

Plus the float closed form (bcdp.bayesian.least_squares.surrogate_mean) against f on random data, and a
seeded Monte Carlo: the mean of f_hat(theta) over R independent runs is compared with f(theta)
using Bernstein's inequality with the *exact* variance (bcdp.bayesian.least_squares.surrogate_variance) and
the almost-sure bound on each user's term; false-failure rate 1e-7 per comparison (6 comparisons).
The printed constant (kappa = 2, E f_hat = 4 f) must be rejected by the same test (power).  Note:
the printed constant scales every channel output by exactly 2, so f_hat becomes 4 f_hat and
Algorithm 3's theta_hat is unchanged; only the unbiasedness statement depends on it.
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.bayesian.least_squares import (
    least_squares_objective,
    privatize_twice,
    surrogate_from_copies,
    surrogate_mean,
    surrogate_variance,
)
from bcdp.bayesian.mechanisms import duchi_l2
from bcdp.bayesian.mechanisms_theory import mean_factor
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core.intervals import to_float

from .._common import verdict

CLAIM = ClaimSpec(
    id="BCDP-Alg3-unbiased",
    paper="bcdp",
    group="mechanisms",
    where="Algorithm 3, Sec. 5, eq. (74); App. C.1, eqs. (73), (77); Thm. 3, eq. (22)",
    statement="f_hat of eq. (74), from two independent copies M_mean(x, c/2), has E f_hat(theta) = f(theta) "
              "of eq. (73) (= eq. (20) minus the theta-free (1/2n) sum l^2; adding (1/2n) sum l1 l2 gives "
              "eq. (20)) for every theta: sympy (channel mean factor 1 for symbolic d; M_mean weights, d = "
              "2..5; polynomial identity, p = 1..3), float closed form, seeded Monte Carlo within a "
              "Bernstein tolerance from the exact variance (1e-7 per comparison). The printed B gives E "
              "f_hat = 4 f (rejected by the same test) but the same theta_hat (outputs scale by exactly 2). "
              "Algorithm 3 itself: `bcdp.bayesian.least_squares` with an exact trust-region OPT (f_hat is "
              "indefinite, so 'any convex optimization algorithm' does not apply); excess risk slope -0.49 "
              "+- 0.014 on a worst-case data sequence (eq. (22)'s n^{-1/2} attained), -0.98 +- 0.016 for a "
              "fixed distribution (1/n local asymptotics, within eq. (22)).",
    expected="confirmed",
    also_checked_in=(
        "`tests/bayesian/test_least_squares.py`",
    ),
)

SEED = 7303
N_USERS = 40
REPS = 20_000
FAILURE = 1e-7


def _mmean_mean_symbolic(d: int) -> bool:
    w = sympy.symbols(f"w1:{d + 1}", positive=True)
    x = sympy.symbols(f"x1:{d + 1}", real=True)
    kappa = sympy.Symbol("kappa", positive=True)
    for i in range(d):
        e = sum(w[k] * kappa * x[i] for k in range(i + 1)) / sum(w[k] for k in range(i + 1))
        if sympy.simplify(e - kappa * x[i]) != 0:
            return False
    return True


def _surrogate_expectation_symbolic(p: int) -> dict:
    th = sympy.symbols(f"theta1:{p + 1}", real=True)
    z = sympy.symbols(f"z1:{p + 1}", real=True)
    l, kappa = sympy.Symbol("l", real=True), sympy.Symbol("kappa", positive=True)
    m = [kappa * v for v in z] + [kappa * l]  # E of each copy; the copies are independent
    tz = sum(a * b for a, b in zip(th, m[:p]))
    # (1/2) E[x1^T M x2] = (1/2) m^T M m with M = [[theta theta^T, 0], [-2 theta^T, c]]
    e_no_const = sympy.Rational(1, 2) * (tz * tz - 2 * m[p] * tz)
    e_const = e_no_const + sympy.Rational(1, 2) * m[p] ** 2
    loss = sympy.Rational(1, 2) * (sum(a * b for a, b in zip(th, z)) - l) ** 2  # eq. (20) per user
    return {
        "with_constant_minus_kappa2_loss": str(sympy.expand(e_const - kappa ** 2 * loss)),
        "eq74_minus_kappa2_eq73": str(sympy.expand(e_no_const - kappa ** 2 * (loss - l ** 2 / 2))),
    }


def _monte_carlo(rng: np.random.Generator, X, y, c, thetas, channel=None, constant="unbiased"):
    Xr = np.broadcast_to(X, (REPS,) + X.shape)
    yr = np.broadcast_to(y, (REPS,) + y.shape)
    x1, x2 = privatize_twice(Xr, yr, c, rng, channel=channel)
    n = X.shape[0]
    z1, l1, z2, l2 = x1[..., :-1], x1[..., -1], x2[..., :-1], x2[..., -1]
    f = least_squares_objective(X, y)
    rows = []
    for th in thetas:
        # f_hat(theta) per repetition, with the unbiased constant
        vals = ((z1 @ th) * (z2 @ th) - 2 * l1 * (z2 @ th) + l1 * l2).sum(axis=1) / (2 * n)
        var1, bound = surrogate_variance(X, y, c, th, constant=constant)
        N = REPS * n
        # mean over reps = (1/N) sum of N independent user terms s (|s - E s| <= 2 bound), whose
        # average variance is sigma2 = n^2 Var(f_hat)/n = n Var(f_hat)
        sigma2 = n * var1
        L = 2 * bound
        lg = math.log(2 / FAILURE)
        tol = L * lg / (3 * N) + math.sqrt((L * lg / (3 * N)) ** 2 + 2 * sigma2 * lg / N)
        err = float(vals.mean() - f(th))
        rows.append({"theta": th.tolist(), "mc_mean": float(vals.mean()), "f": float(f(th)),
                     "closed_form_mean": surrogate_mean(X, y, c, th, constant=constant),
                     "error": err, "bernstein_tolerance": tol, "within": abs(err) <= tol})
    return rows


def check() -> ClaimResult:
    factors_ok = mean_factor("unbiased") == 1 and mean_factor("paper") == 2
    mmean_ok = all(_mmean_mean_symbolic(d) for d in range(2, 6))
    sym = {p: _surrogate_expectation_symbolic(p) for p in (1, 2, 3)}
    sym_ok = all(v["with_constant_minus_kappa2_loss"] == "0" and v["eq74_minus_kappa2_eq73"] == "0"
                 for v in sym.values())

    rng = np.random.default_rng(SEED)
    budgets = {name: [to_float(v) for v in allocate_budgets(delta, eps, "1/5", "1/2").c_sorted]
               for name, delta, eps in (("delta=(1,1,2), eps=2", [1, 1, 2], 2),
                                        ("delta=(4,4,8), eps=8", [4, 4, 8], 8))}
    X = rng.uniform(-1, 1, (N_USERS, 2))
    y = np.clip(X @ np.array([0.6, -0.4]) + rng.uniform(-0.3, 0.3, N_USERS), -1, 1)
    f = least_squares_objective(X, y)
    thetas = [np.array([0.0, 0.0]), np.array([-1.0, 0.5]), np.array([1.2, 1.0])]
    # float closed form: E f_hat = f (eq. 20) with the constant, f - (1/2n) sum l^2 without, 4 f printed B
    l2 = float(y @ y / (2 * N_USERS))
    closed_ok = True
    for c in budgets.values():
        for th in thetas:
            t = f(th)
            tol = 1e-12 * (1 + abs(t))
            closed_ok &= (abs(surrogate_mean(X, y, c, th) - t) <= tol
                          and abs(surrogate_mean(X, y, c, th, include_constant=False) - (t - l2)) <= tol
                          and abs(surrogate_mean(X, y, c, th, constant="paper") - 4 * t) <= 4 * tol)

    mc = {name: _monte_carlo(rng, X, y, c, thetas) for name, c in budgets.items()}
    mc_ok = all(r["within"] for rows in mc.values() for r in rows)
    paper = lambda v, e, r, g: duchi_l2(v, e, r, g, constant="paper")  # noqa: E731
    c_hi = budgets["delta=(4,4,8), eps=8"]
    mc_paper = _monte_carlo(rng, X, y, c_hi, thetas[1:], channel=paper, constant="paper")
    # the twin's mean is 4 f: it must be far outside its tolerance around f
    power_ok = all(not r["within"] for r in mc_paper)
    c = budgets["delta=(1,1,2), eps=2"]

    # scale invariance: the printed constant doubles every output, so theta_hat is unchanged
    x1, x2 = privatize_twice(X, y, c, np.random.default_rng(11))
    p1, p2 = privatize_twice(X, y, c, np.random.default_rng(11), channel=paper)
    q, qp = surrogate_from_copies(x1, x2), surrogate_from_copies(p1, p2)
    scale_ok = bool(np.allclose(p1, 2 * x1, rtol=1e-13, atol=0) and np.allclose(qp.A, 4 * q.A, rtol=1e-12)
                    and np.allclose(qp.minimize_on_ball(1.0).theta, q.minimize_on_ball(1.0).theta, atol=1e-10))

    ok = factors_ok and mmean_ok and sym_ok and closed_ok and mc_ok and power_ok and scale_ok
    worst = max(abs(r["error"]) / r["bernstein_tolerance"] for rows in mc.values() for r in rows)
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"E f_hat - f expands to 0 symbolically (p = 1..3, d = 2..5); Monte Carlo "
                   f"{REPS} runs x {N_USERS} users x 2 budgets: max |error|/tolerance = {worst:.3f}; printed B gives "
                   f"E f_hat = 4 f (rejected: {power_ok}), theta_hat unchanged: {scale_ok}",
        evidence={"channel_mean_factor_unbiased_and_paper": [str(mean_factor('unbiased')), str(mean_factor('paper'))],
                  "mmean_unbiased_symbolic_d2_to_5": mmean_ok, "surrogate_symbolic": {str(k): v for k, v in sym.items()},
                  "closed_form_float_ok": closed_ok, "c_sorted (q=1/5, zeta=1/2)": budgets,
                  "monte_carlo": mc, "monte_carlo_printed_constant": mc_paper, "failure_rate_per_comparison": FAILURE,
                  "printed_constant_theta_hat_unchanged": scale_ok, "seed": SEED},
    )
