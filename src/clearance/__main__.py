"""``python -m clearance``: the same as the ``clearance`` command."""

import sys

from clearance.cli import main

sys.exit(main())
