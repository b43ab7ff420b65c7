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


# -- issue 12: the whole range of alpha, the best conversion first, notes, exact delta ---------------

def _cks_min_60(rho: str, delta: str):
    """inf over alpha of CKS 2020 Prop. 12 as printed (r = rho alpha), 60 digits: grid over
    t = log(alpha - 1) in [-36, 700], then golden section between the neighbours of the best point."""
    import mpmath as mp

    with mp.workdps(60):
        R, D = mp.mpf(rho), mp.mpf(delta)

        def g(t):
            a = 1 + mp.exp(t)
            return R * a + (-mp.log(D) + (a - 1) * mp.log(1 - 1 / a) - mp.log(a)) / (a - 1)

        ts = [mp.mpf(-36) + mp.mpf(736) * k / 1472 for k in range(1473)]
        i = min(range(len(ts)), key=lambda k: g(ts[k]))
        lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, len(ts) - 1)]
        phi = (mp.sqrt(5) - 1) / 2
        for _ in range(200):
            c, d = hi - phi * (hi - lo), lo + phi * (hi - lo)
            if g(c) < g(d):
                hi = d
            else:
                lo = c
        return g((lo + hi) / 2)


def test_issue_rho_1e_12_delta_1e_100_cks_below_bun_steinke(capsys):
    """Issue 12: CKS printed 2.2489e-4 (alpha* = 962289, the edge of the old search) > Bun-Steinke
    3.0349e-5.  Now the 60-digit infimum of the printed CKS formula, reported first as the best."""
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "1e-12", "--delta", "1e-100", "--json")
    res = _strict(out)
    ref = _cks_min_60("1e-12", "1e-100")
    cks, bs = res["epsilon"]["cks"], res["epsilon"]["bun-steinke"]
    assert code == 0 and ref <= cks <= ref * (1 + 1e-12) and cks < bs
    assert res["best"] == {"method": "cks", "epsilon": cks}
    assert res["details"]["cks"]["alpha_star"] > 1e7 and res["details"]["cks"]["notes"] == []
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "1e-12", "--delta", "1e-100")
    lines = out.splitlines()
    assert lines[1].strip() == f"best: epsilon <= {cks!r} (cks)" and lines[2].split()[0] == "cks"


def test_best_conversion_first_and_notes_shown(capsys):
    """rho = 1e200: CKS's minimiser alpha - 1 ~ 1e-100 is not a float order; its value at 1 + 2^-52
    is 2 ulp above the Bun-Steinke closed form (an infimum over real alpha).  The best (Bun-Steinke)
    is listed first, and the CKS boundary note is printed (text) and returned (JSON)."""
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "1e200", "--delta", "0.5", "--json")
    res = _strict(out)
    assert code == 0
    eps = res["epsilon"]
    assert res["best"]["method"] == min(eps, key=eps.get) == "bun-steinke"
    assert res["details"]["cks"]["notes"] and "float orders" in res["details"]["cks"]["notes"][0]
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "1e200", "--delta", "0.5")
    lines = out.splitlines()
    assert "(bun-steinke)" in lines[1] and lines[2].split()[0] == "bun-steinke"
    assert any(line.strip().startswith("note: optimal alpha beyond the float orders") for line in lines)


@pytest.mark.parametrize("delta", ["1e-400", "0.99999999999999999999", "1e-10000", "0." + "9" * 9990],
                         ids=["1e-400", "1-1e-20", "1e-10000", "1-1e-9990"])
def test_delta_beyond_float_resolution_is_valid(capsys, delta):
    """delta is decided on its exact decimal value: 1e-400 (a float 0.0), 1 - 1e-20 (a float 1.0),
    the exponent cap 1e-10000 and a 9990-digit delta just below 1 (the length cap is 10000) are
    valid; the CKS value is the 60-digit infimum (>= it, within 1e-9), Bun-Steinke its closed form
    (>= it, within 2^-50; at 1 - 1e-9990 it printed inf: 1/delta enclosed at 200 bits straddled 1)."""
    import mpmath as mp

    code, out, err = run(capsys, "zcdp", "to-dp", "--rho", "0.5", "--delta", delta, "--json")
    assert code == 0, err
    res = _strict(out)
    assert res["input"]["delta"] == delta
    with mp.workdps(60):
        L = -mp.log(mp.mpf(delta)) if len(delta) < 100 else mp.mpf(10) ** -9990   # log(1/delta)
        bs = mp.mpf("0.5") + 2 * mp.sqrt(mp.mpf("0.5") * L)
        # the printed formula's infimum; for L = 1e-9990 the formula at alpha = 1 + 2^-k (where
        # log(1 - 1/alpha) ~ -k log 2 dominates) is evaluated here: it is negative, so eps must be 0
        ref = max(_cks_min_60("0.5", delta), 0) if len(delta) < 100 else max(
            min(mp.mpf("0.5") * a + mp.log(1 - 1 / a) + (L - mp.log(a)) / (a - 1)
                for a in (1 + mp.mpf(2) ** -k for k in range(1, 60))), 0)
        assert ref <= res["epsilon"]["cks"] <= ref * (1 + mp.mpf(10) ** -9) + mp.mpf(10) ** -300
        assert bs <= res["epsilon"]["bun-steinke"] <= bs * (1 + mp.mpf(2) ** -50)


@pytest.mark.parametrize("delta", ["0", "1", "0.0", "1.0", "-1e-400", "1.00000000000000000001", "1e-10001"])
def test_delta_boundary_refused(capsys, delta):
    code, out, err = run(capsys, "zcdp", "to-dp", "--rho", "0.5", f"--delta={delta}")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_rho_decided_exactly(capsys):
    """rho = -1e-400 (a float -0.0) is negative: refused; rho = 1e-400 (a float 0.0) is positive: its
    CKS value is > 0 at delta = 1e-400 and below Bun-Steinke."""
    assert run(capsys, "zcdp", "to-dp", "--rho=-1e-400", "--delta", "1e-6")[0] == 2
    code, out, _ = run(capsys, "zcdp", "to-dp", "--rho", "1e-400", "--delta", "1e-400", "--json")
    res = _strict(out)
    assert code == 0 and 0 < res["epsilon"]["cks"] < res["epsilon"]["bun-steinke"]
