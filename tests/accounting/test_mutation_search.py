"""The float search over the Renyi order (bcdp.accounting.search: _log_grid, _real_search through
search_alpha and rdp_to_dp) against its documented contract and an independent 60-digit
minimisation of the printed conversions of r(alpha) = rho alpha (Mironov 2017, Prop. 3; Canonne,
Kamath & Steinke 2020, Prop. 12): the grid density (POINTS_PER_DECADE points per decade, ends
included), the integer orders 2..INTEGER_GRID_MAX added to a search without a centre, the centre of
the initial window, the extension of the window to the float limits, the refinement between the
neighbours of the best grid point (to 1e-13 of the optimum) and the ``at_boundary`` flag (True only
at a limit the search could not pass).  Written to kill the survivors of the mutation gate
(benchmarks/mutation_gate.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest
from bcdp.accounting import search as se
from bcdp.accounting.conversion import rdp_to_dp, zcdp_rdp
from bcdp.accounting.curves import rdp_curve_from_arrays, rdp_curve_from_callable
from bcdp.core.errors import InvalidInputError
from minimisers import golden_section_min

DPS = 60


def M(x) -> mp.mpf:
    q = Fraction(x)
    return mp.mpf(q.numerator) / q.denominator


def printed(method, rho, u, delta):
    """The printed conversion of rho alpha at alpha = 1 + u (written in u = alpha - 1 so that
    alpha - 1 keeps its digits near alpha = 1)."""
    L = -mp.log(delta)
    a = 1 + u
    if method == "mironov":
        return rho * a + L / u
    return rho * a - mp.log1p(1 / u) + (L - mp.log1p(u)) / u     # CKS: log(1 - 1/alpha) = -log1p(1/u)


def oracle_min(method, rho, delta):
    """(argmin alpha, min eps) by golden section in s = log(alpha - 1) over [-700, 700], 60 digits."""
    with mp.workdps(DPS):
        R, D = M(rho), M(delta)
        f = lambda s: printed(method, R, mp.exp(s), D)  # noqa: E731
        s, value = golden_section_min(f, -700, 700, 400)
        return 1 + mp.exp(s), value


def value_at(method, rho, alpha, delta):
    with mp.workdps(DPS):
        return printed(method, M(rho), M(alpha) - 1, M(delta))


# -- the grid ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("lo,hi,per", [(-4.0, 6.0, 60), (-12.0, -4.0, 20), (0.0, 0.01, 60), (1.0, 1.0, 60),
                                       (2.5, 3.0, 7), (-15.5, -4.0, 20), (6.0, 14.0, 20)])
def test_log_grid_is_the_fewest_points_at_the_documented_density(lo, hi, per):
    """Points 10^t, t evenly spaced over [lo, hi], ends included, at most 1/per apart (``per`` points
    per decade) and no more points than that needs (at least the two ends)."""
    grid = se._log_grid(lo, hi, per)
    span = Fraction(hi) - Fraction(lo)
    gaps = -(-span * per // 1)                       # ceil(span * per), exactly
    k = max(2, int(gaps) + 1)
    assert len(grid) == k
    assert grid[0] == pytest.approx(10.0 ** lo, rel=1e-14) and grid[-1] == pytest.approx(10.0 ** hi, rel=1e-14)
    ts = [math.log10(u) for u in grid]
    step = float(span) / (k - 1)
    assert step <= 1 / per * (1 + 1e-12)
    for t0, t1 in zip(ts, ts[1:]):
        assert t1 - t0 == pytest.approx(step, rel=1e-9, abs=1e-12)


# -- which orders are evaluated -------------------------------------------------------------------------

def recording_curve(rho=0.5):
    seen = []

    def value(a):
        seen.append(a)
        return rho * a

    return rdp_curve_from_callable(value), seen


@pytest.mark.parametrize("center", [None, 0.0, -1.0, math.nan, math.inf])
def test_real_search_adds_exactly_the_integer_orders_2_to_256(center):
    """Also with a centre that is not a positive finite order, which is ignored (regression: it
    replaced the default window but dropped the integer orders with it)."""
    curve, seen = recording_curve()
    se.search_alpha(curve, "1e-6", "cks", center=center)
    ints = {a for a in seen if a == int(a) and a <= 400}
    assert set(map(float, range(2, se.INTEGER_GRID_MAX + 1))) <= ints
    assert not ints & {257.0, 258.0}                 # nothing beyond INTEGER_GRID_MAX = 256 is added


def test_integer_orders_stop_at_alpha_max():
    curve, seen = recording_curve()
    se.search_alpha(curve, "1e-6", "cks", alpha_max=50.0)
    ints = {a for a in seen if a == int(a)}
    assert set(map(float, range(2, 51))) <= ints and max(seen) <= 50.0


def test_a_centred_search_adds_no_integer_grid():
    curve, seen = recording_curve()
    se.search_alpha(curve, "1e-6", "cks", center=5.0)
    ints = {a for a in seen if a == int(a) and a <= 256}
    assert len(ints) <= 5                            # only orders of the log grid that happen to be integers


def test_integer_only_curve_is_minimised_over_the_integer_orders():
    """A curve known only at integer orders (inf elsewhere): the search must return the best
    integer order (brute force over 2..2000).  Mironov optima 1 + sqrt(L/rho): rho = 2.2e-4,
    delta = 1e-6: ~251.6 (near the top of the integer grid 2..256); rho = 0.5: ~6.3; rho = 50: ~1.53
    and rho = 5, delta = 0.1: ~1.68 (best integer order 2)."""
    for rho, delta in ((2.2e-4, "1e-6"), (0.5, "1e-6"), (50.0, "1e-6"), (5.0, "0.1")):
        curve = rdp_curve_from_callable(lambda a, r=rho: r * a if a == int(a) else math.inf)
        a, v, _ = se.search_alpha(curve, delta, "mironov")
        with mp.workdps(DPS):
            vals = {k: printed("mironov", M(rho), mp.mpf(k - 1), M(delta)) for k in range(2, 2001)}
        best = min(vals, key=vals.get)
        assert a == float(best), (rho, a, best)
        # with a cap the window reaches the cap at once; the best integer is interior: no boundary
        a, v, at_b = se.search_alpha(curve, delta, "mironov", alpha_max=1000.0)
        assert a == float(best) and at_b is False


# -- the centre of the window -------------------------------------------------------------------------

def two_valleys(a):
    """r(alpha) with its global minimum 0 at alpha - 1 = 1e-10 and a local minimum of about 1/2 near
    alpha - 1 = 10 (inside the default window [1e-4, 1e6], which does not reach the global one)."""
    t = math.log10(a - 1.0)
    return (t + 10) ** 2 * (t - 1) ** 2 / 1000 + (0.0 if t < -5 else 0.5)


def test_a_centre_near_the_global_minimum_finds_it():
    curve = rdp_curve_from_callable(two_valleys)
    delta = "0.999999999999999999999"               # L ~ 1e-21: eps is r(alpha) + ~1e-11 at the minimum
    a, v, at_b = se.search_alpha(curve, delta, "mironov", center=1e-10)
    assert abs((a - 1) / 1e-10 - 1) < 1e-3 and v < 1e-9 and at_b is False
    a0, v0, _ = se.search_alpha(curve, delta, "mironov")            # without a centre: the default window
    assert abs(v0 - 0.5) < 1e-3


@pytest.mark.parametrize("center", [0.0, -1.0, math.inf, math.nan])
def test_a_centre_that_is_not_a_positive_finite_order_does_not_break_the_search(center):
    """Such a centre is not used to place the window (log10 of it is not taken): the default window
    is searched and the optimum found."""
    a, v, at_b = se.search_alpha(zcdp_rdp("0.5"), "1e-6", "cks", center=center)
    a_star, e_min = oracle_min("cks", "0.5", "1e-6")
    assert abs(M(a) - a_star) <= mp.mpf(10) ** -5 * a_star and at_b is False
    assert abs(M(v) - e_min) <= mp.mpf(10) ** -14 * e_min


# -- extension, refinement, boundary -----------------------------------------------------------------

@pytest.mark.parametrize("method", ["mironov", "cks"])
@pytest.mark.parametrize("rho,delta", [("0.5", "1e-6"), ("1e-3", "1e-10"), ("30", "0.25")])
def test_generic_search_reaches_the_60_digit_minimum(method, rho, delta):
    res = rdp_to_dp(zcdp_rdp(rho), delta, method)
    a_star, e_min = oracle_min(method, rho, delta)
    assert e_min <= M(res.upper) <= e_min * (1 + mp.mpf(10) ** -13)
    assert abs(M(res.alpha_star) - a_star) <= mp.mpf(10) ** -5 * a_star
    assert res.alpha_at_search_boundary is False and res.notes == ()


@pytest.mark.parametrize("rho", ["1.4e29", "1e-590"])
def test_an_interior_optimum_after_extension_to_a_float_limit_is_not_at_the_boundary(rho):
    """Mironov optimum alpha - 1 = sqrt(L/rho), L = log(1e6): ~1e-14 (the window is extended down to
    2^-52) and ~3.7e295 (extended up to 1e300); both interior: no boundary flag, no note."""
    res = rdp_to_dp(zcdp_rdp(rho), "1e-6", "mironov")
    a_star, e_min = oracle_min("mironov", rho, "1e-6")
    # near alpha = 1 the orders are the floats 1 + k 2^-52 and the float objective rho alpha + L/u
    # (rho alpha ~ 1.4e29) resolves u only to a few of them
    assert abs(M(res.alpha_star) - a_star) <= mp.mpf(10) ** -4 * (a_star - 1) + 4 * mp.mpf(2) ** -52
    assert e_min <= M(res.upper) <= e_min * (1 + mp.mpf(10) ** -9)
    assert res.alpha_at_search_boundary is False and res.notes == ()


def test_a_cap_just_above_the_optimum_is_refined_into_the_interior():
    """rho = 1/2, delta = 1e-6, Mironov: optimum alpha = 1 + sqrt(2 log 1e6) ~ 6.2565.  With
    alpha_max = 6.3 the best grid point is the cap itself; the refinement between it and its
    neighbour finds the interior optimum, which is not at the boundary."""
    res = rdp_to_dp(zcdp_rdp("0.5"), "1e-6", "mironov", alpha_max=6.3)
    a_star, e_min = oracle_min("mironov", "0.5", "1e-6")
    assert abs(M(res.alpha_star) - a_star) <= mp.mpf(10) ** -6 * a_star
    assert e_min <= M(res.upper) <= e_min * (1 + mp.mpf(10) ** -13)
    assert res.alpha_at_search_boundary is False and res.notes == ()


@pytest.mark.parametrize("cap", [1.00005, 1.0000001])
def test_a_cap_below_the_default_window_is_searched(cap):
    """alpha_max - 1 below 1e-4 (the start of the default window): the window is the whole allowed
    range and the best order is the cap (the conversion decreases up to the optimum ~ 6.26)."""
    res = rdp_to_dp(zcdp_rdp("0.5"), "1e-6", "mironov", alpha_max=cap)
    assert res.alpha_star == cap and res.alpha_at_search_boundary is True
    exact = value_at("mironov", "0.5", cap, "1e-6")
    assert exact <= M(res.upper) <= exact * (1 + mp.mpf(10) ** -14)


def test_a_single_order_range():
    """alpha_max = 1 + 2^-52: the only order is the first float above 1."""
    a, v, at_b = se.search_alpha(zcdp_rdp("0.5"), "1e-6", "mironov", alpha_max=1 + 2.0 ** -52)
    assert a == 1 + 2.0 ** -52 and at_b is True
    assert v == pytest.approx(float(value_at("mironov", "0.5", a, "1e-6")), rel=1e-15)


# -- search_alpha: defaults, validation, the Asoodeh range, explicit and integer orders ------------------

def test_search_alpha_default_method_is_cks():
    curve = zcdp_rdp("0.5")
    a, v, at_b = se.search_alpha(curve, "1e-6")
    assert (a, v, at_b) == se.search_alpha(curve, "1e-6", "cks")
    a_star, e_min = oracle_min("cks", "0.5", "1e-6")
    assert abs(M(v) - e_min) <= mp.mpf(10) ** -14 * e_min


@pytest.mark.parametrize("bad", [1, 1.0, 0.5, math.inf, math.nan])
def test_search_alpha_alpha_max_must_be_a_finite_real_above_one(bad):
    with pytest.raises(InvalidInputError, match="^alpha_max must be a finite real > 1"):
        se.search_alpha(zcdp_rdp("0.5"), "1e-6", "cks", alpha_max=bad)


def test_search_alpha_accepts_a_cap_between_one_and_two():
    a, v, at_b = se.search_alpha(zcdp_rdp("0.5"), "1e-6", "mironov", alpha_max=1.5)
    assert a == 1.5 and at_b is True


def test_mironov_is_not_restricted_to_the_asoodeh_range():
    """rho = 1e-4, delta = 0.1: the Mironov optimum 1 + sqrt(L/rho) ~ 152.7 lies beyond 1/delta = 10."""
    a, v, at_b = se.search_alpha(zcdp_rdp("1e-4"), "0.1", "mironov")
    a_star, e_min = oracle_min("mironov", "1e-4", "0.1")
    assert abs(M(a) - a_star) <= mp.mpf(10) ** -5 * a_star and at_b is False


def test_asoodeh_optimum_at_the_edge_of_its_range_is_at_the_boundary():
    """A constant curve r = 1 and delta = 0.1: the Asoodeh form log(1 + (e^{u} - 1)/(alpha delta))/u
    decreases towards alpha delta = 1 (where it equals r); the form holds for alpha delta < 1 only, so
    the best order is at the edge alpha -> 10 (within the documented margin), flagged as a boundary."""
    curve = rdp_curve_from_callable(lambda a: 1.0)
    a, v, at_b = se.search_alpha(curve, "0.1", "asoodeh")
    assert 10 * (1 - 1e-6) <= a < 10 and at_b is True
    with mp.workdps(DPS):
        A = M(a)
        exact = mp.log(1 + mp.expm1(A - 1) / (A * M("0.1"))) / (A - 1)
    assert abs(M(v) - exact) <= mp.mpf(10) ** -12 and 1 < exact < 1 + mp.mpf(10) ** -6


def test_asoodeh_with_a_tiny_delta():
    """delta = 1e-400 (L ~ 921 > 700, the range alpha delta < 1 reaches beyond 1 + 1e300)."""
    a, v, at_b = se.search_alpha(zcdp_rdp("1e-9"), "1e-400", "asoodeh")
    assert 1 < a < 1e300 and at_b is False and 0 < v < 1


def test_asoodeh_single_order_range():
    a, v, at_b = se.search_alpha(zcdp_rdp("0.5"), "1e-6", "asoodeh", alpha_max=1 + 2.0 ** -52)
    assert a == 1 + 2.0 ** -52 and at_b is True


def test_explicit_orders_of_an_array_curve():
    table = {2.0: "0.5", 3.0: "0.6", 4.0: "0.7", 8.0: "2"}
    curve = rdp_curve_from_arrays(list(table), [float(v) for v in table.values()])

    def cks(a):                                    # CKS 2020 Prop. 12 at the tabulated value, 60 digits
        with mp.workdps(DPS):
            A = mp.mpf(a)
            return M(table[a]) + mp.log(1 - 1 / A) + (-mp.log(M("1e-3")) - mp.log(A)) / (A - 1)

    for subset in ([2.0], [3.0, 4.0], [2.0, 3.0], list(table)):
        assert se.search_alpha(curve, "1e-3", "cks", orders=subset)[0] == min(subset, key=cks)
    assert se.search_alpha(curve, "1e-3", "cks")[0] == min(table, key=cks)
    with pytest.raises(InvalidInputError, match=r"^orders \[5.0\] are not orders of the array curve"):
        se.search_alpha(curve, "1e-3", "cks", orders=[2.0, 5.0])


@pytest.mark.parametrize("cap,top", [(2.5, 2), (3.0, 3), (3.9, 3)])
def test_integer_orders_up_to_a_cap(cap, top):
    a, v, at_b = se.search_alpha(zcdp_rdp("0.5"), "1e-6", "cks", "integer", alpha_max=cap)
    assert a == float(top) and at_b is (top > 2)
    with pytest.raises(InvalidInputError, match=r"^no integer order in \(1, alpha_max\]"):
        se.search_alpha(zcdp_rdp("0.5"), "1e-6", "cks", "integer", alpha_max=1.9)


def test_boundary_notes_at_and_next_to_the_float_limits():
    """The float-limit note exactly at alpha - 1 = 2^-52 and 1e300 (the limits, inclusive); the
    caller's-limit note one float inside them; no note when not at a boundary."""
    assert se.boundary_notes(1 + 2.0 ** -52, True) == (se.FLOAT_LIMIT_NOTE,)
    assert se.boundary_notes(1e300, True) == (se.FLOAT_LIMIT_NOTE,)
    assert se.boundary_notes(1 + 2.0 ** -51, True) == (se.BOUNDARY_NOTE,)
    assert se.boundary_notes(math.nextafter(1e300, 0), True) == (se.BOUNDARY_NOTE,)
    assert se.boundary_notes(6.0, True) == (se.BOUNDARY_NOTE,)
    for a in (1 + 2.0 ** -52, 6.0, 1e300):
        assert se.boundary_notes(a, False) == ()
