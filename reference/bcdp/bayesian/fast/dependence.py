"""float64 coordinate dependence (eq. 13) of a prior on a product domain.

BCDP paper, eq. (13), reduced to singletons as in :mod:`bcdp.bayesian.notions` (R3).  The
conditionals are formed after a per-group power-of-two scaling (exact), then
``TV = sum max(p - q, 0)``: absolute error O(n eps).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from bcdp.bayesian.fast.log_ratios import NEG, group_exponents
from bcdp.bayesian.fast.validation import (
    FastParameter,
    as_float_array,
    validate_prior,
    validate_shape,
)
from bcdp.core.errors import InvalidInputError


def coordinate_dependence_fast(prior: Any, shape: Sequence[int],
                               atol: float = 1e-9) -> list[FastParameter]:
    """eq. (13): ``q_i = max_{v, v'} TV(pi_{x_-i | x_i=v}, pi_{x_-i | x_i=v'})`` over supported
    values.

    Witness ``{"coordinate": i, "value": v, "value_prime": v'}`` (the first pair attaining the
    maximum, in row-major order); ``None`` with value 0 when coordinate i has one supported value.
    """
    p = as_float_array(prior, "prior")
    if p.ndim != 1:
        raise InvalidInputError(f"prior must be a 1-D array, got shape {p.shape}")
    dims = validate_shape(shape, p.shape[0])
    p = validate_prior(p, p.shape[0], atol)
    out = []
    for i, n in enumerate(dims):
        A, B = math.prod(dims[:i]), math.prod(dims[i + 1:])
        gexp = group_exponents(p, dims, i)
        pr = p.reshape(A, n, B).transpose(1, 0, 2).reshape(n, A * B)
        values = np.flatnonzero(gexp > NEG)
        if values.size < 2:
            out.append(FastParameter(0.0, None))
            continue
        with np.errstate(under="ignore"):
            sc = np.ldexp(pr[values], (-gexp[values]).astype(np.int32)[:, None])
        cond = sc / sc.sum(axis=1, keepdims=True)
        diff = cond[:, None, :] - cond[None, :, :]
        tv = np.maximum(diff, 0.0).sum(axis=2)
        np.fill_diagonal(tv, -1.0)
        k = int(np.argmax(tv))
        a, b = divmod(k, values.size)
        out.append(FastParameter(float(tv[a, b]), {"coordinate": i, "value": int(values[a]),
                                                   "value_prime": int(values[b])}))
    return out
