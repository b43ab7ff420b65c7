"""Exact Renyi DP of n shuffled eps0-LDP reports (thesis Chapter 5): oracles and fast paths, one
namespace.

Setting (thesis Sec. 5.2, eq. (5.1)-(5.2)): each of n users applies the same eps0-LDP randomizer to
its record; the shuffler outputs the histogram of the reports.  The RDP curve is eps(alpha) = sup
over neighbouring D ~ D' (replacement of one record) of D_alpha(M(D) || M(D')).  The code lives in

* :mod:`bcdp.shuffle.rr_pair` -- binary randomized response (2RR), the pair D = 0^n, D' = 0^{n-1}1:
  :func:`rr_pair_rdp_mp` (mpmath oracle, = thesis (5.9) in direction "DprimeD"),
  :func:`rr_pair_rdp` / :func:`rr_pair_log_moment` (float64 log space, vectorised over alpha);
* :mod:`bcdp.shuffle.rr_all_pairs` -- 2RR, every neighbouring pair: :func:`rr_all_pairs_rdp`,
  :func:`rr_worst_pair_rdp` (the exact RDP curve of shuffled 2RR), :func:`rr_worst_vs_lower_pair`,
  and the mpmath brute force :func:`rr_pair_over_j_mp`;
* :mod:`bcdp.shuffle.finite_laws` -- general finite mechanisms, small n, exact Fractions:
  :func:`shuffled_law`, :func:`subsampled_shuffled_law` (thesis (5.3); Poisson sampling for
  Fig. 5.5), :func:`shuffled_rdp_exact`, :func:`subsampled_shuffled_rdp_exact`, kernels;
* :mod:`bcdp.shuffle.logspace` -- float64 log-space kernels (:func:`log_binom_pmf`, ...);
* :func:`renyi_moment_exact` is :func:`bcdp.core.divergences.renyi_moment_exact`.

Conventions.  Exact functions take ints, Fractions, strings ("1/3", "0.5", "log(2)"), sympy
numbers or mpmath mpf, and refuse Python floats; they return Fractions or mpmath values at the
stated ``dps``.  Float fast paths take floats, work in log space and are tested against the mpmath
oracles.  Bad input (alpha <= 1, eps0 < 0, n < 1, NaN) raises
:class:`~bcdp.core.errors.InvalidInputError`; an infinite divergence is reported as ``inf``, never
NaN.  Names are loaded on first use.
"""

from __future__ import annotations

from bcdp.core.lazy import lazy_exports

_WHERE = {
    "bcdp.shuffle.inputs": ("DIRECTIONS",),
    "bcdp.shuffle.rr_pair": ("rr_pair_log_moment", "rr_pair_rdp", "rr_pair_rdp_mp"),
    "bcdp.shuffle.rr_all_pairs": ("argmax_pair", "renyi_divergence_mp", "rr_all_pairs_rdp", "rr_pair_over_j_mp",
                                  "rr_worst_pair_rdp", "rr_worst_vs_lower_pair"),
    "bcdp.shuffle.finite_laws": ("exact_exp_eps0", "kary_rr_kernel", "random_ldp_kernel", "shuffled_law",
                                 "shuffled_rdp_exact", "subsampled_shuffled_law", "subsampled_shuffled_rdp_exact"),
    "bcdp.shuffle.logspace": ("log_binom_pmf",),
    "bcdp.core.divergences": ("renyi_moment_exact",),
}
__getattr__, __dir__, _LAZY_NAMES = lazy_exports(__name__, _WHERE)
__all__ = sorted(_LAZY_NAMES)
