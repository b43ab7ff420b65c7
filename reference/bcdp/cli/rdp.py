"""``bcdp rdp shuffle`` and ``bcdp rdp to-dp``: the RDP of n shuffled eps0-LDP reports (thesis Ch. 5).

Curve sources (``--exact`` or ``--bound NAME``):
* ``exact`` - the exact RDP of shuffled binary randomized response: the supremum over all
  neighbouring pairs and both directions (bcdp.shuffle.exact.rr_worst_pair_rdp), with the
  attaining pair (j = number of ones among the other n - 1 users, direction);
* a bound of bcdp.shuffle.bounds, by its short name (aliases below) or registry name.
Integer-only bounds are extended to real alpha by the convexity interpolation (5.6) where the
thesis allows it (Thm 5.3.1); lower bounds at non-integer alpha are reported as null.

``to-dp`` composes the curve over T rounds (RDP composition, Mironov 2017 Prop. 1) and converts it
to (eps, delta) with a certified conversion of :mod:`bcdp.accounting.conversion`.  On the exact
curve the RDP values are certified arb enclosures of the sup over every neighbouring pair
(bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball), not the float64 search, whose error is unproven
(-4e-9 relative at eps0 = 1e-7, +40% at eps0 = 1e-15); their cost is guarded in total over the orders.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from bcdp.core.errors import EXIT_OK, InvalidInputError
from bcdp.core.numbers import to_float_input, to_fraction

#: builtin exceptions this command reports as bad input (exit 2), besides every BcdpError: none, every
#: argument is read through bcdp.core.numbers (InvalidInputError) before any computation.
BAD_INPUT: tuple[type[Exception], ...] = ()

#: Largest count accepted for --n and --rounds (read as exact integers, "1e20" allowed).
MAX_COUNT = 10 ** 100
#: Most orders one command evaluates.
MAX_ORDERS = 1000
#: Largest order of the bounds whose cost grows with alpha: (5.4) sums alpha terms (about 0.1 s at
#: alpha = 1000), (5.9) needs alpha central moments at alpha-dependent precision (3 s at 256).
MAX_ORDER = {"thm531_upper": 4096, "thm533_lower": 256}

EXACT_N_LIMIT = 200_000  # `bcdp rdp shuffle --exact` above this needs --allow-slow
#: `bcdp rdp to-dp --exact` above this total cost (bcdp.shuffle.rr_all_pairs.certified_cost, summed
#: over the orders; about 6 microseconds a unit) needs --allow-slow
CERTIFIED_COST_LIMIT = 3_000_000

ALIASES = {
    "thm5.3.1": "thm531_upper", "cor5.3.1": "cor531_upper", "thm5.3.2": "thm532_upper",
    "efm19": "efm19_upper", "lower5.3.3": "thm533_lower", "lower5.3.2": "cor532_lower",
    "cor5.3.2": "cor532_lower",
}
CURVE_BOUNDS = ("thm531_upper", "cor531_upper", "thm532_upper", "efm19_upper", "thm533_lower", "cor532_lower")


def resolve_bound(name: str) -> str:
    key = ALIASES.get(name, name)
    if key not in CURVE_BOUNDS:
        raise InvalidInputError(f"unknown bound {name!r}; known: {', '.join(list(ALIASES) + list(CURVE_BOUNDS))}")
    return key


def bound_value(key: str, n: int, eps0: str, alpha: float) -> float | None:
    """One bound at one order, as a float (None where the bound is not defined at this alpha)."""
    from bcdp.shuffle import bounds as sb

    integer = float(alpha).is_integer()
    a = int(alpha) if integer else alpha
    if key == "thm531_upper":
        return float(sb.thm531_upper(n, eps0, a) if integer else sb.thm531_upper_real(n, eps0, str(alpha)))
    if key == "cor531_upper":
        return float(sb.cor531_upper(n, eps0, a)) if integer else None
    if key == "thm532_upper":
        return float(sb.thm532_upper(n, eps0, str(alpha)))
    if key == "efm19_upper":
        return float(sb.efm19_upper(n, eps0, str(alpha)))
    if key == "thm533_lower":
        return float(sb.thm533_lower(n, eps0, a)) if integer else None
    if key == "cor532_lower":
        return float(sb.cor532_lower(n, eps0, a)) if integer else None
    raise AssertionError(f"bound {key!r} has no evaluator")  # unreachable: resolve_bound checked it


def shuffle_curve(n: int, eps0: str, alphas: list[float], bound: str | None) -> dict[str, Any]:
    """The JSON object of `bcdp rdp shuffle`."""
    out: dict[str, Any] = {"n": n, "eps0": _num(to_float_input(eps0, "eps0", allow_inf=True)),
                           "input": {"eps0": eps0}, "curve": []}
    if bound is None:
        from bcdp.shuffle.exact import rr_worst_pair_rdp

        if math.isinf(out["eps0"] if isinstance(out["eps0"], float) else math.inf):
            raise InvalidInputError(f"eps0 = {eps0} is finite but beyond the float range of the float64 exact search; "
                                    "use --bound NAME (read exactly) or `bcdp rdp to-dp` (certified)")

        out["source"] = "exact: sup over all neighbouring pairs and both directions, shuffled binary RR"
        for a in alphas:
            eps, pair = rr_worst_pair_rdp(n, to_float_input(eps0, "eps0"), a)
            out["curve"].append({"alpha": a, "epsilon": _num(eps),
                                 "pair": {"ones_among_others": int(pair[0]), "direction": pair[1]}})
        return out
    key = resolve_bound(bound)
    from bcdp.shuffle.bounds import BOUNDS

    cap = MAX_ORDER.get(key)
    if cap is not None and max(alphas) > cap:
        raise InvalidInputError(f"{key} at alpha = {max(alphas):g} is too slow to evaluate here; orders up to "
                                f"{cap} are accepted (the bound's cost grows with alpha)")
    spec = BOUNDS[key]
    out["source"] = f"{spec.source}, {spec.equation}"
    out["bound"] = key
    out["validity"] = spec.validity
    for a in alphas:
        value = bound_value(key, n, eps0, a)
        out["curve"].append({"alpha": a, "epsilon": None if value is None else _num(value)})
    return out


def _num(x: float) -> float | str:
    """A float for strict JSON: infinities as the strings "inf" / "-inf" (never ``Infinity``)."""
    x = float(x)
    return ("inf" if x > 0 else "-inf") if math.isinf(x) else x


def read_count(text: Any, name: str, minimum: int = 1) -> int:
    """An integer >= ``minimum`` written as an integer or an exact decimal ("1e20"), at most
    :data:`MAX_COUNT`."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = to_fraction(text, name)
    else:
        value = to_fraction(str(text), name)
    if value.denominator != 1:
        raise InvalidInputError(f"{name} must be an integer, got {text!r}")
    if value < minimum:
        raise InvalidInputError(f"{name} must be >= {minimum}")
    if value > MAX_COUNT:
        raise InvalidInputError(f"{name} must be at most 1e100, got {text!r}")
    return int(value)


