"""Checks of the partial DP paper (Ghazi, Kumar, Manurangsi, Steinke, "Algorithms with More
Granular Differential Privacy Guarantees", arXiv:2209.04053)."""
