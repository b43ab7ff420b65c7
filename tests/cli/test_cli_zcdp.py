"""`bcdp zcdp to-dp`: JSON shape, ordering of the conversions, and the 2020 Census figures."""

import json
import math

import pytest
from bcdp.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("rho,printed", [("2.63", 13.8), ("1.02", 7.85)])
def test_census_figures(capsys, rho, printed):
    # Partial DP paper (Ghazi et al.), Sec. on the 2020 Census: rho = 2.63 -> eps ~ 13.8 and
    # rho = 1.02 -> eps ~ 7.85 at delta = 1e-6 (partial DP paper, Sec. 7, the Census 2020 example).
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", rho, "--delta", "1e-6", "--json")
    assert code == 0
    res = json.loads(out)
    assert res["rho"] == float(rho) and res["delta"] == 1e-6
    cks, bs = res["epsilon"]["cks"], res["epsilon"]["bun-steinke"]
    assert cks < bs
    # Bun-Steinke closed form rho + 2 sqrt(rho log(1/delta)) (an independent formula)
    r = float(rho)
    assert bs >= r + 2 * math.sqrt(r * math.log(1e6)) - 1e-12
    assert bs == pytest.approx(r + 2 * math.sqrt(r * math.log(1e6)), rel=1e-12)
    # the paper's figure is the CKS conversion, to the digits printed
    assert abs(cks - printed) < 0.01


def test_bad_input_exit_2(capsys):
    assert run(capsys, "zcdp", "to-dp", "--rho", "-1", "--delta", "1e-6")[0] == 2
    assert run(capsys, "zcdp", "to-dp", "--rho", "1", "--delta", "1.5")[0] == 2


@pytest.mark.parametrize("rho,delta", [("2.63", "1e-6"), ("1e-30", "1e-6"), ("0.5", "0.999999999999999")])
def test_enclosures_contain_60_digit_references(capsys, rho, delta):
    """Each printed enclosure contains the conversion evaluated here with mpmath at 60 digits: CKS
    (Canonne-Kamath-Steinke 2020 Prop. 12) at the printed alpha_star with r = rho alpha, and the
    Bun-Steinke closed form rho + 2 sqrt(rho log(1/delta)); tiny rho and delta = 1 - 1e-15 included."""
    import mpmath as mp

    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", rho, "--delta", delta, "--json")
    assert code == 0
    res = json.loads(out)
    with mp.workdps(60):
        R, D = mp.mpf(rho), mp.mpf(delta)
        a = mp.mpf(res["details"]["cks"]["alpha_star"])
        cks = R * a + (-mp.log(D) + (a - 1) * mp.log((a - 1) / a) - mp.log(a)) / (a - 1)
        bs = R + 2 * mp.sqrt(R * -mp.log(D))
        for name, ref in (("cks", cks), ("bun-steinke", bs)):
            lo, hi = res["details"][name]["enclosure"]
            assert mp.mpf(lo) <= ref <= mp.mpf(hi)
            assert mp.mpf(res["epsilon"][name]) >= max(ref, 0)


@pytest.mark.parametrize("argv", [
    ("--rho", "1/0", "--delta", "1e-6"), ("--rho", "1", "--delta", "1/0"), ("--rho", "abc", "--delta", "1e-6"),
    ("--rho", "nan", "--delta", "1e-6"), ("--rho", "inf", "--delta", "1e-6"), ("--rho", "1", "--delta", "0"),
    ("--rho", "1", "--delta", "1e100000000"), ("--rho", "1e-100000000", "--delta", "1e-6"),
], ids=lambda a: " ".join(a))
def test_bad_inputs_one_line_exit_2(capsys, argv):
    code, out, err = run(capsys, "zcdp", "to-dp", *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _strict(text):
    def refuse(name):
        raise AssertionError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def test_ratio_arguments_and_strict_json(capsys):
    """--rho 1/3 --delta 1/3 (a traceback after computing, issue 12) and --rho 0 (printed Infinity):
    exit 0, strict JSON, infinities as "inf"; the Bun-Steinke value against its closed form."""
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "1/3", "--delta", "1/3", "--json")
    res = _strict(out)
    assert code == 0 and res["rho"] == pytest.approx(1 / 3) and res["delta"] == pytest.approx(1 / 3)
    assert res["epsilon"]["bun-steinke"] == pytest.approx(1 / 3 + 2 * math.sqrt(math.log(3) / 3), rel=1e-12)
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "0", "--delta", "1e-6", "--json")
    res = _strict(out)
    assert code == 0 and res["epsilon"] == {"cks": 0.0, "bun-steinke": 0.0}
    assert res["details"]["bun-steinke"]["alpha_star"] == "inf"
