"""PrivHeavyHitter (Algorithm 2 of the partial DP paper) and the Section 5 results built on it: the
public face of three modules.

Source: Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More Granular Differential Privacy
Guarantees" (arXiv:2209.04053), Sec. 5 and App. A.1-A.2; errata in ``docs/errata.md``
(E-PDP-E6, E-PDP-Thm15, E-PDP-Thm15-utility, E-PDP-Thm16, E-PDP-Lemma28-proof).

* :mod:`bcdp.partial.heavy_hitters_algorithm`: Algorithm 2 (Sec. 5.1-5.2): parameters, the Laplace
  closed forms of its accept/reject events, the dyadic tree, datasets and counts, the float64 sampler;
* :mod:`bcdp.partial.heavy_hitters_privacy`: privacy (Lemmas 28 and 29, App. A.1.1): the exact
  transcript law, exact sups of the log ratio (enumeration at d = 4, the path-sum method for any d),
  the symmetry reduction of exhaustive sweeps;
* :mod:`bcdp.partial.heavy_hitters_theorems`: Lemma 30 (utility, App. A.1.2), Theorem 15 (two-stage
  histogram, App. A.1.3) and Theorem 16 (lower bound, App. A.2).

Every public name of the three modules is importable from here.
"""

from __future__ import annotations

from bcdp.partial.heavy_hitters_algorithm import (  # noqa: F401  (public face)
    DPS,
    HHParams,
    Transcript,
    accept_probability,
    all_datasets,
    as_counter,
    hh_params,
    int_to_bits,
    laplace_tail,
    neighbours,
    priv_heavy_hitter_sample,
    reject_probability,
    restriction_counts,
    to_mpf,
    tree_levels,
)
from bcdp.partial.heavy_hitters_privacy import (  # noqa: F401  (public face)
    FIXED_BITS,
    LEVEL1_STRINGS,
    apply_symmetry,
    enumerate_transcripts_d4,
    example_pair_from_counts,
    lemma28_bound,
    max_log_ratio_d4,
    max_log_ratio_d4_bruteforce,
    neighbouring_pairs_up_to_symmetry,
    path_counts,
    path_sup_all_datasets,
    path_sup_for_pair,
    transcript_log_probability,
    tree_symmetries,
    zxx16_laplace_lemma,
)
from bcdp.partial.heavy_hitters_theorems import (  # noqa: F401  (public face)
    InclusionLaw,
    Thm15Params,
    inclusion_law,
    laplace_histogram_epsilon,
    lemma30_conditions,
    miss_probability_union_bound,
    packing_success_bound,
    rounding_success_probability,
    thm15_failure_bound,
    thm15_params,
    thm15_sample_size,
    thm16_packing_min_n,
    thm16_printed_bound,
    thm16_printed_step,
)
