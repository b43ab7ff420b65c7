"""Erratum: the remark after Theorem 2 (zeta = 1, no coordinate demand: c = eps 1 and MSE O(d^2/(n eps^2))) holds only for bounded eps.

Remark after Thm. 2 (Sec. 4): with delta_i = inf and zeta = 1, eq. (16) gives c_1 = ... = c_d = eps,
"which yields the error bound O(d^2/(n eps^2))", matching Duchi et al.'s eps-LDP lower bound.

(a) The allocation: :func:`bcdp.bayesian.ldp_rate.no_demand_allocation` and
:func:`bcdp.bayesian.allocation.allocate_budgets` with large demands give c_i = eps exactly (sympy
residual 0) for every q in [0, 1].  (b) The rate: the library's exact ratio
R(d, eps) = sup n MSE / (d^2/eps^2) against an mpmath oracle (V(c) of the E-Thm2-eq17 check, built
from the printed Mechanisms 1-2); the analytic envelope (eps coth(eps/2))^2 <= R < (pi/2)(eps
coth(eps/2))^2 is checked here from its two ingredients (sympy: d/dt (t coth t) = (sinh 2t/2 -
t)/sinh^2 t > 0; mpmath: g(d) = pi (Gamma((d+1)/2)/Gamma(d/2))^2/d increases from g(1) = 1 towards
pi/2).  So for eps <= 1, R < (pi/2) coth(1/2)^2 ~ 7.356 (the remark holds with that constant),
while R >= eps^2 is unbounded: the remark's O(d^2/(n eps^2)) fails for large eps, also after the
projection (E-Thm2-eq17's projected lower bound at n = 10^6).  (c) The gap to the eps-LDP rate
min{d, d^2/(n eps^2)} of Duchi, Jordan and Wainwright (2013a, arXiv:1302.3203; the form as cited --
the proposition number could not be confirmed with the search tool): min{sup MSE, 4d} / rate is at
most max(R, 4) <= 7.356 for eps <= 1 on the grid, and grows like eps^2 beyond.
"""

from __future__ import annotations

import mpmath
import sympy
from bcdp.bayesian import ldp_rate as lr
from bcdp.bayesian import mmean_utility as mu
from bcdp.bayesian.allocation import allocate_budgets
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec

from .._common import keep
from .erratum_thm2_eq17_mse import oracle

CLAIM = ClaimSpec(
    id="BCDP-Thm2-remark-LDP",
    paper="bcdp",
    group="mechanisms",
    where="remark after Thm. 2, Sec. 4 (eqs. (16)-(17))",
    statement="Printed: with delta_i = inf and zeta = 1, c_1 = ... = c_d = eps, which yields the error bound "
              "O(d^2/(n eps^2)), matching Duchi et al.'s eps-LDP lower bound. c = eps 1 holds exactly; "
              "sup n MSE/(d^2/eps^2) lies in [(eps coth(eps/2))^2, (pi/2)(eps coth(eps/2))^2): < 7.356 for "
              "eps <= 1 (the remark holds there, within 7.36 of min{d, d^2/(n eps^2)}), >= eps^2 beyond "
              "(1.49e4 at d = 10, eps = 100): no universal constant.",
    expected="erratum",
    erratum="E-Thm2-remark-LDP",
    also_checked_in=("`tests/bayesian/test_bcdp_ldp_rate.py`",),
)

DPS = 50
AGREE = mpmath.mpf(10) ** -40
DIMS = (1, 2, 3, 5, 10)
EPS = ("1/10", "1/2", "1", "2", "10", "100")
QS = ("0", "1/10", "1/2", "1")
USERS = (1, 10, 100, 10 ** 4, 10 ** 6)


def _mp(v) -> mpmath.mpf:
    return mpmath.mpf(sympy.N(v, DPS + 20)._to_mpmath(mpmath.mp.prec))


def _eps(eps: str) -> mpmath.mpf:
    r = sympy.Rational(eps)
    return mpmath.mpf(int(r.p)) / int(r.q)


