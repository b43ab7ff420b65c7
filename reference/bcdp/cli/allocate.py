"""``bcdp allocate``: the Theorem 2 budgets c (eq. 16) of Mechanism 1 and the eq. (17) objective.

BCDP paper (Aliakbarpour et al. 2024, arXiv:2410.18404), Sec. 4, Thm 2, eqs. (16)-(17); zeta
defaults to (1 + q)/2 as in App. B.1.  ``--optimal`` minimises the eq. (17) objective with a
certified branch and bound (:mod:`bcdp.bayesian.optimal_allocation`).  Every number is read exactly.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bcdp.core.errors import EXIT_OK

#: builtin exceptions this command reports as bad input (exit 2), besides every BcdpError: the
#: budget functions of bcdp.bayesian.allocation still signal out-of-range parameters (q outside
#: [0, 1], zeta outside (0, 1]) with ValueError / TypeError.
BAD_INPUT: tuple[type[Exception], ...] = ()


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("allocate", help="Theorem 2 budgets c (eq. 16) for Mechanism 1")
    p.add_argument("--delta", required=True, help="comma-separated BCDP demands, e.g. 0.2,0.2,2,2")
    p.add_argument("--eps", required=True, help="LDP level (exact decimal or p/q)")
    p.add_argument("--q", required=True, help="dependence bound of Assumption 1, in [0, 1]")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--zeta", help="zeta in (0, 1] (default: (1 + q)/2, App. B.1)")
    group.add_argument("--optimal", action="store_true", help="minimise the eq. (17) objective")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from bcdp.bayesian.allocation import allocate_budgets
    from bcdp.core.numbers import to_fraction

    delta = [to_fraction(v.strip(), f"--delta entry {i}") for i, v in enumerate(args.delta.split(","))]
    eps = to_fraction(args.eps, "--eps")
    q = to_fraction(args.q, "--q")
    if args.optimal:
        from bcdp.bayesian.optimal_allocation import optimal_allocation

        result = optimal_allocation(delta, eps, q)
        alloc = result.allocation
        full = result.to_json()
        extra = {k: full[k] for k in ("objective_upper", "lower_bound", "lower_bound_float", "gap", "solver")
                 if k in full}
    else:
        zeta = to_fraction(args.zeta, "--zeta") if args.zeta is not None else (1 + q) / 2
        alloc = allocate_budgets(delta, eps, q, zeta)
        extra = {}
    out = alloc.to_json()
    out.update(extra)
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
        return EXIT_OK
    print(f"method: {out['method']}" + (f" (zeta = {out['zeta']})" if out["zeta"] else ""))
    print(f"delta = ({', '.join(out['delta'])}), eps = {out['eps']}, q = {out['q']}")
    print(f"{'i':>3} {'delta_i':>8} {'c_i (float)':>20}  c_i (exact)")
    for i, (dl, c) in enumerate(zip(out["delta"], out["c"]), start=1):
        print(f"{i:>3} {dl:>8} {c['float']:>20.15g}  {c['exact']}")
    obj = out["objective"]
    print(f"eq. (17) objective: {obj['float'] if isinstance(obj['float'], str) else format(obj['float'], '.15g')}")
    for key, value in extra.items():
        print(f"{key}: {value}")
    return EXIT_OK
