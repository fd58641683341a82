r"""Baseline sampling rules under the GLR stopping rules (:mod:`bai.algorithms.engine`), for
every query of :mod:`bai.queries` unless said otherwise.

* :func:`xy_tracking`: C-tracking of the XY-static design
  :math:`\arg\min_w\max_y\|y\|^2_{A(w)^{-1}}` over the normals of every half-space of the query
  (pairwise differences of the items for the best-arm and top-m queries: Soare et al. 2014,
  Eq. 14, :func:`bai.designs.xy_design`; the items themselves for thresholding), which ignores
  :math:`\theta`.
* :func:`oracle_tracking`: C-tracking of the oracle design :math:`w^*(\theta)` (known
  :math:`\theta`; :meth:`bai.queries.Query.oracle_design`, whose value gives :math:`T^*`): the
  allocation of the lower bound, so that only the stopping rule separates it from :math:`T^*`.
* :func:`lingape_glr`: LinGapE's greedy direction rule (Xu, Honda, Sugiyama 2018, Alg. 1 with
  the greedy arm selection, Eq. 9) on the pieces: the active piece maximising
  :math:`-g_p+\sigma\sqrt{2\beta(t,\delta_w)}\,\|a_p\|_{V_t^{-1}}` (for the best arm
  :math:`j_t=\arg\max_j(z_j-z_{\hat\imath})^\top\hat\theta+c_t\|z_{\hat\imath}-z_j\|_{V_t^{-1}}`;
  for top-m the same index over the pairs (member, non-member): m-LinGapE of Réda, Kaufmann &
  Delahaye-Duriez 2021; for thresholding :math:`-|z_k^\top\hat\theta-\tau|+c_t\|z_k\|_{V_t^{-1}}`,
  the OSI form of Tirinzoni & Degenne 2022, spec §2.3), then the arm
  :math:`\arg\min_k\|a_p\|_{(V_t+x_kx_k^\top)^{-1}}`, with :math:`\beta` the largest of the
  requested GLR thresholds in place of the paper's own width (ASSUMED: the GLR rule's width).
  This rule, unlike the others, **depends on** :math:`\delta`: a :math:`\delta`-free width such
  as :math:`\sigma\sqrt{2\log t}` stops exploring a direction once its statistic exceeds
  :math:`\log t`, so the GLR statistic never reaches :math:`\log(1/\delta)` before
  :math:`t\approx1/\delta` (observed: the runs reach the cap at :math:`\delta=10^{-6}`). The
  width uses :math:`\delta_w` = ``width_delta`` (default: the smallest of ``deltas``), and the
  stopping times of larger :math:`\delta` are read off that trajectory.
* :func:`lingifa`: LinGIFA (Réda, Kaufmann & Delahaye-Duriez 2021), top-m only: with the upper
  bounds :math:`B_{ij}=(z_i-z_j)^\top\hat\theta+\sigma\sqrt{2\beta(t,\delta_w)}\|z_i-z_j\|_{V_t^{-1}}`,
  :math:`J_t` = the :math:`m` items whose :math:`m`-th largest :math:`B_{\cdot j}` is smallest,
  :math:`b_t=\arg\max_{j\in J_t}\max_{i\notin J_t}B_{ij}`,
  :math:`c_t=\arg\max_{i\notin J_t}B_{ib_t}`, then the greedy arm for :math:`z_{b_t}-z_{c_t}`
  (spec ``tirinzoni2022_elimination.md`` §2.3; ties by index).
* :func:`uniform_glr`: round-robin over the arms.

Except for LinGapE's and LinGIFA's (see above), these rules do not depend on :math:`\delta`: ONE
trajectory per run gives the stopping time of every :math:`\delta` of ``deltas`` and every
threshold and stopping rule (equal to separate runs with one :math:`\delta` each; tested).
Each run starts with one pull of each of the first :math:`d` rank-raising arms
(:func:`bai.algorithms.glr.spanner`), counted in :math:`\tau`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from ..designs import PairwiseDifferences, solve_design
from ..queries import KIND_THRESHOLDING, TopM
from . import engine as E
from .glr import GLRResult, greedy_arm_t
from .kernels import ctrack

__all__ = ["TrackingResult", "LinGapEGLRResult", "UniformResult", "LinGIFAResult",
           "xy_tracking", "xy_tracking_runs", "oracle_tracking", "oracle_tracking_runs",
           "lingape_glr", "lingape_glr_runs", "uniform_glr", "uniform_glr_runs", "lingifa",
           "lingifa_runs"]


@dataclass
class TrackingResult(GLRResult):
    """One run of C-tracking of a fixed design (``info["design"]``) under the GLR rule."""


@dataclass
class LinGapEGLRResult(GLRResult):
    """One run of LinGapE's greedy direction rule under the GLR rule."""


