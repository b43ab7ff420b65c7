"""`bcdp rdp shuffle --exact` and `bcdp rdp to-dp` on the exact curve: certified values, the float
search only inside its measured range, and the reason instead of an internal message outside it
(issue 12).

References: the mpmath brute force over every pair (rr_pair_over_j_mp, small n) at enough digits
for the cancellation of tiny eps0, and the mpmath oracle of the pair j = 0 (rr_pair_rdp_mp, rigorous
tails) for larger n; neither shares code with the arb enclosure or the float search.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import pytest
from bcdp.cli import main
from bcdp.cli.rdp import (
    CERTIFIED_COST_LIMIT,
    exact_plan,
    parse_alphas,
    read_eps0,
    shuffle_curve,
)
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle.exact import rr_pair_over_j_mp, rr_pair_rdp_mp
from bcdp.shuffle.rr_all_pairs import FLOAT_SEARCH_REL_ERR
from hypothesis import given, settings
from hypothesis import strategies as st


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def strict(text):
    def refuse(name):
        raise AssertionError(f"non-standard JSON constant {name}")
    return json.loads(text, parse_constant=refuse)


def brute_force_sup(n: int, eps0: str, alpha: str) -> mpmath.mpf:
    """max over every j and both directions, mpmath with 60 digits beyond the ~2 log10(1/eps0)
    digits that tiny eps0 cancels."""
    e = Fraction(eps0)
    lost = 0 if e >= 1 else 2 * max(0, len(str(e.denominator)) - len(str(e.numerator)))
    rows = rr_pair_over_j_mp(n, eps0, alpha, dps=60 + lost)
    return max(v for row in rows for v in row)


def certified_point(capsys, n, eps0, alpha):
    code, out, err = run(capsys, "rdp", "shuffle", "--exact", "--n", str(n), "--eps0", eps0, "--alpha", alpha,
                         "--json")
    assert code == 0, err
    res = strict(out)
    assert res["certified"] is True and "certified" in res["source"]
    return res["curve"][0]


# -- item 2: the printed values are certified --------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 12),
       eps0=st.sampled_from(["1e-400", "1e-100", "1e-15", "1e-7", "0.001", "1/3", "1", "3", "10", "12", "15", "20",
                             "50"]),
       alpha=st.sampled_from(["1.001", "1.5", "2", "3", "17.5", "64", "1000"]))
def test_exact_shuffle_prints_the_upper_end_of_a_certified_enclosure(n, eps0, alpha):
    res = shuffle_curve(n, read_eps0(eps0), parse_alphas(alpha), None)
    assert res["certified"] is True and "certified" in res["source"]
    point = res["curve"][0]
    truth = brute_force_sup(n, eps0, alpha)
    lo, hi = point["enclosure"]
    assert point["epsilon"] == hi
    assert lo <= truth <= hi
    assert hi - lo <= 4 * math.ulp(hi) or hi == 0


def test_float_search_beyond_the_budget_is_labelled_with_its_measured_error(capsys):
    # n = 3000: the arb enclosure (n^2/2 terms) is beyond the budget, eps0 = 1 is inside the
    # float range: the float search, labelled; compared with the mpmath oracle of its pair j = 0
    code, out, _ = run(capsys, "rdp", "shuffle", "--exact", "--n", "3000", "--eps0", "1", "--alpha", "2,8", "--json")
    assert code == 0
    res = strict(out)
    assert res["certified"] is False and "certified" not in res["source"]
    assert "float64" in res["source"] and "measured" in res["source"]
    assert res["measured_relative_error"] == FLOAT_SEARCH_REL_ERR
    for point in res["curve"]:
        assert "enclosure" not in point and point["pair"] == {"ones_among_others": 0, "direction": "DDprime"}
        ref = rr_pair_rdp_mp(3000, "1", repr(point["alpha"]), "DDprime", dps=40)
        assert abs(point["epsilon"] - ref) <= FLOAT_SEARCH_REL_ERR * ref


def test_exact_plan_switches_at_the_cost_budget():
    # largest n whose certified cost (n//2 + 1)(n + 1) for one order fits the budget, worked out here
    n = 1
    while ((n + 1) // 2 + 1) * (n + 2) <= CERTIFIED_COST_LIMIT:
        n += 1
    assert (n // 2 + 1) * (n + 1) <= CERTIFIED_COST_LIMIT < ((n + 1) // 2 + 1) * (n + 2)
    assert exact_plan(n, "1", [2.0], False) == "certified"
    assert exact_plan(n + 1, "1", [2.0], False) == "float"
    assert exact_plan(n, "15", [2.0], False) == "certified"            # any eps0 when affordable
    with pytest.raises(InvalidInputError, match="--bound"):
        exact_plan(n + 1, "15", [2.0], False)
    assert exact_plan(n + 1, "15", [2.0], True) == "certified"          # --allow-slow


# -- item 4: the valid range of the float search, both sides of each boundary -------------------------

@pytest.mark.parametrize("eps0,alpha,inside", [
    ("0", 2.0, True),
    ("0.001", 2.0, True), ("0.000999999", 2.0, False), ("1e-400", 2.0, False),
    ("10", 2.0, True), ("10.000001", 2.0, False), ("11", 2.0, False),
    ("1", 1e100, True), ("1", 1.000001e100, False),
])
def test_float_search_range_both_sides(eps0, alpha, inside):
    n = 5000     # beyond the certified budget for one order: the range decides
    if inside:
        assert exact_plan(n, eps0, [alpha], False) == "float"
    else:
        with pytest.raises(InvalidInputError) as info:
            exact_plan(n, eps0, [alpha], False)
        msg = str(info.value)
        assert "0.001 <= eps0 <= 10" in msg and "alpha <= 1e+100" in msg and "--bound" in msg
        assert "\n" not in msg


# -- item 4: the inputs that gave internal messages ------------------------------------------------------

REPORTED = [
    # (n, eps0, alpha): old message
    (1000, "15", "2"),        # "forward/backward recurrences disagree at the junction"
    (20, "20", "2"),          # same (the issue also saw "math range error")
    (20, "30", "64"),
    (20, "800", "2"),         # "math range error" (OverflowError, exit 3)
    (20, "1e-100", "2"),      # "cannot convert float NaN to integer" (exit 3)
    (5, "1e-400", "3"),       # the float of eps0 is 0.0: must not be read as eps0 = 0
]


@pytest.mark.parametrize("n,eps0,alpha", REPORTED, ids=lambda v: str(v))
def test_reported_exact_inputs_are_computed_and_certified(capsys, n, eps0, alpha):
    point = certified_point(capsys, n, eps0, alpha)
    lo, hi = point["enclosure"]
    if n <= 20:
        truth = brute_force_sup(n, eps0, alpha)
    else:
        # the printed pair is the unique maximiser: its value from the mpmath oracle of the pair
        assert point["pair"] == {"ones_among_others": 0, "direction": "DDprime"} and point["pair_is_unique_maximiser"]
        truth = rr_pair_rdp_mp(n, eps0, alpha, "DDprime", dps=40)
    assert lo <= truth <= hi and 0 < hi


@pytest.mark.parametrize("eps0", ["15", "1e-100", "10.5", "0.0001"])
def test_reported_exact_inputs_beyond_the_budget_are_refused_with_the_reason(capsys, eps0):
    code, out, err = run(capsys, "rdp", "shuffle", "--exact", "--n", "3000", "--eps0", eps0, "--alpha", "2")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("bcdp rdp shuffle: ")
    assert "0.001 <= eps0 <= 10" in err and "--bound" in err and "--allow-slow" in err
    assert "junction" not in err and "NaN" not in err and "range error" not in err


@pytest.mark.parametrize("eps0", ["15", "20", "800", "1e-100", "1e-400"])
def test_to_dp_exact_at_the_reported_eps0(capsys, eps0):
    """`to-dp` on the default exact curve at these eps0: computed (certified), >= the CKS value of
    the curve recomputed by brute force in mpmath, never an internal message."""
    code, out, err = run(capsys, "rdp", "to-dp", "--n", "12", "--eps0", eps0, "--delta", "1e-6", "--rounds", "1e20",
                         "--orders", "2,8,32", "--json")
    assert code == 0, err
    res = strict(out)
    a = int(res["alpha_star"])
    with mpmath.workdps(60):
        r = brute_force_sup(12, eps0, str(a))
        A = mpmath.mpf(a)
        cks = 10 ** 20 * r + (-mpmath.log(mpmath.mpf("1e-6")) + (A - 1) * mpmath.log((A - 1) / A) - mpmath.log(A)) / (A - 1)
        assert mpmath.mpf(res["epsilon"]) >= max(cks, 0)
        assert mpmath.mpf(res["epsilon"]) <= max(cks, 0) * (1 + mpmath.mpf(10) ** -12)
