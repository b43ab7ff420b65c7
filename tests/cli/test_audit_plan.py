"""`bcdp audit-plan`: the planned draws, checked against the audit they plan for.

The plan's promise is that `bcdp audit-sampler` reports "violated" with probability >= power.  That
is checked here by the exact binomial law of the witness counts (not by the planner's quantile
argument): for binary randomized response, the audit's LDP lower bound with 2 x 2 cells is the
larger of log(lo(k00)/hi(k10)) and log(lo(k11)/hi(k01)) over Clopper-Pearson ends at level
(1 - confidence)/4, computed with scipy's beta quantiles; the probability that the first exceeds the
claim, summed over the binomial laws of k00 and k10, is a lower bound on the probability of
"violated" and must be >= power.  The figure for the broken mechanism of docs/audits (true eps 2,
claim 1) is the page's 120.
"""

from __future__ import annotations

import json
import math

import pytest
from audit_oracles import refute_probability_lower
from bcdp.cli import main


def _violated_probability_lower(n: int, p: float, q: float, claim: float, confidence: float) -> float:
    """P(log(CP_lower(k_num) / CP_upper(k_den)) > claim) over 2 x 2 cells (level (1 - confidence)/4)."""
    return refute_probability_lower(n, p, q, claim, (1 - confidence) / 4)


@pytest.mark.parametrize("claim,true_eps,confidence,power", [(1.0, 2.0, 0.95, 0.9), (0.5, 1.0, 0.9, 0.8),
                                                              (2.0, 2.5, 0.99, 0.9)])
def test_plan_meets_its_power(capsys, claim, true_eps, confidence, power):
    assert main(["audit-plan", "--claim-eps", str(claim), "--rr-eps", str(true_eps), "--confidence",
                 str(confidence), "--power", str(power), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    n = report["draws_per_input"]
    p = math.exp(true_eps) / (1 + math.exp(true_eps))
    assert report["p_num"] == pytest.approx(p, rel=1e-15) and report["p_den"] == pytest.approx(1 - p, rel=1e-13)
    assert _violated_probability_lower(n, p, 1 - p, claim, confidence) >= power
    # not wildly loose: a third of the draws falls short of the power
    assert _violated_probability_lower(n // 3, p, 1 - p, claim, confidence) < power


def test_broken_mechanism_of_the_audit_page(capsys):
    assert main(["audit-plan", "--claim-eps", "1", "--rr-eps", "2"]) == 0
    assert capsys.readouterr().out.startswith("120 draws per input refute the claim eps = 1 ")


def test_cell_probabilities(capsys):
    assert main(["audit-plan", "--claim-eps", "1", "--cell-probabilities", "0.5,0.1", "--cells", "6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["true_log_ratio"] == pytest.approx(math.log(5)) and report["cells"] == 6
    n = report["draws_per_input"]
    # six cells: level (1 - confidence)/6; the bound from the two named cells alone
    assert refute_probability_lower(n, 0.5, 0.1, 1.0, 0.05 / 6) >= 0.9


@pytest.mark.parametrize("args,message", [
    (["--claim-eps", "1", "--rr-eps", "1"], "above the claim"),
    (["--claim-eps", "1", "--rr-eps", "701"], "at most 700"),
    (["--claim-eps", "1", "--cell-probabilities", "0.5"], "two numbers"),
    (["--claim-eps", "1", "--cell-probabilities", "0.1,0.5"], "p_den < p_num"),
    (["--claim-eps", "1", "--rr-eps", "2", "--cells", "3"], "at least 4"),
    (["--claim-eps", "1", "--rr-eps", "2", "--power", "1"], "--power must be a number in (0, 1)"),
    (["--claim-eps", "1", "--rr-eps", "2", "--confidence", "0"], "--confidence must be a number in (0, 1)"),
    (["--claim-eps", "nan", "--rr-eps", "2"], "--claim-eps"),
    (["--claim-eps", "0", "--rr-eps", "1e-12"], "more than 1000000000000 draws"),
    (["--claim-eps", "1"], "one of the arguments"),
])
def test_bad_input_one_line_exit_2(capsys, args, message):
    try:
        code = main(["audit-plan", *args, "--json"])
    except SystemExit as exc:                   # argparse's parse errors leave through SystemExit(2)
        code = exc.code
    assert code == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert json.loads(captured.out)["exit_code"] == 2
