"""The thesis, Ch. 7: privacy, utility and randomness (successive refinement of privacy).

Mechanisms that draw on a key of R bits of private randomness: the (eps, R)-LDP model (Sec. 7.2),
single-level privacy and problem P1 (Sec. 7.3, App. F.1-F.3), Hadamard response (Sec. 7.3.2),
multi-level privacy (Sec. 7.4, App. F.4), private recoverability (Sec. 7.5, App. F.5-F.6, F.9) and
sequences of T samples (Sec. 7.6, App. F.7-F.8).  Entropies always carry an explicit unit (bits or
nats, :mod:`bcdp.randomness.entropy`): the thesis writes R in bits and the key entropies (7.47),
(7.51), (7.52) in nats.
"""
