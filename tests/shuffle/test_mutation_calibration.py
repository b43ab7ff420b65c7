"""Mutation-driven tests of :mod:`bcdp.shuffle.calibration` (certified eps of T shuffled rounds and its
calibration in eps0 or n).

Oracles, all computed here and never copied from an output of the code under test:

* the certified eps of a closed-form bound: arb balls of :func:`bcdp.shuffle.bound_balls.upper_bound_ball`
  at each order, an array curve carrying them (:func:`bcdp.accounting.curves.rdp_curve_from_arrays`),
  composed T times, converted by :func:`bcdp.accounting.conversion.rdp_to_dp` (or
  :func:`bcdp.accounting.tightest.tightest_rdp_to_dp` for ``"best"``); for subsampling the same with
  the balls of :mod:`bcdp.shuffle.subsampled_balls` and the float twins of Thm 5.4.1;
* the calibration's definition (module docstring): the returned eps0 meets the target and
  eps0 (1 + rel) does not; the returned n meets it and floor(n (1 - rel)) (or n - 1) does not; a
  value *meets* the target when its certified eps is <= the target (equality included);
* control flow on a synthetic certified eps (``shuffled_dp_epsilon`` replaced by a stub whose value
  is known exactly): the search never discards a point it saw meeting the target, never raises a
  "no eps0 >= 1e-6" / "no n <= n_max" claim that a point it could have tried contradicts, handles a
  non-monotone stretch as documented, evaluates integer n only, and the step budget MAX_STEPS (one
  step per bisection pass, one per midpoint; checked before each midpoint and before continuing past
  a non-monotone pair).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from bcdp.accounting.conversion import rdp_to_dp
from bcdp.accounting.curves import rdp_curve_from_arrays
from bcdp.accounting.tightest import tightest_rdp_to_dp
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.shuffle import calibration, subsampled_balls
from bcdp.shuffle.bound_balls import upper_bound_ball
from bcdp.shuffle.float_bounds import thm541_upper_float
from bcdp.shuffle.subsampled import thm541_poisson_float

ORDERS = [2, 4, 8, 16, 32]
DELTA = "1e-6"
KEYS = ("alpha_star", "method", "curve", "rdp_certified", "assumption", "enclosure")


# ------------------------------------------------------------------------------------------------
# independent oracles
# ------------------------------------------------------------------------------------------------

def _convert(curve, rounds, method):
    curve = curve.compose(rounds) if rounds != 1 else curve
    if method == "best":
        return tightest_rdp_to_dp(curve, DELTA)
    return rdp_to_dp(curve, DELTA, method)


def oracle(n, eps0, rounds=1, bound="thm531_upper", method="cks", orders=ORDERS):
    """Certified eps of T rounds of a closed-form bound: arb balls -> array curve -> T-fold -> (eps, delta)."""
    balls = [upper_bound_ball(bound, n, eps0, Fraction(a)) for a in orders]
    curve = rdp_curve_from_arrays([float(a) for a in orders], [float(b.mid()) for b in balls],
                                  certified_values=balls)
    return _convert(curve, rounds, method)


def oracle_sub(n, eps0, rounds=1, method="cks", orders=ORDERS, k=None, gamma=None):
    """Certified eps of T subsampled rounds (Thm 5.4.1, k of n, or its Poisson mixture)."""
    if k is not None:
        values = thm541_upper_float(n, k, float(eps0), orders)
        balls = [subsampled_balls.thm541_ball(n, k, eps0, a) for a in orders]
    else:
        values = thm541_poisson_float(n, float(gamma), float(eps0), orders)
        balls = [subsampled_balls.poisson_thm541_ball(n, gamma, eps0, a) for a in orders]
    curve = rdp_curve_from_arrays([float(a) for a in orders], [float(v) for v in values], certified_values=balls)
    return _convert(curve, rounds, method)


def _same(res, ref, keys=KEYS):
    assert res.upper == ref.upper and res.lower == ref.lower
    for key in keys:
        assert res.details[key] == ref.details[key], key


def _one_line(exc_info):
    assert len(str(exc_info.value).strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------------
# shuffled_dp_epsilon against the oracle
# ------------------------------------------------------------------------------------------------

def test_defaults_are_one_round_of_thm531():
    res, source = calibration.shuffled_dp_epsilon(1000, "1", DELTA, orders=ORDERS)
    _same(res, oracle(1000, "1"))
    assert res.details["curve"] == "user arrays"            # one round: the curve itself, not "1 x [...]"
    assert res.details["rdp_certified"] is True and res.details["assumption"] == ""
    assert "certified: arb enclosure" in source


@pytest.mark.parametrize("rounds", [2, 3])
@pytest.mark.parametrize("method", ["cks", "mironov"])
def test_rounds_compose_and_method_is_used(rounds, method):
    res, _ = calibration.shuffled_dp_epsilon(1000, "1", DELTA, rounds, "thm531_upper", method, ORDERS)
    ref = oracle(1000, "1", rounds, "thm531_upper", method)
    _same(res, ref)
    assert res.details["curve"] == f"{rounds} x [user arrays]"
    assert res.upper > oracle(1000, "1", rounds - 1, "thm531_upper", method).upper
    assert res.details["method"] == method


@pytest.mark.parametrize("rounds", [1, 2])
def test_best_is_the_tightest_conversion(rounds):
    res, _ = calibration.shuffled_dp_epsilon(500, "2", DELTA, rounds, "thm532_upper", "best", ORDERS)
    _same(res, oracle(500, "2", rounds, "thm532_upper", "best"))


def test_exact_curve_is_certified():
    res, source = calibration.shuffled_dp_epsilon(4, "1", DELTA, 2, None, "cks", [2, 4])
    assert res.details["rdp_certified"] is True and res.details["assumption"] == ""
    assert res.details["curve"] == "2 x [user arrays]" and source.startswith("exact")


def test_eps0_inf_has_no_finite_value():
    with pytest.raises(InvalidInputError, match="no finite RDP value") as info:
        calibration.shuffled_dp_epsilon(100, "inf", DELTA, orders=ORDERS)
    _one_line(info)


# ------------------------------------------------------------------------------------------------
# subsampled curves
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rounds", [1, 2, 3])
@pytest.mark.parametrize("method", ["cks", "mironov", "best"])
def test_fixed_size_subsampling_against_the_oracle(rounds, method):
    res, source = calibration.shuffled_dp_epsilon(200, "1", DELTA, rounds, "thm541_upper", method, ORDERS,
                                                  sample_size=20)
    ref = oracle_sub(200, "1", rounds, method, k=20)
    _same(res, ref, ("alpha_star", "method", "rdp_certified"))
    label = "Thm 5.4.1, k = 20 of n = 200, eps0 = 1"
    assert res.details["curve"] == (label if rounds == 1 else f"{rounds} x [{label}]")
    if method != "best":
        assert res.details["method"] == method
    assert "without replacement" in source


@pytest.mark.parametrize("rounds", [1, 2])
def test_poisson_subsampling_against_the_oracle(rounds):
    res, _ = calibration.shuffled_dp_epsilon(100, "1", DELTA, rounds, "thm541_upper", "mironov", ORDERS,
                                             poisson_rate="0.2")
    _same(res, oracle_sub(100, "1", rounds, "mironov", gamma="0.2"), ("alpha_star", "method", "rdp_certified"))


@pytest.mark.parametrize("sub", [{"sample_size": 10}, {"poisson_rate": "0.1"}])
@pytest.mark.parametrize("eps0", ["abc", "inf", "1e400"])
def test_subsampled_bad_eps0_names_eps0(sub, eps0):
    with pytest.raises(InvalidInputError) as info:
        calibration.shuffled_dp_epsilon(100, eps0, DELTA, bound="thm541_upper", orders=[2, 3], **sub)
    assert str(info.value).startswith("eps0")
    _one_line(info)


@pytest.mark.parametrize("sub", [{"sample_size": 10}, {"poisson_rate": "0.1"}])
def test_subsampled_curve_carries_the_float_twins_label_and_source(sub):
    curve, source = calibration._subsampled_curve(100, "1", "thm541_upper", [4, 2, 3], sub.get("sample_size"),
                                                  sub.get("poisson_rate"))
    if "sample_size" in sub:
        twins = thm541_upper_float(100, 10, 1.0, [2, 3, 4])
        label = "Thm 5.4.1, k = 10 of n = 100, eps0 = 1"
    else:
        twins = thm541_poisson_float(100, 0.1, 1.0, [2, 3, 4])
        label = "Poisson(gamma = 0.1) Thm 5.4.1 mixture, n = 100, eps0 = 1"
    assert curve.orders == (2.0, 3.0, 4.0) and curve.order_values == tuple(float(v) for v in twins)
    table = curve.sorted_orders_and_values()
    assert table is not None and table[1].tolist() == [float(v) for v in twins]
    assert curve.label == label and curve.source == source and curve.is_certified


@pytest.mark.parametrize("sub", [{"sample_size": 10}, {"poisson_rate": "0.1"}])
def test_subsampled_curve_reads_non_finite_twins_as_infinite(sub, monkeypatch):
    """A float twin value that is NaN or infinite (a twin that overflowed) becomes +inf in the curve's
    search values, never NaN (an RDP curve refuses NaN values); the certified balls are untouched.  The
    twins are replaced (they no longer overflow: thm541_upper_float returns +inf beyond eps0 = 700 and
    works in log space below), so the curve's reading is tested on NaN, +inf and finite values."""
    from bcdp.shuffle import float_bounds, subsampled

    fake = [0.25, math.nan, math.inf]
    monkeypatch.setattr(float_bounds, "thm541_upper_float", lambda *a, **k: list(fake))
    monkeypatch.setattr(subsampled, "thm541_poisson_float", lambda *a, **k: list(fake))
    curve, _ = calibration._subsampled_curve(100, "1", "thm541_upper", [2, 3, 8], sub.get("sample_size"),
                                             sub.get("poisson_rate"))
    assert curve.order_values == (0.25, math.inf, math.inf)
    for a, v in zip((2.0, 3.0, 8.0), (0.25, math.inf, math.inf)):
        assert curve(a) == v                                # RdpCurve.__call__ refuses a NaN value
    assert curve.enclosure(2.0).is_finite()


