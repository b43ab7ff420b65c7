"""Checks of the thesis Ch. 5, "Renyi Differential Privacy of the Shuffled Model" (A. M. Girgis),
with the RDP conversions and the baselines (FMT21 clones, KOV15 composition) its figures use."""
