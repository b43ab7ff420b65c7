"""Every claim check in proofs_checks/ runs, passes (confirmed or erratum) and is JSON-serialisable."""

from __future__ import annotations

import json

import pytest

from bcdp.claims import PASSING_VERDICTS, check_modules, run_check

#: Check modules that must exist (so that none silently disappears).  Other modules may be added;
#: add their names here when they land.
EXPECTED_MODULES = {
    "proofs_checks.prop1_ldp_bdp",
    "proofs_checks.prop2_ldp_testing",
    "proofs_checks.thm1_bcdp_testing",
    "proofs_checks.prop3_ldp_to_bcdp",
    "proofs_checks.example1_bcdp_not_ldp",
    "proofs_checks.erratum_example1_parameter_range",
    "proofs_checks.example2_composition",
    "proofs_checks.prop5_post_processing",
    "proofs_checks.fig1_implications",
    "proofs_checks.lemma_finite_reductions",
    "proofs_checks.prop4_cdp_to_bcdp",
    "proofs_checks.prop6_linear_constraint",
    "proofs_checks.thm2_allocation_privacy",
    "proofs_checks.thm2_tie_knife_edge",
    "proofs_checks.thm2_privacy_enumeration",
    "proofs_checks.cor1_closed_forms",
    "proofs_checks.erratum_cor1_eq19",
    "proofs_checks.erratum_thm2_c1_remark",
    "proofs_checks.mech2_unbiased",
    "proofs_checks.mech2_privacy",
    "proofs_checks.erratum_eq64_variance",
    "proofs_checks.alg3_least_squares_unbiased",
    "proofs_checks.rdp_conversions_sound",
    "proofs_checks.baseline_clones_and_kov",
    "proofs_checks.thesis_thm531_upper",
    "proofs_checks.thesis_cor531_simplified",
    "proofs_checks.thesis_rem532_real_alpha",
    "proofs_checks.thesis_thm532_upper",
    "proofs_checks.thesis_efm19_bound",
    "proofs_checks.thesis_rem534_ub_comparison",
    "proofs_checks.thesis_rem537_gap",
    "proofs_checks.thesis_thm533_lower",
    "proofs_checks.thesis_erratum_eq540",
    "proofs_checks.thesis_cor532_lower",
    "proofs_checks.thesis_thm534_reduction",
    "proofs_checks.thesis_lemma533_monotonicity",
    "proofs_checks.thesis_thm535_special_case",
    "proofs_checks.thesis_thm541_subsampled_upper",
    "proofs_checks.thesis_thm542_subsampled_lower",
    "proofs_checks.thesis_thm544_ternary",
    "proofs_checks.thesis_lemma541_subsampled",
    "proofs_checks.pdp_thm11_sensitivities",
    "proofs_checks.pdp_prop8_attribute_to_record",
    "proofs_checks.pdp_composition",
    "proofs_checks.pdp_bridge_to_cdp",
    "proofs_checks.thesis_subsampled_rdp_transforms",
    "proofs_checks.pdp_thm15_two_stage_privacy",
    "proofs_checks.pdp_thm11_projection",
    "proofs_checks.pdp_lemma13_mw_potential",
    "proofs_checks.pdp_thm12_mwem",
    "proofs_checks.pdp_lemma28_heavy_hitter_privacy",
    "proofs_checks.pdp_lemma30_heavy_hitter_utility",
    "proofs_checks.pdp_thm16_lower_bound",
    "proofs_checks.pdp_lemma21_label_rr",
    "proofs_checks.pdp_lemma22_smoothed_loss",
    "proofs_checks.pdp_lemma23_net",
    "proofs_checks.pdp_prop26_bayesian",
    "proofs_checks.pdp_prop27_mutual_information",
    "proofs_checks.pdp_prop8_concentrated",
    "proofs_checks.pdp_pure_implies_cdp",
    "proofs_checks.pdp_composition_concentrated",
    "proofs_checks.pdp_triangle_group",
    "proofs_checks.pdp_lemma7_graph",
}

#: Verdicts expected for the checks above (a change is a finding, not noise).
EXPECTED_VERDICTS = {name: "confirmed" for name in EXPECTED_MODULES}
EXPECTED_VERDICTS["proofs_checks.erratum_example1_parameter_range"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.erratum_cor1_eq19"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.erratum_thm2_c1_remark"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.mech2_unbiased"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.erratum_eq64_variance"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.thesis_cor531_simplified"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.thesis_rem534_ub_comparison"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.thesis_erratum_eq540"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.thesis_cor532_lower"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_thm11_sensitivities"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_thm15_two_stage_privacy"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.thesis_subsampled_rdp_transforms"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_lemma13_mw_potential"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_thm16_lower_bound"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_lemma21_label_rr"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_lemma23_net"] = "erratum"
EXPECTED_VERDICTS["proofs_checks.pdp_prop26_bayesian"] = "erratum"


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
