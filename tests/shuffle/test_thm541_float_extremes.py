"""The float twins of thesis Thm 5.4.1 (:func:`bcdp.shuffle.float_bounds.thm541_upper_float`, the
Poisson mixture :func:`bcdp.shuffle.subsampled.thm541_poisson_float`) at extreme eps0: no exception and
no NaN anywhere; tiny eps0 (where E^2 - 1 and E - 1/E cancel in float) and large eps0 (up to the
e^eps0 overflow) against the printed formula in mpmath (:func:`shuffle_references.ref_thm541`); beyond
eps0 = 700 the twin is +inf (capped at eps0 with ``cap=True``)."""

from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest
from bcdp.shuffle.float_bounds import FLOAT_EPS0_MAX, thm541_upper_float
from bcdp.shuffle.subsampled import thm541_poisson_float
from shuffle_references import ref_thm541


@pytest.mark.parametrize("eps0", ["1e-8", "1e-5", "0.001", "300", "650", "699"])
@pytest.mark.parametrize("n,k", [(100, 10), (10 ** 4, 500)])
def test_thesis_variant_matches_the_printed_formula_at_extreme_eps0(eps0, n, k):
    orders = [2, 3, 5, 8]
    with warnings.catch_warnings():
        warnings.simplefilter("error")                  # no floating-point warning either
        got = thm541_upper_float(n, k, float(eps0), orders)
    for a, v in zip(orders, got):
        ref = ref_thm541(n, k, eps0, a)
        assert math.isfinite(v)
        if ref < mpmath.mpf(10) ** -300:                   # below the float range: 0 is the float reading
            assert v == 0 or abs(v - float(ref)) <= 1e-9 * float(ref)
        else:
            assert abs(v - float(ref)) <= 1e-9 * float(ref), (a, v, ref)


@pytest.mark.parametrize("variant", ["thesis", "koskela", "girgis_code"])
@pytest.mark.parametrize("eps0", [1e-300, 1e-12, 0.5, 699.0, 700.0, 700.5, 1e5, 1e300])
def test_no_exception_and_no_nan(variant, eps0):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = thm541_upper_float(100, 10, eps0, [2, 3, 8, 64], variant=variant)
        capped = thm541_upper_float(100, 10, eps0, [2, 3, 8, 64], variant=variant, cap=True)
    assert not np.isnan(out).any() and (out >= 0).all()
    assert (capped <= eps0).all() and (capped == np.minimum(out, eps0)).all()
    if eps0 > FLOAT_EPS0_MAX:
        assert np.isinf(out).all() and (capped == eps0).all()
    else:
        assert np.isfinite(out).all()


@pytest.mark.parametrize("eps0", [1e-300, 1e-12, 0.5, 40.0, 400.0, 800.0, 1e5])
def test_poisson_mixture_no_exception_no_nan_and_capped(eps0):
    orders = [2, 3, 8]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = thm541_poisson_float(200, 0.1, eps0, orders)
    assert not np.isnan(out).any() and np.isfinite(out).all() and (out >= 0).all()
    # every moment is capped at e^{(alpha-1) eps0}: the mixture's RDP is at most eps0 (up to rounding)
    assert (out <= eps0 * (1 + 1e-12)).all()
