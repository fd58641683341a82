r"""Lazy Track-and-Stop with forced exploration (Jedra and Proutière, "Optimal Best-arm
Identification in Linear Bandits", NeurIPS 2020), under the GLR stopping rule of
:mod:`bai.algorithms.glr`.

The paper proves it asymptotically optimal: :math:`\limsup\mathbb E[\tau]/\log(1/\delta)\le
T^*(\theta)` (with its own stopping threshold). What is implemented (the spec
``modern_linear_bai.md`` §2.1; the authors' ``LAZY_TS.py`` read, not copied):

* **Initial pulls** and spanner :math:`A_0`: the first :math:`d` rank-raising arms in index order,
  pulled once each (counted in :math:`\tau`; the official code adds their Gram matrix without
  pulling them).
* **Forced exploration**: if :math:`\lambda_{\min}(V_t)<c_0\sqrt t`, with
  :math:`c_0=\lambda_{\min}(\sum_{a\in A_0}x_ax_a^\top)/\sqrt d`, pull the next arm of
  :math:`A_0` (cyclically; the index advances on forced steps only). :math:`\lambda_{\min}` is
  recomputed only when needed: since :math:`V_t` only grows, a value
  :math:`\lambda_{\min}(V_s)\ge c_0\sqrt t` stays valid until :math:`t>(\lambda_{\min}(V_s)/c_0)^2`.
* **Tracking** (C-tracking, averaging): otherwise ``cumw += w`` and pull the arm of the support of
  :math:`w` with the largest deficit (:func:`bai.algorithms.glr.ctrack`).
* **Lazy updates**: :math:`w` is recomputed only at :math:`t=d,2d,4d,\dots` (the official code's
  schedule), as the plug-in optimal allocation of :math:`\hat\theta_t`
  (:func:`bai.algorithms.glr.plugin_design`: 1000 Frank--Wolfe steps from the uniform design;
  the official code runs at most 999 and stops at a 1% change).

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold (equal to separate runs with one
:math:`\delta` each; tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..validation import check_int
from .glr import rule_doc, GLRResult, GLRRule, ctrack, observe, plugin_design, simulate, simulate_runs

__all__ = ["LazyTaSResult", "lazy_tas", "lazy_tas_runs"]


@dataclass
class LazyTaSResult(GLRResult):
    """One run of Lazy Track-and-Stop (``info["forced"]``: forced-exploration pulls,
    ``info["updates"]``: allocation updates)."""


@numba.njit(cache=True)
def _kernel(X, Z, means, sigma, noise, extra, st, rs):
    w, cumw, A0, ist_r, fst_r = rs
    V, N, ist = st[0], st[5], st[6]
    for i in range(noise.shape[0]):
        t = ist[0]
        if t >= ist_r[1]:                       # a lazy update is due (Python)
            return i, 2
        forced = False
        if fst_r[1] * math.sqrt(t) > fst_r[0]:  # the cached lambda_min no longer proves it
            lam = np.linalg.eigvalsh(V)[0]
            fst_r[0] = lam
            forced = fst_r[1] * math.sqrt(t) > lam
        if forced:
            a = A0[ist_r[0]]
            ist_r[0] = (ist_r[0] + 1) % A0.shape[0]
            ist_r[2] += 1
        else:
            a = ctrack(N, cumw, w)
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma * sigma, st):
            return i + 1, 1
    return noise.shape[0], 0


class _Rule:
    def __init__(self, fw_iter):
        self.fw_iter = fw_iter
        self.info = {}

    def init(self, env, S):
        X = env.X
        A0 = S.init_arms
        lam0 = float(np.linalg.eigvalsh(X[A0].T @ X[A0])[0])
        K = env.K
        return (np.full(K, 1.0 / K), S.st[5].astype(float), A0,
                np.array([0, S.t, 0, 0], dtype=np.int64),        # i0, next update, forced, updates
                np.array([0.0, lam0 / math.sqrt(env.d)]))        # cached lambda_min, c0

    def update(self, rs, S, env):
        w, cumw, A0, ist_r, fst_r = rs
        w[:] = plugin_design(np.ascontiguousarray(env.X), np.ascontiguousarray(env.Z),
                             S.st[4].copy(), self.fw_iter)
        t = S.t
        ist_r[1] = max(2 * t, t + 1)
        ist_r[3] += 1
        self.info.update(forced=int(ist_r[2]), updates=int(ist_r[3]))


@rule_doc
def lazy_tas(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7,
             fw_iter: int = 1000) -> LazyTaSResult:
    """One run of Lazy Track-and-Stop under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    fw_iter : int
        Frank--Wolfe steps of each lazy update.
    """
    r = _Rule(check_int(fw_iter, "fw_iter", minimum=1))
    rule = GLRRule("Lazy TaS", _kernel, r.init, update=r.update, info=r.info)
    res = simulate(env, rng, rule, deltas=deltas, threshold=threshold, max_samples=max_samples,
                   result_cls=LazyTaSResult)
    return res


def lazy_tas_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`lazy_tas` (a ``RunsResult``; every (threshold, delta) pair in
    ``info``)."""
    return simulate_runs(lazy_tas, env, n_runs, rng, **kw)
