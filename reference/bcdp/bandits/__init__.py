"""The thesis, Ch. 6: differentially private stochastic linear bandits.

Batched elimination under central, local and shuffled DP (Algs 6.3.1, 6.3.2, 6.4.1) with seeded
samplers, the exactly checkable privacy pieces (Laplace noise on batch reward sums, the local
randomizers, the shuffled calibration through eq. (6.10)), core sets (G-optimal design) and nets.
"""
