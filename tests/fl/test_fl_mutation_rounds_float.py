"""bcdp.fl.rounds.sample_gradients_float at a uniform draw of exactly 0.0 (inverse-CDF `>=`, thesis Alg 4.3.1
lines 8-11): an output of probability 0 must never be drawn, even by u = 0."""

from __future__ import annotations

from fractions import Fraction

from bcdp.fl import rounds
from mutation_support import generator_drawing_zero_first


def test_zero_probability_output_is_never_drawn_at_u_zero():
    # n = m = k = s = size = 1: two uniform draws (client and record permutations), then u; the generator
    # is stepped back two draws so that u is exactly 0.0.  Output 0 has probability 0 for input 0 (it is an
    # output of input 1, so it is a column of the CDF table): u = 0 must pick output 5.
    rng = generator_drawing_zero_first()
    rng.bit_generator.advance(2 ** 128 - 2)
    probe = generator_drawing_zero_first()
    probe.bit_generator.advance(2 ** 128 - 2)
    probe.random(2)
    assert probe.random() == 0.0
    ker = {0: {0: Fraction(0), 5: Fraction(1)}, 1: {0: Fraction(1)}}
    g = rounds.sample_gradients_float(rng, ((0,),), ker, 1, 1, 1)
    assert g[0, 0] == 5.0
