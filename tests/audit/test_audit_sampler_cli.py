"""`bcdp audit-sampler`, end to end through the CLI: report shape, verdicts, reproducibility, errors.

The samplers are written here with known laws (randomized response with keep probability
e^eps / (1 + e^eps), so LDP epsilon = eps exactly); the verdicts are checked against those exact
values: a correct claim is "not refuted" (false alarm at most 1 - confidence; the seeds are fixed so
the run is deterministic), a claim half the truth is "violated" with the draws planned for it.
"""

from __future__ import annotations

import json
import math
import textwrap

import pytest
from bcdp.cli import main

SAMPLERS = textwrap.dedent("""
    import math
    import numpy as np

    def rr(x, rng, size):
        keep = math.exp(1) / (1 + math.exp(1))
        return np.where(rng.random(size) < keep, x, 1 - x)

    def rr_one(x, rng):
        keep = math.exp(1) / (1 + math.exp(1))
        return x if rng.random() < keep else 1 - x

    def broken_rr(x, rng, size):          # keep probability with 2 eps: (2 eps)-LDP, claimed eps = 1
        keep = math.exp(2) / (1 + math.exp(2))
        return np.where(rng.random(size) < keep, x, 1 - x)

    def first_bit(x, rng, size):         # RR(1) on the first coordinate, the second one ignored
        keep = math.exp(1) / (1 + math.exp(1))
        return np.where(rng.random(size) < keep, x[0], 1 - x[0])

    def gauss(x, rng, size):
        return x + rng.normal(0.0, 1.0, size)

    def rr34(x, rng, size):              # keep probability 3/4 exactly (a float 0.75)
        return np.where(rng.random(size) < 0.75, x, 1 - x)

    def fails(x, rng):
        raise ValueError("no")

    def wild(x, rng):
        return 5
""")


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    (tmp_path / "audited_mechs.py").write_text(SAMPLERS)
    for name, doc in {"in.json": [0, 1], "out.json": [0, 1], "in2.json": [[0, 0], [0, 1], [1, 0], [1, 1]],
                      "prior.json": ["1/4", "1/4", "1/4", "1/4"], "badprior.json": [0.5, 0.25, 0.25, 0.25],
                      "realin.json": [0.0, 1.0]}.items():
        (tmp_path / name).write_text(json.dumps(doc))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_correct_claim_is_not_refuted_and_the_report_has_the_documented_shape(capsys, workdir):
    code, out, err = run(capsys, "audit-sampler", "audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json",
                         "--claim-eps", "1", "--draws", "20000", "--seed", "4", "--json")
    assert code == 0, err
    rep = json.loads(out)
    # draws_to_refute appears exactly when the estimate exceeds the claim (about half the seeds here)
    shape = {"claimed", "estimate", "lower_bound", "confidence", "verdict", "witness"}
    assert set(rep["ldp"]) == shape | ({"draws_to_refute"} if rep["ldp"]["estimate"] > 1.0 else set())
    assert rep["draws"] == 20000 and rep["seed"] == 4 and rep["cells"] == 4
    assert rep["ldp"]["verdict"] == "not refuted" and rep["ldp"]["lower_bound"] <= 1.0
    assert abs(rep["ldp"]["estimate"] - 1.0) < 0.1
    again = run(capsys, "audit-sampler", "audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json",
                "--claim-eps", "1", "--draws", "20000", "--seed", "4", "--json")[1]
    assert again == out                                     # same seed, same report


