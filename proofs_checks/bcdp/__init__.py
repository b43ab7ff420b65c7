"""Checks of the BCDP paper (Aliakbarpour, Chaudhuri, Courtade, Fallah, Jordan, "Enhancing
Feature-Specific Data Protection via Bayesian Coordinate Differential Privacy", arXiv:2410.18404)."""
