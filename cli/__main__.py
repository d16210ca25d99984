"""`python -m cli …` is the `gosterge` command."""

import sys

from cli import main

sys.exit(main())