def test_broken_mechanism_is_caught_with_the_planned_draws(capsys, workdir):
    """A first run with few draws does not refute the claim and plans the draws; the planned run does."""
    code, out, _ = run(capsys, "audit-sampler", "audited_mechs:broken_rr", "--inputs", "in.json", "--outputs",
                       "out.json", "--claim-eps", "1.6", "--draws", "300", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["ldp"]["verdict"] == "not refuted" and rep["ldp"]["estimate"] > 1.6
    planned = rep["ldp"]["draws_to_refute"]
    code, out, _ = run(capsys, "audit-sampler", "audited_mechs:broken_rr", "--inputs", "in.json", "--outputs",
                       "out.json", "--claim-eps", "1.6", "--draws", str(planned), "--seed", "1", "--json")
    rep = json.loads(out)
    assert code == 1 and rep["ldp"]["verdict"] == "violated" and 1.6 < rep["ldp"]["lower_bound"] <= 2.0
    assert rep["ldp"]["witness"]["R"] in ([0], [1])


def test_coordinates_and_bcdp_with_a_prior(capsys, workdir):
    code, out, err = run(capsys, "audit-sampler", "audited_mechs:first_bit", "--inputs", "in2.json", "--outputs",
                         "out.json", "--prior", "prior.json", "--claim-cdp", "1,0", "--claim-delta", "0.5,0",
                         "--draws", "20000", "--json")
    rep = json.loads(out)
    # c_1 = 1 (RR on bit 1), c_2 = 0 (bit 2 ignored); under the uniform prior delta_1 = 1 and delta_2 = 0
    assert [e["verdict"] for e in rep["cdp"]] == ["not refuted", "not refuted"]
    assert rep["cdp"][0]["lower_bound"] > 0.8 and rep["cdp"][1]["lower_bound"] == 0
    assert rep["bcdp"][0]["verdict"] == "violated" and rep["bcdp"][1]["verdict"] == "not refuted"
    assert code == 1


def test_per_draw_samplers_and_bins(capsys, workdir):
    code, out, _ = run(capsys, "audit-sampler", "audited_mechs:rr_one", "--inputs", "in.json", "--outputs", "out.json",
                       "--draws", "3000", "--json")
    assert code == 0 and json.loads(out)["ldp"]["verdict"] is None
    code, out, _ = run(capsys, "audit-sampler", "audited_mechs:gauss", "--inputs", "realin.json",
                       "--bins=-inf,-1,0,1,2,inf", "--draws", "20000", "--json")
    rep = json.loads(out)
    # the binned Gaussian mechanism N(x, 1), x in {0, 1}: its exact LDP epsilon from the normal CDF
    edges = [-math.inf, -1, 0, 1, 2, math.inf]
    cdf = lambda t: 0.5 * (1 + math.erf(t / math.sqrt(2))) if math.isfinite(t) else float(t > 0)
    law = [[cdf(b - x) - cdf(a - x) for a, b in zip(edges, edges[1:])] for x in (0, 1)]
    exact = max(abs(math.log(p / q)) for p, q in zip(*law))
    assert code == 0 and rep["ldp"]["lower_bound"] <= exact and abs(rep["ldp"]["estimate"] - exact) < 0.2
    assert rep["outputs"][0] == "[-inf, -1.0)"


@pytest.mark.parametrize("argv,message", [
    (["audited_mechs:fails", "--inputs", "in.json", "--outputs", "out.json"], "raised ValueError"),
    (["audited_mechs:wild", "--inputs", "in.json", "--outputs", "out.json"], "not in the declared output set"),
    (["audited_mechs:rr", "--inputs", "in2.json", "--outputs", "out.json", "--prior", "badprior.json"], "summing to 1"),
    (["audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json", "--claim-delta", "1"], "needs --prior"),
    (["audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json", "--draws", "0"], "draws"),
    (["audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json", "--draws", "1e6"], "--draws"),
    (["audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json", "--confidence", "1"], "confidence"),
    (["audited_mechs:rr", "--inputs", "in.json", "--outputs", "out.json", "--claim-eps", "-1"], "--claim-eps"),
    (["audited_mechs:rr", "--inputs", "missing.json", "--outputs", "out.json"], "missing.json"),
    (["audited_mechs:nope", "--inputs", "in.json", "--outputs", "out.json"], "no attribute"),
    (["audited_mechs:rr", "--inputs", "in.json", "--bins", "1,0"], "increasing"),
    (["audited_mechs:rr", "--inputs", "in.json", "--bins=-inf,nan"], "NaN"),
    (["audited_mechs:first_bit", "--inputs", "in2.json", "--outputs", "out.json", "--claim-cdp", "1"], "2 coordinates"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, workdir, argv, message):
    code, out, err = run(capsys, "audit-sampler", *argv, "--draws" if "--draws" not in argv else "--seed",
                         "200" if "--draws" not in argv else "0", "--json")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and message in err
    assert json.loads(out)["exit_code"] == 2


@pytest.mark.parametrize("rows,verdict,code", [
    ([["3/4", "1/4"], ["1/4", "3/4"]], "not rejected", 0),        # the sampler's own kernel
    ([[0.75, 0.25], [0.25, 0.75]], "not rejected", 0),            # the same, as JSON floats
    ([[1, 0], [0, 1]], "rejected", 1),                            # integers (exact): counts in 0 cells
    ([["7/10", "3/10"], ["3/10", "7/10"]], "rejected", 1),        # keep 0.7 claimed, 0.75 drawn
])
def test_kernel_goodness_of_fit(workdir, capsys, rows, verdict, code):
    """--kernel: the counts tested against a declared exact kernel.  With 20000 draws per input a keep
    probability off by 0.05 gives a chi-square statistic near 20000 * 0.05^2 / (0.7 * 0.3) = 238 per
    input (1 degree of freedom): p far below 0.05.  The correct kernel is rejected with probability at
    most 0.05 (asymptotically); the seed fixes the run."""
    (workdir / "k.json").write_text(json.dumps(rows))
    assert main(["audit-sampler", "audited_mechs:rr34", "--inputs", "in.json", "--outputs", "out.json",
                 "--kernel", "k.json", "--draws", "20000", "--seed", "3", "--json"]) == code
    fit = json.loads(capsys.readouterr().out)["goodness_of_fit"]
    assert fit["verdict"] == verdict and fit["level"] == pytest.approx(0.05) and fit["kernel"] == "k.json"
    assert (fit["p_value"] < 0.05) == (verdict == "rejected") and 0 <= fit["p_value"] <= 1
    if verdict == "rejected":
        assert fit["p_value"] < 1e-20


def test_kernel_goodness_of_fit_text(workdir, capsys):
    (workdir / "k.json").write_text(json.dumps([["7/10", "3/10"], ["3/10", "7/10"]]))
    assert main(["audit-sampler", "audited_mechs:rr34", "--inputs", "in.json", "--outputs", "out.json",
                 "--kernel", "k.json", "--draws", "20000", "--report", "r.html"]) == 1
    assert "fit to k.json: p-value" in capsys.readouterr().out
    page = (workdir / "r.html").read_text()
    assert '<p class="violated">Goodness of fit to k.json: p-value' in page and ": rejected (" in page


@pytest.mark.parametrize("rows,message", [
    ([["3/4", "1/4"]], "shape (2, 2)"),
    ([["3/4", "1/4"], ["1/4"]], "shape (2, 2)"),
    ([["3/4", "1/4"], "ab"], "list of rows"),
    ([["3/4", "1/4"], ["1/4", "x"]], "kernel[1][1]"),
    ([["3/4", "1/4"], ["1/4", "1/2"]], "sum"),
    ([[0.75, 0.25], [0.25, 0.7]], "sum"),                          # floats: 1e-9 tolerance
    ('[["3/4", "1/4"], [1e400, 0]]', "kernel[1][0]"),             # raw JSON text: a number overflowing
    ([["5/4", "-1/4"], ["1/4", "3/4"]], "negative"),
    ({"a": 1}, "non-empty JSON list"),
])
def test_kernel_bad_file(workdir, capsys, rows, message):
    """Refused before any draw: the sampler given here raises if called."""
    (workdir / "k.json").write_text(rows if isinstance(rows, str) else json.dumps(rows))
    assert main(["audit-sampler", "audited_mechs:fails", "--inputs", "in.json", "--outputs", "out.json",
                 "--kernel", "k.json", "--draws", "100", "--json"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert json.loads(captured.out)["error"]["message"] in captured.err
