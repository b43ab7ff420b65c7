"""Example 1 of the BCDP paper worked out symbolically with sympy, independently of the engine.

Table of Example 1 (BCDP paper, Sec. 3.3): P{M(x) = 1 | x}, columns x_1, rows x_2::

              x1 = 0   x1 = 1
    x2 = 0      a        b
    x2 = 1      0        c

x_1, x_2 i.i.d. Bern(1/2).  Eq. (9) with the uniform prior gives, for v in {0, 1},
P{M = y | x_i = v} = (1/2) sum_{x_-i} P{M = y | x}; these four-by-two laws are built here by hand
from the table, and delta_i is the log of the largest ratio of two entries in the same column y
(R1-R2 of notions.py; checked against the literal definition in lemma_finite_reductions).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy
from bcdp.core.numbers import INFINITY

a, b, c = sympy.symbols("a b c", positive=True)
SYMBOLS = (a, b, c)
#: "a = 1", "b = 1", "c = 1" as boolean atoms for the zero sets of the laws on (0, 1]^3
IS_ONE = {a: sympy.Symbol("a_eq_1"), b: sympy.Symbol("b_eq_1"), c: sympy.Symbol("c_eq_1")}

TABLE = {(0, 0): a, (1, 0): b, (0, 1): sympy.Integer(0), (1, 1): c}  # keys (x1, x2)
HALF = sympy.Rational(1, 2)


def p_output(y: int, x: tuple[int, int]) -> sympy.Expr:
    return TABLE[x] if y == 1 else 1 - TABLE[x]


def conditional_laws(i: int) -> dict[int, tuple[sympy.Expr, sympy.Expr]]:
    """{v: (P{M=0 | x_i=v}, P{M=1 | x_i=v})} for coordinate i in {0, 1} (0-based)."""
    out = {}
    for v in (0, 1):
        xs = [x for x in itertools.product((0, 1), repeat=2) if x[i] == v]
        out[v] = tuple(sympy.expand(sum(HALF * p_output(y, x) for x in xs)) for y in (0, 1))
    return out


def ratio_pairs(i: int) -> list[tuple[sympy.Expr, sympy.Expr]]:
    """(numerator, denominator) for every output y and ordered pair v != v'."""
    laws = conditional_laws(i)
    return [(laws[v][y], laws[w][y]) for y in (0, 1) for v, w in ((0, 1), (1, 0))]


def delta_symbolic(i: int) -> sympy.Expr:
    """delta_i(a, b, c) as a symbolic maximum of log-ratios (valid where no denominator vanishes)."""
    return sympy.Max(*[sympy.log(n / d) for n, d in ratio_pairs(i)])


def delta_ratio_at(i: int, values: dict) -> Fraction | float:
    """exp(delta_i) at a rational point, from the symbolic laws (zero denominators handled)."""
    best: Fraction | float = Fraction(1)
    for n, d in ratio_pairs(i):
        nv, dv = sympy.Rational(n.subs(values)), sympy.Rational(d.subs(values))
        if dv == 0:
            if nv > 0:
                return INFINITY
            continue
        r = Fraction(int((nv / dv).p), int((nv / dv).q))
        best = max(best, r)
    return best


def zero_condition(expr: sympy.Expr) -> sympy.Basic:
    """Boolean condition (over the atoms IS_ONE) for ``expr`` = 0 on the box (0, 1]^3.

    ``expr`` is affine: k0 + sum_j k_j t_j.  Writing t_j = 1 - s_j for k_j < 0 gives
    k0' + sum_{k_j > 0} k_j t_j + sum_{k_j < 0} |k_j| s_j with t_j in (0, 1], s_j in [0, 1) and
    k0' = k0 + sum_{k_j < 0} k_j.  So expr >= 0 on the box iff k0' >= 0, and expr = 0 exactly when
    k0' = 0, no k_j is positive, and every s_j = 0, i.e. t_j = 1 for each k_j < 0.
    """
    poly = sympy.Poly(expr, *SYMBOLS)
    if poly.total_degree() > 1:
        raise ValueError(f"{expr} is not affine")
    coeffs = {s: poly.coeff_monomial(s) for s in SYMBOLS}
    k0 = poly.coeff_monomial(1)
    shifted = k0 + sum((k for k in coeffs.values() if k < 0), sympy.Integer(0))
    if shifted < 0:
        raise ValueError(f"{expr} is negative somewhere on (0, 1]^3: not a probability")
    if shifted > 0 or any(k > 0 for k in coeffs.values()):
        return sympy.false
    return sympy.And(*[IS_ONE[s] for s, k in coeffs.items() if k < 0])


def infinite_condition(i: int) -> sympy.Basic:
    """delta_i = infinity iff in some column y exactly one of the two laws vanishes."""
    laws = conditional_laws(i)
    cond = sympy.Or(*[sympy.Xor(zero_condition(laws[0][y]), zero_condition(laws[1][y])) for y in (0, 1)])
    return sympy.simplify_logic(cond)


def evaluate_condition(cond: sympy.Basic, values: dict) -> bool:
    env = {IS_ONE[s]: sympy.true if values[s] == 1 else sympy.false for s in SYMBOLS}
    return bool(cond.subs(env))