_INF_TEXT = ("inf", "+inf", "infinity", "+infinity", "oo")


def eps0_is_infinite(eps0: str) -> bool:
    """True for the spellings of +inf (read_eps0 has checked the text); never decided on a float, so
    that the finite "1e400" is not taken for infinity."""
    return eps0.strip().lower() in _INF_TEXT


def read_eps0(text: Any) -> str:
    """eps0 >= 0 (inf allowed for the bounds), returned as the string the computations read exactly.
    Decided on the exact value (``"-1e-400"`` is negative, ``"1e400"`` finite), not on a float."""
    t = str(text).strip()
    if eps0_is_infinite(t):
        return t
    to_float_input(t, "eps0", allow_inf=True)      # "cannot read 'abc' as a number" (the message only)
    if not to_fraction(t, "eps0") >= 0:            # the exact reading (size and exponent caps) decides
        raise InvalidInputError(f"eps0 must be >= 0, got {text!r}")
    return t


def read_orders(text: str) -> list[int]:
    """--orders: comma-separated integers >= 2."""
    parts = [p.strip() for p in str(text).split(",")]
    if not any(parts) or len(parts) > MAX_ORDERS:
        raise InvalidInputError(f"--orders must list 1 to {MAX_ORDERS} integers >= 2, got {text!r}")
    return [read_count(p, "order", 2) for p in parts]


