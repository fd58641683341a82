r"""Frank--Wolfe Sampling as the reference code of Wang, Tzeng & Proutière (2021) runs it, and the
code's routine for the lower bound: the two errata of the paper's linear experiment
(the spec ``wang2021_fws.md``, pitfalls W2-W3; the repository ``rctzeng/NeurIPS2021-FWS``,
commit 7ec120f, ``linear/samplingrules.jl``, ``utilities/peps.jl``, read, not copied).

The paper's Algorithm 1 needs, for the closest alternative of each piece,
:math:`A(x)^{-1}=(\sum_kx_ka_ka_k^\top)^{-1}` at the FW iterate :math:`x` (Eq. 12):
:func:`bai.algorithms.fws.fws` computes it exactly. The reference code keeps instead a matrix
:math:`M` ("``Vxinv``") that

* starts as :math:`A(\text{uniform})=\frac1K\sum_ka_ka_k^\top`, the design matrix itself, **not
  its inverse**;
* is updated, after the FW step :math:`x\leftarrow\frac{t-1}tx+\frac1tz` at sample count
  :math:`t`, by :math:`M\leftarrow\mathrm{SM}(\frac{t-1}tM,\,z_1a_1/t)` and then
  :math:`M\leftarrow\mathrm{SM}(M,\,z_ka_k/t)` for :math:`k=2..K`, with the Sherman--Morrison
  step :math:`\mathrm{SM}(M,u)=M-Muu^\top M/(1+u^\top Mu)`. Read as the inverse of
  :math:`B=M^{-1}`, this is :math:`B\leftarrow\frac t{t-1}B+\sum_k(z_k/t)^2a_ka_k^\top`: the
  weights enter squared, and :math:`B` grows like :math:`t\,A(\text{uniform})^{-1}/K`, so that
  :math:`M` stays close to a multiple of :math:`A(\text{uniform})`.

The closest alternatives :math:`\lambda_j=\hat\theta-(y_j^\top\hat\theta/\|y_j\|^2_M)My_j`
(:math:`y_j=a_{\hat\imath}-a_j`; the scale of :math:`M` cancels) lie on the pieces' boundaries but
are not the closest ones in the metric :math:`A(x)`; the code's values
:math:`f_j=\frac12\sum_kx_k(a_k^\top(\hat\theta-\lambda_j))^2` are therefore **above** the true
:math:`f_j(x)` and its gradients :math:`\frac12(a_k^\top(\hat\theta-\lambda_j))^2` point elsewhere.
:func:`fws_code` runs FWS with this metric (the rest as :func:`bai.algorithms.fws.fws` and the
code: :math:`r_t=t^{-0.9}/K`, forced exploration when :math:`\lfloor t/K\rfloor` is a perfect
square, the zero-sum game of the :math:`r_t`-active pieces solved exactly by
:func:`bai.algorithms.fws.solve_matrix_game`, tracking :math:`\arg\max_kx_k/N_k`), under the
protocol of the reference code (:mod:`bai.algorithms.code_protocol`: every arm pulled once,
then the code's loop; the least-squares GLR or the code's ridge estimate and statistic).

:func:`oracle_code` is the code's ``oracle_linear_bai``, which produced the column
:math:`\mathrm{LB}_{lin}(\delta)` of the paper's Table 1: 10000 FW steps on the known
:math:`\theta` from the uniform design, with the same metric, except that the rescaling by
:math:`t/(t+1)` is applied before **each** of the :math:`K` rank-one updates of a step, and the
zero-sum game is solved at every step that is not a forced-exploration step (no shortcut when
one piece is active). It returns :math:`1/F_{\text{code}}(x)`, with the code's value of the last
iterate: not :math:`T^*(\theta)`.

The rule does not depend on :math:`\delta`: ONE trajectory per run gives the stopping time of
every :math:`\delta` and every threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ..validation import as_matrix, as_vector, check_choice, check_int
from ..validation import constraints
from .code_protocol import (RULE_FWS, best_arm, code_alternatives, code_metric_step,
                            fw_direction, run_protocol)
from .fws import is_square
from .glr import GLRResult, check_env, simulate_runs

__all__ = ["FWSCodeResult", "fws_code", "fws_code_runs", "code_alternatives",
           "code_metric_step", "oracle_code", "ORACLE_STEPS"]

#: FW steps of the code's oracle routine (``oracle_linear_bai``)
ORACLE_STEPS = 10_000


@dataclass
class FWSCodeResult(GLRResult):
    """One run of FWS with the reference code's metric (``info["lp_steps"]``: steps that solved
    the zero-sum game)."""


@constraints(env="gaussian_env", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count", estimate="choice", metric="choice")
def fws_code(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7,
             estimate: str = "lse", metric: str = "code") -> FWSCodeResult:
    r"""One run of FWS with the reference code's metric (module docstring), after one pull of
    every arm, under the protocol of :mod:`bai.algorithms.code_protocol`.

    Parameters
    ----------
    env : GaussianLinearBandit
        Its arms are the answers (Z = X).
    rng : numpy.random.Generator
        The run's noise.
    deltas : float or sequence of floats in (0, 1)
    threshold : str or sequence of str
        ``"heuristic"`` (the code's) and/or ``"beta_lt"``.
    max_samples : int
    estimate : {"lse", "code"}
        ``"lse"``: the least-squares estimate and the GLR of Eq. 7 (the statistic of
        :mod:`bai.algorithms.glr`); ``"code"``: as the reference code (spec W4, W9), the ridge
        estimate :math:`(I+V_t)^{-1}S_t` in the rule and the code's statistic.
    metric : {"code", "exact"}
        The code's matrix (default), or the exact :math:`A(x)^{-1}` (recomputed every step):
        with ``estimate="code"``, the effect of the code's estimate alone.
    """
    env = check_env(env)
    check_choice(estimate, "estimate", ("lse", "code"))
    check_choice(metric, "metric", ("code", "exact"))
    X = np.ascontiguousarray(env.X, dtype=float)
    K = X.shape[0]
    cnt = np.zeros(1, dtype=np.int64)
    # the code's start: A(uniform), not its inverse (or the exact inverse)
    M = (X.T @ X) / K if metric == "code" else np.linalg.inv((X.T @ X) / K)
    state = (np.full(K, 1.0 / K), M, np.empty(K), np.zeros((K, K)), cnt, metric == "exact")
    name = {("lse", "code"): "FWS (code metric)", ("code", "code"): "FWS (code)",
            ("lse", "exact"): "FWS (exact metric)", ("code", "exact"): "FWS (code estimate)"}
    res = run_protocol(RULE_FWS, env, rng, deltas=deltas, threshold=threshold,
                       max_samples=max_samples, estimate=estimate, statistic=estimate,
                       name=name[estimate, metric], result_cls=FWSCodeResult, fws=state)
    res.info["lp_steps"] = int(cnt[0])
    return res


@constraints(env="gaussian_env", n_runs="count", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count")
def fws_code_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`fws_code` (a ``RunsResult``), run ``r`` from its own
    generator."""
    return simulate_runs(fws_code, env, n_runs, rng, **kw)


@numba.njit(cache=True)
def _oracle(X, theta, steps):
    K, d = X.shape
    x = np.full(K, 1.0 / K)
    M = (X.T @ X) / K
    F = np.empty(K)
    G = np.zeros((K, K))
    b = best_arm(X, theta)
    for t in range(1, steps + 1):
        if is_square(t // K):
            z = np.full(K, 1.0 / K)
        else:
            z, _ = fw_direction(X, b, theta, M, x, F, G, t ** (-0.9) / K, True)
        for k in range(K):
            x[k] = t / (t + 1.0) * x[k] + z[k] / (t + 1.0)
        code_metric_step(M, X, z, t, True)
    code_alternatives(X, b, theta, M, x, F, G)
    return 1.0 / np.min(F), x


@constraints(X="matrix", theta="vector", steps="count")
def oracle_code(X, theta, steps: int = ORACLE_STEPS) -> tuple[float, np.ndarray]:
    r"""The reference code's ``oracle_linear_bai`` (module docstring): ``(T_code, x)``, the
    inverse of the code's value at its last FW iterate and that iterate. The code prints
    :math:`\mathrm{kl}(\delta,1-\delta)\,T_{\text{code}}` as :math:`\mathrm{LB}_{lin}(\delta)`."""
    X = np.ascontiguousarray(as_matrix(X, "X"), dtype=float)
    theta = as_vector(theta, "theta", size=X.shape[1])
    steps = check_int(steps, "steps", minimum=1)
    v = X @ theta
    best = int(np.argmax(v))
    if np.any(np.delete(v[best] - v, best) <= 2.220446049250313e-16):
        raise ValueError("theta must have a unique best arm (the code asserts it)")
    T, x = _oracle(X, np.ascontiguousarray(theta, dtype=float), steps)
    return float(T), x
