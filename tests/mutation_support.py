"""Helpers of the bcdp.dme mutation tests (tests/dme/test_dme_mutation_*.py): the exact exception and its
one-line message, and a generator whose first uniform draw is exactly 0.0 (for `<` vs `<=` mutants)."""

from __future__ import annotations

import numpy as np
import pytest


def raised(cls, fn, *args, **kwargs) -> str:
    """Call ``fn(*args, **kwargs)``, require it to raise exactly ``cls`` with a one-line message; return it."""
    with pytest.raises(cls) as info:
        fn(*args, **kwargs)
    assert type(info.value) is cls
    msg = str(info.value)
    assert "\n" not in msg
    return msg


def generator_drawing_zero_first() -> np.random.Generator:
    """A PCG64 Generator whose next rng.random() is exactly 0.0 (a value it can return, w.p. 2^-53): the
    LCG state is stepped back from the 128-bit state 0 (XSL-RR output 0) with the inverse of PCG64's
    multiplier 0x2360ed051fc65da44385df649fccf645."""
    mult = 0x2360ED051FC65DA44385DF649FCCF645
    bg = np.random.PCG64(0)
    st = bg.state
    st["state"]["state"] = (-st["state"]["inc"] * pow(mult, -1, 2 ** 128)) % 2 ** 128
    st["has_uint32"] = 0
    bg.state = st
    probe = np.random.Generator(np.random.PCG64(0))
    probe.bit_generator.state = st
    assert probe.random() == 0.0
    return np.random.Generator(bg)
