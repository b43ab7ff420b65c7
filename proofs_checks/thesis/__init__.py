"""Checks of the thesis (A. M. Girgis): Ch. 3 (distributed mean estimation) and Ch. 5 ("Renyi
Differential Privacy of the Shuffled Model", with the RDP conversions and the baselines its figures use)."""