def to_dp(n: int, eps0: str, delta: str, rounds: int, bound: str | None, method: str,
          orders: list[int]) -> dict[str, Any]:
    """Compose the curve over T rounds and convert it to (eps, delta), certified."""
    from bcdp.accounting.conversion import rdp_curve_from_arrays, rdp_to_dp
    from bcdp.accounting.inputs import CERT_PREC, hull
    from bcdp.core.intervals import arb_precision

    if bound is None:
        # the exact curve, certified: an arb enclosure of the sup over every neighbouring pair at
        # each order (bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball); the float search value is
        # the ball's midpoint
        from bcdp.shuffle.rr_all_pairs import rr_worst_pair_rdp_ball

        source = "exact: sup over all neighbouring pairs and both directions, shuffled binary RR"
        cert = [rr_worst_pair_rdp_ball(n, eps0, a) for a in orders]
        pts = [(float(a), float(c.mid())) for a, c in zip(orders, cert)]
    else:
        if resolve_bound(bound) in ("thm533_lower", "cor532_lower"):
            raise InvalidInputError("a lower bound cannot be converted to an (eps, delta) guarantee")
        curve = shuffle_curve(n, eps0, [float(a) for a in orders], bound)
        source = curve["source"]
        pts = [(p["alpha"], p["epsilon"]) for p in curve["curve"] if p["epsilon"] not in (None, "inf")]
        if not pts:
            raise InvalidInputError("no finite RDP value on the chosen orders")
        # the closed-form bounds are 50-digit mpmath values (accurate to >= 1e-40) rounded to floats;
        # they are enclosed with a relative margin of 1e-12 that covers the float rounding: a ball
        # containing the interval between the two floats v (1 - 1e-12) and v (1 + 1e-12)
        with arb_precision(CERT_PREC):
            cert = [hull(v * (1 - 1e-12), v * (1 + 1e-12)) for _, v in pts]
    rdp = rdp_curve_from_arrays([a for a, _ in pts], [v for _, v in pts], certified_values=cert)
    res = rdp_to_dp(rdp.compose(rounds) if rounds > 1 else rdp, delta, method, orders=[a for a, _ in pts])
    return {"n": n, "eps0": _num(to_float_input(eps0, "eps0", allow_inf=True)),
            "delta": float(to_fraction(delta, "delta")), "input": {"eps0": eps0, "delta": delta.strip()},
            "rounds": rounds, "method": method,
            "source": source, "epsilon": _num(res.epsilon_certified_upper), "alpha_star": _num(res.alpha_star),
            "conversion_source": res.source, "notes": list(res.notes)}


def add_parser(subparsers: Any) -> None:
    p = subparsers.add_parser("rdp", help="Renyi DP of the shuffle model (thesis Ch. 5)")
    rsub = p.add_subparsers(dest="rdp_command", required=True)
    r = rsub.add_parser("shuffle", help="RDP curve of n shuffled eps0-LDP reports")
    r.add_argument("--n", required=True)
    r.add_argument("--eps0", required=True)
    r.add_argument("--alpha", required=True, help="comma-separated orders > 1, e.g. 2,3,4.5,64")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--bound", help="a bound: thm5.3.1, cor5.3.1, thm5.3.2, efm19, lower5.3.3, lower5.3.2")
    g.add_argument("--exact", action="store_true", help="exact sup over all neighbouring pairs (default)")
    r.add_argument("--allow-slow", action="store_true",
                   help=f"allow --exact for n > {EXACT_N_LIMIT} (minutes per order)")
    r.add_argument("--json", action="store_true")
    r = rsub.add_parser("to-dp", help="compose over T rounds and convert to (eps, delta), certified")
    r.add_argument("--n", required=True)
    r.add_argument("--eps0", required=True)
    r.add_argument("--delta", required=True)
    r.add_argument("--rounds", default="1")
    r.add_argument("--orders", help="comma-separated integer orders (default 2..64)")
    r.add_argument("--method", default="cks", choices=["cks", "mironov", "asoodeh"])
    r.add_argument("--allow-slow", action="store_true",
                   help="allow the certified exact curve beyond about 20 s of work (n^2/2 terms per order)")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--bound")
    g.add_argument("--exact", action="store_true")
    r.add_argument("--json", action="store_true")