@dataclass
class UniformResult(GLRResult):
    """One run of round-robin sampling under the GLR rule."""


@dataclass
class LinGIFAResult(GLRResult):
    """One run of LinGIFA (top-m) under the GLR rule."""


# --- uniform ---------------------------------------------------------------------------------


@numba.njit(cache=True)
def _uniform_arm(eng, rs, rng):
    return eng.t % eng.K


UNIFORM = E.CompiledRule("uniform", _uniform_arm, paper="baseline: round robin",
                         uses_pieces=False, result_cls=UniformResult)


uniform_glr, uniform_glr_runs = E.declare_rule(
    UNIFORM, slug="uniform_glr", order=80,
    doc="""Round-robin sampling (arm ``t mod K``) under the GLR rule.

    Parameters
    ----------
    {rule_parameters}
    """)


# --- tracking of a fixed design ------------------------------------------------------------


@numba.njit(cache=True)
def _track_arm(eng, rs, rng):
    w, cumw = rs
    return ctrack(eng.N, cumw, w)


def _tracked(w) -> np.ndarray:
    w = np.clip(np.asarray(w, dtype=float), 0.0, None)
    return w / w.sum()


#: the designs solved so far (a run's design depends only on its instance and query, so the
#: runs of a batch share one solve; the solver is deterministic): key -> weights
_DESIGNS: dict = {}
_DESIGNS_MAX = 64


def _design(kind: str, env, query, solve) -> np.ndarray:
    """The tracked design ``solve()`` of ``kind`` for ``env`` and ``query``, solved once per
    (arms, items, theta, query) in the process. The query enters by its class and its exact
    compiled encoding (``describe()`` rounds ``tau`` and ``eps`` to 6 digits: two thresholds
    0.1 and 0.1000001 would share one oracle design)."""
    X, Z, theta = (np.ascontiguousarray(a, dtype=float) for a in (env.X, query.Z, env.theta))
    key = (kind, type(query), query.encoding(), X.shape, Z.shape, X.tobytes(), Z.tobytes(),
           theta.tobytes() if kind == "oracle" else b"")
    w = _DESIGNS.get(key)
    if w is None:
        w = _tracked(solve())
        if len(_DESIGNS) >= _DESIGNS_MAX:
            _DESIGNS.pop(next(iter(_DESIGNS)))
        _DESIGNS[key] = w
    return w.copy()


def _xy_init(env, state):
    q = state.query
    Y = q.Z if q.kind == KIND_THRESHOLDING else PairwiseDifferences(q.Z)
    w = _design("xy", env, q, lambda: solve_design(env.X, Y).design)
    return w, state.counts.astype(float)


def _oracle_init(env, state):
    q = state.query
    w = _design("oracle", env, q, lambda: q.oracle_design(env.X, env.theta).design)
    return w, state.counts.astype(float)


def _design_info(rs) -> dict:
    return {"design": rs[0].copy()}


XY = E.CompiledRule("XY-static tracking", _track_arm, _xy_init,
                    paper="baseline: Soare et al. 2014, Eq. 14", uses_pieces=False,
                    info=_design_info, result_cls=TrackingResult)
ORACLE = E.CompiledRule("oracle tracking", _track_arm, _oracle_init,
                        paper="baseline: tracks w*(theta), knows theta", uses_pieces=False,
                        info=_design_info, result_cls=TrackingResult)


xy_tracking, xy_tracking_runs = E.declare_rule(
    XY, slug="xy_tracking", order=60,
    doc="""C-tracking of the XY-static design of the query under the GLR rule (module docstring).

    Parameters
    ----------
    {rule_parameters}
    """)
oracle_tracking, oracle_tracking_runs = E.declare_rule(
    ORACLE, slug="oracle_tracking", order=50,
    doc="""C-tracking of the oracle design w*(theta) of the query (known theta) under the GLR rule.

    Parameters
    ----------
    {rule_parameters}
    """)


# --- LinGapE's rule (and m-LinGapE, and the OSI form) ----------------------------------------


@numba.njit(cache=True, error_model="numpy")
def _lingape_arm(eng, rs, rng):
    y, u, R, pa, qa = rs
    r = eng.sigma * math.sqrt(2.0 * E.width_beta(eng))
    best, pb = -np.inf, -1
    act, gap, sq = eng.act, eng.gap, eng.sq
    n = 0
    for p in range(eng.n_pieces):
        if not act[p]:
            continue
        n += 1
        val = -gap[p] + r * math.sqrt(max(sq[p], 0.0))
        if val > best:
            best, pb = val, p
    eng.ii[E.WS] += n
    E.piece_vector(eng, pb, y)
    return greedy_arm_t(eng.Xt, eng.Vinv, y, u, R, pa, qa)


