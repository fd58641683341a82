"""bai: the library of the pure-exploration (best-arm identification) reproduction book.

One module per kind of object:

- :mod:`bai.designs`       experimental designs, rounding, greedy allocation
- :mod:`bai.lower_bounds`  lower bounds (the BAICS complexity T*)
- :mod:`bai.estimation`    least squares and the papers' confidence widths
- :mod:`bai.environments`  bandit environments (exact sufficient-statistic sampling)
- :mod:`bai.instances`     the papers' benchmark instances
- :mod:`bai.experiments`   the experiment runner (seeds, parallelism, checkpoints, profiles)
- :mod:`bai.claims`        claims with computed verdicts
- :mod:`bai.plotting`      the book's plotting style
- :mod:`bai.reported`      the values the papers report (compared against, never printed as ours)
- :mod:`bai.algorithms`    the papers' algorithms, one module per paper
"""

from . import (
    algorithms,
    claims,
    designs,
    environments,
    estimation,
    experiments,
    instances,
    lower_bounds,
    plotting,
    reported,
    validation,
)

__version__ = "0.1.0"

__all__ = ["algorithms", "claims", "designs", "environments", "estimation", "experiments",
           "instances", "lower_bounds", "plotting", "reported", "validation", "__version__"]
