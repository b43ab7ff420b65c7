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
MIN_CELL, LABELLED_CELL, MAX_SIDE = 3, 12, 720
#: the probabilities shown in the colour scale beside a heat map
SCALE = (0.0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0)
CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:4px 8px;text-align:left;font-size:14px}th{background:#eee}
.violated{color:#b00;font-weight:bold}.witness{stroke:#d00;stroke-width:3}figure{margin:1em 0}
.curves{display:flex;flex-wrap:wrap;gap:1em}
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
    """An SVG heat map: one square per entry (class ``cell``), its tooltip the text given, witness cells
    outlined, axis titles and a colour scale.  Cells shrink for large kernels (at least MIN_CELL px);
    below LABELLED_CELL px the row and column labels are left out (the tooltips keep them)."""
    n, m = matrix.shape
    cell = max(MIN_CELL, min(CELL, MAX_SIDE // max(n, m)))
    labelled = cell >= LABELLED_CELL
    left, top = (LABEL_W, LABEL_H) if labelled else (30, 30)
    width, height = left + m * cell + 90, max(top + n * cell + 10, top + 130)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">',
             f'<text x="{left + m * cell / 2}" y="12" font-size="12" text-anchor="middle">output y</text>',
             f'<text x="12" y="{top + n * cell / 2}" font-size="12" text-anchor="middle" '
             f'transform="rotate(-90 12 {top + n * cell / 2})">input x</text>']
    for j, c in enumerate(cols if labelled else []):
        x = left + j * cell + cell / 2
        parts.append(f'<text x="{x}" y="{top - 6}" font-size="11" transform="rotate(-60 {x} {top - 6})">'
                     f'{_esc(c)}</text>')
    for i in range(n):
        if labelled:
            parts.append(f'<text x="{left - 6}" y="{top + i * cell + cell * 0.7}" font-size="11" '
                         f'text-anchor="end">{_esc(rows[i])}</text>')
        for j in range(m):
            cls = "cell witness" if (i, j) in witness_cells else "cell"
            parts.append(f'<rect class="{cls}" x="{left + j * cell}" y="{top + i * cell}" width="{cell}" '
                         f'height="{cell}" fill="{_colour(float(matrix[i, j]))}" stroke="#fff">'
                         f'<title>{_esc(tooltips[i][j])}</title></rect>')
    sx = left + m * cell + 20
    for k, p in enumerate(SCALE):
        parts.append(f'<rect class="scale" x="{sx}" y="{top + 16 * k}" width="16" height="16" '
                     f'fill="{_colour(p)}" stroke="#888"/><text x="{sx + 22}" y="{top + 16 * k + 12}" '
                     f'font-size="11">{p:g}</text>')
    parts.append("</svg>")
    return f"<figure>{''.join(parts)}<figcaption>{_esc(caption)}</figcaption></figure>"


def tradeoff_curve(null_row: np.ndarray, alt_row: np.ndarray, eps: float, caption: str,
                   title: str = "LDP witness pair", symbol: str = "eps") -> str:
    """The Neyman-Pearson frontier (alpha, beta) of H0: null_row against H1: alt_row in the unit square,
    with the two lines e^eps alpha + beta = 1 and alpha + e^eps beta = 1 (Prop. 2; Thm. 1, eq. (12)
    and its equivalent form): no test of an eps-private pair lies below either of them."""
    from bcdp.bayesian.fast import neyman_pearson_curve_fast

    alpha, beta = neyman_pearson_curve_fast(null_row, alt_row)
    size, pad, left = 240, 30, 50
    x = lambda a: left + a * size
    y = lambda b: pad + (1 - b) * size
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + left + 20}" height="{size + pad + 50}" '
             f'role="img"><text x="{x(0.5)}" y="{pad - 12}" font-size="13" text-anchor="middle">{_esc(title)}</text>',
             f'<rect x="{x(0)}" y="{y(1)}" width="{size}" height="{size}" fill="none" stroke="#888"/>']
    for t in (0, 0.5, 1):
        parts.append(f'<text x="{x(t)}" y="{y(0) + 14}" font-size="11" text-anchor="middle">{t:g}</text>'
                     f'<text x="{x(0) - 5}" y="{y(t) + 4}" font-size="11" text-anchor="end">{t:g}</text>')
    parts += [f'<text x="{x(0.5)}" y="{y(0) + 32}" font-size="12" text-anchor="middle">type I error alpha</text>',
              f'<text x="14" y="{y(0.5)}" font-size="12" transform="rotate(-90 14 {y(0.5)})" '
              f'text-anchor="middle">type II error beta</text>']
    if math.isfinite(eps):
        a_end = math.exp(-eps)
        for (a0, b0), (a1, b1) in (((0.0, 1.0), (a_end, 0.0)), ((0.0, a_end), (1.0, 0.0))):
            parts.append(f'<line class="bound" x1="{x(a0):.2f}" y1="{y(b0):.2f}" x2="{x(a1):.2f}" y2="{y(b1):.2f}" '
                         f'stroke="#d00" stroke-dasharray="4"/>')
    points = " ".join(f"{x(float(a)):.2f},{y(float(b)):.2f}" for a, b in zip(alpha, beta))
    parts.append(f'<polyline class="frontier" points="{points}" fill="none" stroke="#08306b" stroke-width="2"/>')
    parts.append(f'<text x="{x(0.98)}" y="{y(0.95)}" font-size="11" text-anchor="end" fill="#08306b">'
                 f'solid: frontier</text><text x="{x(0.98)}" y="{y(0.87)}" font-size="11" text-anchor="end" '
                 f'fill="#d00">dashed: {symbol} = {eps:.4g}</text></svg>')
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


def _float_value(entry: dict[str, Any], key: str = "float") -> float:
    value = entry[key]
    return math.inf if value == "inf" else float(value)


def _coordinate_curves(mechanism: Any, prior: Any, bcdp: Sequence[dict[str, Any]]) -> list[str]:
    """Thm. 1 per coordinate: H0: Y ~ P(. | x_i in S_i'), H1: Y ~ P(. | x_i in S_i) of the BCDP witness
    (eq. (9) laws, exact), with the lines at delta_i."""
    from bcdp.bayesian.hypothesis_testing import law_given_coordinate_set
    from bcdp.core.results import jsonable

    out = []
    for i, entry in enumerate(bcdp):
        w = entry.get("witness") or {}
        if "S_i" not in w:
            continue
        by_json = {json.dumps(jsonable(v)): v for v in mechanism.domain.coordinate_values[i]}
        pick = lambda sel: [by_json[json.dumps(v)] for v in sel]
        null = law_given_coordinate_set(mechanism, prior, i, pick(w["S_i_prime"]))
        alt = law_given_coordinate_set(mechanism, prior, i, pick(w["S_i"]))
        out.append(tradeoff_curve(np.array([float(v) for v in null]), np.array([float(v) for v in alt]),
                                  _float_value(entry), f"H0: x_{i} in S_i' = {w['S_i_prime']}, H1: x_{i} in "
                                  f"S_i = {w['S_i']}, under the prior (Thm. 1, eq. (12)).",
                                  f"BCDP coordinate i={i}: delta_i = {entry['exact']}", "delta_i"))
    return out


def exact_audit_page(mechanism: Any, report: dict[str, Any], source: str, prior: Any = None) -> str:
    """The page of ``bcdp audit FILE --report``: the exact kernel, the parameters, the trade-off curves of
    the LDP witness and (with a prior) of each coordinate's BCDP witness."""
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
    curves = []
    if witness:
        i, k = points.index(tuple(witness["x"])), points.index(tuple(witness["x_prime"]))
        curves.append(tradeoff_curve(kernel[k], kernel[i], _float_value(report["ldp_epsilon"]),
                                     "H0: Y ~ M(x'), H1: Y ~ M(x) of the LDP witness (Prop. 2).",
                                     "LDP: x = %s, x' = %s" % (witness["x"], witness["x_prime"])))
    if prior is not None:
        curves += _coordinate_curves(mechanism, prior, report.get("bcdp") or [])
    if curves:
        sections.append("<h2>Hypothesis-testing trade-off</h2><p>Each plot is the Neyman-Pearson frontier (the "
                        "smallest type II error at each type I error, over randomised tests) of its witness pair; "
                        "the dashed lines are e^eps alpha + beta = 1 and alpha + e^eps beta = 1 at the audited "
                        "value, which the frontier touches and never crosses.</p>"
                        f'<div class="curves">{"".join(curves)}</div>')
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
    fit = report.get("goodness_of_fit")
    if fit is not None:
        cls = ' class="violated"' if fit["verdict"] == "rejected" else ""
        sections.append(f"<p{cls}>Goodness of fit to {_esc(fit['kernel'])}: p-value {fit['p_value']:.4g} at level "
                        f"{fit['level']:.4g}: {_esc(fit['verdict'])} ({_esc(fit['method'])}).</p>")
    if w:
        i, k = list(audit.inputs).index(w["x"]), list(audit.inputs).index(w["x_prime"])
        sections.append(tradeoff_curve(freq[k], freq[i], _float_value(report["ldp"], "lower_bound"),
                                       "Empirical trade-off of the witness pair (observed frequencies) and the "
                                       "lines at the lower confidence bound on eps. The empirical frontier can "
                                       "cross them (sampling error); the mechanism's own frontier never crosses "
                                       "the lines of its true eps.",
                                       f"LDP: x = {w['x']}, x' = {w['x_prime']}"))
    return page("bcdp audit-sampler", sections)


def write_report(path: str, text: str) -> None:
    from bcdp.core.errors import InvalidInputError

    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        raise InvalidInputError(f"cannot write the report to {path}: {exc.strerror}") from exc
