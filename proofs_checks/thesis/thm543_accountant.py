"""Thesis Thm 5.4.3, eq. (5.41): the RDP accountant of CLDP-SGD, :func:`bcdp.shuffle.cldp_rdp.thm543_epsilon`.

Oracle written here from the printed statements: Thm 5.4.1's bound (mpmath, 50 digits) at the integer
orders 2..64, T eps(alpha) (Lemma 2.1.4), then (5.41) minimised over those orders.  The library (same
orders) must be >= the oracle and within 1e-9 of it.  It must be >= the same accountant run on Thm
5.4.2's lower bound (the best the RDP route can give), and increase with T, with eps0 and as delta
decreases.
"""

from __future__ import annotations

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import cldp_rdp

from .._common import keep, verdict
from ._shuffle_common import s

CLAIM = ClaimSpec(
    id="THESIS-Thm5.4.3",
    paper="thesis",
    group="fl",
    where="Thm 5.4.3 (privacy, eq. (5.41)), Sec. 5.4; Thm 5.4.1; Thm 5.4.2; Lemma 2.1.3; Lemma 2.1.4",
    statement="CLDP-SGD (k of n clients, eps0-LDP, shuffled) is (eps, delta)-DP after T rounds with eps = min_alpha "
              "T eps(alpha) + [log(1/delta) + (alpha-1) log(1-1/alpha) - log alpha]/(alpha-1), eps(alpha) of Thm 5.4.1. "
              "The library equals the printed formula (oracle at 50 digits, integer alpha 2..64), is >= the same "
              "accountant on Thm 5.4.2's lower bound, and is monotone in T, eps0 and delta.",
    expected="confirmed",
    also_checked_in=("`tests/shuffle/test_shuffle_cldp_rdp.py`", "`bcdp.repro.fl_figures` (Fig 5.7)"),
)

ORDERS = tuple(range(2, 65))
LOWER_ORDERS = tuple(range(2, 33))
# (n, k, eps0, T, delta)
CASES = ((60000, 10000, 1.5, 6, 1e-5), (60000, 10000, 1.5, 216, 1e-5), (60000, 10000, 1.5, 1068, 1e-5),
         (1000, 100, 0.5, 100, 1e-6), (10 ** 5, 1000, 2.0, 1000, 1e-8))
REL_TOL = mpmath.mpf(10) ** -9


def _thm541(n, k, eps0, a):
    E = mpmath.exp(mpmath.mpf(eps0))
    g = mpmath.mpf(k) / n
    kb = mpmath.floor((k - 1) / (2 * E)) + 1
    c = (E ** 2 - 1) / E
    x = 4 * mpmath.binomial(a, 2) * g ** 2 * (E - 1) ** 2 / (kb * E)
    for j in range(3, a + 1):
        x += mpmath.binomial(a, j) * g ** j * j * mpmath.gamma(mpmath.mpf(j) / 2) * (2 * (E ** 2 - 1) ** 2 / (kb * E ** 2)) ** (mpmath.mpf(j) / 2)
    x += ((1 + g * c) ** a - 1 - a * g * c) * mpmath.exp(-(k - 1) / (8 * E))
    return mpmath.log(1 + x) / (a - 1)


def _oracle(n, k, eps0, T, delta):
    d = mpmath.mpf(delta)
    return min(T * _thm541(n, k, eps0, a) + (mpmath.log(1 / d) + (a - 1) * mpmath.log(1 - mpmath.mpf(1) / a)
                                             - mpmath.log(a)) / (a - 1) for a in ORDERS)


def check() -> ClaimResult:
    rows, fails = [], []
    with mpmath.workdps(50):
        for n, k, eps0, T, delta in CASES:
            lib = cldp_rdp.thm543_epsilon(n, k, eps0, T, delta, orders=ORDERS)
            ora = _oracle(n, k, eps0, T, delta)
            row = {"n": n, "k": k, "eps0": eps0, "T": T, "delta": s(delta), "library": s(lib.upper),
                   "alpha_star": s(lib.alpha_star), "printed_formula": s(ora)}
            ok = mpmath.mpf(lib.upper) >= ora and abs(mpmath.mpf(lib.upper) / ora - 1) < REL_TOL
            if T in (6, 216, 100):          # the lower-bound route (slower: Thm 5.4.2's binomial moments)
                low = cldp_rdp.thm543_epsilon(n, k, eps0, T, delta, bound="thm542", orders=LOWER_ORDERS)
                row["with_thm542_lower"] = s(low.upper)
                row["ratio_upper_over_lower"] = s(mpmath.mpf(lib.upper) / low.upper, 4)
                ok = ok and lib.upper >= low.upper
            rows.append(row)
            if not ok:
                keep(fails, row)
        mono = []
        n, k = 60000, 10000
        f = cldp_rdp.thm543_epsilon
        t_vals = [f(n, k, 1.5, T, 1e-5, orders=ORDERS).upper for T in (1, 6, 60, 600, 6000)]
        d_vals = [f(n, k, 1.5, 600, d, orders=ORDERS).upper for d in (1e-2, 1e-5, 1e-8, 1e-12)]
        e_vals = [f(n, k, e, 600, 1e-5, orders=ORDERS).upper for e in (0.25, 0.5, 1.0, 1.5, 2.0, 3.0)]
        for name, vals in (("T", t_vals), ("delta (decreasing)", d_vals), ("eps0", e_vals)):
            if any(b <= a for a, b in zip(vals, vals[1:])):
                mono.append({"in": name, "values": [s(v) for v in vals]})
    ok = not fails and not mono
    return CLAIM.result(
        verdict=verdict(ok),
        key_figure=f"{len(CASES)} settings vs the printed (5.41) o Thm 5.4.1 at 50 digits: {len(fails)} failures; "
                   f"upper/lower-route ratio {rows[1].get('ratio_upper_over_lower')} at n = 6e4, k = 1e4, eps0 = 1.5, "
                   f"T = 216; monotone in T, delta, eps0: {not mono}",
        evidence={"cases": rows, "failures": fails, "monotonicity_failures": mono,
                  "T_grid_eps": [s(v, 6) for v in t_vals], "delta_grid_eps": [s(v, 6) for v in d_vals],
                  "eps0_grid_eps": [s(v, 6) for v in e_vals],
                  "library": "bcdp.shuffle.cldp_rdp.thm543_epsilon"},
    )
