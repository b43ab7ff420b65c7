"""Thesis Lemma 2.3.1 part 2 ([EFM19, Cor 9]): eps = 12 eps0 sqrt(log(1/delta)/n) holds, with slack >= 8.7x.

Printed (thesis Sec. 2.3): if R is eps0-LDP with eps0 < 1/2, then for delta in (0, 1/100) and n >= 1000
the shuffle H_n o (R(d_1), ..., R(d_n)) is (eps, delta)-DP, eps = 12 eps0 sqrt(log(1/delta)/n)
(replace-one neighbours).  Part 1 ([BBG19d], O(.)) is declared in ``_declared``.

The library (:func:`bcdp.shuffle.efm19_dp.efm19_cor9_epsilon`) is compared with the printed formula
evaluated here in mpmath, and its validity conditions are probed on both sides of each boundary.
Grid: e^{eps0} in {11/10, 5/4, 3/2, 8/5} (eps0 < 1/2), n in {1000, 4000}, delta in {9/1000, 1/1000,
1e-6, 1e-10}.  Where eps >= eps0 the claim is vacuous (the shuffle is eps0-DP by post-processing).
Elsewhere two things must hold: (i) the certified FMT21 clone bound
(:func:`bcdp.shuffle.clones.clone_pair_delta`, an upper bound on delta(eps) over all pairs and all
eps0-LDP R) is <= delta at eps (this proves the claim at the grid point for every R); (ii) at n = 1000, the exact
profile of shuffled binary RR on the pair with no common ones
(:func:`bcdp.shuffle.efm19_dp.rr_shuffled_pair_delta`, lower bounds) is <= delta.  The pair function
is itself checked against brute-force enumeration of all 2^12 report vectors (Fractions).  Slack:
eps / (certified clones epsilon) and eps / (epsilon of the RR pair, bisection).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
from bcdp.claims import ClaimResult
from bcdp.claims.registry import ClaimSpec
from bcdp.core import divergences
from bcdp.core.errors import ValidityConditionError
from bcdp.shuffle import clones, efm19_dp

from .._common import keep

CLAIM = ClaimSpec(
    id="THESIS-Lemma2.3.1-EFM19",
    paper="thesis",
    group="background",
    where="Lemma 2.3.1 part 2, Sec. 2.3 ([EFM19, Cor 9])",
    statement="For eps0 < 1/2, delta in (0, 1/100), n >= 1000 the shuffle of n eps0-LDP reports is "
              "(12 eps0 sqrt(log(1/delta)/n), delta)-DP; explicit constant checked against the certified "
              "FMT21 clone bound and the exact shuffled binary-RR profile.",
    expected="confirmed",
    also_checked_in=("`tests/shuffle/test_shuffle_efm19_dp.py`",),
)

RATIOS = (Fraction(11, 10), Fraction(5, 4), Fraction(3, 2), Fraction(8, 5))
SIZES = (1000, 4000)
DELTAS = (Fraction(9, 1000), Fraction(1, 1000), Fraction(1, 10 ** 6), Fraction(1, 10 ** 10))
#: the exact RR pair (a lower bound) is evaluated at this n only
PAIR_N = 1000
#: instances where the epsilon of the RR pair is bisected (costly: O(n) mpmath per evaluation)
BISECT = ((Fraction(8, 5), 1000, Fraction(1, 1000)),)


def _mp(x: Fraction) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _up(x: mpmath.mpf) -> float:
    f = float(x)
    return math.nextafter(f, math.inf) if mpmath.mpf(f) < x else f


def _down(x: mpmath.mpf) -> float:
    f = float(x)
    return math.nextafter(f, -math.inf) if mpmath.mpf(f) > x else f


def _pair_oracle(n: int, r: Fraction, ones: int, ratio: Fraction) -> Fraction:
    """Brute force: enumerate every report vector of the n RR users, count 1-reports, hockey-stick."""
    keep_p = r / (1 + r)
    laws = []
    for first in (0, 1):
        data = (first,) + (1,) * ones + (0,) * (n - 1 - ones)
        law = [Fraction(0)] * (n + 1)
        for y in itertools.product((0, 1), repeat=n):
            pr = Fraction(1)
            for b, v in zip(data, y):
                pr *= keep_p if b == v else 1 - keep_p
            law[sum(y)] += pr
        laws.append(law)
    return max(divergences.hockey_stick_exact(laws[0], laws[1], ratio),
               divergences.hockey_stick_exact(laws[1], laws[0], ratio))


def _validity_probes() -> list:
    """(description, call, must_raise) on both sides of each printed boundary."""
    e0, n, d = Fraction(1, 4), 1000, Fraction(1, 1000)
    tiny = mpmath.mpf(10) ** -30
    return [
        ("eps0 = 1/2", lambda: efm19_dp.efm19_cor9_epsilon(Fraction(1, 2), n, d), True),
        ("eps0 = 1/2 - 1e-30", lambda: efm19_dp.efm19_cor9_epsilon(mpmath.mpf(1) / 2 - tiny, n, d), False),
        ("n = 999", lambda: efm19_dp.efm19_cor9_epsilon(e0, 999, d), True),
        ("n = 1000", lambda: efm19_dp.efm19_cor9_epsilon(e0, 1000, d), False),
        ("delta = 1/100", lambda: efm19_dp.efm19_cor9_epsilon(e0, n, Fraction(1, 100)), True),
        ("delta = 1/100 - 1e-30", lambda: efm19_dp.efm19_cor9_epsilon(e0, n, mpmath.mpf(1) / 100 - tiny), False),
    ]


def _pair_epsilon(n: int, r: Fraction, delta: Fraction) -> mpmath.mpf:
    """Smallest eps (to 1e-3 relative, upper end) with the ones = 0 RR pair's delta(eps) <= delta."""
    lo, hi = mpmath.mpf(0), mpmath.log(_mp(r))
    while hi - lo > hi * mpmath.mpf("1e-3"):
        mid = (lo + hi) / 2
        if efm19_dp.rr_shuffled_pair_delta(n, r, mid, dps=15) <= _mp(delta):
            hi = mid
        else:
            lo = mid
    return hi


