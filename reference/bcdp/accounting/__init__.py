"""Privacy accounting: Renyi DP and zCDP -> (eps, delta)-DP conversions with certified epsilons
(:mod:`~bcdp.accounting.conversion`), RDP curves and composition (:mod:`~bcdp.accounting.curves`),
the general subsampling transforms [WBK19, Thm 9] and [ZW19, Thm 6]
(:mod:`~bcdp.accounting.subsampling`), the exact RDP of the Poisson-subsampled Gaussian [MTZ19]
(:mod:`~bcdp.accounting.sampled_gaussian`), and shared argument checks (:mod:`~bcdp.accounting.inputs`).

Imports only :mod:`bcdp.core`.  The main functions are importable from the package (loaded on
first use: ``import bcdp.accounting`` loads neither sympy, scipy nor matplotlib).
"""

from __future__ import annotations

from bcdp.core.lazy import lazy_exports

_WHERE = {
    "bcdp.accounting.conversion": ("certify_at", "epsilon_at", "rdp_to_dp", "zcdp_to_dp"),
    "bcdp.accounting.curves": ("RdpCurve", "compose", "gaussian_rdp", "randomized_response_rdp",
                               "rdp_curve_from_arrays", "rdp_curve_from_callable", "zcdp_rdp"),
    "bcdp.accounting.sampled_gaussian": ("sgm_rdp_ball", "sgm_rdp_bounds", "sgm_rdp_float", "sgm_rdp_mp"),
    "bcdp.accounting.subsampling": ("wbk19_thm9", "wbk19_thm9_float", "zw19_thm6", "zw19_thm6_float"),
}
__getattr__, __dir__, _LAZY_NAMES = lazy_exports(__name__, _WHERE)
__all__ = sorted(_LAZY_NAMES)
