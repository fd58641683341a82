r"""A Top Two sampling rule for linear bandits with the transportation-cost challenger, under the
GLR stopping rule of :mod:`bai.algorithms.glr`.

After Jourdan, Degenne, Baudry, de Heide, Kaufmann ("Top Two Algorithms Revisited", NeurIPS
2022: leader, transportation-cost (TC) challenger) and the linear Top Two of LinBAI's code
(``LT3C`` with the arm rule "G"; spec ``modern_linear_bai.md`` §2.4, code read, not copied).
No paper proves this linear variant asymptotically optimal. At each step:

* **leader** (Thompson sampling): one draw :math:`\tilde\theta=\hat\theta_t+\sigma C\xi`,
  :math:`CC^\top=V_t^{-1}`, :math:`\xi\sim\mathcal N(0,I_d)`; :math:`B=\arg\max_zz^\top\tilde\theta`
  (LinBAI's code draws one sample per arm, which is not Thompson sampling, spec §4.5);
* **challenger** (TC): :math:`C=\arg\min_{z\ne B}\frac{((z_B-z)^\top\hat\theta_t)_+^2}
  {2\sigma^2\|z_B-z\|^2_{V_t^{-1}}}`, ties broken uniformly at random;
* **arm** ("G", greedy): the arm that most reduces :math:`\|z_B-z_C\|^2_{V_t^{-1}}`
  (:func:`bai.algorithms.glr.greedy_arm`), which also serves the transductive case
  (:math:`\mathcal Z\ne\mathcal X`), where "pull the leader or the challenger" has no meaning.

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold (equal to separate runs with one
:math:`\delta` each; tested). Its randomness (the Thompson draw and the ties) comes from
``rng``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .glr import (rule_doc, GLRResult, GLRRule, cholesky_small, greedy_arm, observe, quad, simulate,
                  simulate_runs)

__all__ = ["TopTwoResult", "top_two", "top_two_runs"]


@dataclass
class TopTwoResult(GLRResult):
    """One run of the linear Top Two rule."""


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    Vinv, theta, ist = st[1], st[4], st[6]
    M, d = Z.shape
    sigma2 = sigma * sigma
    th = np.empty(d)
    y = np.empty(d)
    W = np.empty(M)
    for i in range(noise.shape[0]):
        C = cholesky_small(Vinv)
        for p in range(d):
            s = 0.0
            for q in range(p + 1):
                s += C[p, q] * extra[i, q]
            th[p] = theta[p] + sigma * s
        B, bv = 0, -np.inf
        for m in range(M):
            v = 0.0
            for p in range(d):
                v += Z[m, p] * th[p]
            if v > bv:
                bv, B = v, m
        wmin = np.inf
        for m in range(M):
            if m == B:
                W[m] = np.inf
                continue
            g = 0.0
            for p in range(d):
                y[p] = Z[B, p] - Z[m, p]
                g += y[p] * theta[p]
            s2 = quad(Vinv, y)
            W[m] = 0.0 if g <= 0.0 or s2 <= 0.0 else g * g / (2.0 * sigma2 * s2)
            if W[m] < wmin:
                wmin = W[m]
        nt = 0
        for m in range(M):
            if W[m] == wmin:
                nt += 1
        # a uniform from the last normal of the step: the rank among the ties
        u = 0.5 * (1.0 + math.erf(extra[i, d] / math.sqrt(2.0)))
        pick = min(int(u * nt), nt - 1)
        Cn = -1
        for m in range(M):
            if W[m] == wmin:
                if pick == 0:
                    Cn = m
                    break
                pick -= 1
        for p in range(d):
            y[p] = Z[B, p] - Z[Cn, p]
        a = greedy_arm(X, Vinv, y)
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma2, st):
            return i + 1, 1
    return noise.shape[0], 0


@rule_doc
def top_two(env, rng, *, deltas=(0.1,), threshold="heuristic",
            max_samples: int = 10**7) -> TopTwoResult:
    """One run of the linear Top Two rule (TS leader, TC challenger, greedy arm) under the GLR
    rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    """
    d = env.d if hasattr(env, "d") else 0
    rule = GLRRule("Top Two (TS-TC-G)", _kernel, lambda e, S: (), n_extra=d + 1)
    return simulate(env, rng, rule, deltas=deltas, threshold=threshold, max_samples=max_samples,
                    result_cls=TopTwoResult)


def top_two_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`top_two` (a ``RunsResult``; every (threshold, delta) pair in
    ``info``)."""
    return simulate_runs(top_two, env, n_runs, rng, **kw)
