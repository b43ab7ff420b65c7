"""``bcdp partial audit``: the exact partial-DP parameters of a finite mechanism on datasets.

File format (``docs/file_format.md``, section "Partial DP audit input")::

    {"n": 2,                                  # records per dataset
     "attributes": [[0, 1], ["a", "b", "c"]], # optional: X_1, ..., X_d (default: values seen)
     "datasets": [[[0, "a"], [1, "b"]], ...], # each dataset: n records of d values
     "outputs":  [y_1, ..., y_m],
     "kernel":   [[P(y_1 | dataset 0), ...], ...]}   # one row per dataset, in order

Numbers are read exactly as in ``bcdp audit`` (a JSON number is the decimal it spells, strings
such as "1/3" are rationals).  The datasets may be every dataset of (X_1 x ... x X_d)^n or any
subset of it; with a subset, only pairs of listed datasets are compared (a neighbour that is not
listed has no kernel row in the file, so it imposes nothing), and the mechanism is built on the
listed datasets alone (:class:`bcdp.core.spaces.PointSubset`): two datasets of n = 30 records are
two points, not a domain of 2^30.  The only size cap is on the number of listed datasets
(:data:`MAX_DATASETS`), since every pair of them is compared.

Reported (partial DP paper, Ghazi-Kumar-Manurangsi-Steinke, arXiv:2209.04053; every value exact, with a witness):

* ``per_attribute_epsilon``: eps0 of eps0-nabla0-DP (Def. 5 via Lemma 7: neighbours differ in one
  attribute of one record), and whether the Hamming-scaled condition of Def. 5 holds for all
  one-record pairs (always on the full product, not necessarily on a subset);
* ``per_record_attribute``: the same maximum restricted to record i, attribute j;
* ``whole_record_epsilon``: eps of standard pure DP under replace-one neighbours (Def. 1), next to
  Prop. 8's bound d * eps0 (valid on the full product domain);
* ``nabla_profile``: the smallest eps(r, r') making the mechanism eps-nabla-DP (Def. 4), per pair
  of records, i.e. the tightest dissimilarity function the mechanism satisfies;
* with ``concentrated=True`` (CLI ``--concentrated``): eps0 of eps0-nabla0-CDP (Def. 6) and rho of
  whole-record rho-zCDP (Def. 3), as certified enclosures [lower, upper] of D* = sup_lambda
  D_lambda/lambda (:func:`bcdp.partial.dstar.d_star`: 50-digit mpmath search, certificate
  re-checked with arb ball arithmetic), and Prop. 8's rho <= d^2 eps0^2 / 2.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from bcdp.audit.kernel import (
    MAX_JSON_INT_DIGITS,
    hashable_label,
    parse_kernel_rows,
    read_json_document,
    short_text,
)
from bcdp.core.errors import InputFileError, InvalidInputError
from bcdp.core.numbers import INFINITY, brief_number
from bcdp.core.parameters import LogRatioParameter, ratio_at_most
from bcdp.core.results import Certified, decide_le, jsonable
from bcdp.core.spaces import Mechanism, PointSubset, ProductDomain, product_size
from bcdp.partial.pure import (
    dataset_domain,
    minimal_nabla_ratios,
    per_attribute_epsilon,
    per_attribute_matrix,
    whole_record_epsilon,
)

_KEYS = {"n", "attributes", "datasets", "outputs", "kernel"}
#: Most datasets a file may list (every pair of them is compared; the product (X_1 x ... x X_d)^n
#: itself is never enumerated unless all of it is listed).
MAX_DATASETS = 2 ** 16
#: Interval precision (bits, about 60 digits) of the Prop. 8 bound of :func:`concentrated_report`.
_BOUND_BITS = 220


class PartialAudit:
    """A parsed partial-DP audit file: the mechanism on the listed datasets.  When every dataset of
    (X_1 x ... x X_d)^n is listed (``full_domain``) its domain is that product
    (:class:`~bcdp.core.spaces.ProductDomain`); otherwise it is the listed datasets alone
    (:class:`~bcdp.core.spaces.PointSubset`, file order), so a few datasets of n = 30 records cost
    what they are, not 2^30.  Every engine of :mod:`bcdp.partial` then compares the pairs of
    datasets of that domain (``inputs=None``)."""

    def __init__(self, mechanism: Mechanism, n: int, d: int, full_domain: bool,
                 attributes: list[list[Any]], n_datasets: int) -> None:
        self.mechanism, self.n, self.d, self.full_domain = mechanism, n, d, full_domain
        self.attributes, self.n_datasets = attributes, n_datasets


def parse_partial_audit_document(doc: Any) -> PartialAudit:
    """Validate a decoded document (JSON numbers as Decimal) and build the exact mechanism."""
    if not isinstance(doc, dict):
        raise InputFileError("the file must hold one JSON object")
    for key in ("n", "datasets", "outputs", "kernel"):
        if key not in doc:
            raise InputFileError(f"missing key {key!r}")
    unknown = set(doc) - _KEYS
    if unknown:
        raise InputFileError(f"unknown keys: {sorted(unknown)}")
    n = doc["n"]
    # a Decimal is tested without int(): int(Decimal("1e999999999")) would build a 10^9-digit integer
    if isinstance(n, Decimal) and n == n.to_integral_value() and n >= 1:
        if n.adjusted() >= MAX_JSON_INT_DIGITS:
            raise InputFileError(f"'n' = {short_text(n)} has more than {MAX_JSON_INT_DIGITS} digits")
        n = int(n)
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputFileError(f"'n' must be a positive integer, got {short_text(n)}")
    datasets, outputs, kernel = doc["datasets"], doc["outputs"], doc["kernel"]
    if not isinstance(datasets, list) or not datasets:
        raise InputFileError("'datasets' must be a non-empty list of datasets")
    if len(datasets) > MAX_DATASETS:
        raise InputFileError(f"'datasets' lists {len(datasets)} datasets, beyond the cap of {MAX_DATASETS} "
                             f"(every pair of listed datasets is compared)")
    recs: list[tuple] = []
    d = None
    for k, ds in enumerate(datasets):
        if not isinstance(ds, list) or len(ds) != n or not all(isinstance(r, list) for r in ds):
            raise InputFileError(f"datasets[{k}] must be a list of n = {brief_number(n)} records (lists)")
        rec = tuple(tuple(hashable_label(v) for v in r) for r in ds)
        lengths = {len(r) for r in rec}
        if len(lengths) != 1 or 0 in lengths:
            raise InputFileError(f"datasets[{k}]: records have lengths {sorted(lengths)}; all need d >= 1 values")
        if d is None:
            d = lengths.pop()
        elif lengths.pop() != d:
            raise InputFileError(f"datasets[{k}]: records have {len(rec[0])} attributes, datasets[0] has {d}")
        recs.append(rec)
    assert d is not None
    first: dict[tuple, int] = {}
    for k, rec in enumerate(recs):
        if rec in first:
            raise InputFileError(f"datasets[{k}] repeats datasets[{first[rec]}]")
        first[rec] = k
    if "attributes" in doc and doc["attributes"] is not None:
        attrs = doc["attributes"]
        if not isinstance(attrs, list) or len(attrs) != d or not all(isinstance(a, list) and a for a in attrs):
            raise InputFileError(f"'attributes' must list d = {d} non-empty value lists")
        attributes = [[hashable_label(v) for v in a] for a in attrs]
        for j, a in enumerate(attributes):
            if len(set(a)) != len(a):
                raise InputFileError(f"attributes[{j}] lists a value twice")
        sets = [set(a) for a in attributes]
        for k, rec in enumerate(recs):
            for i, r in enumerate(rec):
                for j, v in enumerate(r):
                    if v not in sets[j]:
                        raise InputFileError(f"datasets[{k}] record {i} attribute {j}: {short_text(repr(v))} "
                                             f"is not in attributes[{j}]")
    else:   # the values seen, in order of first appearance (dicts: linear in the file)
        attributes = [list(dict.fromkeys(r[j] for rec in recs for r in rec)) for j in range(d)]
    if not isinstance(outputs, list) or not outputs:
        raise InputFileError("'outputs' must be a non-empty list")
    outs = [hashable_label(y) for y in outputs]
    if len(set(outs)) != len(outs):
        raise InputFileError("'outputs' lists a value twice")
    rows_exact = [tuple(r) for r in parse_kernel_rows(
        kernel, len(outs), [f"dataset {json.dumps(jsonable(rec))}" for rec in recs], "datasets")]
    flat = [tuple(v for r in rec for v in r) for rec in recs]
    full = len(recs) == product_size([len(a) for a in attributes] * n)   # distinct and in the product
    try:
        if full:   # every dataset is listed (so at most MAX_DATASETS): the product, in its own order
            domain: ProductDomain | PointSubset = dataset_domain(attributes, n)
            row_of = dict(zip(flat, rows_exact))
            rows = tuple(row_of[p] for p in domain.points)
        else:      # only the listed datasets, in the file's order: the product is never enumerated
            domain = PointSubset(tuple(tuple(a) for a in attributes) * n, tuple(flat))
            rows = tuple(rows_exact)
        mech = Mechanism(domain, tuple(outs), rows)
    except InvalidInputError as exc:
        raise InputFileError(str(exc)) from exc
    return PartialAudit(mech, n, d, full, attributes, len(recs))


def load_partial_audit_file(path: str | Path) -> PartialAudit:
    return parse_partial_audit_document(read_json_document(path))


def _param_json(p: LogRatioParameter) -> dict[str, Any]:
    out = p.to_json()
    out["witness"] = jsonable(out["witness"])
    return out


def concentrated_report(audit: PartialAudit, rel_tol: str = "1e-20") -> dict[str, Any]:
    """Certified concentrated parameters (Defs. 3 and 6) with Prop. 8's concentrated half."""
    import mpmath

    from bcdp.core.intervals import arb_precision, ball_of
    from bcdp.partial.concentrated import per_attribute_cdp_epsilon, whole_record_zcdp
    from bcdp.partial.dstar import ball_ends

    mech, n, d = audit.mechanism, audit.n, audit.d
    eps0 = per_attribute_cdp_epsilon(mech, n, d, None, rel_tol=rel_tol)
    rho = whole_record_zcdp(mech, n, d, None, rel_tol=rel_tol)

    def outward(x: Any, direction: int) -> str:
        """30 significant digits, rounded away from the enclosure's interior: widen by 1e-29
        relative (> half an ulp of a 30-digit decimal, at most 5e-30 relative), then round to nearest."""
        if x == INFINITY:
            return "inf"
        with mpmath.workdps(60):
            return mpmath.nstr(x * (1 + direction * mpmath.mpf("1e-29")), 30)

    def enc(e: Any) -> dict[str, Any]:
        lo, hi = outward(e.lower, -1), outward(e.upper, +1)
        w = None if e.witness is None else {k: e.witness[k] for k in ("x", "x_prime", "record", "hamming")}
        return {"lower": lo, "upper": hi, "witness": jsonable(w)}

    if eps0.is_infinite:
        bound_hi: Any = INFINITY
        holds: bool | None = True
    else:
        # Prop. 8's bound d^2 eps0^2 / 2 over the eps0 enclosure (eps0 >= 0: monotone), rounded
        # outward with arb balls
        with arb_precision(_BOUND_BITS):
            lo_b, hi_b = ball_of(eps0.lower), ball_of(eps0.upper)
            lo_b, hi_b = d * d * (lo_b * lo_b) / 2, d * d * (hi_b * hi_b) / 2
            bound = Certified(ball_ends(lo_b)[0], ball_ends(hi_b)[1], provenance="d^2 eps0^2 / 2, Prop. 8")
        bound_hi = bound.upper
        holds = decide_le(rho, bound)   # None: equal within the enclosures (undecided), reported as null
    return {"per_attribute_epsilon0": enc(eps0), "whole_record_rho": enc(rho),
            "prop8_rho_bound_upper": "inf" if bound_hi == INFINITY else mpmath.nstr(bound_hi, 30),
            "prop8_holds": holds, "applies": audit.full_domain,
            "certified": f"D* enclosures of relative width <= {rel_tol} (mpmath 50 digits, interval re-check)"}


