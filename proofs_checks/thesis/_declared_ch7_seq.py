"""Claims of the thesis Sec. 7.6 (sequences of T samples / heavy hitters) checked only by tests (no check
module): Sec. 7.6 states no heavy-hitter rate, so the exact small-n computation below is a reproduction
of what the section implies, not a confirmation of a printed number.  The checkable Sec. 7.6 claims are
the checks ``def761_dp_distribution``, ``lemma761_dp_rec``, ``lemma762_column_entropy``,
``thm761_sequence_keys`` and ``rem761_shared_key``."""

from __future__ import annotations

from bcdp.claims.registry import ClaimSpec

CLAIMS: tuple[ClaimSpec, ...] = (
    ClaimSpec(
        id="THESIS-Sec7.6-heavy-hitters",
        paper="thesis",
        group="recoverability",
        where="Sec. 7.6 (heading 'Sequence of Distribution (or Heavy Hitter) Estimation', after Thm 7.6.1); "
              "risk r_hh^{l_inf} of Sec. 7.2",
        statement="For T samples (distribution or heavy-hitter estimation) it is optimal to use an eps-LDP-Rec "
                  "mechanism T times: the T-sample scheme needs T times the single-sample randomness and "
                  "serves each time step like the single-sample scheme.",
        expected="partly reproduced",
        also_checked_in=("`tests/randomness/test_randomness_heavy_hitters.py`",
                         "`bcdp.randomness.heavy_hitters` (`linf_risk`, `time_marginal`)",
                         "check `THESIS-Thm7.6.1` (randomness part)"),
        status="partly reproduced: in the additive scheme (F.24) the law of Y(t) depends on x(t) only (with "
               "the key's t-th marginal), so with the optimal product key each time step is exactly the "
               "single-sample (F.24) channel and its l_inf heavy-hitter risk is the single-sample risk; exact "
               "risks of the linear unbiased estimator for k = 2, e^eps = 3: 3/4, 9/16, 27/64, 189/512 for "
               "n = 1..4 (brute-force oracle in the tests); Sec. 7.6 gives no heavy-hitter rate and the "
               "minimax risk (infimum over estimators) is not computed",
    ),
)
