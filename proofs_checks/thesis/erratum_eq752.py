"""Thesis (7.52), second case: log(e^eps + k - 1) - eps e^eps/(e^eps + k - 1) for eps > log k is NOT a lower bound on
H_min(U) = H(U^{s*}_min).

It is the entropy at s = 1, but for eps slightly above log k the real minimiser s~ of (7.48) is still above 1.5
and s* = 2 has less entropy: at k = 10, eps = 5/2 (> log 10 = 2.3026), s~ = 1.541, s* = 2 and
H_min = 1.59503 < printed 1.61537 nats; at k = 1000, eps = 8, s~ = 2.350, H_min = 1.99506 < 2.29709.  The check
compares the library's :func:`bcdp.randomness.recoverability_bounds.lower_bound_752` (reading "printed") with the
printed formula at 50 digits (written here) and with keys.min_two_level_entropy (certified), and counts the
violations on eps in (log k, log k + 3] (step 1/4) for k in {5, 10, 100, 1000}.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import keys
from bcdp.randomness import recoverability_bounds as rb

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Eq7.52",
    paper="thesis",
    group="recoverability",
    where="eq. (7.52), Sec. 7.5.2 (second case, eps > log k)",
    statement="H_min(U) >= log(e^eps + k - 1) - eps e^eps/(e^eps + k - 1) if eps > log k (and the s~-value if "
              "eps <= log k).",
    expected="erratum",
    erratum="E-Thesis-Eq7.52",
    also_checked_in=("`proofs_checks/thesis/eq752_corrected.py`",),
)


def _mp(x: Fraction):
    return mpmath.mpf(x.numerator) / x.denominator


def _printed(k: int, eps: Fraction):
    e, ep = mpmath.exp(_mp(eps)), _mp(eps)
    if ep <= mpmath.log(k):
        return mpmath.log(k * ep * e / (e - 1)) - ep * e / (e + (e - 1) ** 2 / (e * (ep - 1) + 1) - 1)
    return mpmath.log(e + k - 1) - ep * e / (e + k - 1)


def check() -> ClaimResult:
    fails: list = []
    violations = []
    points = 0
    with mpmath.workdps(50):
        for k in (5, 10, 100, 1000):
            start = math.ceil(math.log(k) * 4) / 4
            for j in range(13):
                eps = Fraction(start) + Fraction(j, 4)
                if eps <= Fraction(math.log(k)):
                    continue
                points += 1
                lib = rb.lower_bound_752(k, eps, reading="printed")
                ref = _printed(k, eps)
                if not (_mp(lib.lower) - mpmath.mpf(10) ** -40 <= ref <= _mp(lib.upper) + mpmath.mpf(10) ** -40):
                    keep(fails, {"what": "library vs printed (7.52)", "k": k, "eps": str(eps)})
                hmin = keys.min_two_level_entropy(k, eps)
                if hmin.upper < lib.lower:
                    violations.append({"k": k, "eps": str(eps), "s_star": list(hmin.argmin),
                                       "s_tilde": f"{float(rb.stationary_point(k, eps).lower):.4f}",
                                       "H_min": f"{float(hmin.upper):.6f}", "printed_752": f"{float(lib.lower):.6f}"})
    named = {(v["k"], v["eps"]) for v in violations}
    ok = not fails and (10, "5/2") in named and (1000, "8") in named
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=f"printed (7.52) exceeds the certified H_min at {len(violations)}/{points} points with eps > log k; "
                   f"k = 10, eps = 5/2: H_min = 1.59503 < 1.61537; k = 1000, eps = 8: 1.99506 < 2.29709 (nats)",
        evidence={"violations": violations, "points": points, "failures": fails,
                  "corrected": "use the first case (the value at the real minimiser s~ of (7.48)) for every eps > 0, or "
                               "the second case only when s~ <= 1 (then s* = 1 and it is exact): THESIS-Eq7.52-corrected",
                  "library": "bcdp.randomness.recoverability_bounds.lower_bound_752, bcdp.randomness.keys.min_two_level_entropy"},
    )
