"""The ``bcdp`` command line: one module per subcommand, dispatched by :mod:`bcdp.cli.main`."""

from bcdp.cli.main import main

__all__ = ["main"]
