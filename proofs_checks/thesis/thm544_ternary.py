"""Thesis Thm 5.4.4 (5.43) and Thm 5.4.6: ternary |chi|^lambda divergence of the shuffle.

For three datasets of k records that differ only in the last record (D, D', D''), the exact
ternary moment E_{M(D'')}|(M(D) - M(D'))/M(D'')|^lambda = sum_h |P(h) - Q(h)|^lambda / R(h)^{lambda-1}
(exact Fractions from the oracle's laws, integer lambda) must be <= (5.43) (k >= 2, eps0 > 0);
for the special triples of Thm 5.4.6 (all other records equal to d'') it must be <= the
Thm 5.4.6 bound on m = k records.  Seeded random 3-input eps0-LDP kernels (B = 2, 3, 4) and
3-RR, k = 2..7, lambda in {2, 3, 4, 6}; the maximum over every triple of last values is taken.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import exact_api, s
from ._shuffle_instances import eps0_of

CLAIM = ClaimSpec(
    id="THESIS-Thm5.4.4",
    paper="thesis",
    group="subsampled",
    where="Thm 5.4.4, eq. (5.43), Sec. 5.4.1; Thm 5.4.6, Sec. 5.4.2",
    statement="Ternary |chi|^lambda moments (max over all triples of last values, exact) <= (5.43); special "
              "triples <= Thm 5.4.6 (56 cases).",
    expected="confirmed",
)

SEED = 5344


def ternary_moment(P: dict, Q: dict, R: dict, lam: int) -> Fraction:
    out = Fraction(0)
    for h in set(P) | set(Q):
        d = abs(P.get(h, Fraction(0)) - Q.get(h, Fraction(0)))
        if d == 0:
            continue
        r = R.get(h, Fraction(0))
        if r == 0:
            raise ZeroDivisionError("R has no mass where P or Q has")
        out += d ** lam / r ** (lam - 1)
    return out


def check() -> ClaimResult:
    se = exact_api()
    rng = np.random.default_rng(SEED)
    viol543: list = []
    viol546: list = []
    count = 0
    min_ratio = None
    with mpmath.workdps(60):
        for t in range(14):
            E = (Fraction(3, 2), Fraction(2), Fraction(4))[t % 3]
            e = eps0_of(E)
            kernel = se.kary_rr_kernel(3, exp_eps0=E) if t % 7 == 0 else \
                se.random_ldp_kernel(rng, 3, exp_eps0=E, n_outputs=2 + t % 3)
            k = 2 + t % 6
            others = tuple(int(x) for x in rng.integers(0, 3, size=k - 1))
            laws = {x: se.shuffled_law(kernel, others + (x,)) for x in range(3)}
            special = {}
            for z in range(3):  # D'' last value z; special triple: all others = z
                special[z] = {x: se.shuffled_law(kernel, (z,) * (k - 1) + (x,)) for x in range(3)}
            for lam in (2, 3, 4, 6):
                worst = Fraction(0)
                worst_sp = Fraction(0)
                for x in range(3):
                    for y in range(3):
                        for z in range(3):
                            if x == y:
                                continue
                            worst = max(worst, ternary_moment(laws[x], laws[y], laws[z], lam))
                            worst_sp = max(worst_sp, ternary_moment(special[z][x], special[z][y], special[z][z], lam))
                count += 1
                wm = mpmath.mpf(worst.numerator) / worst.denominator
                wsp = mpmath.mpf(worst_sp.numerator) / worst_sp.denominator
                b543 = sb.thm544_ternary(k, e, lam)
                b546 = sb.thm546_ternary_special_case(k, e, lam)
                rec = {"E": str(E), "k": k, "lambda": lam, "others": list(others)}
                if wm > b543:
                    keep(viol543, {**rec, "exact": s(wm), "(5.43)": s(b543)})
                if wsp > b546:
                    keep(viol546, {**rec, "exact_special": s(wsp), "Thm 5.4.6": s(b546)})
                if wm > 0 and (min_ratio is None or b543 / wm < min_ratio[0]):
                    min_ratio = (b543 / wm, rec)
        try:
            sb.thm544_ternary(1, 1, 2)
            cond = False
        except sb.ValidityConditionError:
            cond = True
    ok = not viol543 and not viol546 and cond
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} (kernel, k, lambda) cases, max over all triples of last values: {len(viol543)} above "
                   f"(5.43), {len(viol546)} special-case violations; min (5.43)/exact {s(min_ratio[0], 4)}",
        evidence={"cases": count, "seed": SEED, "violations_5.43": viol543, "violations_thm546": viol546,
                  "min_ratio": {**min_ratio[1], "ratio": s(min_ratio[0], 6)}, "k_lt_2_refused": cond},
    )