def allocation_part() -> tuple[int, list]:
    """c_i - eps == 0 exactly for the library's no-demand allocation and for large demands."""
    count, bad = 0, []
    for d in DIMS:
        for eps in EPS:
            e = sympy.Rational(eps)
            for q in QS:
                for c in (lr.no_demand_allocation(d, eps, q).c, allocate_budgets([10 ** 6] * d, e, q, 1).c,
                          allocate_budgets([2 * e + k for k in range(d)], e, q, 1).c):
                    count += 1
                    if any(sympy.simplify(ci - e) != 0 for ci in c):
                        keep(bad, {"d": d, "eps": eps, "q": q, "c": [str(v) for v in c]})
    return count, bad


def envelope_ingredients() -> dict:
    """sympy: d/dt (t coth t) = (sinh(2t)/2 - t)/sinh(t)^2 (> 0 as sinh 2t > 2t); mpmath: g(d)."""
    t = sympy.symbols("t", positive=True)
    deriv = sympy.diff(t * sympy.coth(t), t)
    residual = sympy.simplify((deriv - (sympy.sinh(2 * t) / 2 - t) / sympy.sinh(t) ** 2).rewrite(sympy.exp))
    g = [mpmath.pi * (mpmath.gamma(mpmath.mpf(d + 1) / 2) / mpmath.gamma(mpmath.mpf(d) / 2)) ** 2 / d
         for d in range(1, 401)]
    increasing = all(g[k] < g[k + 1] for k in range(len(g) - 1))
    below = all(v < mpmath.pi / 2 for v in g)
    big = mpmath.pi * mpmath.exp(2 * (mpmath.loggamma(mpmath.mpf(10 ** 8 + 1) / 2) - mpmath.loggamma(mpmath.mpf(10 ** 8) / 2))) / 10 ** 8
    return {"derivative_residual": str(residual), "g(1)": mpmath.nstr(g[0], 20), "g(400)": mpmath.nstr(g[-1], 20),
            "g(1e8)": mpmath.nstr(big, 20), "pi/2": mpmath.nstr(mpmath.pi / 2, 20),
            "ok": residual == 0 and abs(g[0] - 1) < AGREE and increasing and below and mpmath.pi / 2 - big < 1e-7}


