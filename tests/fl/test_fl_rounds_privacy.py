"""bcdp.fl.rounds privacy (thesis Lemma 4.3.1, App. C.1, C.1.1, C.1.2): exact hockey-stick deltas of
one CLDP-SGD round against brute-force laws (tests/fl_oracles.py), the worst-case profiles against
explicit pairs, the shuffle of one message against the randomizer's LDP ratio, and the s = 1 / s > 1
amplification statements on exact instances."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bcdp.core.errors import InvalidInputError, ValidityConditionError
from bcdp.fl import rounds
from fl_oracles import cldp_outcomes, hockey, law, rr_kernel

KER = rr_kernel(Fraction(1, 4))  # e^eps0 = 3
RATIOS = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)]


@pytest.mark.parametrize("D, D2, k, s", [
    (((1, 1), (1, -1), (-1, -1)), ((-1, 1), (1, -1), (-1, -1)), 2, 1),
    (((1, 1, 1), (-1, -1, -1)), ((1, 1, -1), (-1, -1, -1)), 1, 2),
])
def test_round_delta_matches_brute_force_both_directions(D, D2, k, s):
    P, Q = law(cldp_outcomes(D, KER, k, s)), law(cldp_outcomes(D2, KER, k, s))
    for r in RATIOS:
        expected = max(hockey(P, Q, r), hockey(Q, P, r))
        assert rounds.round_delta(D, D2, KER, k, s, r) == expected == rounds.round_delta(D2, D, KER, k, s, r)


def test_round_profile_dominates_every_explicit_neighbour_and_is_attained():
    n, m, k, s = 2, 2, 1, 1
    prof = rounds.round_profile(KER, n, m, k, s, RATIOS)
    D = ((1, -1), (1, 1))
    for r in RATIOS:
        best = Fraction(0)
        for _, D2 in rounds.neighbours(D, [-1, 1]):
            best = max(best, rounds.round_delta(D, D2, KER, k, s, r))
        assert best <= prof[r]["delta"]
        w = prof[r]
        if w["dataset"] is not None:
            P = law(cldp_outcomes(w["dataset"], KER, k, s))
            Q = law(cldp_outcomes(w["neighbour"], KER, k, s))
            assert max(hockey(P, Q, r), hockey(Q, P, r)) == w["delta"]


@pytest.mark.parametrize("n,m,k,s", [(2, 2, 1, 1), (2, 2, 2, 1), (2, 3, 1, 2)])
def test_round_profile_is_the_max_over_every_dataset_by_brute_force(n, m, k, s):
    """The profile's symmetry reduction (canonical client multisets) against the plain maximum over all
    2^(nm) datasets and all their replace-one neighbours, laws by tests/fl_oracles.py (no reduction)."""
    import itertools
    prof = rounds.round_profile(KER, n, m, k, s, RATIOS)
    laws = {}
    for flat in itertools.product((-1, 1), repeat=n * m):
        D = tuple(tuple(flat[i * m:(i + 1) * m]) for i in range(n))
        laws[D] = law(cldp_outcomes(D, KER, k, s))
    pairs = 0
    for r in RATIOS:
        best = Fraction(0)
        for D in laws:
            for i in range(n):
                for j in range(m):
                    D2 = tuple(tuple(-x if (a, b) == (i, j) else x for b, x in enumerate(row))
                               for a, row in enumerate(D))
                    best = max(best, hockey(laws[D], laws[D2], r))
                    pairs += 1
        assert prof[r]["delta"] == best
    assert pairs == len(RATIOS) * 2 ** (n * m) * n * m
    assert prof[Fraction(1)]["delta"] > 0


def test_shuffle_of_one_message_is_the_randomizer():
    prof = rounds.shuffle_profile(KER, 1, [Fraction(3), Fraction(299, 100), Fraction(1)])
    assert prof[Fraction(3)]["delta"] == 0  # pure e^eps0 = 3
    assert prof[Fraction(299, 100)]["delta"] > 0
    assert prof[Fraction(1)]["delta"] == Fraction(1, 2)  # total variation of (3/4, 1/4) vs (1/4, 3/4)


@pytest.mark.parametrize("n,m,k", [(3, 2, 2), (2, 3, 1), (4, 2, 3)])
def test_lemma431_holds_exactly_for_s_equal_1(n, m, k):
    Z = rounds.shuffle_profile(KER, k, RATIOS)
    for r in RATIOS:
        ratio, delta = rounds.lemma431_parameters(n, m, k, 1, r, Z[r]["delta"])
        assert ratio == 1 + Fraction(k, m * n) * (r - 1) and delta == Fraction(k, m * n) * Z[r]["delta"]
        assert rounds.round_profile(KER, n, m, k, 1, [ratio])[ratio]["delta"] <= delta


def test_q_amplification_fails_for_s_2_but_q2_holds():
    """n = 3, m = 3, k = 1, s = 2: q = 2/9, q2 = 2/3; at e^eps~ = 3 the shuffle of 2 messages is pure
    (delta~ = 0) but the round is not (1 + 2q)-pure; it is (1 + 2 q2)-pure (App. C.1.2)."""
    n, m, k, s = 3, 3, 1, 2
    Z = rounds.shuffle_profile(KER, k * s, [Fraction(3)])
    assert Z[Fraction(3)]["delta"] == 0
    q = Fraction(2, 9)
    assert rounds.round_profile(KER, n, m, k, s, [1 + 2 * q])[1 + 2 * q]["delta"] > 0
    ratio, delta = rounds.appc12_parameters(n, m, k, s, 3, 0)
    assert ratio == 1 + 2 * Fraction(2, 3) and delta == 0
    assert rounds.round_profile(KER, n, m, k, s, [ratio])[ratio]["delta"] == 0


def test_lemma431_parameters_validity_both_sides():
    assert rounds.lemma431_parameters(3, 2, 2, 1, 2, Fraction(1, 10)) == (Fraction(4, 3), Fraction(1, 30))
    with pytest.raises(ValidityConditionError):
        rounds.lemma431_parameters(3, 2, 2, 2, 2, Fraction(1, 10))


@pytest.mark.parametrize("args", [(Fraction(1, 2), 0), (2, Fraction(3, 2)), (2, -1)])
def test_bad_privacy_inputs(args):
    with pytest.raises(InvalidInputError) as info:
        rounds.appc12_parameters(3, 2, 2, 1, *args)
    assert "\n" not in str(info.value)
    with pytest.raises(InvalidInputError):
        rounds.round_delta(((1,),), ((1, 1),), KER, 1, 1, 2)


def test_conditional_laws_mix_back_to_the_round_law():
    """q A11 + q1(1 - q2) A10 + (1 - q1) A0 = the round's law (App. C.1, the expansion after (C.5))."""
    for (n, m, k, s) in [(3, 2, 2, 1), (2, 3, 1, 2), (3, 3, 3, 2)]:
        D = tuple(tuple((1, -1, 1, -1, -1, 1)[(i + j) % 6] for j in range(m)) for i in range(n))
        A = rounds.conditional_laws(D, KER, k, s)
        q1, q2 = Fraction(k, n), Fraction(s, m)
        weights = {"A11": q1 * q2, "A10": q1 * (1 - q2), "A0": 1 - q1}
        assert set(A) == {e for e, w in weights.items() if w > 0}
        mix: dict = {}
        for e, law_e in A.items():
            assert sum(law_e.values()) == 1
            for o, w in law_e.items():
                mix[o] = mix.get(o, Fraction(0)) + weights[e] * w
        assert mix == law(cldp_outcomes(D, KER, k, s))