def check() -> ClaimResult:
    fails: list = []
    rows: list = []
    vacuous = 0
    min_slack = None
    with mpmath.workdps(40):
        for (desc, call, must_raise) in _validity_probes():
            try:
                call()
                raised = False
            except ValidityConditionError:
                raised = True
            if raised != must_raise:
                keep(fails, {"validity": desc, "raised": raised})
        oracle_pairs = 0
        for ones, ratio in ((0, Fraction(11, 10)), (3, Fraction(6, 5))):
            want = _pair_oracle(12, Fraction(3, 2), ones, ratio)
            got = efm19_dp.rr_shuffled_pair_delta(12, Fraction(3, 2), mpmath.log(_mp(ratio)), ones=ones)
            oracle_pairs += 1
            if not mpmath.almosteq(got, _mp(want), 1e-30):
                keep(fails, {"pair_oracle": {"ones": ones, "library": mpmath.nstr(got, 20), "oracle": str(want)}})
        for r in RATIOS:
            e0 = mpmath.log(_mp(r))
            for n in SIZES:
                for delta in DELTAS:
                    eps = efm19_dp.efm19_cor9_epsilon(e0, n, delta)
                    printed = 12 * e0 * mpmath.sqrt(mpmath.log(1 / _mp(delta)) / n)
                    if not mpmath.almosteq(eps, printed, 1e-35):
                        keep(fails, {"e^eps0": str(r), "n": n, "delta": str(delta), "library": mpmath.nstr(eps, 20),
                                     "printed": mpmath.nstr(printed, 20)})
                    row = {"e^eps0": str(r), "n": n, "delta": str(delta), "eps": mpmath.nstr(printed, 8)}
                    if printed >= e0:
                        vacuous += 1
                        rows.append({**row, "vacuous": "eps >= eps0"})
                        continue
                    up = clones.clone_pair_delta(_up(e0), n, _down(printed)).upper
                    pair = (efm19_dp.rr_shuffled_pair_delta(n, r, printed, dps=15) if n == PAIR_N
                            else mpmath.mpf(0))                        # (O(n) mpmath terms: n = 1000 only)
                    cl_eps = clones.clones_numerical(_up(e0), n, float(delta) * (1 - 1e-12)).upper
                    slack = printed / cl_eps if cl_eps > 0 else mpmath.inf
                    min_slack = slack if min_slack is None else min(min_slack, slack)
                    if up > float(delta) or pair > _mp(delta):
                        keep(fails, {**row, "clone_delta_upper": repr(up), "rr_pair_delta": mpmath.nstr(pair, 10)})
                    rows.append({**row, "clone_delta_at_eps": repr(up), "rr_pair_delta_at_eps": mpmath.nstr(pair, 6) if n == PAIR_N else "not evaluated",
                                 "clones_eps_upper": repr(cl_eps), "eps/clones_eps": mpmath.nstr(slack, 5)})
        bisected = []
        for r, n, delta in BISECT:
            pe = _pair_epsilon(n, r, delta)
            printed = efm19_dp.efm19_cor9_epsilon(mpmath.log(_mp(r)), n, delta)
            bisected.append({"e^eps0": str(r), "n": n, "delta": str(delta), "rr_pair_eps": mpmath.nstr(pe, 6),
                             "eps/rr_pair_eps": mpmath.nstr(printed / pe, 5)})
    checked = len(rows) - vacuous
    return CLAIM.result(
        verdict="confirmed" if not fails else "refuted",
        key_figure=f"{checked} grid points certified by the FMT21 clone bound (+ the exact RR pair at n = 1000), {vacuous} vacuous "
                   f"(eps >= eps0); smallest slack eps/clones_eps = {mpmath.nstr(min_slack, 4)}; "
                   f"eps/RR-pair eps = {', '.join(b['eps/rr_pair_eps'] for b in bisected)}; "
                   f"validity probed on 6 sides ({len(fails)} failures)",
        evidence={"grid": rows, "bisected_rr_pair": bisected, "failures": fails,
                  "pair_oracle_checks": oracle_pairs, "smallest_slack_vs_clones": mpmath.nstr(min_slack, 6),
                  "library": "bcdp.shuffle.efm19_dp (efm19_cor9_epsilon, rr_shuffled_pair_delta), "
                             "bcdp.shuffle.clones (clone_pair_delta, clones_numerical)"},
    )
