"""``python -m bcdp.cli``: the ``bcdp`` command (same as the installed console script)."""

import sys

from bcdp.cli.main import main

sys.exit(main())
