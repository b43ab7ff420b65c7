"""Adversarial checks of what `bcdp audit-sampler` and `bcdp audit` print: the JSON fields per
coordinate, the plan of draws, the text lines, and the --report page (which cell is outlined, which
tooltip sits on which cell, which hypothesis is H0, where the dashed lines end, which rows are red).

The sampler here is deterministic: for each input it returns a fixed list of outputs (its rng is
unused), so the counts are known in advance (``TABLE``) and every oracle is computed from them,
independently of bcdp:

* page geometry: a heat-map cell's (row, column) is read from its SVG position, and its tooltip must
  give the count of that cell of ``TABLE``; the outlined cells must be those of the witness named in
  the JSON report (and, for the exact audit, that witness attains the exact LDP ratio, found here by
  a brute force over Fractions);
* trade-off curve: the Neyman-Pearson frontier of H0: frequencies of x' against H1: frequencies of x,
  computed with Fractions (outputs by decreasing likelihood ratio), its dashed lines ending at
  e^{-lower bound};
* plan of draws: the exact probability that the audit says "violated" at the planned n (enumeration
  of the witness cell's two binomial counts, scipy beta quantiles at level (1 - confidence) / K with
  K = inputs x outputs) is at least 0.9, and the figure is the one `bcdp audit-plan` gives for the
  same witness cell, cells and confidence (the command tested against the exact power in
  tests/cli/test_audit_plan.py);
* red rows: exactly the entries whose JSON verdict is "violated" (none for an entry without a claim);
* `bcdp audit-plan --power 0.99`: the exact probability of "violated" at the printed n is >= 0.99.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from fractions import Fraction as F
from html.parser import HTMLParser

import pytest
from audit_oracles import np_frontier, refute_probability_lower, same_points, unit
from bcdp.cli import main

TABLE = {0: [50, 30, 20], 1: [10, 30, 60], 2: [20, 50, 30]}
DRAWS = 100
SAMPLER = textwrap.dedent(f"""
    import numpy as np
    TABLE = {TABLE!r}

    def fixed(x, rng, size):
        key = x[0] + x[1] if isinstance(x, list) else x      # tuple inputs [0,0], [0,1], [1,1] -> 0, 1, 2
        assert size == {DRAWS}
        return np.repeat(np.arange(3), TABLE[key])
