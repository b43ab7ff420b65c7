"""Edge tests of bcdp.partial.concentrated (the eps-nabla-CDP / zCDP accountant of the partial DP
paper, arXiv:2209.04053, Sec. 2, Def. 3 and Sec. 2.1, Def. 6), written against the survivors of the
mutation gate (benchmarks/mutation_gate.py, package partial).

Independent references only:

* binary randomized response with keep-probability 3/4 has D* = eps tanh(eps/2) with eps = log 3
  (Bun and Steinke 2016; the supremum is the limit lambda -> 1+), and tanh(log(3)/2) = (3-1)/(3+1)
  = 1/2, so D* = log(3)/2 exactly: eps = sqrt(log 3) is an exact tie of Def. 6
  (D* = eps^2/2), and eps^2/2 = D* (1 + g) a tie moved by a known relative gap g;
* Def. 6 / Def. 3 applied by brute force over all ordered pairs of datasets differing in one
  record, each D* taken from :func:`bcdp.partial.dstar.d_star` and the function sqrt(2 D*)/k
  evaluated with mpmath at 150 digits;
* exact Fractions and decimal roundings of simple values for the printed numbers.
"""

from __future__ import annotations

import itertools
from decimal import Context
from fractions import Fraction as F

import mpmath
import pytest
import sympy
from bcdp import Mechanism
from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.partial import concentrated
from bcdp.partial.concentrated import (
    INFINITY,
    _half_square,
    eps_enclosure,
    nabla_cdp_holds,
    one_record_pairs,
    per_attribute_cdp_epsilon,
    whole_record_zcdp,
)
from bcdp.partial.dstar import d_star
from bcdp.partial.pure import dataset_domain

P34 = (F(3, 4), F(1, 4))
Q34 = (F(1, 4), F(3, 4))


def rr_n1() -> Mechanism:
    """One record of one bit, released by binary RR with keep-probability 3/4."""
    return Mechanism(dataset_domain([(0, 1)], 1), (0, 1), (P34, Q34))


def parallel_rr_d2() -> Mechanism:
    """One record of two bits, each released by an independent RR(3/4): D* = k log(3)/2 for k
    changed bits (additive over the independent factors, each at its limit lambda -> 1+)."""
    dom = dataset_domain([(0, 1), (0, 1)], 1)
    outs = tuple(itertools.product((0, 1), repeat=2))

    def law(x):
        return {y: (F(3, 4) if y[0] == x[0] else F(1, 4)) * (F(3, 4) if y[1] == x[1] else F(1, 4)) for y in outs}
    return Mechanism.from_function(dom, outs, law)


def xor_rr() -> Mechanism:
    """Two records of one bit; releases RR(3/4) of x_0 XOR x_1, so changing either record swaps the
    two rows: many pairs have bit-identical rows and hence identical D* enclosures (ties)."""
    dom = dataset_domain([(0, 1)], 2)
    return Mechanism.from_function(dom, (0, 1), lambda x: dict(zip((0, 1), P34 if x[0] == x[1] else Q34)))


def record1_exact() -> Mechanism:
    """Two records of one bit; releases record 1 exactly: changing record 1 gives D* = inf,
    changing record 0 gives D* = 0."""
    dom = dataset_domain([(0, 1)], 2)
    return Mechanism.from_function(dom, (0, 1), lambda x: {x[1]: 1})


def brute_pairs(mech: Mechanism, n: int, d: int) -> list[tuple[int, int, int, int]]:
    """All ordered pairs (record i, a, b, k) of distinct datasets differing in exactly one record
    i, k the number of differing attributes, by brute force over all pairs of points."""
    pts = mech.domain.points
    out = []
    for a, b in itertools.permutations(range(len(pts)), 2):
        recs = [i for i in range(n) if pts[a][i * d:(i + 1) * d] != pts[b][i * d:(i + 1) * d]]
        if len(recs) == 1:
            i = recs[0]
            out.append((i, a, b, sum(u != v for u, v in zip(pts[a][i * d:(i + 1) * d], pts[b][i * d:(i + 1) * d]))))
    return out