def partial_audit_report(audit: PartialAudit, concentrated: bool = False) -> dict[str, Any]:
    """Every partial-DP parameter of the audited mechanism, in the JSON shape of
    ``bcdp partial audit --json`` (``docs/file_format.md``); ``concentrated`` adds
    :func:`concentrated_report` under the key ``"concentrated"``."""
    mech, n, d = audit.mechanism, audit.n, audit.d
    per_attr = per_attribute_epsilon(mech, n, d)      # every pair of the listed datasets
    matrix = per_attribute_matrix(mech, n, d)
    whole = whole_record_epsilon(mech, n, d)
    profile = minimal_nabla_ratios(mech, n, d)
    eps0 = per_attr.epsilon
    prop8 = LogRatioParameter(INFINITY if eps0.is_infinite else Fraction(eps0.ratio) ** d, None)
    nabla = []
    for (ra, rb), (ratio, w) in sorted(profile.items(), key=lambda kv: repr(kv[0])):
        if repr(ra) < repr(rb) or (ra, rb) == (rb, ra):
            nabla.append({"record": jsonable(ra), "record_prime": jsonable(rb),
                          **_param_json(LogRatioParameter(ratio, w))})
    report = {
        "n": n, "d": d, "attributes": jsonable(audit.attributes), "datasets": audit.n_datasets,
        "full_domain": audit.full_domain,
        "per_attribute_epsilon": {**_param_json(eps0),
                                  "hamming_scaled_holds": per_attr.record_scaled_holds,
                                  "hamming_scaled_all_pairs_holds": per_attr.all_pairs_scaled_holds,
                                  "violation": jsonable(per_attr.violation)},
        "per_record_attribute": [[_param_json(p) for p in row] for row in matrix],
        "whole_record_epsilon": _param_json(whole),
        "prop8_bound": {"exact": str(prop8.exact), "float": "inf" if prop8.is_infinite else prop8.float,
                        "holds": ratio_at_most(whole.ratio, prop8.ratio),
                        "applies": audit.full_domain},   # Prop. 8 is a theorem on the full domain only
        "nabla_profile": nabla,
    }
    if concentrated:
        report["concentrated"] = concentrated_report(audit)
    return report


