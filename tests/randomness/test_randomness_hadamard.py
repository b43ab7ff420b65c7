"""bcdp.randomness.hadamard (thesis Sec. 7.3.2): the structure against (7.28) typed in, the exact risk
against exact enumeration of every outcome (Fractions), the worst case against a sympy KKT oracle and
random points, the (eps, R)-LDP status against the channel rows of (7.27) and mpmath entropies, the
choice (7.33) on both sides of the threshold, and bad inputs."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F
from math import comb

import mpmath
import pytest
import sympy
from bcdp.core.errors import FloatRefusedError, InvalidInputError, ValidityConditionError
from bcdp.randomness import hadamard as hr

# eq. (7.28), typed in from the thesis
H4 = ((1, 1, 1, 1), (1, -1, 1, -1), (1, 1, -1, -1), (1, -1, -1, 1))
H2 = ((1, 1), (1, -1))


def _kron(a, b):
    return tuple(tuple(x * y for x in ra for y in rb) for ra in a for rb in b)


def test_sylvester_matches_7_28_and_is_orthogonal():
    assert hr.sylvester(4) == H4
    h8 = hr.sylvester(8)
    assert h8 == _kron(H2, H4)
    for i in range(8):
        for j in range(8):
            assert sum(h8[i][t] * h8[j][t] for t in range(8)) == (8 if i == j else 0)


def test_blocks_match_the_thesis_example():
    # thesis: B1 = {1,2,3,4}, B2 = {1,3}, B3 = {1,2}, B4 = {1,4} (1-based)
    printed = ({1, 2, 3, 4}, {1, 3}, {1, 2}, {1, 4})
    assert hr.blocks(4) == tuple(frozenset(x - 1 for x in b) for b in printed)
    assert hr.blocks(3) == hr.blocks(4)


@pytest.mark.parametrize("k,K", [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (1000, 1024), (1024, 1024), (1025, 2048)])
def test_hadamard_size(k, K):
    assert hr.hadamard_size(k) == K


def _oracle_risk(p, m, q, E, coordinates):
    """E||p_hat - p||^2 by enumerating every vector of group counts (c_0..c_{K-1}), c_j ~ Bin(m, s_j)."""
    k = len(p)
    K = 1 if k == 1 else 2 ** (k - 1).bit_length()
    H = {1: ((1,),), 2: H2, 4: H4}[K]
    pad = list(p) + [F(0)] * (K - k)
    s = [q / E + sum(pad[x] for x in range(K) if H[x][j] == 1) * q * (E - 1) / E for j in range(K)]
    keep = K if coordinates == "all" else k
    total = F(0)
    for cs in itertools.product(range(m + 1), repeat=K):
        prob = F(1)
        for j, c in enumerate(cs):
            prob *= comb(m, c) * s[j] ** c * (1 - s[j]) ** (m - c)
        pb = [E / (q * (E - 1)) * (F(c, m) - q / E) for c in cs]
        est = [sum(H[x][j] * (2 * pb[j] - 1) for j in range(K)) / K for x in range(K)]
        total += prob * sum((est[x] - pad[x]) ** 2 for x in range(keep))
    return total


CASES = [
    ((F(1, 3), F(2, 3)), 1, F(1, 2), F(3)),
    ((F(1, 3), F(2, 3)), 3, F(1, 10), F(2)),
    ((F(1, 5), F(3, 10), F(1, 2)), 1, F(2, 3), F(3)),
    ((F(1, 5), F(3, 10), F(1, 2)), 2, F(1, 7), F(5, 2)),
    ((F(1, 4),) * 4, 2, F(3, 5), F(7, 4)),
    ((F(1), F(0), F(0), F(0)), 2, F(1, 100), F(11, 10)),
]


@pytest.mark.parametrize("p,m,q,E", CASES)
@pytest.mark.parametrize("coordinates", ["all", "first_k"])
def test_exact_risk_equals_enumeration(p, m, q, E, coordinates):
    K = hr.hadamard_size(len(p))
    assert hr.exact_risk(p, m * K, q, E, coordinates=coordinates) == _oracle_risk(p, m, q, E, coordinates)


def test_exact_risk_closed_form_constant():
    # the closed form 4E^2/(n q^2 (E-1)^2) sum_j s_j(1-s_j) for K | n, all coordinates
    # s_j from (7.29) with the blocks of the printed H_4 (7.28), not from the library's transform
    p, q, E, n = (F(1, 5), F(3, 10), F(1, 2)), F(1, 7), F(5, 2), 8
    pad = p + (F(0),)
    s = [q / E + sum(pad[x] for x in range(4) if H4[x][j] == 1) * q * (E - 1) / E for j in range(4)]
    assert hr.exact_risk(p, n, q, E) == 4 * E ** 2 / (n * q ** 2 * (E - 1) ** 2) * sum(x * (1 - x) for x in s)


def test_floor_split_uses_floor_n_over_K():
    p, q, E = (F(1, 5), F(3, 10), F(1, 2)), F(1, 7), F(5, 2)
    assert hr.exact_risk(p, 11, q, E, split="floor") == _oracle_risk(p, 2, q, E, "all")
    with pytest.raises(ValidityConditionError, match="does not divide"):
        hr.exact_risk(p, 11, q, E)
    with pytest.raises(ValidityConditionError, match="cannot fill"):
        hr.exact_risk(p, 3, q, E, split="floor")


def _kkt_max(k, m, q, E):
    """max over Delta_k of the enumerated risk (sympy polynomial), by Lagrange on every face."""
    xs = sympy.symbols(f"x0:{k}")
    # enumerate with symbolic p: the risk is a polynomial of degree 2
    K = 2 ** (k - 1).bit_length()
    H = {2: H2, 4: H4}[K]
    pad = list(xs) + [0] * (K - k)
    qq, EE = sympy.Rational(q.numerator, q.denominator), sympy.Rational(E.numerator, E.denominator)
    s = [qq / EE + sum(pad[x] for x in range(K) if H[x][j] == 1) * qq * (EE - 1) / EE for j in range(K)]
    var = sum(EE ** 2 / (qq ** 2 * (EE - 1) ** 2) * sj * (1 - sj) / m for sj in s)  # sum_j Var p_hat(B_j)
    risk = sympy.expand(4 * var / K)  # (4/K^2) sum_j Var d_j per coordinate, K coordinates
    best = None
    lam = sympy.Symbol("lam")
    for size in range(1, k + 1):
        for face in itertools.combinations(range(k), size):
            sub = {xs[i]: 0 for i in range(k) if i not in face}
            f = risk.subs(sub)
            eqs = [sympy.diff(f, xs[i]) - lam for i in face] + [sum(xs[i] for i in face) - 1]
            for sol in sympy.solve(eqs, [xs[i] for i in face] + [lam], dict=True):
                if all(sol[xs[i]] >= 0 for i in face):
                    val = f.subs(sol)
                    best = val if best is None else max(best, val)
    return best


@pytest.mark.parametrize("k,m,q,E", [(2, 1, F(1, 3), F(3)), (3, 1, F(2, 3), F(3)), (3, 2, F(7, 10), F(4)),
                                     (4, 1, F(3, 5), F(2)), (4, 1, F(1, 10), F(2))])
def test_worst_case_equals_kkt_oracle(k, m, q, E):
    K = hr.hadamard_size(k)
    wc = hr.worst_case_risk(k, m * K, q, E)
    oracle = _kkt_max(k, m, q, E)
    assert sympy.Rational(wc.exact.numerator, wc.exact.denominator) == oracle
    assert hr.exact_risk(wc.witness, m * K, q, E) == wc.exact


def test_worst_case_dominates_random_points():
    rng = random.Random(7)
    for _ in range(40):
        k = rng.choice([2, 3, 5, 6, 9])
        K = hr.hadamard_size(k)
        E = F(rng.randint(11, 60), 10)
        q = F(rng.randint(1, 99), 100) * E / (E + 1)
        w = [rng.randint(0, 9) for _ in range(k)]
        if not any(w):
            w[0] = 1
        p = [F(x, sum(w)) for x in w]
        for coord in ("all", "first_k"):
            wc = hr.worst_case_risk(k, 3 * K, q, E, coordinates=coord)
            assert hr.exact_risk(p, 3 * K, q, E, coordinates=coord) <= wc.exact


def test_worst_case_closed_form_for_q_at_most_half():
    for k, q, E in ((3, F(1, 2), F(3)), (7, F(1, 1000), F(27, 10)), (4, F(1, 1000), F(27, 10))):
        K = hr.hadamard_size(k)
        n = 5 * K
        assert hr.worst_case_risk(k, n, q, E).exact == 4 * E ** 2 * K * (1 - q) / (n * q * (E - 1) ** 2)
        assert hr.worst_case_pmf(k, q, E)[0] == 1


def test_lemma734_bound_holds_and_is_loose():
    for k in (2, 3, 4, 5, 8, 9, 1000):
        K = hr.hadamard_size(k)
        for E in (F(11, 10), F(2), F(27, 10), F(20)):
            for q in (F(1, 1000), F(1, 4), E / (E + 1)):
                wc = hr.worst_case_risk(k, 2 * K, q, E).exact
                bound = 2 * k * E ** 2 / (2 * K * q ** 2 * (E - 1) ** 2)
                assert hr.lemma734_bound(k, 2 * K, q, E) == bound
                assert wc <= bound


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


def _h2_mp(x):
    x = _mp(x)
    return -(x * mpmath.log(x, 2) + (1 - x) * mpmath.log(1 - x, 2))


def test_ldp_status_on_both_sides_of_q_equal_E_over_E_plus_1():
    E = F(3)
    for q, ldp in ((F(3, 4), True), (F(3, 4) - F(1, 10 ** 9), True), (F(3, 4) + F(1, 10 ** 9), False)):
        rows = [(1 - q, q), (1 - q / E, q / E)]  # (7.27): x in B, x not in B
        ratio_ok = all(a[y] <= E * b[y] for a in rows for b in rows for y in (0, 1))
        assert ratio_ok == ldp
        st = hr.ldp_status(q, E, 1)
        assert st["ldp"] is ldp
    st = hr.ldp_status(F(3, 4) + F(1, 10 ** 9), E, 1)
    assert st["eps_r_ldp"] is False


def test_ldp_status_randomness_against_mpmath():
    with mpmath.workdps(50):
        for q, E in ((F(1, 5), F(3)), (F(1, 1000), F(27, 10)), (F(27, 37), F(27, 10))):
            h_in, h_out = _h2_mp(q), _h2_mp(q / E)
            st = hr.ldp_status(q, E, 1)
            assert _mp(st["row_entropy_in"].lower) <= h_in * (1 + mpmath.mpf(10) ** -40)
            assert h_in <= _mp(st["row_entropy_in"].upper) * (1 + mpmath.mpf(10) ** -40)
            assert abs(_mp(st["row_entropy_out"].upper) - h_out) < mpmath.mpf(10) ** -30
            assert h_out <= h_in * (1 + mpmath.mpf(10) ** -40)  # equal at q = E/(E+1)
            below = F(mpmath.nstr(h_in * (1 - mpmath.mpf(10) ** -20), 40))
            above = F(mpmath.nstr(h_in * (1 + mpmath.mpf(10) ** -20), 40))
            assert hr.ldp_status(q, E, below)["randomness"] is False
            assert hr.ldp_status(q, E, above)["eps_r_ldp"] is True


def test_channel_rows_are_7_27():
    rows = hr.channel(3, 3, F(1, 2), F(2))  # B_3 = {0, 3}
    assert rows == ((F(1, 2), F(1, 2)), (F(3, 4), F(1, 4)), (F(3, 4), F(1, 4)))


def test_choose_q_on_both_sides_of_the_critical_randomness():
    E = F(27, 10)
    with mpmath.workdps(50):
        crit = _h2_mp(1 / (E + 1))
        above = F(mpmath.nstr(crit + mpmath.mpf(10) ** -30, 45))
        below = F(mpmath.nstr(crit - mpmath.mpf(10) ** -30, 45))
        hi = hr.choose_q(E, above)
        assert hi.exact == E / (E + 1) and hi.regime == "R >= H2"
        lo = hr.choose_q(E, below)
        assert lo.regime == "R < H2"
        # p_R: H2(p_R) = R, and it is just below 1/(E+1)
        pr = mpmath.findroot(lambda x: -(x * mpmath.log(x, 2) + (1 - x) * mpmath.log(1 - x, 2))
                             - (mpmath.mpf(below.numerator) / below.denominator), 0.25)
        assert _mp(lo.lower) <= pr * (1 + mpmath.mpf(10) ** -35) and pr <= _mp(lo.upper) * (1 + mpmath.mpf(10) ** -35)
        assert lo.usable_q < 1 / (E + 1)
        assert hr.ldp_status(lo.usable_q, E, below)["eps_r_ldp"] is True


def test_bad_inputs():
    with pytest.raises(FloatRefusedError):
        hr.exact_risk((F(1, 2), F(1, 2)), 4, 0.5, 2)
    with pytest.raises(ValidityConditionError, match="e_eps must be > 1"):
        hr.exact_risk((F(1, 2), F(1, 2)), 4, F(1, 2), 1)
    with pytest.raises(InvalidInputError, match="q must be in"):
        hr.exact_risk((F(1, 2), F(1, 2)), 4, 0, 2)
    with pytest.raises(InvalidInputError, match="sums to"):
        hr.exact_risk((F(1, 2), F(1, 3)), 4, F(1, 2), 2)
    with pytest.raises(InvalidInputError, match="coordinates"):
        hr.exact_risk((F(1, 2), F(1, 2)), 4, F(1, 2), 2, coordinates="some")
    with pytest.raises(InvalidInputError, match="power of 2"):
        hr.sylvester(6)
    with pytest.raises(InvalidInputError):
        hr.hadamard_size(0)
    with pytest.raises(ValidityConditionError, match="p_R must be <= 1/2"):
        hr.corrected_upper(4, 4, F(3, 5), 2)
    for exc in (pytest.raises(ValidityConditionError),):
        with exc as info:
            hr.exact_risk((F(1, 2), F(1, 2)), 5, F(1, 2), 2)
        assert "\n" not in str(info.value)


def test_thm732_eta_matches_the_printed_first_regime():
    E = F(27, 10)
    assert hr.thm732_eta(10, 1024, E, E / (E + 1)) == 2 * 10 * (E + 1) ** 2 / (1024 * (E - 1) ** 2)
    assert hr.thm731_tau(10, 1024, E) == 10 * (E + 1) ** 2 / (16 * 1024 * E * (E - 1) ** 2)


def test_block_masses_are_sums_over_the_blocks():
    rng = random.Random(3)
    for k in (1, 2, 3, 5, 8, 13):
        w = [rng.randint(0, 5) for _ in range(k)]
        w[0] += 1
        p = [F(x, sum(w)) for x in w]
        assert hr.block_masses(p) == tuple(sum((p[x] for x in b if x < k), F(0)) for b in hr.blocks(k))


def test_validity_boundaries():
    # n = K fills every group with one user; n = K - 1 cannot
    assert hr.group_size(8, 8) == 1
    with pytest.raises(ValidityConditionError):
        hr.group_size(7, 8, "floor")
    # corrected bound: p_R = 1/2 accepted, just above refused
    assert hr.corrected_upper(4, 4, F(1, 2), 2) == 8 * 4 * 4 / (4 * F(1, 2))
    with pytest.raises(ValidityConditionError):
        hr.corrected_upper(4, 4, F(1, 2) + F(1, 10 ** 12), 2)
    # R = 0: no mechanism with q > 0 (p_R = 0); a tiny R > 0 gives a tiny positive q
    with pytest.raises(ValidityConditionError, match="R = 0"):
        hr.choose_q(2, 0)
    small = hr.choose_q(2, F(1, 10 ** 6))
    assert 0 < small.usable_q < F(1, 10 ** 6)
    # e_eps just above 1 accepted
    assert hr.exact_risk((F(1, 2), F(1, 2)), 2, F(1, 2), 1 + F(1, 10 ** 9)) > 0
