"""Issue 14's accounting paths, side by side in one run (on demand, not collected by pytest):

    python3 benchmarks/bench_accounting_paths.py

* thm5.3.1 (thesis eq. (5.4)) over the 255 orders 2..256 at n = 1e6, eps0 = 1: the float twin
  ``thm531_upper_float`` (one numpy table, vectorised over orders), the same twin evaluated order by
  order (the loop it replaced: one call per order), the certified arb enclosures
  (``bound_balls.upper_bound_ball``, one per order) and the 60-digit mpmath reference
  (``shuffled_bounds.thm531_upper``) on 32 orders, extrapolated per order;
* RDP -> (eps, delta) of a 100-order array curve (Gaussian sigma = 1.5, 10 rounds, delta = 1e-6):
  dp_accounting's ``compute_epsilon`` (float, CKS + the total-variation rule), bcdp's certified
  ``rdp_to_dp`` (CKS) and ``tightest_rdp_to_dp`` (minimum over four conversions, certified);
* calibration of eps0 (``calibrate_eps0``: target eps 1, delta 1e-6, T = 10, n = 1e4, thm5.3.1);
* thm5.4.1 (subsampled shuffle) over 255 orders at n = 1e6, k = 1e4: the vectorised float twin, the
  same order by order, the certified arb enclosures; the certified Poisson mixture at one order; the
  calibration of eps0 with fixed-size and Poisson subsampling.

Prints one line per path: seconds per call (best of 5) and the ratio to the stated baseline.
"""

from __future__ import annotations

import time

import numpy as np


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def plain_thm531(n: int, eps0: float, orders: list[int]) -> np.ndarray:
    """A plain numpy evaluation of thesis (5.4) over integer orders (the baseline of the issue: one
    (orders x terms) table, no blocks), for the ratio of the library's float twin to it."""
    from scipy.special import gammaln, logsumexp

    E = np.exp(eps0)
    nb = np.floor((n - 1) / (2 * E)) + 1
    a = np.array(orders, dtype=float)[:, None]
    i = np.arange(3, max(orders) + 1, dtype=float)[None, :]
    lx = np.log(np.expm1(2 * eps0) ** 2 / (2 * E * E * nb)) / 2
    terms = np.where(i <= a, gammaln(a + 1) - gammaln(i + 1) - gammaln(np.maximum(a - i, 0) + 1) + np.log(i)
                     + gammaln(i / 2) + i * lx, -np.inf)
    first = np.log(a * (a - 1) / 2 * np.expm1(eps0) ** 2 / (nb * E))
    last = eps0 * a - (n - 1) / (8 * E)
    lse = logsumexp(np.concatenate([first, last, terms], axis=1), axis=1)
    return np.log1p(np.exp(lse)) / (a[:, 0] - 1)


