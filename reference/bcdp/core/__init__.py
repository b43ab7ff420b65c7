"""The trusted core every paper's package builds on; imports nothing else of bcdp.

* :mod:`bcdp.core.numbers` -- the number-input policy (exact inputs, float twins' inputs, caps);
* :mod:`bcdp.core.errors` -- the one exception hierarchy and its exit codes;
* :mod:`bcdp.core.intervals` -- the one certification backend (arb balls), outward rounding,
  certified comparisons of closed forms;
* :mod:`bcdp.core.results` -- :class:`~bcdp.core.results.Certified`, certified decisions, strict JSON;
* :mod:`bcdp.core.divergences` -- Renyi (every order), KL, D_inf, hockey-stick: exact, mpmath, float;
* :mod:`bcdp.core.spaces` / :mod:`bcdp.core.parameters` -- finite domains, priors, mechanisms and
  exact privacy-parameter values with witnesses.
"""
