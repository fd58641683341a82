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
  The first check, at :math:`t_0=d` after the spanner's pulls, is a tie in real arithmetic
  (:math:`V_{t_0}=\sum_{a\in A_0}x_ax_a^\top`, so :math:`\lambda_{\min}(V_{t_0})=c_0\sqrt{t_0}`):
  not forced. It is computed as :math:`\lambda_0\sqrt t>\lambda_{\min}(V_t)\sqrt d` with
  :math:`\lambda_0` from the same compiled ``eigvalsh`` of the same sums as :math:`V_{t_0}`, so
  the two sides are equal there bit for bit, on every machine (before, :math:`c_0` came from
  NumPy's ``eigvalsh`` of a BLAS product and the tie went either way by the BLAS kernel: an
  AVX-512 CPU forced a pull where an AVX2 one did not).
* **Tracking** (C-tracking, averaging): otherwise ``cumw += w`` and pull the arm of the support of
  :math:`w` with the largest deficit (:func:`bai.algorithms.kernels.ctrack`).
* **Lazy updates**: :math:`w` is recomputed only at :math:`t=d,2d,4d,\dots` (the official code's
  schedule), as the plug-in optimal allocation of :math:`\hat\theta_t` over the (active) pieces
  of the empirical answer (:func:`bai.algorithms.engine.plugin_design`: 1000 Frank--Wolfe steps
  from the uniform design; the official code runs at most 999 and stops at a 1% change).
  Every query of :mod:`bai.queries` (Tirinzoni & Degenne 2022 run it on top-m and thresholding).

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
from . import engine as E
from .glr import GLRResult
from .kernels import ctrack

__all__ = ["LazyTaSResult", "lazy_tas", "lazy_tas_runs"]


@dataclass
class LazyTaSResult(GLRResult):
    """One run of Lazy Track-and-Stop (``info["forced"]``: forced-exploration pulls,
    ``info["updates"]``: allocation updates)."""


@numba.njit(cache=True, error_model="numpy")
def _choose_arm(eng, rs, rng):
    w, cumw, A0, ist_r, fst_r = rs
    t = eng.t
    if t >= ist_r[1]:                       # a lazy update is due
        w[:] = E.plugin_design(eng, ist_r[4])
        ist_r[1] = max(2 * t, t + 1)
        ist_r[3] += 1
    forced = False
    sd = fst_r[2]
    if fst_r[1] * math.sqrt(t) > fst_r[0] * sd:  # the cached lambda_min no longer proves it
        lam = _lambda_min(eng.V)
        fst_r[0] = lam
        forced = fst_r[1] * math.sqrt(t) > lam * sd
    if forced:
        a = A0[ist_r[0]]
        ist_r[0] = (ist_r[0] + 1) % A0.shape[0]
        ist_r[2] += 1
        return a
    return ctrack(eng.N, cumw, w)


@numba.njit(cache=True)
def _lambda_min(V):
    r""":math:`\lambda_{\min}(V)` (LAPACK's ``eigvalsh`` through numba): the one routine of both
    sides of the forced-exploration test."""
    return np.linalg.eigvalsh(V)[0]


@numba.njit(cache=True)
def _gram(X, A0):
    r""":math:`\sum_{a\in A_0}x_ax_a^\top`, summed as the engine sums :math:`V_t` over the initial
    pulls (the same bits as :math:`V_{t_0}`)."""
    d = X.shape[1]
    G = np.zeros((d, d))
    for q in range(A0.shape[0]):
        a = A0[q]
        for i in range(d):
            for j in range(d):
                G[i, j] += X[a, i] * X[a, j]
    return G


def _init(env, state, fw_iter: int = 1000):
    X = np.ascontiguousarray(env.X, dtype=float)
    A0 = state.spanner
    lam0 = float(_lambda_min(_gram(X, np.asarray(A0, dtype=np.int64))))
    K = env.K
    return (np.full(K, 1.0 / K), state.counts.astype(float), A0,
            # i0, next update, forced, updates, fw_iter
            np.array([0, state.t, 0, 0, fw_iter], dtype=np.int64),
            np.array([0.0, lam0, math.sqrt(env.d)]))       # cached lambda_min, lambda_0, sqrt d


def _info(rs) -> dict:
    return {"forced": int(rs[3][2]), "updates": int(rs[3][3])}


RULE = E.CompiledRule("Lazy TaS", _choose_arm, _init, paper="Jedra & Proutière 2020",
                      info=_info, result_cls=LazyTaSResult)

lazy_tas, lazy_tas_runs = E.declare_rule(
    RULE, slug="lazy_tas", order=10, optimal=True,
    options={"fw_iter": E.Option(1000, check=lambda v: check_int(v, "fw_iter", minimum=1),
                                 kind="count", example=50)},
    doc="""One run of Lazy Track-and-Stop under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    fw_iter : int
        Frank--Wolfe steps of each lazy update.
    """)
