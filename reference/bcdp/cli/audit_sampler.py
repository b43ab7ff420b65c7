"""``bcdp audit-sampler MODULE:FUNCTION --inputs FILE ...``: black-box audit of a mechanism's sampler.

Draws ``--draws`` outputs per input (:mod:`bcdp.audit.sampling`), then reports for the LDP epsilon
(BCDP paper, arXiv:2410.18404, Def. 1), each coordinate-DP parameter (Def. 3) and, with a prior, each
Bayesian coordinate-DP parameter (Def. 4): the plug-in estimate, a lower confidence bound holding
simultaneously for all of them at ``--confidence`` (:mod:`bcdp.audit.confidence`), the witness and,
for a claim, the verdict "violated" (lower bound above the claim: exit 1) or "not refuted".  When a
claim is not refuted but the estimate exceeds it, the report plans the draws that would refute it
if the observed frequencies were the truth (power 0.9).  With ``--kernel FILE`` (the exact kernel the
sampler claims to implement, e.g. from :mod:`bcdp.audit.adapters`), the counts are also tested against
it (:func:`bcdp.audit.adapters.goodness_of_fit`, asymptotic chi-square, level 1 - confidence): a
rejection exits 1 like a violated claim.  The two tests are not combined: a correct sampler with a
correct claim and its true kernel exits 1 with probability up to 2 (1 - confidence) (union bound).
"""

from __future__ import annotations

import argparse
import json
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bcdp.core.errors import EXIT_CHECK_FAILED, EXIT_OK, InputFileError, InvalidInputError

BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("audit-sampler", help="black-box audit of a sampler (confidence bounds)")
    p.add_argument("sampler", help="MODULE:FUNCTION; fn(x, rng) -> one output, or fn(x, rng, size=m) -> m outputs")
    p.add_argument("--inputs", required=True, help="JSON file: the list of inputs, passed to the sampler as parsed")
    cells = p.add_mutually_exclusive_group(required=True)
    cells.add_argument("--outputs", help="JSON file: the finite list of possible outputs")
    cells.add_argument("--bins", help="bin edges E0,E1,... for continuous outputs (inf/-inf allowed; write --bins=-inf,... "
                            "when the first edge is negative)")
    p.add_argument("--prior", help="JSON file: one probability per input (for BCDP)")
    p.add_argument("--claim-eps", help="claimed LDP epsilon")
    p.add_argument("--claim-cdp", help="claimed coordinate-DP vector C1,C2,...")
    p.add_argument("--claim-delta", help="claimed BCDP vector D1,D2,... (needs --prior)")
    p.add_argument("--kernel", metavar="FILE",
                   help="JSON file: the exact kernel the sampler should implement, one row per input and one "
                        "entry per output cell ('1/3' strings or numbers); adds a goodness-of-fit test")
    p.add_argument("--draws", default="100000", help="draws per input (default 100000)")
    p.add_argument("--confidence", default="0.95", help="simultaneous confidence level (default 0.95)")
    p.add_argument("--seed", default="0", help="seed of the draws (default 0)")
    p.add_argument("--report", metavar="FILE.html", help="also write a self-contained HTML report")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="sample on a Dask cluster: a scheduler address, or 'local' for local processes "
                        "(same counts as a serial run with the same seed)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _plain(value: Any) -> Any:
    """A JSON value as the sampler sees it: integral numbers as int, other numbers as float."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and abs(value.adjusted()) < 300 else float(value)
    return value


def _read_list(path: str, what: str) -> list[Any]:
    from bcdp.audit.kernel import read_json_document

    doc = read_json_document(path)
    if not isinstance(doc, list) or not doc:
        raise InputFileError(f"{path}: the {what} must be a non-empty JSON list")
    return doc


def nonnegative_number(text: str, name: str, *, allow_inf: bool = False) -> float:
    """A number >= 0 from the command line (exact reading, then its float); inf only if allowed."""
    from bcdp.core.numbers import to_float_input

    value = to_float_input(text, name, allow_inf=allow_inf)
    if value < 0:
        raise InvalidInputError(f"{name} must be >= 0, got {text}")
    return value


def _vector(text: str, name: str) -> list[float]:
    return [nonnegative_number(part, f"{name}[{k}]", allow_inf=True) for k, part in enumerate(text.split(","))]


def digit_integer(text: str, name: str) -> int:
    """A non-negative integer of at most 13 digits from the command line."""
    if not text.strip().isdigit() or len(text.strip()) > 13:
        raise InvalidInputError(f"{name} must be a non-negative integer of at most 13 digits, got {text!r}")
    return int(text)


def _entry(bound: Any, claimed: float | None, confidence: float) -> dict[str, Any]:
    out: dict[str, Any] = {"claimed": claimed, "estimate": bound.estimate, "lower_bound": bound.lower_bound,
                           "confidence": confidence, "verdict": None if claimed is None else bound.verdict(claimed),
                           "witness": bound.witness}
    return out


def run(args: argparse.Namespace) -> int:
    from bcdp.audit.confidence import check_confidence
    from bcdp.audit.sampling import Binning, load_sampler, sample_counts
    from bcdp.core.numbers import to_probability
    from bcdp.core.results import jsonable

    confidence = check_confidence(nonnegative_number(args.confidence, "--confidence"))
    draws, seed = digit_integer(args.draws, "--draws"), digit_integer(args.seed, "--seed")
    claim_eps = None if args.claim_eps is None else nonnegative_number(args.claim_eps, "--claim-eps", allow_inf=True)
    claim_cdp = None if args.claim_cdp is None else _vector(args.claim_cdp, "--claim-cdp")
    claim_delta = None if args.claim_delta is None else _vector(args.claim_delta, "--claim-delta")
    if claim_delta is not None and args.prior is None:
        raise InvalidInputError("--claim-delta (BCDP) needs --prior")
    inputs = [_plain(x) for x in _read_list(args.inputs, "inputs")]
    if args.outputs is not None:
        from bcdp.audit.kernel import hashable_label

        binning = Binning(labels=tuple(hashable_label(v) for v in _read_list(args.outputs, "outputs")))
    else:
        binning = Binning(edges=tuple(_vector_signed(args.bins)))
    prior = None
    if args.prior is not None:
        pmf = [to_probability(v, f"prior[{k}]") for k, v in enumerate(_read_list(args.prior, "prior"))]
        if len(pmf) != len(inputs) or sum(pmf, Fraction(0)) != 1:
            raise InputFileError(f"{args.prior}: the prior needs one probability per input, summing to 1 exactly")
        prior = [float(p) for p in pmf]
    kernel = None if args.kernel is None else _read_kernel(args.kernel, len(inputs), len(binning.names))
    fn = load_sampler(args.sampler)
    mapper = None
    if args.scheduler is not None:
        from bcdp.audit.sampling import dask_chunk_mapper

        mapper = dask_chunk_mapper(args.scheduler)
    audit = sample_counts(fn, inputs, binning, draws, seed, map_chunks=mapper,
                          progress=draws * len(inputs) > 10 ** 6)

    report: dict[str, Any] = {"sampler": args.sampler, "draws": draws, "seed": seed, "confidence": confidence,
                              "scheduler": args.scheduler,
                              "cells": int(audit.counts.size), "outputs": list(audit.outputs),
                              "ldp": _entry(audit.ldp(confidence), claim_eps, confidence)}
    tuples = all(isinstance(x, list) for x in inputs) and len({len(x) for x in inputs}) == 1
    if tuples or claim_cdp is not None:
        cdp = audit.cdp(confidence)
        _check_length(claim_cdp, len(cdp), "--claim-cdp")
        report["cdp"] = [_entry(b, None if claim_cdp is None else claim_cdp[i], confidence) for i, b in enumerate(cdp)]
    if prior is not None:
        bcdp = audit.bcdp(prior, confidence)
        _check_length(claim_delta, len(bcdp), "--claim-delta")
        report["bcdp"] = [_entry(b, None if claim_delta is None else claim_delta[i], confidence)
                          for i, b in enumerate(bcdp)]
    _plan(report, audit, confidence)
    violated = any(e["verdict"] == "violated" for e in _entries(report))
    if kernel is not None:
        from bcdp.audit.adapters import goodness_of_fit

        p_value = goodness_of_fit(audit, kernel)
        verdict = "rejected" if p_value < 1 - confidence else "not rejected"
        report["goodness_of_fit"] = {"kernel": args.kernel, "p_value": p_value, "level": 1 - confidence,
                                     "verdict": verdict, "method": "per-input Pearson chi-square, Bonferroni "
                                                                   "(asymptotic)"}
        violated = violated or verdict == "rejected"
    if args.report is not None:
        from bcdp.audit.html_report import sampler_audit_page, write_report

        write_report(args.report, sampler_audit_page(audit, report))
    if args.json:
        print(json.dumps(jsonable(report), indent=2, allow_nan=False))
    else:
        print(_format(report))
    return EXIT_CHECK_FAILED if violated else EXIT_OK


def _read_kernel(path: str, n_inputs: int, n_cells: int) -> list[list[Any]]:
    """The --kernel file, one row per input and one entry per output cell, checked before any draw
    (:func:`bcdp.audit.adapters.kernel_array`).  Strings ('1/3') and integers are exact and rows of them
    must sum to 1 exactly; a JSON number with a fraction or an exponent is a float (e^eps / (1 + e^eps)
    has no exact decimal) and rows with one sum to 1 within the adapters' float tolerance."""
    from bcdp.audit.adapters import kernel_array

    rows = _read_list(path, "kernel")
    if any(not isinstance(r, list) for r in rows):
        raise InputFileError(f"{path}: the kernel must be a list of rows (one list of probabilities per input)")
    rows = [[_plain(v) for v in r] for r in rows]
    try:
        kernel_array(rows, (n_inputs, n_cells))
    except InvalidInputError as exc:
        raise InputFileError(f"{path}: {exc}") from exc
    return rows


