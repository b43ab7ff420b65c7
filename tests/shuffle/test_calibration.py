"""Calibration (bcdp.shuffle.calibration, `bcdp rdp calibrate`): the answer meets the target and a
value one step beyond does not, each checked by an independent run of `bcdp rdp to-dp` (the command
that prints the certified guarantee) on the same arguments; monotone and bad-input behaviour.
"""

from __future__ import annotations

import json

import pytest
from bcdp.cli import main
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle.calibration import calibrate_eps0, calibrate_n


def _to_dp(capsys, *args: str) -> float:
    assert main(["rdp", "to-dp", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["epsilon"]


def _calibrate(capsys, *args: str) -> dict:
    assert main(["rdp", "calibrate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("target,delta,rounds,n,bound,method", [
    ("1", "1e-6", "10", "10000", "thm5.3.1", "cks"),
    ("0.5", "1e-8", "1", "2000", "thm5.3.1", "best"),
    ("2", "1e-5", "50", "100000", "thm5.3.2", "cks"),
])
def test_eps0_meets_the_target_and_one_step_beyond_does_not(capsys, target, delta, rounds, n, bound, method):
    out = _calibrate(capsys, "--target-eps", target, "--delta", delta, "--rounds", rounds, "--n", n,
                     "--bound", bound, "--method", method)
    common = ["--n", n, "--delta", delta, "--rounds", rounds, "--bound", bound, "--method", method]
    at = _to_dp(capsys, "--eps0", repr(out["eps0"]), *common)
    beyond = _to_dp(capsys, "--eps0", repr(out["beyond"]["eps0"]), *common)
    assert at == out["epsilon"] <= float(target) < beyond == out["beyond"]["epsilon"]
    assert out["beyond"]["eps0"] == pytest.approx(out["eps0"] * 1.001, rel=1e-12)


@pytest.mark.parametrize("target,delta,rounds,eps0,bound", [
    ("1", "1e-6", "10", "1", "thm5.3.1"),
    ("0.3", "1e-6", "1", "2", "thm5.3.1"),
])
def test_n_meets_the_target_and_one_step_below_does_not(capsys, target, delta, rounds, eps0, bound):
    out = _calibrate(capsys, "--target-eps", target, "--delta", delta, "--rounds", rounds, "--eps0", eps0,
                     "--bound", bound)
    common = ["--eps0", eps0, "--delta", delta, "--rounds", rounds, "--bound", bound]
    at = _to_dp(capsys, "--n", str(out["n"]), *common)
    below = _to_dp(capsys, "--n", str(out["beyond"]["n"]), *common)
    assert at == out["epsilon"] <= float(target) < below == out["beyond"]["epsilon"]
    assert out["beyond"]["n"] == int(out["n"] * 0.999) or out["beyond"]["n"] == out["n"] - 1


def test_exact_curve_calibration_agrees_with_to_dp_exact(capsys):
    out = _calibrate(capsys, "--target-eps", "1.5", "--delta", "1e-5", "--n", "40", "--exact", "--orders",
                     "2,4,8,16,32")
    common = ["--n", "40", "--delta", "1e-5", "--exact", "--orders", "2,4,8,16,32"]
    assert _to_dp(capsys, "--eps0", repr(out["eps0"]), *common) == out["epsilon"] <= 1.5
    assert _to_dp(capsys, "--eps0", repr(out["beyond"]["eps0"]), *common) > 1.5


def test_text_output(capsys):
    assert main(["rdp", "calibrate", "--target-eps", "1", "--delta", "1e-6", "--n", "10000",
                 "--bound", "thm5.3.1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("eps0 = ") and "<= target 1.0 at delta = 1e-6 after T = 1 round(s); eps0 = " in text


def test_cap_and_unreachable_targets():
    capped = calibrate_eps0("1000", "1e-6", 10000, eps0_max=2.0)
    assert capped["capped"] and capped["eps0"] == 2.0 and capped["beyond"] is None
    with pytest.raises(InvalidInputError, match="no eps0"):
        calibrate_eps0("1e-9", "1e-6", 10)
    with pytest.raises(InvalidInputError, match="no n <="):
        calibrate_n("1e-3", "1e-6", "5", n_max=1000)


@pytest.mark.parametrize("args,message", [
    (["--target-eps", "0", "--delta", "1e-6", "--n", "100", "--bound", "thm5.3.1"], "target eps"),
    (["--target-eps", "nan", "--delta", "1e-6", "--n", "100", "--bound", "thm5.3.1"], "target eps"),
    (["--target-eps", "inf", "--delta", "1e-6", "--n", "100", "--bound", "thm5.3.1"], "target eps"),
    (["--target-eps", "1", "--delta", "1e-6", "--eps0", "1", "--exact"], "needs --bound"),
    (["--target-eps", "1", "--delta", "1e-6", "--n", "100", "--bound", "lower5.3.3"], "lower bound"),
    (["--target-eps", "1", "--delta", "1e-6", "--n", "100", "--bound", "thm5.3.1", "--rel", "0.9"], "rel"),
    (["--target-eps", "1", "--delta", "1e-6", "--n", "100000", "--exact"], "too costly"),
    (["--target-eps", "1", "--delta", "1e-6", "--eps0", "inf", "--bound", "thm5.3.1"], "eps0 = inf"),
])
def test_bad_input_one_line_exit_2(capsys, args, message):
    assert main(["rdp", "calibrate", *args, "--json"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert json.loads(captured.out)["exit_code"] == 2
