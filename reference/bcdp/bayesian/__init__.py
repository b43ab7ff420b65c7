"""The BCDP paper: Bayesian coordinate differential privacy on finite spaces.

Aliakbarpour, Chaudhuri, Courtade, Fallah, Jordan, "Enhancing Feature-Specific Data Protection via
Bayesian Coordinate Differential Privacy", AISTATS 2025 (arXiv:2410.18404).

Exact engine (Fractions; floats refused, :mod:`bcdp.bayesian.exact_inputs`):

* :mod:`~bcdp.bayesian.notions` -- LDP, BDP, CDP, BCDP (Defs. 1-4) and coordinate dependence
  (eq. 13), with witnesses; :mod:`~bcdp.bayesian.bruteforce` -- the literal definitions;
* :mod:`~bcdp.bayesian.hypothesis_testing` -- Proposition 2 and Theorem 1 (eq. 12);
* :mod:`~bcdp.bayesian.cdp_to_bcdp` -- Propositions 4 and 6; :mod:`~bcdp.bayesian.symbolic` --
  App. A.5 and Corollary 1; :mod:`~bcdp.bayesian.variants` -- documented formula variants;
* :mod:`~bcdp.bayesian.allocation` -- Theorem 2's budgets (eq. 16) and the eq. (17) objective;
  :mod:`~bcdp.bayesian.optimal_allocation` -- the certified best allocation;
* :mod:`~bcdp.bayesian.highprec` / :mod:`~bcdp.bayesian.mmean_finite` -- mpmath twins for
  irrational kernels (Mechanism 1 as a finite kernel);
* :mod:`~bcdp.bayesian.mechanisms_theory` -- Mechanism 2's closed forms (sympy).

Float paths (approximations, tested against the exact engine): :mod:`~bcdp.bayesian.fast`
(float64 privacy parameters of large kernels), :mod:`~bcdp.bayesian.mechanisms` (Mechanisms 1-2 as
samplers), :mod:`~bcdp.bayesian.least_squares` (Algorithm 3).

The names below are re-exported lazily: ``import bcdp.bayesian`` loads neither sympy, scipy nor
matplotlib; each name loads its module on first use.
"""

from __future__ import annotations

from bcdp.core.lazy import lazy_exports

_EXPORTS = {
    # exact engine (Defs. 1-4, eq. 13)
    "ldp_epsilon": "notions", "bdp_epsilon": "notions", "cdp_vector": "notions",
    "bcdp_vector": "notions", "coordinate_dependence": "notions",
    "conditional_output_laws": "notions",
    # hypothesis testing (Prop. 2, Thm. 1)
    "neyman_pearson_curve": "hypothesis_testing", "satisfies_testing_criterion": "hypothesis_testing",
    # Props. 4 and 6
    "prop4_bcdp_bound": "cdp_to_bcdp", "prop4_bound_ratios": "cdp_to_bcdp",
    "prop4_bcdp_bound_float": "cdp_to_bcdp", "prop6_condition_holds": "cdp_to_bcdp",
    # Theorem 2 and the eq. (17) objective
    "BudgetAllocation": "allocation", "allocate_budgets": "allocation",
    "min_delta_baseline": "allocation", "mse_objective": "allocation",
    "mse_objective_float": "allocation",
    "OptimalAllocation": "optimal_allocation",
    # float64 fast path
    "FastParameter": "fast", "ldp_epsilon_fast": "fast", "bdp_epsilon_fast": "fast",
    "cdp_vector_fast": "fast", "bcdp_vector_fast": "fast", "coordinate_dependence_fast": "fast",
}

__getattr__, __dir__, __all__ = lazy_exports(
    __name__, {f"bcdp.bayesian.{module}": [n for n, m in _EXPORTS.items() if m == module]
               for module in sorted(set(_EXPORTS.values()))})
