"""Renyi DP of n shuffled eps0-LDP reports: every closed-form bound of thesis Chapter 5, one namespace.

Source: Girgis, PhD thesis, Chapter 5 ("Renyi differential privacy of the shuffle model") and
Appendix D.  This module is the public face of the bounds; the code lives in

* :mod:`bcdp.shuffle.shuffled_bounds` -- Sec. 5.3: Thm 5.3.1 (5.4), Cor 5.3.1 (5.5), Remark 5.3.2
  (5.6), Thm 5.3.2 (5.7), [EFM19] (5.8), Thm 5.3.3 (5.9), Cor 5.3.2 (5.10), the special case
  Thm 5.3.5 (5.13) / Thm 5.3.6 (5.16), nbar, kbar, binomial central moments;
* :mod:`bcdp.shuffle.subsampled_bounds` -- Sec. 5.4: Thm 5.4.1, Thm 5.4.2, Thm 5.4.4 (5.43),
  Thm 5.4.6, Lemma 5.4.1;
* :mod:`bcdp.shuffle.float_bounds` -- the float64 twins ``*_float``;
* :mod:`bcdp.shuffle.bound_balls` -- certified arb enclosures of the upper bounds (5.4), (5.5),
  (5.7), (5.8): :func:`upper_bound_ball`;
* :mod:`bcdp.shuffle.registry` -- :data:`BOUNDS`, the provenance of each bound;
* :mod:`bcdp.shuffle.inputs` -- the argument checks (floats refused by the high-precision
  functions; the twins take floats).

Names are loaded on first use (``import bcdp.shuffle.bounds`` loads neither scipy nor sympy).
"""

from __future__ import annotations

from bcdp.core.errors import InvalidInputError, ValidityConditionError  # noqa: F401  (re-exported)
from bcdp.core.lazy import lazy_exports

_WHERE = {
    "bcdp.shuffle.inputs": ("DEFAULT_DPS",),
    "bcdp.shuffle.registry": ("BOUNDS", "BoundSpec"),
    "bcdp.shuffle.shuffled_bounds": (
        "binomial_central_moments", "cor531_condition", "cor531_upper", "cor532_lower", "efm19_upper",
        "interpolate_real_alpha", "kbar", "nbar", "special_sum", "thm531_upper", "thm531_upper_real",
        "thm532_upper", "thm533_lower", "thm535_special_case", "thm536_special_case"),
    "bcdp.shuffle.subsampled_bounds": (
        "THM541_VARIANTS", "lemma541_subsampled", "thm541_upper", "thm542_lower", "thm544_ternary",
        "thm546_ternary_special_case", "upsilon"),
    "bcdp.shuffle.bound_balls": ("upper_bound_ball",),
    "bcdp.shuffle.float_bounds": (
        "cor531_upper_float", "cor532_lower_float", "efm19_upper_float", "thm531_upper_float",
        "thm532_upper_float", "thm533_lower_float", "thm541_upper_float"),
}
__getattr__, __dir__, _LAZY_NAMES = lazy_exports(__name__, _WHERE)
__all__ = sorted(_LAZY_NAMES + ["InvalidInputError", "ValidityConditionError"])
