"""Details of the subsampled calibration curve (:func:`bcdp.shuffle.calibration.shuffled_dp_epsilon` with
``sample_size`` / ``poisson_rate``) and of the calibration record: the Poisson window cap exactly at
its limit, the error naming a bad eps0, the curve's label in the result, the ``rel`` of the record.

Oracles: the window is :func:`bcdp.shuffle.subsampled_balls.poisson_window` (the documented window);
the cap is moved to that window's width (monkeypatch of the module constant the function reads at call
time), so the test decides ``width > cap`` on both sides of the boundary."""

from __future__ import annotations

import pytest
from bcdp.core.errors import InvalidInputError
from bcdp.shuffle import calibration, subsampled_balls


def _width(n: int, gamma: float, order: int, eps0: float) -> tuple[int, int]:
    lo, hi = subsampled_balls.poisson_window(n, gamma, order, eps0)
    return lo, hi - lo + 1


def test_poisson_window_cap_on_both_sides_of_the_boundary(monkeypatch):
    n, orders = 1000, [2, 3]
    lo, width = _width(n, 0.3, max(orders), 1.0)
    assert lo > 0 and width > 2                    # lo > 0: hi + lo + 1 differs from the width
    monkeypatch.setattr(subsampled_balls, "POISSON_WINDOW_MAX", width)
    res, _ = calibration.shuffled_dp_epsilon(n, "1", "1e-6", bound="thm541_upper", orders=orders,
                                            poisson_rate="0.3")
    assert res.upper > 0
    monkeypatch.setattr(subsampled_balls, "POISSON_WINDOW_MAX", width - 1)
    with pytest.raises(InvalidInputError, match=f"over {width} sample sizes"):
        calibration.shuffled_dp_epsilon(n, "1", "1e-6", bound="thm541_upper", orders=orders, poisson_rate="0.3")


@pytest.mark.parametrize("sub", [{"sample_size": 10}, {"poisson_rate": "0.1"}])
def test_a_bad_eps0_is_named(sub):
    with pytest.raises(InvalidInputError, match="eps0"):
        calibration.shuffled_dp_epsilon(100, "abc", "1e-6", bound="thm541_upper", orders=[2, 3], **sub)


def test_the_result_names_the_subsampled_curve():
    res, source = calibration.shuffled_dp_epsilon(100, "1", "1e-6", bound="thm541_upper", orders=[2, 3, 4],
                                                  sample_size=10)
    assert res.details["curve"] == "Thm 5.4.1, k = 10 of n = 100, eps0 = 1"
    assert "Thm 5.4.1" in source and "without replacement" in source
    res, source = calibration.shuffled_dp_epsilon(100, "1", "1e-6", bound="thm541_upper", orders=[2, 3],
                                                  poisson_rate="0.1")
    assert res.details["curve"] == "Poisson(gamma = 0.1) Thm 5.4.1 mixture, n = 100, eps0 = 1"
    assert "Poisson subsampling" in source


@pytest.mark.parametrize("rel", [1e-3, 0.05])
def test_the_calibration_record_keeps_its_tolerance(rel):
    out = calibration.calibrate_eps0("1", "1e-6", 10 ** 4, rounds=2, rel=rel)
    assert set(out) == {"eps0", "epsilon", "target_eps", "rel", "beyond", "capped"}
    assert out["rel"] == rel and out["target_eps"] == 1.0 and out["epsilon"] <= 1.0
