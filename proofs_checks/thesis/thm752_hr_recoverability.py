"""Thesis Thm 7.5.2 (Sec. 7.5.2, (7.49)): [ASZ19]'s Hadamard response is NOT private-recoverable with its Hadamard
sets C_x (erratum), and not representable by a key of size K with law q_HR.

Construction (stated; [ASZ19, Sec. 5] and its reference code): K = B b outputs in B blocks of b; input x sits in
block j = x // (b - 1) at row i = x mod (b - 1) + 1 of the Sylvester matrix H_b; C_x = {j b + y : H_b(i, y) = +1}
(library :func:`bcdp.randomness.recoverability_bounds.hr_sets`, rule "asz19"); also the -1 entries
("asz19_complement").  On the exact grid k = 2..12, e^eps in {5/4, ..., 30} (parameters from
``hr_parameters_exact``, equal to ``keys.asz19_parameters`` at a rational eps in the same bracket):
- the channel (7.49) (library ``hr_channel`` = the printed formula written here) is eps-LDP (exact ratio e^eps);
- recoverability with ANY key needs sum_x Q(y|x) <= 1 for every y (the key sets U_yx are disjoint, App. F.5.1);
  the ASZ19 sets violate it: at k = 6, e^eps = 13/4 (B = 2, b = 4, K = 8, s = 2) output 0 (the all-ones column
  of block 0) lies in the three C_x of that block, column sum (3 (13/4) + 3)/(2 (13/4) + 6) = 51/50 > 1: no key
  of any size recovers X (the condition is exact: column sums <= 1 give a key by Birkhoff-von Neumann; with the
  -1 entries every column sum is <= 1, so the "no key at all" count of that reading is 0);
- a key on [K] with law q_HR (as printed) requires every output in at most s sets C_x and outside at most K - s
  (each f(x, .) is then a bijection sending the s likely keys onto C_x); this fails already at k = 3,
  e^eps = 5/4 (K = 4, s = 2) for both sign conventions.  Where the condition holds, the library's
  ``hr_key_realisation`` returns a map that is exactly eps-LDP-Rec with key law q_HR and induces (7.49).
The corrected statement (cyclic C_x) is THESIS-Thm7.5.2-corrected.
"""

from __future__ import annotations

from fractions import Fraction

from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.randomness import keys
from bcdp.randomness import recoverability as rec
from bcdp.randomness import recoverability_bounds as rb

from .._common import keep
from ._hr_grid import KS, RATIOS, eps_near, same_bracket

CLAIM = ClaimSpec(
    id="THESIS-Thm7.5.2",
    paper="thesis",
    group="recoverability",
    where="Thm 7.5.2, Sec. 7.5; proof Sec. 7.5.2, eq. (7.49) and the key law q_HR",
    statement="The Hadamard Response of [ASZ19] (K = B b, s = b/2, C_x from Hadamard rows) satisfies private "
              "recoverability, with a private key of size K distributed as q_HR.",
    expected="erratum",
    erratum="E-Thesis-Thm7.5.2",
    also_checked_in=("`proofs_checks/thesis/thm752_corrected.py`",),
)


def _printed_channel(sets, big_k, s, e):
    den = s * e + big_k - s
    return tuple(tuple((e if y in c else Fraction(1)) / den for y in range(big_k)) for c in sets)


def check() -> ClaimResult:
    fails: list = []
    counts = {rule: {"points": 0, "no_key_at_all": 0, "no_q_hr_key": 0} for rule in ("asz19", "asz19_complement")}
    first = {}
    compared = 0
    for k in KS:
        for e in RATIOS:
            p = rb.hr_parameters_exact(k, e)
            eps_r = eps_near(e)
            if same_bracket(e, eps_r, k):
                compared += 1
                if keys.asz19_parameters(k, eps_r) != p:
                    keep(fails, {"what": "parameters", "k": k, "e_eps": str(e), "library": p})
            big_k, s = p["K"], p["s"]
            for rule in counts:
                sets = rb.hr_sets(k, p["B"], p["b"], rule)
                chan = rb.hr_channel(sets, big_k, e)
                if chan != _printed_channel(sets, big_k, s, e) or rec.ldp_ratio(chan) > e:
                    keep(fails, {"what": "(7.49) channel / LDP", "k": k, "e_eps": str(e), "rule": rule})
                c = counts[rule]
                c["points"] += 1
                col = max(sum(chan[x][y] for x in range(k)) for y in range(big_k))
                if col != rb.max_column_sum(chan):
                    keep(fails, {"what": "column sum", "k": k, "e_eps": str(e)})
                if col > 1:
                    c["no_key_at_all"] += 1
                    first.setdefault((rule, "no_key_at_all"), {"k": k, "e_eps": str(e), **p, "column_sum": str(col)})
                inside = [sum(y in cx for cx in sets) for y in range(big_k)]
                degree_ok = max(inside) <= s and max(k - d for d in inside) <= big_k - s
                f = rb.hr_key_realisation(sets, big_k)
                if (f is not None) != degree_ok:
                    keep(fails, {"what": "Koenig criterion", "k": k, "e_eps": str(e), "rule": rule})
                if f is None:
                    c["no_q_hr_key"] += 1
                    first.setdefault((rule, "no_q_hr_key"), {"k": k, "e_eps": str(e), **p,
                                                             "max_sets_per_output": max(inside),
                                                             "max_complements_per_output": max(k - d for d in inside)})
                else:
                    q_hr = rb.hr_key_law(big_k, s, e)
                    if rec.induced_channel(f, q_hr) != chan or not rec.is_ldp_rec(f, q_hr, e):
                        keep(fails, {"what": "realisation", "k": k, "e_eps": str(e), "rule": rule})
    ce = first.get(("asz19", "no_key_at_all"))
    ok = not fails and ce is not None and ("asz19", "no_q_hr_key") in first and ("asz19_complement", "no_q_hr_key") in first
    return CLAIM.result(
        verdict="erratum" if ok else "refuted",
        key_figure=(f"ASZ19 sets: no recovering key at all at {counts['asz19']['no_key_at_all']}/"
                    f"{counts['asz19']['points']} grid points (first k = {ce['k']}, e^eps = {ce['e_eps']}, column sum "
                    f"{ce['column_sum']} > 1); no q_HR key on [K] at {counts['asz19']['no_q_hr_key']} "
                    f"(complement sets: {counts['asz19_complement']['no_q_hr_key']})") if ce else "no counterexample",
        evidence={"counts": counts, "parameters_compared_with_keys": compared, "first_counterexamples": {f"{a}/{b}": v for (a, b), v in first.items()},
                  "failures": fails,
                  "corrected": "with cyclic sets C_x = {x s + t mod K : t < s} the mechanism (7.49) is eps-LDP-Rec with "
                               "key law q_HR on [K] (THESIS-Thm7.5.2-corrected); the utility of that variant is not "
                               "[ASZ19]'s analysis",
                  "library": "bcdp.randomness.recoverability_bounds (hr_parameters_exact, hr_sets, hr_channel, "
                             "hr_key_law, hr_key_realisation, max_column_sum), bcdp.randomness.recoverability "
                             "(induced_channel, is_ldp_rec, ldp_ratio), bcdp.randomness.keys.asz19_parameters"},
    )
