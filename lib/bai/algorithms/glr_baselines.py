r"""Baseline sampling rules under the GLR stopping rule (:mod:`bai.algorithms.glr`).

* :func:`xy_tracking`: C-tracking of the XY-static design
  :math:`\arg\min_w\max_{y\in\mathcal Y(\mathcal Z)}\|y\|^2_{A(w)^{-1}}` (Soare et al. 2014,
  Eq. 14; :func:`bai.designs.xy_design`), which ignores :math:`\theta`.
* :func:`oracle_tracking`: C-tracking of the oracle design :math:`w^*(\theta)` (known
  :math:`\theta`; :func:`bai.designs.oracle_design`, whose value is :math:`\psi^*`): the
  allocation of the lower bound, so that only the stopping rule separates it from :math:`T^*`.
* :func:`lingape_glr`: LinGapE's greedy direction rule (Xu, Honda, Sugiyama 2018, Alg. 1 with
  the greedy arm selection, Eq. 9): :math:`i_t=\hat z`, :math:`j_t=\arg\max_{j}
  (z_j-z_{i_t})^\top\hat\theta+\sigma\sqrt{2\beta(t,\delta_w)}\,\|z_{i_t}-z_j\|_{V_t^{-1}}`,
  then the arm :math:`\arg\min_k\|z_{i_t}-z_{j_t}\|_{(V_t+x_kx_k^\top)^{-1}}`, with
  :math:`\beta` the largest of the requested GLR thresholds in place of the paper's own width
  (ASSUMED: the GLR rule's width).
  This rule, unlike the others, **depends on** :math:`\delta`: a :math:`\delta`-free width such
  as :math:`\sigma\sqrt{2\log t}` stops exploring a direction once its statistic exceeds
  :math:`\log t`, so the GLR statistic never reaches :math:`\log(1/\delta)` before
  :math:`t\approx1/\delta` (observed: the runs reach the cap at :math:`\delta=10^{-6}`). The
  width uses :math:`\delta_w` = ``width_delta`` (default: the smallest of ``deltas``), and the
  stopping times of larger :math:`\delta` are read off that trajectory.
* :func:`uniform_glr`: round-robin over the arms.

Except for LinGapE's (see above), these rules do not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` of ``deltas`` and every threshold of ``threshold`` (equal to separate runs
with one :math:`\delta` each; tested). Each run starts with one pull of each of the first
:math:`d` rank-raising arms (:func:`bai.algorithms.glr.spanner`), counted in :math:`\tau`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..designs import oracle_design, xy_design
from . import glr
from .glr import (GLRResult, GLRRule, ctrack, greedy_arm, observe, pair_gap, quad, simulate,
                  simulate_runs, threshold_offset)

__all__ = ["TrackingResult", "LinGapEGLRResult", "UniformResult", "xy_tracking",
           "xy_tracking_runs", "oracle_tracking", "oracle_tracking_runs", "lingape_glr",
           "lingape_glr_runs", "uniform_glr", "uniform_glr_runs"]


@dataclass
class TrackingResult(GLRResult):
    """One run of C-tracking of a fixed design (``info["design"]``) under the GLR rule."""


@dataclass
class LinGapEGLRResult(GLRResult):
    """One run of LinGapE's greedy direction rule under the GLR rule."""


@dataclass
class UniformResult(GLRResult):
    """One run of round-robin sampling under the GLR rule."""


@numba.njit(cache=True)
def _track_kernel(X, Z, means, sigma, noise, extra, st, rs):
    w, cumw = rs
    N = st[5]
    for i in range(noise.shape[0]):
        a = ctrack(N, cumw, w)
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma * sigma, st):
            return i + 1, 1
    return noise.shape[0], 0


def _track(env, rng, name, w, **kw):
    w = np.clip(np.asarray(w, dtype=float), 0.0, None)
    w = w / w.sum()
    rule = GLRRule(name, _track_kernel, lambda e, S: (w, S.st[5].astype(float)),
                   info={"design": w})
    return simulate(env, rng, rule, result_cls=TrackingResult, **kw)


def xy_tracking(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7):
    """C-tracking of the XY-static design under the GLR rule (module docstring)."""
    env = glr.check_env(env)
    glr.check_run_args(env, rng, deltas, threshold, max_samples)  # before the design is solved
    w = xy_design(env.X, None if env.Z is env.X else env.Z).design
    return _track(env, rng, "XY-static tracking", w, deltas=deltas, threshold=threshold,
                  max_samples=max_samples)


