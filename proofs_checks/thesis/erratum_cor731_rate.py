"""Thesis Cor 7.3.1 (7.11), case R < H2: the minimax l2^2 risk is Theta(k/(n p_R^2 eps^2)) -- false; the
Hadamard response (HR) achieves O(k/(n p_R eps^2)).

For q = p_R = 2^-m (R = H2(2^-m) bits, below the threshold for m >= 2 at eps = log E), the library's exact
HR worst case (:func:`bcdp.randomness.hadamard.worst_case_risk`) is compared with the oracle written here
(risk at the point mass from (7.29), KKT certificate, :mod:`._hr_common`): it equals 4 E^2 K (1-p)/(n p (E-1)^2),
so r(p/2)/r(p) = 2 (1 - p/2)/(1 - p) -> 2, not the 4 of a 1/p_R^2 law, and (n p_R^2 / k) r -> 0: no
constant c > 0 has r_minimax >= c k/(n p_R^2 eps^2) for all small p_R (the Omega half of Theta is false;
the O half is true but loose).  Root cause: Lemma 7.3.2's second case (E-Thesis-Lemma7.3.2).
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import hadamard

from .._common import keep
from ._hr_common import is_global_max, pow2_at_least, risk_oracle

CLAIM = ClaimSpec(
    id="THESIS-Cor7.3.1",
    paper="thesis",
    group="randomness",
    where="Cor 7.3.1, Sec. 7.3, eq. (7.11) (from Thms 7.3.1 and 7.3.2)",
    statement="For eps = O(1): r^{l2^2}_{eps,R,n,k} = Theta(k/(n eps^2)) if R >= H2(e^eps/(e^eps+1)) and "
              "Theta(k/(n p_R^2 eps^2)) if R < H2(e^eps/(e^eps+1)); r^{l1} = sqrt(k r^{l2^2}).",
    expected="erratum",
    erratum="E-Thesis-Thm7.3.1-Cor7.3.1",
    also_checked_in=("`proofs_checks/thesis/cor731_corrected_upper.py`",),
)

E = Fraction(2718, 1000)
MS = tuple(range(2, 31, 2))


def hr_sequence(k: int, n: int, e: Fraction = E) -> list[dict]:
    """HR worst case at q = 2^-m: the library value, checked against the oracle (risk at the maximiser, KKT)."""
    out = []
    for m in MS:
        p = Fraction(1, 2 ** m)
        wc = hadamard.worst_case_risk(k, n, p, e)
        star = tuple(wc.witness)
        ok = wc.exact == risk_oracle(star, n, p, e) and is_global_max(star, p, e)
        out.append({"m": m, "p": p, "risk": wc.exact, "ok": ok})
    return out


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    for k in (4, 5, 100):
        big_k = pow2_at_least(k)
        n = 10 ** 6 * big_k
        seq = hr_sequence(k, n)
        for a, b in zip(seq, seq[1:]):
            # halving p twice (m -> m + 2): a 1/p law multiplies the risk by ~4, a 1/p^2 law by ~16
            ratio = b["risk"] / a["risk"]
            oracle = 4 * (1 - b["p"]) / (1 - a["p"])
            if not (a["ok"] and b["ok"] and ratio == oracle):
                keep(fails, {"k": k, "m": a["m"], "ratio": str(ratio), "oracle": str(oracle)})
        last = seq[-1]
        normalised = n * last["p"] ** 2 * (E - 1) ** 2 * last["risk"] / (k * E ** 2)
        rows.append({"k": k, "K": big_k, "n": n,
                     "risk_ratio_m28_to_m30 (4 for a 1/p law, 16 for 1/p^2)": float(seq[-1]["risk"] / seq[-2]["risk"]),
                     "n p_R^2 (E-1)^2 r/(k E^2) at p_R=2^-2": float(n * seq[0]["p"] ** 2 * (E - 1) ** 2 * seq[0]["risk"]
                                                                   / (k * E ** 2)),
                     "n p_R^2 (E-1)^2 r/(k E^2) at p_R=2^-30": float(normalised)})
        if not normalised < Fraction(1, 10 ** 7):
            keep(fails, {"k": k, "normalised": str(normalised)})
    ok = not fails
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=("HR worst case at q = p_R: r(p_R/2)/r(p_R) = 2(1-p_R/2)/(1-p_R) -> 2 (not 4); "
                    f"n p_R^2 eps-scaled risk/k = {rows[0]['n p_R^2 (E-1)^2 r/(k E^2) at p_R=2^-30']:.3e} at p_R = 2^-30 "
                    "(-> 0): the 1/p_R^2 rate is false, the true HR rate is 1/p_R" if ok else f"{len(fails)} failures"),
        evidence={"E": str(E), "p_R": "2^-m, m = 2, 4, ..., 30", "rows": rows, "failures": fails,
                  "corrected": "r^{l2^2} <= 8 k E^2/(n p_R (E-1)^2) for R < H2 (THESIS-Cor7.3.1-corrected); the matching "
                               "lower order 1/p_R is the corrected Lemma 7.3.2 (E-Thesis-Lemma7.3.2)",
                  "library": "bcdp.randomness.hadamard (worst_case_risk)"},
    )
