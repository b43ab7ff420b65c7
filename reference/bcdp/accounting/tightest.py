"""The tightest certified RDP -> (eps, delta) conversion: the smallest of every valid one.

Each conversion below is valid at every order alpha > 1 on its own, so the smallest of their
certified values, each at its own best order, is a valid (eps, delta) guarantee; the result names
the conversion that won and keeps every candidate's certified value.

* ``"cks"``, ``"asoodeh"``, ``"mironov"``: :mod:`bcdp.accounting.conversion` (search over alpha,
  then arb certification at alpha_star).
* ``"tv"``, the total-variation rule (the rule of dp_accounting's RDP accountant, ``compute_epsilon``:
  eps = 0 when delta^2 + expm1(-r) > 0).  For every neighbouring pair (P, Q) and every alpha > 1,
  KL(P || Q) <= D_alpha(P || Q) <= r(alpha) (the Renyi divergence is nondecreasing in its order: van
  Erven & Harremoes 2014, "Renyi divergence and Kullback-Leibler divergence", IEEE Trans. Inf. Theory
  60(7), Thm. 3), and TV(P, Q) <= sqrt(1 - exp(-KL(P || Q))) (Bretagnolle & Huber 1979; Tsybakov 2009,
  Lemma 2.6).  Since sup_S P(S) - Q(S) = TV(P, Q), delta >= sqrt(1 - exp(-r(alpha))) at a single order
  gives (0, delta)-DP.  The rule needs no monotonicity of the curve (an upper-bound curve may not be
  monotone): it is tried at every order of an array curve and on a grid of real orders (the smallest
  float r wins; it is then certified, the next candidates tried while certification fails).
  Certified: decided in ball arithmetic, ``D^2 + expm1(-R) >= 0`` for the whole balls of delta and
  r(alpha); an undecided comparison (a tie within the working precision) does not apply the rule.

Used by ``bcdp rdp to-dp --method best``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bcdp.accounting.conversion import SOURCES, _check_prec, certify_at
from bcdp.accounting.search import boundary_notes, search_alpha
from bcdp.accounting.curves import RdpCurve
from bcdp.accounting.inputs import CERT_PREC, check_alpha, check_delta, enclose
from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import arb_precision, ball_of, ball_upper, float_up
from bcdp.core.results import Certified

#: the conversions tried, in the order that breaks ties between equal certified values
TIGHTEST_METHODS = ("tv", "cks", "asoodeh", "mironov")
TV_SOURCE = ("total-variation rule: KL <= D_alpha (van Erven & Harremoes 2014, Thm. 3) and "
             "Bretagnolle & Huber (1979) TV <= sqrt(1 - exp(-KL)); as in dp_accounting's RDP accountant")
#: real orders at which the total-variation rule is tried for a curve known at every order
TV_GRID = tuple(float(1.0 + u) for u in np.logspace(-8, 3, 45))
#: at most this many orders (smallest float r first) are certified for the rule
TV_CANDIDATES = 4


#: relative slack of the float pre-test, so that orders at a near-tie still reach the certified test
TV_FLOAT_SLACK = 1e-9


def tv_rule_float(rdp: Any, delta: float) -> Any:
    """Float pre-test of the total-variation rule, delta^2 + expm1(-r) >= 0 with a relative slack of
    :data:`TV_FLOAT_SLACK` (NOT a guarantee: it only selects the orders to certify).  ``rdp`` a float
    (returns a bool) or an array of them (returns a boolean array)."""
    out = delta * delta * (1 + TV_FLOAT_SLACK) + np.expm1(-np.asarray(rdp)) >= 0
    return bool(out) if out.ndim == 0 else out


def tv_rule_certified(curve: RdpCurve, alpha: float, delta: Any, prec: int = CERT_PREC) -> bool:
    """True only if delta^2 >= 1 - exp(-r(alpha)) holds for the whole balls of delta and r(alpha)
    (module docstring); False when it fails or cannot be decided at ``prec`` bits."""
    a = check_alpha(alpha)
    with arb_precision(_check_prec(prec)):
        R = curve.enclosure(a)
        if not R.is_finite():
            return False
        D = enclose(delta, "delta")
        return bool(D * D + (-R).expm1() >= ball_of(0))


def _tv_orders(curve: RdpCurve, orders: Any, alpha_max: float | None) -> tuple[np.ndarray, np.ndarray]:
    """(float r(alpha), alpha) arrays at the orders where to try the rule, the smallest r first (then
    the smaller order): the orders given, else the curve's own (array curves), else :data:`TV_GRID`;
    those above ``alpha_max`` left out, and those where the curve fails."""
    table = curve.sorted_orders_and_values() if isinstance(orders, str) else None
    if table is not None:                          # an array curve at its own orders: no per-order calls
        ca, rv = table
    else:
        if not isinstance(orders, str):
            cand = [check_alpha(a) for a in orders]
        elif curve.orders is not None:
            cand = list(curve.orders)
        elif orders == "integer":
            cand = [float(k) for k in range(2, 257)]
        else:
            cand = list(TV_GRID)
        values = []
        for a in cand:
            try:
                values.append((curve(a), a))
            except (InvalidInputError, OverflowError, ValueError, ZeroDivisionError, FloatingPointError):
                continue
        rv = np.array([r for r, _ in values])    # floats: the curve's values and checked orders
        ca = np.array([a for _, a in values])
    if alpha_max is not None:
        keep = ca <= float(alpha_max)
        ca, rv = ca[keep], rv[keep]
    k = np.lexsort((ca, rv))
    return rv[k], ca[k]


def tightest_rdp_to_dp(curve: RdpCurve, delta: Any, orders: Any = "real", alpha_max: float | None = None,
                       prec: int = CERT_PREC, certify_all: bool = False) -> Certified:
    """The smallest certified eps over the conversions of :data:`TIGHTEST_METHODS` (module docstring).

    ``orders`` and ``alpha_max`` as in :func:`bcdp.accounting.conversion.rdp_to_dp`; the rule "tv" is
    tried on the orders given, else the curve's own, else 2..256 for ``"integer"`` and
    :data:`TV_GRID` for ``"real"``, within ``alpha_max``.

    Each of CKS, Asoodeh and Mironov is first searched in float (its order and float eps); they are
    then certified (:func:`bcdp.accounting.conversion.certify_at`) in the order of their float eps,
    and the certification stops once the best certified value is <= the float eps of every
    conversion not yet certified (a certified rule "tv" gives 0 and stops it at once).  A conversion
    skipped that way cannot win by more than the float error of its search; ``certify_all=True``
    certifies every applicable one.  The result is the winner's
    :class:`~bcdp.core.results.Certified` with the details ``method`` (the winner), ``candidates``
    (each conversion's certified upper end; None where it does not apply or was not certified),
    ``candidates_float`` (each conversion's float eps at its searched order, 0.0 for a certified
    rule "tv", None where it does not apply) and ``certified_candidates`` (the conversions
    certified, in the order tried)."""
    if not isinstance(curve, RdpCurve):
        raise InvalidInputError(f"curve must be an RdpCurve, got {type(curve).__name__}")
    if not isinstance(certify_all, bool):
        raise InvalidInputError(f"certify_all must be True or False, got {certify_all!r}")
    d = check_delta(delta)
    prec = _check_prec(prec)
    results: dict[str, Certified | None] = dict.fromkeys(TIGHTEST_METHODS)
    floats: dict[str, float | None] = dict.fromkeys(TIGHTEST_METHODS)
    tv_orders = _tv_orders(curve, orders, alpha_max)
    tv_r, tv_a = tv_orders
    for a in tv_a[tv_rule_float(tv_r, d)][:TV_CANDIDATES].tolist():
        if tv_rule_certified(curve, a, delta, prec):
            with arb_precision(prec):
                rdp_up = float_up(ball_upper(curve.enclosure(a)))
            results["tv"] = Certified(lower=0.0, upper=0.0, details={   # (method, source: set below)
                "epsilon_certified_upper": 0.0, "enclosure": (0.0, 0.0), "assumption": curve.assumption, "alpha_at_search_boundary": False, "notes": (),
                "alpha_star": a, "delta": delta, "epsilon_float": 0.0, "rdp_at_alpha_star_upper": rdp_up,
                "rdp_certified": curve.is_certified, "curve": curve.label})
            floats["tv"] = 0.0
            break
    searched: dict[str, tuple[float, bool]] = {}
    for method in TIGHTEST_METHODS[1:]:
        try:
            a, v, at_b = search_alpha(curve, delta, method, orders, alpha_max)
        except InvalidInputError:
            if method == "cks":
                raise
            continue                               # e.g. asoodeh with no order alpha * delta < 1
        searched[method], floats[method] = (a, at_b), v
    certified_order = ["tv"] if results["tv"] is not None else []
    best_upper = 0.0 if results["tv"] is not None else math.inf
    for method in sorted(searched, key=lambda m: (floats[m], TIGHTEST_METHODS.index(m))):
        if not certify_all and floats[method] >= best_upper:
            break                                  # this one and every later one: float eps >= best
        a, at_b = searched[method]
        res = certify_at(curve, a, delta, method, prec)
        results[method] = res.with_details(alpha_at_search_boundary=at_b, notes=boundary_notes(a, at_b))
        certified_order.append(method)
        best_upper = min(best_upper, res.upper)
    candidates = {m: (None if r is None else r.upper) for m, r in results.items()}
    finite = [(r.upper, k, m) for k, (m, r) in enumerate(results.items()) if r is not None]
    _, _, winner = min(finite)
    best = results[winner]
    assert best is not None
    return Certified(lower=best.lower, upper=best.upper,
                     provenance=TV_SOURCE if winner == "tv" else SOURCES[winner],
                     details={**dict(best.details), "method": winner, "candidates": candidates,
                              "candidates_float": floats, "certified_candidates": tuple(certified_order),
                              "source": TV_SOURCE if winner == "tv" else SOURCES[winner]})


__all__ = ["TIGHTEST_METHODS", "TV_GRID", "tightest_rdp_to_dp", "tv_rule_certified", "tv_rule_float"]