def _fl(v: dict) -> str:
    return v["float"] if isinstance(v["float"], str) else f"{v['float']:.17g}"


def format_partial_report(report: dict[str, Any]) -> str:
    """Human-readable summary of :func:`partial_audit_report`."""
    pa, wr, p8 = report["per_attribute_epsilon"], report["whole_record_epsilon"], report["prop8_bound"]
    scope = "every dataset" if report["full_domain"] else f"{report['datasets']} listed datasets"
    lines = [f"n = {report['n']} records, d = {report['d']} attributes, {scope}",
             f"{'parameter':<34} {'exact':<22} {'float':<22} witness",
             f"{'per-attribute eps0 (Def. 5)':<34} {pa['exact']:<22} {_fl(pa):<22} {json.dumps(pa['witness'])}",
             f"{'whole-record eps (Def. 1)':<34} {wr['exact']:<22} {_fl(wr):<22} {json.dumps(wr['witness'])}",
             f"{'Prop. 8 bound d * eps0':<34} {p8['exact']:<22} {_fl(p8):<22}"]
    if not pa["hamming_scaled_holds"]:
        lines.append(f"Hamming-scaled condition FAILS on the listed datasets: {json.dumps(pa['violation'])}")
    for i, row in enumerate(report["per_record_attribute"]):
        for j, v in enumerate(row):
            lines.append(f"{f'eps record {i} attribute {j}':<34} {v['exact']:<22} {_fl(v):<22}")
    if "concentrated" in report:
        c = report["concentrated"]
        for key, label in (("per_attribute_epsilon0", "eps0 of nabla0-CDP (Def. 6)"),
                           ("whole_record_rho", "rho of zCDP (Def. 3)")):
            lines.append(f"{label:<34} in [{c[key]['lower']}, {c[key]['upper']}]")
        lines.append(f"{'Prop. 8: rho <= d^2 eps0^2 / 2':<34} {c['prop8_holds']} (bound <= {c['prop8_rho_bound_upper']})")
    lines.append("nabla profile (smallest eps(r, r') of Def. 4):")
    for e in report["nabla_profile"]:
        lines.append(f"  {json.dumps(e['record'])} ~ {json.dumps(e['record_prime'])}: {e['exact']} ({_fl(e)})")
    return "\n".join(lines)


def main_partial_audit(path: str, as_json: bool, concentrated: bool = False) -> tuple[int, str]:
    """(exit code, text) for the CLI; exit 2 with a message on a malformed file."""
    try:
        audit = load_partial_audit_file(path)
    except InputFileError as exc:
        return 2, f"bcdp partial audit: {exc}"
    report = partial_audit_report(audit, concentrated)
    return 0, json.dumps(report, indent=2, allow_nan=False) if as_json else format_partial_report(report)


__all__: Sequence[str] = ("PartialAudit", "parse_partial_audit_document", "load_partial_audit_file",
                          "partial_audit_report", "format_partial_report", "main_partial_audit")
