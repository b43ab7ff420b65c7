"""Shared test configuration: the tests mirror the source tree (tests/core, tests/bayesian, ...);
``strategies`` (hypothesis strategies shared by several packages' tests) lives here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