# ------------------------------------------------------------------------------------------------
# input checks
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["abc", "0", "-1", "nan", "inf"])
def test_bad_target_names_the_target(target):
    with pytest.raises(InvalidInputError) as info:
        calibration.calibrate_eps0(target, DELTA, 100, orders=ORDERS)
    assert str(info.value).startswith(("target eps", "the target eps"))
    _one_line(info)


@pytest.mark.parametrize("rel", [1e-9, 0.5])
def test_rel_accepts_both_ends(rel):
    out = calibration.calibrate_n("1", DELTA, "1", rel=rel, orders=ORDERS)
    assert out["rel"] == rel
    n, below = out["n"], out["beyond"]["n"]
    assert below == max(1, math.floor(n * (1 - rel))) or below == n - 1
    assert oracle(n, "1").upper == out["epsilon"] <= 1.0 < oracle(below, "1").upper == out["beyond"]["epsilon"]


@pytest.mark.parametrize("rel", [1e-9 * (1 - 1e-15), 0.5 + 1e-15, 1, "0.1"])
def test_rel_refused_just_outside(rel):
    with pytest.raises(InvalidInputError, match="rel must be") as info:
        calibration.calibrate_eps0("1", DELTA, 100, rel=rel, orders=ORDERS)
    _one_line(info)


