"""`python -m app`: the same as the `pal-studio` command."""

import sys

from app.cli import main

sys.exit(main())
