r"""LinGame-C ("CG-C"; Degenne, Ménard, Shang, Valko, "Gamification of Pure Exploration for Linear
Bandits", ICML 2020): the game of the lower bound played over (answer, arm) pairs, under the
GLR stopping rule of :mod:`bai.algorithms.glr`.

:func:`bai.algorithms.lingame.lingame` ("Lk-C") keeps one learner over the arms per empirical
answer. CG-C keeps **one** AdaHedge learner over the :math:`M\times K` pairs :math:`(i,k)` and
tracks its weights over pairs. As LinBAI's ``ConvexGame`` (copied into the FWS repository,
``linear/samplingrules.jl``; the spec ``modern_linear_bai.md`` §2.3; read, not copied), at sample
count :math:`t`:

* the learner (:math:`\eta=\log(MK)/\Delta`, :math:`\Delta_0=0.01`) proposes weights
  :math:`W\in\Delta_{MK}`; the row :math:`W_{\hat z}` of the empirical answer gets the best
  response :math:`\lambda_{\hat z}`, the closest alternative to :math:`\hat\theta_t` under
  :math:`A(W_{\hat z}/\sum_kW_{\hat z,k})` (:func:`bai.algorithms.glr.closest_alternative`, exact
  inverse); every other row :math:`i\ne\hat z` gets :math:`\lambda_i=\hat\theta_t` (then
  :math:`\hat\theta_t` lies in the alternative of :math:`i`);
* gains :math:`\min(\frac1{2\sigma^2}(|x_k^\top(\hat\theta_t-\lambda_i)|+b_k)^2,\log t)`,
  :math:`b_k=\sigma\sqrt{2\log t\;x_k^\top V_t^{-1}x_k}`, for every pair (for
  :math:`i\ne\hat z` this is :math:`\min(\log t\,\|x_k\|^2_{V_t^{-1}},\log t)`);
* C-tracking over pairs: the pair counts :math:`P` start at 1 for every pair (the code's
  ``ones``), the cumulative weights at :math:`P`; each step adds :math:`W` and plays the pair
  :math:`(i,k)=\arg\min(P-\sum W)` (first index), i.e. pulls arm :math:`k`, and
  :math:`P_{ik}\mathrel{+}=1`.

The first steps pull every arm the initial pulls left out once (the code pulls each arm once
before its first step, without touching :math:`P`). The rule does not depend on :math:`\delta`:
ONE trajectory per run gives every :math:`\delta` and every threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .glr import (GLRResult, GLRRule, closest_alternative, design_inverse, observe, quad,
                  rule_doc, simulate, simulate_runs)
from .lingame import ADAHEDGE_DELTA0

__all__ = ["LinGameCResult", "lingame_c", "lingame_c_runs"]


@dataclass
class LinGameCResult(GLRResult):
    """One run of LinGame-C (``info["pair_counts"]``: the final pair counts :math:`P`)."""


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    L, Dl, P, cumw = rs
    Vinv, theta, N, ist = st[1], st[4], st[5], st[6]
    K, d = X.shape
    M = Z.shape[0]
    n = M * K
    sigma2 = sigma * sigma
    p = np.empty(n)
    gain = np.empty(n)
    wb = np.empty(K)
    ref = np.empty(K)
    dev = np.empty(K)
    for i in range(noise.shape[0]):
        a = -1
        for k in range(K):           # the code's initial pull of every arm
            if N[k] == 0:
                a = k
                break
        if a < 0:
            t = ist[0]
            b = ist[1]
            eta = math.log(n) / Dl[0]
            mn = np.min(L)
            s = 0.0
            for q in range(n):
                p[q] = math.exp(-eta * (L[q] - mn))
                s += p[q]
            for q in range(n):
                p[q] /= s
            sb = 0.0
            for k in range(K):
                wb[k] = p[b * K + k]
                sb += wb[k]
            for k in range(K):
                wb[k] /= sb
            Ainv = design_inverse(X, wb)
            m, val, lam = closest_alternative(Z, b, theta, Ainv, sigma2)
            lt = math.log(t)
            for k in range(K):
                r = 0.0
                for q in range(d):
                    r += X[k, q] * (theta[q] - lam[q])
                ref[k] = abs(r)
                dev[k] = sigma * math.sqrt(2.0 * lt * quad(Vinv, X[k]))
            for ii in range(M):
                for k in range(K):
                    rr = ref[k] if ii == b else 0.0
                    gain[ii * K + k] = min(0.5 * (rr + dev[k]) ** 2 / sigma2, lt)
            # AdaHedge: incur the loss -gain with the weights p
            lmin = np.inf
            for q in range(n):
                if -gain[q] < lmin:
                    lmin = -gain[q]
            acc = 0.0
            mix = 0.0
            for q in range(n):
                acc += p[q] * math.exp(-eta * (-gain[q] - lmin))
                mix += p[q] * (-gain[q])
            Dl[0] += mix - (lmin - math.log(acc) / eta)
            for q in range(n):
                L[q] -= gain[q]
            # C-tracking over pairs (every pair: the weights are positive)
            big, best = 0, np.inf
            for q in range(n):
                cumw[q] += p[q]
                v = P[q] - cumw[q]
                if v < best:
                    best, big = v, q
            P[big] += 1.0
            a = big % K
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma2, st):
            return i + 1, 1
    return noise.shape[0], 0


@rule_doc
def lingame_c(env, rng, *, deltas=(0.1,), threshold="heuristic",
              max_samples: int = 10**7) -> LinGameCResult:
    """One run of LinGame-C under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    """
    state = {}

    def init(e, S):
        n = e.Z.shape[0] * e.K
        state["rs"] = (np.zeros(n), np.array([ADAHEDGE_DELTA0]), np.ones(n), np.ones(n))
        return state["rs"]

    rule = GLRRule("LinGame-C", _kernel, init)
    res = simulate(env, rng, rule, deltas=deltas, threshold=threshold, max_samples=max_samples,
                   result_cls=LinGameCResult)
    res.info["pair_counts"] = state["rs"][2].reshape(env.Z.shape[0], env.K).astype(np.int64)
    return res


def lingame_c_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`lingame_c` (a ``RunsResult``)."""
    return simulate_runs(lingame_c, env, n_runs, rng, **kw)
