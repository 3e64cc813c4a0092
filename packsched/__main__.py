"""``python -m packsched``: the same as the ``packsched`` console script."""

import sys

from packsched.cli import main

sys.exit(main())
