"""Thesis (3.10)-(3.11): the MSE bound d^2 (1/s - 1/d + s/v^2) of R^Bin holds for the padded dimension, not the input d.

Printed (thesis Sec. 3.3.1, proof of Thm 3.3.1): "For ease of analysis, we assume ... that d/s is
integer, otherwise, we can add dummy s ceil(d/s) - d zeros"; (3.10) then bounds the per-client MSE
by d^2 (1/s - 1/d + s/v^2) and (3.11) the MSE by (d^2/n)(1/s - 1/d + s/eps0^2).  With the padding
the dimension in the bound is s ceil(d/s), not d: read with the input dimension d, the bound
fails for b = 1_d whenever s does not divide d, even for the MSE over the d real coordinates, which
is d a p(1-p)/(1-2p)^2 + (a-1)||b||^2 with a = ceil(d/s).  Counterexample: d = 3, s = 2, v = 3
(v/s = 3/2, p = 1/5): MSE = 17/3 > 7/2 = 9 (1/2 - 1/3 + 2/9).  Corrected: the bound with
s ceil(d/s) in place of d (checked here for every input), and the O(.) statement (3.2) is
unaffected (s ceil(d/s) < d + s <= 2d).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import binary_vector as bv

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-eq3.10-padding",
    paper="thesis",
    group="dme",
    where="eqs. (3.10)-(3.11), proof of Thm 3.3.1, Sec. 3.3.1",
    statement="Per-client MSE of R^Bin <= d^2(1/s - 1/d + s/v^2): false with the input d when s does not divide d; "
              "true with the padded dimension s ceil(d/s).",
    expected="erratum",
    erratum="E-Thesis-3.10-padding",
    also_checked_in=("`tests/dme/test_dme_binary_vector.py`",),
)

MESSAGE_BUDGETS = (Fraction(3, 2), Fraction(5, 6))   # v/s with rational p: 1/5 and 4/13


def printed_bound(d: int, s: int, v: Fraction) -> Fraction:
    return Fraction(d * d) * (Fraction(1, s) - Fraction(1, d) + s / (v * v))


def check() -> ClaimResult:
    printed_fail: list = []
    corrected_fail: list = []
    printed_count = cases = 0
    for per_msg in MESSAGE_BUDGETS:
        for d in range(2, 7):
            for s in range(2, d):
                if d % s == 0:
                    continue
                cases += 1
                v = s * per_msg
                params = bv.binary_vector_params(d, s, v=v)
                a = -(-d // s)
                ones = (1,) * d
                mse_real = bv.client_mse(ones, params)
                mse_pad = bv.client_mse(ones, params, truncate=False)
                if mse_real > printed_bound(d, s, v):
                    printed_count += 1
                    keep(printed_fail, {"d": d, "s": s, "v": str(v), "p": str(params.p), "a": a,
                                        "mse_real_coordinates": str(mse_real), "mse_padded": str(mse_pad),
                                        "printed_bound_input_d": str(printed_bound(d, s, v)),
                                        "bound_padded_dim": str(printed_bound(s * a, s, v))})
                inputs = itertools.product((0, 1), repeat=d) if d <= 4 else [ones, (1, 0) * (d // 2) + (1,) * (d % 2)]
                for b in inputs:
                    if bv.client_mse(b, params, truncate=False) > printed_bound(s * a, s, v):
                        keep(corrected_fail, {"d": d, "s": s, "b": b})
    if corrected_fail:
        verdict = "refuted"
    elif printed_count:
        verdict = "erratum"
    else:
        verdict = "confirmed"
    first = printed_fail[0] if printed_fail else {}
    example = (f" (d = {first['d']}, s = {first['s']}, v = {first['v']}: MSE {first['mse_real_coordinates']} > "
               f"{first['printed_bound_input_d']})" if first else "")
    return CLAIM.result(
        verdict=verdict,
        key_figure=f"printed bound with input d fails in {printed_count}/{cases} cases with s not dividing d"
                   f"{example}; padded-dimension bound fails in {len(corrected_fail)}",
        evidence={"printed_failures": printed_fail, "corrected_failures": corrected_fail,
                  "correction": "replace d by s*ceil(d/s) in (3.10)-(3.11); (3.2) unchanged",
                  "library": "bcdp.dme.binary_vector (binary_vector_params, client_mse)"},
    )
