"""Baselines of the thesis' Chapter 5 figures (Figs 5.3-5.7), one namespace: FMT21 "hiding among the
clones" (:mod:`bcdp.shuffle.clones`) and KOV15 optimal composition with the thesis' composed baseline
(:mod:`bcdp.shuffle.composition`).  Results are :class:`~bcdp.core.results.Certified` (enclosures of
a privacy-profile value, and epsilon brackets whose extras -- ``delta``, ``delta_at_upper``,
``delta_at_lower``, ``method``, ``note``, search details -- are named details); inputs are floats
certified at their exact binary values (:mod:`bcdp.shuffle.baseline_common`).  Names are loaded on
first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "bcdp.shuffle.clones": ("CLOSED_FORM_VARIANTS", "clone_pair_delta", "clones_closed_form",
                            "clones_closed_form_cap", "clones_numerical"),
    "bcdp.shuffle.composition": ("advanced_composition", "clones_kov_composition", "kov_closed_form",
                                 "kov_delta", "kov_optimal_composition"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE_OF))


# the names of __all__ are provided lazily by __getattr__ above
__all__ = [  # noqa: F822
    "CLOSED_FORM_VARIANTS", "advanced_composition", "clone_pair_delta", "clones_closed_form",
    "clones_closed_form_cap", "clones_kov_composition", "clones_numerical", "kov_closed_form",
    "kov_delta", "kov_optimal_composition",
]
