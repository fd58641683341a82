r"""The papers' algorithms, one module per paper.

- :mod:`bai.algorithms.soare`  G-, XY-static, XY-adaptive, XY-oracle and fully adaptive
  allocations (Soare, Lazaric, Munos 2014)
"""
