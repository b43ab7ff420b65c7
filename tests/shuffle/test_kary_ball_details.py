"""Details of :func:`bcdp.shuffle.kary_worst_pair.kary_worst_pair_ball`: the eps0 = 0 answer with its pair
(every pair has divergence 0: a tie, reported with the first configuration of the scan order and the
direction "DDprime"), an exact order alpha whose float rounds to 1 (it must be judged on its exact
value), and the pair reported next to the ball against the exact Fraction oracle
:func:`kary_worst_pair_exact`."""

from __future__ import annotations

from fractions import Fraction

import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import kary_worst_pair as kw


@pytest.mark.parametrize("n,K", [(2, 2), (3, 3), (4, 4)])
@pytest.mark.parametrize("zero", [{"eps0": "0"}, {"eps0": 0}, {"exp_eps0": 1}])
def test_eps0_zero_is_an_exact_zero_and_a_tie(n, K, zero):
    ball, pair, unique = kw.kary_worst_pair_ball(n, K, alpha=3, with_pair=True, **zero)
    assert ball.is_exact() and ball == 0
    assert pair == ((n - 1,) + (0,) * (K - 1), "DDprime")
    assert unique is False
    assert kw.kary_worst_pair_ball(n, K, alpha=3, **zero) == 0


def test_an_exact_alpha_just_above_one_is_accepted():
    """alpha = 1 + 2^-60 is > 1 exactly although float(alpha) == 1.0; the ball encloses the divergence,
    which for alpha -> 1 tends to KL > 0 (K = 3, n = 3, E = 2)."""
    alpha = Fraction(2 ** 60 + 1, 2 ** 60)
    assert float(alpha) == 1.0
    ball = kw.kary_worst_pair_ball(3, 3, exp_eps0=2, alpha=alpha)
    assert ball.is_finite() and ball > 0
    with pytest.raises(InvalidInputError, match="alpha must be > 1"):
        kw.kary_worst_pair_ball(3, 3, exp_eps0=2, alpha=Fraction(2 ** 60 - 1, 2 ** 60))


@pytest.mark.parametrize("n,K,E,a", [(3, 3, 2, 2), (4, 3, 3, 3), (3, 3, 5, 10), (4, 3, 10, 20), (3, 4, 3, 4)])
def test_the_pair_is_the_exact_maximiser(n, K, E, a):
    value, pair = kw.kary_worst_pair_exact(n, K, E, a)
    ball, bpair, unique = kw.kary_worst_pair_ball(n, K, exp_eps0=E, alpha=a, with_pair=True)
    assert bpair == pair
    assert bpair[1] in ("DDprime", "DprimeD")
    mid = Fraction(ball.mid().str(50, radius=False))
    assert abs(float(mid) - float(value)) <= 1e-12 * float(value)


@pytest.mark.parametrize("kwargs,message", [
    ({"eps0": "1", "alpha": "abc"}, r"^alpha: cannot read"),
    ({"eps0": "1", "alpha": float("nan")}, r"^alpha: NaN"),
    ({"eps0": "1", "alpha": 1.0}, r"^alpha must be > 1"),            # a float order exactly 1
    ({"eps0": "1", "alpha": "1"}, r"^alpha must be > 1"),
    ({"exp_eps0": "abc", "alpha": 2}, r"^exp_eps0: cannot read"),
    ({"exp_eps0": Fraction(1, 2), "alpha": 2}, r"^exp_eps0 = e\^eps0 must be >= 1"),
    ({"eps0": "abc", "alpha": 2}, r"^eps0: cannot read"),
    ({"eps0": "-1/3", "alpha": 2}, r"^eps0 must be >= 0"),
])
def test_bad_input_names_the_parameter(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        kw.kary_worst_pair_ball(3, 3, **kwargs)
