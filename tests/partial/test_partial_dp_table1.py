"""Partial DP paper: Table 1 regenerated symbolically, Thm 11 sensitivities by brute force."""

from __future__ import annotations

import sympy as sp
from bcdp.partial import table1 as t1
from bcdp.repro.tables import REGISTRY


def test_registered_and_every_row_names_a_source():
    table = REGISTRY["partial_dp_table1"]()
    assert table.header[2] == "source theorem"
    assert len(table.rows) == 8
    assert all(r[2] for r in table.rows)
    assert {r[1] for r in table.rows} == {"standard", "partial"}


def test_derived_rows_agree_with_printed_table():
    for row in t1.rows():
        if row.combine != "cited":
            assert t1.row_consistent(row), row.task


def test_solve_for_n_inverts_the_bound():
    expr = 1 / (t1.eps * t1.n)
    sol = t1.solve_for_n(expr, t1.alpha)
    assert sp.simplify(expr.subs(t1.n, sol) - t1.alpha) == 0


def test_partial_beats_standard_for_marginals():
    # the RMS row: partial/standard of the 1/alpha^2 term is sqrt(k/d) at eps = eps0
    rows = t1.rows()
    std, par = rows[0], rows[1]
    ratio = sp.simplify(par.terms[0].subs(t1.eps0, t1.eps) / std.terms[0])
    assert sp.simplify(ratio - sp.sqrt(t1.k / t1.d)) == 0


# -- Thm 11 sensitivities (bcdp.partial.projection) --------------------------------------------

from math import comb  # noqa: E402

from bcdp.partial.projection import diameters, parity_delta_sq_formula  # noqa: E402


def test_conjunction_diameters_match_paper_small_d():
    for d in range(2, 6):
        for k in range(1, d + 1):
            r = diameters("conjunction", d, k)
            assert r.delta_sq == comb(d, k) and r.delta0_sq == comb(d - 1, k - 1)


def test_parity_even_k_counterexample_by_hand():
    # x = 0000, x' = 1100: parities of pairs {i, j} change iff exactly one of i, j is in {1, 2}
    r = diameters("parity", 4, 2)
    changed = sum(1 for i in range(4) for j in range(i + 1, 4) if (i < 2) != (j < 2))
    assert changed == 4 and r.delta_sq == changed < comb(4, 2)
    assert r.delta0_sq == comb(3, 1)


def test_parity_formula_and_odd_k():
    for d in range(2, 7):
        for k in range(1, d + 1):
            r = diameters("parity", d, k)
            assert r.delta_sq == parity_delta_sq_formula(d, k) <= comb(d, k)
            if k % 2 == 1 or k == d:
                assert r.delta_sq == comb(d, k)


# -- Thm 15 two-stage histogram (bcdp.partial.histogram) ---------------------------------------

from collections import Counter  # noqa: E402

import mpmath as mp  # noqa: E402
from bcdp.partial.histogram import (  # noqa: E402
    corrected_params,
    lemma28_eps,
    max_log_ratio,
    printed_params,
)


def test_corrected_lambda_meets_lemma28_at_half_eps():
    assert mp.almosteq(lemma28_eps(corrected_params(1, mp.mpf(1) / 10, 200)), mp.mpf(1) / 2, 1e-30)
    assert lemma28_eps(printed_params(1, mp.mpf(1) / 10, 200)) > 1


def test_identical_datasets_have_zero_log_ratio():
    x = Counter({"0000": 11, "1011": 189})
    v, _ = max_log_ratio(x, x, printed_params(1, mp.mpf(1) / 10, 200))
    assert abs(v) < mp.mpf(10) ** -30


def test_stage2_adds_at_most_two_over_b2():
    x = Counter({"0000": 11, "1011": 189})
    xp = Counter({"0000": 10, "1000": 1, "1011": 189})
    p = printed_params(1, mp.mpf(1) / 10, 200)
    total, _ = max_log_ratio(x, xp, p)
    stage1, _ = max_log_ratio(x, xp, p, stage2=False)
    assert stage1 < total <= stage1 + 2 / p.b2


def test_histogram_params_refuse_floats():
    """The d = 4 module takes exact parameters (ints, Fractions, strings, mpf); a binary float such as
    0.1 is refused, and the exact 1/10 gives the same constants as the 40-digit mpf 1/10."""
    from fractions import Fraction

    import pytest
    from bcdp.core.errors import FloatRefusedError

    with pytest.raises(FloatRefusedError):
        printed_params(1, 0.1, 200)
    with pytest.raises(FloatRefusedError):
        corrected_params(1.0, Fraction(1, 10), 200)
    with mp.workdps(40):
        a, b = printed_params(1, Fraction(1, 10), 200), printed_params(1, mp.mpf(1) / 10, 200)
        assert abs(a.mu - b.mu) < mp.mpf(10) ** -38 and a.lam == b.lam == 3
