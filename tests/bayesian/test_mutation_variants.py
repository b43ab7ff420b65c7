"""The documented formula variants of :mod:`bcdp.bayesian.variants` pinned against an mpmath (60 digits)
evaluation of eq. (16) of the BCDP paper (Theorem 2) with the *strict* case split, written out below
from the printed equation (not from the library's code):

    delta~_i = min{delta_i, eps} (sorted non-decreasingly),
    c_d = min{ log((e^{zeta delta~_1} + q - 1)/q), delta~_d }     (q = 0: the log term is +infinity),
    c_i = c_d                                   if c_d < delta~_i   (the paper has <=),
    c_i = delta~_i - log(1 + q e^{c_d} - q)     otherwise            (i < d).

Each case exercises one branch: q = 0, the log term attaining the min, delta~_d attaining it, the cap at
eps, the strict tie at q = zeta = 1; unsorted demands check the map back to the caller's order.  The
input policy (the parameter named in the one-line error) is the documented contract of
:func:`bcdp.core.numbers.to_float_input` / :func:`bcdp.bayesian.exact_inputs.exact_expr`.

Written to kill the survivors of the mutation gate (benchmarks/mutation_gate.py).
"""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy
from bcdp.bayesian import variants
from bcdp.core.errors import FloatRefusedError, InvalidInputError

ORACLE_DPS = 60
R = sympy.Rational


def eq16_strict(delta, eps, q, zeta) -> list:
    """eq. (16) with the strict test, at ORACLE_DPS digits, in the caller's order (inputs: strings)."""
    with mpmath.workdps(ORACLE_DPS):
        mp = lambda v: mpmath.mpf(sympy.Rational(v).p) / sympy.Rational(v).q
        e, qq, z = mp(eps), mp(q), mp(zeta)
        order = sorted(range(len(delta)), key=lambda i: (sympy.Rational(delta[i]), i))
        t = [min(mp(delta[i]), e) for i in order]
        if qq == 0:
            c_d = t[-1]
        elif qq == 1:   # log(e^{zeta delta~_1}) = zeta delta~_1 exactly: the ties of q = 1 stay exact
            c_d = min(z * t[0], t[-1])
        else:
            c_d = min(mpmath.log((mpmath.exp(z * t[0]) + qq - 1) / qq), t[-1])
        cs = [c_d if (k == len(t) - 1 or c_d < t[k]) else t[k] - mpmath.log(1 + qq * mpmath.exp(c_d) - qq)
              for k in range(len(t))]
        out = [None] * len(t)
        for k, i in enumerate(order):
            out[i] = cs[k]
        return out


def _close(exact, ref) -> bool:
    """An exact sympy value within 1e-45 of an oracle value (both at ORACLE_DPS digits)."""
    with mpmath.workdps(ORACLE_DPS):
        return abs(mpmath.mpf(str(sympy.N(exact, 55))) - ref) < mpmath.mpf(10) ** -45


# (delta, eps, q, zeta): each kills a different branch (see the module docstring)
CASES = [
    (["1/10", "1/2", "9/10"], "2", "0", "1/2"),        # q = 0: c = delta~
    (["1/5", "1", "2"], "3", "3/10", "1/2"),          # the log term is c_d (about 0.30); c_1 = (1 - zeta) delta_1
    (["1", "3/2", "2"], "5/2", "1/10", "1"),          # delta~_d is c_d (log term about 2.9); c_i < delta~_i
    (["1/5", "3"], "1", "1/10", "1"),                 # delta_2 capped at eps = 1 (log term about 1.17)
    (["1/5", "1/5", "2"], "2", "1", "1"),             # strict tie: c_d = 1/5 = delta~_1, so c_1 = c_2 = 0
]


@pytest.mark.parametrize("case", CASES)
def test_exact_strict_matches_eq16_strict(case):
    delta, eps, q, zeta = case
    got = variants.allocation_exact_strict(delta, eps, q, zeta)
    want = eq16_strict(delta, eps, q, zeta)
    assert all(_close(g, w) for g, w in zip(got.c, want, strict=True))
    # the record of the call: exact inputs, the method label, the stable sorting order
    assert got.delta == tuple(R(v) for v in delta)
    assert (got.eps, got.q, got.zeta) == (R(eps), R(q), R(zeta))
    assert got.method == "theorem2-strict"
    assert got.order == tuple(sorted(range(len(delta)), key=lambda i: (R(delta[i]), i)))


def test_exact_strict_maps_back_to_the_callers_order():
    delta = ["2", "1/5", "1"]
    got = variants.allocation_exact_strict(delta, 3, "3/10", "1/2")
    assert got.order == (1, 2, 0)
    want = eq16_strict(delta, "3", "3/10", "1/2")
    assert all(_close(g, w) for g, w in zip(got.c, want, strict=True))
    # c_sorted reads c through order: non-decreasing
    assert [sympy.N(v, 30) for v in got.c_sorted] == sorted(sympy.N(v, 30) for v in got.c)
    assert got.c[1] == R(1, 10)                       # (1 - zeta) delta_1 at the smallest demand


@pytest.mark.parametrize("case", CASES)
def test_public_code_float_matches_eq16_strict(case):
    delta, eps, q, zeta = case
    fl = lambda v: float(sympy.Rational(v))
    got = variants.allocation_public_code_float([fl(v) for v in delta], fl(eps), fl(q), fl(zeta))
    want = eq16_strict(delta, eps, q, zeta)
    if case[2] == "1" and case[3] == "1":
        # the tie: float64 lands one rounding error below 1/5 and takes c_d (the module docstring)
        assert got[0] == got[-1] and got[-1] < 0.2
        return
    assert got == pytest.approx([float(w) for w in want], rel=1e-12, abs=1e-15)


def test_exact_strict_refuses_a_float_zeta_naming_it():
    with pytest.raises(FloatRefusedError, match=r"^zeta: floats are refused"):
        variants.allocation_exact_strict(["1"], 1, 1, 0.5)


@pytest.mark.parametrize(("args", "pattern"), [
    (([1.0], math.nan, 1.0, 1.0), r"^eps: NaN"),
    (([1.0, math.nan], 1.0, 1.0, 1.0), r"^delta\[1\]: NaN"),
    (([1.0], 1.0, "x", 1.0), r"^q: cannot read"),
    (([1.0], 1.0, 1.0, math.nan), r"^zeta: NaN"),
])
def test_public_code_float_names_the_bad_parameter(args, pattern):
    with pytest.raises(InvalidInputError, match=pattern):
        variants.allocation_public_code_float(*args)
