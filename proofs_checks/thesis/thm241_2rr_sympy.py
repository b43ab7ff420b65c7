"""Thesis Thm 2.4.1 (App. A.2, (A.3)-(A.5)) derived in sympy: 2RR is unbiased, MSE (2.5), RDP (3.4) = D_a(Ber(1-p)||Ber(p)).

Printed (thesis Sec. 2.4, proof App. A.2): for p in [0, 1/2), the 2RR output y of Alg 2.2.1 satisfies
E[y] = b (A.3), E[(y - b)^2] = p(1-p)/(1-2p)^2 (A.4) = (2.5) for b in {0, 1}, and the RDP is
eps(a) = log(p^a (1-p)^{1-a} + p^{1-a} (1-p)^a)/(a - 1) ((A.5) = (3.4)).
Derived here with a symbolic p (and symbolic b): the law of Alg 2.2.1 gives E[y] - b = 0 identically;
each line of (A.4) is an identity, the last one needs b^2 = b (b a bit; for other b the MSE is not
(2.5)); the definition of D_a (2.1) applied to the laws of 2RR on b = 0 and b = 1 gives (A.5) for a
symbolic a, and the same for the reverse pair.  Library (evaluated at p in {1/10, 1/5, 1/4, 1/3, 9/20},
orders 2..6 and 3/2, 5/2): the laws, mean and MSE of :mod:`bcdp.dme.two_rr` equal the sympy expressions
exactly; :func:`bcdp.accounting.curves.randomized_response_rdp` (certified ball) and
:func:`bcdp.core.divergences.renyi_divergence` of the two 2RR laws contain / equal (A.5) at 50 digits.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy
from bcdp.accounting import curves
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core import divergences
from bcdp.core.intervals import arb_precision, ball_ends_mpf
from bcdp.dme import two_rr

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Thm2.4.1-sympy",
    paper="thesis",
    group="background",
    where="Thm 2.4.1, eq. (2.5), Sec. 2.4; proof App. A.2, (A.3)-(A.5); eq. (3.4), Sec. 3.3",
    statement="For symbolic p: 2RR (Alg 2.2.1) is unbiased, its MSE is p(1-p)/(1-2p)^2 for b in {0, 1} (each line "
              "of (A.4)), and its RDP (A.5) = (3.4) is D_a(Ber(1-p)||Ber(p)).",
    expected="confirmed",
    also_checked_in=("`proofs_checks/thesis/lemma241_2rr.py` (rational p, Lemma 2.4.1)",),
)

PS = (Fraction(1, 10), Fraction(1, 5), Fraction(1, 4), Fraction(1, 3), Fraction(9, 20))
ORDERS = (Fraction(3, 2), 2, Fraction(5, 2), 3, 4, 5, 6)


def _derivations() -> dict:
    p = sympy.Symbol("p", positive=True)
    b = sympy.Symbol("b", real=True)
    a = sympy.Symbol("alpha", positive=True)
    keep_v, flip_v = (b - p) / (1 - 2 * p), (1 - b - p) / (1 - 2 * p)        # Alg 2.2.1 lines 5 and 7
    mean = (1 - p) * keep_v + p * flip_v
    mse = (1 - p) * (keep_v - b) ** 2 + p * (flip_v - b) ** 2
    second = (1 - p) * keep_v ** 2 + p * flip_v ** 2
    printed = p * (1 - p) / (1 - 2 * p) ** 2
    steps = {
        "(A.3) E[y] = b": sympy.simplify(mean - b) == 0,
        "(A.4) E[(y-b)^2] = E[y^2] - b^2": sympy.simplify(mse - (second - b ** 2)) == 0,
        "(A.4) (b-p)^2(1-p) + (1-b-p)^2 p = b^2 - 4p(1-p)b + p(1-p)":
            sympy.expand((b - p) ** 2 * (1 - p) + (1 - b - p) ** 2 * p - (b ** 2 - 4 * p * (1 - p) * b + p * (1 - p))) == 0,
        "(A.4) [...]/(1-2p)^2 - b^2 = [4p(1-p) b^2 - 4p(1-p) b + p(1-p)]/(1-2p)^2":
            sympy.simplify((b ** 2 - 4 * p * (1 - p) * b + p * (1 - p)) / (1 - 2 * p) ** 2 - b ** 2
                           - (4 * p * (1 - p) * b ** 2 - 4 * p * (1 - p) * b + p * (1 - p)) / (1 - 2 * p) ** 2) == 0,
        "(2.5) for b = 0": sympy.simplify(mse.subs(b, 0) - printed) == 0,
        "(2.5) for b = 1": sympy.simplify(mse.subs(b, 1) - printed) == 0,
        "(2.5) fails for b = 1/2 (needs b^2 = b)": sympy.simplify(mse.subs(b, sympy.Rational(1, 2)) - printed) != 0,
    }
    # RDP: laws of the report bit (index 0 = 'b = 0 side'), D_a(P||Q) = log E_Q[(P/Q)^a]/(a-1), (2.1)
    u = sympy.Symbol("u", positive=True)                        # u = 1 - p > 0 (p < 1/2)
    P, Q = (u, p), (p, u)
    a55u = p ** a * u ** (1 - a) + p ** (1 - a) * u ** a
    for name, (X, Y) in {"D_a(R(0)||R(1))": (P, Q), "D_a(R(1)||R(0))": (Q, P)}.items():
        moment = sum(y * (x / y) ** a for x, y in zip(X, Y))
        diff = sympy.simplify(sympy.powsimp(sympy.expand_power_base(moment - a55u, force=True), force=True))
        steps[f"(A.5) = {name} (symbolic alpha)"] = diff == 0
    a55 = a55u.subs(u, 1 - p)
    return {"steps": steps, "p": p, "b": b, "alpha": a, "mean": mean, "mse": mse, "a55": a55}


def check() -> ClaimResult:
    fails: list = []
    d = _derivations()
    for name, ok in d["steps"].items():
        if not ok:
            keep(fails, {"step": name})
    p, b, a = d["p"], d["b"], d["alpha"]
    lib_points = 0
    for q in PS:
        sq = sympy.Rational(q.numerator, q.denominator)
        for bit in (0, 1):
            lib_points += 1
            law = two_rr.two_rr_law(bit, q)
            want_law = {Fraction(str(sympy.simplify(((bit - sq) / (1 - 2 * sq))))): 1 - q,
                        Fraction(str(sympy.simplify((1 - bit - sq) / (1 - 2 * sq)))): q}
            mean = Fraction(str(d["mean"].subs({p: sq, b: bit})))
            mse = Fraction(str(sympy.simplify(d["mse"].subs({p: sq, b: bit}))))
            if law != want_law or two_rr.two_rr_mean(bit, q) != mean or two_rr.two_rr_mse(bit, q) != mse:
                keep(fails, {"p": str(q), "b": bit, "library_law": {str(k): str(v) for k, v in law.items()}})
        curve = curves.randomized_response_rdp(q)
        l0 = [two_rr.two_rr_law(0, q)[k] for k in sorted(two_rr.two_rr_law(0, q))]
        l1 = [two_rr.two_rr_law(1, q)[k] for k in sorted(two_rr.two_rr_law(0, q))]
        with mpmath.workdps(60), arb_precision(220):
            for alpha in ORDERS:
                lib_points += 1
                sa = sympy.Rational(str(alpha))
                want = mpmath.mpf(str(sympy.N(sympy.log(d["a55"].subs({p: sq, a: sa})) / (sa - 1), 70)))
                got = divergences.renyi_divergence(l0, l1, alpha, dps=60)
                lo, hi = ball_ends_mpf(curve.enclosure(float(alpha)))
                tol = mpmath.mpf(10) ** -50
                if not (mpmath.almosteq(got, want, 1e-50, 1e-50) and lo - tol <= want <= hi + tol and hi - lo < 1e-30):
                    keep(fails, {"p": str(q), "alpha": str(alpha), "(A.5)": mpmath.nstr(want, 30),
                                 "renyi_divergence": mpmath.nstr(got, 30), "curve_ball": [mpmath.nstr(lo, 30),
                                                                                         mpmath.nstr(hi, 30)]})
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{len(d['steps'])} symbolic steps ((A.3), each line of (A.4), (2.5) for b in {{0,1}} and not for "
                   f"b = 1/2, (A.5) both directions); library equal at {lib_points} points ({len(fails)} failures)",
        evidence={"steps": {k: bool(v) for k, v in d["steps"].items()}, "failures": fails,
                  "finding": "the last line of (A.4) uses b^2 = b: (2.5) is the MSE for bits only",
                  "library": "bcdp.dme.two_rr (two_rr_law, two_rr_mean, two_rr_mse), "
                             "bcdp.accounting.curves.randomized_response_rdp, bcdp.core.divergences.renyi_divergence"},
    )
