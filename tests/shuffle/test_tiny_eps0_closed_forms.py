"""The mpmath closed forms of thesis Ch. 5 at tiny eps0 (regression).  They form E - 1 = e^eps0 - 1 by
subtraction; at eps0 = 1e-80 and 60 working digits no digit of it survived, and e.g.
``thm531_upper(10**6, "1e-80", 2)`` returned only the tail term of (5.4), about 1e-54287, for a true
value of about 1e-166 (an upper bound far below the truth).  The working precision now grows by the
digits the subtraction cancels (``shuffle.inputs.cancellation_digits``).  References: the printed
formulas in ``tests/shuffle_references.py`` (E - 1 as expm1), to 1e-40 relative.
"""

from __future__ import annotations

import mpmath
import pytest
from bcdp.shuffle import shuffled_bounds as sb
from bcdp.shuffle.inputs import MAX_CANCELLATION_DIGITS, cancellation_digits
from shuffle_references import ref_5_4, ref_5_5, ref_5_7, ref_5_8

TINY = ["1e-20", "1e-80", "3e-200"]


def close(got, want) -> bool:
    with mpmath.workdps(80):
        return want > 0 and abs(got - want) <= abs(want) * mpmath.mpf(10) ** -40


@pytest.mark.parametrize("eps0", TINY)
@pytest.mark.parametrize("a", [2, 3])
def test_bounds_keep_their_relative_precision_at_tiny_eps0(eps0, a):
    n = 10 ** 6
    assert close(sb.thm531_upper(n, eps0, a), ref_5_4(n, eps0, a))
    assert close(sb.cor531_upper(n, eps0, a), ref_5_5(n, eps0, a))
    assert close(sb.thm532_upper(n, eps0, a), ref_5_7(n, eps0, str(a)))
    assert close(sb.efm19_upper(n, eps0, a), ref_5_8(n, eps0, str(a)))


@pytest.mark.parametrize("eps0,digits", [("0", 0), ("1", 0), ("2.5", 0), ("inf", 0), ("0.5", 2),
                                         ("1e-80", 82), ("9.9e-81", 82), ("1e-9000", MAX_CANCELLATION_DIGITS)])
def test_cancellation_digits(eps0, digits):
    # int(log10(1/eps0)) + 2 for 0 < eps0 < 1 (the digits e^eps0 - 1 loses), capped; none otherwise
    assert cancellation_digits(eps0) == digits
