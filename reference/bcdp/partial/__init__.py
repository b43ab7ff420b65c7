"""Partial differential privacy: Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More Granular
Differential Privacy Guarantees" (arXiv:2209.04053), on finite mechanisms, exactly or certified.

Modules (by section of the paper):

* :mod:`~bcdp.partial.pure` -- Sec. 2: datasets of n records of d attributes, pure eps-nabla-DP,
  per-attribute eps0-nabla0-DP (Defs. 1, 4, 5; Lemma 7), exact with witnesses;
* :mod:`~bcdp.partial.dstar` -- Sec. 2, Def. 2: D* = sup_lambda D_lambda/lambda, certified;
* :mod:`~bcdp.partial.concentrated` -- Sec. 2: the eps-nabla-CDP / zCDP accountant (Defs. 3, 6);
* :mod:`~bcdp.partial.projection`, :mod:`~bcdp.partial.projection_mechanism` -- Sec. 4.1, Thm 11;
* :mod:`~bcdp.partial.mwem` -- Sec. 4.2, Algorithm 1, Thm 12, Lemma 13;
* :mod:`~bcdp.partial.heavy_hitters` (with ``heavy_hitters_algorithm``, ``heavy_hitters_privacy``,
  ``heavy_hitters_theorems``) and :mod:`~bcdp.partial.histogram` -- Sec. 5, Algorithm 2,
  Lemmas 28-30, Thms 15-16;
* :mod:`~bcdp.partial.halfspaces` (with ``robust_error``, ``robust_erm``) -- Sec. 6, Lemmas 21-23;
* :mod:`~bcdp.partial.semantics` -- Sec. 7.1, Props. 26-27;
* :mod:`~bcdp.partial.table1` -- Table 1 (Sec. 1.1) regenerated from the theorems (sympy).

The main functions below are importable from the package itself; each is loaded on first use, so
``import bcdp.partial`` loads no sympy, scipy or matplotlib.
"""

from __future__ import annotations

from bcdp.core.lazy import lazy_exports

#: public name -> module of this package that defines it
_EXPORTS = {
    "dataset_domain": "pure",
    "minimal_nabla_ratios": "pure",
    "nabla_dp_holds": "pure",
    "per_attribute_epsilon": "pure",
    "per_attribute_matrix": "pure",
    "whole_record_epsilon": "pure",
    "d_star": "dstar",
    "nabla_cdp_holds": "concentrated",
    "per_attribute_cdp_epsilon": "concentrated",
    "whole_record_zcdp": "concentrated",
}

__getattr__, __dir__, __all__ = lazy_exports(
    __name__, {f"bcdp.partial.{module}": [n for n, m in _EXPORTS.items() if m == module]
               for module in sorted(set(_EXPORTS.values()))})
