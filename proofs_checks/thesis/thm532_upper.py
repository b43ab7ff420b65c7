"""Thesis Thm 5.3.2 (5.7): Upper Bound 2 >= the exact RDP, at integer and real orders.

Same instances as ``thesis_thm531_upper`` (random K-ary kernels, K-RR, 2RR to n = 1e6), plus
the real orders 3/2, 5/2, 10/3 on the K-ary instances and 2.5, 7.7 on shuffled 2RR (sup over all
pairs, float64).  The 2RR values are float64 with a measured relative error (``_shuffle_instances``;
for the extra real-order rows the error bound of the float search inside its measured range,
bcdp.shuffle.rr_all_pairs.FLOAT_SEARCH_REL_ERR): a violation is counted when (5.7) is below
value (1 + rel_err).  Printed "for any alpha >= 1": at alpha = 1 the expression is +inf (vacuous), so
the function requires alpha > 1.  Also recorded: where (5.7) exceeds eps0.
"""

from __future__ import annotations

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.shuffle import bounds as sb

from .._common import keep
from ._shuffle_common import exact_api, s
from ._shuffle_instances import instance_rows

CLAIM = ClaimSpec(
    id="THESIS-Thm5.3.2",
    paper="thesis",
    group="shuffle",
    where="Thm 5.3.2, eq. (5.7), Sec. 5.3; proof Sec. 5.3.1.2 with Thm 5.3.6",
    statement="(5.7) >= exact RDP at integer and real alpha > 1 (596 instances); printed 'alpha >= 1' is "
              "vacuous at 1.",
    expected="confirmed",
)


def check() -> ClaimResult:
    se = exact_api()
    viol: list = []
    count = real_count = n_over = 0
    min_ratio = None
    with mpmath.workdps(60):
        from bcdp.shuffle.rr_all_pairs import FLOAT_SEARCH_REL_ERR, float_search_trusted

        rows = instance_rows()
        for e in ("0.5", "1", "2"):
            for n in (5, 30, 300):
                for a in ("2.5", "7.7"):
                    if not float_search_trusted(n, e, a):     # the error bound holds inside the range only
                        raise RuntimeError(f"2RR instance n={n}, eps0={e}, alpha={a} outside the float range")
                    v, _ = se.rr_worst_pair_rdp(n, float(e), float(a))
                    rows.append((f"2RR eps0={e} n={n} real alpha", mpmath.mpf(e), n, mpmath.mpf(a), mpmath.mpf(v),
                                 FLOAT_SEARCH_REL_ERR))
        for label, e, n, a, ex, err in rows:
            count += 1
            a_m = mpmath.mpf(a.numerator) / a.denominator if hasattr(a, "denominator") and not isinstance(a, int) else mpmath.mpf(a)
            real_count += a_m != mpmath.floor(a_m)
            ub = sb.thm532_upper(n, e, a_m)
            if ex * (1 + mpmath.mpf(err)) > ub:
                keep(viol, {"instance": label, "alpha": s(a_m, 6), "exact": s(ex), "(5.7)": s(ub)})
            n_over += ub > e
            if ex > 0 and (min_ratio is None or ub / ex < min_ratio[0]):
                min_ratio = (ub / ex, {"instance": label, "alpha": s(a_m, 6), "exact": s(ex), "(5.7)": s(ub)})
        try:
            sb.thm532_upper(100, 1, 1)
            alpha_one_refused = False
        except sb.InvalidInputError:
            alpha_one_refused = True
    ok = not viol and alpha_one_refused
    return CLAIM.result(
        verdict="confirmed" if ok else "refuted",
        key_figure=f"{count} instances ({real_count} at real orders; {sum(r[5] > 0 for r in rows)} float64 2RR "
                   f"values, their measured error covered): {len(viol)} violations; min (5.7)/exact "
                   f"{s(min_ratio[0], 4)}; (5.7) > eps0 at {n_over}",
        evidence={"instances": count, "real_order_instances": real_count, "violations": viol,
                  "min_ratio_bound_over_exact": {**min_ratio[1], "ratio": s(min_ratio[0], 6)},
                  "bound_exceeds_eps0_count": n_over, "alpha_1_refused": alpha_one_refused},
    )