def oracle_tracking(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7):
    """C-tracking of the oracle design w*(theta) (known theta) under the GLR rule."""
    env = glr.check_env(env)
    glr.check_run_args(env, rng, deltas, threshold, max_samples)  # before the design is solved
    w = oracle_design(env.X, env.theta, None if env.Z is env.X else env.Z).design
    return _track(env, rng, "oracle tracking", w, deltas=deltas, threshold=threshold,
                  max_samples=max_samples)


@numba.njit(cache=True)
def _lingape_kernel(X, Z, means, sigma, noise, extra, st, rs):
    Vinv, theta, ist = st[1], st[4], st[6]
    M, d = Z.shape
    y = np.empty(d)
    for i in range(noise.shape[0]):
        t = ist[0]
        b = ist[1]
        beta = 0.0
        for q in range(rs[1].shape[0]):       # the largest width threshold at delta_w
            a0, b0 = threshold_offset(rs[1][q], t, st[7][0], st[7][2])
            beta = max(beta, a0 + b0 * rs[0][0])
        r = sigma * math.sqrt(2.0 * beta)
        jb, best = -1, -np.inf
        for m in range(M):
            if m == b:
                continue
            g = pair_gap(Z, b, m, theta, y)
            v = -g + r * math.sqrt(max(quad(Vinv, y), 0.0))
            if v > best:
                best, jb = v, m
        pair_gap(Z, b, jb, theta, y)
        a = greedy_arm(X, Vinv, y)
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma * sigma, st):
            return i + 1, 1
    return noise.shape[0], 0


def lingape_glr(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7,
                width_delta=None, width_threshold=None):
    r"""LinGapE's greedy direction rule under the GLR rule; its width is
    :math:`\sigma\sqrt{2\beta(t,\delta_w)}` with :math:`\beta` the largest of the thresholds
    ``width_threshold`` (default: those of ``threshold``) and :math:`\delta_w` = ``width_delta``
    (default: the smallest of ``deltas``). With both given, the trajectory does not depend on
    ``deltas`` and ``threshold``."""
    dw = float(np.min(glr.check_deltas(deltas))) if width_delta is None else \
        float(glr.check_deltas(width_delta, "width_delta")[0])
    wt = glr.check_thresholds(threshold if width_threshold is None else width_threshold,
                              "threshold" if width_threshold is None else "width_threshold")
    L = np.array([math.log(1.0 / dw)])
    kinds = np.array([glr._KIND[n] for n in wt], dtype=np.int64)
    rule = GLRRule("LinGapE rule", _lingape_kernel, lambda e, S: (L, kinds),
                   info={"width_delta": dw, "width_threshold": wt},
                   needs_logdet="mixture" in wt)
    return simulate(env, rng, rule, deltas=deltas, threshold=threshold,
                    max_samples=max_samples, result_cls=LinGapEGLRResult)


@numba.njit(cache=True)
def _uniform_kernel(X, Z, means, sigma, noise, extra, st, rs):
    K = X.shape[0]
    for i in range(noise.shape[0]):
        a = st[6][0] % K
        if observe(a, means[a] + sigma * noise[i], X, Z, sigma * sigma, st):
            return i + 1, 1
    return noise.shape[0], 0


def uniform_glr(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7):
    """Round-robin sampling (arm ``t mod K``) under the GLR rule."""
    rule = GLRRule("uniform", _uniform_kernel, lambda e, S: ())
    return simulate(env, rng, rule, deltas=deltas, threshold=threshold,
                    max_samples=max_samples, result_cls=UniformResult)


def xy_tracking_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`xy_tracking` (a ``RunsResult``; every pair in ``info``)."""
    return simulate_runs(xy_tracking, env, n_runs, rng, **kw)


def oracle_tracking_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`oracle_tracking`."""
    return simulate_runs(oracle_tracking, env, n_runs, rng, **kw)


def lingape_glr_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`lingape_glr`."""
    return simulate_runs(lingape_glr, env, n_runs, rng, **kw)


def uniform_glr_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`uniform_glr`."""
    return simulate_runs(uniform_glr, env, n_runs, rng, **kw)
