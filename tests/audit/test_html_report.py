"""`--report FILE.html` of `bcdp audit` and `bcdp audit-sampler`: a self-contained page.

Checked by parsing the page (html.parser): no script, no external resource; one heat-map cell per
kernel entry with the exact entry in its tooltip; the two LDP witness cells outlined; every exact
parameter value in the table; the trade-off frontier's vertices equal the Neyman-Pearson curve of the
witness pair computed here from the exact kernel (likelihood-ratio order, Fractions).  Not done here:
rendering in a headless browser (no browser on the test machine).
"""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction as F
from html.parser import HTMLParser
from pathlib import Path

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
    rects = [a for t, a in page.tags if t == "rect" and "fill" in a and a.get("fill") != "none"]
    assert len(rects) == 16                                            # 4 inputs x 4 outputs
    for x, row in zip(doc["inputs"], doc["kernel"]):
        for y, v in zip(doc["outputs"], row):
            assert any(t.startswith(f"P({y} | {x}) = {F(str(v))} =") for t in page.titles)
    assert sum(1 for a in rects if a.get("class") == "witness") == 2
    body = " ".join(page.text)
    for key in ("ldp_epsilon", "bdp_epsilon"):
        assert report[key]["exact"] in body
    for key in ("cdp", "bcdp", "dependence"):
        for v in report[key]:
            assert v["exact"] in body
    # the frontier: H0 = M(x'), H1 = M(x) of the witness; outputs by decreasing ratio P1/P0
    w = report["ldp_epsilon"]["witness"]
    rows = {tuple(x): [F(str(v)) for v in row] for x, row in zip(doc["inputs"], doc["kernel"])}
    p0, p1 = rows[tuple(w["x_prime"])], rows[tuple(w["x"])]
    # outputs with equal ratios enter together (one segment: its inner points are not vertices)
    ratios = sorted({p1[j] / p0[j] for j in range(4)}, reverse=True)
    alpha, beta, want = F(0), F(1), [(0.0, 1.0)]
    for r in ratios:
        alpha += sum(p0[j] for j in range(4) if p1[j] / p0[j] == r)
        beta -= sum(p1[j] for j in range(4) if p1[j] / p0[j] == r)
        want.append((float(alpha), float(beta)))
    poly = [a for t, a in page.tags if t == "polyline"][0]["points"].split()
    got = [((float(p.split(",")[0]) - 40) / 260, 1 - (float(p.split(",")[1]) - 40) / 260) for p in poly]
    distinct = sorted(set((round(a, 6), round(b, 6)) for a, b in want))
    assert sorted(set((round(a, 6), round(b, 6)) for a, b in got)) == distinct


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
    rects = [a for t, a in page.tags if t == "rect" and a.get("fill") != "none"]
    assert len(rects) == 4 and sum(1 for a in rects if a.get("class") == "witness") == 2
    assert any(a.get("class") == "violated" for t, a in page.tags if t == "tr")
    counts = sorted(int(t.split(" of ")[0]) for t in page.titles if " of 500 draws" in t)
    assert len(counts) == 4 and counts[0] + counts[3] == 500 and counts[1] + counts[2] == 500


def test_report_refused_with_fast_and_unwritable_path(capsys, tmp_path):
    assert main(["audit", str(EXAMPLE), "--fast", "--report", str(tmp_path / "r.html")]) == 2
    assert main(["audit", str(EXAMPLE), "--report", str(tmp_path / "missing" / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "without --fast" in err and "cannot write the report" in err
