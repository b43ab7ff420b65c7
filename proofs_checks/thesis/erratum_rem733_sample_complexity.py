"""Thesis Remark 7.3.3 (7.12): sample complexity n = Theta(k/(alpha p_R^2 eps^2)) for R < H2 -- false: the
Hadamard response (HR) reaches worst-case l2^2 error alpha with n = O(k/(alpha p_R eps^2)) users.

For q = p_R = 2^-m the smallest multiple of K users with HR worst-case risk <= alpha is K ceil(r_1/alpha), r_1
the exact worst case with one user per group (library :func:`bcdp.randomness.hadamard.worst_case_risk`, the
risk is exactly proportional to 1/m for m users per group; oracle from (7.29), :mod:`._hr_common`).  It grows
like 1/p_R (ratio per halving -> 2), and n_HR p_R^2 -> 0, so no c > 0 has n >= c k/(alpha p_R^2 eps^2).
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import hadamard

from .._common import keep
from ._hr_common import is_global_max, risk_oracle

CLAIM = ClaimSpec(
    id="THESIS-Remark7.3.3",
    paper="thesis",
    group="randomness",
    where="Remark 7.3.3, Sec. 7.3, eq. (7.12)",
    statement="The number of users needed for estimation error at most alpha is n = Theta(k/(alpha eps^2)) if "
              "R >= H2(e^eps/(e^eps+1)) and Theta(k/(alpha p_R^2 eps^2)) if R < H2(e^eps/(e^eps+1)).",
    expected="erratum",
    erratum="E-Thesis-Thm7.3.1-Cor7.3.1",
)

E, K, ALPHA = Fraction(2718, 1000), 8, Fraction(1, 100)


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    for m in range(4, 25, 4):
        p = Fraction(1, 2 ** m)
        wc = hadamard.worst_case_risk(K, K, p, E)
        star = tuple(wc.witness)
        if not (wc.exact == risk_oracle(star, K, p, E) and is_global_max(star, p, E)):
            keep(fails, {"m": m, "what": "oracle"})
            continue
        groups = -((-wc.exact) // ALPHA)
        n_hr = K * int(groups)
        check_n = hadamard.worst_case_risk(K, n_hr, p, E).exact <= ALPHA < hadamard.worst_case_risk(
            K, n_hr - K, p, E).exact if n_hr > K else True
        if not check_n:
            keep(fails, {"m": m, "what": "minimal n"})
        rows.append({"p_R": f"2^-{m}", "n_HR": n_hr, "n_HR * p_R": float(n_hr * p), "n_HR * p_R^2": float(n_hr * p * p)})
    growth = [rows[i + 1]["n_HR"] / rows[i]["n_HR"] for i in range(len(rows) - 1)]
    ok = not fails and rows[-1]["n_HR * p_R^2"] < 1e-3 and abs(growth[-1] - 16) < 0.01
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=(f"k = K = 8, alpha = 1/100, E = 2.718: n_HR grows by {growth[-1]:.3f} per 16-fold decrease of p_R "
                    f"(a 1/p_R^2 law: 256); n_HR p_R^2 = {rows[-1]['n_HR * p_R^2']:.2e} at p_R = 2^-24 (-> 0)"
                    if ok else f"{len(fails)} failures"),
        evidence={"rows": rows, "growth_per_16x": growth, "failures": fails,
                  "corrected": "n = O(k/(alpha p_R eps^2)) for R < H2 (HR); see THESIS-Cor7.3.1-corrected",
                  "library": "bcdp.randomness.hadamard (worst_case_risk)"},
    )
