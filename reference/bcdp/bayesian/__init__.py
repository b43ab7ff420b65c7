"""bayesian"""
