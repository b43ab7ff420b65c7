"""Every claim check in proofs_checks/ runs, passes (confirmed or erratum) and is JSON-serialisable."""

from __future__ import annotations

import json

import pytest
from bcdp.claims import PASSING_VERDICTS, check_modules, run_check

#: Check modules that must exist (so that none silently disappears).  Other modules may be added;
#: add their names here when they land.
EXPECTED_MODULES = {
    "bcdp.checks.prop1_ldp_bdp",
    "bcdp.checks.prop2_ldp_testing",
    "bcdp.checks.thm1_bcdp_testing",
    "bcdp.checks.prop3_ldp_to_bcdp",
    "bcdp.checks.example1_bcdp_not_ldp",
    "bcdp.checks.erratum_example1_parameter_range",
    "bcdp.checks.example2_composition",
    "bcdp.checks.prop5_post_processing",
    "bcdp.checks.fig1_implications",
    "bcdp.checks.lemma_finite_reductions",
    "bcdp.checks.prop4_cdp_to_bcdp",
    "bcdp.checks.prop6_linear_constraint",
    "bcdp.checks.thm2_allocation_privacy",
    "bcdp.checks.thm2_tie_knife_edge",
    "bcdp.checks.thm2_privacy_enumeration",
    "bcdp.checks.cor1_closed_forms",
    "bcdp.checks.erratum_cor1_eq19",
    "bcdp.checks.erratum_thm2_c1_remark",
    "bcdp.checks.mech2_unbiased",
    "bcdp.checks.mech2_privacy",
    "bcdp.checks.erratum_eq64_variance",
    "bcdp.checks.alg3_least_squares_unbiased",
    "bcdp.checks.rdp_conversions_sound",
    "bcdp.checks.baseline_clones_and_kov",
    "bcdp.checks.thesis_thm531_upper",
    "bcdp.checks.thesis_cor531_simplified",
    "bcdp.checks.thesis_rem532_real_alpha",
    "bcdp.checks.thesis_thm532_upper",
    "bcdp.checks.thesis_efm19_bound",
    "bcdp.checks.thesis_rem534_ub_comparison",
    "bcdp.checks.thesis_rem537_gap",
    "bcdp.checks.thesis_thm533_lower",
    "bcdp.checks.thesis_erratum_eq540",
    "bcdp.checks.thesis_cor532_lower",
    "bcdp.checks.thesis_thm534_reduction",
    "bcdp.checks.thesis_lemma533_monotonicity",
    "bcdp.checks.thesis_thm535_special_case",
    "bcdp.checks.thesis_thm541_subsampled_upper",
    "bcdp.checks.thesis_thm542_subsampled_lower",
    "bcdp.checks.thesis_thm544_ternary",
    "bcdp.checks.thesis_lemma541_subsampled",
    "bcdp.checks.pdp_thm11_sensitivities",
    "bcdp.checks.pdp_prop8_attribute_to_record",
    "bcdp.checks.pdp_composition",
    "bcdp.checks.pdp_bridge_to_cdp",
    "bcdp.checks.thesis_subsampled_rdp_transforms",
    "bcdp.checks.pdp_thm15_two_stage_privacy",
    "bcdp.checks.pdp_thm11_projection",
    "bcdp.checks.pdp_lemma13_mw_potential",
    "bcdp.checks.pdp_thm12_mwem",
    "bcdp.checks.pdp_lemma28_heavy_hitter_privacy",
    "bcdp.checks.pdp_lemma30_heavy_hitter_utility",
    "bcdp.checks.pdp_thm16_lower_bound",
    "bcdp.checks.pdp_lemma21_label_rr",
    "bcdp.checks.pdp_lemma22_smoothed_loss",
    "bcdp.checks.pdp_lemma23_net",
    "bcdp.checks.pdp_prop26_bayesian",
    "bcdp.checks.pdp_prop27_mutual_information",
    "bcdp.checks.pdp_prop8_concentrated",
    "bcdp.checks.pdp_pure_implies_cdp",
    "bcdp.checks.pdp_composition_concentrated",
    "bcdp.checks.pdp_triangle_group",
    "bcdp.checks.pdp_lemma7_graph",
}

#: Verdicts expected for the checks above (a change is a finding, not noise).
EXPECTED_VERDICTS = {name: "confirmed" for name in EXPECTED_MODULES}
EXPECTED_VERDICTS["bcdp.checks.erratum_example1_parameter_range"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.erratum_cor1_eq19"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.erratum_thm2_c1_remark"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.mech2_unbiased"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.erratum_eq64_variance"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis_cor531_simplified"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis_rem534_ub_comparison"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis_erratum_eq540"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis_cor532_lower"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_thm11_sensitivities"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_thm15_two_stage_privacy"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.thesis_subsampled_rdp_transforms"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_lemma13_mw_potential"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_thm16_lower_bound"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_lemma21_label_rr"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_lemma23_net"] = "erratum"
EXPECTED_VERDICTS["bcdp.checks.pdp_prop26_bayesian"] = "erratum"


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
