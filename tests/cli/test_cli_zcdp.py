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
