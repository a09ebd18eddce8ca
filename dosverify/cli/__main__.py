"""`python -m dosverify.cli`, as `dosverify`."""

import sys

from . import main

sys.exit(main())