@pytest.mark.parametrize("eps0,cls", [("abc", InvalidInputError), (0.5, FloatRefusedError)])
def test_calibrate_n_names_a_bad_eps0(eps0, cls):
    with pytest.raises(cls) as info:
        calibration.calibrate_n("1", DELTA, eps0, orders=ORDERS)
    assert str(info.value).startswith("eps0:")
    _one_line(info)


# ------------------------------------------------------------------------------------------------
# calibrate_eps0 on the real certified eps
# ------------------------------------------------------------------------------------------------

def test_eps0_defaults_one_round_and_cap_ten():
    out = calibration.calibrate_eps0("1", DELTA, 1000, orders=ORDERS)
    assert set(out) == {"eps0", "epsilon", "target_eps", "rel", "beyond", "capped"}
    assert out["capped"] is False and out["rel"] == 1e-3 and out["target_eps"] == 1.0
    e0, b = out["eps0"], out["beyond"]["eps0"]
    assert b == e0 * (1 + 1e-3)
    assert oracle(1000, repr(e0)).upper == out["epsilon"] <= 1.0 < oracle(1000, repr(b)).upper == out["beyond"]["epsilon"]
    capped = calibration.calibrate_eps0("1000", DELTA, 1000, orders=ORDERS)
    assert capped == {"eps0": 10.0, "epsilon": oracle(1000, "10.0").upper, "target_eps": 1000.0, "rel": 1e-3,
                      "beyond": None, "capped": True}


