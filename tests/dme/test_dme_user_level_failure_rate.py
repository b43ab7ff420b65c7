"""``user_level.range_failure_rate_float`` counts exactly ``trials`` runs (thesis Alg 3.7.2): a case where every
run fails, so the count must equal the number of trials, including across the sampler's internal chunks."""

from __future__ import annotations

import numpy as np
from bcdp.dme import user_level


def _all_bins_bad_means() -> list[float]:
    # B = 2, tau = 1/2: k = 4 bins with midpoints -1.5, -0.5, 0.5, 1.5; each range is [mid - 1.5, mid + 1.5].
    # Users at -1.9 and 1.9 (3.8 apart > 6 tau = 3) cannot both lie in any range: every run fails.
    return [-1.9, 1.9]


def test_every_run_fails_and_is_counted_once():
    for trials in (1, 2, 7):
        rng = np.random.default_rng(12345)
        assert user_level.range_failure_rate_float(_all_bins_bad_means(), 2, "1/2", 3, rng, trials) == trials


def test_the_count_is_exact_across_chunks():
    # n = 2 users: the sampler works in chunks of 2_000_000 // 2 = 1_000_000 runs, so 1_000_003 runs take two
    # chunks; the count must still be exactly the number of runs (every run fails here).
    rng = np.random.default_rng(2024)
    trials = 1_000_003
    assert user_level.range_failure_rate_float(_all_bins_bad_means(), 2, "1/2", 3, rng, trials) == trials



def test_users_at_one_midpoint_almost_never_fail():
    # 40 users at y = 0.5 (bin 2 of B = 2, tau = 1/2).  Only bin 0's range [-3, 0] misses them.  At E = 10^12
    # each user keeps its sign except with probability 1/(E+1) < 1e-12, and without a flip bin 0 can only tie
    # bin 2 (then the lowest index wins) if all 40 sampled coordinates j have H[j, 2] = 1, probability 2^-40.
    # So P(some of the 1000 runs fails) <= 1000 (40e-12 + 2^-40) < 1e-7: the false-failure rate of this test.
    rng = np.random.default_rng(99)
    assert user_level.range_failure_rate_float([0.5] * 40, 2, "1/2", 10 ** 12, rng, 1000) == 0
