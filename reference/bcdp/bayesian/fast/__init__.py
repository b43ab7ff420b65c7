"""float64 fast path for the privacy parameters of a finite mechanism (numpy, vectorised).

This subpackage mirrors :mod:`bcdp.bayesian.notions` and :mod:`bcdp.bayesian.hypothesis_testing`
in floating point for kernels far too large for the exact (Fraction) engine: LDP (Def. 1), BDP
(Def. 2), coordinate DP (Def. 3), Bayesian coordinate DP (Def. 4), coordinate dependence (eq. 13),
the conditional output laws (eq. 9) and the Neyman-Pearson trade-off curve (BCDP paper,
arXiv:2410.18404, Secs. 2-3).  It is independent of the exact modules: from bcdp it imports only the
input policy (:mod:`bcdp.core.numbers`) and the errors (:mod:`bcdp.core.errors`), and the exact
modules never import it; ``tests/bayesian/test_fast_vs_exact.py`` checks it against them.

Modules:

* :mod:`~bcdp.bayesian.fast.validation` -- :class:`FastParameter`, input validation (float-twin
  input policy: :func:`bcdp.core.numbers.to_float_input`; errors are
  :class:`~bcdp.core.errors.InvalidInputError`);
* :mod:`~bcdp.bayesian.fast.log_ratios` -- precise log-ratios and exact binary exponents;
* :mod:`~bcdp.bayesian.fast.point_ratios` -- LDP, BDP, CDP;
* :mod:`~bcdp.bayesian.fast.conditional` -- conditional output laws and BCDP (underflow-safe);
* :mod:`~bcdp.bayesian.fast.dependence` -- coordinate dependence;
* :mod:`~bcdp.bayesian.fast.hypothesis_testing` -- Neyman-Pearson curve, smallest delta of eq. (12).

Conventions
-----------
* ``kernel`` is an ``(n_inputs, n_outputs)`` array, row ``x`` the law of ``M(x)``; ``prior`` is a
  length-``n_inputs`` pmf; ``shape = (|X_1|, ..., |X_d|)`` with ``prod(shape) == n_inputs``, the
  inputs enumerated in lexicographic (C) order exactly as :class:`bcdp.core.spaces.ProductDomain` does.
* Every parameter is a :class:`FastParameter`: ``value`` is the natural-log privacy parameter
  (``math.inf`` for a ratio ``positive / 0``; never NaN) and ``witness`` a dict of integer indices
  (rows of the kernel, values of a coordinate as indices ``0..|X_i|-1``, output columns).
* The same finite reductions as the exact engine are used (see the docstring of
  :mod:`bcdp.bayesian.notions`): each supremum is a maximum over singleton events ``R = {y}`` and
  singleton conditioning sets, i.e. a per-output-column ``max / min``.  Pairs ``0/0`` are skipped,
  an all-zero column contributes nothing, ``positive/0`` is infinite.

Accuracy
--------
Inputs are floats, so the exact rationals are already rounded (relative error <= 2**-53 per
entry).  Beyond that, every reported value has relative error O(eps) with respect to the float
inputs (log-ratios near one are evaluated as ``log1p`` of an exact difference, see
:mod:`~bcdp.bayesian.fast.log_ratios`), plus O(n eps) for the sums of non-negative terms in the
BCDP laws, which are computed without underflow (method and proof in
:mod:`~bcdp.bayesian.fast.conditional`); the dependence has absolute error O(n eps).

Performance (``python benchmarks/bench_engine.py``; 4096 inputs = 12 binary coordinates, 4096
outputs, a shared 2-core machine under load): all five quantities together take 0.6-1.2 s
(LDP ~0.05, BDP ~0.05, CDP 0.35-0.8, BCDP 0.2-0.25, dependence < 0.01; the spread comes from
first-touch page faults of the 64 MB work buffer and from machine load).  The adversarial
``--stress`` inputs take 0.9-1.4 s, and 1.0-2.5 s when the exact fallback of the BCDP laws runs on
half of the columns.  There are no Python loops over inputs, outputs or input pairs; only over the
``d`` coordinates.
"""

from bcdp.bayesian.fast.conditional import (
    bcdp_vector_fast,
    conditional_output_laws_fast,
)
from bcdp.bayesian.fast.dependence import coordinate_dependence_fast
from bcdp.bayesian.fast.hypothesis_testing import (
    neyman_pearson_curve_fast,
    smallest_delta_fast,
)
from bcdp.bayesian.fast.point_ratios import (
    bdp_epsilon_fast,
    cdp_vector_fast,
    ldp_epsilon_fast,
)
from bcdp.bayesian.fast.validation import (
    FastParameter,
    validate_kernel,
    validate_prior,
    validate_shape,
)

__all__ = [
    "FastParameter",
    "bcdp_vector_fast",
    "bdp_epsilon_fast",
    "cdp_vector_fast",
    "conditional_output_laws_fast",
    "coordinate_dependence_fast",
    "ldp_epsilon_fast",
    "neyman_pearson_curve_fast",
    "smallest_delta_fast",
    "validate_kernel",
    "validate_prior",
    "validate_shape",
]
