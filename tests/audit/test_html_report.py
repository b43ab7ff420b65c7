"""`--report FILE.html` of `bcdp audit` and `bcdp audit-sampler`: a self-contained page.

Checked by parsing the page (html.parser): no script, no external resource; one heat-map cell per
kernel entry with the exact entry in its tooltip; the two LDP witness cells outlined; every exact
parameter value in the table; each trade-off frontier's vertices equal the Neyman-Pearson curve of its
witness pair computed here from the exact kernel and prior (likelihood-ratio order, Fractions): the LDP
pair, and per coordinate the laws P(y | x_i in S) of eq. (9) for the BCDP witness (Thm. 1); the dashed
lines end where e^eps alpha + beta = 1 and alpha + e^eps beta = 1 meet the axes.  Rendering in
headless Chromium: test_html_report_browser.py (slow).
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction as F
from html.parser import HTMLParser
from pathlib import Path

import sympy
from audit_oracles import np_frontier, same_points, unit
from bcdp.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "randomized_response_two_bits.json"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.titles: list[str] = []
        self.text: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        self.text.append(data)
        if self._in_title:
            self.titles.append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _self_contained(page: _Page) -> None:
    assert not [t for t, _ in page.tags if t in ("script", "link", "img", "iframe")]
    for _, attrs in page.tags:
        for key, value in attrs.items():
            assert not (value or "").startswith(("http://", "https://", "//")) or key == "xmlns"


def test_exact_audit_page(capsys, tmp_path):
    out = tmp_path / "r.html"
    assert main(["audit", str(EXAMPLE), "--report", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    page = _parse(out)
    _self_contained(page)
    doc = json.loads(EXAMPLE.read_text())
    rects = [a for t, a in page.tags if t == "rect" and "cell" in a.get("class", "").split()]
    assert len(rects) == 16                                            # 4 inputs x 4 outputs
    for x, row in zip(doc["inputs"], doc["kernel"]):
        for y, v in zip(doc["outputs"], row):
            assert any(t.startswith(f"P({y} | {x}) = {F(str(v))} =") for t in page.titles)
    assert sum(1 for a in rects if a.get("class") == "cell witness") == 2
    body = " ".join(page.text)
    for key in ("ldp_epsilon", "bdp_epsilon"):
        assert report[key]["exact"] in body
    for key in ("cdp", "bcdp", "dependence"):
        for v in report[key]:
            assert v["exact"] in body
    _check_curves(_plots(page), report, doc)


def test_exact_audit_page_asymmetric(capsys, tmp_path):
    """An asymmetric kernel on a 3-valued coordinate (no output permutation maps H0 to H1), so swapping
    the hypotheses or the witness sets changes the frontier."""
    doc = {"inputs": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]], "outputs": ["a", "b", "c"],
           "kernel": [["1/2", "1/3", "1/6"], ["2/5", "2/5", "1/5"], ["1/5", "3/5", "1/5"],
                      ["1/4", "1/2", "1/4"], ["1/10", "1/10", "4/5"], ["1/8", "1/4", "5/8"]],
           "prior": ["1/4", "1/8", "1/16", "3/16", "1/6", "5/24"]}
    path, out = tmp_path / "m.json", tmp_path / "m.html"
    path.write_text(json.dumps(doc))
    assert main(["audit", str(path), "--report", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    page = _parse(out)
    _check_curves(_plots(page), report, doc)


def _check_curves(plots, report, doc):
    assert len(plots) == 1 + len(report["bcdp"])                     # the LDP pair and each coordinate
    kernel = {tuple(x): [F(str(v)) for v in row] for x, row in zip(doc["inputs"], doc["kernel"])}
    prior = {tuple(x): F(str(v)) for x, v in zip(doc["inputs"], doc["prior"])}
    w = report["ldp_epsilon"]["witness"]
    wanted = [(kernel[tuple(w["x_prime"])], kernel[tuple(w["x"])], report["ldp_epsilon"]["exact"])]
    for i, entry in enumerate(report["bcdp"]):
        wanted.append((_law_given(kernel, prior, i, entry["witness"]["S_i_prime"]),
                       _law_given(kernel, prior, i, entry["witness"]["S_i"]), entry["exact"]))
    for (square, lines, poly), (p0, p1, exact) in zip(plots, wanted):
        same_points(unit(square, poly), np_frontier(p0, p1))
        e = float(sympy.exp(-sympy.sympify(exact)))
        same_points([q for pts in lines for q in unit(square, pts)], [(0, 1), (e, 0), (0, e), (1, 0)])
        # the witness is tight: a vertex of the frontier lies on e^eps alpha + beta = 1 (eq. (12))
        assert any(abs(a / e + b - 1) < 1e-9 for a, b in np_frontier(p0, p1)[1:])


def _law_given(kernel, prior, i, values):
    """eq. (9): P(y | x_i in S) = sum over x with x_i in S of prior(x) K(x, y), over prior(x_i in S)."""
    members = [x for x in kernel if x[i] in values]
    mass = sum(prior[x] for x in members)
    return [sum(prior[x] * kernel[x][j] for x in members) / mass for j in range(len(next(iter(kernel.values()))))]


def _plots(page):
    """Per trade-off plot: its square (x, y, size), its dashed bound lines, its frontier points."""
    plots, square, lines = [], None, []
    for tag, a in page.tags:
        if tag == "rect" and a.get("fill") == "none":
            square, lines = tuple(float(a[k]) for k in ("x", "y", "width")), []
        elif tag == "line" and a.get("class") == "bound":
            lines.append([(float(a["x1"]), float(a["y1"])), (float(a["x2"]), float(a["y2"]))])
        elif tag == "polyline":
            pts = [tuple(float(v) for v in p.split(",")) for p in a["points"].split()]
            plots.append((square, lines, pts))
    return plots


def test_sampler_audit_page(capsys, tmp_path, monkeypatch):
    (tmp_path / "html_mech.py").write_text(textwrap.dedent("""
        import math
        import numpy as np
        def rr(x, rng, size):
            keep = math.exp(2) / (1 + math.exp(2))
            return np.where(rng.random(size) < keep, x, 1 - x)
    """))
    (tmp_path / "in.json").write_text("[0, 1]")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["audit-sampler", "html_mech:rr", "--inputs", "in.json", "--outputs", "in.json", "--claim-eps", "1",
                 "--draws", "500", "--report", "r.html", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["ldp"]["verdict"] == "violated"
    page = _parse(tmp_path / "r.html")
    _self_contained(page)
    rects = [a for t, a in page.tags if t == "rect" and "cell" in a.get("class", "").split()]
    assert len(rects) == 4 and sum(1 for a in rects if a.get("class") == "cell witness") == 2
    assert any(a.get("class") == "violated" for t, a in page.tags if t == "tr")
    counts = sorted(int(t.split(" of ")[0]) for t in page.titles if " of 500 draws" in t)
    assert len(counts) == 4 and counts[0] + counts[3] == 500 and counts[1] + counts[2] == 500


def test_report_refused_with_fast_and_unwritable_path(capsys, tmp_path):
    assert main(["audit", str(EXAMPLE), "--fast", "--report", str(tmp_path / "r.html")]) == 2
    assert main(["audit", str(EXAMPLE), "--report", str(tmp_path / "missing" / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "without --fast" in err and "cannot write the report" in err


def test_heat_map_shrinks_large_kernels():
    """A 100 x 100 kernel fits a 720 px square (cells of 7 px; 250 x 250 the 3 px minimum) and drops the row/column labels, which
    would overlap; the tooltips keep them.  A 4 x 4 kernel keeps 22 px cells and its labels."""
    import numpy as np
    from bcdp.audit.html_report import heat_map

    for n, cell, labelled in ((4, 22, True), (100, 7, False), (250, 3, False)):
        rows = [f"in{k}" for k in range(n)]
        tips = [[f"t{i},{j}" for j in range(n)] for i in range(n)]
        page = _Page()
        page.feed(heat_map(np.full((n, n), 1 / n), rows, rows, tips, {(0, 0)}, "c"))
        cells = [a for t, a in page.tags if t == "rect" and "cell" in a.get("class", "").split()]
        assert len(cells) == n * n and {(a["width"], a["height"]) for a in cells} == {(str(cell), str(cell))}
        assert ("in1" in page.text) is labelled and "t1,2" in page.titles
