r"""LinGame (Degenne, Ménard, Shang, Valko, "Gamification of Pure Exploration for Linear Bandits",
ICML 2020), under the GLR stopping rule of :mod:`bai.algorithms.glr`.

The paper proves it asymptotically optimal (:math:`\limsup\mathbb E[\tau]/\log(1/\delta)\le
T^*`). The sampling rule solves the lower bound's game
:math:`\max_w\min_{\lambda\in\mathrm{Alt}(\hat z)}\frac12\|\theta-\lambda\|^2_{A(w)}` online: an
AdaHedge learner over the arms proposes :math:`w_t`, the closest alternative :math:`\lambda_t` to
:math:`\hat\theta_t` under :math:`A(w_t)` is its best response, and the learner gains optimistic
rewards. Implemented as LinBAI's ``LearnerK`` (the variant "Lk-C" of the paper's experiments;
the spec ``modern_linear_bai.md`` §2.3, code read, not copied):

* one AdaHedge learner per answer (created uniform when :math:`\hat z` first takes that value;
  :math:`\eta=\log K/\Delta`, :math:`\Delta_0=0.01`; de Rooij et al. 2014);
* :math:`\lambda_t` = :func:`bai.algorithms.glr.closest_alternative` with the exact
  :math:`A(w_t)^{-1}`;
* optimistic gains :math:`\min(\frac1{2\sigma^2}(|x_k^\top(\hat\theta_t-\lambda_t)|+b_k)^2,\log t)`,
  :math:`b_k=\sigma\sqrt{2\log t\;x_k^\top V_t^{-1}x_k}` (the maximum of
  :math:`\frac12(x_k^\top(\xi-\lambda_t))^2` over the ellipsoid
  :math:`\|\xi-\hat\theta_t\|^2_{V_t}\le2\sigma^2\log t`, clipped at :math:`\log t`); the paper's
  confidence level and clipping constants are UNVERIFIED (spec §2.3);
* C-tracking of :math:`\sum_sw_s` (cumulative weights start at the initial counts).

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold (equal to separate runs with one
:math:`\delta` each; tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .glr import (rule_doc, GLRResult, GLRRule, closest_alternative, ctrack, design_inverse, observe, quad,
                  simulate, simulate_runs)

__all__ = ["LinGameResult", "lingame", "lingame_runs", "ADAHEDGE_DELTA0"]

#: AdaHedge's initial Delta (LinBAI's code)
ADAHEDGE_DELTA0 = 0.01


@dataclass
class LinGameResult(GLRResult):
    """One run of LinGame (``info["learners"]``: answers whose learner was created)."""


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    L, Dl, visited, cumw, opt = rs
    Vinv, theta, N, ist = st[1], st[4], st[5], st[6]
    K, d = X.shape
    sigma2 = sigma * sigma
    p = np.empty(K)
    gain = np.empty(K)
    diff = np.empty(d)
    for i in range(noise.shape[0]):
        t = ist[0]
        b = ist[1]
        if not visited[b]:
            visited[b] = 1
            L[b, :] = 0.0
            Dl[b] = ADAHEDGE_DELTA0
        eta = math.log(K) / Dl[b]
        mn = np.min(L[b])
        s = 0.0
        for k in range(K):
            p[k] = math.exp(-eta * (L[b, k] - mn))
            s += p[k]
        for k in range(K):
            p[k] /= s
        Ainv = design_inverse(X, p)
        m, val, lam = closest_alternative(Z, b, theta, Ainv, sigma2)
        lt = math.log(t)
        for q in range(d):
            diff[q] = theta[q] - lam[q]
        for k in range(K):
            r = 0.0
            for q in range(d):
                r += X[k, q] * diff[q]
            if opt[0]:
                bk = sigma * math.sqrt(2.0 * lt * quad(Vinv, X[k]))
                gain[k] = min(0.5 * (abs(r) + bk) ** 2 / sigma2, lt)
            else:
                gain[k] = 0.5 * r * r / sigma2
        # AdaHedge: incur the loss -gain with the current weights p
        lmin = np.min(-gain)
        acc = 0.0
        mix = 0.0
        for k in range(K):
            acc += p[k] * math.exp(-eta * (-gain[k] - lmin))
            mix += p[k] * (-gain[k])
        Dl[b] += mix - (lmin - math.log(acc) / eta)
        for k in range(K):
            L[b, k] -= gain[k]
        a = ctrack(N, cumw, p)
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma2, st):
            return i + 1, 1
    return noise.shape[0], 0


@rule_doc
def lingame(env, rng, *, deltas=(0.1,), threshold="heuristic",
            max_samples: int = 10**7, optimism: bool = True) -> LinGameResult:
    r"""One run of LinGame under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    optimism : bool
        The optimistic, clipped gains (default, as the paper and LinBAI's code); ``False``
        gives the plain gains :math:`\frac1{2\sigma^2}(x_k^\top(\hat\theta_t-\lambda_t))^2`
        (bandit-elimination's code runs LinGame so): a diagnostic of what the optimism costs.
    """
    if not isinstance(optimism, bool):
        raise TypeError(f"optimism must be a bool, got {type(optimism).__name__}")
    state = {}

    def init(e, S):
        M = e.Z.shape[0]
        state["rs"] = (np.zeros((M, e.K)), np.full(M, ADAHEDGE_DELTA0),
                       np.zeros(M, dtype=np.int64), S.st[5].astype(float),
                       np.array([int(optimism)], dtype=np.int64))
        return state["rs"]

    rule = GLRRule("LinGame" if optimism else "LinGame (no optimism)", _kernel, init)
    res = simulate(env, rng, rule, deltas=deltas, threshold=threshold, max_samples=max_samples,
                   result_cls=LinGameResult)
    res.info["learners"] = int(state["rs"][2].sum())
    return res


def lingame_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`lingame` (a ``RunsResult``; every (threshold, delta) pair in
    ``info``)."""
    return simulate_runs(lingame, env, n_runs, rng, **kw)
