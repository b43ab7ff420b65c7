"""Renyi DP of the shuffle model (Girgis, PhD thesis, Chapter 5; arXiv ids of the underlying papers
in each module): closed-form bounds, exact oracles, and the figures' baselines.

Modules (the three namespaces :mod:`bcdp.shuffle.bounds`, :mod:`bcdp.shuffle.exact` and
:mod:`bcdp.shuffle.baselines` re-export them):

* bounds -- :mod:`~bcdp.shuffle.shuffled_bounds` (Sec. 5.3), :mod:`~bcdp.shuffle.subsampled_bounds`
  (Sec. 5.4), :mod:`~bcdp.shuffle.float_bounds` (float64 twins), :mod:`~bcdp.shuffle.registry`
  (provenance), :mod:`~bcdp.shuffle.subsampled` ([GDD21e] (3.5), the sound Poisson route);
* exact oracles -- :mod:`~bcdp.shuffle.rr_pair`, :mod:`~bcdp.shuffle.rr_all_pairs`,
  :mod:`~bcdp.shuffle.finite_laws`, :mod:`~bcdp.shuffle.logspace`;
* baselines -- :mod:`~bcdp.shuffle.clones` (FMT21), :mod:`~bcdp.shuffle.composition` (KOV15);
* :mod:`~bcdp.shuffle.symbolic` -- sympy derivations used by the claim checks;
* :mod:`~bcdp.shuffle.inputs` -- argument checks (high-precision functions refuse floats; the
  ``*_float`` twins and float64 fast paths take them).

The main functions are importable from the package (loaded on first use: ``import bcdp.shuffle``
loads neither sympy, scipy nor matplotlib).
"""

from __future__ import annotations

from bcdp.core.lazy import lazy_exports

_WHERE = {
    "bcdp.shuffle.shuffled_bounds": ("thm531_upper", "thm532_upper", "cor531_upper", "efm19_upper",
                                     "thm533_lower", "cor532_lower", "nbar"),
    "bcdp.shuffle.subsampled_bounds": ("thm541_upper", "thm542_lower"),
    "bcdp.shuffle.float_bounds": ("thm531_upper_float", "thm532_upper_float", "thm541_upper_float"),
    "bcdp.shuffle.registry": ("BOUNDS",),
    "bcdp.shuffle.rr_pair": ("rr_pair_rdp", "rr_pair_rdp_mp"),
    "bcdp.shuffle.rr_all_pairs": ("rr_worst_pair_rdp",),
    "bcdp.shuffle.finite_laws": ("shuffled_law", "shuffled_rdp_exact"),
    "bcdp.accounting.amplification": ("clones_closed_form",),
    "bcdp.shuffle.clones": ("clones_numerical",),
    "bcdp.shuffle.composition": ("kov_optimal_composition", "clones_kov_composition"),
}
__getattr__, __dir__, _LAZY_NAMES = lazy_exports(__name__, _WHERE)
__all__ = sorted(_LAZY_NAMES)
