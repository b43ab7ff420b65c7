"""Hypothesis strategies for small exact instances (priors and kernels with zeros and tiny entries)."""

from fractions import Fraction

from bcdp import Mechanism, Prior, ProductDomain
from hypothesis import strategies as st


@st.composite
def exact_pmf(draw, n: int, allow_tiny: bool = True):
    """A pmf on n points: integer weights in 0..9 (zeros likely) or tiny 2^-k weights."""
    choices = st.integers(0, 9)
    if allow_tiny:
        choices = st.one_of(choices, st.integers(30, 120).map(lambda k: Fraction(1, 2 ** k)))
    weights = [Fraction(w) for w in draw(st.lists(choices, min_size=n, max_size=n))]
    if sum(weights) == 0:
        weights[draw(st.integers(0, n - 1))] = Fraction(1)
    total = sum(weights)
    return tuple(w / total for w in weights)


@st.composite
def small_domain(draw, max_size: int = 8):
    shape = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3).filter(
        lambda s: _prod(s) <= max_size))
    return ProductDomain(tuple(tuple(range(k)) for k in shape))


def _prod(s):
    out = 1
    for v in s:
        out *= v
    return out


@st.composite
def instance(draw, max_size: int = 8, max_outputs: int = 4):
    dom = draw(small_domain(max_size))
    n_out = draw(st.integers(1, max_outputs))
    rows = tuple(draw(exact_pmf(n_out)) for _ in range(dom.size))
    mech = Mechanism(dom, tuple(range(n_out)), rows)
    prior = Prior(dom, draw(exact_pmf(dom.size)))
    return mech, prior