""")
TUPLES = [[0, 0], [0, 1], [1, 1]]


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    (tmp_path / "adv_fixed.py").write_text(SAMPLER)
    docs = {"in.json": [0, 1, 2], "in2.json": TUPLES, "out.json": [0, 1, 2], "prior.json": ["1/3", "1/3", "1/3"],
            "kernel.json": [[f"{c}/{DRAWS}" for c in TABLE[k]] for k in range(3)]}
    for name, doc in docs.items():
        (tmp_path / name).write_text(json.dumps(doc))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


class _Page(HTMLParser):
    """Heat-map cells with their tooltips, table rows' classes, paragraphs' classes, curve elements."""

    def __init__(self):
        super().__init__()
        self.cells, self.rows, self.paragraphs, self.squares, self.lines, self.frontiers = [], [], [], [], [], []
        self._title = False
        self._p = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "rect" and "cell" in (a.get("class") or "").split():
            self.cells.append({"x": float(a["x"]), "y": float(a["y"]), "witness": "witness" in a["class"].split(),
                               "title": ""})
        elif tag == "rect" and a.get("fill") == "none":
            self.squares.append(tuple(float(a[k]) for k in ("x", "y", "width")))
        elif tag == "line" and a.get("class") == "bound":
            self.lines.append([(float(a["x1"]), float(a["y1"])), (float(a["x2"]), float(a["y2"]))])
        elif tag == "polyline" and a.get("class") == "frontier":
            self.frontiers.append([tuple(float(v) for v in p.split(",")) for p in a["points"].split()])
        elif tag == "tr":
            self.rows.append(a.get("class"))
        elif tag == "p":
            self._p = [a.get("class"), ""]
            self.paragraphs.append(self._p)
        self._title = tag == "title"

    def handle_endtag(self, tag):
        self._title = False

    def handle_data(self, data):
        if self._title and self.cells:
            self.cells[-1]["title"] += data
        if self._p is not None:
            self._p[1] += data

    def grid(self):
        """{(row, column): cell}, rows and columns ranked by the SVG coordinates."""
        xs, ys = sorted({c["x"] for c in self.cells}), sorted({c["y"] for c in self.cells})
        return {(ys.index(c["y"]), xs.index(c["x"])): c for c in self.cells}


def _parse(path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


SAMPLER_ARGS = ["audit-sampler", "adv_fixed:fixed", "--inputs", "in2.json", "--outputs", "out.json", "--prior",
                "prior.json", "--claim-cdp", "7,0.001", "--claim-delta", "6,0.002", "--kernel", "kernel.json",
                "--draws", str(DRAWS)]


def test_sampler_page_cells_witness_curve_and_rows(workdir, capsys):
    code, out = _run(capsys, *SAMPLER_ARGS, "--report", "r.html", "--json")
    rep = json.loads(out)
    entries = [rep["ldp"], *rep["cdp"], *rep["bcdp"]]
    assert code == (1 if any(e["verdict"] == "violated" for e in entries) else 0)
    # claims reach the coordinate they were given for
    assert [e["claimed"] for e in rep["cdp"]] == [7.0, 0.001]
    assert [e["claimed"] for e in rep["bcdp"]] == [6.0, 0.002]
    assert rep["ldp"]["claimed"] is None and rep["ldp"]["verdict"] is None
    page = _parse(workdir / "r.html")
    # tooltips: the count of the cell at that position
    grid = page.grid()
    assert len(grid) == 9
    for (r, c), cell in grid.items():
        assert cell["title"].startswith(f"{TABLE[r][c]} of {DRAWS} draws"), (r, c, cell["title"])
    # outlined cells: the witness pair in the witness column
    w = rep["ldp"]["witness"]
    x, xp, y = TUPLES.index(w["x"]), TUPLES.index(w["x_prime"]), w["R"][0]
    assert {pos for pos, cell in grid.items() if cell["witness"]} == {(x, y), (xp, y)}
    # the witness is the column of largest ratio of frequencies (TABLE: column 0, 50 vs 10)
    assert (x, xp, y) == (0, 1, 0)
    # the trade-off curve: H0 = frequencies of x', H1 = frequencies of x; lines at the lower bound
    assert len(page.frontiers) == 1
    square = page.squares[-1]
    p0 = [F(c, DRAWS) for c in TABLE[xp]]
    p1 = [F(c, DRAWS) for c in TABLE[x]]
    same_points(unit(square, page.frontiers[0]), np_frontier(p0, p1))
    e = math.exp(-rep["ldp"]["lower_bound"])
    same_points([q for pts in page.lines for q in unit(square, pts)], [(0, 1), (e, 0), (0, e), (1, 0)])
    # red rows: exactly the violated entries, in the table's order (header row first)
    assert page.rows[0] is None
    assert [cls == "violated" for cls in page.rows[1:]] == [e["verdict"] == "violated" for e in entries]
    # goodness of fit to the table itself: statistic 0, not rejected, not red
    assert rep["goodness_of_fit"]["verdict"] == "not rejected" and rep["goodness_of_fit"]["p_value"] == 1.0
    fit = [p for p in page.paragraphs if p[1].startswith("Goodness of fit")]
    assert len(fit) == 1 and fit[0][0] is None and "not rejected" in fit[0][1]


def test_text_lines_agree_with_the_json_report(workdir, capsys):
    code_json, out = _run(capsys, *SAMPLER_ARGS, "--json")
    rep = json.loads(out)
    code_text, text = _run(capsys, *SAMPLER_ARGS)
    assert code_text == code_json
    entries = [("LDP eps", rep["ldp"])] + [(f"CDP c_{i + 1}", e) for i, e in enumerate(rep["cdp"])] \
        + [(f"BCDP d_{i + 1}", e) for i, e in enumerate(rep["bcdp"])]
    lines = text.splitlines()
    for name, e in entries:
        [line] = [ln for ln in lines if ln.startswith(name + " ")]
        m = re.search(r"estimate (\S+)  lower bound (\S+)(?:  claim (\S+): (not refuted|violated))?", line)
        assert m, line
        assert float(m.group(1)) == pytest.approx(e["estimate"], rel=1e-5)
        assert float(m.group(2)) == pytest.approx(e["lower_bound"], rel=1e-5, abs=1e-300)
        assert m.group(4) == e["verdict"]


def test_planned_draws_are_those_of_the_best_witness_over_all_cells(workdir, capsys):
    """Claim 0.9 (the frequencies give log 5 in column 0 and log 3 in column 2; 100 draws are too few
    to refute it).  The plan must be for column 0 (0.5 vs 0.1) over the 9 cells at confidence 0.95."""
    code, out = _run(capsys, "audit-sampler", "adv_fixed:fixed", "--inputs", "in.json", "--outputs", "out.json",
                     "--claim-eps", "0.9", "--draws", str(DRAWS), "--json")
    rep = json.loads(out)
    assert code == 0 and rep["ldp"]["verdict"] == "not refuted" and rep["cells"] == 9
    assert rep["ldp"]["estimate"] == pytest.approx(math.log(5), rel=1e-12)
    n = rep["ldp"]["draws_to_refute"]
    assert refute_probability_lower(n, 0.5, 0.1, 0.9, 0.05 / 9) >= 0.9
    assert refute_probability_lower(n // 3, 0.5, 0.1, 0.9, 0.05 / 9) < 0.9          # the plan is not loose by 3x
    assert main(["audit-plan", "--claim-eps", "0.9", "--cell-probabilities", "0.5,0.1", "--cells", "9",
                 "--confidence", "0.95", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["draws_per_input"] == n


def test_exact_audit_page_outlines_the_witness_cells(tmp_path, capsys):
    doc = {"inputs": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]], "outputs": ["a", "b", "c"],
           "kernel": [["1/2", "1/3", "1/6"], ["2/5", "2/5", "1/5"], ["1/5", "3/5", "1/5"],
                      ["1/4", "1/2", "1/4"], ["1/10", "1/10", "4/5"], ["1/8", "1/4", "5/8"]]}
    (tmp_path / "m.json").write_text(json.dumps(doc))
    code, out = _run(capsys, "audit", str(tmp_path / "m.json"), "--report", str(tmp_path / "m.html"), "--json")
    assert code == 0
    w = json.loads(out)["ldp_epsilon"]["witness"]
    kernel = [[F(v) for v in row] for row in doc["kernel"]]
    x, xp, y = doc["inputs"].index(w["x"]), doc["inputs"].index(w["x_prime"]), doc["outputs"].index(w["R"][0])
    best = max(max(col) / min(col) for col in zip(*kernel))
    assert kernel[x][y] / kernel[xp][y] == best == 6
    grid = _parse(tmp_path / "m.html").grid()
    assert len(grid) == 18
    outlined = {pos for pos, cell in grid.items() if cell["witness"]}
    assert outlined == {(x, y), (xp, y)}
    for r, c in outlined:
        assert grid[(r, c)]["title"].startswith(f"P({doc['outputs'][c]} | {doc['inputs'][r]}) = ")


@pytest.mark.parametrize("claim,p,q,cells", [(1.0, 0.5, 0.1, 4), (1.0, 0.88, 0.12, 4)])
def test_audit_plan_meets_a_high_requested_power(capsys, claim, p, q, cells):
    """`bcdp audit-plan --power 0.99`: the exact probability of "violated" at the printed n (witness cell
    alone, level 0.05 / cells) is at least 0.99.  On these cases a plan made for the default power 0.9
    has an exact power near 0.985, so the requested power must reach the planner."""
    assert main(["audit-plan", "--claim-eps", str(claim), "--cell-probabilities", f"{p},{q}", "--cells", str(cells),
                 "--power", "0.99", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["power"] == 0.99
    assert refute_probability_lower(rep["draws_per_input"], p, q, claim, 0.05 / cells) >= 0.99
