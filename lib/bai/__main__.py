"""``python -m bai reproduce <chapter> ...``: see :mod:`bai.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
