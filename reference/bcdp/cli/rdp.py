"""``bcdp rdp shuffle``, ``to-dp`` and ``calibrate``: the RDP of n shuffled eps0-LDP reports (thesis Ch. 5).

Curve sources (``--exact`` or ``--bound NAME``):
* ``exact`` - the exact RDP of shuffled binary randomized response: the supremum over all
  neighbouring pairs and both directions, with the attaining pair (j = number of ones among the
  other n - 1 users, direction).  Certified when the arb enclosure of every pair
  (bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball) fits the cost budget
  :data:`CERTIFIED_COST_LIMIT` (n up to about 2400 for one order): "epsilon" is the upper end of the
  ball rounded up, "enclosure" the outward-rounded ball.  Beyond the budget the float64 search
  (rr_worst_pair_rdp) is used only inside the range where it was measured against the arb and
  mpmath paths (rr_all_pairs.FLOAT_SEARCH_RANGE), labelled as a float with its measured relative
  error; outside that range the command refuses (exit 2) and points to --bound and --allow-slow;
* a bound of bcdp.shuffle.bounds, by its short name (aliases below) or registry name.  The upper
  bounds (5.4), (5.5), (5.7), (5.8) are arb enclosures of the printed formulas
  (bcdp.shuffle.bound_balls): "epsilon" is the upper end rounded up; the lower bounds (5.9),
  (5.10) are their 60-digit mpmath values rounded to nearest (not certified).
Integer-only bounds are extended to real alpha by the convexity interpolation (5.6) where the
thesis allows it (Thm 5.3.1); lower bounds at non-integer alpha are reported as null.

``to-dp`` composes the curve over T rounds (RDP composition, Mironov 2017 Prop. 1) and converts it
to (eps, delta) with a certified conversion of :mod:`bcdp.accounting.conversion`.  On the exact
curve the RDP values are certified arb enclosures of the sup over every neighbouring pair
(bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball), not the float64 search, whose error is unproven
(-4e-9 relative at eps0 = 1e-7, +40% at eps0 = 1e-15); their cost is guarded in total over the orders.
On a bound the RDP values are the arb enclosures of bcdp.shuffle.bound_balls.

``calibrate`` inverts ``to-dp`` (bcdp.shuffle.calibration): the largest eps0 (given n) or the
smallest n (given eps0) whose certified epsilon meets a target; ``to-dp`` at the answer prints the
same epsilon, and the value one step beyond (factor 1 + rel on eps0, 1 - rel on n) is printed with
its epsilon above the target.
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
#: hard limits, even with --allow-slow: the float search at n = 1e7 is over an hour and about a GiB per
#: order; the certified enclosure at 1e9 ball terms is hours.  Beyond them the command refuses (a run
#: that cannot finish is not a result), pointing to --bound.
ALLOW_SLOW_N_LIMIT = 10_000_000
ALLOW_SLOW_COST_LIMIT = 1_000_000_000


def check_allow_slow_cost(n: int, cost: float) -> None:
    """Refuse runs beyond the hard limits that --allow-slow does not lift."""
    if cost > ALLOW_SLOW_COST_LIMIT and n > ALLOW_SLOW_N_LIMIT:
        raise InvalidInputError(f"n = {n} is beyond what the exact path can compute even with --allow-slow "
                                f"(n <= {ALLOW_SLOW_N_LIMIT} for the float search, {ALLOW_SLOW_COST_LIMIT:.0e} ball "
                                f"terms for the certified enclosure): use --bound NAME")

ALIASES = {
    "thm5.3.1": "thm531_upper", "cor5.3.1": "cor531_upper", "thm5.3.2": "thm532_upper",
    "efm19": "efm19_upper", "lower5.3.3": "thm533_lower", "lower5.3.2": "cor532_lower",
    "cor5.3.2": "cor532_lower", "thm5.4.1": "thm541_upper",
}
#: the subsampled bound (to-dp and calibrate, with --sample-size or --poisson-rate)
SUBSAMPLED_BOUND = "thm541_upper"
CURVE_BOUNDS = ("thm531_upper", "cor531_upper", "thm532_upper", "efm19_upper", "thm533_lower", "cor532_lower")


def resolve_bound(name: str, subsampled: bool = False) -> str:
    key = ALIASES.get(name, name)
    if key == SUBSAMPLED_BOUND and not subsampled:
        raise InvalidInputError("thm5.4.1 is the subsampled bound: pass --sample-size K or --poisson-rate G "
                                "(bcdp rdp to-dp / calibrate)")
    if subsampled and key != SUBSAMPLED_BOUND:
        raise InvalidInputError("with --sample-size or --poisson-rate the certified curve is thesis Thm 5.4.1: "
                                "pass --bound thm5.4.1")
    if key not in CURVE_BOUNDS and key != SUBSAMPLED_BOUND:
        raise InvalidInputError(f"unknown bound {name!r}; known: {', '.join(list(ALIASES) + list(CURVE_BOUNDS))}")
    return key


def bound_point(key: str, n: int, eps0: str, alpha: float) -> dict[str, Any]:
    """One bound at one order: {"epsilon": float or None (not defined at this alpha)} and, for the
    upper bounds, "enclosure": [lo, hi] (outward floats of the arb ball of
    bcdp.shuffle.bound_balls) with "epsilon" = hi; eps0 = inf gives "inf"."""
    from bcdp.shuffle import bounds as sb
    from bcdp.shuffle.bound_balls import UPPER_BOUNDS

    integer = float(alpha).is_integer()
    a = int(alpha) if integer else repr(float(alpha))     # the decimal the user typed (parse_alphas)
    if key in UPPER_BOUNDS:
        if UPPER_BOUNDS[key] == "integer" and not integer:
            return {"epsilon": None, "enclosure": None}
        ball = bound_ball(key, n, eps0, a)
        if ball is None:
            return {"epsilon": "inf", "enclosure": ["inf", "inf"]}
        lo, hi = _outward(ball)
        return {"epsilon": _num(hi), "enclosure": [_num(lo), _num(hi)]}
    if key == "thm533_lower":
        return {"epsilon": _num(sb.thm533_lower(n, eps0, a)) if integer else None}
    if key == "cor532_lower":
        return {"epsilon": _num(sb.cor532_lower(n, eps0, a)) if integer else None}
    raise AssertionError(f"bound {key!r} has no evaluator")  # unreachable: resolve_bound checked it


def bound_ball(key: str, n: int, eps0: str, alpha: int | str) -> Any:
    """The arb ball of an upper bound (bcdp.shuffle.bound_balls.upper_bound_ball); None at eps0 = inf."""
    from bcdp.shuffle.bound_balls import upper_bound_ball

    return upper_bound_ball(key, n, eps0, alpha)


def _outward(ball: Any) -> tuple[float, float]:
    from bcdp.core.intervals import outward_floats

    return outward_floats(ball)


def exact_plan(n: int, eps0: str, alphas: list[float], allow_slow: bool) -> str:
    """How `rdp shuffle --exact` computes the curve: "certified" (arb enclosure of every pair, within
    :data:`CERTIFIED_COST_LIMIT` or with --allow-slow), "float" (the float64 search, inside its
    measured range), or an InvalidInputError naming the valid ranges and the ways out."""
    from bcdp.shuffle.rr_all_pairs import (
        FLOAT_SEARCH_RANGE,
        certified_cost,
        float_search_trusted,
    )

    cost = certified_cost(n, len(alphas))
    if cost <= CERTIFIED_COST_LIMIT:
        return "certified"
    if allow_slow:
        check_allow_slow_cost(n, cost)
    bad = [a for a in alphas if not float_search_trusted(n, eps0, a)]
    if not bad:
        if n > EXACT_N_LIMIT and not allow_slow:
            raise InvalidInputError(f"the exact supremum over all neighbouring pairs searches every configuration of "
                                    f"the other n - 1 users (about 10 minutes per order at n = 1e6); n = {n} > "
                                    f"{EXACT_N_LIMIT}: pass --allow-slow to run it anyway, or use --bound NAME")
        return "float"
    if allow_slow and cost <= ALLOW_SLOW_COST_LIMIT:
        return "certified"
    r = FLOAT_SEARCH_RANGE
    raise InvalidInputError(
        f"exact curve at eps0 = {eps0}, alpha = {bad[0]:g}: the float64 search is valid only for eps0 = 0 or "
        f"{float(r['eps0_min']):g} <= eps0 <= {float(r['eps0_max']):g} and alpha <= {float(r['alpha_max']):g} "
        f"(measured), and the certified enclosure is {cost:.3g} terms > {CERTIFIED_COST_LIMIT:.3g} (20 s or more; "
        f"n = {n}, {len(alphas)} orders): use --bound NAME, fewer orders or a smaller n"
        + ("" if allow_slow else ", or --allow-slow"))


def exact_curve(n: int, eps0: str, alphas: list[float], allow_slow: bool = False) -> dict[str, Any]:
    """The "source", "certified" and "curve" fields of `bcdp rdp shuffle --exact` (see :func:`exact_plan`)."""
    what = "sup over all neighbouring pairs and both directions, shuffled binary RR"
    if exact_plan(n, eps0, alphas, allow_slow) == "certified":
        from bcdp.shuffle.rr_all_pairs import rr_worst_pair_rdp_ball

        curve = []
        for a in alphas:
            # the order the user typed, read exactly (repr of the parsed float), not the hull of the
            # float and its decimal
            ball, pair, unique = rr_worst_pair_rdp_ball(n, eps0, repr(float(a)), with_pair=True)
            lo, hi = _outward(ball)
            curve.append({"alpha": a, "epsilon": _num(hi), "enclosure": [_num(lo), _num(hi)],
                          "pair": {"ones_among_others": int(pair[0]), "direction": pair[1]},
                          "pair_is_unique_maximiser": bool(unique)})
        return {"source": f"exact, certified: {what}; arb enclosure of every pair, epsilon = its upper end "
                          f"rounded up", "certified": True, "curve": curve}
    from bcdp.shuffle.rr_all_pairs import (
        FLOAT_SEARCH_RANGE,
        FLOAT_SEARCH_REL_ERR,
        rr_worst_pair_rdp,
    )

    n_max = FLOAT_SEARCH_RANGE["n_max_measured"]
    measured = f"n <= {n_max}" if n <= n_max else f"n <= {n_max} only (n = {n} is beyond)"
    curve = []
    for a in alphas:
        eps, pair = rr_worst_pair_rdp(n, to_float_input(eps0, "eps0"), a)
        curve.append({"alpha": a, "epsilon": _num(eps),
                      "pair": {"ones_among_others": int(pair[0]), "direction": pair[1]}})
    return {"source": f"exact, float64 search (no enclosure): {what}; relative error <= {FLOAT_SEARCH_REL_ERR:g} "
                      f"measured against arb and mpmath for {measured}; the pair is the search's argmax (pairs "
                      f"within that error are not told apart)",
            "certified": False, "measured_relative_error": FLOAT_SEARCH_REL_ERR, "curve": curve}


def shuffle_curve(n: int, eps0: str, alphas: list[float], bound: str | None,
                  allow_slow: bool = False) -> dict[str, Any]:
    """The JSON object of `bcdp rdp shuffle`."""
    out: dict[str, Any] = {"n": n, "eps0": _num(to_float_input(eps0, "eps0", allow_inf=True)),
                           "input": {"eps0": eps0}, "curve": []}
    if bound is None:
        out.update(exact_curve(n, eps0, alphas, allow_slow))
        return out
    key = resolve_bound(bound)
    from bcdp.shuffle.bound_balls import UPPER_BOUNDS
    from bcdp.shuffle.bounds import BOUNDS

    cap = MAX_ORDER.get(key)
    if cap is not None and max(alphas) > cap:
        raise InvalidInputError(f"{key} at alpha = {max(alphas):g} is too slow to evaluate here; orders up to "
                                f"{cap} are accepted (the bound's cost grows with alpha)")
    spec = BOUNDS[key]
    certified = key in UPPER_BOUNDS
    how = ("certified: arb enclosure, epsilon = its upper end rounded up" if certified
           else "60-digit mpmath value rounded to nearest, not certified")
    out["source"] = f"{spec.source}, {spec.equation} ({how})"
    out["bound"] = key
    out["validity"] = spec.validity
    out["certified"] = certified
    for a in alphas:
        out["curve"].append({"alpha": a, **bound_point(key, n, eps0, a)})
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


def read_orders(text: str) -> list[float]:
    """--orders: comma-separated orders > 1 (each used as its nearest float, as ``--alpha``:
    :func:`parse_alphas`), or ``dp-accounting`` for dp_accounting's default orders (fractional ones
    included: 1.1, 1.2, ..., 10.9, 11..63, 128, 256, 512, 1024).  A bound defined at integer orders
    only (Cor 5.3.1, (5.5)) refuses fractional ones with its own message."""
    if str(text).strip().lower() == "dp-accounting":
        from dp_accounting.rdp.rdp_privacy_accountant import DEFAULT_RDP_ORDERS

        return [float(a) for a in DEFAULT_RDP_ORDERS]
    parts = [p.strip() for p in str(text).split(",")]
    if not all(parts) or len(parts) > MAX_ORDERS:
        raise InvalidInputError(f"--orders must list 1 to {MAX_ORDERS} orders > 1, got {text!r}")
    return sorted(set(parse_alphas(text)))


def to_dp(n: int, eps0: str, delta: str, rounds: int, bound: str | None, method: str,
          orders: list[float], subsampling: dict[str, Any] | None = None) -> dict[str, Any]:
    """Compose the curve over T rounds and convert it to (eps, delta), certified
    (:func:`bcdp.shuffle.calibration.shuffled_dp_epsilon`); ``subsampling`` its sample_size /
    poisson_rate keywords."""
    from bcdp.shuffle.calibration import shuffled_dp_epsilon

    sub = subsampling or {}
    key = None
    if bound is not None:
        key = _upper_bound_key(bound, orders, any(v is not None for v in sub.values()))
    res, source = shuffled_dp_epsilon(n, eps0, delta, rounds, key, method, orders, **sub)
    out = {"n": n, "eps0": _num(to_float_input(eps0, "eps0", allow_inf=True)),
           "delta": float(to_fraction(delta, "delta")), "input": {"eps0": eps0, "delta": delta.strip()},
           "rounds": rounds, "method": method, "conversion": res.details["method"],
           "source": source, "epsilon": _num(res.epsilon_certified_upper), "alpha_star": _num(res.alpha_star),
           "conversion_source": res.source, "notes": list(res.notes)}
    for name, value in sub.items():
        if value is not None:
            out[name] = value
    if method == "best":
        out["candidates"] = {m: None if v is None else _num(v) for m, v in res.details["candidates"].items()}
        out["candidates_float"] = {m: None if v is None else _num(v)
                                   for m, v in res.details["candidates_float"].items()}
    return out


def _upper_bound_key(bound: str, orders: list[float], subsampled: bool = False) -> str:
    """The key of an upper bound usable for a guarantee on these orders (lower bounds refused)."""
    key = resolve_bound(bound, subsampled)
    if key in ("thm533_lower", "cor532_lower"):
        raise InvalidInputError("a lower bound cannot be converted to an (eps, delta) guarantee")
    cap = MAX_ORDER.get(key)
    if cap is not None and max(orders) > cap:
        raise InvalidInputError(f"{key} at alpha = {max(orders)} is too slow to evaluate here; orders up to "
                                f"{cap} are accepted (the bound's cost grows with alpha)")
    return key


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
                   help=f"allow the slow exact paths: the float64 search for n > {EXACT_N_LIMIT} (minutes per "
                        f"order), the certified enclosure beyond about 20 s of work (n^2/2 terms per order)")
    r.add_argument("--json", action="store_true")
    r = rsub.add_parser("to-dp", help="compose over T rounds and convert to (eps, delta), certified")
    r.add_argument("--n", required=True)
    r.add_argument("--eps0", required=True)
    r.add_argument("--delta", required=True)
    r.add_argument("--rounds", default="1")
    r.add_argument("--orders", help="comma-separated orders > 1 (default 2..64), or dp-accounting (its default orders)")
    r.add_argument("--method", default="cks", choices=["cks", "mironov", "asoodeh", "best"],
                   help="RDP -> (eps, delta) conversion (default cks, thesis eq. (5.41)); best: the smallest "
                        "certified value of cks, asoodeh, mironov and the total-variation rule, naming the winner")
    r.add_argument("--allow-slow", action="store_true",
                   help="allow the certified exact curve beyond about 20 s of work (n^2/2 terms per order)")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--bound")
    g.add_argument("--exact", action="store_true")
    add_subsampling_arguments(r)
    r.add_argument("--json", action="store_true")
    add_calibrate_parser(rsub)


def add_subsampling_arguments(r: Any) -> None:
    s = r.add_mutually_exclusive_group()
    s.add_argument("--sample-size", help="each round samples K of the n users without replacement (with --bound "
                                         "thm5.4.1: thesis Thm 5.4.1)")
    s.add_argument("--poisson-rate", help="each round samples every user independently with probability G (with "
                                          "--bound thm5.4.1: the mixture of Thm 5.4.1 over the sample size)")


def read_subsampling(args: argparse.Namespace, n: int | None) -> dict[str, Any]:
    """The sample_size / poisson_rate keywords of bcdp.shuffle.calibration from --sample-size /
    --poisson-rate (a count <= n; a rate in (0, 1], decided on its exact value)."""
    size = rate = None
    if args.sample_size is not None:
        size = read_count(args.sample_size, "--sample-size")
        if n is not None and size > n:
            raise InvalidInputError(f"--sample-size {size} exceeds the number of users n = {n}")
    if args.poisson_rate is not None:
        rate = str(args.poisson_rate).strip()
        q = to_fraction(rate, "--poisson-rate")
        if not 0 < q <= 1:
            raise InvalidInputError(f"--poisson-rate must lie in (0, 1], got {args.poisson_rate!r}")
    return {"sample_size": size, "poisson_rate": rate}


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
    if args.rdp_command == "calibrate":
        return run_calibrate(args)
    return run_shuffle(args) if args.rdp_command == "shuffle" else run_to_dp(args)


def run_shuffle(args: argparse.Namespace) -> int:
    args.n = read_count(args.n, "n")
    eps0 = read_eps0(args.eps0)
    alphas = parse_alphas(args.alpha)
    exact = args.exact or not args.bound
    if exact and eps0_is_infinite(eps0):
        raise InvalidInputError("the exact path needs a finite eps0 (every bound gives inf at eps0 = inf)")
    out = shuffle_curve(args.n, eps0, alphas, None if exact else args.bound, allow_slow=args.allow_slow)
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        print(f"n = {out['n']}, eps0 = {out['eps0']}: {out['source']}")
        for p in out["curve"]:
            rel = "<=" if p.get("enclosure") else "="
            extra = f"  enclosure {p['enclosure']}" if p.get("enclosure") else ""
            extra += f"  pair {p['pair']}" if "pair" in p else ""
            print(f"  alpha = {p['alpha']:<8g} epsilon {rel} {p['epsilon']}{extra}")
    return EXIT_OK


def run_to_dp(args: argparse.Namespace) -> int:
    args.n = read_count(args.n, "n")
    args.rounds = read_count(args.rounds, "rounds")
    eps0 = read_eps0(args.eps0)
    orders = read_orders(args.orders) if args.orders is not None else list(range(2, 65))
    exact = args.exact or not args.bound
    sub = read_subsampling(args, args.n)
    if exact and eps0_is_infinite(eps0):
        raise InvalidInputError("eps0 = inf: no finite RDP value to convert")
    if exact and any(v is not None for v in sub.values()):
        raise InvalidInputError("the exact curve has no subsampling: with --sample-size or --poisson-rate pass "
                                "--bound thm5.4.1")
    if exact:
        from bcdp.shuffle.rr_all_pairs import certified_cost

        cost = certified_cost(args.n, len(orders))
        if args.allow_slow and cost > ALLOW_SLOW_COST_LIMIT:
            raise InvalidInputError(f"the certified exact curve at n = {args.n} with {len(orders)} orders is "
                                    f"{cost:.3g} ball terms > {ALLOW_SLOW_COST_LIMIT:.0e} (hours), beyond what "
                                    f"--allow-slow allows: pass fewer --orders or use --bound NAME")
        if cost > CERTIFIED_COST_LIMIT and not args.allow_slow:
            raise InvalidInputError(f"the certified exact curve evaluates every neighbouring pair in ball arithmetic, "
                                    f"about n^2/2 terms per order: n = {args.n} with {len(orders)} orders is "
                                    f"{cost:.3g} terms > {CERTIFIED_COST_LIMIT:.3g} (about 20 s); pass fewer "
                                    f"--orders, use --bound NAME, or pass --allow-slow")
    out = to_dp(args.n, eps0, str(args.delta), args.rounds, None if exact else args.bound, args.method, orders,
                sub)
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        print(f"n = {out['n']}, eps0 = {out['input']['eps0']}, T = {out['rounds']}, delta = {out['input']['delta']}: "
              f"epsilon <= {out['epsilon']!r} (alpha* = {out['alpha_star']}, {out['conversion']})")
        for note in out["notes"]:
            print(f"  note: {note}")
    return EXIT_OK


# -- bcdp rdp calibrate: the largest eps0 (given n) or the smallest n (given eps0) meeting a target
# (eps, delta) after T rounds (bcdp.shuffle.calibration); consistent with `bcdp rdp to-dp`: its certified
# epsilon at the answer is the one printed, and the value one step beyond is printed with its epsilon

def add_calibrate_parser(rsub: Any) -> None:
    r = rsub.add_parser("calibrate", help="largest eps0 or smallest n meeting a target (eps, delta) after T rounds")
    r.add_argument("--target-eps", required=True)
    r.add_argument("--delta", required=True)
    r.add_argument("--rounds", default="1")
    which = r.add_mutually_exclusive_group(required=True)
    which.add_argument("--n", help="number of users: calibrate eps0")
    which.add_argument("--eps0", help="local epsilon: calibrate n (with --bound)")
    r.add_argument("--orders", help="comma-separated orders > 1 (default 2..64), or dp-accounting (its default orders)")
    r.add_argument("--method", default="cks", choices=["cks", "mironov", "asoodeh", "best"])
    r.add_argument("--rel", default="0.001", help="relative step of the answer (default 0.001)")
    g = r.add_mutually_exclusive_group(required=True)
    g.add_argument("--bound")
    g.add_argument("--exact", action="store_true", help="exact curve of shuffled binary RR (calibrating eps0)")
    add_subsampling_arguments(r)
    r.add_argument("--json", action="store_true")


def run_calibrate(args: argparse.Namespace) -> int:
    from bcdp.shuffle.calibration import calibrate_eps0, calibrate_n

    rounds = read_count(args.rounds, "rounds")
    orders = read_orders(args.orders) if args.orders is not None else list(range(2, 65))
    rel = to_float_input(args.rel, "--rel")
    n_given = read_count(args.n, "n") if args.n is not None else None
    sub = read_subsampling(args, n_given)
    subsampled = any(v is not None for v in sub.values())
    if args.exact and subsampled:
        raise InvalidInputError("the exact curve has no subsampling: with --sample-size or --poisson-rate pass "
                                "--bound thm5.4.1")
    key = None if args.exact else _upper_bound_key(args.bound, orders, subsampled)
    common = {"rounds": rounds, "bound": key, "method": args.method, "orders": orders, "rel": rel, **sub}
    if args.n is not None:
        n = n_given
        if key is None:
            from bcdp.shuffle.rr_all_pairs import certified_cost

            if certified_cost(n, len(orders)) > CERTIFIED_COST_LIMIT:
                raise InvalidInputError(f"the certified exact curve at n = {n} is too costly to evaluate at every "
                                        f"step of a calibration: use --bound NAME or fewer --orders")
        out: dict[str, Any] = {"calibrated": "eps0", "n": n,
                               **calibrate_eps0(args.target_eps, str(args.delta), n, **common)}
    else:
        if key is None:
            raise InvalidInputError("calibrating n needs --bound NAME (the exact curve costs n^2 per order)")
        eps0 = read_eps0(args.eps0)
        if eps0_is_infinite(eps0):
            raise InvalidInputError("eps0 = inf: no n meets a finite target")
        out = {"calibrated": "n", "eps0": eps0, **calibrate_n(args.target_eps, str(args.delta), eps0, **common)}
    out.update({"delta": str(args.delta), "rounds": rounds, "bound": key or "exact", "method": args.method})
    out.update({k: v for k, v in sub.items() if v is not None})
    if args.json:
        print(json.dumps(out, indent=2, allow_nan=False))
    else:
        name = out["calibrated"]
        beyond = out.get("beyond")
        tail = "" if not beyond else f"; {name} = {beyond[name]!r} gives {beyond['epsilon']!r}"
        print(f"{name} = {out[name]!r}: epsilon <= {out['epsilon']!r} <= target {out['target_eps']!r} at delta = "
              f"{out['delta']} after T = {rounds} round(s){tail}")
    return EXIT_OK
