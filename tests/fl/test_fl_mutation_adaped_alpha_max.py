"""bcdp.fl.adaped.exact_rdp_curve: alpha_max = 4097 (one past the range end) is refused, with the exact one-line
message.  The exact RDP balls are replaced by a cheap stand-in, so that a version accepting 4097 fails at once
instead of computing 4096 binomial sums (only the range check is under test)."""

from __future__ import annotations

from fractions import Fraction

from bcdp.core.errors import InvalidInputError
from bcdp.core.intervals import ball_of
from bcdp.fl import adaped
from tests.mutation_support import raised

INST = (100, 10, 10, 100, 1, 3, Fraction(1, 2), 2)


def test_alpha_max_one_past_the_range_end_is_refused(monkeypatch):
    monkeypatch.setattr(adaped, "exact_rdp_ball", lambda a, *args, **kw: ball_of(Fraction(a, 10 ** 6)))
    assert raised(InvalidInputError, adaped.exact_rdp_curve, *INST, alpha_max=4097) == \
        "alpha_max must be an integer in [2, 4096], got 4097"
    assert len(adaped.exact_rdp_curve(*INST, alpha_max=4096).orders) == 4095
