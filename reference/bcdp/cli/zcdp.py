"""``bcdp zcdp to-dp``: certified rho-zCDP -> (eps, delta)-DP conversions.

Two conversions, each certified by :func:`bcdp.accounting.conversion.zcdp_to_dp`: CKS (Canonne,
Kamath, Steinke 2020, Prop. 12 via the RDP curve rho*alpha) and Bun-Steinke (2016, Prop. 1.3,
eps = rho + 2 sqrt(rho log(1/delta))).  The partial DP paper's 2020 Census figures are CKS values.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from bcdp.core.errors import EXIT_OK
from bcdp.core.numbers import to_fraction

#: builtin exceptions this command reports as bad input (exit 2), besides every BcdpError: none, rho
#: and delta are read through bcdp.core.numbers (InvalidInputError) before any computation.
BAD_INPUT: tuple[type[Exception], ...] = ()


def _num(x: Any) -> float | str:
    """A float for strict JSON: infinities as the strings "inf" / "-inf" (never ``Infinity``)."""
    x = float(x)
    return ("inf" if x > 0 else "-inf") if math.isinf(x) else x

CERTIFICATION = ("each epsilon is the upper end of an arb ball evaluation (python-flint, 200 bits) of "
                 "the conversion at the chosen alpha, rounded up to the next float; rho and delta "
                 "are read exactly from their decimal strings (the float fields rho and delta are "
                 "their nearest doubles, for convenience; input holds the exact strings); alpha is "
                 "chosen over the whole range (1, inf)")


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("zcdp", help="zero-concentrated DP conversions")
    zsub = p.add_subparsers(dest="zcdp_command", required=True)
    z = zsub.add_parser("to-dp", help="rho-zCDP -> (eps, delta)-DP, certified (CKS and Bun-Steinke)")
    z.add_argument("--rho", required=True, help="rho >= 0 (decimal string, read exactly)")
    z.add_argument("--delta", required=True, help="delta in (0, 1) (decimal string, read exactly)")
    z.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    from bcdp.accounting.conversion import zcdp_to_dp

    rho_text, delta_text = str(args.rho).strip(), str(args.delta).strip()
    rho = to_fraction(rho_text, "rho")             # exact readings (caps, 1/0 refused) before computing;
    delta = to_fraction(delta_text, "delta")       # validity is decided on these exact values
    out: dict[str, Any] = {"rho": None, "delta": None, "input": {"rho": rho_text, "delta": delta_text},
                           "best": None, "epsilon": {}, "details": {}}
    for method in ("cks", "bun-steinke"):
        res = zcdp_to_dp(rho_text, delta_text, method)
        out["epsilon"][method] = _num(res.epsilon_certified_upper)
        out["details"][method] = {"alpha_star": _num(res.alpha_star), "source": res.source,
                                  "enclosure": [_num(x) for x in res.enclosure], "notes": list(res.notes)}
    # the best (smallest) certified epsilon first; every one listed is a valid guarantee
    best = min(out["epsilon"], key=lambda m: (float(out["epsilon"][m]), m != "cks"))
    out["best"] = {"method": best, "epsilon": out["epsilon"][best]}
    # floats for convenience only (the nearest double: 0.0 for delta = 1e-400); "input" is exact
    out["rho"], out["delta"] = float(rho), float(delta)
    out["certification"] = CERTIFICATION
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        print(f"rho = {args.rho}, delta = {args.delta}")
        print(f"  best: epsilon <= {out['best']['epsilon']!r} ({best})")
        for method in sorted(out["epsilon"], key=lambda m: m != best):
            det = out["details"][method]
            print(f"  {method:<12} epsilon <= {out['epsilon'][method]!r}  (alpha* = {det['alpha_star']})")
            for note in det["notes"]:
                print(f"    note: {note}")
    return EXIT_OK
