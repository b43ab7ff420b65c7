"""Theorem 2 allocation (eq. 16): properties, exact ties, edge cases, and the CLI."""

import json
import math
from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp.bayesian.allocation import (
    allocate_budgets,
    min_delta_baseline,
    mse_bound_eq17,
    mse_objective,
    mse_objective_float,
)
from bcdp.bayesian.cdp_to_bcdp import prop4_bcdp_bound
from bcdp.bayesian.variants import allocation_exact_strict, allocation_public_code_float
from bcdp.cli import main
from bcdp.core.intervals import compare, to_float
from hypothesis import given, settings
from hypothesis import strategies as st

rationals = st.fractions(min_value=0, max_value=3, max_denominator=20)


@settings(max_examples=40, deadline=None)
@given(st.lists(rationals, min_size=1, max_size=5),
       st.fractions(min_value=F(1, 10), max_value=3, max_denominator=10),
       st.fractions(min_value=0, max_value=1, max_denominator=10),
       st.fractions(min_value=F(1, 10), max_value=1, max_denominator=10))
def test_allocation_properties_and_privacy_by_prop4(delta, eps, q, zeta):
    alloc = allocate_budgets(delta, eps, q, zeta)
    cs = alloc.c_sorted
    # non-decreasing, non-negative, c_d <= eps
    assert all(compare(cs[i], cs[i + 1]) <= 0 for i in range(len(cs) - 1))
    assert compare(cs[0], 0) >= 0
    assert compare(cs[-1], alloc.eps) <= 0
    # Prop. 4 part 2 with the mechanism being c_d-LDP (Thm 2 proof): implied delta' <= delta~
    implied = prop4_bcdp_bound(cs, [alloc.q] * len(cs), eps=cs[-1])
    tilde = [min(sympy.Rational(delta[i].numerator, delta[i].denominator), alloc.eps) for i in alloc.order]
    assert all(compare(implied[i], tilde[i]) <= 0 for i in range(len(cs)))
    # c (caller's order) and c_sorted against eq. (16) evaluated here independently at 50 digits
    ind_c, ind_sorted = _eq16_mpmath(delta, eps, q, zeta)
    assert len(cs) == len(ind_sorted)
    with mpmath.workdps(50):
        for got, want in zip(list(alloc.c) + list(cs), ind_c + ind_sorted):
            assert abs(mpmath.mpf(str(sympy.N(got, 50))) - want) <= mpmath.mpf(10) ** -35, (got, want)


def _eq16_mpmath(delta, eps, q, zeta):
    """Eq. (16) of the BCDP paper, written out again with mpmath (50 digits), independently of
    bcdp.bayesian.allocation: sort delta (stably), delta~ = min(delta, eps), c_d = min(log((e^{zeta
    delta~_1} + q - 1)/q), delta~_d) (delta~_d when q = 0), c_i = c_d if c_d <= delta~_i else
    delta~_i - log(1 + q e^{c_d} - q).  Returns (c in the caller's order, c in sorted order).
    The case split uses the paper's "<=" with a 1e-40 tolerance: its exact ties (q = 1, zeta = 1)
    are at distance 0, and by Lindemann-Weierstrass the log term is never within 1e-40 of a
    small-denominator rational otherwise (here denominators <= 20)."""
    with mpmath.workdps(50):
        mp = lambda v: mpmath.mpf(v.numerator) / v.denominator  # noqa: E731
        order = sorted(range(len(delta)), key=lambda i: (delta[i], i))
        tilde = [min(mp(delta[i]), mp(eps)) for i in order]
        qq, z = mp(q), mp(zeta)
        c_d = tilde[-1] if qq == 0 else min(mpmath.log((mpmath.exp(z * tilde[0]) + qq - 1) / qq), tilde[-1])
        srt = [c_d if (pos == len(tilde) - 1 or c_d <= dt + mpmath.mpf(10) ** -40)
               else dt - mpmath.log(1 + qq * mpmath.exp(c_d) - qq) for pos, dt in enumerate(tilde)]
        caller = [None] * len(delta)
        for pos, i in enumerate(order):
            caller[i] = srt[pos]
        return caller, srt


