r"""LinGame-C ("CG-C"; Degenne, Ménard, Shang, Valko, "Gamification of Pure Exploration for Linear
Bandits", ICML 2020): the game of the lower bound played over (answer, arm) pairs, under the
protocol of the reference code (:mod:`bai.algorithms.code_protocol`).

:func:`bai.algorithms.lingame.lingame` ("Lk-C") keeps one learner over the arms per empirical
answer. CG-C keeps **one** AdaHedge learner over the :math:`M\times K` pairs :math:`(i,k)` and
tracks its weights over pairs. As LinBAI's ``ConvexGame`` (copied into the FWS repository,
``linear/samplingrules.jl``; the spec ``modern_linear_bai.md`` §2.3; read, not copied), at sample
count :math:`t`:

* the learner (:math:`\eta=\log(MK)/\Delta`, :math:`\Delta_0=0.01`) proposes weights
  :math:`W\in\Delta_{MK}`; the row :math:`W_{\hat z}` of the empirical answer gets the best
  response :math:`\lambda_{\hat z}`, the closest alternative to :math:`\hat\theta_t` under
  :math:`A(W_{\hat z}/\sum_kW_{\hat z,k})` (:func:`bai.queries.closest_point`, exact
  inverse); every other row :math:`i\ne\hat z` gets :math:`\lambda_i=\hat\theta_t` (then
  :math:`\hat\theta_t` lies in the alternative of :math:`i`);
* gains :math:`\min(\frac1{2\sigma^2}(|x_k^\top(\hat\theta_t-\lambda_i)|+b_k)^2,\log t)`,
  :math:`b_k=\sigma\sqrt{2\log t\;x_k^\top V_t^{-1}x_k}`, for every pair (for
  :math:`i\ne\hat z` this is :math:`\min(\log t\,\|x_k\|^2_{V_t^{-1}},\log t)`);
* C-tracking over pairs: the pair counts :math:`P` start at 1 for every pair (the code's
  ``ones``), the cumulative weights at :math:`P`; each step adds :math:`W` and plays the pair
  :math:`(i,k)=\arg\min(P-\sum W)` (first index), i.e. pulls arm :math:`k`, and
  :math:`P_{ik}\mathrel{+}=1`.

Every arm is pulled once first (the code's initial pulls, which do not touch :math:`P`); the
closest alternative and the bonus use the estimate and :math:`V_t^{-1}` of ``estimate``. The rule does not depend on :math:`\delta`:
ONE trajectory per run gives every :math:`\delta` and every threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .code_protocol import RULE_CGC, run_protocol
from .kernels import ADAHEDGE_DELTA0
from .glr import GLRResult, check_env, simulate_runs
from ..validation import constraints

__all__ = ["LinGameCResult", "lingame_c", "lingame_c_runs"]


@dataclass
class LinGameCResult(GLRResult):
    """One run of LinGame-C (``info["pair_counts"]``: the final pair counts :math:`P`)."""


@constraints(env="gaussian_env", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count", estimate="choice")
def lingame_c(env, rng, *, deltas=(0.1,), threshold="heuristic", max_samples: int = 10**7,
              estimate: str = "lse") -> LinGameCResult:
    """One run of LinGame-C (module docstring).

    Parameters
    ----------
    env : GaussianLinearBandit
        Its arms are the answers (Z = X).
    rng : numpy.random.Generator
    deltas : float or sequence of floats in (0, 1)
    threshold : str or sequence of str
        ``"heuristic"`` and/or ``"beta_lt"``.
    max_samples : int
    estimate : {"lse", "code"}
        The estimate and statistic (:mod:`bai.algorithms.code_protocol`).
    """
    env = check_env(env)
    n = env.Z.shape[0] * env.K
    state = (np.zeros(n), np.array([ADAHEDGE_DELTA0]), np.ones(n), np.ones(n))
    res = run_protocol(RULE_CGC, env, rng, deltas=deltas, threshold=threshold,
                       max_samples=max_samples, estimate=estimate, statistic=estimate,
                       name="LinGame-C", result_cls=LinGameCResult, cgc=state)
    res.info["pair_counts"] = state[2].reshape(env.Z.shape[0], env.K).astype(np.int64)
    return res


@constraints(env="gaussian_env", n_runs="count", rng="rng", deltas="deltas", threshold="threshold",
             max_samples="count")
def lingame_c_runs(env, n_runs: int, rng, **kw):
    """``n_runs`` runs of :func:`lingame_c` (a ``RunsResult``)."""
    return simulate_runs(lingame_c, env, n_runs, rng, **kw)