def test_cap_at_equality_and_just_below():
    at_max = oracle(1000, "3.0", 2).upper
    out = calibration.calibrate_eps0(repr(at_max), DELTA, 1000, rounds=2, orders=ORDERS, rel=0.01, eps0_max=3.0)
    assert out == {"eps0": 3.0, "epsilon": at_max, "target_eps": at_max, "rel": 0.01, "beyond": None,
                   "capped": True}
    below = math.nextafter(at_max, 0)
    out = calibration.calibrate_eps0(repr(below), DELTA, 1000, rounds=2, orders=ORDERS, rel=0.01, eps0_max=3.0)
    assert out["capped"] is False and out["eps0"] < 3.0 and out["rel"] == 0.01 and out["target_eps"] == below
    assert oracle(1000, repr(out["eps0"]), 2).upper == out["epsilon"] <= below
    assert oracle(1000, repr(out["beyond"]["eps0"]), 2).upper == out["beyond"]["epsilon"] > below


def test_floor_one_in_a_million_is_tried():
    """eps0_max = 1e-6 4^12: the descent lands exactly on 1e-6, which meets a target equal to its own
    certified eps: the calibration answers (no "no eps0 >= 1e-6 meets" claim)."""
    eps0_max = 1e-6 * 4 ** 12
    target = oracle(10, repr(1e-6)).upper
    out = calibration.calibrate_eps0(repr(target), DELTA, 10, orders=ORDERS, eps0_max=eps0_max)
    e0, b = out["eps0"], out["beyond"]["eps0"]
    assert 1e-6 <= e0 < 4e-6 and out["capped"] is False
    assert oracle(10, repr(e0)).upper == out["epsilon"] <= target < oracle(10, repr(b)).upper
    with pytest.raises(InvalidInputError, match="no eps0 >= 1e-6") as info:
        calibration.calibrate_eps0(repr(math.nextafter(target, 0)), DELTA, 10, orders=ORDERS, eps0_max=eps0_max)
    _one_line(info)


# ------------------------------------------------------------------------------------------------
# calibrate_n on the real certified eps
# ------------------------------------------------------------------------------------------------

def test_n_defaults_one_round_and_record():
    out = calibration.calibrate_n("0.5", DELTA, "1", orders=ORDERS)
    assert set(out) == {"n", "epsilon", "target_eps", "rel", "beyond"}
    assert out["target_eps"] == 0.5 and out["rel"] == 1e-3
    n, below = out["n"], out["beyond"]["n"]
    assert oracle(n, "1").upper == out["epsilon"] <= 0.5 < oracle(below, "1").upper == out["beyond"]["epsilon"]


def test_n_is_one():
    out = calibration.calibrate_n("5", DELTA, "1", orders=ORDERS)
    assert out == {"n": 1, "epsilon": oracle(1, "1").upper, "target_eps": 5.0, "rel": 1e-3, "beyond": None}


def test_n_is_two_and_one_does_not_meet():
    at1, at2 = oracle(1, "1").upper, oracle(2, "1").upper
    assert at2 < at1
    out = calibration.calibrate_n(repr(at2), DELTA, "1", orders=ORDERS)
    assert out == {"n": 2, "epsilon": at2, "target_eps": at2, "rel": 1e-3, "beyond": {"n": 1, "epsilon": at1}}


def test_n_max_itself_is_tried():
    """n_max = 4^5: the growth lands exactly on n_max, which meets a target equal to its own certified
    eps: the calibration answers (no "no n <= n_max" claim); one ulp lower, it refuses."""
    target = oracle(1024, "1").upper
    out = calibration.calibrate_n(repr(target), DELTA, "1", orders=ORDERS, n_max=1024)
    assert out["epsilon"] == oracle(out["n"], "1").upper <= target < oracle(out["beyond"]["n"], "1").upper
    with pytest.raises(InvalidInputError, match="no n <= 1024") as info:
        calibration.calibrate_n(repr(math.nextafter(target, 0)), DELTA, "1", orders=ORDERS, n_max=1024)
    _one_line(info)