def test_mse_objective_hand_derived():
    # eq. (17) sum by hand: c = (1, 1, 2), d = 3: w = (1/3, 0, 1/1), partial sums 1/3, 1/3, 4/3,
    # objective = 3 + 3 + 3/4 = 27/4; c = (1/2, 1): w = (1/8, 1/4), sums 1/8, 3/8: 8 + 8/3 = 32/3
    assert mse_objective([1, 1, 2]) == sympy.Rational(27, 4)
    assert mse_objective(["1/2", "1"]) == sympy.Rational(32, 3)
    assert mse_objective([0, 1]) is sympy.oo
    # the objective of an allocation is that of its budgets sorted by delta, not by position:
    # delta (3, 1/5, 1), eps 2, q 0 gives c = (2, 1/5, 1) (eq. 16 with q = 0: c_i = min(delta_i, eps)),
    # c sorted = (1/5, 1, 2): w = (1/75, 16/50, 1), sums 1/75, 1/3, 4/3 -> 75 + 3 + 3/4 = 315/4
    alloc = allocate_budgets(["3", "1/5", "1"], 2, 0, "1/2")
    assert alloc.c_sorted == (sympy.Rational(1, 5), 1, 2)
    assert alloc.objective == sympy.Rational(315, 4)


def test_q_zero_gives_min_delta_eps():
    alloc = allocate_budgets(["1/5", "3", "1"], 2, 0, "1/2")
    assert list(alloc.c) == [sympy.Rational(1, 5), 2, 1]
    assert alloc.order == (0, 2, 1)


def test_tie_at_q_one_zeta_one_is_decided_exactly():
    # q = 1, zeta = 1: c_d = log(e^{delta_1}) = delta_1 exactly, so c_d <= delta~_1 is a tie and
    # eq. (16)'s "<=" gives c_1 = c_d = 1/5 (BCDP paper, eq. 16).
    alloc = allocate_budgets(["1/5", "1/5", "2"], 2, 1, 1)
    assert list(alloc.c) == [sympy.Rational(1, 5)] * 3
    assert alloc.branches[0] == "c_d <= delta~_i"
    # the strict variant in exact arithmetic gives c_1 = delta_1 - log(1 + e^{c_d} - 1) = 0 ...
    strict = allocation_exact_strict(["1/5", "1/5", "2"], 2, 1, 1)
    assert strict.c[0] == 0
    # ... and the float64 strict variant lands one rounding error below 1/5 and returns ~1/5.
    fl = allocation_public_code_float([0.2, 0.2, 2.0], 2.0, 1.0, 1.0)
    assert fl[-1] < 0.2 and fl[0] == fl[-1]


def test_tie_for_other_delta_values():
    for d1 in ("1/10", "1/2", "1"):
        alloc = allocate_budgets([d1, "3"], 3, 1, 1)
        assert alloc.c[0] == sympy.Rational(d1) == alloc.c[1]


def test_log_branch_gives_one_minus_zeta_delta_when_cd_above_delta1():
    # BCDP paper, remark after Thm 2: c_1 = (1 - zeta) delta_1 when the log term sets c_d (> delta_1)
    alloc = allocate_budgets(["1/5", "2", "2"], 2, "3/10", "1/2")
    assert compare(alloc.c[2], sympy.Rational(1, 5)) > 0
    assert alloc.c[0] == sympy.Rational(1, 10)


def test_delta_above_eps_is_capped():
    alloc = allocate_budgets(["5", "7"], 2, "1/2", "1/2")
    assert compare(alloc.c[1], 2) <= 0


@pytest.mark.parametrize("bad", [dict(zeta=0), dict(zeta="3/2"), dict(q="-1/10"), dict(q=2),
                                 dict(eps=0), dict(delta=["-1/5", 1])])
def test_invalid_inputs_rejected(bad):
    args = dict(delta=["1/5", 2], eps=2, q="1/2", zeta="1/2")
    args.update(bad)
    with pytest.raises(ValueError):
        allocate_budgets(**args)


def test_floats_refused():
    with pytest.raises(TypeError):
        allocate_budgets([0.2, 2], 2, "1/2", "1/2")


