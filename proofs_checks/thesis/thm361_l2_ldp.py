"""Thesis Thm 3.6.1 (3.36): the l2 mechanism with the real l_inf step, explicit constants from the proof of Sec. 3.6.1, exact.

The proof plugs r_inf = 10 r2 sqrt(log(nd/beta)/d) into Thm 3.5.1's bound (3.31)/(3.20); on the event of
Thm 3.6.5 (no coordinate clipped) this is MSE <= 4 r_inf^2 (4d^2/(3ns) + 5 d^2 s/(n eps0^2) + d/(n 4^m))
= 400 r2^2 log(nd/beta) (d/n) (4/(3s) + 5 s/eps0^2 + 1/(d 4^m)) <= (8800/3) log(nd/beta) (r2^2 d/n)
max{1/(d 4^m), 1/s, s/eps0^2} (the O~ of (3.36) with its constant).  Checked:
(1) the exact law of x_hat = U^T A^{l_inf}(R^{l_inf}(U x)) (:mod:`bcdp.dme.l2_linf`, d = 4, rational
    radius): unbiased iff unclipped, bias = U^T (clip(Ux) - Ux), MSE = 4 r^2 x the l_inf MSE on z
    (:func:`bcdp.dme.linf.linf_mse`, rotation invariance) + the clipping error, equal to the closed form;
(2) on a grid (d in {2, 4}, two sign vectors each, r2 = 1, (n, beta) in {(1, 1/2), (2, 1/100)}, m in {1, 2}, s | d, rational 2RR
    parameters p = 1/(1 + t^2), t in {2, 3}, so eps0 = m s (t - 1/t)), the exact MSE at the theorem's
    (irrational) r_inf, decided at 50 digits, is <= the explicit bound;
(3) the event: over all 2^d sign vectors the exact law of ||U x||_inf (:func:`bcdp.dme.l2.rotated_linf_law`)
    puts probability 1 on ||U x||_inf <= r_inf (>= 1 - beta; for d <= 100 log(nd/beta) it is deterministic),
    and at a smaller rational radius the event has probability < 1, the clipped sign vectors give a
    biased x_hat, and the unclipped ones satisfy the bound with that radius.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.dme import calibration as cal
from bcdp.dme import l2, l2_linf, linf

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Thm3.6.1",
    paper="thesis",
    group="dme",
    where="Thm 3.6.1, eq. (3.36), proof in Sec. 3.6.1 (Algs 3.6.1-3.6.2 with Algs 3.5.1-3.5.2, Thm 3.5.1 (3.31), "
          "Thm 3.6.5 (3.41))",
    statement="With probability >= 1 - beta x_hat is unbiased and MSE = O~((r2^2 d/n) max{1/(d4^m), 1/s, s/eps0^2}); "
              "explicitly (the proof's r_inf in (3.31)): MSE <= 4 r_inf^2 (4d^2/(3ns) + 5d^2 s/(n eps0^2) + d/(n4^m)).",
    expected="confirmed",
    also_checked_in=("`tests/dme/test_dme_l2_linf_exact.py`",),
)

R = sympy.Rational
X_GRID = {
    2: ((Fraction(1, 2), Fraction(1, 4)), (Fraction(3, 5), Fraction(4, 5)), (Fraction(1), Fraction(0))),
    4: ((Fraction(1, 3), Fraction(-1, 2), Fraction(0), Fraction(1, 5)), (Fraction(1, 2),) * 3 + (Fraction(-1, 2),),
        (Fraction(1), Fraction(0), Fraction(0), Fraction(0))),
}
SIGNS = {2: ((1, 1), (1, -1)), 4: ((1, -1, 1, 1), (-1, -1, 1, -1))}
T_GRID = (Fraction(2), Fraction(3))
#: ||U x||_inf is 1/2 for half the sign vectors and 1 for the other half.
TIGHT_X = (Fraction(1, 2),) * 3 + (Fraction(-1, 2),)
MAX_FORM_CONSTANT = R(400) * (R(4, 3) + 5 + 1)



def _differ(a: sympy.Expr, b: sympy.Expr) -> bool:
    """a != b for exact reals: 0 after expansion, else decided at 50 digits (never a slow simplify)."""
    diff = sympy.expand(a - b)
    return diff != 0 and abs(cal.num(diff)) > 10 ** -40 * (1 + abs(cal.num(b)))

def _exact_law_part(fails: list) -> int:
    count = 0
    x, sg, p = X_GRID[4][0], SIGNS[4][0], Fraction(1, 5)
    for r in (Fraction(1), Fraction(1, 8)):
        w = l2.rotate(x, sg)
        wc = l2.clip(w, r)
        z = tuple(Fraction(str(sympy.nsimplify((v + r) / (2 * r)))) for v in wc)
        for m in (1, 2):
            for s in (1, 2, 4):
                count += 1
                law = l2_linf.l2_linf_law(x, sg, r, m, s, (p,) * m)
                mean = l2.law_mean(law)
                bias = tuple(sympy.radsimp(a - R(b.numerator, b.denominator)) for a, b in zip(mean, x))
                oracle_bias = l2.inverse_rotate(tuple(a - b for a, b in zip(wc, w)), sg)
                clipped = wc != w
                mse = l2_linf.vector_law_mse(law, x)
                oracle = 4 * R(r.numerator, r.denominator) ** 2 * sympy.Rational(str(linf.linf_mse(z, m, s, (p,) * m))) \
                    + sum((a - b) ** 2 for a, b in zip(wc, w))
                cell = {"r": str(r), "m": m, "s": s}
                if bias != oracle_bias or any(b != 0 for b in bias) != clipped:
                    keep(fails, {**cell, "what": "bias"})
                if sympy.simplify(mse - oracle) != 0:
                    keep(fails, {**cell, "what": "MSE != 4 r^2 l_inf MSE + clipping error", "mse": str(mse)})
                if sympy.simplify(l2_linf.l2_linf_mse_closed_form(x, sg, r, m, s, (p,) * m) - mse) != 0:
                    keep(fails, {**cell, "what": "closed form"})
    return count


def _bound_oracle(r2: Fraction, d: int, n: int, beta: Fraction, m: int, s: int, eps0: Fraction) -> sympy.Expr:
    """(3.31) with r_inf^2 = 100 r2^2 log(nd/beta)/d, written from the printed statements."""
    r_inf_sq = 100 * R(r2) ** 2 * sympy.log(R(d * n) / R(beta)) / d
    return 4 * r_inf_sq * (R(4 * d * d, 3 * n * s) + 5 * d * d * s / (n * R(eps0) ** 2) + R(d, n * 4 ** m))


def _grid(fails: list) -> tuple[int, list]:
    rows, count = [], 0
    for d in (2, 4):
        xs = X_GRID[d]
        for (n, beta), m, s, t in itertools.product(((1, Fraction(1, 2)), (2, Fraction(1, 100))), (1, 2),
                                                    [s for s in (1, 2, 4) if s <= d], T_GRID):
            p = 1 / (1 + t * t)
            eps0 = m * s * (t - 1 / t)
            r_inf = l2.clip_radius(1, d, n, beta)
            bound = l2_linf.thm361_mse_bound(1, d, n, beta, m, s, eps0)
            if _differ(bound, _bound_oracle(Fraction(1), d, n, beta, m, s, eps0)):
                keep(fails, {"what": "bound function", "d": d, "n": n, "m": m, "s": s})
            max_form = MAX_FORM_CONSTANT * sympy.log(R(d * n) / R(beta)) * R(d, n) * sympy.Max(
                R(1, d * 4 ** m), R(1, s), s / R(eps0) ** 2)
            worst = sympy.Integer(0)
            for sg in SIGNS[d]:
                for i in range(len(xs)):
                    clients = [xs[i]] if n == 1 else [xs[i], xs[(i + 1) % len(xs)]]
                    per = [l2_linf.l2_linf_mse_closed_form(c, sg, r_inf, m, s, (p,) * m) for c in clients]
                    mse = sum(per) / n ** 2
                    count += 1
                    if (m, s, t) == (1, 1, T_GRID[0]) and any(
                            b != 0 for c in clients for b in l2_linf.l2_linf_bias(c, sg, r_inf)):
                        keep(fails, {"what": "clipped at r_inf", "d": d, "signs": list(sg)})
                    if not cal.decide_le(mse, bound):
                        keep(fails, {"what": "MSE > bound", "d": d, "n": n, "beta": str(beta), "m": m, "s": s,
                                     "t": str(t), "signs": list(sg), "x": [str(v) for v in xs[i]]})
                    if cal.num(mse / bound) > cal.num(worst):
                        worst = mse / bound
            if not cal.decide_le(bound, max_form):
                keep(fails, {"what": "sum form > max form", "d": d, "m": m, "s": s})
            rows.append({"d": d, "n": n, "beta": str(beta), "m": m, "s": s, "eps0": str(eps0),
                         "max_mse_over_bound": sympy.N(worst, 6).__str__()})
    return count, rows


def _event(fails: list) -> list:
    rows = []
    for d in (2, 4, 8, 16):
        x = tuple(Fraction(1 if j == 0 else 0) for j in range(d)) if d != 4 else TIGHT_X
        for n, beta in ((1, Fraction(1, 2)), (4, Fraction(1, 100))):
            r_inf = l2.clip_radius(1, d, n, beta)
            law = l2.rotated_linf_law(x)
            prob = sum((q for v, q in law.items() if cal.decide_le(R(v), r_inf ** 2)), Fraction(0))
            rows.append({"d": d, "n": n, "beta": str(beta), "P_event_at_r_inf": str(prob)})
            if prob < 1 - beta:
                keep(fails, {"what": "event probability < 1 - beta", "d": d})
    # a tight rational radius: half the sign vectors clip TIGHT_X
    x, r, p, m, s = TIGHT_X, Fraction(1, 2), Fraction(1, 5), 1, 4
    prob = l2_linf.clipping_event_probability([x], r * r)
    bracket = 4 * R(r) ** 2 * (R(4 * 16, 3 * s) + 5 * 16 * s / R(s * (2 - Fraction(1, 2))) ** 2 + R(4, 4 ** m))
    on = off_biased = off = on_ok = 0
    for sg in itertools.product((1, -1), repeat=4):
        bias = l2_linf.l2_linf_bias(x, sg, r)
        mse = l2_linf.l2_linf_mse(x, sg, r, m, s, (p,) * m)
        if any(b != 0 for b in bias):
            off += 1
            off_biased += 1
        else:
            on += 1
            on_ok += int(bool(mse <= bracket))
    if not (prob == Fraction(on, 16) and 0 < prob < 1 and on_ok == on):
        keep(fails, {"what": "tight radius", "P": str(prob), "on": on, "on_ok": on_ok})
    rows.append({"tight_radius": str(r), "x": [str(v) for v in x], "P_event": str(prob),
                 "clipped_sign_vectors_biased": f"{off_biased}/{off}", "unclipped_within_bound": f"{on_ok}/{on}"})
    return rows


def check() -> ClaimResult:
    fails: list = []
    exact_cases = _exact_law_part(fails)
    count, rows = _grid(fails)
    event_rows = _event(fails)
    worst = max(float(r["max_mse_over_bound"]) for r in rows)
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{exact_cases} exact laws (unbiased iff unclipped, MSE = 4r^2 l_inf MSE + clip error); {count} exact "
                   f"MSEs at the theorem's r_inf <= the explicit bound (largest ratio {worst:.4g}); event of Thm 3.6.5 "
                   f"has probability 1 at r_inf for d <= 16; {len(fails)} failures",
        evidence={"failures": fails, "grid": rows, "event": event_rows,
                  "explicit_constant": "MSE <= 400 r2^2 log(nd/beta) (d/n)(4/(3s) + 5s/eps0^2 + 1/(d4^m)) <= "
                                       f"{MAX_FORM_CONSTANT} log(nd/beta) (r2^2 d/n) max{{1/(d4^m), 1/s, s/eps0^2}}",
                  "library": "bcdp.dme.l2_linf (l2_linf_law, vector_law_mse, l2_linf_mse, l2_linf_mse_closed_form, "
                             "l2_linf_bias, clipping_event_probability, thm361_mse_bound); bcdp.dme.l2 "
                             "(clip_radius, rotated_linf_law); bcdp.dme.linf.linf_mse"},
    )
