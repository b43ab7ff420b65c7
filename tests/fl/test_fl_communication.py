"""bcdp.fl.communication: exact counts against enumeration / exact integer arithmetic written here."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.fl import communication as C


@pytest.mark.parametrize("s,B", [(1, 1), (1, 5), (3, 2), (4, 4), (5, 3), (2, 7)])
def test_histogram_count_is_the_number_of_histograms(s, B):
    assert C.histogram_count(s, B) == sum(1 for t in itertools.product(range(s + 1), repeat=B) if sum(t) == s)


@pytest.mark.parametrize("s,b", [(1, 1), (1, 8), (3, 2), (10, 4), (7, 7)])
def test_histogram_bits_is_the_ceiling_of_log2(s, b):
    n = math.comb(s + 2 ** b - 1, s)
    k = C.histogram_bits(s, b)
    assert 2 ** (k - 1) < n <= 2 ** k or (n == 1 and k == 0)
    assert k <= s * b                     # never more than the naive s b bits


def test_histogram_bound_holds_and_is_decided():
    for s, B in itertools.product(range(1, 12), range(1, 12)):
        assert C.histogram_bound_holds(s, B)
    # the bound is not an identity: with e replaced by 1 it fails for s = 2, B = 2 (C(3,2) = 3 > (3/2)^2)
    assert math.comb(3, 2) > Fraction(3, 2) ** 2


def test_bit_saving_at_the_printed_d_and_elsewhere():
    assert C.bit_saving(13170) == 28096
    assert C.bit_saving(26010) == Fraction(32 * 26010, 16)
    assert C.bit_saving(1024) == Fraction(32 * 1024, 11)    # log2 1024 = 10 exactly


def test_table41_counts():
    counts = C.table41_parameter_counts()
    assert len(counts) == 62               # 2 of the 64 readings shrink the map to nothing
    # the [PTS20] reading: SAME conv, pool stride 1 VALID, VALID conv, pool stride 1 VALID -> 4x4x32 -> 26010
    assert counts[("SAME", "VALID", 1, "VALID", "VALID", 1)] == (4, 26010)
    # by hand: all VALID, pool stride 2: 28 -> 11 -> 5 -> 1 -> 0 is skipped; all SAME stride 2: 14 -> 7 -> 4 -> 2
    assert counts[("SAME", "SAME", 2, "SAME", "SAME", 2)] == (2, 1040 + 8224 + 32 * 4 * 32 + 32 + 330)
    assert 13170 not in {d for _, d in counts.values()}


@pytest.mark.parametrize("call", [lambda: C.histogram_count(0, 2), lambda: C.histogram_count(2, 1.0),
                                  lambda: C.histogram_bits(2, 0), lambda: C.bit_saving(1), lambda: C.bit_saving(True)])
def test_bad_inputs(call):
    with pytest.raises(InvalidInputError):
        call()