def main() -> None:
    from bcdp.accounting.conversion import rdp_to_dp
    from bcdp.accounting.curves import gaussian_rdp, rdp_curve_from_arrays
    from bcdp.accounting.tightest import tightest_rdp_to_dp
    from bcdp.shuffle.bound_balls import upper_bound_ball
    from bcdp.shuffle.calibration import calibrate_eps0
    from bcdp.shuffle.float_bounds import thm531_upper_float
    from bcdp.shuffle.shuffled_bounds import thm531_upper
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    orders = list(range(2, 257))
    vec = best_of(lambda: thm531_upper_float(10 ** 6, 1.0, orders))
    loop = best_of(lambda: [thm531_upper_float(10 ** 6, 1.0, [a]) for a in orders], 2)
    arb = best_of(lambda: [upper_bound_ball("thm531_upper", 10 ** 6, "1", a) for a in orders], 2)
    mp32 = best_of(lambda: [thm531_upper(10 ** 6, "1", a) for a in orders[::8]], 1)
    plain = best_of(lambda: plain_thm531(10 ** 6, 1.0, orders))
    assert np.allclose(plain_thm531(10 ** 6, 1.0, orders), thm531_upper_float(10 ** 6, 1.0, orders), rtol=1e-12)
    print(f"thm5.3.1, 255 orders, n = 1e6: plain numpy {plain:.4f} s; library twin {vec / plain:.2f}x of it")
    print(f"thm5.3.1, 255 orders, n = 1e6: numpy table {vec:.4f} s; per-order loop {loop:.3f} s "
          f"({loop / vec:.0f}x); certified arb {arb:.3f} s ({arb / vec:.0f}x); "
          f"mpmath 60 digits ~{mp32 * 255 / 32:.2f} s ({mp32 * 255 / 32 / vec:.0f}x)")

    grid = [1 + x / 10.0 for x in range(1, 100)] + [11.0]
    curve = gaussian_rdp(1.5).compose(10)
    values = [curve(a) for a in grid]
    peer = best_of(lambda: compute_epsilon(grid, values, 1e-6), 50)
    # the curve is built inside the timing (dp_accounting takes the arrays); it is searched at its own
    # orders, the same 100 dp_accounting is given
    cks = best_of(lambda: rdp_to_dp(rdp_curve_from_arrays(grid, values), "1e-6"), 50)
    tight = best_of(lambda: tightest_rdp_to_dp(rdp_curve_from_arrays(grid, values), "1e-6"), 50)
    full = best_of(lambda: tightest_rdp_to_dp(rdp_curve_from_arrays(grid, values), "1e-6", certify_all=True), 50)
    print(f"RDP -> (eps, delta), 100 orders: dp_accounting {peer * 1e3:.3f} ms; bcdp cks certified "
          f"{cks * 1e3:.2f} ms ({cks / peer:.1f}x); bcdp tightest certified {tight * 1e3:.2f} ms "
          f"({tight / peer:.1f}x); every candidate certified {full * 1e3:.2f} ms ({full / peer:.1f}x)")

    cal = best_of(lambda: calibrate_eps0("1", "1e-6", 10 ** 4, rounds=10), 2)
    print(f"calibrate eps0 (T = 10, n = 1e4, thm5.3.1, 63 orders): {cal:.2f} s")

    from bcdp.shuffle.float_bounds import thm541_upper_float
    from bcdp.shuffle.subsampled_balls import poisson_thm541_ball, thm541_ball

    vec541 = best_of(lambda: thm541_upper_float(10 ** 6, 10 ** 4, 1.0, orders))
    loop541 = best_of(lambda: [thm541_upper_float(10 ** 6, 10 ** 4, 1.0, [a]) for a in orders], 2)
    arb541 = best_of(lambda: [thm541_ball(10 ** 6, 10 ** 4, "1", a) for a in orders], 1)
    print(f"thm5.4.1, 255 orders, n = 1e6, k = 1e4: numpy table {vec541:.4f} s; per-order loop {loop541:.3f} s "
          f"({loop541 / vec541:.0f}x); certified arb {arb541:.3f} s")
    pois = best_of(lambda: poisson_thm541_ball(10 ** 6, "0.01", "1", 64), 1)
    print(f"Poisson(0.01) mixture of thm5.4.1, n = 1e6, certified at alpha = 64: {pois:.2f} s")
    cal_k = best_of(lambda: calibrate_eps0("1", "1e-6", 10 ** 4, rounds=10, bound="thm541_upper", sample_size=1000), 2)
    cal_p = best_of(lambda: calibrate_eps0("1", "1e-6", 10 ** 4, rounds=10, bound="thm541_upper",
                                           poisson_rate="0.1"), 1)
    print(f"calibrate eps0 with subsampling (T = 10, n = 1e4, 63 orders): k = 1000 {cal_k:.2f} s; "
          f"Poisson 0.1 {cal_p:.2f} s")
    assert np.all(np.isfinite(thm531_upper_float(10 ** 6, 1.0, orders)))


if __name__ == "__main__":
    main()
