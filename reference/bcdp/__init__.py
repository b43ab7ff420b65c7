"""bcdp: a verified reference implementation of feature-specific differential privacy.

Exact finite-space engine (BCDP paper, Aliakbarpour et al. 2024, Sections 2-3):
:mod:`bcdp.core.spaces` (priors, mechanisms, composition, post-processing), :mod:`bcdp.bayesian.notions`
(LDP, BDP, CDP, BCDP, coordinate dependence, with witnesses), :mod:`bcdp.bayesian.hypothesis_testing`
(Proposition 2 / Theorem 1), :mod:`bcdp.bayesian.bruteforce` (literal definitions), and the float64 fast
path :mod:`bcdp.bayesian.fast` (tested against the exact engine; exact code never imports it).
"""

from bcdp.bayesian.notions import (
                      bcdp_vector,
                      bdp_epsilon,
                      cdp_vector,
                      conditional_output_laws,
                      coordinate_dependence,
                      ldp_epsilon,
)
from bcdp.core.errors import InvalidInputError
from bcdp.core.numbers import INFINITY, to_fraction
from bcdp.core.parameters import LogRatioParameter, ProbabilityParameter
from bcdp.core.spaces import (
                      Mechanism,
                      Prior,
                      ProductDomain,
                      compose,
                      post_process,
                      post_process_kernel,
)

__version__ = "0.1.0"

__all__ = [
    "INFINITY", "InvalidInputError", "LogRatioParameter", "Mechanism", "Prior",
    "ProbabilityParameter", "ProductDomain", "bcdp_vector", "bdp_epsilon", "cdp_vector",
    "compose", "conditional_output_laws", "coordinate_dependence", "ldp_epsilon",
    "post_process", "post_process_kernel", "to_fraction",
]
