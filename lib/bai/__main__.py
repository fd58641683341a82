"""``python -m bai reproduce <chapter> ...``: see :mod:`bai.cli`."""

import signal
import sys

from .cli import main

if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)   # loaded: Ctrl-C -> main's line
    sys.exit(main())
