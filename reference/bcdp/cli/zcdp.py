"""``bcdp zcdp to-dp``: certified rho-zCDP -> (eps, delta)-DP conversions.

Two conversions, each certified by :func:`bcdp.accounting.conversion.zcdp_to_dp`: CKS (Canonne,
Kamath, Steinke 2020, Prop. 12 via the RDP curve rho*alpha) and Bun-Steinke (2016, Prop. 1.3,
eps = rho + 2 sqrt(rho log(1/delta))).  The partial DP paper's 2020 Census figures are CKS values.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bcdp.core.errors import EXIT_OK

#: builtin exceptions this command reports as bad input (exit 2), besides every BcdpError (as the
#: command has always done: the accountant's input checks are InvalidInputError, plain ValueError /
#: TypeError cover number parsing that has not been converted yet).
BAD_INPUT: tuple[type[Exception], ...] = (ValueError, TypeError)

CERTIFICATION = ("each epsilon is the upper end of an arb ball evaluation (python-flint, 200 bits) of "
                 "the conversion at the chosen alpha, rounded up to the next float; rho and delta "
                 "are read exactly from their decimal strings")


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("zcdp", help="zero-concentrated DP conversions")
    zsub = p.add_subparsers(dest="zcdp_command", required=True)
    z = zsub.add_parser("to-dp", help="rho-zCDP -> (eps, delta)-DP, certified (CKS and Bun-Steinke)")
    z.add_argument("--rho", required=True, help="rho >= 0 (decimal string, read exactly)")
    z.add_argument("--delta", required=True, help="delta in (0, 1) (decimal string, read exactly)")
    z.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from bcdp.accounting.conversion import zcdp_to_dp

    out: dict[str, Any] = {"rho": None, "delta": None, "epsilon": {}, "details": {}}
    for method in ("cks", "bun-steinke"):
        res = zcdp_to_dp(args.rho, args.delta, method)
        out["epsilon"][method] = res.epsilon_certified_upper
        out["details"][method] = {"alpha_star": res.alpha_star, "source": res.source,
                                  "enclosure": list(res.enclosure)}
    out["rho"], out["delta"] = float(args.rho), float(args.delta)
    out["certification"] = CERTIFICATION
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"rho = {args.rho}, delta = {args.delta}")
        for method, eps in out["epsilon"].items():
            print(f"  {method:<12} epsilon <= {eps!r}  (alpha* = {out['details'][method]['alpha_star']})")
    return EXIT_OK
