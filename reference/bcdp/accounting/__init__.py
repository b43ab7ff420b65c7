"""Privacy accounting: Renyi DP and zCDP -> (eps, delta)-DP conversions with certified epsilons
(:mod:`~bcdp.accounting.conversion`), RDP curves and composition (:mod:`~bcdp.accounting.curves`),
the general subsampling transforms [WBK19, Thm 9] and [ZW19, Thm 6]
(:mod:`~bcdp.accounting.subsampling`), and shared argument checks (:mod:`~bcdp.accounting.inputs`).

Imports only :mod:`bcdp.core`.  The main functions are importable from the package (loaded on
first use: ``import bcdp.accounting`` loads neither sympy, scipy nor matplotlib).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "bcdp.accounting.conversion": ("certify_at", "epsilon_at", "rdp_to_dp", "zcdp_to_dp"),
    "bcdp.accounting.curves": ("RdpCurve", "compose", "gaussian_rdp", "randomized_response_rdp",
                               "rdp_curve_from_arrays", "rdp_curve_from_callable", "zcdp_rdp"),
    "bcdp.accounting.subsampling": ("wbk19_thm9", "wbk19_thm9_float", "zw19_thm6", "zw19_thm6_float"),
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
    "RdpCurve", "certify_at", "compose", "epsilon_at", "gaussian_rdp", "randomized_response_rdp",
    "rdp_curve_from_arrays", "rdp_curve_from_callable", "rdp_to_dp", "wbk19_thm9", "wbk19_thm9_float",
    "zcdp_rdp", "zcdp_to_dp", "zw19_thm6", "zw19_thm6_float",
]
