"""bcdp.randomness.recoverability_bounds against mpmath (50 digits) of the printed formulas, brute-force minima
over s, scipy's Hadamard matrix, and exact set-system enumeration."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import mpmath
import pytest
from scipy.linalg import hadamard

from bcdp.core.errors import FloatRefusedError, InvalidInputError
from bcdp.randomness import recoverability as rec
from bcdp.randomness import recoverability_bounds as rb

TOL = mpmath.mpf(10) ** -35


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


def _inside(c, v):
    return _mp(c.lower) - TOL <= v <= _mp(c.upper) + TOL


def _law_entropy(k, s, eps):
    """H of the two-level law (7.46) from its probabilities (not the closed form)."""
    e = mpmath.exp(_mp(F(eps)))
    t = s * e + k - s
    return -(k - s) / t * mpmath.log(1 / t) - s * e / t * mpmath.log(e / t)


@pytest.mark.parametrize("k,s,eps", [(2, 1, F(1)), (10, 3, F(1, 2)), (100, 34, F(1)), (7, 0, F(2)), (7, 7, F(3))])
def test_747_is_the_entropy_of_the_law(k, s, eps):
    with mpmath.workdps(50):
        assert _inside(rb.entropy_747(k, s, eps), _law_entropy(k, s, eps))
        assert _inside(rb.entropy_747(k, s, eps, "bits"), _law_entropy(k, s, eps) / mpmath.log(2))


@pytest.mark.parametrize("k,eps", [(10, F(1, 2)), (10, F(5)), (100, F(2)), (1000, F(8)), (3, F(1, 10))])
def test_748_is_the_real_minimiser(k, eps):
    with mpmath.workdps(50):
        st = rb.stationary_point(k, eps)
        e, ep = mpmath.exp(_mp(eps)), _mp(eps)
        # d/ds of (7.47) by hand: (E - 1)/t - eps E k / t^2, t = s(E - 1) + k; bisection for its zero in (0, k)
        dh = lambda s: (e - 1) / (s * (e - 1) + k) - ep * e * k / (s * (e - 1) + k) ** 2
        lo, hi = mpmath.mpf(10) ** -12, mpmath.mpf(k)
        assert dh(lo) < 0 < dh(hi)
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if dh(mid) < 0 else (lo, mid)
        root = (lo + hi) / 2
        assert _inside(st, root)
        assert dh(root * (1 - mpmath.mpf(10) ** -6)) < 0 < dh(root * (1 + mpmath.mpf(10) ** -6))
    assert rb.stationary_point(6, 0).exact == 3  # the eps -> 0 limit k/2


def test_sympy_derivation_matches_the_printed_748():
    import sympy
    d = rb.derive_stationary_point()
    s, k, eps = d["symbols"]
    e = sympy.exp(eps)
    assert sympy.simplify(d["s_tilde"] - k * (e * (eps - 1) + 1) / (e - 1) ** 2) == 0
    val = d["second_derivative"].subs({k: 10, eps: sympy.Rational(3, 2)})
    assert float(val) > 0


@pytest.mark.parametrize("k", [2, 3, 4, 7, 10, 25])
@pytest.mark.parametrize("eps", [F(1, 10), F(1), F(5, 2), F(6)])
def test_s_star_is_the_brute_force_argmin(k, eps):
    with mpmath.workdps(50):
        vals = {s: _law_entropy(k, s, eps) for s in range(1, k)}
    best = min(vals, key=vals.get)
    c = rb.s_star(k, eps)
    assert c.witness == best
    with mpmath.workdps(50):
        assert _inside(c, vals[best])


def _printed_752(k, eps):
    e, ep = mpmath.exp(_mp(eps)), _mp(eps)
    first = ep <= mpmath.log(k)
    a = mpmath.log(k * ep * e / (e - 1)) - ep * e / (e + (e - 1) ** 2 / (e * (ep - 1) + 1) - 1)
    b = mpmath.log(e + k - 1) - ep * e / (e + k - 1)
    return (a if first else b), a


@pytest.mark.parametrize("k,eps", [(10, F(1)), (10, F(5, 2)), (10, F(5)), (1000, F(8)), (2, F(1, 3))])
def test_752_both_readings(k, eps):
    with mpmath.workdps(50):
        printed, corrected = _printed_752(k, eps)
        assert _inside(rb.lower_bound_752(k, eps), printed)
        assert _inside(rb.lower_bound_752(k, eps, reading="corrected"), corrected)
        brute = min(_law_entropy(k, s, eps) for s in range(1, k))
        assert corrected <= brute
    # the printed second case is above the true minimum at k = 10, eps = 5/2 (E-Thesis-Eq7.52)
    if (k, eps) == (10, F(5, 2)):
        assert printed > brute


def _printed_751(k, eps, split):
    e, ep = mpmath.exp(_mp(eps)), _mp(eps)
    m = min(e, 2 * k)
    if split == "none":
        return mpmath.log(2 * k / m * (e - 1) + 4 * k) - ep * e / (e - 1 + 2 * m)
    first = (ep <= mpmath.log(k) + 1) if split == "printed" else (e <= 2 * k)
    return (mpmath.log(2 * k * (3 * e - 1) / e) - ep * e / (3 * e - 1)) if first else \
        (mpmath.log(e + 4 * k - 1) - ep * e / (e + 4 * k - 1))


@pytest.mark.parametrize("split", ["none", "printed", "min"])
@pytest.mark.parametrize("k,eps", [(10, F(1)), (10, F(31, 10)), (100, F(4)), (1000, F(8)), (4, F(23, 10))])
def test_751_readings(split, k, eps):
    with mpmath.workdps(50):
        assert _inside(rb.hr_upper_bound_751(k, eps, split=split), _printed_751(k, eps, split))


def _float_params(k, e):
    big_b = 2 ** (math.ceil(math.log2(min(e, 2 * k))) - 1)
    b = 2 ** math.ceil(math.log2(k / big_b + 1))
    return {"B": big_b, "b": b, "K": big_b * b, "s": b // 2}


@pytest.mark.parametrize("k", [2, 5, 10, 100, 1000])
@pytest.mark.parametrize("e", [F(5, 4), F(3), F(7), F(30), F(3000)])
def test_hr_parameters_exact_match_a_float_evaluation(k, e):
    assert rb.hr_parameters_exact(k, e) == _float_params(k, float(e))


def test_hr_parameters_at_a_power_of_two():
    # ceil(log2 4) = 2 exactly: B = 2 (a float log2 could round either way; here it is exact)
    assert rb.hr_parameters_exact(10, 4)["B"] == 2
    assert rb.hr_parameters_exact(10, F(4001, 1000))["B"] == 4


@pytest.mark.parametrize("b", [2, 4, 8, 16])
def test_asz19_sets_are_hadamard_rows(b):
    h = hadamard(b)
    k = 2 * (b - 1)
    sets = rb.hr_sets(k, 2, b, "asz19")
    comp = rb.hr_sets(k, 2, b, "asz19_complement")
    for x in range(k):
        j, i = divmod(x, b - 1)
        assert sets[x] == frozenset(j * b + y for y in range(b) if h[i + 1, y] == 1)
        assert comp[x] == frozenset(j * b + y for y in range(b) if h[i + 1, y] == -1)


def test_hr_channel_is_749_and_eps_ldp():
    p = rb.hr_parameters_exact(6, F(13, 4))
    for rule in rb.HR_RULES:
        sets = rb.hr_sets(6, p["B"], p["b"], rule)
        chan = rb.hr_channel(sets, p["K"], F(13, 4))
        assert all(sum(row) == 1 for row in chan)
        assert rec.ldp_ratio(chan) == F(13, 4)
    sets = rb.hr_sets(6, p["B"], p["b"], "asz19")
    assert rb.max_column_sum(rb.hr_channel(sets, p["K"], F(13, 4))) == F(51, 50)


def test_key_realisation_exists_iff_the_degree_condition():
    rng = random.Random(3)
    for _ in range(150):
        big_k = rng.choice((4, 6, 8))
        s = rng.randint(1, big_k - 1)
        k = rng.randint(2, big_k)
        sets = tuple(frozenset(rng.sample(range(big_k), s)) for _ in range(k))
        inside = [sum(y in c for c in sets) for y in range(big_k)]
        cond = max(inside) <= s and max(k - d for d in inside) <= big_k - s
        f = rb.hr_key_realisation(sets, big_k)
        assert (f is not None) == cond
        if f is not None:
            e = F(rng.randint(2, 9), 2)
            q = rb.hr_key_law(big_k, s, e)
            assert rec.induced_channel(f, q) == rb.hr_channel(sets, big_k, e)
            assert rec.is_ldp_rec(f, q, e)


def test_cyclic_sets_cover_evenly():
    for k, big_k, s in ((5, 8, 4), (10, 16, 8), (7, 8, 2)):
        sets = rb.hr_sets(k, big_k // (2 * s), 2 * s, "cyclic")
        counts = [sum(y in c for c in sets) for y in range(big_k)]
        assert set(counts) <= {k * s // big_k, -(-k * s // big_k)}


def test_storage_gain_matches_mpmath():
    with mpmath.workdps(50):
        for k in (2, 4, 10):
            e = mpmath.exp(5)
            h = mpmath.log(e + k - 1) - 5 * e / (e + k - 1)
            assert _inside(rb.storage_gain(k, 5), (mpmath.log(k) - h) / mpmath.log(k))


def test_bad_inputs():
    with pytest.raises(FloatRefusedError):
        rb.s_star(10, 0.5)
    with pytest.raises(InvalidInputError, match="eps must be in \\(0"):
        rb.lower_bound_752(10, 0)
    with pytest.raises(InvalidInputError, match="k must be"):
        rb.s_star(1, 1)
    with pytest.raises(InvalidInputError, match="reading"):
        rb.lower_bound_752(10, 1, reading="other")
    with pytest.raises(InvalidInputError, match="split"):
        rb.hr_upper_bound_751(10, 1, split="other")
    with pytest.raises(InvalidInputError, match="rule"):
        rb.hr_sets(4, 1, 8, "random")
    with pytest.raises(InvalidInputError, match="power of 2"):
        rb.hr_sets(4, 3, 8)
    with pytest.raises(InvalidInputError, match="not enough Hadamard rows"):
        rb.hr_sets(10, 1, 8)
    with pytest.raises(InvalidInputError, match="e_eps must be > 1"):
        rb.hr_parameters_exact(10, 1)
    with pytest.raises(InvalidInputError, match="same size"):
        rb.hr_channel((frozenset({0}), frozenset({0, 1})), 4, 2)
    with pytest.raises(InvalidInputError, match="s must be"):
        rb.entropy_747(4, 5, 1)


# -- review h7rev3: tiny eps (cancellation in (7.48) / (7.52)), the eps = 0 tie of s* --------------------------

@pytest.mark.parametrize("eps", [F(1, 10 ** 15), F(1, 10 ** 30)])
def test_tiny_eps_is_refined_not_refused(eps):
    """(7.48) and the (7.52) first expression are 0/0-like for eps -> 0 (E(eps - 1) + 1 ~ eps^2/2): the library must
    raise its precision and return a tight enclosure of the value, here compared with mpmath at 120 digits."""
    k = 10
    with mpmath.workdps(120):
        ep = _mp(eps)
        e = mpmath.exp(ep)
        st = k * (e * (ep - 1) + 1) / (e - 1) ** 2
        first = mpmath.log(k * ep * e / (e - 1)) - ep * e / (e + (e - 1) ** 2 / (e * (ep - 1) + 1) - 1)
        c = rb.stationary_point(k, eps)
        assert _inside(c, st) and _mp(c.upper) - _mp(c.lower) < mpmath.mpf(10) ** -15
        for reading in ("printed", "corrected"):
            b = rb.lower_bound_752(k, eps, reading=reading)
            assert _inside(b, first) and _mp(b.upper) - _mp(b.lower) < mpmath.mpf(10) ** -15


def test_s_star_at_eps_zero_is_a_tie():
    """At eps = 0 every s gives the uniform law (thesis Sec. 7.5.1 (iii)): no s is the argmin, so the witness is None
    (undecided), while the entropy enclosure is log k; k = 2 has the single candidate s = 1."""
    assert rb.s_star(2, 0).witness == 1
    for k in (2, 3, 10):
        c = rb.s_star(k, 0)
        assert c.witness is None or k == 2
        with mpmath.workdps(50):
            assert _inside(c, mpmath.log(k))


def _birkhoff_key(chan, big_k):
    """A recovering key for a channel with every column sum <= 1 (written here): pad the k x K matrix with K - k rows
    to a doubly stochastic one, peel off permutation matrices on its support (Birkhoff-von Neumann, brute force over
    the K! permutations), key value u = one permutation, f(x, u) = perm_u(x)."""
    import itertools

    k = len(chan)
    deficit = [1 - sum(chan[x][y] for x in range(k)) for y in range(big_k)]
    m = [list(row) for row in chan] + [[d / (big_k - k) for d in deficit] for _ in range(big_k - k)]
    perms, weights = [], []
    while any(v for row in m for v in row):
        perm = next(p for p in itertools.permutations(range(big_k)) if all(m[i][p[i]] > 0 for i in range(big_k)))
        w = min(m[i][perm[i]] for i in range(big_k))
        for i in range(big_k):
            m[i][perm[i]] -= w
        perms.append(perm)
        weights.append(w)
    return [[p[x] for p in perms] for x in range(k)], weights


def test_complement_hr_sets_have_some_recovering_key_but_no_q_hr_key():
    """E-Thesis-Thm7.5.2, the -1 reading: at k = 3, e^eps = 5/4 (K = 4, s = 2) every column sum of (7.49) is <= 1, so
    a Birkhoff key recovers X and induces exactly (7.49) (eps-LDP-Rec), while no key on [K] with law q_HR does."""
    e = F(5, 4)
    p = rb.hr_parameters_exact(3, e)
    sets = rb.hr_sets(3, p["B"], p["b"], "asz19_complement")
    chan = rb.hr_channel(sets, p["K"], e)
    assert rb.max_column_sum(chan) <= 1
    f, q = _birkhoff_key(chan, p["K"])
    assert rec.induced_channel(f, q) == chan
    assert rec.is_ldp_rec(f, q, e)
    assert rb.hr_key_realisation(sets, p["K"]) is None
    # the +1 reading at k = 6, e^eps = 13/4 has a column sum 51/50 > 1: no key at all (the erratum's main point)
    p6 = rb.hr_parameters_exact(6, F(13, 4))
    assert rb.max_column_sum(rb.hr_channel(rb.hr_sets(6, p6["B"], p6["b"], "asz19"), p6["K"], F(13, 4))) > 1


def test_key_realisation_caps_and_bad_sets():
    """Review h7rev3: K = 1024 with k = 500 took about a minute (Koenig colouring of k K edges); sizes beyond the cap
    are refused at once in one line, and malformed sets are refused instead of crashing."""
    import time

    t = time.perf_counter()
    with pytest.raises(InvalidInputError) as info:
        rb.hr_key_realisation(rb.hr_sets(500, 32, 32, "cyclic"), 1024)
    assert time.perf_counter() - t < 1 and "\n" not in str(info.value)
    for bad in ((), (frozenset({0, 1}), frozenset({2})), (frozenset({0, 9}),)):
        with pytest.raises(InvalidInputError):
            rb.hr_key_realisation(bad, 4)
    assert rb.hr_key_realisation(rb.hr_sets(60, 8, 16, "cyclic"), 128) is not None


def test_s_star_is_not_the_closest_integer_to_s_tilde():
    """Sec. 7.5.1 (text before (7.52)) takes "the closest integer" to s~; Thm 7.5.1's rule argmin over {floor, ceil}
    differs at k = 4, eps = 4/5: s~ = 1.478 (closest integer 1) but H(U^2) < H(U^1) (mpmath, 50 digits, from the
    law); the library follows Thm 7.5.1."""
    k, eps = 4, F(4, 5)
    st = rb.stationary_point(k, eps)
    assert 1 < st.lower and st.upper < F(3, 2)
    with mpmath.workdps(50):
        h = {s: _law_entropy(k, s, eps) for s in range(1, k)}
    assert min(h, key=h.get) == 2 and h[1] - h[2] > mpmath.mpf(10) ** -4
    assert rb.s_star(k, eps).witness == 2
