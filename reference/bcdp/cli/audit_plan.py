"""``bcdp audit-plan``: draws per input that a black-box audit needs to refute a wrong LDP claim.

The mechanism is described by its witness cell: probability P under one input and Q under another,
with log(P / Q) above the claim (``--cell-probabilities P,Q``), or by binary randomized response at
its true epsilon (``--rr-eps E``: P = e^E / (1 + e^E), Q = 1 - P), the claim being wrong by the margin
E - claim.  The answer is :func:`bcdp.audit.confidence.draws_to_refute`: with that many draws per
input, ``bcdp audit-sampler`` at ``--confidence`` over ``--cells`` cells reports "violated" with
probability at least ``--power`` (exact binomial quantiles, no normal approximation).  A witness with
smaller probabilities at the same ratio needs more draws: the RR figure is the fewest for that margin
among mechanisms whose witness cells are complementary, not a bound for every mechanism.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from bcdp.core.errors import EXIT_OK, InvalidInputError

BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("audit-plan", help="draws per input needed to refute a wrong LDP claim")
    p.add_argument("--claim-eps", required=True, help="the claimed LDP epsilon")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--rr-eps", help="true epsilon of a binary randomized response (P = e^E / (1 + e^E))")
    which.add_argument("--cell-probabilities", metavar="P,Q",
                       help="the witness cell's probability under the two inputs, log(P/Q) above the claim")
    p.add_argument("--cells", default="4", help="cells of the audit: inputs x output cells (default 4)")
    p.add_argument("--confidence", default="0.95", help="simultaneous confidence of the audit (default 0.95)")
    p.add_argument("--power", default="0.9", help="probability of the verdict 'violated' (default 0.9)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from bcdp.audit.confidence import check_confidence, draws_to_refute
    from bcdp.cli.audit_sampler import digit_integer, nonnegative_number

    claim = nonnegative_number(args.claim_eps, "--claim-eps")
    if args.rr_eps is not None:
        true_eps = nonnegative_number(args.rr_eps, "--rr-eps")
        if true_eps > 700:
            raise InvalidInputError(f"--rr-eps must be at most 700 (e^E overflows a float), got {args.rr_eps}")
        p_num = 1 / (1 + math.exp(-true_eps))
        p_den = 1 / (1 + math.exp(true_eps))
    else:
        parts = args.cell_probabilities.split(",")
        if len(parts) != 2:
            raise InvalidInputError(f"--cell-probabilities needs two numbers P,Q, got {args.cell_probabilities!r}")
        p_num, p_den = (nonnegative_number(v, f"--cell-probabilities[{k}]") for k, v in enumerate(parts))
    cells = digit_integer(args.cells, "--cells")
    if cells < 4:
        raise InvalidInputError(f"--cells must be at least 4 (two inputs, two output cells), got {cells}")
    confidence = check_confidence(nonnegative_number(args.confidence, "--confidence"), "--confidence")
    power = check_confidence(nonnegative_number(args.power, "--power"), "--power")
    draws = draws_to_refute(p_num, p_den, claim, confidence, cells, power)
    report = {"claim_eps": claim, "p_num": p_num, "p_den": p_den, "true_log_ratio": math.log(p_num / p_den),
              "cells": cells, "confidence": confidence, "power": power, "draws_per_input": draws,
              "method": "exact binomial quantiles plugged into the Clopper-Pearson ends (draws_to_refute)"}
    if args.json:
        print(json.dumps(report, indent=2, allow_nan=False))
    else:
        print(f"{draws} draws per input refute the claim eps = {claim:g} with probability >= {power:g} at "
              f"confidence {confidence:g} over {cells} cells (witness cell {p_num:.6g} vs {p_den:.6g}, "
              f"true log-ratio {report['true_log_ratio']:.6g})")
    return EXIT_OK
