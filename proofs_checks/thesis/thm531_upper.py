"""Thesis Thm 5.3.1 (5.4): Upper Bound 1 >= the exact RDP of shuffled eps0-LDP mechanisms.

Instances (``_shuffle_instances``; exact values from ``bcdp.shuffle.exact``): random K-ary
eps0-LDP kernels with random datasets (both directions), K-ary randomized response (the worst
pair over every neighbouring pair of 3-RR at n = 5, 8 and the extreme pair at n = 25: 3-RR can
exceed the binary value), and shuffled 2RR (sup over all pairs and both directions for n <= 1000,
the extreme pair in both directions for n = 10^4..10^6; float64 values with a measured relative
error, ``_shuffle_instances``).  Every value must be <= (5.4) with nbar = floor((n-1)/(2E)) + 1;
for a float value, value (1 + rel_err) must be (a twin is refuted only below value (1 - rel_err)).

Also recorded: where (5.4) exceeds eps0 (a valid but vacuous bound; ``cap=True`` clips it), and
the refined-tail variant (not in the thesis; module doc of bcdp.shuffle.bounds) on the same
instances.

Ambiguity settled (extraction lost the bar): "n" in the first two terms is nbar.  The reading
with n (twin "531_n_unbarred", which drops the factor ~2E) is violated by the exact 2RR value,
e.g. n = 1000, eps0 = 2, alpha = 2.  Twin "531_no_floor" (nbar unfloored, as App. D.1 writes it)
is not rejected end-to-end (its margin over the exact values is reported), but the proof step it
needs fails: (5.15) applies Thm 5.3.5 to the special case on nbar points, whose exact 2RR moment
at alpha = 2 is 1 + (E-1)^2/(nbar E) (equality, Thm 5.3.5/Lemma 5.3.5), which exceeds the twin's
1 + (E-1)^2/(nbar' E) whenever nbar' = (n-1)/(2E) + 1 > nbar.

In that proof step nbar is computed here from its printed definition (:func:`printed_nbar`, exact
Fractions: E = e^eps0 is rational there, so floor((n-1)/(2E)) is integer division; 3 of the 15
points are exact ties (n-1)/(2E) in Z) and must equal the library's
:func:`bcdp.shuffle.bounds.nbar` (floored and unfloored); a disagreement refutes.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import (
    exact_api,
    s,
    twin_531_n_unbarred,
    twin_531_no_floor,
    twin_535_at,
)
from ._shuffle_instances import INT_ALPHAS, eps0_of, kary_instances, rr_instances

CLAIM = ClaimSpec(
    id="THESIS-Thm5.3.1",
    paper="thesis",
    group="shuffle",
    where="Thm 5.3.1, eq. (5.4), Sec. 5.3; proof Sec. 5.3.1.1",
    statement="(5.4) with nbar = floor((n-1)/(2E)) + 1 bounds the RDP of n shuffled eps0-LDP reports "
              "(integer alpha): 458 exact instances (random K-ary kernels and datasets, K-RR worst pairs, "
              "3-RR third-value pairs that beat 2RR, 2RR sup over all pairs to n = 1000, extreme pair to "
              "1e6), 0 violations, min ratio 1.13; > eps0 at 293 (cap option). n-for-nbar reading violated "
              "by exact 2RR; unfloored nbar rejected at step (5.15).",
    expected="confirmed",
    also_checked_in=(
        "`tests/shuffle/test_shuffle_bounds.py`",
    ),
)


def printed_nbar(n: int, E: Fraction, floor: bool = True) -> int | Fraction:
    """nbar = floor((n-1)/(2E)) + 1 (thesis Thm 5.3.1), exact for rational E; ``floor=False``:
    (n-1)/(2E) + 1 (the twin's unfloored value)."""
    x = Fraction(n - 1) / (2 * E)
    return x.numerator // x.denominator + 1 if floor else x + 1


def _instances():
    """(label, eps0 (mpf or str), n, alpha, value, rel_err) over both families, integer orders only:
    the K-ary values are exact (rel_err 0), the 2RR values float64 within value (1 +- rel_err)."""
    for inst in kary_instances():
        e = eps0_of(inst["E"])
        for a, v in inst["exact"].items():
            if isinstance(a, int):
                yield (f"{inst['family']} E={inst['E']} n={inst['n']}", e, inst["n"], a, v, 0.0)
    for inst in rr_instances():
        yield (f"2RR eps0={inst['eps0']} n={inst['n']} ({inst['how']})", inst["eps0"], inst["n"], inst["alpha"],
               inst["value"], inst["rel_err"])


def check() -> ClaimResult:
    se = exact_api()
    viol: list = []
    refined_viol: list = []
    over_eps0: list = []
    n_over = 0
    unbarred_viol: list = []
    no_floor_viol = 0
    no_floor_min_ratio = None
    min_ratio = None
    count = 0
    with mpmath.workdps(60):
        for label, e, n, a, ex, err in _instances():
            count += 1
            em = mpmath.mpf(e)
            # the true value lies in [ex_lo, ex_hi]: a bound is violated if it is below ex_hi (counted
            # conservatively), a twin is refuted only if it is below ex_lo (certainly)
            ex_lo, ex_hi = ex * (1 - mpmath.mpf(err)), ex * (1 + mpmath.mpf(err))
            ub = sb.thm531_upper(n, em, a)
            rec = {"instance": label, "alpha": a, "exact": s(ex), "(5.4)": s(ub)}
            if ex_hi > ub:
                keep(viol, rec)
            if ex_hi > sb.thm531_upper(n, em, a, tail="refined"):
                keep(refined_viol, rec)
            if ub > em:
                n_over += 1
                keep(over_eps0, {"instance": label, "alpha": a, "(5.4)": s(ub)})
            if ex > 0:
                r = ub / ex
                if min_ratio is None or r < min_ratio[0]:
                    min_ratio = (r, rec)
            tw = twin_531_n_unbarred(n, em, a)
            if ex_lo > tw:
                keep(unbarred_viol, {**rec, "twin n-unbarred": s(tw)})
            tf = twin_531_no_floor(n, em, a)
            if ex_lo > tf:
                no_floor_viol += 1
            elif ex > 0 and (no_floor_min_ratio is None or tf / ex < no_floor_min_ratio[0]):
                no_floor_min_ratio = (tf / ex, {"instance": label, "alpha": a})
        # the proof step (5.15) for the no-floor twin: exact special-case moment at alpha = 2
        step_rejections: list = []
        nbar_disagreements: list = []
        step_points = 0
        for E in (Fraction(3, 2), Fraction(2), Fraction(3)):
            e = eps0_of(E)
            for n in (10, 30, 101, 1000, 5000):
                nb = printed_nbar(n, E)
                nb_unfloored = printed_nbar(n, E, floor=False)
                nb_unfloored_mp = mpmath.mpf(nb_unfloored.numerator) / nb_unfloored.denominator
                lib_nb, lib_unfloored = sb.nbar(n, e), sb.nbar(n, e, floor=False)
                if lib_nb != nb or abs(lib_unfloored - nb_unfloored_mp) > mpmath.mpf(10) ** -50 * nb_unfloored_mp:
                    keep(nbar_disagreements, {"E": str(E), "n": n, "printed nbar": nb, "library nbar": lib_nb,
                                              "printed unfloored": str(nb_unfloored),
                                              "library unfloored": s(lib_unfloored, 20)})
                step_points += 1
                exact_moment = mpmath.exp(se.rr_pair_rdp_mp(nb, e, 2, "DprimeD"))  # special case on nbar points
                thm535 = sb.thm535_special_case(nb, e, 2)
                twin = twin_535_at(nb_unfloored_mp, e, 2)
                if exact_moment > twin * (1 + mpmath.mpf(10) ** -40) and abs(exact_moment / thm535 - 1) < mpmath.mpf(10) ** -40:
                    keep(step_rejections, {"E": str(E), "n": n, "nbar": nb, "nbar_unfloored": s(nb_unfloored, 8),
                                           "exact E_{nbar-1}": s(exact_moment, 15), "Thm 5.3.5(nbar)": s(thm535, 15),
                                           "twin Thm 5.3.5(nbar')": s(twin, 15)})
        # 3-RR above 2RR
        from bcdp.shuffle.rr_all_pairs import FLOAT_SEARCH_REL_ERR

        kary_vs_rr = []
        for inst in kary_instances():
            if inst["family"].startswith("3-RR"):
                for a in (2, 3, 4):
                    # float64 search (eps0 = log E in [log 2, log 3], inside its measured range, error
                    # <= FLOAT_SEARCH_REL_ERR): 3-RR exceeds 2RR only if it exceeds rr (1 + that bound)
                    rr, _ = se.rr_worst_pair_rdp(inst["n"], float(eps0_of(inst["E"])), float(a))
                    kary_vs_rr.append({"family": inst["family"], "E": str(inst["E"]), "n": inst["n"], "alpha": a,
                                       "3-RR": s(inst["exact"][a], 8), "2RR worst": s(rr, 8),
                                       "3-RR exceeds 2RR": bool(inst["exact"][a] > rr * (1 + FLOAT_SEARCH_REL_ERR))})
    twins = {"531_n_unbarred": bool(unbarred_viol), "531_no_floor": len(step_rejections) > 0}
    ok = not viol and not refined_viol and all(twins.values()) and not nbar_disagreements
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} instances (random K-ary and K-RR exact, 2RR up to n = 1e6 float64 with its measured "
                   f"error covered): {len(viol)} violations; "
                   f"min (5.4)/exact = {s(min_ratio[0], 4)}; (5.4) > eps0 at {n_over}; twins rejected: {twins}; "
                   f"3-RR above 2RR at {sum(r['3-RR exceeds 2RR'] for r in kary_vs_rr)}/{len(kary_vs_rr)}; "
                   f"library nbar = printed definition at {step_points - len(nbar_disagreements)}/{step_points}",
        evidence={"instances": count, "violations": viol, "refined_tail_violations": refined_viol,
                  "min_ratio_bound_over_exact": {**min_ratio[1], "ratio": s(min_ratio[0], 6)},
                  "bound_exceeds_eps0_count": n_over, "bound_exceeds_eps0_examples": over_eps0,
                  "twin_n_unbarred_violations": unbarred_viol,
                  "twin_no_floor_end_to_end_violations": no_floor_viol,
                  "twin_no_floor_min_ratio_over_exact": None if no_floor_min_ratio is None else
                  {**no_floor_min_ratio[1], "ratio": s(no_floor_min_ratio[0], 6)},
                  "twin_no_floor_proof_step_points": step_points,
                  "twin_no_floor_proof_step_rejections": step_rejections,
                  "nbar_library_vs_printed_disagreements": nbar_disagreements,
                  "kary_rr_vs_2rr": kary_vs_rr, "twins_rejected": twins,
                  "alphas_kary": list(INT_ALPHAS)},
    )
