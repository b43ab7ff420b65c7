"""Thesis Lemma 3.3.2 ([FMT23, Cor 4.3]), eq. (3.6): shuffled eps0-LDP messages are (alpha, 48 alpha (e^eps0-1)^2/(n e^eps0))-RDP.

Decided on the certified exact RDP of shuffled binary randomized response (the 2RR messages the thesis
applies the lemma to in Thms 3.3.2 and 3.5.2), the supremum over *every* neighbouring pair and both
directions (:func:`bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball`, arb balls), at every order the
lemma allows, alpha <= n/(16 eps0 e^eps0).  The bound is evaluated through the library's calibration
(:func:`bcdp.dme.calibration.shuffled_rho` at s = 1 times alpha, and its order cap
:func:`bcdp.dme.calibration.lemma332_alpha_max`), with v^2 = (e^eps0 - 1)^2/e^eps0 = 4 sinh(eps0/2)^2, the
2RR budget of Lemma 2.4.1 whose message level is exactly eps0; the oracle is the printed (3.6) in
50-digit mpmath.  Finding: the lemma holds everywhere on the grid and is loose by a factor of about 95
(the exact slope is close to (e^eps0 - 1)^2/(2 n e^eps0)).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import calibration as cal
from bcdp.shuffle import rr_all_pairs

CLAIM = ClaimSpec(
    id="THESIS-Lemma3.3.2",
    paper="thesis",
    group="dme",
    where="Lemma 3.3.2, eq. (3.6), Sec. 3.3 ([FMT23, Cor 4.3]); used in (3.7) and (3.29)",
    statement="For alpha <= n/(16 eps0 e^eps0), shuffling n messages of an eps0-LDP randomizer is "
              "(alpha, 48 alpha (e^eps0 - 1)^2/(n e^eps0))-RDP (checked for 2RR, the messages of Thms 3.3.2, 3.5.2).",
    expected="confirmed",
    also_checked_in=("`tests/dme/test_dme_lemma332.py`",),
)

GRID_N = (10, 50, 200)
GRID_EPS0 = (Fraction(1, 10), Fraction(1, 2), Fraction(1))
DPS = 50


def _printed_bound(n: int, eps0: Fraction, alpha: int) -> mpmath.mpf:
    """48 alpha (e^eps0 - 1)^2/(n e^eps0), the printed (3.6), evaluated here as the oracle."""
    E = mpmath.exp(mpmath.mpf(eps0.numerator) / eps0.denominator)
    return 48 * alpha * (E - 1) ** 2 / (n * E)


def _orders(n: int, eps0: Fraction) -> list[int]:
    """The integer orders 2..floor(alpha_max) of the lemma, thinned to the two ends and the middle."""
    e = mpmath.mpf(eps0.numerator) / eps0.denominator
    top = int(mpmath.floor(n / (16 * e * mpmath.exp(e))))
    return sorted({a for a in (2, (2 + top) // 2, top) if 2 <= a <= top})


def check() -> ClaimResult:
    instances, violations, cap_mismatch, bound_mismatch = 0, [], [], []
    worst_ratio = None
    with mpmath.workdps(DPS):
        for n in GRID_N:
            for eps0 in GRID_EPS0:
                e_sym = sympy.Rational(eps0.numerator, eps0.denominator)
                v2 = 4 * sympy.sinh(e_sym / 2) ** 2              # (e^eps0 - 1)^2 / e^eps0
                e = mpmath.mpf(eps0.numerator) / eps0.denominator
                cap_lib = cal.num(cal.lemma332_alpha_max(v2, 1, n))
                cap_oracle = n / (16 * e * mpmath.exp(e))
                if abs(cap_lib - cap_oracle) > mpmath.mpf(10) ** -40 * cap_oracle:
                    cap_mismatch.append((n, str(eps0), mpmath.nstr(cap_lib, 12), mpmath.nstr(cap_oracle, 12)))
                rho = cal.num(cal.shuffled_rho(v2, 1, n))
                for alpha in _orders(n, eps0):
                    instances += 1
                    oracle = _printed_bound(n, eps0, alpha)
                    bound = alpha * rho
                    if abs(bound - oracle) > mpmath.mpf(10) ** -40 * oracle:
                        bound_mismatch.append((n, str(eps0), alpha, mpmath.nstr(bound, 12), mpmath.nstr(oracle, 12)))
                    ball = rr_all_pairs.rr_worst_pair_rdp_ball(n, eps0, alpha)
                    upper = mpmath.mpf(ball.mid()) + mpmath.mpf(ball.rad())
                    if not upper < bound:
                        violations.append((n, str(eps0), alpha, mpmath.nstr(upper, 12), mpmath.nstr(bound, 12)))
                    ratio = bound / upper
                    if worst_ratio is None or ratio < worst_ratio[0]:
                        worst_ratio = (ratio, n, str(eps0), alpha)
    ok = instances > 0 and not violations and not cap_mismatch and not bound_mismatch
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{instances} (n, eps0, alpha) instances, {len(violations)} violations; smallest "
                   f"bound/exact = {mpmath.nstr(worst_ratio[0], 5)} at n={worst_ratio[1]}, eps0={worst_ratio[2]}, "
                   f"alpha={worst_ratio[3]}",
        evidence={
            "instances": instances,
            "violations": violations[:10],
            "order_cap_mismatches": cap_mismatch,
            "bound_mismatches": bound_mismatch[:10],
            "smallest_bound_over_exact": mpmath.nstr(worst_ratio[0], 12),
            "grid": {"n": list(GRID_N), "eps0": [str(e) for e in GRID_EPS0],
                     "orders": "2, the middle and floor(n/(16 eps0 e^eps0))"},
            "exact": "certified sup over every neighbouring pair of shuffled 2RR (arb balls), "
                     "bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball",
            "library": "bcdp.dme.calibration.shuffled_rho (s = 1) and lemma332_alpha_max at v^2 = 4 sinh(eps0/2)^2",
        },
    )
