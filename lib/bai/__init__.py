"""bai: the library of the pure-exploration (best-arm identification) reproduction book.

One module per kind of object:

- :mod:`bai.designs`       experimental designs, rounding, greedy allocation
- :mod:`bai.lower_bounds`  every lower bound: psi* = H_LB (linear), the BAICS complexity T*
- :mod:`bai.estimation`    least squares and the papers' confidence widths
- :mod:`bai.environments`  bandit environments (exact sufficient-statistic sampling)
- :mod:`bai.instances`     the papers' benchmark instances
- :mod:`bai.datasets`      the real-data tables shipped inside the package (``bai/data``)
- :mod:`bai.experiments`   the experiment runner (seeds, parallelism, checkpoints, profiles)
- :mod:`bai.claims`        claims with computed verdicts
- :mod:`bai.plotting`      the book's plotting style
- :mod:`bai.publish`       the claims and the per-run tables as the book's dataset
- :mod:`bai.reported`      the values the papers report (compared against, never printed as ours)
- :mod:`bai.algorithms`    the papers' algorithms, one module per paper
- :mod:`bai.arena`         your own sampling rule in plain Python against the library's rules
"""

import sys as _sys

if _sys.argv[:1] == ["-m"]:   # `python -m bai`: a Ctrl-C while the package loads is one line
    import signal as _signal

    def _interrupted(signum, frame):
        # os._exit, not SystemExit: an import that catches everything (a bare ``except:`` in a
        # third-party package probing an optional dependency) would swallow the exception, and
        # the command would go on as if no Ctrl-C had come (seen under load). Nothing is written
        # while the package loads, so there is nothing to clean up.
        import os
        import sys

        print("\ninterrupted (Ctrl-C) while loading bai", file=sys.stderr, flush=True)
        os._exit(130)

    try:
        _signal.signal(_signal.SIGINT, _interrupted)
    except ValueError:        # pragma: no cover - not the main thread
        pass
del _sys

from . import _numba_cache  # noqa: E402

_numba_cache.install()  # before any compiled function of the package is defined

from . import (  # noqa: E402
    algorithms,
    arena,
    claims,
    datasets,
    designs,
    environments,
    estimation,
    experiments,
    instances,
    lower_bounds,
    plotting,
    publish,
    reported,
    validation,
)

import importlib.metadata as _metadata

try:  # pyproject.toml is the one source of the version; the fallback serves an uninstalled tree
    __version__ = _metadata.version("bai-book")
except _metadata.PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
    __version__ = "0+unknown"
del _metadata

__all__ = ["algorithms", "arena", "claims", "datasets", "designs", "environments", "estimation",
           "experiments", "instances", "lower_bounds", "plotting", "publish", "reported",
           "validation", "__version__"]