def _vector_signed(text: str) -> list[float]:
    from bcdp.core.numbers import to_float_input

    return [to_float_input(part, f"--bins[{k}]", allow_inf=True) for k, part in enumerate(text.split(","))]


def _check_length(claims: list[float] | None, d: int, name: str) -> None:
    if claims is not None and len(claims) != d:
        raise InvalidInputError(f"{name} has {len(claims)} entries for {d} coordinates")


def _entries(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [report["ldp"], *report.get("cdp", []), *report.get("bcdp", [])]


def _plan(report: dict[str, Any], audit: Any, confidence: float) -> None:
    """The LDP claim not refuted but exceeded by the estimate: draws that would refute it at power 0.9
    if the witness's observed frequencies were the truth."""
    from bcdp.audit.confidence import draws_to_refute

    entry = report["ldp"]
    if entry["verdict"] != "not refuted" or not entry["estimate"] > entry["claimed"]:
        return
    freq = audit.frequencies()
    est = [(freq[:, y].max(), freq[:, y].min()) for y in range(freq.shape[1])]
    candidates = [(a, b) for a, b in est if b > 0 and math.log(a / b) > entry["claimed"]]
    if not candidates:
        return
    p_num, p_den = max(candidates, key=lambda ab: math.log(ab[0] / ab[1]))
    try:
        entry["draws_to_refute"] = draws_to_refute(float(p_num), float(p_den), entry["claimed"], confidence,
                                                   int(audit.counts.size))
    except InvalidInputError:
        return


def _format(report: dict[str, Any]) -> str:
    def line(name: str, e: dict[str, Any]) -> str:
        text = f"{name:10s} estimate {e['estimate']:.6g}  lower bound {e['lower_bound']:.6g}"
        if e["claimed"] is not None:
            text += f"  claim {e['claimed']:.6g}: {e['verdict']}"
        if "draws_to_refute" in e:
            text += (f" (estimate above the claim: were the observed frequencies exact, about "
                     f"{e['draws_to_refute']} draws per input would refute it)")
        return text

    rows = [f"{report['sampler']}: {report['draws']} draws per input, seed {report['seed']}, "
            f"{report['cells']} cells, simultaneous confidence {report['confidence']}",
            line("LDP eps", report["ldp"])]
    rows += [line(f"CDP c_{i + 1}", e) for i, e in enumerate(report.get("cdp", []))]
    rows += [line(f"BCDP d_{i + 1}", e) for i, e in enumerate(report.get("bcdp", []))]
    fit = report.get("goodness_of_fit")
    if fit is not None:
        rows.append(f"fit to {fit['kernel']}: p-value {fit['p_value']:.4g} at level {fit['level']:.4g}: "
                    f"{fit['verdict']} ({fit['method']})")
    return "\n".join(rows)
