r"""The papers' algorithms, one module per paper.

- :mod:`bai.algorithms.soare`   G-, XY-static, XY-adaptive, XY-oracle and fully adaptive
  allocations (Soare, Lazaric, Munos 2014)
- :mod:`bai.algorithms.lingape` LinGapE, greedy and ratio rules (Xu, Honda, Sugiyama 2018)
- :mod:`bai.algorithms.rage`    RAGE and ALBA, transductive designs (Fiez, Jain, Jamieson, Ratliff 2019)
- :mod:`bai.algorithms.baics`   T-a-SCS and its baselines (Wu, Zheng, Zhu)
- :mod:`bai.algorithms.racing`  top-k racing with delayed and partial feedback (Grover et al. 2018)
"""

from . import baics, lingape, racing, rage, soare

__all__ = ["baics", "lingape", "racing", "rage", "soare"]