def check() -> ClaimResult:
    n_alloc, alloc_bad = allocation_part()
    rows, disagreements, envelope_fail, gap_rows, gap_fail = [], [], [], [], []
    with mpmath.workdps(DPS):
        sym = envelope_ingredients()
        sup_small = _mp(lr.small_eps_supremum())
        sup_oracle = mpmath.pi / 2 * mpmath.coth(mpmath.mpf(1) / 2) ** 2
        if abs(sup_small - sup_oracle) > AGREE:
            keep(disagreements, {"small_eps_supremum": mpmath.nstr(sup_small, 20)})
        ratios: dict[tuple[int, str], mpmath.mpf] = {}
        for d in DIMS:
            for eps in EPS:
                e = _eps(eps)
                lib = _mp(lr.remark_ratio(d, eps))
                V, _, _ = oracle([sympy.Rational(eps)] * d)
                orc = V * e ** 2 / d ** 2
                ratios[(d, eps)] = orc
                if abs(lib - orc) > AGREE * orc:
                    keep(disagreements, {"d": d, "eps": eps, "library": mpmath.nstr(lib, 20), "oracle": mpmath.nstr(orc, 20)})
                low = (e * mpmath.coth(e / 2)) ** 2
                lo_lib, hi_lib = (_mp(v) for v in lr.ratio_envelope(eps))
                if abs(lo_lib - low) > AGREE * low or abs(hi_lib - mpmath.pi / 2 * low) > AGREE * low:
                    keep(disagreements, {"envelope": eps})
                inside = low - AGREE * low <= orc < mpmath.pi / 2 * low and (d != 1 or abs(orc - low) < AGREE * low)
                if not inside or orc < e ** 2 or (e <= 1 and not orc < sup_oracle):
                    keep(envelope_fail, {"d": d, "eps": eps, "ratio": mpmath.nstr(orc, 15)})
                rows.append({"d": d, "eps": eps, "ratio_supMSE_over_d2_n_eps2": mpmath.nstr(orc, 12),
                             "envelope_low": mpmath.nstr(low, 12), "envelope_high": mpmath.nstr(mpmath.pi / 2 * low, 12)})
                for n in USERS:
                    lib_gap = _mp(lr.gap_to_ldp_rate(d, eps, n))
                    orc_gap = min(V / n, 4 * d) / min(mpmath.mpf(d), mpmath.mpf(d) ** 2 / (n * e ** 2))
                    if abs(lib_gap - orc_gap) > AGREE * orc_gap:
                        keep(disagreements, {"gap": [d, eps, n], "library": mpmath.nstr(lib_gap, 20),
                                             "oracle": mpmath.nstr(orc_gap, 20)})
                    if e <= 1 and not orc_gap <= max(sup_oracle, 4):
                        keep(gap_fail, {"d": d, "eps": eps, "n": n, "gap": mpmath.nstr(orc_gap, 15)})
                    gap_rows.append({"d": d, "eps": eps, "n": n, "gap": mpmath.nstr(orc_gap, 10)})
        small = [v for (d, eps), v in ratios.items() if _eps(eps) <= 1]
        max_small = max(small)
        proj = []
        for eps in ("10", "100"):
            lb = _mp(mu.uniform_projected_lower_bound(10, eps, 10 ** 6))
            rate = min(mpmath.mpf(10), mpmath.mpf(100) / (10 ** 6 * _eps(eps) ** 2))
            proj.append({"d": 10, "eps": eps, "n": 10 ** 6, "projected_mse_at_least": mpmath.nstr(lb, 10),
                         "d2_over_n_eps2_capped": mpmath.nstr(rate, 10), "ratio_at_least": mpmath.nstr(lb / rate, 8)})
        big_gap = max(float(mpmath.mpf(r["gap"])) for r in gap_rows if r["eps"] == "100")
    unbounded = ratios[(10, "100")] > 10 ** 4 and float(mpmath.mpf(proj[-1]["ratio_at_least"])) > 1000
    ok = (not alloc_bad and sym["ok"] and not disagreements and not envelope_fail and not gap_fail and unbounded)
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"c = eps 1 exactly in {n_alloc} allocations ({len(alloc_bad)} off); sup n MSE/(d^2/eps^2) at d = 10: "
                   f"{float(ratios[(10, '1/10')]):.4g} (eps=1/10), {float(ratios[(10, '1')]):.4g} (eps=1), "
                   f"{float(ratios[(10, '10')]):.4g} (eps=10), {float(ratios[(10, '100')]):.4g} (eps=100); max over eps <= 1 "
                   f"on the grid {float(max_small):.4g} < (pi/2) coth(1/2)^2 = {float(sup_oracle):.6g}; gap to min{{d, "
                   f"d^2/(n eps^2)}} <= max(7.356, 4) for eps <= 1 ({len(gap_fail)} failures), up to {big_gap:.4g} at "
                   f"eps = 100; projected (n = 1e6, eps = 100) ratio >= {proj[-1]['ratio_at_least']}; library = oracle: "
                   f"{not disagreements}",
        evidence={"dps": DPS, "allocations_checked": n_alloc, "allocation_failures": alloc_bad,
                  "envelope_ingredients": sym, "ratios": rows, "envelope_failures": envelope_fail,
                  "small_eps_supremum": mpmath.nstr(sup_oracle, 30), "max_ratio_eps_le_1_on_grid": mpmath.nstr(max_small, 15),
                  "gap_to_ldp_rate": gap_rows, "gap_failures_eps_le_1": gap_fail, "projected_counterexamples": proj,
                  "ldp_lower_bound_form": "Duchi, Jordan, Wainwright 2013a (arXiv:1302.3203): minimax squared-l2 risk "
                                          "over [-1,1]^d under eps-LDP, eps in (0,1], >~ min{d, d^2/(n eps^2)} (as cited; "
                                          "proposition number not confirmed)",
                  "library_vs_oracle_disagreements": disagreements,
                  "library": "bcdp.bayesian.ldp_rate (no_demand_allocation, remark_ratio, ratio_envelope, "
                             "small_eps_supremum, gap_to_ldp_rate); bcdp.bayesian.allocation.allocate_budgets; "
                             "bcdp.bayesian.mmean_utility.uniform_projected_lower_bound"},
    )
