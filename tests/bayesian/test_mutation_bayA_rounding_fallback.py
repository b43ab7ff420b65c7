"""The fallback of bcdp.bayesian.optimal_allocation.optimal_allocation when the rounded point of the
search cannot be certified (step 4 of the module docstring): the returned allocation must then be
piece 0's optimum c = (l_1, ..., l_1), which is always feasible, and stats["rounded_point_certified"]
must say False.

The certification is replaced through the module (search.certify_feasible, as the driver calls it)
by a stub that refuses every point, a fault the real code cannot be made to show on a small instance.
Expected values are worked out by hand: Fig. 3 demands (two 0.2, eight 2), eps = 2, so l_1 = 1/5 and
piece 0 gives F = 10^2 / (1/5)^2 = 2500.  The driver tries the rational rounding with the margins
10^-24, 10^-20, 10^-16 and 10^-12 (attempts 0..3 of rounding.rational_point) and no wider one: a
margin of 10^-8 would throw away up to 1e-8 of the objective, far beyond the < 1e-20 rounding cost
the module docstring states, so a point needing it is left uncertified.
"""

from __future__ import annotations

import sympy
from bcdp.bayesian.optimal_allocation import search

FIG3 = ["0.2", "0.2"] + ["2"] * 8


def test_uncertified_rounding_falls_back_to_piece0(monkeypatch):
    calls = []

    def refuse(c_sorted, tilde_sorted, eps, q):
        calls.append(list(c_sorted))
        return False

    monkeypatch.setattr(search, "certify_feasible", refuse)
    res = search.optimal_allocation(FIG3, "2", "0.1")
    assert res.allocation.c == (sympy.Rational(1, 5),) * 10
    assert res.objective_upper == 2500
    assert res.stats["rounded_point_certified"] is False
    assert res.stats["t"] == "1/5"
    # the lower bound does not depend on the rounding: still below the optimum (< 2500)
    assert res.lower_bound < 2500
    assert len(calls) == 4
    # each attempt rounds the same search point, the active bounds down by a growing margin
    assert all(len(c) == 10 for c in calls)


def test_rounding_accepted_only_at_a_fifth_attempt_is_not_used(monkeypatch):
    real = search.certify_feasible
    calls = []

    def late(c_sorted, tilde_sorted, eps, q):
        calls.append(1)
        return len(calls) >= 5 and real(c_sorted, tilde_sorted, eps, q)

    monkeypatch.setattr(search, "certify_feasible", late)
    res = search.optimal_allocation(FIG3, "2", "0.01")
    assert res.allocation.c == (sympy.Rational(1, 5),) * 10
    assert res.stats["rounded_point_certified"] is False
    assert len(calls) == 4