def log3_over_2(gap=0):
    """sqrt(2 D* (1 + gap)) for RR(3/4) written with tanh, a form the arb evaluator does not know
    (so eps_enclosure takes its evalf branch): eps^2/2 = D* (1 + gap) exactly."""
    L = sympy.log(3)
    return sympy.sqrt(2 * L * sympy.tanh(L / 2) * (1 + gap))


# -- one_record_pairs ----------------------------------------------------------------------------

@pytest.mark.parametrize("mech,n,d", [(xor_rr(), 2, 1), (parallel_rr_d2(), 1, 2), (record1_exact(), 2, 1)])
def test_one_record_pairs_are_all_pairs_differing_in_one_record(mech, n, d):
    got = list(one_record_pairs(mech, n, d))
    assert sorted(got) == sorted(brute_pairs(mech, n, d)) and len(got) == len(set(got)) > 0


# -- the accountant: ends, witnesses, edge results -----------------------------------------------------

def _oracle_max(mech, n, d, fn, dps, rel_tol="1e-20"):
    """max over brute-force pairs of fn(D* end, k) for both ends (150 digits) and the first pair
    (in one_record_pairs order) attaining the largest lower end."""
    with mpmath.workdps(150):
        rows = [(p, fn(d_star(mech.kernel[p[1]], mech.kernel[p[2]], rel_tol, dps).lower, p[3]),
                 fn(d_star(mech.kernel[p[1]], mech.kernel[p[2]], rel_tol, dps).upper, p[3]))
                for p in one_record_pairs(mech, n, d)]
        lo = max(r[1] for r in rows)
        hi = max(r[2] for r in rows)
    first = next(r[0] for r in rows if r[1] == lo)
    return lo, hi, first, rows


def _sqrt2_over_k(x, k):
    return mpmath.sqrt(2 * x) / k


@pytest.mark.parametrize("dps", [50, 70])
def test_per_attribute_eps0_ends_are_outward_and_tight(dps):
    """Def. 6: eps0 = max sqrt(2 D*)/k; each end is the D* end's sqrt(2 .)/k rounded outward at
    about dps + 15 digits: never inside the exact value, and within 10^-(dps + 10) relative."""
    mech = parallel_rr_d2()
    res = per_attribute_cdp_epsilon(mech, 1, 2, dps=dps)
    lo, hi, first, _ = _oracle_max(mech, 1, 2, _sqrt2_over_k, dps)
    tol = mpmath.mpf(10) ** -(dps + 10)
    with mpmath.workdps(150):
        assert lo * (1 - tol) <= res.lower <= lo and lo != res.lower  # sqrt rounding is inexact here
        assert hi <= res.upper <= hi * (1 + tol)
        # and the value: eps0 = sqrt(2 D*(k=1)) = sqrt(log 3) (the k = 2 pairs give sqrt(4 c)/2, the same)
        assert res.lower <= mpmath.sqrt(mpmath.log(3)) <= res.upper
    assert res.witness["hamming"] in (1, 2) and res.exact is None


def test_witness_is_the_first_pair_with_the_largest_lower_end():
    """With ties (bit-identical rows, hence identical D* enclosures) the witness is the first pair,
    in the order of one_record_pairs, whose lower end is the largest."""
    mech = xor_rr()
    for fn, acc in ((lambda x, k: x, whole_record_zcdp), (_sqrt2_over_k, per_attribute_cdp_epsilon)):
        res = acc(mech, 2, 1)
        lo, hi, (i, a, b, k), rows = _oracle_max(mech, 2, 1, fn, 50)
        assert sum(r[1] == lo for r in rows) >= 2  # a real tie
        pts = mech.domain.points
        assert res.witness["record"] == i and res.witness["hamming"] == k == 1
        assert res.witness["x"] == ((pts[a][0],), (pts[a][1],)) and res.witness["x_prime"] == ((pts[b][0],), (pts[b][1],))
        with mpmath.workdps(150):
            assert res.lower <= lo and hi <= res.upper
        assert res.exact is None


