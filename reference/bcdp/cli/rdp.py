"""`bcdp rdp shuffle` and `bcdp rdp to-dp`: the RDP of n shuffled eps0-LDP reports (thesis Ch. 5).

Curve sources (``--exact`` or ``--bound NAME``):
* ``exact`` - the exact RDP of shuffled binary randomized response: the supremum over all
  neighbouring pairs and both directions (bcdp.shuffle.exact.rr_worst_pair_rdp), with the
  attaining pair (j = number of ones among the other n - 1 users, direction);
* a bound of bcdp.shuffle.bounds, by its short name (aliases below) or registry name.
Integer-only bounds are extended to real alpha by the convexity interpolation (5.6) where the
thesis allows it (Thm 5.3.1); lower bounds at non-integer alpha are reported as null.
"""

from __future__ import annotations

import math
from typing import Any

ALIASES = {
    "thm5.3.1": "thm531_upper", "cor5.3.1": "cor531_upper", "thm5.3.2": "thm532_upper",
    "efm19": "efm19_upper", "lower5.3.3": "thm533_lower", "lower5.3.2": "cor532_lower",
    "cor5.3.2": "cor532_lower",
}
CURVE_BOUNDS = ("thm531_upper", "cor531_upper", "thm532_upper", "efm19_upper", "thm533_lower", "cor532_lower")


def resolve_bound(name: str) -> str:
    key = ALIASES.get(name, name)
    if key not in CURVE_BOUNDS:
        raise ValueError(f"unknown bound {name!r}; known: {', '.join(list(ALIASES) + list(CURVE_BOUNDS))}")
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
    raise ValueError(key)


def shuffle_curve(n: int, eps0: str, alphas: list[float], bound: str | None) -> dict[str, Any]:
    """The JSON object of `bcdp rdp shuffle`."""
    out: dict[str, Any] = {"n": n, "eps0": float(eps0), "curve": []}
    if bound is None:
        from bcdp.shuffle.exact import rr_worst_pair_rdp

        out["source"] = "exact: sup over all neighbouring pairs and both directions, shuffled binary RR"
        for a in alphas:
            eps, pair = rr_worst_pair_rdp(n, float(eps0), a)
            out["curve"].append({"alpha": a, "epsilon": _num(eps),
                                 "pair": {"ones_among_others": int(pair[0]), "direction": pair[1]}})
        return out
    key = resolve_bound(bound)
    from bcdp.shuffle.bounds import BOUNDS

    spec = BOUNDS[key]
    out["source"] = f"{spec.source}, {spec.equation}"
    out["bound"] = key
    out["validity"] = spec.validity
    for a in alphas:
        value = bound_value(key, n, eps0, a)
        out["curve"].append({"alpha": a, "epsilon": None if value is None else _num(value)})
    return out


def _num(x: float) -> float | str:
    return "inf" if math.isinf(x) else float(x)


def to_dp(n: int, eps0: str, delta: str, rounds: int, bound: str | None, method: str,
          orders: list[int]) -> dict[str, Any]:
    """Compose the curve over T rounds and convert it to (eps, delta), certified."""
    import mpmath

    from bcdp.accounting.conversion import rdp_curve_from_arrays, rdp_to_dp

    curve = shuffle_curve(n, eps0, [float(a) for a in orders], bound)
    if bound is not None and resolve_bound(bound) in ("thm533_lower", "cor532_lower"):
        raise ValueError("a lower bound cannot be converted to an (eps, delta) guarantee")
    pts = [(p["alpha"], p["epsilon"]) for p in curve["curve"] if p["epsilon"] not in (None, "inf")]
    if not pts:
        raise ValueError("no finite RDP value on the chosen orders")
    # the 50-digit values are enclosed with a relative margin of 1e-12 (they are float roundings of
    # mpmath values accurate to >= 1e-40; the margin covers the float rounding)
    cert = [mpmath.iv.mpf([v * (1 - 1e-12), v * (1 + 1e-12)]) for _, v in pts]
    rdp = rdp_curve_from_arrays([a for a, _ in pts], [v for _, v in pts], certified_values=cert)
    res = rdp_to_dp(rdp.compose(rounds) if rounds > 1 else rdp, delta, method, orders=[a for a, _ in pts])
    return {"n": n, "eps0": float(eps0), "delta": float(delta), "rounds": rounds, "method": method,
            "source": curve["source"], "epsilon": res.epsilon_certified_upper, "alpha_star": res.alpha_star,
            "conversion_source": res.source}