def parse_alphas(text: str) -> list[float]:
    """Comma-separated orders, each a finite number > 1, decided on its exact value; the order used
    is its nearest float, which must itself be a finite float > 1 (``1 + 1e-20`` is a valid order, but
    not one the float computations can evaluate: refused with that reason)."""
    out = []
    parts = str(text).split(",")
    if len(parts) > MAX_ORDERS:
        raise InvalidInputError(f"--alpha lists more than {MAX_ORDERS} orders")
    for part in parts:
        t = part.strip()
        if not t or t.lower().lstrip("+-") in _INF_TEXT + ("nan",):
            raise InvalidInputError(f"alpha must be a finite number > 1, got {part!r}")
        q = to_fraction(t, "alpha")
        if not q > 1:
            raise InvalidInputError(f"alpha must be a finite number > 1, got {part!r}")
        try:
            a = float(q)
        except OverflowError:
            a = math.inf
        if not (math.isfinite(a) and a > 1):
            raise InvalidInputError(f"alpha = {t} is a valid order but its nearest float is {a!r}: orders are "
                                    "evaluated as floats here, pass one in (1 + 2^-52, 1.8e308)")
        out.append(a)
    return out


def run(args: argparse.Namespace) -> int:
    return run_shuffle(args) if args.rdp_command == "shuffle" else run_to_dp(args)


def run_shuffle(args: argparse.Namespace) -> int:
    args.n = read_count(args.n, "n")
    eps0 = read_eps0(args.eps0)
    alphas = parse_alphas(args.alpha)
    exact = args.exact or not args.bound
    if exact and args.n > EXACT_N_LIMIT and not args.allow_slow:
        raise InvalidInputError(f"the exact supremum over all neighbouring pairs searches every configuration of "
                                f"the other n - 1 users (about 10 minutes per order at n = 1e6); n = {args.n} > "
                                f"{EXACT_N_LIMIT}: pass --allow-slow to run it anyway, or use --bound NAME")
    if exact and eps0_is_infinite(eps0):
        raise InvalidInputError("the exact path needs a finite eps0 (every bound gives inf at eps0 = inf)")
    out = shuffle_curve(args.n, eps0, alphas, None if exact else args.bound)
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        print(f"n = {out['n']}, eps0 = {out['eps0']}: {out['source']}")
        for p in out["curve"]:
            extra = f"  pair {p['pair']}" if "pair" in p else ""
            print(f"  alpha = {p['alpha']:<8g} epsilon = {p['epsilon']}{extra}")
    return EXIT_OK


def run_to_dp(args: argparse.Namespace) -> int:
    args.n = read_count(args.n, "n")
    args.rounds = read_count(args.rounds, "rounds")
    eps0 = read_eps0(args.eps0)
    orders = read_orders(args.orders) if args.orders is not None else list(range(2, 65))
    exact = args.exact or not args.bound
    if exact and eps0_is_infinite(eps0):
        raise InvalidInputError("eps0 = inf: no finite RDP value to convert")
    if exact and not args.allow_slow:
        from bcdp.shuffle.rr_all_pairs import certified_cost

        cost = certified_cost(args.n, len(orders))
        if cost > CERTIFIED_COST_LIMIT:
            raise InvalidInputError(f"the certified exact curve evaluates every neighbouring pair in ball arithmetic, "
                                    f"about n^2/2 terms per order: n = {args.n} with {len(orders)} orders is "
                                    f"{cost:.3g} terms > {CERTIFIED_COST_LIMIT:.3g} (about 20 s); pass fewer "
                                    f"--orders, use --bound NAME, or pass --allow-slow")
    out = to_dp(args.n, eps0, str(args.delta), args.rounds, None if exact else args.bound, args.method, orders)
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        print(f"n = {out['n']}, eps0 = {out['input']['eps0']}, T = {out['rounds']}, delta = {out['input']['delta']}: "
              f"epsilon <= {out['epsilon']!r} (alpha* = {out['alpha_star']}, {out['method']})")
        for note in out["notes"]:
            print(f"  note: {note}")
    return EXIT_OK