def rr_times_record1() -> Mechanism:
    """Two records of one bit: outputs (y0, y1) with y0 ~ RR(3/4) of x_0 and y1 ~ U = (1/2, 1/2)
    if x_1 = 0, V = (1/3, 2/3) if x_1 = 1.  Changing record 0 gives D*(P x W || Q x W) =
    D*(P || Q) = log(3)/2 for both W (D_lambda adds over products, D*(W || W) = 0), computed on
    different rows; changing record 1 gives D*(U || V) < log(3)/2."""
    dom = dataset_domain([(0, 1)], 2)
    outs = tuple(itertools.product((0, 1), repeat=2))
    second = {0: (F(1, 2), F(1, 2)), 1: (F(1, 3), F(2, 3))}

    def law(x):
        first = P34 if x[0] == 0 else Q34
        return {y: first[y[0]] * second[x[1]][y[1]] for y in outs}
    return Mechanism.from_function(dom, outs, law)


def test_upper_end_is_the_max_over_all_pairs_of_the_upper_ends():
    """The enclosure's upper end is the largest upper end over all pairs, also when it belongs to a
    pair whose lower end is not the largest (the pairs of equal D* = log(3)/2 are enclosed on
    different rows, so their ends differ in the last digits)."""
    mech = rr_times_record1()
    res = whole_record_zcdp(mech, 2, 1)
    lo, hi, first, rows = _oracle_max(mech, 2, 1, lambda x, k: x, 50)
    first_hi = next(r[2] for r in rows if r[0] == first)
    assert first_hi < hi  # the largest upper end is not the witness pair's: the case under test
    assert res.lower == lo and res.upper == hi
    with mpmath.workdps(150):
        assert res.lower <= mpmath.log(3) / 2 <= res.upper


@pytest.mark.parametrize("acc,prov", [(whole_record_zcdp, concentrated.PROVENANCE_RHO),
                                      (per_attribute_cdp_epsilon, concentrated.PROVENANCE_EPS0)])
def test_infinite_result_is_exact_with_its_witness(acc, prov):
    res = acc(record1_exact(), 2, 1)
    assert res.lower == res.upper == res.exact == INFINITY and res.is_infinite
    assert res.provenance == prov
    w = res.witness
    assert w["record"] == 1 and w["hamming"] == 1
    assert w["x"][0] == w["x_prime"][0] and w["x"][1] != w["x_prime"][1]
    assert w["d_star"]["lower"] == w["d_star"]["upper"] == "inf"


@pytest.mark.parametrize("acc", [whole_record_zcdp, per_attribute_cdp_epsilon])
def test_no_pairs_gives_exactly_zero_and_pairs_give_no_exact(acc):
    one = acc(rr_n1(), 1, 1, inputs=[(0,)])
    assert one.lower == one.upper == one.exact == 0 and one.witness is None
    two = acc(rr_n1(), 1, 1)
    assert two.exact is None and two.lower > 0


def test_finer_tolerance_at_higher_dps_is_met():
    """rel_tol 1e-70 needs dps >= ~85: the accountant passes dps on to D*."""
    res = whole_record_zcdp(rr_n1(), 1, 1, rel_tol="1e-70", dps=90)
    with mpmath.workdps(150):
        truth = mpmath.log(3) / 2
        assert res.lower <= truth <= res.upper
        assert res.upper - res.lower <= truth * mpmath.mpf(10) ** -70


@pytest.mark.parametrize("call", [
    lambda: per_attribute_cdp_epsilon(rr_n1(), 1, 1, dps=10),
    lambda: whole_record_zcdp(rr_n1(), 1, 1, dps=10),
    lambda: nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: 1, dps=10),
])
def test_precision_errors_name_dps(call):
    with pytest.raises(InvalidInputError, match=r"^dps must be an integer in \[50, "):
        call()


# -- eps_enclosure -----------------------------------------------------------------------------------

def test_eps_enclosure_bits_and_names():
    with pytest.raises(InvalidInputError, match=r"^bits must be an integer in \["):
        eps_enclosure(1, "(x)", 10)
    with pytest.raises(InvalidInputError, match=r"^eps_fn\(\[0\], \[1\]\): cannot read"):
        eps_enclosure("abc", "([0], [1])", 100)


@pytest.mark.parametrize("zero", [0, F(0), "0", mpmath.mpf(0)])
def test_eps_zero_is_accepted_as_the_point_zero(zero):
    assert eps_enclosure(zero, "", 100) == (0, 0)


