"""Golden-section minimisation in mpmath (at the caller's precision), the independent oracle of the
accounting tests for "inf over alpha of a printed conversion formula".  Written here, not taken from
bcdp, so that a search bug in the library cannot hide in its own oracle.  Shared by tests/accounting.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath as mp


def golden_section_min(g: Callable[[mp.mpf], mp.mpf], lo, hi, iters: int) -> tuple[mp.mpf, mp.mpf]:
    """(t, g(t)) at the midpoint of the final bracket of ``iters`` golden-section steps of a unimodal g
    on [lo, hi]."""
    invphi = (mp.sqrt(5) - 1) / 2
    a, b = mp.mpf(lo), mp.mpf(hi)
    c, d = b - invphi * (b - a), a + invphi * (b - a)
    gc, gd = g(c), g(d)
    for _ in range(iters):
        if gc < gd:
            b, d, gd = d, c, gc
            c = b - invphi * (b - a)
            gc = g(c)
        else:
            a, c, gc = c, d, gd
            d = a + invphi * (b - a)
            gd = g(d)
    t = (a + b) / 2
    return t, g(t)
