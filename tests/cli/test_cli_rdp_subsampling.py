"""`bcdp rdp to-dp` and `bcdp rdp calibrate` with subsampling (--sample-size K, --poisson-rate G,
--bound thm5.4.1): the certified eps against thesis Thm 5.4.1 as printed (tests/shuffle_references.py,
mpmath, converted from an independent certified curve), the calibration consistent with to-dp on the
same arguments, and bad input as one-line errors (exit 2, a JSON error object under --json).
"""

from __future__ import annotations

import json

import pytest
from bcdp.cli import main
from shuffle_references import thm541_dp_epsilon_ref


def _json(capsys, argv):
    code = main(argv)
    cap = capsys.readouterr()
    return code, (json.loads(cap.out) if cap.out.strip() else None), cap.err


def test_to_dp_with_a_sample_size_is_thm541_as_printed(capsys):
    code, out, err = _json(capsys, ["rdp", "to-dp", "--n", "10000", "--eps0", "1", "--delta", "1e-6", "--rounds",
                                    "10", "--bound", "thm5.4.1", "--sample-size", "1000", "--orders", "2,3,4,8,16,32",
                                    "--json"])
    assert code == 0, err
    want = thm541_dp_epsilon_ref(10000, 1000, "1", "1e-6", 10, [2, 3, 4, 8, 16, 32])
    assert abs(out["epsilon"] - want) <= 1e-12 * want
    assert out["sample_size"] == 1000 and "Thm 5.4.1" in out["source"] and "poisson_rate" not in out


@pytest.mark.parametrize("sub", [["--sample-size", "500"], ["--poisson-rate", "0.05"]])
def test_calibrate_is_consistent_with_to_dp(capsys, sub):
    base = ["--delta", "1e-6", "--rounds", "20", "--bound", "thm5.4.1", "--orders", "2,4,8,16,32", *sub, "--json"]
    code, cal, err = _json(capsys, ["rdp", "calibrate", "--target-eps", "1.5", "--n", "10000", *base])
    assert code == 0, err
    assert cal["calibrated"] == "eps0" and cal["epsilon"] <= 1.5 < cal["beyond"]["epsilon"]
    for e0, eps in ((cal["eps0"], cal["epsilon"]), (cal["beyond"]["eps0"], cal["beyond"]["epsilon"])):
        code, out, err = _json(capsys, ["rdp", "to-dp", "--n", "10000", "--eps0", repr(e0), *base])
        assert code == 0, err
        assert out["epsilon"] == eps
    code, cal_n, err = _json(capsys, ["rdp", "calibrate", "--target-eps", "1.5", "--eps0", "1", *base])
    assert code == 0, err
    assert cal_n["calibrated"] == "n" and cal_n["epsilon"] <= 1.5 < cal_n["beyond"]["epsilon"]
    code, out, err = _json(capsys, ["rdp", "to-dp", "--n", str(cal_n["n"]), "--eps0", "1", *base])
    assert code == 0 and out["epsilon"] == cal_n["epsilon"]


@pytest.mark.parametrize("argv,message", [
    (["--bound", "thm5.4.1"], "pass --sample-size K or --poisson-rate G"),
    (["--bound", "thm5.3.1", "--sample-size", "10"], "pass --bound thm5.4.1"),
    (["--exact", "--sample-size", "10"], "the exact curve has no subsampling"),
    (["--bound", "thm5.4.1", "--sample-size", "1001"], "exceeds the number of users"),
    (["--bound", "thm5.4.1", "--sample-size", "0"], "sample-size"),
    (["--bound", "thm5.4.1", "--poisson-rate", "0"], "--poisson-rate must lie in (0, 1]"),
    (["--bound", "thm5.4.1", "--poisson-rate", "1.5"], "--poisson-rate must lie in (0, 1]"),
    (["--bound", "thm5.4.1", "--poisson-rate", "nan"], "poisson-rate"),
    (["--bound", "thm5.4.1", "--sample-size", "10", "--orders", "2,2.5"], "integer orders"),
])
def test_bad_subsampling_input_is_a_one_line_error(capsys, argv, message):
    code = main(["rdp", "to-dp", "--n", "1000", "--eps0", "1", "--delta", "1e-6", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    code, out, err = _json(capsys, ["rdp", "to-dp", "--n", "1000", "--eps0", "1", "--delta", "1e-6", *argv, "--json"])
    assert code == 2 and out["exit_code"] == 2 and message in out["error"]["message"]


def test_both_subsampling_flags_are_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["rdp", "to-dp", "--n", "1000", "--eps0", "1", "--delta", "1e-6", "--bound", "thm5.4.1",
              "--sample-size", "10", "--poisson-rate", "0.1"])
    assert exc.value.code == 2


def test_calibrate_refuses_subsampling_with_the_exact_curve(capsys):
    code = main(["rdp", "calibrate", "--target-eps", "1", "--delta", "1e-6", "--n", "100", "--exact",
                 "--poisson-rate", "0.1"])
    assert code == 2 and "the exact curve has no subsampling" in capsys.readouterr().err
