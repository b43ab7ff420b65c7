"""``--report FILE.html`` of ``bcdp audit`` and ``bcdp audit-sampler``: one self-contained HTML page.

No script, no network: inline CSS and SVG only.  The page shows the kernel (or the observed
frequencies) as a heat map with every entry in its tooltip (the exact value beside the float for an
exact audit), the witnesses outlined, a table of the parameters (exact, float, lower bound, claim and
verdict as available) and the hypothesis-testing trade-off curve of the LDP witness pair: the
Neyman-Pearson frontier of H0: Y ~ M(x') against H1: Y ~ M(x) with the line e^eps alpha + beta = 1
(BCDP paper, arXiv:2410.18404, Prop. 2 for LDP; Thm. 1, eq. (12) for the coordinate version).
"""

from __future__ import annotations

import html
import json
import math
from typing import Any, Sequence

import numpy as np

CELL, LABEL_W, LABEL_H = 22, 120, 70
CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:4px 8px;text-align:left;font-size:14px}th{background:#eee}
.violated{color:#b00;font-weight:bold}.witness{stroke:#d00;stroke-width:3}figure{margin:1em 0}
figcaption{font-size:13px;color:#555}"""


def _esc(value: Any) -> str:
    return html.escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False), quote=True)


def _colour(p: float) -> str:
    """White (0) to dark blue (1), on a square-root scale so small probabilities stay visible."""
    t = math.sqrt(min(max(p, 0.0), 1.0))
    r, g, b = (int(round(255 + (c - 255) * t)) for c in (8, 48, 107))
    return f"#{r:02x}{g:02x}{b:02x}"


def heat_map(matrix: np.ndarray, rows: Sequence[Any], cols: Sequence[Any], tooltips: Sequence[Sequence[str]],
             witness_cells: set[tuple[int, int]], caption: str) -> str:
    """An SVG heat map: one square per entry, its tooltip the text given, witness cells outlined."""
    n, m = matrix.shape
    width, height = LABEL_W + m * CELL + 10, LABEL_H + n * CELL + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">']
    for j, c in enumerate(cols):
        x = LABEL_W + j * CELL + CELL / 2
        parts.append(f'<text x="{x}" y="{LABEL_H - 6}" font-size="11" transform="rotate(-60 {x} {LABEL_H - 6})">'
                     f'{_esc(c)}</text>')
    for i, r in enumerate(rows):
        y = LABEL_H + i * CELL + CELL * 0.7
        parts.append(f'<text x="{LABEL_W - 6}" y="{y}" font-size="11" text-anchor="end">{_esc(r)}</text>')
        for j in range(m):
            cls = ' class="witness"' if (i, j) in witness_cells else ""
            parts.append(f'<rect x="{LABEL_W + j * CELL}" y="{LABEL_H + i * CELL}" width="{CELL}" height="{CELL}" '
                         f'fill="{_colour(float(matrix[i, j]))}" stroke="#fff"{cls}>'
                         f'<title>{_esc(tooltips[i][j])}</title></rect>')
    parts.append("</svg>")
    return f"<figure>{''.join(parts)}<figcaption>{_esc(caption)}</figcaption></figure>"


def tradeoff_curve(null_row: np.ndarray, alt_row: np.ndarray, eps: float, caption: str) -> str:
    """The Neyman-Pearson frontier (alpha, beta) of H0: null_row against H1: alt_row in the unit square,
    and the line e^eps alpha + beta = 1 below which no test of an eps-LDP mechanism lies."""
    from bcdp.bayesian.fast import neyman_pearson_curve_fast

    alpha, beta = neyman_pearson_curve_fast(null_row, alt_row)
    size, pad = 260, 40
    pt = lambda a, b: f"{pad + a * size:.2f},{pad + (1 - b) * size:.2f}"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 2 * pad}" height="{size + 2 * pad}" role="img">',
             f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
             f'<text x="{pad + size / 2}" y="{size + pad + 30}" font-size="12" text-anchor="middle">'
             f'type I error alpha</text>',
             f'<text x="12" y="{pad + size / 2}" font-size="12" transform="rotate(-90 12 {pad + size / 2})" '
             f'text-anchor="middle">type II error beta</text>']
    if math.isfinite(eps):
        a_end = min(1.0, math.exp(-eps))
        parts.append(f'<line x1="{pad}" y1="{pad}" x2="{pad + a_end * size:.2f}" '
                     f'y2="{pad + (1 - (1 - math.exp(eps) * a_end)) * size:.2f}" stroke="#d00" stroke-dasharray="4"/>')
    points = " ".join(pt(float(a), float(b)) for a, b in zip(alpha, beta))
    parts.append(f'<polyline class="frontier" points="{points}" fill="none" stroke="#08306b" stroke-width="2"/>')
    parts.append("</svg>")
    return f"<figure>{''.join(parts)}<figcaption>{_esc(caption)}</figcaption></figure>"


