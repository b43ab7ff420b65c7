"""Working precisions (``dps=``, ``prec=``, ``bits=``) of every public function go through the one
validator :func:`bcdp.core.numbers.check_precision` (issue 12).

Before: ``ball(expr, prec=0)``, ``enclosure(.., prec=-3)``, ``bun_steinke_epsilon(.., prec=0)``,
``census_2020_table(prec=0)`` and most ``dps=`` parameters were accepted (``prec=0`` gave arb's
default behaviour or a meaningless ball, ``dps=True`` ran at 1 digit), and two duplicate
``check_dps`` helpers (core.divergences, shuffle.inputs) had different rules.  Now 0, -1, True, 2.5
and a huge value are refused with a one-line error naming the parameter, and a valid value works.

The table CALLS covers every public function of ``bcdp`` with such a parameter: the test
``test_every_public_precision_parameter_is_covered`` walks the package and fails if one is missing
(so a new function cannot skip the validator unnoticed).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy
from bcdp.core.errors import InvalidInputError, WrongTypeError
from bcdp.core.numbers import GUARD_DPS, MAX_DPS, MAX_PREC_BITS, MIN_PREC_BITS, check_precision

# -- the validator itself ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [True, False, 2.0, 2.5, "60", None, Fraction(60), mpmath.mpf(60), np.float64(60)])
def test_check_precision_refuses_non_integers_and_bools(bad):
    with pytest.raises(WrongTypeError, match="dps must be an integer in \\[15, 100\\]"):
        check_precision(bad, "dps", 15, 100)


def test_check_precision_range_is_inclusive_at_both_ends():
    assert check_precision(15, "dps", 15, 100) == 15
    assert check_precision(100, "dps", 15, 100) == 100
    assert type(check_precision(np.int64(40), "dps", 15, 100)) is int
    assert type(check_precision(sympy.Integer(40), "dps", 15, 100)) is int
    for bad in (14, 101, 0, -1, 10 ** 9):
        with pytest.raises(InvalidInputError, match=f"got {bad}$"):
            check_precision(bad, "dps", 15, 100)


def test_the_duplicate_check_dps_helpers_are_gone():
    import bcdp.core.divergences as dv
    import bcdp.shuffle.inputs as si

    assert not hasattr(dv, "check_dps") and not hasattr(si, "check_dps")


# -- every public function ----------------------------------------------------------------------------

def _rr_mech():
    from bcdp import Mechanism, ProductDomain

    dom = ProductDomain([(0, 1)])
    return Mechanism(dom, ("a", "b"), ((Fraction(3, 4), Fraction(1, 4)), (Fraction(1, 4), Fraction(3, 4))))


def _partial_mech():
    from bcdp.checks.partial_dp._cdp_common import parallel_rr

    return parallel_rr(Fraction(3, 4), 1)


def _hp_mech(v):
    from bcdp.bayesian.highprec import HPMechanism

    m = _rr_mech()
    rows = tuple(tuple(mpmath.mpf(x.numerator) / x.denominator for x in row) for row in m.kernel)
    return HPMechanism(m.domain, m.outputs, rows, v)


def _acc():
    from bcdp.accounting import conversion as c

    return c


def _tightest():
    from bcdp.accounting import tightest as t

    return t


def _sb():
    from bcdp.shuffle import shuffled_bounds as sb

    return sb


def _ssb():
    from bcdp.shuffle import subsampled_bounds as ssb

    return ssb


def _rr_kernel():
    from bcdp.shuffle.finite_laws import kary_rr_kernel

    return kary_rr_kernel(2, exp_eps0=3)


def _alloc():
    from bcdp.bayesian.allocation import allocate_budgets

    return allocate_budgets(["1", "2"], 2, 0, "1/2")


def _sub():
    from bcdp.accounting import subsampling

    return subsampling


def _sg():
    from bcdp.accounting import sampled_gaussian

    return sampled_gaussian


def _ctx(v):
    from bcdp.core.intervals import arb_precision

    with arb_precision(v):
        return True


M = mpmath.mpf
PQ = (("1/2", "1/2"), ("1/4", "3/4"))

#: qualified name -> (parameter, a valid value, call(value))
CALLS = {
    "bcdp.accounting.conversion.certify_at": ("prec", 200, lambda v: _acc().certify_at(_acc().zcdp_rdp("1"), 2.0, "1e-6", prec=v)),
    "bcdp.accounting.conversion.rdp_to_dp": ("prec", 200, lambda v: _acc().rdp_to_dp(_acc().zcdp_rdp("1"), "1e-6", prec=v)),
    "bcdp.accounting.conversion.bun_steinke_epsilon": ("prec", 200, lambda v: _acc().bun_steinke_epsilon("1", "1e-6", prec=v)),
    "bcdp.accounting.conversion.zcdp_to_dp": ("prec", 200, lambda v: _acc().zcdp_to_dp("1", "1e-6", prec=v)),
    "bcdp.accounting.conversion.census_2020_table": ("prec", 200, lambda v: _acc().census_2020_table(prec=v)),
    "bcdp.accounting.tightest.tightest_rdp_to_dp": ("prec", 200, lambda v: _tightest().tightest_rdp_to_dp(
        _acc().zcdp_rdp("1"), "1e-6", prec=v)),
    "bcdp.accounting.tightest.tv_rule_certified": ("prec", 200, lambda v: _tightest().tv_rule_certified(
        _acc().zcdp_rdp("1"), 2.0, "1e-6", prec=v)),
    "bcdp.accounting.subsampling.wbk19_thm9": ("dps", 60, lambda v: _sub().wbk19_thm9(lambda j: M(j) / 10, "1/10", 3, dps=v)),
    "bcdp.accounting.subsampling.zw19_thm6": ("dps", 60, lambda v: _sub().zw19_thm6(lambda j: M(j) / 10, "1/10", 3, dps=v)),
    "bcdp.bayesian.highprec.mpf_of": ("dps", 60, lambda v: __import__("bcdp.bayesian.highprec", fromlist=["x"]).mpf_of("1/3", v)),
    "bcdp.bayesian.highprec.log_of": ("dps", 60, lambda v: __import__("bcdp.bayesian.highprec", fromlist=["x"]).log_of(M(2), v)),
    "bcdp.bayesian.highprec.HPMechanism.from_exact": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.highprec", fromlist=["x"]).HPMechanism.from_exact(_rr_mech(), v)),
    "bcdp.bayesian.highprec.HPMechanism.__init__": ("dps", 60, _hp_mech),
    "bcdp.bayesian.highprec.HPLogRatio.__init__": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.highprec", fromlist=["x"]).HPLogRatio(M(2), None, v)),
    "bcdp.bayesian.highprec.max_column_ratio": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.highprec", fromlist=["x"]).max_column_ratio(
            [[M(1) / 4, M(3) / 4], [M(3) / 4, M(1) / 4]], ["x0", "x1"], ["y0", "y1"], v)),
    "bcdp.bayesian.lemma1_moments.spectral_norm": (
        "dps", 50, lambda v: __import__("bcdp.bayesian.lemma1_moments", fromlist=["x"]).spectral_norm(
            __import__("sympy").Matrix([[1, 0], [0, 2]]), v)),
    "bcdp.bayesian.mmean_finite.two_copies_stage_kernel": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.mmean_finite", fromlist=["x"]).two_copies_stage_kernel(
            "rr", 2, mpmath.mpf(1), dps=v)),
    "bcdp.bayesian.mmean_finite.mmean_two_copies_kernel": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.mmean_finite", fromlist=["x"]).mmean_two_copies_kernel(
            [1, 2], 2, dps=v)),
    "bcdp.dme.privunit.privunit_cap_mass_mp": (
        "dps", 30, lambda v: __import__("bcdp.dme.privunit", fromlist=["x"]).privunit_cap_mass_mp(8, "1/4", v)),
    "bcdp.dme.privunit.privunit_scale_mp": (
        "dps", 30, lambda v: __import__("bcdp.dme.privunit", fromlist=["x"]).privunit_scale_mp(8, "1/4", "3/4", v)),
    "bcdp.dme.privunit.privunit_variance_mp": (
        "dps", 30, lambda v: __import__("bcdp.dme.privunit", fromlist=["x"]).privunit_variance_mp(8, "1/4", "3/4", v)),
    "bcdp.bayesian.eq88_matrix.mean_norm": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.eq88_matrix", fromlist=["x"]).mean_norm((1, 0), 3, [None], dps=v)),
    "bcdp.bayesian.eq88_matrix.tropp_variance": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.eq88_matrix", fromlist=["x"]).tropp_variance((1, 0), 3, [None], v)),
    "bcdp.bayesian.eq88_matrix.tropp_bound": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.eq88_matrix", fromlist=["x"]).tropp_bound(1, 4, 4, v)),
    "bcdp.bayesian.eq88_matrix.lemma1_bound": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.eq88_matrix", fromlist=["x"]).lemma1_bound(1, 4, 2, v)),
    "bcdp.dme.calibration.gaussian_exact_delta": (
        "dps", 30, lambda v: __import__("bcdp.dme.calibration", fromlist=["x"]).gaussian_exact_delta(1, 1, v)),
    "bcdp.bayesian.mmean_utility.evaluate": (
        "dps", 30, lambda v: __import__("bcdp.bayesian.mmean_utility", fromlist=["x"]).evaluate(sympy.Integer(1), v)),
    "bcdp.bayesian.mechanisms_theory.hemisphere_mean_by_integration": (
        "dps", 20, lambda v: __import__("bcdp.bayesian.mechanisms_theory", fromlist=["x"]).hemisphere_mean_by_integration(3, v)),
    "bcdp.bayesian.mmean_finite.stage_budgets": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.mmean_finite", fromlist=["x"]).stage_budgets(["1", "2"], v)),
    "bcdp.bayesian.mmean_finite.stage_kernel": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.mmean_finite", fromlist=["x"]).stage_kernel("rr", 1, M(1) / 2, dps=v)),
    "bcdp.bayesian.mmean_finite.mmean_joint_kernel": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.mmean_finite", fromlist=["x"]).mmean_joint_kernel(["1", "2"], 2, dps=v)),
    "bcdp.bayesian.mmean_finite.mmean_for_allocation": (
        "dps", 60, lambda v: __import__("bcdp.bayesian.mmean_finite", fromlist=["x"]).mmean_for_allocation(_alloc(), dps=v)),
    "bcdp.core.divergences.renyi_divergence": (
        "dps", 50, lambda v: __import__("bcdp.core.divergences", fromlist=["x"]).renyi_divergence(*PQ, 2, dps=v)),
    "bcdp.core.divergences.kl_divergence": (
        "dps", 50, lambda v: __import__("bcdp.core.divergences", fromlist=["x"]).kl_divergence(*PQ, dps=v)),
    "bcdp.core.divergences.hockey_stick": (
        "dps", 50, lambda v: __import__("bcdp.core.divergences", fromlist=["x"]).hockey_stick(*PQ, "1/10", dps=v)),
    "bcdp.core.intervals.arb_precision": ("bits", 53, _ctx),
    "bcdp.accounting.sampled_gaussian.sgm_rdp_ball": ("bits", 64, lambda v: _sg().sgm_rdp_ball("1/10", 2, 3, bits=v)),
    "bcdp.accounting.sampled_gaussian.sgm_rdp_ball_var": ("bits", 64, lambda v: _sg().sgm_rdp_ball_var("1/10", 4, 3, bits=v)),
    "bcdp.accounting.sampled_gaussian.sgm_rdp_bounds": ("bits", 64, lambda v: _sg().sgm_rdp_bounds("1/10", 2, 3, bits=v)),
    "bcdp.accounting.sampled_gaussian.sgm_rdp_mp": ("dps", 20, lambda v: _sg().sgm_rdp_mp("1/10", 2, 2, dps=v)),
    "bcdp.randomness.entropy.entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.entropy", fromlist=["x"]).entropy(("1/3", "2/3"), prec=v)),
    "bcdp.randomness.entropy.binary_entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.entropy", fromlist=["x"]).binary_entropy("1/3", prec=v)),
    "bcdp.randomness.entropy.critical_randomness": ("prec", 128, lambda v: __import__("bcdp.randomness.entropy", fromlist=["x"]).critical_randomness(1, prec=v)),
    "bcdp.randomness.entropy.inverse_binary_entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.entropy", fromlist=["x"]).inverse_binary_entropy("1/2", prec=v)),
    "bcdp.randomness.entropy.entropy_at_most": ("prec", 128, lambda v: __import__("bcdp.randomness.entropy", fromlist=["x"]).entropy_at_most(("1/3", "2/3"), 1, prec=v)),
    "bcdp.randomness.keys.two_level_entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.keys", fromlist=["x"]).two_level_entropy(4, 1, 1, prec=v)),
    "bcdp.randomness.keys.min_two_level_entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.keys", fromlist=["x"]).min_two_level_entropy(4, 1, prec=v)),
    "bcdp.randomness.keys.asz19_parameters": ("prec", 128, lambda v: __import__("bcdp.randomness.keys", fromlist=["x"]).asz19_parameters(10, 1, prec=v)),
    "bcdp.randomness.assouad.chi2_chain": ("prec", 128, lambda v: __import__("bcdp.randomness.assouad", fromlist=["x"]).chi2_chain([["1/3", "2/3"], ["2/3", "1/3"]], 2, "1/4", 1, (1,), 2, prec=v)),
    "bcdp.randomness.assouad.lemma731_rhs": ("prec", 128, lambda v: __import__("bcdp.randomness.assouad", fromlist=["x"]).lemma731_rhs([["1/3", "2/3"], ["2/3", "1/3"]], 2, "1/4", 1, prec=v)),
    "bcdp.randomness.hadamard.choose_q": ("prec", 128, lambda v: __import__("bcdp.randomness.hadamard", fromlist=["x"]).choose_q("27/10", "7/10", prec=v)),
    "bcdp.randomness.hadamard.ldp_status": ("prec", 128, lambda v: __import__("bcdp.randomness.hadamard", fromlist=["x"]).ldp_status("1/5", 3, "7/10", prec=v)),
    "bcdp.randomness.model.feasible_mechanisms": ("prec", 128, lambda v: __import__("bcdp.randomness.model", fromlist=["x"]).feasible_mechanisms(2, 2, 2, 2, 1, prec=v)),
    "bcdp.randomness.model.is_eps_ldp": ("prec", 128, lambda v: __import__("bcdp.randomness.model", fromlist=["x"]).is_eps_ldp([["1/3", "2/3"], ["2/3", "1/3"]], 1, prec=v)),
    "bcdp.randomness.model.is_eps_r_ldp": ("prec", 128, lambda v: __import__("bcdp.randomness.model", fromlist=["x"]).is_eps_r_ldp([["1/3", "2/3"], ["2/3", "1/3"]], 1, 1, prec=v)),
    "bcdp.randomness.model.mechanism_randomness": ("prec", 128, lambda v: __import__("bcdp.randomness.model", fromlist=["x"]).mechanism_randomness([["1/3", "2/3"]], prec=v)),
    "bcdp.randomness.multilevel.key_probabilities_certified": ("prec", 128, lambda v: __import__("bcdp.randomness.multilevel", fromlist=["x"]).key_probabilities_certified((1, "1/2"), prec=v)),
    "bcdp.randomness.multilevel.total_randomness": ("prec", 128, lambda v: __import__("bcdp.randomness.multilevel", fromlist=["x"]).total_randomness((1, "1/2"), prec=v)),
    "bcdp.randomness.p1.below_critical": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).below_critical(1, "1/2", prec=v)),
    "bcdp.randomness.p1.classical_bound": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).classical_bound(1, prec=v)),
    "bcdp.randomness.p1.corrected_lemma732_bound": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).corrected_lemma732_bound(1, "1/2", prec=v)),
    "bcdp.randomness.p1.p1_binary_upper": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).p1_binary_upper(1, "1/2", prec=v)),
    "bcdp.randomness.p1.p1_dual_upper": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).p1_dual_upper(2, 1, "1/2", prec=v)),
    "bcdp.randomness.p1.p1_feasible": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).p1_feasible(("1", "0"), ("1", "0"), 1, "1/2", prec=v)),
    "bcdp.randomness.p1.p1_feasible_point": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).p1_feasible_point(2, 1, "1/2", starts=0, prec=v)),
    "bcdp.randomness.p1.p1_solve": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).p1_solve(2, 1, "1/2", starts=0, prec=v)),
    "bcdp.randomness.p1.printed_lemma732_bound": ("prec", 128, lambda v: __import__("bcdp.randomness.p1", fromlist=["x"]).printed_lemma732_bound(1, "1/2", prec=v)),
    "bcdp.randomness.recoverability.key_entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability", fromlist=["x"]).key_entropy(("1/3", "2/3"), prec=v)),
    "bcdp.randomness.recoverability.shift_capacity": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability", fromlist=["x"]).shift_capacity(("1/3", "2/3"), prec=v)),
    "bcdp.randomness.recoverability_bounds.entropy_747": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability_bounds", fromlist=["x"]).entropy_747(4, 1, 1, prec=v)),
    "bcdp.randomness.recoverability_bounds.hr_upper_bound_751": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability_bounds", fromlist=["x"]).hr_upper_bound_751(4, 1, prec=v)),
    "bcdp.randomness.recoverability_bounds.lower_bound_752": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability_bounds", fromlist=["x"]).lower_bound_752(4, 1, prec=v)),
    "bcdp.randomness.recoverability_bounds.s_star": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability_bounds", fromlist=["x"]).s_star(4, 1, prec=v)),
    "bcdp.randomness.recoverability_bounds.stationary_point": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability_bounds", fromlist=["x"]).stationary_point(4, 1, prec=v)),
    "bcdp.randomness.recoverability_bounds.storage_gain": ("prec", 128, lambda v: __import__("bcdp.randomness.recoverability_bounds", fromlist=["x"]).storage_gain(4, 1, prec=v)),
    "bcdp.randomness.sequences.min_key_entropy": ("prec", 128, lambda v: __import__("bcdp.randomness.sequences", fromlist=["x"]).min_key_entropy(2, 2, eps=1, prec=v)),
    "bcdp.fl.sgd_convergence.lemma433_bound_ball": ("bits", 64, lambda v: __import__(
        "bcdp.fl.sgd_convergence", fromlist=["x"]).lemma433_bound_ball(1, 1, 4, bits=v)),
    "bcdp.fl.sgd_convergence.abs_loss_exact_gap": ("dps", 20, lambda v: __import__(
        "bcdp.fl.sgd_convergence", fromlist=["x"]).abs_loss_exact_gap((0, 1), ("1/2", "1/2"), 0, 1, 3, 0, dps=v)),
    "bcdp.fl.adaped.exact_rdp_curve": ("bits", 64, lambda v: __import__("bcdp.fl.adaped", fromlist=["x"]).exact_rdp_curve(
        1, 1, 10, 100, 1, 1, 1, 1, alpha_max=3, bits=v)),
    "bcdp.fl.adaped.exact_rdp_ball": ("bits", 64, lambda v: __import__("bcdp.fl.adaped", fromlist=["x"]).exact_rdp_ball(
        2, 1, 1, 10, 100, 1, 1, 1, 1, bits=v)),
    "bcdp.core.intervals.ball": ("prec", 53, lambda v: __import__("bcdp.core.intervals", fromlist=["x"]).ball(sympy.log(3), v)),
    "bcdp.core.intervals.enclosure": (
        "prec", 120, lambda v: __import__("bcdp.core.intervals", fromlist=["x"]).enclosure(sympy.log(3), v)),
    "bcdp.partial.concentrated.per_attribute_cdp_epsilon": (
        "dps", 50, lambda v: __import__("bcdp.partial.concentrated", fromlist=["x"]).per_attribute_cdp_epsilon(
            _partial_mech(), 1, 1, dps=v)),
    "bcdp.partial.concentrated.whole_record_zcdp": (
        "dps", 50, lambda v: __import__("bcdp.partial.concentrated", fromlist=["x"]).whole_record_zcdp(
            _partial_mech(), 1, 1, dps=v)),
    "bcdp.partial.concentrated.eps_enclosure": (
        "bits", 64, lambda v: __import__("bcdp.partial.concentrated", fromlist=["x"]).eps_enclosure("1/2", "", v)),
    "bcdp.partial.concentrated.nabla_cdp_holds": (
        "dps", 50, lambda v: __import__("bcdp.partial.concentrated", fromlist=["x"]).nabla_cdp_holds(
            _partial_mech(), 1, 1, lambda r, s: 10, dps=v)),
    "bcdp.partial.dstar.d_star": ("dps", 50, lambda v: __import__("bcdp.partial.dstar", fromlist=["x"]).d_star(*PQ, dps=v)),
    "bcdp.partial.mwem.lemma13_slack_mp": (
        "dps", 50, lambda v: __import__("bcdp.partial.mwem", fromlist=["x"]).lemma13_slack_mp(
            ["3/4", "1/4"], [0, 1], [0, 1], 1, "printed", dps=v)),
    "bcdp.partial.mwem.e3_joint_round_slack": (
        "dps", 60, lambda v: __import__("bcdp.partial.mwem", fromlist=["x"]).e3_joint_round_slack(2, v)),
    "bcdp.partial.mwem.e3_symmetric_slack": (
        "dps", 60, lambda v: __import__("bcdp.partial.mwem", fromlist=["x"]).e3_symmetric_slack(9, 1, v)),
    "bcdp.shuffle.efm19_dp.efm19_cor9_epsilon": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.efm19_dp", fromlist=["x"]).efm19_cor9_epsilon(
            "1/4", 1000, "1/1000", dps=v)),
    "bcdp.shuffle.efm19_dp.rr_shuffled_pair_delta": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.efm19_dp", fromlist=["x"]).rr_shuffled_pair_delta(
            5, "3/2", "1/10", dps=v)),
    "bcdp.shuffle.finite_laws.shuffled_rdp_exact": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.finite_laws", fromlist=["x"]).shuffled_rdp_exact(
            _rr_kernel(), [0, 0, 0], [0, 0, 1], 2, dps=v)),
    "bcdp.shuffle.finite_laws.subsampled_shuffled_rdp_exact": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.finite_laws", fromlist=["x"]).subsampled_shuffled_rdp_exact(
            _rr_kernel(), [0, 0, 0], [0, 0, 1], 2, "uniform", 2, dps=v)),
    "bcdp.shuffle.inputs.read_exact_mpf": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.inputs", fromlist=["x"]).read_exact_mpf("1/3", "x", v)),
    "bcdp.shuffle.inputs.exact_alpha": ("dps", 60, lambda v: __import__("bcdp.shuffle.inputs", fromlist=["x"]).exact_alpha(2, v)),
    "bcdp.shuffle.inputs.exact_eps0": ("dps", 60, lambda v: __import__("bcdp.shuffle.inputs", fromlist=["x"]).exact_eps0(1, v)),
    "bcdp.shuffle.rr_all_pairs.rr_pair_over_j_mp": (
        "dps", 50, lambda v: __import__("bcdp.shuffle.rr_all_pairs", fromlist=["x"]).rr_pair_over_j_mp(4, 1, 2, dps=v)),
    "bcdp.shuffle.kary_worst_pair.kary_worst_pair_exact": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.kary_worst_pair", fromlist=["x"]).kary_worst_pair_exact(
            3, 3, 2, 2, dps=v)),
    "bcdp.shuffle.rr_pair.rr_pair_rdp_mp": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.rr_pair", fromlist=["x"]).rr_pair_rdp_mp(10, 1, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.nbar": ("dps", 60, lambda v: _sb().nbar(100, 1, dps=v)),
    "bcdp.shuffle.shuffled_bounds.kbar": ("dps", 60, lambda v: _sb().kbar(100, 1, dps=v)),
    "bcdp.shuffle.shuffled_bounds.binomial_central_moments": (
        "dps", 60, lambda v: _sb().binomial_central_moments(10, "1/3", 3, dps=v)),
    "bcdp.shuffle.shuffled_bounds.thm535_special_case": ("dps", 60, lambda v: _sb().thm535_special_case(10, 1, 3, dps=v)),
    "bcdp.shuffle.shuffled_bounds.thm536_special_case": ("dps", 60, lambda v: _sb().thm536_special_case(10, 1, 3, dps=v)),
    "bcdp.shuffle.shuffled_bounds.thm531_upper": ("dps", 60, lambda v: _sb().thm531_upper(1000, 1, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.interpolate_real_alpha": (
        "dps", 60, lambda v: _sb().interpolate_real_alpha(lambda j: M(j), "5/2", dps=v)),
    "bcdp.shuffle.shuffled_bounds.cor531_condition": ("dps", 60, lambda v: _sb().cor531_condition(1000, 1, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.cor531_upper": ("dps", 60, lambda v: _sb().cor531_upper(145, 0, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.thm532_upper": ("dps", 60, lambda v: _sb().thm532_upper(1000, 1, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.efm19_upper": ("dps", 60, lambda v: _sb().efm19_upper(1000, 1, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.thm533_lower": ("dps", 60, lambda v: _sb().thm533_lower(1000, 1, 2, dps=v)),
    "bcdp.shuffle.shuffled_bounds.cor532_lower": ("dps", 60, lambda v: _sb().cor532_lower(1000, 1, 2, dps=v)),
    "bcdp.shuffle.subsampled.gdd21e_condition": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.subsampled", fromlist=["x"]).gdd21e_condition(1000, 1, 2, dps=v)),
    "bcdp.shuffle.subsampled.gdd21e_rdp": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.subsampled", fromlist=["x"]).gdd21e_rdp(10 ** 6, "1/2", 2, dps=v)),
    "bcdp.shuffle.subsampled.poisson_mixture_rdp": (
        "dps", 60, lambda v: __import__("bcdp.shuffle.subsampled", fromlist=["x"]).poisson_mixture_rdp(
            5, 1, 3, lambda t: M(t) / 10, dps=v)),
    "bcdp.shuffle.subsampled_bounds.upsilon": ("dps", 60, lambda v: _ssb().upsilon(3, "1/2", dps=v)),
    "bcdp.shuffle.subsampled_bounds.thm544_ternary": ("dps", 60, lambda v: _ssb().thm544_ternary(100, 1, 2, dps=v)),
    "bcdp.shuffle.subsampled_bounds.thm546_ternary_special_case": (
        "dps", 60, lambda v: _ssb().thm546_ternary_special_case(10, 1, 3, dps=v)),
    "bcdp.shuffle.subsampled_bounds.lemma541_subsampled": (
        "dps", 60, lambda v: _ssb().lemma541_subsampled(lambda lam: M(1), "1/2", 3, dps=v)),
    "bcdp.shuffle.subsampled_bounds.thm541_upper": ("dps", 60, lambda v: _ssb().thm541_upper(1000, 100, 1, 2, dps=v)),
    "bcdp.shuffle.subsampled_bounds.thm542_lower": ("dps", 60, lambda v: _ssb().thm542_lower(1000, 100, 1, 2, dps=v)),
}

#: parameters named like a precision that are not one
NOT_A_PRECISION = {"bcdp.partial.semantics.rr_row",          # ``bits``: the record's bit vector
                   "bcdp.dme.two_rr.sample_two_rr"}         # ``bits``: the input bits

#: the functions that other public functions call with their caller's dps plus guard digits (their
#: cap is MAX_DPS + GUARD_DPS; every other dps is capped at MAX_DPS)
GUARDED = {"bcdp.core.divergences.renyi_divergence", "bcdp.core.divergences.kl_divergence",
           "bcdp.core.divergences.hockey_stick", "bcdp.shuffle.inputs.read_exact_mpf",
           "bcdp.shuffle.inputs.exact_alpha",
           "bcdp.shuffle.inputs.exact_eps0", "bcdp.shuffle.shuffled_bounds.binomial_central_moments",
           "bcdp.shuffle.subsampled_bounds.upsilon", "bcdp.bayesian.highprec.mpf_of",
           "bcdp.bayesian.highprec.log_of", "bcdp.bayesian.highprec.max_column_ratio",
           "bcdp.bayesian.highprec.HPMechanism.__init__", "bcdp.bayesian.highprec.HPMechanism.from_exact",
           "bcdp.bayesian.highprec.HPLogRatio.__init__"}


def _public_precision_functions() -> set[str]:
    import bcdp

    found = set()
    for info in pkgutil.walk_packages(bcdp.__path__, "bcdp."):
        name = info.name
        if name.startswith("bcdp.checks") or name.endswith("__main__"):
            continue
        mod = importlib.import_module(name)
        for attr, obj in vars(mod).items():
            if attr.startswith("_") or getattr(obj, "__module__", None) != name:
                continue
            cands = []
            if inspect.isfunction(obj):
                cands.append((attr, obj))
            elif inspect.isclass(obj):
                for a2, o2 in vars(obj).items():
                    f = o2.__func__ if isinstance(o2, (classmethod, staticmethod)) else o2
                    if inspect.isfunction(f) and (not a2.startswith("_") or a2 == "__init__"):
                        cands.append((f"{attr}.{a2}", f))
            for qn, f in cands:
                if any(p in ("prec", "dps", "bits") for p in inspect.signature(f).parameters):
                    found.add(f"{name}.{qn}")
    return found - NOT_A_PRECISION


def test_every_public_precision_parameter_is_covered():
    found = _public_precision_functions()
    assert len(found) >= 60
    assert found == set(CALLS), (sorted(found - set(CALLS)), sorted(set(CALLS) - found))


BAD = [0, -1, True, 2.5, 10 ** 9]


@pytest.mark.parametrize("bad", BAD, ids=["0", "-1", "True", "2.5", "1e9"])
@pytest.mark.parametrize("qualname", sorted(CALLS))
def test_bad_precision_is_refused(qualname, bad):
    param, _, call = CALLS[qualname]
    with pytest.raises(InvalidInputError, match=f"^{param} must be an integer in"):
        call(bad)


@pytest.mark.parametrize("qualname", sorted(CALLS))
def test_valid_precision_works_and_one_past_the_cap_is_refused(qualname):
    param, good, call = CALLS[qualname]
    assert call(good) is not None
    cap = MAX_PREC_BITS if param in ("prec", "bits") else MAX_DPS + (GUARD_DPS if qualname in GUARDED else 0)
    with pytest.raises(InvalidInputError, match=f"got {cap + 1}$"):
        call(cap + 1)
    if param in ("prec", "bits"):
        with pytest.raises(InvalidInputError, match=f"\\[{MIN_PREC_BITS}, "):
            call(MIN_PREC_BITS - 1)


def test_old_examples_of_the_issue():
    """ball(expr, prec=0), enclosure(.., prec=-3), bun_steinke_epsilon(.., prec=0) and
    census_2020_table(prec=0) were accepted."""
    from bcdp.accounting.conversion import bun_steinke_epsilon, census_2020_table
    from bcdp.core.intervals import ball, enclosure

    for call in (lambda: ball(sympy.Rational(1, 3), prec=0), lambda: enclosure(sympy.Rational(1, 3), prec=-3),
                 lambda: bun_steinke_epsilon("1", "1e-6", prec=0), lambda: census_2020_table(prec=0)):
        with pytest.raises(InvalidInputError, match="^prec must be an integer in"):
            call()


def test_guard_digits_at_the_cap_do_not_break_outer_functions():
    """An outer function at dps = MAX_DPS passes dps + 10 / + 20 / + 50 to the guarded helpers
    (upsilon, binomial_central_moments, exact_alpha, ...): accepted, since their cap is
    MAX_DPS + GUARD_DPS.  Checked on the cheap calls (small n and orders)."""
    from bcdp.shuffle.inputs import exact_alpha

    assert exact_alpha(2, MAX_DPS + 50) == 2
    from bcdp.shuffle.subsampled_bounds import upsilon

    assert upsilon(2, "1/2", dps=MAX_DPS + 10) == mpmath.mpf(1) / 4