def test_a_bound_invalid_for_few_users_is_not_refused_up_front():
    """Cor 5.3.1's condition fails for small n (ValidityConditionError): such n do not meet the target,
    larger n do; no up-front check at n = 2 without subsampling."""
    orders = [2, 3]
    out = calibration.calibrate_n("5.953", DELTA, "0.1", bound="cor531_upper", orders=orders, rel=0.01)
    n, below = out["n"], out["beyond"]["n"]
    assert oracle(n, "0.1", bound="cor531_upper", orders=orders).upper == out["epsilon"] <= 5.953
    try:
        at_below = oracle(below, "0.1", bound="cor531_upper", orders=orders).upper
    except InvalidInputError:
        at_below = math.inf
    assert at_below == out["beyond"]["epsilon"] > 5.953


@pytest.mark.parametrize("sub,bound,orders,message", [
    ({"sample_size": 10}, "thm531_upper", ORDERS, "Thm 5.4.1"),
    ({"poisson_rate": "0.1"}, "thm531_upper", ORDERS, "Thm 5.4.1"),
    ({"sample_size": 10}, "thm541_upper", [2, 2.5], "2.5 is not one"),
    ({"poisson_rate": "0.1"}, "thm541_upper", [2, 2.5], "2.5 is not one"),
])
def test_subsampled_bad_input_is_refused_up_front(sub, bound, orders, message):
    with pytest.raises(InvalidInputError, match=message) as info:
        calibration.calibrate_n("1", DELTA, "1", bound=bound, orders=orders, n_max=10 ** 4, **sub)
    _one_line(info)


def test_up_front_check_is_at_two_users(monkeypatch):
    """The up-front check of the Poisson curve runs at n = max(n_min, 2) = 2: a window cap that two users
    fit in (width 3) does not refuse a target met by one user."""
    lo, hi = subsampled_balls.poisson_window(2, 0.5, 3, 1.0)
    monkeypatch.setattr(subsampled_balls, "POISSON_WINDOW_MAX", hi - lo + 1)
    out = calibration.calibrate_n("50", DELTA, "1", bound="thm541_upper", orders=[2, 3], poisson_rate="0.5")
    ref = oracle_sub(1, "1", orders=[2, 3], gamma="0.5").upper
    assert out == {"n": 1, "epsilon": ref, "target_eps": 50.0, "rel": 1e-3, "beyond": None}


def test_subsampled_n_at_least_the_sample_size():
    out = calibration.calibrate_n("2", DELTA, "1", bound="thm541_upper", orders=ORDERS, sample_size=20, rel=0.01)
    n, below = out["n"], out["beyond"]["n"]
    assert n >= 20
    assert oracle_sub(n, "1", k=20).upper == out["epsilon"] <= 2.0
    at_below = oracle_sub(below, "1", k=20).upper if below >= 20 else math.inf
    assert at_below == out["beyond"]["epsilon"] > 2.0


# ------------------------------------------------------------------------------------------------
# control flow on a synthetic certified eps
# ------------------------------------------------------------------------------------------------

T = 0.5            # the target; a point meets it with certified eps exactly T (equality meets)


class _Result:
    def __init__(self, upper):
        self.upper = upper


def _stub_eps0(monkeypatch, meets):
    calls = []

    def fake(n, eps0, delta, rounds=1, bound=None, method="cks", orders=(), **sub):
        e = float(eps0)
        calls.append(e)
        return _Result(T if meets(e) else 2 * T), "stub"
    monkeypatch.setattr(calibration, "shuffled_dp_epsilon", fake)
    return calls


def _stub_n(monkeypatch, meets):
    calls = []

    def fake(n, eps0, delta, rounds=1, bound=None, method="cks", orders=(), **sub):
        calls.append(n)
        if not isinstance(n, int):
            raise InvalidInputError(f"n must be an integer, got {n!r}")     # as the real bounds do
        return _Result(T if meets(n) else 2 * T), "stub"
    monkeypatch.setattr(calibration, "shuffled_dp_epsilon", fake)
    return calls


def _check_eps0(out, meets, rel):
    e0, b = out["eps0"], out["beyond"]["eps0"]
    assert meets(e0) and out["epsilon"] == T and not meets(b) and out["beyond"]["epsilon"] == 2 * T
    assert b == e0 * (1 + rel) and out["capped"] is False and out["rel"] == rel and out["target_eps"] == T


