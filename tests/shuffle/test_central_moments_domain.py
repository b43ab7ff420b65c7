"""binomial_central_moments refuses p outside [0, 1] (decided at the working precision on the exact
input), and at the ends p = 0 and p = 1 the law is a point mass: mu_0 = 1, every other moment 0."""

from __future__ import annotations

import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle.shuffled_bounds import binomial_central_moments


@pytest.mark.parametrize("p", ["1.5", "-0.1", "1.0000000000000000000001", "-1e-30", "nan"])
@pytest.mark.parametrize("method", ["direct", "cumulant"])
def test_p_outside_the_unit_interval_is_refused(p, method):
    with pytest.raises(InvalidInputError, match="p"):
        binomial_central_moments(7, p, 3, method=method)


@pytest.mark.parametrize("p", ["0", "1"])
@pytest.mark.parametrize("method", ["direct", "cumulant"])
def test_point_masses_at_the_ends(p, method):
    mu = binomial_central_moments(7, p, 4, method=method)
    assert mu[0] == 1 and all(m == 0 for m in mu[1:])
