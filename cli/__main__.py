"""`python -m cli …` is the `gosterge` command."""

import sys

from cli import main

# Guarded: a process that multiprocessing spawns (the OCDS export's pool) imports the main module
# again, as `__mp_main__`, and must not run the command a second time.
if __name__ == "__main__":
    sys.exit(main())
