"""Partial DP paper: Table 1 regenerated symbolically, Thm 11 sensitivities by brute force."""

from __future__ import annotations

import sympy as sp

from bcdp import partial_dp_table1 as t1
from bcdp.tables import REGISTRY


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
