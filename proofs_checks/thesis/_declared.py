"""Claims of the thesis (Chs. 2-5) checked only by tests, tables or other checks' evidence (no check module).

They are declared here so that the theory index is generated entirely from the registry
(:mod:`bcdp.claims.registry`); the places that check them are in ``also_checked_in``.
"""

from __future__ import annotations

from bcdp.claims.registry import ClaimSpec

CLAIMS: tuple[ClaimSpec, ...] = (
    ClaimSpec(
        id="THESIS-Table3.1",
        paper="thesis",
        group="dme",
        where="Table 3.1 and Remark 3.6.3, Sec. 3.6",
        statement="Table 3.1: bits per client of (eps, delta)-DP schemes reaching MSE O(r2^2 d/(n^2 eps^2)) "
                  "for eps = O(1): MMS (this work) O(d log(n eps^2/d)) for d < n eps^2 and "
                  "O(n eps^2 log(d/(n eps^2))) beyond; CJM22 O(d sqrt(n)); CGK21 O(d log n); SecAgg "
                  "[KLS21, CCK22] O(d log n), O(n^2 eps^2 log d) for d > n^2 eps^2.",
        expected="partly reproduced",
        also_checked_in=(
            "`bcdp.repro.dme_figures.table3_1` (`bcdp tables dme_table3_1`)",
            "`tables/dme_table3_1.csv`, `tables/dme_table3_1.md`",
            "`tests/dme/test_dme_repro_figures.py`",
        ),
        status="partly reproduced: the printed orders are reproduced as text (peers not computed); exact bits "
               "and exact worst-case per-client LDP MSE of R^Bin, R^l1, R^linf (water-filling) and the l2 "
               "rotation mechanism at stated small parameters, checked against enumeration and 50-digit mpmath; "
               "the O(.) rates themselves are not verified",
    ),
    ClaimSpec(
        id="THESIS-Fig3.2",
        paper="thesis",
        group="dme",
        where="Fig. 3.2 (a)-(c), Sec. 3.8",
        statement="Fig. 3.2(a): R^linf_{v,m,s} with s = 1, m in {1,2,3,4}, d = n = 1, r_inf = 0.5 achieves MSE "
                  "close to the Laplace mechanism, and 'at most m = 3 bits' achieve similar performance as "
                  "Laplace; (b) shuffled scalar and (c) shuffled vector: MMS beats SMS.",
        expected="partly reproduced",
        also_checked_in=(
            "`bcdp.repro.dme_figures.fig32a_table` / `fig32b_table` (`bcdp tables dme_fig3_2a dme_fig3_2b`, PNGs by `bcdp tables dme`)",
            "`tables/dme_fig3_2a.csv`, `tables/dme_fig3_2a.png`, `tables/dme_fig3_2b.csv`, `tables/dme_fig3_2b.png`",
            "`tests/dme/test_dme_repro_figures.py`",
        ),
        status="partly reproduced: (a) exact worst-case MSE 4 r^2 (S_m^3/v^2 + 4^-m), attained at dyadic x; "
               "ratio to Laplace at the nominal eps0 -> S_m^3/2 as eps0 -> 0 (<= S_inf^3/2 = 2.467); only "
               "m = 1 beats Laplace (eps0 < 2, nominal); against Laplace at the exact eps the worst ratio on "
               "eps0 in [1/4, 10] is 2.78/1.79/1.44/1.78 for m = 1/2/3/4, so 'm = 3 is Laplace-like' holds "
               "only as 'within 1.45x'; (b) n = 1000, delta = 1e-5, m = 4, 6 (Thm 5.3.1 per level, summed, "
               "CKS) vs Laplace + FMT21 clones: MMS worse below central eps ~ 1 (MSE ratio up to 1.69), better "
               "above (0.42 to 0.77), so 'MMS beats SMS' holds at large eps only; (c) see THESIS-Fig3.2c",
    ),
    ClaimSpec(
        id="THESIS-Fig3.2c",
        paper="thesis",
        group="dme",
        where="Fig. 3.2(c), Sec. 3.8 'Shuffled model'",
        statement="Fig. 3.2(c): shuffled vector mean estimation, n = 1000, delta = 1e-5: the MMS R^l2_{v,m,s} "
                  "with s in {200, 250} has lower MSE than the SMS baseline PrivUnit [BDF18] + [FMT22] "
                  "amplification at the same central eps (d = 1000 in one sentence, d = 300 in another).",
        expected="not reproduced",
        also_checked_in=(
            "`bcdp.repro.dme_fig32c.fig32c_table` (`bcdp tables dme_fig3_2c`, PNG by `bcdp tables dme`)",
            "`tables/dme_fig3_2c.csv`, `tables/dme_fig3_2c.png`",
            "`tests/dme/test_dme_fig32c_table.py`",
            "`tests/dme/test_dme_privunit.py`",
            "`tests/dme/test_dme_hoeffding_clip.py` (the Hoeffding clip radius of `bcdp.dme.hoeffding_clip`)",
        ),
        status="not reproduced: with m = 4, v in {50, ..., 800}, r2 = 1, Thm 5.3.1 RDP summed over the "
               "ceil(D/a) informative blocks and the 4 levels, CKS, the MMS MSE upper bound is 75x to 2200x "
               "PrivUnit2 (best eps0 split) + FMT21 clones at the same central eps with Thm 3.6.5's clip radius "
               "or r_inf = r2, for d = 1000 and d = 300 alike; with the provable Hoeffding radius "
               "r2 sqrt(2 log(2 n D/beta)/D) (~7x smaller, ~48x less MSE; bound given no clipping, probability "
               ">= 1 - beta) and v in {50, ..., 1600}, MMS is still 2.97x to 60x worse (best at d = 1000, "
               "s = 250, v = 400, central eps 3.9): the composed privacy term dominates at small eps and the "
               "floor 4 r_inf^2 D ((a-1) g(1) + 4^-m)/n (0.10 to 0.26) exceeds PrivUnit's MSE at large eps; "
               "the MMS MSE is an upper bound from the exact l_inf variance, not a worst case",
    ),
    ClaimSpec(
        id="THESIS-Alg3.5.2-weights",
        paper="thesis",
        group="dme",
        where="proof of the MMS result for R^linf, Sec. 3.5 (after Alg 3.5.2)",
        statement="The server's estimate is z_hat = sum_k b_hat^(k) + u_hat 2^{-m+1} (as printed in the proof, "
                  "without the 2^{-k} of Alg 3.5.2).",
        expected="erratum",
        erratum="E-Thesis-MMS-weights",
        also_checked_in=(
            "`tests/dme/test_dme_linf_sampler.py::test_missing_level_weights_rejected`",
            "`bcdp.dme.linf_sampler.linf_level_estimates`",
        ),
        status="erratum (printed form refuted): at z = 5/8, m = 2 the printed estimate has mean 9/8; Alg 3.5.2's weighted estimate "
               "(bcdp.dme.linf_sampler) passes the chi-square test against the exact law, the unweighted "
               "one is rejected",
    ),
    ClaimSpec(
        id="THESIS-Figs5.2-5.6",
        paper="thesis",
        group="numerics",
        where="Figs 5.2-5.6, Sec. 5.3 and Sec. 5.5",
        statement="Figures 5.2 (RDP bounds vs alpha incl. exact 2RR), 5.3 (delta = 1e-6, vs n), 5.4 (a)-(f) "
                  "and 5.6 (T-fold composition, delta = 1e-8) regenerated: Thm 5.3.1 / 5.4.1 + CKS (5.41) vs "
                  "FMT21 clones (closed form Thm 3.1 and numerical) + KOV15 (Fig 5.6: + Ull17 subsampling). "
                  "Measured vs claimed ratios (table shuffle_ratios): 8x claimed -> 4.47x (numerical clones) "
                  "/ 21.3x (Thm 3.1 closed form); 14x claimed -> 2.13x (numerical clones; closed form "
                  "outside its range); 11x (Fig 5.5) and 2.5x (GDD21e + WBK19) not measured. Thesis "
                  "'baseline wins for T < 10, eps0 = 2' holds at T = 10 with the numerical clones (0.54x), "
                  "not with the closed form (2.08x). Fig 5.2/5.3 panel parameters and the delta split are "
                  "choices of this code.",
        expected="partly reproduced",
        also_checked_in=(
            "`bcdp.repro.shuffle_figures` (`bcdp tables shuffle`)",
            "`tables/shuffle_*`",
            "`tests/repro/test_shuffle_figures.py`",
        ),
        status="partly reproduced: figures regenerated, the claimed ratios are not",
    ),
    ClaimSpec(
        id="THESIS-11x",
        paper="thesis",
        group="numerics",
        where="Sec. 5.5, the discussion of Fig. 5.5",
        statement="Fig 5.5: \"save a factor of 11x\" at n = 1e6, gamma = 1e-3",
        expected="not reproduced",
        also_checked_in=(
            "`tables/shuffle_ratios.md` (`bcdp.repro.shuffle_figures.ratio_rows`)",
        ),
        status="not reproduced: the measured ratios are 0.53x to 3.54x (ratio table)",
    ),
    ClaimSpec(
        id="THESIS-2.5x",
        paper="thesis",
        group="numerics",
        where="Sec. 5.5, the discussion of Fig. 5.6; the baseline GDD21e eq. (3.5) (Lemma 3.3.1, Sec. 3.3.1) "
              "with [WBK19]",
        statement="Fig 5.6: 2.5x over GDD21e (3.5) + WBK19 at T = 1e5, gamma = 1e-3, eps0 = 2, n = 1e6",
        expected="not reproduced",
        also_checked_in=(
            "`tables/shuffle_ratios.md`",
        ),
        status="not reproduced: the baseline is invalid at that setting (the condition of (3.5) fails for "
               "every alpha)",
    ),
    ClaimSpec(
        id="THESIS-Fig5.7-baseline",
        paper="thesis",
        group="fl",
        where="Fig 5.7 and its text, Sec. 5.5 (baseline [FMT22] numerical + [Ull17] + [KOV15])",
        statement="Fig 5.7: [FMT22] reaches only 70.7% at eps = 1.4 (ours 80%), and needs eps = 4.82 for the 90% "
                  "that ours reaches at eps = 2.91.",
        expected="not reproduced",
        also_checked_in=(
            "`tables/fl_fig5_7.csv`, `tables/fl_figures.md` (`bcdp.repro.fl_figures`, `bcdp tables fl`)",
            "`THESIS-Fig5.7` (evidence: the baselines at the printed epochs)",
        ),
        status="not reproduced: at the epoch where ours = 2.91 (epoch 178, 6 rounds per epoch assumed) FMT21 "
               "numerical + Ull17 + KOV15 gives 2.93 and FMT21 Thm 3.1 + Ull17 + KOV15 gives 13.26, not 4.82; at the "
               "epoch where ours = 1.4 (36) the numerical baseline is 1.10 (below ours, so it would be the more "
               "accurate at eps = 1.4, against the text) and the closed form 4.80; accuracy axes not reproduced",
    ),
    ClaimSpec(
        id="THESIS-Fig4.2",
        paper="thesis",
        group="fl",
        where="Fig 4.2 and its text, Sec. 4.6 (\"eps computed numerically from Theorem 4.3.1\")",
        statement="Fig 4.2 (CLDP-SGD on MNIST, n = 6e4, k = 1e4, eps0 = 2, delta = 1e-5, 80 epochs): accuracy "
                  "76.7% at eps = 5 and 87.9% at eps = 10, eps from Thm 4.3.1.",
        expected="partly reproduced",
        also_checked_in=(
            "`tables/fl_fig4_2.csv`, `tables/fl_figures.md` (`bcdp.repro.fl_figures`)",
            "`THESIS-Thm4.3.1` (the explicit accountant)",
        ),
        status="partly reproduced (eps axis only): Thm 4.3.1 has no constants; made explicit "
               "(`bcdp.fl.accountants.cldp_sgd_accountant`, FMT21 Thm 3.1 per round) it reaches 5 at epoch 11 and 10 "
               "at epoch 33 and is 18.35 at 80 epochs (6 rounds per epoch assumed), so eps = 5 and 10 are points of "
               "that curve; with FMT21's numerical clone bound per round the same chain gives 4.04 at 80 epochs and the "
               "RDP route (Thm 5.4.1 + (5.41)) 4.27, neither reaching 5; "
               "accuracies not reproduced (no training)",
    ),
    ClaimSpec(
        id="THESIS-Table4.2",
        paper="thesis",
        group="fl",
        where="Table 4.2 and Fig 4.3, Sec. 4.6; Thm 4.5.1 (DP-AdaPeD), App. C.5",
        statement="Table 4.2 (MNIST, no client sampling): DP-AdaPeD / DP-FedAvg accuracy at eps = 3.35, 13.16, "
                  "27.30; Fig 4.3 (FEMNIST, sampling ratio 0.33): accuracy vs eps in [4, 9].",
        expected="not reproduced",
        also_checked_in=("this declaration",),
        status="not reproduced: the eps values need sigma_q1, sigma_q2, C1, C2, K and delta, which the thesis does "
               "not give (Sec. 4.6), and Thm 4.5.1 rests on the [MTZ19] subsampled-Gaussian approximation (no "
               "exact bound to evaluate); the accuracies need training",
    ),
    ClaimSpec(
        id="THESIS-Table4.1",
        paper="thesis",
        group="fl",
        where="Table 4.1 and Sec. 4.6 (\"This model has d = 13,170 parameters\")",
        statement="The MNIST model of Table 4.1 (conv 16 8x8 stride 2, max-pool 2x2, conv 32 4x4 stride 2, max-pool "
                  "2x2, FC 32, softmax 10) has d = 13,170 parameters.",
        expected="not reproduced",
        also_checked_in=("`bcdp.fl.communication.table41_parameter_counts`", "`THESIS-Sec4.6-bits` (evidence)"),
        status="not reproduced (an inconsistency of the text): over the 62 readings (of 64) of the unstated choices that leave a non-empty map (SAME or "
               "VALID padding per layer, pooling stride 1 or 2) the count (weights + biases) is one of 10650, 13722, "
               "18842, 26010, 35226, 46490, 59802, never 13170; the [PTS20] model it cites has 26010; the 28096x of "
               "Sec. 4.6 is 32 * 13170/15 exactly, so it inherits the printed d",
    ),
    ClaimSpec(
        id="THESIS-Lemma2.3.1-BBG19",
        paper="thesis",
        group="background",
        where="Lemma 2.3.1 part 1, Sec. 2.3 ([BBG19d, Cor 5.3.1])",
        statement="If eps0 <= log(n/log(1/delta))/2, the shuffle of n eps0-LDP reports is (eps, delta)-DP with "
                  "eps = O(min{eps0, 1} e^{eps0} sqrt(log(1/delta)/n)).",
        expected="not reproduced",
        also_checked_in=(
            "`bcdp.checks.thesis.lemma231_efm19_cor9` (part 2, with an explicit constant)",
        ),
        status="not checkable: an O(.) statement without constants; part 2 (THESIS-Lemma2.3.1-EFM19) is checked",
    ),
)
