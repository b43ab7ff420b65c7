"""``bcdp audit FILE --fast``: the audit report through the float64 fast path.

Same parameters as :func:`bcdp.audit.kernel.audit_report` (BCDP paper, arXiv:2410.18404, Defs. 1-4
and eq. (13)), computed by :mod:`bcdp.bayesian.fast` on the kernel rounded to float64.  Accuracy (the
fast package's documented error, checked against the exact engine in
``tests/bayesian/test_fast_vs_exact.py`` and ``tests/audit/test_fast_report.py``): each kernel and
prior entry is rounded once (relative error <= 2^-53), and each reported value is within a few ulps
(relative) of the parameter of the rounded mechanism; values are floats, never exact.  Witnesses are
reported with the labels of the file, like the exact report's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bcdp.core.errors import InputFileError, InvalidInputError
from bcdp.core.spaces import ProductDomain

#: largest deviation of a kernel row or of the prior from summing to 1 accepted on the float path
ROW_SUM_TOLERANCE = 1e-9

ACCURACY = ("float64 fast path (bcdp.bayesian.fast): kernel and prior rounded to float64 (relative "
            "2^-53 per entry), each value within a few ulps of the parameter of the rounded mechanism")


def _float_entry(value: Any, where: str) -> float:
    from bcdp.core.numbers import to_float_input

    if isinstance(value, (bool, type(None), list, dict)):
        raise InputFileError(f"{where}: {value!r} is not a number")
    try:
        out = to_float_input(value, where)
    except InvalidInputError as exc:
        raise InputFileError(str(exc)) from exc
    if out < 0:
        raise InputFileError(f"{where} is negative ({out!r})")
    return out


def parse_audit_document_float(doc: Any) -> tuple[ProductDomain, tuple, np.ndarray, np.ndarray | None]:
    """The float twin of :func:`bcdp.audit.kernel.parse_audit_document` (same file format, same
    structural checks): (domain, outputs, kernel, prior) with the kernel rows and the prior in the
    domain's order, entries read as floats, row sums within ``ROW_SUM_TOLERANCE`` of 1."""
    from bcdp.audit.kernel import audit_document_parts

    _, points, outs, kernel = audit_document_parts(doc)
    if len(kernel) != len(points):
        raise InputFileError(f"'kernel' needs one row per input ({len(points)})")
    rows = []
    for k, row in enumerate(kernel):
        if not isinstance(row, list) or len(row) != len(outs):
            raise InputFileError(f"kernel[{k}] needs {len(outs)} entries, one per output")
        rows.append([_float_entry(v, f"kernel[{k}][{m}]") for m, v in enumerate(row)])
    K = np.array(rows, dtype=float)
    bad = np.flatnonzero(np.abs(K.sum(axis=1) - 1) > ROW_SUM_TOLERANCE)
    if bad.size:
        raise InputFileError(f"kernel[{bad[0]}] sums to {K[bad[0]].sum()!r}, not 1 (within {ROW_SUM_TOLERANCE})")
    prior = None
    if doc.get("prior") is not None:
        if not isinstance(doc["prior"], list) or len(doc["prior"]) != len(points):
            raise InputFileError(f"'prior' needs one entry per input ({len(points)})")
        prior = np.array([_float_entry(v, f"prior[{k}]") for k, v in enumerate(doc["prior"])], dtype=float)
        if abs(prior.sum() - 1) > ROW_SUM_TOLERANCE:
            raise InputFileError(f"'prior' sums to {prior.sum()!r}, not 1 (within {ROW_SUM_TOLERANCE})")
    try:
        domain = ProductDomain.from_points(points)
    except InvalidInputError as exc:
        raise InputFileError(f"'inputs': {exc}") from exc
    position = {p: k for k, p in enumerate(points)}
    order = np.array([position[p] for p in domain.points])
    return domain, tuple(outs), K[order], None if prior is None else prior[order]


def fast_audit_report(doc: Any) -> dict[str, Any]:
    """Every parameter of the decoded audit document as a float with its witness, in the shape of
    ``bcdp audit --json`` but with ``"exact": null`` and a top-level ``"accuracy"`` statement."""
    from bcdp.bayesian.fast import (bcdp_vector_fast, bdp_epsilon_fast, cdp_vector_fast,
                                    coordinate_dependence_fast, ldp_epsilon_fast)

    dom, outputs, kernel, pmf = parse_audit_document_float(doc)
    shape = tuple(len(values) for values in dom.coordinate_values)
    points = dom.points

    def label(w: dict[str, Any] | None) -> dict[str, Any] | None:
        if w is None:
            return None
        out: dict[str, Any] = {}
        i = w.get("coordinate")
        for key, v in w.items():
            if key in ("x", "x_prime"):
                out[key] = list(points[v])
            elif key == "output":
                out["R"] = [outputs[v]]
            elif key in ("value", "value_prime"):
                out["S_i" if key == "value" else "S_i_prime"] = [dom.coordinate_values[i][v]]
            else:
                out[key] = v
        return out

    def entry(p: Any) -> dict[str, Any]:
        return {"exact": None, "float": p.value, "witness": label(p.witness)}

    report: dict[str, Any] = {"accuracy": ACCURACY, "ldp_epsilon": entry(ldp_epsilon_fast(kernel))}
    if pmf is not None:
        bdp = entry(bdp_epsilon_fast(kernel, pmf))
        w = bdp["witness"]
        if w is not None:              # the exact report's keys for Def. 2: singleton input sets
            bdp["witness"] = {"S": [w["x"]], "S_prime": [w["x_prime"]], "R": w["R"]}
        report["bdp_epsilon"] = bdp
    report["cdp"] = [entry(p) for p in cdp_vector_fast(kernel, shape)]
    if pmf is not None:
        report["bcdp"] = [entry(p) for p in bcdp_vector_fast(kernel, pmf, shape)]
        report["dependence"] = [entry(p) for p in coordinate_dependence_fast(pmf, shape)]
    return report
