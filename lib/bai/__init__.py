"""bai: the library of the pure-exploration (best-arm identification) reproduction book.

One module per kind of object:

- :mod:`bai.designs`       experimental designs, rounding, greedy allocation
- :mod:`bai.estimation`    least squares and the papers' confidence widths
- :mod:`bai.environments`  bandit environments (exact sufficient-statistic sampling)
- :mod:`bai.instances`     the papers' benchmark instances
- :mod:`bai.experiments`   the experiment runner (seeds, parallelism, checkpoints, profiles)
- :mod:`bai.claims`        claims with computed verdicts
- :mod:`bai.plotting`      the book's plotting style
"""

from . import claims, designs, environments, estimation, experiments, instances, plotting, validation

__version__ = "0.1.0"

__all__ = ["claims", "designs", "environments", "estimation", "experiments", "instances",
           "plotting", "validation", "__version__"]