def _check_n(out, meets, rel):
    n, below = out["n"], out["beyond"]["n"]
    assert meets(n) and out["epsilon"] == T and not meets(below) and out["beyond"]["epsilon"] == 2 * T
    assert below in (max(1, math.floor(n * (1 - rel))), n - 1)
    assert out["rel"] == rel and out["target_eps"] == T


def _after_first_meet(calls, meets):
    first = next(i for i, c in enumerate(calls) if meets(c))
    return calls[first + 1:]


def _closing_dropped(after, ref):
    """The evaluations after the bracket without the last pass's closing point floor(n (1 - rel)) when it
    was a new evaluation (it is often a midpoint already evaluated)."""
    return after[:-1] if after and after[-1] == ref["beyond"]["n"] else after


def test_eps0_equality_meets_everywhere(monkeypatch):
    """Certified eps == target meets: at the cap, at the descent's first point, at every midpoint."""
    def meets(e):
        return e <= 7.0
    calls = _stub_eps0(monkeypatch, meets)
    out = calibration.calibrate_eps0(repr(T), DELTA, 100)
    _check_eps0(out, meets, 1e-3)
    assert out["eps0"] == max(c for c in calls if meets(c))     # no point seen meeting is discarded
    assert max(calls) <= 10.0 * (1 + 1e-3)
    assert calibration.calibrate_eps0(repr(T), DELTA, 100, eps0_max=7.0) == {
        "eps0": 7.0, "epsilon": T, "target_eps": T, "rel": 1e-3, "beyond": None, "capped": True}


def test_eps0_the_descent_point_that_meets_is_kept(monkeypatch):
    def meets(e):
        return e <= 2.5                          # 2.5 = 10 / 4 exactly
    calls = _stub_eps0(monkeypatch, meets)
    out = calibration.calibrate_eps0(repr(T), DELTA, 100, rel=0.01)
    _check_eps0(out, meets, 0.01)
    assert 2.5 in calls and out["eps0"] == 2.5


def test_eps0_budget_monotone(monkeypatch):
    def meets(e):
        return e <= 3.0
    calls = _stub_eps0(monkeypatch, meets)
    ref = calibration.calibrate_eps0(repr(T), DELTA, 100)
    _check_eps0(ref, meets, 1e-3)
    steps = len(_after_first_meet(calls, meets))          # the midpoints and the closing evaluation
    assert steps >= 5
    monkeypatch.setattr(calibration, "MAX_STEPS", steps)
    assert calibration.calibrate_eps0(repr(T), DELTA, 100) == ref
    monkeypatch.setattr(calibration, "MAX_STEPS", steps - 1)
    with pytest.raises(InvalidInputError, match="calibration did not converge") as info:
        calibration.calibrate_eps0(repr(T), DELTA, 100)
    _one_line(info)


def _hole_at_two(e):
    return e <= 2.2 and e != 2.0               # 2.0 = sqrt(1 x 4): the first midpoint fails, alone


def test_eps0_non_monotone_stretch_continues_and_budget(monkeypatch):
    calls = _stub_eps0(monkeypatch, _hole_at_two)
    ref = calibration.calibrate_eps0(repr(T), DELTA, 100, rel=0.01, eps0_max=4.0)
    _check_eps0(ref, _hole_at_two, 0.01)
    assert 2.2 / 1.01 < ref["eps0"] <= 2.2                    # continued from the points that met
    assert ref["eps0"] == max(c for c in calls if _hole_at_two(c))
    after = _after_first_meet(calls, _hole_at_two)
    passes = sum(1 for c in after if c > 2.0)                 # the walk above the hole: one point per pass
    assert passes >= 5
    steps = len(after)
    monkeypatch.setattr(calibration, "MAX_STEPS", steps - 1)  # the last pass's closing point is not checked
    assert calibration.calibrate_eps0(repr(T), DELTA, 100, rel=0.01, eps0_max=4.0) == ref
    monkeypatch.setattr(calibration, "MAX_STEPS", steps - 2)
    with pytest.raises(InvalidInputError, match="not monotone") as info:
        calibration.calibrate_eps0(repr(T), DELTA, 100, rel=0.01, eps0_max=4.0)
    _one_line(info)