def _work(env, state):
    K, d = env.K, env.d
    return np.empty(d), np.empty(d), np.empty((d, K)), np.empty(K), np.empty(K)


LINGAPE = E.CompiledRule("LinGapE rule", _lingape_arm, _work,
                         paper="baseline: Xu et al. 2018, greedy rule (m-LinGapE for top-m: "
                               "Réda et al. 2021)", needs_width=True,
                         result_cls=LinGapEGLRResult)


#: the width's options of the LinGapE and LinGIFA rules (checked by the engine)
_WIDTH_OPTIONS = {"width_delta": E.Option(None, kind="delta_none"),
                  "width_threshold": E.Option(None, kind="threshold_none")}

lingape_glr, lingape_glr_runs = E.declare_rule(
    LINGAPE, slug="lingape_glr", order=70, options=_WIDTH_OPTIONS,
    doc=r"""LinGapE's greedy direction rule under the GLR rule (module docstring); its width is
    :math:`\sigma\sqrt{2\beta(t,\delta_w)}` with :math:`\beta` the largest of the thresholds
    ``width_threshold`` (default: those of ``threshold``) and :math:`\delta_w` = ``width_delta``
    (default: the smallest of ``deltas``). With both given, the trajectory does not depend on
    ``deltas`` and ``threshold``. Top-m: m-LinGapE; thresholding: the OSI form.""")


# --- LinGIFA (top-m) -------------------------------------------------------------------------


@numba.njit(cache=True, error_model="numpy")
def _lingifa_arm(eng, rs, rng):
    B, top, c, inJ, y, u, R, pa, qa = rs
    M = eng.M
    m = eng.ii[E.QM]
    conf = eng.sigma * math.sqrt(2.0 * E.width_beta(eng))
    v, hq = eng.v, eng.hq
    for i in range(M):                  # B[i, j] and B[j, i] share the pair's width: hq holds
        vi = v[i]                       # it in both triangles (the same value), so each row
        row = i * M                     # is computed in full, a loop that vectorises
        for j in range(M):
            B[i, j] = vi - v[j] + conf * math.sqrt(max(hq[row + j], 0.0))
        B[i, i] = -np.inf
    # c_j: the m-th largest B[i, j] (the diagonal's -inf included), each column's m largest
    # kept sorted while B is read row by row
    for j in range(M):
        for q in range(m):
            top[j, q] = -np.inf
    for i in range(M):
        for j in range(M):
            x = B[i, j]
            if x > top[j, m - 1]:
                q = m - 1
                while q > 0 and x > top[j, q - 1]:
                    top[j, q] = top[j, q - 1]
                    q -= 1
                top[j, q] = x
    for j in range(M):
        c[j] = top[j, m - 1]
        inJ[j] = 0
    # J: the m items of smallest c_j (ties by index)
    for q in range(m):
        bj = -1
        for j in range(M):
            if not inJ[j] and (bj < 0 or c[j] < c[bj]):
                bj = j
        inJ[bj] = 1
    bt, best = -1, -np.inf
    for j in range(M):
        if inJ[j]:
            mx = -np.inf
            for i in range(M):
                if not inJ[i] and B[i, j] > mx:
                    mx = B[i, j]
            if bt < 0 or mx > best:
                bt, best = j, mx
    ct, best = -1, -np.inf
    for i in range(M):
        if not inJ[i] and (ct < 0 or B[i, bt] > best):
            ct, best = i, B[i, bt]
    Z = eng.Z
    for r in range(Z.shape[1]):
        y[r] = Z[bt, r] - Z[ct, r]
    eng.ii[E.WS] += M * (M - 1)
    return greedy_arm_t(eng.Xt, eng.Vinv, y, u, R, pa, qa)


def _lingifa_init(env, state):
    M, K, d = state.M, env.K, env.d
    m = state.query.m
    return (np.empty((M, M)), np.empty((M, m)), np.empty(M), np.zeros(M, dtype=np.int64),
            np.empty(d), np.empty(d), np.empty((d, K)), np.empty(K), np.empty(K))


LINGIFA = E.CompiledRule("LinGIFA", _lingifa_arm, _lingifa_init,
                         paper="Réda, Kaufmann & Delahaye-Duriez 2021 (top-m)", queries=(TopM,),
                         uses_pieces=False, needs_width=True, needs_halfspaces=True,
                         result_cls=LinGIFAResult)


lingifa, lingifa_runs = E.declare_rule(
    LINGIFA, slug="lingifa", order=90, options=_WIDTH_OPTIONS,
    doc=r"""LinGIFA under the GLR rule, top-m only (``query=TopM(m)``; module docstring); the width
    as :func:`lingape_glr`'s.""")
