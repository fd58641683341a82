"""What the benchmark scripts print about the machine and the package versions."""

from __future__ import annotations

import datetime as _dt
import importlib
import os
import platform


def environment(packages=("numpy", "scipy", "numba", "cvxpy", "clarabel")) -> str:
    """Date, host, cores, load average and the versions of ``packages``, in two lines."""
    try:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "n/a"
    versions = "  ".join(f"{name} {importlib.import_module(name).__version__}" for name in packages)
    return (f"{_dt.datetime.now().isoformat(timespec='seconds')}  {platform.node()}  "
            f"{os.cpu_count()} cores  load avg {load}\n"
            f"python {platform.python_version()}  {versions}")
