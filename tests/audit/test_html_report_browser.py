"""The `--report` pages rendered in headless Chromium (slow; needs Playwright and a Chromium binary).

Setup (Debian): `apt-get install chromium` and `pip install -e '.[browser]'` (Playwright's Python
package; its own browser download is not used, the system Chromium is launched instead).  Skipped,
with the reason, when either is missing.

For the exact-audit page and the sampler page, the browser must report no console error, no page
error and no request other than the page itself (the page is self-contained); every heat-map cell
is laid out with the cell size, inside the page; the pixel at the centre of each cell, read from the
screenshot, is the cell's declared fill and gets darker as the probability grows; the witness cells
are drawn with the red outline; each trade-off frontier lies inside its plot square, and the plots
(the LDP pair and one per coordinate) do not overlap.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import textwrap
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from bcdp.cli import main

pytestmark = pytest.mark.slow
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "randomized_response_two_bits.json"
CHROMIUM = os.environ.get("BCDP_CHROMIUM", shutil.which("chromium") or shutil.which("chromium-browser") or "")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright not installed (extra 'browser')")
    if not CHROMIUM:
        pytest.skip("no Chromium binary (apt-get install chromium, or set BCDP_CHROMIUM)")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def _render(browser, path: Path, shot: Path) -> tuple[dict, np.ndarray]:
    """Open the page, record console/page errors and requests, screenshot it, read its layout."""
    page = browser.new_page(viewport={"width": 1000, "height": 800}, device_scale_factor=1)
    errors, requests = [], []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    page.screenshot(path=str(shot), full_page=True)
    layout = page.evaluate("""() => {
        const box = e => { const r = e.getBoundingClientRect();
                           return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; };
        return {
          cells: [...document.querySelectorAll('svg rect.cell')].map(e => ({
              box: box(e), fill: e.getAttribute('fill'), title: e.querySelector('title').textContent,
              witness: e.classList.contains('witness'), stroke: getComputedStyle(e).stroke,
              strokeWidth: getComputedStyle(e).strokeWidth})),
          frontier: [...document.querySelectorAll('polyline.frontier')].map(box),
          squares: [...document.querySelectorAll('polyline.frontier')].map(
              e => box(e.ownerSVGElement.querySelector('rect[fill="none"]'))),
          width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
        };
    }""")
    page.close()
    from matplotlib.image import imread

    pixels = imread(io.BytesIO(shot.read_bytes()), format="png")
    assert not errors, errors
    assert requests == [path.as_uri()], requests
    return layout, pixels


def _check_cells(layout: dict, pixels: np.ndarray, probability) -> None:
    cells = layout["cells"]
    assert cells
    lum = []
    for cell in cells:
        x, y, w, h = cell["box"]
        assert abs(w - 22) < 1.5 and abs(h - 22) < 1.5, cell          # the stroke adds at most a pixel
        assert 0 <= x and x + w <= layout["width"] and 0 <= y and y + h <= layout["height"]
        rgb = pixels[int(y + h / 2), int(x + w / 2), :3]
        want = np.array([int(cell["fill"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
        assert np.max(np.abs(rgb - want)) <= 2 / 255, (cell, rgb, want)
        lum.append((probability(cell["title"]), float(rgb @ [0.299, 0.587, 0.114])))
        if cell["witness"]:
            assert cell["stroke"] == "rgb(221, 0, 0)" and cell["strokeWidth"] == "3px"
    lum.sort()
    assert all(b[1] <= a[1] + 1e-9 for a, b in zip(lum, lum[1:]) if b[0] > a[0]), "darker must mean likelier"
    assert sum(1 for c in cells if c["witness"]) == 2


def _check_frontiers(layout: dict, count: int) -> None:
    """Each frontier inside its own plot square, and the plots side by side without overlapping."""
    assert len(layout["frontier"]) == count == len(layout["squares"])
    for (fx, fy, fw, fh), (sx, sy, sw, sh) in zip(layout["frontier"], layout["squares"]):
        assert sx - 2 <= fx and fx + fw <= sx + sw + 2 and sy - 2 <= fy and fy + fh <= sy + sh + 2
        assert fw > 10 and fh > 10 and sx + sw <= layout["width"]
    squares = layout["squares"]
    for k, a in enumerate(squares):
        for b in squares[k + 1:]:
            assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1]


def test_exact_audit_page_renders(browser, tmp_path, capsys):
    out = tmp_path / "exact.html"
    assert main(["audit", str(EXAMPLE), "--report", str(out), "--json"]) == 0
    capsys.readouterr()
    layout, pixels = _render(browser, out, tmp_path / "exact.png")
    doc = json.loads(EXAMPLE.read_text())
    assert len(layout["cells"]) == len(doc["inputs"]) * len(doc["outputs"])
    # the tooltip is "P(y | x) = exact = float": take the exact entry, independently of the fill
    _check_cells(layout, pixels, lambda title: F(title.split(" = ")[1]))
    _check_frontiers(layout, 1 + 2)                                  # LDP pair, two coordinates


def test_sampler_audit_page_renders(browser, tmp_path, capsys, monkeypatch):
    (tmp_path / "browser_mech.py").write_text(textwrap.dedent("""
        import numpy as np
        def k_rr(x, rng, size):
            keep = rng.random(size) < 0.6
            return np.where(keep, x, rng.integers(0, 4, size))
    """))
    (tmp_path / "in.json").write_text("[0, 1, 2, 3]")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["audit-sampler", "browser_mech:k_rr", "--inputs", "in.json", "--outputs", "in.json",
                 "--claim-eps", "3", "--draws", "2000", "--seed", "7", "--report", "s.html", "--json"]) == 0
    capsys.readouterr()
    layout, pixels = _render(browser, tmp_path / "s.html", tmp_path / "s.png")
    assert len(layout["cells"]) == 16
    # the tooltip is "count of N draws: frequency"
    _check_cells(layout, pixels, lambda title: F(int(title.split(" of ")[0]), int(title.split(" of ")[1].split()[0])))
    _check_frontiers(layout, 1)
