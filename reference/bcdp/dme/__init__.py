"""The thesis, Ch. 3: distributed mean estimation under privacy and communication constraints.

Exact (Fraction / sympy) implementations of the local randomizers and aggregators of thesis Ch. 3
(2RR of Alg 2.2.1, the binary-vector, l1-ball Hadamard, l_inf and l2 mechanisms, user-level mean
estimation), with their exact laws enumerated for small dimensions, and float64 samplers
property-tested against them.
"""
