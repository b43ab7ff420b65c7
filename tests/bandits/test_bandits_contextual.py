"""bcdp.bandits.contextual (thesis Cor 6.3.1's reduction): hand-computed instances, the input policy, and
bad twins that turn THESIS-Cor6.3.1 to refuted."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from check_verdicts import verdict

from bcdp.bandits import contextual
from bcdp.core.errors import FloatRefusedError, InvalidInputError, WrongTypeError

# two contexts: c1 (prob 1/4) with actions (1, 0), (0, 1); c2 (prob 3/4) with actions (1, 1), (-1, 0)
CTX = [(F(1, 4), [(1, 0), (0, 1)]), (F(3, 4), [(1, 1), (-1, 0)])]


def test_reduced_action_by_hand():
    # theta = (1, 0): c1 picks (1, 0); c2 picks (1, 1) -> g = 1/4 (1, 0) + 3/4 (1, 1) = (1, 3/4)
    assert contextual.reduced_action((1, 0), CTX) == (F(1), F(3, 4))
    # theta = (-1, 0): c1 ties? <(1,0),th> = -1 < <(0,1),th> = 0 -> (0, 1); c2: (-1, 0) scores 1 -> g = (-3/4, 1/4)
    assert contextual.reduced_action((-1, 0), CTX) == (F(-3, 4), F(1, 4))


def test_ties_go_to_the_lowest_index():
    assert contextual.greedy_action([(F(1), F(0)), (F(1), F(0))], (F(1), F(0))) == 0
    assert contextual.reduced_action((0, 0), CTX) == (F(1, 4) + F(3, 4), F(3, 4))   # index 0 everywhere


def test_expected_reward_and_optimum_by_hand():
    ts = (F(0), F(1))
    # best policy: c1 -> (0, 1) (reward 1), c2 -> (1, 1) (reward 1): optimum 1
    assert contextual.contextual_optimum(ts, CTX) == 1
    # theta = (1, 0): c1 plays (1, 0) (reward 0), c2 plays (1, 1) (reward 1): 3/4
    assert contextual.contextual_expected_reward((1, 0), ts, CTX) == F(3, 4)


def test_reduced_action_set_dedups_and_keeps_the_first_theta():
    X = contextual.reduced_action_set([(1, 0), (2, 0), (-1, 0)], CTX)
    assert X == [((F(1), F(3, 4)), (F(1), F(0))), ((F(-3, 4), F(1, 4)), (F(-1), F(0)))]


@pytest.mark.parametrize("bad, exc", [
    ([(F(1, 2), [(1, 0)])], InvalidInputError),                       # probabilities sum to 1/2
    ([(0, [(1, 0)]), (1, [(1, 0)])], InvalidInputError),              # zero probability
    ([(1, [])], InvalidInputError),                                   # no action
    ([(1, [(1, 0), (1, 0, 0)])], InvalidInputError),                  # mixed dimensions
    ([], InvalidInputError),
    ([(0.5, [(1, 0)]), (0.5, [(0, 1)])], FloatRefusedError),
    (5, WrongTypeError),                                              # not a sequence (was a TypeError)
    ([5], WrongTypeError),                                            # a context that is not a pair
    ([(1, 5)], WrongTypeError),                                       # feature vectors not a sequence
    ([(1, [5])], WrongTypeError),                                     # a feature vector not a sequence
    ([(1, [(1, 0)], 3)], InvalidInputError),                          # a triple (was a ValueError)
])
def test_bad_contexts(bad, exc):
    with pytest.raises(exc) as info:
        contextual.reduced_action((1, 0), bad)
    assert "\n" not in str(info.value)


def test_bad_theta():
    with pytest.raises(InvalidInputError):
        contextual.reduced_action((1, 0, 0), CTX)
    with pytest.raises(FloatRefusedError):
        contextual.reduced_action((1.0, 0), CTX)
    with pytest.raises(InvalidInputError):
        contextual.reduced_action_set([], CTX)
    for call in (lambda: contextual.reduced_action(5, CTX), lambda: contextual.reduced_action_set(3, CTX),
                 lambda: contextual.reduced_action_set([5], CTX)):
        with pytest.raises(WrongTypeError) as info:
            call()
        assert "\n" not in str(info.value)


def test_check_confirms_with_the_library():
    assert verdict("thesis.cor631_contextual") == "confirmed"


def test_uniform_context_weights_are_refuted(monkeypatch):
    real = contextual.reduced_action

    def uniform(theta, contexts):
        n = len(contexts)
        return real(theta, [(F(1, n), feats) for _, feats in contexts])
    monkeypatch.setattr(contextual, "reduced_action", uniform)
    assert verdict("thesis.cor631_contextual") == "refuted"


def test_argmin_client_is_refuted(monkeypatch):
    def argmin(features, theta):
        values = [sum(a * b for a, b in zip(f, theta)) for f in features]
        return values.index(min(values))
    monkeypatch.setattr(contextual, "greedy_action", argmin)
    assert verdict("thesis.cor631_contextual") == "refuted"
