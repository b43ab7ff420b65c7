"""Every claim check in proofs_checks/ runs, passes (confirmed or erratum) and is JSON-serialisable."""

from __future__ import annotations

import json

import pytest
from bcdp.claims import PASSING_VERDICTS, check_modules, run_check

#: Check modules that must exist (so that none silently disappears).  Other modules may be added;
#: add their names here when they land.
EXPECTED_MODULES = {
    "bcdp.checks.bcdp.prop1_ldp_bdp",
    "bcdp.checks.bcdp.prop2_ldp_testing",
    "bcdp.checks.bcdp.thm1_bcdp_testing",
    "bcdp.checks.bcdp.prop3_ldp_to_bcdp",
    "bcdp.checks.bcdp.example1_bcdp_not_ldp",
    "bcdp.checks.bcdp.erratum_example1_parameter_range",
    "bcdp.checks.bcdp.example2_composition",
    "bcdp.checks.bcdp.prop5_post_processing",
    "bcdp.checks.bcdp.fig1_implications",
    "bcdp.checks.bcdp.lemma_finite_reductions",
    "bcdp.checks.bcdp.prop4_cdp_to_bcdp",
    "bcdp.checks.bcdp.prop6_linear_constraint",
    "bcdp.checks.bcdp.thm2_allocation_privacy",
    "bcdp.checks.bcdp.thm2_tie_knife_edge",
    "bcdp.checks.bcdp.thm2_privacy_enumeration",
    "bcdp.checks.bcdp.cor1_closed_forms",
    "bcdp.checks.bcdp.erratum_cor1_eq19",
    "bcdp.checks.bcdp.erratum_thm2_c1_remark",
    "bcdp.checks.bcdp.mech2_unbiased",
    "bcdp.checks.bcdp.mech2_privacy",
    "bcdp.checks.bcdp.erratum_eq64_variance",
    "bcdp.checks.bcdp.alg3_least_squares_unbiased",
    "bcdp.checks.thesis.rdp_conversions_sound",
    "bcdp.checks.thesis.baseline_clones_and_kov",
    "bcdp.checks.thesis.thm531_upper",
    "bcdp.checks.thesis.cor531_simplified",
    "bcdp.checks.thesis.rem532_real_alpha",
    "bcdp.checks.thesis.thm532_upper",
    "bcdp.checks.thesis.efm19_bound",
    "bcdp.checks.thesis.rem534_ub_comparison",
    "bcdp.checks.thesis.rem537_gap",
    "bcdp.checks.thesis.thm533_lower",
    "bcdp.checks.thesis.erratum_eq540",
    "bcdp.checks.thesis.cor532_lower",
    "bcdp.checks.thesis.thm534_reduction",
    "bcdp.checks.thesis.lemma533_monotonicity",
    "bcdp.checks.thesis.thm535_special_case",
    "bcdp.checks.thesis.thm541_subsampled_upper",
    "bcdp.checks.thesis.thm542_subsampled_lower",
    "bcdp.checks.thesis.thm544_ternary",
    "bcdp.checks.thesis.lemma541_subsampled",
    "bcdp.checks.partial_dp.thm11_sensitivities",
    "bcdp.checks.partial_dp.prop8_attribute_to_record",
    "bcdp.checks.partial_dp.composition",
    "bcdp.checks.partial_dp.bridge_to_cdp",
    "bcdp.checks.thesis.subsampled_rdp_transforms",
    "bcdp.checks.partial_dp.thm15_two_stage_privacy",
    "bcdp.checks.partial_dp.thm11_projection",
    "bcdp.checks.partial_dp.lemma13_mw_potential",
    "bcdp.checks.partial_dp.thm12_mwem",
    "bcdp.checks.partial_dp.lemma28_heavy_hitter_privacy",
    "bcdp.checks.partial_dp.lemma30_heavy_hitter_utility",
    "bcdp.checks.partial_dp.thm16_lower_bound",
    "bcdp.checks.partial_dp.lemma21_label_rr",
    "bcdp.checks.partial_dp.lemma22_smoothed_loss",
    "bcdp.checks.partial_dp.lemma23_net",
    "bcdp.checks.partial_dp.prop26_bayesian",
    "bcdp.checks.partial_dp.prop27_mutual_information",
    "bcdp.checks.partial_dp.prop8_concentrated",
    "bcdp.checks.partial_dp.pure_implies_cdp",
    "bcdp.checks.partial_dp.composition_concentrated",
    "bcdp.checks.partial_dp.triangle_group",
    "bcdp.checks.partial_dp.lemma7_graph",
}

#: Verdicts expected for the checks above (a change is a finding, not noise).
EXPECTED_VERDICTS = {name: "confirmed" for name in EXPECTED_MODULES}
EXPECTED_VERDICTS["bcdp.checks.bcdp.erratum_example1_parameter_range"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.bcdp.erratum_cor1_eq19"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.bcdp.erratum_thm2_c1_remark"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.bcdp.mech2_unbiased"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.bcdp.erratum_eq64_variance"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis.cor531_simplified"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis.rem534_ub_comparison"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis.erratum_eq540"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis.cor532_lower"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.thm11_sensitivities"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.thm15_two_stage_privacy"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis.subsampled_rdp_transforms"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.lemma13_mw_potential"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.thm16_lower_bound"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.lemma21_label_rr"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.lemma23_net"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.partial_dp.prop26_bayesian"] = "erratum"


def test_expected_check_modules_exist():
    missing = EXPECTED_MODULES - set(check_modules())
    assert not missing, f"claim checks missing from proofs_checks/: {sorted(missing)}"


@pytest.mark.parametrize("module_name", check_modules())
def test_claim_check_passes(module_name):
    result = run_check(module_name)
    assert result.verdict in PASSING_VERDICTS, (
        f"{module_name}: verdict {result.verdict!r}, key figure {result.key_figure!r}\n"
        f"{json.dumps(result.to_json(), indent=1, default=str)[:4000]}")
    assert result.passed
    if module_name in EXPECTED_VERDICTS:
        assert result.verdict == EXPECTED_VERDICTS[module_name]
    text = json.dumps(result.to_json())  # no default=: the evidence itself must be JSON-serialisable
    assert json.loads(text)["claim_id"] == result.claim_id
    for field in ("claim_id", "source", "statement", "key_figure"):
        assert getattr(result, field) and getattr(result, field) != "?"