def test_objective_matches_definition_and_float_twin():
    c = [sympy.Rational(1, 10), sympy.Rational(1, 2), sympy.Rational(1, 2)]
    # S_1 = (1/10)^2/3, S_2 = S_1 + (2/5)^2/2, S_3 = S_2
    s1 = sympy.Rational(1, 100) / 3
    s2 = s1 + sympy.Rational(4, 25) / 2
    assert sympy.simplify(mse_objective(c) - (1 / s1 + 2 / s2)) == 0
    assert mse_objective_float([0.1, 0.5, 0.5]) == pytest.approx(float(1 / s1 + 2 / s2), rel=1e-12)
    assert mse_objective([0, sympy.Rational(1, 2)]) is sympy.oo
    assert mse_bound_eq17(c, 10 ** 6) == mse_objective(c) / 10 ** 6
    assert mse_bound_eq17(c, 1) == 3


def test_baseline_objective_is_d_squared_over_min_delta_squared():
    base = min_delta_baseline(["1/5", "2", "2"], 2)
    assert sympy.simplify(base.objective - 9 / sympy.Rational(1, 25)) == 0


def test_authors_code_values_reproduced():
    # Values printed by the authors' code (syomantak/BCDP-CodeBase @0914cd4, trial.py, the Fig. 3
    # experiment of App. B.1) for delta = (0.2, 0.2, 2 x 8),
    # eps = 2, zeta = (1 + q)/2: c_1 and c_d.
    table = {"0.01": (0.138067, 2.0), "0.12": (0.0880, 0.686931), "0.23": (0.0770, 0.450478),
             "0.45": (0.0550, 0.297698), "0.78": (0.0220, 0.222964)}
    for q, (c1, cd) in table.items():
        qf = F(q)
        alloc = allocate_budgets(["0.2", "0.2"] + ["2"] * 8, 2, q, (1 + qf) / 2)
        assert to_float(alloc.c[0]) == pytest.approx(c1, abs=5e-6)
        assert to_float(alloc.c[-1]) == pytest.approx(cd, abs=5e-6)


def test_public_code_variant_caps_delta_at_eps():
    # The authors' bdp_improved_vk (syomantak/BCDP-CodeBase, trial.py) starts with
    # delta[i] = min(delta[i], eps).  delta (2.5, 3, 3), eps 2, q 0.05, zeta (1 + q)/2: delta~ =
    # (2, 2, 2); the log term log((e^{1.05} + q - 1)/q) ~ 3.63 > 2, so c_d = 2, and 2 < 2 is false,
    # so c_1 = c_2 = 2 - log(1 - q + q e^2) (hand-derived, evaluated here with math).
    q = 0.05
    c1 = 2 - math.log(1 - q + q * math.exp(2))
    assert c1 == pytest.approx(1.7228, abs=5e-5)
    got = allocation_public_code_float([2.5, 3.0, 3.0], 2.0, q, (1 + q) / 2)
    assert got == pytest.approx([c1, c1, 2.0], rel=1e-14)
    # the uncapped computation would give (1.830, 2.330, 3.0)
    assert got[0] < 1.8 and got[2] == 2.0


def test_cli_allocate_json(capsys):
    code = main(["allocate", "--delta", "0.2,0.2,2", "--eps", "2", "--q", "0.3", "--zeta", "0.5", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["delta"] == ["1/5", "1/5", "2"] and out["q"] == "3/10" and out["zeta"] == "1/2"
    assert [c["exact"] for c in out["c"][:2]] == ["1/10", "1/10"]
    assert set(out["objective"]) == {"exact", "float"}
    assert out["c"][0]["float"] == pytest.approx(0.1)


def test_cli_allocate_rejects_bad_input(capsys):
    assert main(["allocate", "--delta", "0.2,x", "--eps", "2", "--q", "0.3"]) == 2
    assert main(["allocate", "--delta", "0.2,2", "--eps", "2", "--q", "1.3"]) == 2
    assert "q" in capsys.readouterr().err


def test_cli_allocate_optimal_json(capsys):
    code = main(["allocate", "--delta", "0.2,0.2,2,2", "--eps", "2", "--q", "0.1", "--optimal", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["method"] == "optimal"
    lower = sympy.Rational(out["lower_bound"]) if "/" in out["lower_bound"] or out["lower_bound"].isdigit() \
        else sympy.sympify(out["lower_bound"])
    assert compare(lower, sympy.sympify(out["objective"]["exact"])) <= 0
    # no worse than Theorem 2 with either zeta
    for zeta in ("1/2", "11/20"):
        th = allocate_budgets(["0.2", "0.2", "2", "2"], 2, "0.1", zeta)
        assert out["objective"]["float"] <= to_float(th.objective) * (1 + 1e-12)