def page(title: str, sections: Sequence[str]) -> str:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
            f"<style>{CSS}</style></head><body><h1>{_esc(title)}</h1>{''.join(sections)}</body></html>")


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], violated: Sequence[bool] | None = None) -> str:
    head = "".join(f"<th>{_esc(h)}</th>" for h in header)
    body = []
    for k, row in enumerate(rows):
        cls = ' class="violated"' if violated and violated[k] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{_esc(v if v is not None else '-')}</td>" for v in row) + "</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def _float_text(v: Any) -> str:
    return v if isinstance(v, str) else f"{v:.10g}"


def exact_audit_page(mechanism: Any, report: dict[str, Any], source: str) -> str:
    """The page of ``bcdp audit FILE --report``: the exact kernel, the parameters, the LDP trade-off."""
    points, outputs = mechanism.domain.points, mechanism.outputs
    kernel = np.array([[float(v) for v in row] for row in mechanism.kernel])
    tips = [[f"P({outputs[j]} | {list(points[i])}) = {mechanism.kernel[i][j]} = {kernel[i, j]:.10g}"
             for j in range(len(outputs))] for i in range(len(points))]
    witness = (report.get("ldp_epsilon") or {}).get("witness")
    cells: set[tuple[int, int]] = set()
    if witness:
        y = outputs.index(witness["R"][0])
        cells = {(points.index(tuple(witness["x"])), y), (points.index(tuple(witness["x_prime"])), y)}
    rows, names = [], {"ldp_epsilon": "LDP epsilon (Def. 1)", "bdp_epsilon": "BDP epsilon (Def. 2)",
                       "cdp": "CDP c_i (Def. 3)", "bcdp": "BCDP delta_i (Def. 4)", "dependence": "dependence q_i (eq. 13)"}
    for key, name in names.items():
        values = report.get(key)
        for i, v in enumerate(values if isinstance(values, list) else [values] if values else []):
            label = name if not isinstance(values, list) else f"{name.split(' (')[0]} [i={i}]"
            rows.append([label, v["exact"], _float_text(v["float"]), v["witness"]])
    sections = [f"<p>Exact audit of {_esc(source)} (bcdp audit).</p>",
                heat_map(kernel, [list(p) for p in points], outputs, tips, cells,
                         "Kernel P(y | x): rows are inputs, columns outputs; hover for the exact entry; the LDP "
                         "witness pair is outlined."),
                table(["parameter", "exact", "float", "witness"], rows)]
    if witness:
        eps = report["ldp_epsilon"]["float"]
        eps = math.inf if eps == "inf" else float(eps)
        i, k = points.index(tuple(witness["x"])), points.index(tuple(witness["x_prime"]))
        sections.append(tradeoff_curve(kernel[k], kernel[i], eps,
                                       "Trade-off of the LDP witness pair: H0 = M(x'), H1 = M(x); the dashed line is "
                                       "e^eps alpha + beta = 1 (Prop. 2), which the frontier touches and never crosses."))
    return page("bcdp audit", sections)


def sampler_audit_page(audit: Any, report: dict[str, Any]) -> str:
    """The page of ``bcdp audit-sampler --report``: observed frequencies, bounds against claims."""
    freq = audit.frequencies()
    tips = [[f"{int(audit.counts[i, j])} of {int(audit.draws[i])} draws: {freq[i, j]:.6g}"
             for j in range(freq.shape[1])] for i in range(freq.shape[0])]
    w = report["ldp"]["witness"]
    cells: set[tuple[int, int]] = set()
    if w:
        y = list(audit.outputs).index(w["R"][0])
        cells = {(list(audit.inputs).index(w["x"]), y), (list(audit.inputs).index(w["x_prime"]), y)}
    entries = [("LDP epsilon", report["ldp"])] + [(f"CDP c_{i + 1}", e) for i, e in enumerate(report.get("cdp", []))] \
        + [(f"BCDP delta_{i + 1}", e) for i, e in enumerate(report.get("bcdp", []))]
    rows = [[name, _float_text(e["estimate"]), _float_text(e["lower_bound"]), e["claimed"], e["verdict"], e["witness"]]
            for name, e in entries]
    sections = [f"<p>Black-box audit of {_esc(report['sampler'])}: {report['draws']} draws per input, seed "
                f"{report['seed']}, simultaneous confidence {report['confidence']}.</p>",
                heat_map(freq, list(audit.inputs), list(audit.outputs), tips, cells,
                         "Observed frequencies: rows are inputs, columns output cells; the witness of the LDP lower "
                         "bound is outlined."),
                table(["parameter", "estimate", "lower bound", "claim", "verdict", "witness"], rows,
                      [e["verdict"] == "violated" for _, e in entries])]
    if w:
        i, k = list(audit.inputs).index(w["x"]), list(audit.inputs).index(w["x_prime"])
        sections.append(tradeoff_curve(freq[k], freq[i], report["ldp"]["lower_bound"],
                                       "Empirical trade-off of the witness pair (frequencies) and the line "
                                       "e^eps alpha + beta = 1 at the lower bound eps."))
    return page("bcdp audit-sampler", sections)


def write_report(path: str, text: str) -> None:
    from bcdp.core.errors import InvalidInputError

    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise InvalidInputError(f"cannot write the report to {path}: {exc.strerror}") from exc
