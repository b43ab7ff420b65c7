"""(eps, delta)-DP of T rounds of n shuffled eps0-LDP reports, certified, and its calibration.

:func:`shuffled_dp_epsilon` builds the certified RDP curve of one round on integer orders, from a
closed-form upper bound of thesis Ch. 5 (arb enclosures, :mod:`bcdp.shuffle.bound_balls`) or from the
exact supremum over every neighbouring pair of shuffled binary randomized response
(:func:`bcdp.shuffle.rr_all_pairs.rr_worst_pair_rdp_ball`), composes it over T rounds (Mironov 2017,
Prop. 1; thesis Lemma 2.1.4) and converts it to (eps, delta) (:mod:`bcdp.accounting.conversion`, or
the tightest conversion, :mod:`bcdp.accounting.tightest`).  This is ``bcdp rdp to-dp``.

Calibration inverts it for a target (eps, delta) after T rounds:

* :func:`calibrate_eps0` -- the largest local epsilon eps0 (n fixed) whose certified eps is at most
  the target, to a relative step of ``rel`` (default 0.1%): the returned eps0 meets the target (its
  certified eps is reported), and eps0 (1 + rel) does not (its certified eps is reported too);
* :func:`calibrate_n` -- the smallest number of users n (eps0 fixed) that meets the target: n meets it
  and floor(n (1 - rel)) does not (or n is the first integer tried, when n = 1 or the step rounds to n).

Both are bisections on the certified value, which is increasing in eps0 and decreasing in n for every
bound of the thesis; the final pair is evaluated explicitly, so a non-monotone stretch cannot make
the reported value fail the target (the search then continues from the point that met it).
With subsampling (``sample_size`` k of n per round, or ``poisson_rate`` gamma): the certified curve
is thesis Thm 5.4.1, or its mixture over the Poisson sample size (:mod:`bcdp.shuffle.subsampled_balls`).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Sequence

from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import to_float_input, to_fraction
from bcdp.core.results import Certified

#: default integer orders of the curve (those of ``bcdp rdp to-dp``)
DEFAULT_ORDERS = tuple(range(2, 65))
#: at most this many certified evaluations per calibration
MAX_STEPS = 200


def shuffled_dp_epsilon(n: int, eps0: str, delta: str, rounds: int = 1, bound: str | None = "thm531_upper",
                        method: str = "cks", orders: Sequence[float] = DEFAULT_ORDERS, *,
                        sample_size: int | None = None, poisson_rate: str | None = None) -> tuple[Certified, str]:
    """Certified eps of T = ``rounds`` rounds (module docstring) and the curve's source text.  ``bound``
    is a key of :data:`bcdp.shuffle.bound_balls.UPPER_BOUNDS`, or None for the exact curve; ``orders``
    are floats > 1 (ints included), each evaluated at its exact binary value; ``method``
    a conversion of :mod:`bcdp.accounting.conversion` or ``"best"`` (the tightest); eps0 and delta exact
    decimal strings (floats refused upstream).

    Subsampling (each round samples from the n users, replacement neighbours): ``sample_size`` k -- k
    of n without replacement, thesis Thm 5.4.1; ``poisson_rate`` gamma -- Poisson subsampling, the
    mixture of Thm 5.4.1 over the sample size (:mod:`bcdp.shuffle.subsampled_balls`).  Then ``bound``
    must be ``"thm541_upper"`` and the orders integers; the curve carries the float twins' values
    for the search and is certified (arb) only at the orders the conversion uses."""
    from bcdp.accounting.conversion import rdp_curve_from_arrays, rdp_to_dp

    if sample_size is not None or poisson_rate is not None or bound == "thm541_upper":
        curve, source = _subsampled_curve(n, eps0, bound, orders, sample_size, poisson_rate)
        curve = curve.compose(rounds) if rounds > 1 else curve
        if method == "best":
            from bcdp.accounting.tightest import tightest_rdp_to_dp

            return tightest_rdp_to_dp(curve, delta), source
        return rdp_to_dp(curve, delta, method), source
    if bound is None:
        from bcdp.shuffle.rr_all_pairs import rr_worst_pair_rdp_ball

        source = "exact: sup over all neighbouring pairs and both directions, shuffled binary RR"
        cert = [rr_worst_pair_rdp_ball(n, eps0, Fraction(a)) for a in orders]   # at the exact order
        pts = [(float(a), float(c.mid())) for a, c in zip(orders, cert)]
    else:
        from bcdp.shuffle.bound_balls import upper_bound_ball
        from bcdp.shuffle.bounds import BOUNDS

        spec = BOUNDS[bound]
        source = f"{spec.source}, {spec.equation} (certified: arb enclosure)"
        balls = [(a, upper_bound_ball(bound, n, eps0, Fraction(a))) for a in orders]
        finite = [(a, b) for a, b in balls if b is not None and math.isfinite(float(b.mid()))]
        if not finite:
            raise InvalidInputError("no finite RDP value on the chosen orders")
        pts = [(float(a), float(b.mid())) for a, b in finite]
        cert = [b for _, b in finite]
    curve = rdp_curve_from_arrays([a for a, _ in pts], [v for _, v in pts], certified_values=cert)
    curve = curve.compose(rounds) if rounds > 1 else curve
    if method == "best":
        from bcdp.accounting.tightest import tightest_rdp_to_dp

        return tightest_rdp_to_dp(curve, delta, orders=[a for a, _ in pts]), source
    return rdp_to_dp(curve, delta, method, orders=[a for a, _ in pts]), source


def _subsampled_curve(n: int, eps0: str, bound: str | None, orders: Sequence[float], sample_size: int | None,
                      poisson_rate: str | None) -> tuple[Any, str]:
    """The RDP curve of one subsampled round (see :func:`shuffled_dp_epsilon`) and its source text."""
    import numpy as np

    from bcdp.accounting.curves import RdpCurve
    from bcdp.shuffle.subsampled_balls import check_subsampling

    if bound != "thm541_upper":
        raise InvalidInputError("with subsampling the certified curve is thesis Thm 5.4.1: pass the bound "
                                "thm541_upper (thm5.4.1)")
    if sample_size is None and poisson_rate is None:
        raise InvalidInputError("Thm 5.4.1 is the subsampled bound: give a sample size (fixed-size subsampling) "
                                "or a Poisson rate")
    check_subsampling(sample_size, poisson_rate, n)
    bad = [a for a in orders if not float(a).is_integer()]
    if bad:
        raise InvalidInputError(f"Thm 5.4.1 is stated at integer orders; {bad[0]!r} is not one")
    ints = sorted({int(a) for a in orders})
    e = to_float_input(eps0, "eps0")
    if sample_size is not None:
        from bcdp.shuffle.float_bounds import thm541_upper_float
        from bcdp.shuffle.subsampled_balls import thm541_ball

        values = thm541_upper_float(n, sample_size, e, ints)

        def ball(a: int) -> Any:
            return thm541_ball(n, sample_size, eps0, a)
        label = f"Thm 5.4.1, k = {sample_size} of n = {n}, eps0 = {eps0}"
        source = ("thesis Thm 5.4.1 (subsampling k of n without replacement, replacement neighbours; "
                  "certified: arb enclosure at the orders used)")
    else:
        from bcdp.accounting.inputs import float_rate
        from bcdp.shuffle.subsampled import thm541_poisson_float
        from bcdp.shuffle.subsampled_balls import POISSON_WINDOW_MAX, poisson_thm541_ball, poisson_window

        g = float_rate(poisson_rate)
        lo, hi = poisson_window(n, g, max(ints), e) if math.isfinite(e) else (0, 0)
        if hi - lo + 1 > POISSON_WINDOW_MAX:
            raise InvalidInputError(f"the Poisson mixture sums Thm 5.4.1 over {hi - lo + 1} sample sizes at n = {n}, "
                                    f"gamma = {poisson_rate} (more than {POISSON_WINDOW_MAX}): use fixed-size "
                                    f"subsampling (a sample size) or fewer users")
        values = thm541_poisson_float(n, g, e, ints)

        def ball(a: int) -> Any:
            return poisson_thm541_ball(n, poisson_rate, eps0, a)
        label = f"Poisson(gamma = {poisson_rate}) Thm 5.4.1 mixture, n = {n}, eps0 = {eps0}"
        source = ("Poisson subsampling: mixture of thesis Thm 5.4.1 over the sample size, each moment capped at "
                  "e^((alpha-1) eps0) (bcdp.shuffle.subsampled, identity (*); certified: arb enclosure at the "
                  "orders used)")
    cached = functools.cache(ball)

    def certified(a: Any) -> Any:
        out = cached(int(a))
        if out is None:                             # eps0 = inf
            import flint

            return flint.arb(0, flint.arb.pos_inf())
        return out
    order_values = tuple(float(v) if np.isfinite(v) else math.inf for v in values)
    table = dict(zip([float(a) for a in ints], order_values))
    curve = RdpCurve(value=lambda a: table[a], certified=certified, label=label, source=source,
                     orders=tuple(table), order_values=order_values)
    return curve, source


def _target(target_eps: Any) -> float:
    t = to_float_input(target_eps, "target eps")
    if not (math.isfinite(t) and t > 0):
        raise InvalidInputError(f"the target eps must be a finite number > 0, got {target_eps!r}")
    return t


def _rel(rel: float) -> float:
    if not (isinstance(rel, float) and 1e-9 <= rel <= 0.5):
        raise InvalidInputError(f"rel must be a float in [1e-9, 0.5], got {rel!r}")
    return rel


def calibrate_eps0(target_eps: Any, delta: str, n: int, rounds: int = 1, bound: str | None = "thm531_upper",
                   method: str = "cks", orders: Sequence[int] = DEFAULT_ORDERS, rel: float = 1e-3,
                   eps0_max: float = 10.0, *, sample_size: int | None = None,
                   poisson_rate: str | None = None) -> dict[str, Any]:
    """The largest eps0 in (0, eps0_max] (to a factor 1 + rel) with certified eps <= target_eps;
    ``sample_size`` / ``poisson_rate`` as in :func:`shuffled_dp_epsilon`."""
    target, rel = _target(target_eps), _rel(rel)
    sub = {"sample_size": sample_size, "poisson_rate": poisson_rate}

    @functools.cache                        # the bracket ends and the final pair are asked for again
    def eps_of(e0: float) -> float:
        return shuffled_dp_epsilon(n, repr(e0), delta, rounds, bound, method, orders, **sub)[0].upper

    hi = float(eps0_max)
    if eps_of(hi) <= target:
        return _eps0_result(hi, eps_of(hi), None, None, target, rel, capped=True)
    lo = hi
    for _ in range(MAX_STEPS):
        lo /= 4
        if lo < 1e-6:
            raise InvalidInputError(f"no eps0 >= 1e-6 meets eps <= {target} at delta = {delta} after "
                                    f"{rounds} round(s) with n = {n}")
        if eps_of(lo) <= target:
            break
        hi = lo
    steps = 0
    while True:
        steps += 1
        while hi > lo * (1 + rel):
            steps += 1
            if steps > MAX_STEPS:
                raise InvalidInputError("calibration did not converge")
            mid = math.sqrt(lo * hi)
            lo, hi = (mid, hi) if eps_of(mid) <= target else (lo, mid)
        beyond = lo * (1 + rel)
        at_lo, at_beyond = eps_of(lo), eps_of(beyond)
        if at_beyond > target:
            return _eps0_result(lo, at_lo, beyond, at_beyond, target, rel, capped=False)
        if steps > MAX_STEPS or beyond >= eps0_max:
            raise InvalidInputError("calibration did not converge (the certified eps is not monotone in eps0 here)")
        lo, hi = beyond, max(hi, beyond * (1 + rel))   # a non-monotone stretch: continue from there


def _eps0_result(e0: float, eps: float, beyond: float | None, eps_beyond: float | None, target: float,
                 rel: float, capped: bool) -> dict[str, Any]:
    return {"eps0": e0, "epsilon": eps, "target_eps": target, "rel": rel,
            "beyond": None if beyond is None else {"eps0": beyond, "epsilon": eps_beyond},
            "capped": capped}


def calibrate_n(target_eps: Any, delta: str, eps0: str, rounds: int = 1, bound: str | None = "thm531_upper",
                method: str = "cks", orders: Sequence[int] = DEFAULT_ORDERS, rel: float = 1e-3,
                n_max: int = 10 ** 12, *, sample_size: int | None = None,
                poisson_rate: str | None = None) -> dict[str, Any]:
    """The smallest n in [1, n_max] (to a factor 1 - rel) with certified eps <= target_eps; with a
    fixed ``sample_size`` k the smallest population n >= k (k of n sampled per round), with a
    ``poisson_rate`` the smallest n at that rate (:func:`shuffled_dp_epsilon`)."""
    target, rel = _target(target_eps), _rel(rel)
    to_fraction(eps0, "eps0")
    sub = {"sample_size": sample_size, "poisson_rate": poisson_rate}
    n_min = 1 if sample_size is None else sample_size
    if sample_size is not None or poisson_rate is not None:
        shuffled_dp_epsilon(max(n_min, 2), eps0, delta, rounds, bound, method, orders, **sub)   # bad input: now

    @functools.cache                        # the bracket ends and the final pair are asked for again
    def eps_of(n: int) -> float:
        if n < n_min:
            return math.inf                   # fewer users than the sample size
        try:
            return shuffled_dp_epsilon(n, eps0, delta, rounds, bound, method, orders, **sub)[0].upper
        except InvalidInputError:
            return math.inf                   # e.g. a bound whose condition fails for this n

    hi = n_min
    while eps_of(hi) > target:
        hi *= 4
        if hi > n_max:
            raise InvalidInputError(f"no n <= {n_max} meets eps <= {target} at delta = {delta} after "
                                    f"{rounds} round(s) with eps0 = {eps0}")
    lo = hi // 4                            # fails (or 0: nothing below 1)
    steps = 0
    while True:
        steps += 1
        while hi - lo > max(1, int(hi * rel)):
            steps += 1
            if steps > MAX_STEPS:
                raise InvalidInputError("calibration did not converge")
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if eps_of(mid) <= target else (mid, hi)
        below = max(1, math.floor(hi * (1 - rel)))
        if below == hi:
            below = hi - 1
        at_hi = eps_of(hi)
        at_below = eps_of(below) if below >= 1 else math.inf
        if at_below > target:
            return {"n": hi, "epsilon": at_hi, "target_eps": target, "rel": rel,
                    "beyond": None if below < 1 else {"n": below, "epsilon": at_below}}
        if steps > MAX_STEPS:
            raise InvalidInputError("calibration did not converge (the certified eps is not monotone in n here)")
        hi, lo = below, min(lo, below // 2)    # a non-monotone stretch: continue below


__all__ = ["DEFAULT_ORDERS", "calibrate_eps0", "calibrate_n", "shuffled_dp_epsilon"]
