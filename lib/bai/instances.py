r"""Instance builders shared by the chapters (one function per benchmark of the papers)."""

from __future__ import annotations

import numpy as np

from .environments import GaussianLinearBandit
from .validation import as_vector, check_int, check_positive

__all__ = ["soare_benchmark", "canonical_bandit"]


def soare_benchmark(d: int, *, omega: float = 0.01, scale: float = 2.0,
                    sigma: float = 1.0) -> GaussianLinearBandit:
    r"""The benchmark of Soare, Lazaric, Munos (2014), Sec. 6 (also Xu et al. 2018 Fig. 1,
    Fiez et al. 2019 Fig. 1a).

    :math:`\mathcal X=\{e_1,\dots,e_d,x_{d+1}\}` with :math:`x_{d+1}=(\cos\omega,\sin\omega,0,\dots,0)`,
    :math:`\theta^*=\text{scale}\cdot e_1`. The best arm is :math:`e_1` (index 0); the hard
    competitor is :math:`x_{d+1}` (index ``d``), with gap :math:`\text{scale}(1-\cos\omega)`, and
    the informative arm is :math:`e_2` (index 1).
    """
    d = check_int(d, "d", minimum=2)
    omega = check_positive(omega, "omega")
    scale = check_positive(scale, "scale")
    extra = np.zeros(d)
    extra[0], extra[1] = np.cos(omega), np.sin(omega)
    X = np.vstack([np.eye(d), extra])
    theta = np.zeros(d)
    theta[0] = scale
    return GaussianLinearBandit(X=X, theta=theta, sigma=sigma, name=f"soare(d={d}, omega={omega})")


def canonical_bandit(means, *, sigma: float = 1.0) -> GaussianLinearBandit:
    r"""A standard multi-armed bandit as a linear one: :math:`\mathcal X=\{e_i\}`, :math:`\theta=\mu`.

    On this instance :math:`H_{MAB}\le H_{LB}\le 2H_{MAB}` (Soare et al. 2014, Lemma 2).
    """
    mu = as_vector(means, "means")
    if mu.size < 2:
        raise ValueError(f"means must describe at least 2 arms, got {mu.size}")
    return GaussianLinearBandit(X=np.eye(mu.size), theta=mu, sigma=sigma, name="canonical")
