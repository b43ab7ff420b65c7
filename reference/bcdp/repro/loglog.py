"""Log-log linear interpolation of an (eps, MSE) curve: the 'SMS MSE at the same central eps' of thesis Figs. 3.2(b)-(c).

Shared by :mod:`bcdp.repro.dme_figures` (Fig. 3.2(b)) and :mod:`bcdp.repro.dme_fig32c` (Fig. 3.2(c)); a
module of its own so that neither figure module imports the other's (no import cycle).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["loglog_interpolate"]


def loglog_interpolate(curve: list[tuple[Any, Any]], eps: float) -> float:
    """Linear interpolation in (log eps, log MSE) of a curve of (eps, MSE) points with increasing eps; nan
    outside its eps range (the SMS baseline of thesis Sec. 3.8 at an MMS point's central eps)."""
    for (e1, m1), (e2, m2) in zip(curve, curve[1:]):
        if e1 <= eps <= e2 and e2 > e1:
            t = (math.log(eps) - math.log(e1)) / (math.log(e2) - math.log(e1))
            return math.exp((1 - t) * math.log(float(m1)) + t * math.log(float(m2)))
    return math.nan