def test_eps0_never_answers_above_the_cap(monkeypatch):
    """The cap fails alone and points just above it meet: the calibration refuses (not monotone)
    rather than walking past eps0_max."""
    def meets(e):
        return e != 4.0 and e < 4.2
    calls = _stub_eps0(monkeypatch, meets)
    with pytest.raises(InvalidInputError, match="not monotone") as info:
        calibration.calibrate_eps0(repr(T), DELTA, 100, rel=0.01, eps0_max=4.0)
    _one_line(info)
    assert max(calls) < 4.0 * 1.01


def test_n_equality_meets_everywhere(monkeypatch):
    def meets(n):
        return n >= 300
    calls = _stub_n(monkeypatch, meets)
    out = calibration.calibrate_n(repr(T), DELTA, "1")
    _check_n(out, meets, 1e-3)
    assert out["n"] == 300 == min(c for c in calls if meets(c))
    assert all(isinstance(c, int) for c in calls)


def test_n_budget_monotone(monkeypatch):
    def meets(n):
        return n >= 300
    calls = _stub_n(monkeypatch, meets)
    ref = calibration.calibrate_n(repr(T), DELTA, "1")
    mids = _closing_dropped(_after_first_meet(calls, meets), ref)
    assert len(mids) >= 5
    monkeypatch.setattr(calibration, "MAX_STEPS", len(mids) + 1)     # the pass and its midpoints
    assert calibration.calibrate_n(repr(T), DELTA, "1") == ref
    monkeypatch.setattr(calibration, "MAX_STEPS", len(mids))
    with pytest.raises(InvalidInputError, match="calibration did not converge") as info:
        calibration.calibrate_n(repr(T), DELTA, "1")
    _one_line(info)


def _below_meets(n):
    return n >= 400 or n == 380 or 280 <= n <= 300       # 380: the first pass's closing point (rel 0.05)


def test_n_non_monotone_stretch_continues_below(monkeypatch):
    calls = _stub_n(monkeypatch, _below_meets)
    ref = calibration.calibrate_n(repr(T), DELTA, "1", rel=0.05)
    _check_n(ref, _below_meets, 0.05)
    assert 380 in calls and ref["n"] < 380
    assert all(isinstance(c, int) for c in calls)
    assert ref["n"] == min(c for c in calls if _below_meets(c))
    after = _after_first_meet(calls, _below_meets)
    mids = [c for c in _closing_dropped(after, ref) if c != 380]
    budget = 2 + len(mids)                                  # two passes and their midpoints
    monkeypatch.setattr(calibration, "MAX_STEPS", budget)
    assert calibration.calibrate_n(repr(T), DELTA, "1", rel=0.05) == ref
    monkeypatch.setattr(calibration, "MAX_STEPS", budget - 1)
    with pytest.raises(InvalidInputError, match="calibration did not converge") as info:
        calibration.calibrate_n(repr(T), DELTA, "1", rel=0.05)
    _one_line(info)


def _half_meets(n):
    return n >= 300 or n == 224      # rel 0.5: 224 = floor(448 / 2), the first pass's closing point


def test_n_continuation_budget_checked_before_continuing(monkeypatch):
    calls = _stub_n(monkeypatch, _half_meets)
    ref = calibration.calibrate_n(repr(T), DELTA, "1", rel=0.5)
    _check_n(ref, _half_meets, 0.5)
    assert ref["n"] == 224 and ref["beyond"]["n"] == 112
    mids = [c for c in _closing_dropped(_after_first_meet(calls, _half_meets), ref) if c != 224]
    monkeypatch.setattr(calibration, "MAX_STEPS", 1 + len(mids))   # the second pass has no midpoint
    assert calibration.calibrate_n(repr(T), DELTA, "1", rel=0.5) == ref
    monkeypatch.setattr(calibration, "MAX_STEPS", len(mids))
    with pytest.raises(InvalidInputError, match="calibration did not converge"):
        calibration.calibrate_n(repr(T), DELTA, "1", rel=0.5)


def test_n_one_and_two_on_the_stub(monkeypatch):
    _stub_n(monkeypatch, lambda n: True)
    assert calibration.calibrate_n(repr(T), DELTA, "1") == {"n": 1, "epsilon": T, "target_eps": T, "rel": 1e-3,
                                                             "beyond": None}
    _stub_n(monkeypatch, lambda n: n >= 2)
    assert calibration.calibrate_n(repr(T), DELTA, "1", rel=0.5) == {
        "n": 2, "epsilon": T, "target_eps": T, "rel": 0.5, "beyond": {"n": 1, "epsilon": 2 * T}}
