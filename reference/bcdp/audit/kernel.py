"""``bcdp audit``: read a finite mechanism (and optionally a prior) from JSON, report every parameter.

File format (see ``docs/file_format.md``)::

    {"inputs":  [[x_1, ..., x_d], ...],        # every point of X_1 x ... x X_d, once each
     "outputs": [y_1, ..., y_m],
     "kernel":  [[P(y_1|input 0), ...], ...],  # one row per input, in the order of "inputs"
     "prior":   [P(input 0), ...]}             # optional

Numbers are JSON numbers (read as the exact decimal written, e.g. 0.1 = 1/10) or exact strings
such as "1/3".  Errors name the offending row/entry and make the CLI exit with code 2.
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from bcdp.bayesian.notions import (
    bcdp_vector,
    bdp_epsilon,
    cdp_vector,
    coordinate_dependence,
    ldp_epsilon,
)
from bcdp.core.errors import InputFileError, InvalidInputError
from bcdp.core.numbers import brief_number, to_fraction
from bcdp.core.spaces import Mechanism, Prior, ProductDomain

#: Largest nesting depth of arrays/objects accepted in an input file (the documented formats need 4).
MAX_JSON_DEPTH = 64
#: Largest number of digits of a JSON integer literal (Python refuses int <-> str beyond 4300).
MAX_JSON_INT_DIGITS = 4000
#: Largest decimal exponent of a JSON number used as a label (it becomes an int or a float).
_MAX_LABEL_EXPONENT = 300


def hashable_label(value: Any) -> Any:
    """A decoded JSON label (input, output or attribute value) as a hashable value: lists become
    tuples (recursively), JSON numbers (Decimal) become ints or floats (labels, not probabilities).

    A number label must be an integer of at most 300 digits or a decimal that float64 represents
    as written (e.g. 0.5, 0.1); ``1e400`` (float overflow), ``1e-400`` (would become 0.0) and
    objects are refused with :class:`InputFileError` (write such labels as strings)."""
    if isinstance(value, list):
        return tuple(hashable_label(v) for v in value)
    if isinstance(value, dict):
        raise InputFileError(f"a label (input, output or attribute value) cannot be a JSON object: "
                             f"{short_text(value)}")
    if isinstance(value, Decimal):  # a label, not a probability: keep it JSON-serialisable
        if value.is_finite() and (value == 0 or abs(value.adjusted()) <= _MAX_LABEL_EXPONENT):
            if value == value.to_integral_value():
                return int(value)
            as_float = float(value)
            if Decimal(repr(as_float)) == value:
                return as_float
        raise InputFileError(f"the number label {short_text(value)} is not an integer of at most "
                             f"{_MAX_LABEL_EXPONENT} digits nor a float64 as written; write it as a string")
    return value


def short_text(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _entry(value: Any, where: str) -> Fraction:
    if isinstance(value, (bool, type(None), list, dict)):
        raise InputFileError(f"{where}: {value!r} is not a number")
    try:
        p = to_fraction(value, where)
    except (TypeError, ValueError) as exc:
        raise InputFileError(str(exc)) from exc
    if p < 0:
        raise InputFileError(f"{where} is negative ({brief_number(p)})")
    return p


def parse_kernel_rows(kernel: Any, n_outputs: int, labels: Sequence[str], what: str) -> list[list[Fraction]]:
    """Exact kernel rows from a decoded JSON list: one row per input (``labels[k]`` names input k in
    messages, ``what`` names the inputs, e.g. "inputs" or "datasets"), each with ``n_outputs``
    non-negative entries summing to exactly 1."""
    if not isinstance(kernel, list) or len(kernel) != len(labels):
        rows = len(kernel) if isinstance(kernel, list) else "no list of"
        raise InputFileError(f"'kernel' has {rows} rows but there are {len(labels)} {what}")
    out = []
    for k, row in enumerate(kernel):
        where = f"kernel[{k}] ({labels[k]})"
        if not isinstance(row, list) or len(row) != n_outputs:
            m = len(row) if isinstance(row, list) else "no list of"
            raise InputFileError(f"{where} has {m} entries, there are {n_outputs} outputs")
        exact = [_entry(v, f"{where}[{m}]") for m, v in enumerate(row)]
        total = sum(exact, Fraction(0))
        if total != 1:
            raise InputFileError(f"{where} sums to {brief_number(total)}, not 1")
        out.append(exact)
    return out


def audit_document_parts(doc: Any) -> tuple[list, list[tuple], list, list]:
    """The structural checks of an audit document shared by the exact and the float reader:
    returns (inputs as written, input points as label tuples, output labels, kernel rows as written)."""
    if not isinstance(doc, dict):
        raise InputFileError("the file must hold one JSON object")
    for key in ("inputs", "outputs", "kernel"):
        if key not in doc:
            raise InputFileError(f"missing key {key!r}")
    unknown = set(doc) - {"inputs", "outputs", "kernel", "prior"}
    if unknown:
        raise InputFileError(f"unknown keys: {sorted(unknown)}")
    inputs, outputs, kernel = doc["inputs"], doc["outputs"], doc["kernel"]
    if not isinstance(inputs, list) or not inputs or not all(isinstance(x, list) for x in inputs):
        raise InputFileError("'inputs' must be a non-empty list of input tuples (lists)")
    if not isinstance(outputs, list) or not outputs:
        raise InputFileError("'outputs' must be a non-empty list")
    if not isinstance(kernel, list):
        raise InputFileError("'kernel' must be a list of rows")
    points = [tuple(hashable_label(v) for v in x) for x in inputs]
    outs = [hashable_label(y) for y in outputs]
    if len(set(outs)) != len(outs):
        raise InputFileError("'outputs' lists a value twice")
    return inputs, points, outs, kernel


def parse_audit_document(doc: Any) -> tuple[Mechanism, Prior | None]:
    """Validate a decoded audit document (JSON numbers as Decimal) and build exact objects."""
    inputs, points, outs, kernel = audit_document_parts(doc)
    rows = parse_kernel_rows(kernel, len(outs), [f"input {list(x)}" for x in inputs], "inputs")
    prior_pmf = None
    if doc.get("prior") is not None:
        prior = doc["prior"]
        if not isinstance(prior, list) or len(prior) != len(points):
            n = len(prior) if isinstance(prior, list) else "no list of"
            raise InputFileError(f"'prior' has {n} entries but there are {len(points)} inputs")
        prior_pmf = [_entry(v, f"prior[{k}] (input {list(inputs[k])})") for k, v in enumerate(prior)]
        total = sum(prior_pmf, Fraction(0))
        if total != 1:
            raise InputFileError(f"'prior' sums to {brief_number(total)}, not 1")
    try:
        domain = ProductDomain.from_points(points)
    except InvalidInputError as exc:
        raise InputFileError(f"'inputs': {exc}") from exc
    order = [points.index(p) for p in domain.points]
    mech = Mechanism(domain, tuple(outs), tuple(tuple(rows[k]) for k in order))
    pri = None if prior_pmf is None else Prior(domain, tuple(prior_pmf[k] for k in order))
    return mech, pri


def read_json_document(path: str | Path) -> Any:
    """Decode a JSON file with numbers kept exact (floats as Decimal); unreadable files and invalid
    JSON raise :class:`InputFileError` naming the file."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputFileError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{path} is not UTF-8 text (byte {exc.start}: {exc.reason})") from exc
    try:
        doc = json.loads(text, parse_float=_json_float, parse_int=_json_int, parse_constant=_json_constant,
                         object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{path} is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise InputFileError(f"{path}: JSON nested too deeply (more than {MAX_JSON_DEPTH} levels)") from exc
    except InputFileError as exc:
        raise InputFileError(f"{path}: {exc}") from exc
    _check_depth(doc, path)
    return doc


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """object_pairs_hook: a JSON object naming a key twice is refused (strict JSON input)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputFileError(f"duplicate key {key!r} in a JSON object")
        out[key] = value
    return out


def _json_int(text: str) -> int:
    """parse_int: integer literals longer than :data:`MAX_JSON_INT_DIGITS` digits are refused."""
    if len(text.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise InputFileError(f"an integer with {len(text.lstrip('-'))} digits is beyond the cap of "
                             f"{MAX_JSON_INT_DIGITS} digits")
    return int(text)


def _json_float(text: str) -> Decimal:
    """parse_float: the exact decimal written; an exponent beyond what :class:`decimal.Decimal` holds
    (``1e4000000000000000000``, about 10^18) is refused (Decimal raised a bare InvalidOperation)."""
    try:
        return Decimal(text)
    except InvalidOperation as exc:
        raise InputFileError(f"the number {short_text(text)} has an exponent beyond any cap") from exc


def _json_constant(text: str) -> Any:
    """parse_constant: NaN and Infinity are not JSON."""
    raise InputFileError(f"{text} is not a JSON number")


def _check_depth(doc: Any, path: str | Path) -> None:
    """Refuse documents nested deeper than :data:`MAX_JSON_DEPTH` (iteratively, no recursion)."""
    stack = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (list, dict)):
            if depth > MAX_JSON_DEPTH:
                raise InputFileError(f"{path}: JSON nested too deeply (more than {MAX_JSON_DEPTH} levels)")
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))


def load_audit_file(path: str | Path) -> tuple[Mechanism, Prior | None]:
    return parse_audit_document(read_json_document(path))


def audit_report(mechanism: Mechanism, prior: Prior | None) -> dict[str, Any]:
    """Every parameter with its witness, in the JSON shape of ``bcdp audit --json``."""
    report: dict[str, Any] = {"ldp_epsilon": ldp_epsilon(mechanism).to_json()}
    if prior is not None:
        report["bdp_epsilon"] = bdp_epsilon(mechanism, prior).to_json()
    report["cdp"] = [v.to_json() for v in cdp_vector(mechanism)]
    if prior is not None:
        report["bcdp"] = [v.to_json() for v in bcdp_vector(mechanism, prior)]
        report["dependence"] = [v.to_json() for v in coordinate_dependence(prior)]
    return report


def report_drift(report: dict[str, Any], golden: Any) -> list[str]:
    """The privacy values of ``report`` that differ from a pinned ``bcdp audit --json`` report.

    Compared: the exact value of every parameter (LDP, BDP, each CDP / BCDP coordinate, each
    dependence); not the witnesses (a tie may be broken by another pair when the inputs are listed in
    another order) and not the float renderings (functions of the exact values).  Returns one line
    per difference, naming the field, e.g. ``cdp[1]: log(3) != log(2) (golden)``."""
    if not isinstance(golden, dict):
        raise InputFileError("the golden file must hold a JSON object written by bcdp audit --json")
    drift = []
    for key in _LABELS:
        mine, theirs = report.get(key), golden.get(key)
        if mine is None and theirs is None:
            continue
        if mine is None or theirs is None:
            drift.append(f"{key}: {'absent' if mine is None else 'present'} here, "
                         f"{'absent' if theirs is None else 'present'} in the golden file")
            continue
        mine_list = mine if isinstance(mine, list) else [mine]
        theirs_list = theirs if isinstance(theirs, list) else [theirs]
        if len(mine_list) != len(theirs_list):
            drift.append(f"{key}: {len(mine_list)} values != {len(theirs_list)} (golden)")
            continue
        for i, (a, b) in enumerate(zip(mine_list, theirs_list)):
            name = f"{key}[{i}]" if isinstance(mine, list) else key
            exact = b.get("exact") if isinstance(b, dict) else None
            if not isinstance(exact, str):
                raise InputFileError(f"the golden file has no exact value for {name}")
            if a["exact"] != exact:
                drift.append(f"{name}: {a['exact']} != {short_text(exact)} (golden)")
    return drift


_LABELS = {
    "ldp_epsilon": "LDP epsilon (Def. 1)",
    "bdp_epsilon": "BDP epsilon (Def. 2)",
    "cdp": "CDP c_i (Def. 3)",
    "bcdp": "BCDP delta_i (Def. 4)",
    "dependence": "dependence q_i (eq. 13)",
}


def format_report(report: dict[str, Any]) -> str:
    """Human-readable table of an :func:`audit_report`."""
    lines = [f"{'parameter':<26} {'exact':<22} {'float':<22} witness"]
    for key, label in _LABELS.items():
        if key not in report:
            continue
        values = report[key] if isinstance(report[key], list) else [report[key]]
        for i, v in enumerate(values):
            name = label if not isinstance(report[key], list) else f"{label.split(' (')[0]} [i={i}]"
            fl = v["float"] if isinstance(v["float"], str) else f"{v['float']:.17g}"
            exact = "-" if v["exact"] is None else v["exact"]
            lines.append(f"{name:<26} {exact:<22} {fl:<22} {json.dumps(v['witness'])}")
    if "bdp_epsilon" not in report:
        lines.append("(no prior given: BDP, BCDP and dependence need one)")
    if "accuracy" in report:
        lines.append(f"(--fast: {report['accuracy']})")
    return "\n".join(lines)
