"""The shuffled-2RR values of the thesis Ch. 5 claim checks are float64 values labelled with a
measured error (bcdp.checks.thesis._shuffle_instances, issue 12), and the checks compare them with
that error covered.

References: the mpmath brute force over every neighbouring pair (rr_pair_over_j_mp, n <= 30), the
mpmath oracle of the extreme pair with rigorous tails (rr_pair_rdp_mp, both directions), and, in
the slow test, the arb enclosure of every pair for n <= 1000 (rr_worst_pair_rdp_ball).
"""

from __future__ import annotations

import mpmath
import pytest
from bcdp.checks.thesis import _shuffle_instances as si
from bcdp.checks.thesis import efm19_bound, thm531_upper
from bcdp.core.intervals import ball_ends_mpf
from bcdp.shuffle import bounds as sb
from bcdp.shuffle.exact import rr_pair_over_j_mp, rr_pair_rdp_mp
from bcdp.shuffle.rr_all_pairs import rr_worst_pair_rdp_ball


def reference(inst: dict, arb_up_to: int = 30) -> mpmath.mpf:
    n, e, a = inst["n"], inst["eps0"], inst["alpha"]
    if n <= arb_up_to and n <= 30:
        return max(v for row in rr_pair_over_j_mp(n, e, a, dps=40) for v in row)
    if n <= arb_up_to:
        lo, hi = ball_ends_mpf(rr_worst_pair_rdp_ball(n, e, a))
        return (lo + hi) / 2
    return max(rr_pair_rdp_mp(n, e, a, "DDprime", dps=30), rr_pair_rdp_mp(n, e, a, "DprimeD", dps=30))


def test_every_2rr_value_is_labelled_float_with_its_error_and_kary_values_are_exact():
    rr = si.rr_instances()
    assert len(rr) == len(si.RR_EPS) * (len(si.RR_N_SMALL) + len(si.RR_N_LARGE)) * len(si.RR_ALPHAS)
    for inst in rr:
        assert "exact" not in inst and "float64" in inst["how"]
        assert inst["rel_err"] == (si.RR_WORST_REL_ERR if inst["n"] <= 1000 else si.RR_PAIR_REL_ERR)
    rows = si.instance_rows()
    assert all(r[5] == 0.0 for r in rows[:-len(rr)]) and all(r[5] > 0 for r in rows[-len(rr):])


@pytest.mark.parametrize("n", [2, 5, 10, 30, 10_000])
def test_2rr_values_within_their_stated_error(n):
    insts = [i for i in si.rr_instances() if i["n"] == n]
    assert len(insts) == len(si.RR_EPS) * len(si.RR_ALPHAS)
    for inst in insts:
        ref = reference(inst)
        assert abs(inst["value"] - ref) <= inst["rel_err"] * ref, (inst, ref)


@pytest.mark.slow
def test_all_2rr_values_within_their_stated_error():
    """Every instance (n <= 1000 against the arb enclosure of every pair, up to 1e6 against the
    mpmath pair oracle): the measurement of benchmarks/measure_rr_float_range.py, part instances."""
    for inst in si.rr_instances():
        ref = reference(inst, arb_up_to=1000)
        assert abs(inst["value"] - ref) <= inst["rel_err"] * ref, (inst, ref)


def test_efm19_check_counts_a_float_value_within_its_error_of_the_bound(monkeypatch):
    """A float value below (5.8) but within its error of it is a violation (the truth may exceed
    the bound); the same value with no error is not."""
    n, e, a = 1000, mpmath.mpf("0.5"), mpmath.mpf(2)
    with mpmath.workdps(60):
        ub = sb.efm19_upper(n, e, a)
        v = ub * (1 - mpmath.mpf("1e-12"))
    for err, verdict in ((1e-11, "refuted"), (0.0, "confirmed")):
        monkeypatch.setattr(efm19_bound, "instance_rows", lambda err=err: [("2RR test", e, n, a, v, err)])
        assert efm19_bound.check().verdict == verdict


def test_thm531_check_counts_a_float_value_within_its_error_of_the_bound(monkeypatch):
    with mpmath.workdps(60):
        ub = sb.thm531_upper(1000, mpmath.mpf("0.5"), 2)
        v = ub * (1 - mpmath.mpf("1e-12"))
    for err, verdict in ((1e-11, "refuted"), (0.0, None)):
        fake = [{"eps0": "0.5", "n": 1000, "alpha": 2, "value": v, "rel_err": err, "how": "float64 test"}]
        monkeypatch.setattr(thm531_upper, "rr_instances", lambda fake=fake: fake)
        res = thm531_upper.check()
        if verdict is not None:
            assert res.verdict == verdict
        assert bool(res.evidence["violations"]) == (err > 0)
