"""Baselines of the thesis' Chapter 5 figures (Figs 5.3-5.7), one namespace: FMT21 "hiding among the
clones" (:mod:`bcdp.shuffle.clones`) and KOV15 optimal composition with the thesis' composed baseline
(:mod:`bcdp.shuffle.composition`).  Results are :class:`~bcdp.core.results.Certified` (enclosures of
a privacy-profile value, and epsilon brackets whose extras -- ``delta``, ``delta_at_upper``,
``delta_at_lower``, ``method``, ``note``, search details -- are named details); inputs are floats
certified at their exact binary values (:mod:`bcdp.accounting.certified_floats`); the FMT21 closed form and advanced composition live in
:mod:`bcdp.accounting.amplification`.  Names are loaded on first use.
"""

from __future__ import annotations

from bcdp.core.lazy import lazy_exports

_WHERE = {
    "bcdp.accounting.amplification": ("CLOSED_FORM_VARIANTS", "advanced_composition", "clones_closed_form",
                                      "clones_closed_form_cap"),
    "bcdp.shuffle.clones": ("clone_pair_delta", "clones_numerical"),
    "bcdp.shuffle.composition": ("clones_kov_composition", "kov_closed_form", "kov_delta",
                                 "kov_optimal_composition"),
}
__getattr__, __dir__, _LAZY_NAMES = lazy_exports(__name__, _WHERE)
__all__ = sorted(_LAZY_NAMES)
