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
    assert set(rep["ldp"]) == {"claimed", "estimate", "lower_bound", "confidence", "verdict", "witness"}
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
