"""The thesis, Ch. 4: privacy of shuffled federated learning.

CLDP-SGD (Alg 4.3.1) and client self-sampling (dss-SGD, Sec. 4.4) enumerated exactly for one round on
small instances (unbiasedness, inclusion probabilities, the exact privacy profile of a round), the
privacy statements of Thms 4.3.1 and 4.4.1 as explicit accountants, and DP-AdaPeD's Thm 4.5.1.
"""
