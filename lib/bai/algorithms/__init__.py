r"""The papers' algorithms, one module per paper, and what they share.

Every algorithm has one shape: ``<alg>(env, rng, ...) -> <Alg>Result`` for one run and
``<alg>_runs(env, n_runs, rng, ...) -> RunsResult`` for a batch (:mod:`bai.algorithms.common`).
Their widths and log terms are in :mod:`bai.estimation`, the lower bounds in
:mod:`bai.lower_bounds`.

- :mod:`bai.algorithms.common`  :class:`~bai.algorithms.common.RunsResult`, the shared
  static-path simulator and grid

- :mod:`bai.algorithms.soare`   G-, XY-static, XY-adaptive, XY-oracle and fully adaptive
  allocations (Soare, Lazaric, Munos 2014)
- :mod:`bai.algorithms.lingape` LinGapE, greedy and ratio rules (Xu, Honda, Sugiyama 2018)
- :mod:`bai.algorithms.rage`    RAGE and ALBA, transductive designs (Fiez, Jain, Jamieson, Ratliff 2019)
- :mod:`bai.algorithms.baics`   T-a-SCS and its baselines (Wu, Zheng, Zhu)
- :mod:`bai.algorithms.racing`  top-k racing with delayed and partial feedback (Grover et al. 2018)
- :mod:`bai.algorithms.registry` the arena's table of the linear algorithms
"""

from . import baics, common, lingape, racing, rage, soare

__all__ = ["baics", "common", "lingape", "racing", "rage", "soare"]
