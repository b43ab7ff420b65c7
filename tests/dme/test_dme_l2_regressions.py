"""Regressions found in the session 9 mutation triage of :mod:`bcdp.dme.l2`.

1. :func:`bcdp.dme.l2.rotated_linf_law` accepted d = 1 (a power of 2) and then crashed with a bare
   numpy ValueError (``reshape(-1, 0)`` of the one empty sign tail); for d = 1, ||U x||_inf^2 = x^2 surely.
2. :func:`bcdp.dme.l2.inverse_rotate_float` accepted sign vectors that are not +-1 (e.g. (2, 1)) and
   returned D H w / sqrt(d) for a D that is not a rotation, while :func:`rotate_float` refused them.
   U^T = D H / sqrt(d) is the inverse of U only for D = diag(+-1): both directions now refuse other
   signs with the same one-line message."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.dme import l2


@pytest.mark.parametrize("signs", [[2, 1], [1, 0.5], [1, 0], [-1, np.nan], [1, -1.0000001]])
def test_inverse_rotation_refuses_signs_that_are_not_plus_minus_one(signs):
    w = [[0.25, -0.5]]
    for fn in (l2.rotate_float, l2.inverse_rotate_float):
        with pytest.raises(InvalidInputError, match=r"^signs must be a \+-1 vector whose length d"):
            fn(w, signs)


def test_inverse_rotation_with_plus_minus_one_signs_is_d_h_w_over_sqrt_d():
    # d = 2: H = [[1, 1], [1, -1]]; D H w / sqrt 2 with w = (1/4, -1/2), D = diag(-1, 1), worked by hand
    got = l2.inverse_rotate_float([[0.25, -0.5]], [-1, 1])[0]
    assert np.allclose(got, [0.25 / math.sqrt(2), 0.75 / math.sqrt(2)], rtol=0, atol=1e-16)


@pytest.mark.parametrize("x", [F(1, 3), F(-5, 2), F(0)])
def test_rotated_linf_law_in_dimension_one(x):
    assert l2.rotated_linf_law((x,)) == {x * x: F(1)}
    assert l2.rotation_tail((x,), x * x) == 0