@pytest.mark.parametrize("bits", [64, 200, 1000, 4000])
def test_evalf_branch_encloses_with_the_documented_margin(bits):
    """pi is not a form of the arb evaluator: evalf at digits + 10 digits widened by
    10^-(digits - 10) relative, digits = floor(bits / 3.33) decimal digits of ``bits`` bits.  The
    enclosure must contain pi (mpmath at 1400 digits), be that wide (to 1%), and be centred on
    pi to 10^-(digits + 5)."""
    digits = int(bits / F(333, 100))
    lo, hi = eps_enclosure(sympy.pi, "", bits)
    with mpmath.workdps(1400):
        pi = +mpmath.pi
        assert lo <= pi <= hi
        rel = (hi - lo) / (2 * pi) / mpmath.mpf(10) ** -(digits - 10)
        assert mpmath.mpf("0.99") <= rel <= mpmath.mpf("1.01")
        assert abs((lo + hi) / 2 - pi) <= pi * mpmath.mpf(10) ** -(digits + 5)


# -- _half_square ------------------------------------------------------------------------------------

def Fx(x) -> F:
    """The exact value of a finite mpf (mantissa * 2^exponent) as a Fraction."""
    man, exp = x.man_exp  # no re-rounding at the current precision
    return F(int(man)) * F(2) ** int(exp)

def test_half_square_ends_are_the_squares_of_the_ends():
    """eps^2/2 is increasing for eps >= 0: the enclosure of eps in [lo, hi] is [lo^2/2, hi^2/2]
    rounded outward (exact Fractions here, 2^-90 relative slack at 100 bits)."""
    slack = F(1, 2 ** 90)
    for lo, hi in ((F(0), F(1)), (F(1, 2), F(3, 4)), (F(0), F(0)), (F(5, 4), F(7, 3))):
        with mpmath.workdps(60):
            enc = (mpmath.mpf(lo.numerator) / lo.denominator, mpmath.mpf(hi.numerator) / hi.denominator)
        exact_lo, exact_hi = Fx(enc[0]) ** 2 / 2, Fx(enc[1]) ** 2 / 2
        b = _half_square(enc, 100)
        assert exact_lo * (1 - slack) <= Fx(b.lower) <= exact_lo
        assert exact_hi <= Fx(b.upper) <= exact_hi * (1 + slack)


def test_half_square_lower_end_is_rounded_down_when_the_square_is_inexact():
    with mpmath.workdps(60):
        x = mpmath.mpf(1) / 3  # ~200 mantissa bits: its square is inexact at 64 bits
    b = _half_square((x, x), 64)
    assert Fx(b.lower) < Fx(x) ** 2 / 2 < Fx(b.upper)


def test_half_square_of_an_enclosure_around_zero_is_tight_above():
    """An enclosure reaching below 0: the sup of eps^2/2 over it is max(lo^2, hi^2)/2 (here 1/8),
    the upper end (arb's square of the hull is tight at its top up to the 30-bit radius); the lower end is <= 0 = the inf."""
    b = _half_square((mpmath.mpf(-0.25), mpmath.mpf(0.5)), 100)
    assert F(1, 8) <= Fx(b.upper) <= F(1, 8) * (1 + F(1, 2 ** 25)) and b.lower <= 0


# -- nabla_cdp_holds -----------------------------------------------------------------------------------

@pytest.mark.parametrize("eps", [sympy.sqrt(sympy.log(3)), log3_over_2()])
def test_exact_tie_is_undecided(eps):
    """D* = log(3)/2 = eps^2/2: neither holds nor a violation (never a guess)."""
    res = nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: eps)
    assert res.holds is False and res.violation is None and len(res.undecided) == 2 and res.pairs_checked == 2
    assert res.undecided[0]["record"] == 0


@pytest.mark.parametrize("dps,gap", [(50, sympy.Rational(15, 10 ** 36)), (80, sympy.Rational(1, 10 ** 62))])
def test_near_tie_is_decided_at_the_finest_tolerance(dps, gap):
    """eps^2/2 = D* (1 +- gap), gap just above the finest D* tolerance 1e-(dps - 15): decided both
    ways (the eps enclosure of the evalf branch is ~1e-(dps + 5) wide at this precision)."""
    ok = nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: log3_over_2(gap), dps=dps)
    assert ok.holds is True and ok.undecided == [] and ok.violation is None and ok.pairs_checked == 2
    bad = nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: log3_over_2(-gap), dps=dps)
    assert bad.holds is False and bad.violation is not None and bad.undecided == [] and bad.pairs_checked == 1


def test_violation_result_fields():
    """eps = 1/3 < sqrt(log 3): the first pair violates; its witness prints eps^2/2 = 1/18 to 40
    significant digits."""
    res = nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: F(1, 3))
    assert res.holds is False and res.undecided == [] and res.pairs_checked == 1
    w = res.violation
    assert w["record"] == 0 and w["hamming"] == 1 and w["x"] == ((0,),) and w["x_prime"] == ((1,),)
    assert w["bound"] == str(Context(prec=40).divide(1, 18))
    zero = nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: 0)
    assert zero.holds is False and zero.pairs_checked == 1
    const = Mechanism(dataset_domain([(0, 1)], 1), (0, 1), (P34, P34))
    assert nabla_cdp_holds(const, 1, 1, lambda r, s: 0).holds is True


def test_infinite_eps_pairs_are_skipped_not_the_end():
    """eps = inf for one changed bit (no constraint), tiny for two: the two-bit pairs still violate."""
    mech = parallel_rr_d2()
    res = nabla_cdp_holds(mech, 1, 2, lambda r, s: INFINITY if sum(u != v for u, v in zip(r, s)) == 1 else F(1, 100))
    assert res.holds is False and res.violation["hamming"] == 2
    every = nabla_cdp_holds(mech, 1, 2, lambda r, s: INFINITY)
    assert every.holds is True and every.pairs_checked == len(brute_pairs(mech, 1, 2)) == 12


def test_inputs_restrict_the_pairs():
    """Only the listed datasets are compared: without the two-bit pairs the tiny bound is never used."""
    mech = parallel_rr_d2()
    fn = lambda r, s: sympy.log(3) if sum(u != v for u, v in zip(r, s)) == 1 else F(1, 100)  # noqa: E731
    assert nabla_cdp_holds(mech, 1, 2, fn).holds is False
    res = nabla_cdp_holds(mech, 1, 2, fn, inputs=[((0, 0),), ((0, 1),)])
    assert res.holds is True and res.pairs_checked == 2


def test_eps_fn_gets_the_two_differing_records():
    calls = []

    def fn(r, s):
        calls.append((r, s))
        return 2
    assert nabla_cdp_holds(xor_rr(), 2, 1, fn).holds
    expected = [((xor_rr().domain.points[a][i],), (xor_rr().domain.points[b][i],)) for i, a, b, _ in brute_pairs(xor_rr(), 2, 1)]
    assert sorted(calls) == sorted(expected + [(s, r) for r, s in expected])


def test_errors_name_the_records_in_call_order():
    with pytest.raises(FloatRefusedError, match=r"^eps_fn\(\[1\], \[0\]\) returned a float"):
        nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: 0.5 if r > s else 1)
    with pytest.raises(FloatRefusedError, match=r"^eps_fn\(\[0\], \[1\]\) returned a float"):
        nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: 0.5 if r < s else 1)


def test_asymmetric_eps_fn_message_shows_both_values():
    """Each side shown by the midpoint of its enclosure to 20 significant digits, inf as 'inf'."""
    third, two_thirds = (str(Context(prec=20).divide(k, 3)) for k in (1, 2))
    with pytest.raises(InvalidInputError, match=rf"^eps_fn is not symmetric on \[0\], \[1\]: {third} vs {two_thirds}$"):
        nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: F(1, 3) if r < s else F(2, 3))
    with pytest.raises(InvalidInputError, match=r"^eps_fn is not symmetric on \[0\], \[1\]: inf vs 1\.0$"):
        nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: INFINITY if r < s else 1)
    with pytest.raises(InvalidInputError, match=r"^eps_fn is not symmetric on \[0\], \[1\]: 1\.0 vs inf$"):
        nabla_cdp_holds(rr_n1(), 1, 1, lambda r, s: 1 if r < s else INFINITY)

