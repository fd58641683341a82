r"""The two kinds of sampling rule the engine runs, and what a rule reads.

A plain-Python rule subclasses :class:`SamplingRule` (``next_arm(state)``); a compiled rule is a
:class:`CompiledRule` (numba ``choose_arm(eng, rs, rng)``, optional ``update`` and Python
``init``). :class:`RuleState` is the read-only view of the run's statistics a Python rule (and a
compiled rule's ``init``) receives; :func:`check_rule` accepts either kind of rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ... import queries as Q
from ...environments import GaussianLinearBandit
from ..glr import GLRResult
from .state import NP, REG, STAT, T
from ...validation import constraints


class SamplingRule:
    """Base class of a sampling rule written in plain Python.

    Subclasses set :attr:`name` and define :meth:`next_arm`; :meth:`reset` and
    :meth:`on_answer_change` are optional. One object serves every run: :meth:`reset` must set
    every piece of per-run state. A rule must not depend on :math:`\\delta` (the GLR rule reads
    every :math:`\\delta` off one trajectory) and, when it draws random numbers, must set
    ``uses_rng = True`` and draw them from ``state.rng`` (seeded from the run's generator) so
    that a seed fixes every result.
    """

    #: the rule's name in tables, figures and error messages
    name: str = "my rule"
    #: set to True when the rule draws random numbers (``state.rng`` is then given)
    uses_rng: bool = False

    def reset(self, env: GaussianLinearBandit, state: "RuleState") -> None:
        """Called once per run, after the initial pulls and before the first :meth:`next_arm`."""

    def next_arm(self, state: "RuleState") -> int:
        """The index (``0 <= a < state.K``) of the next arm to pull."""
        raise NotImplementedError(f"{type(self).__name__} must define next_arm(self, state)")

    def on_answer_change(self, state: "RuleState") -> None:
        """Called before :meth:`next_arm` whenever the empirical answer has changed since the
        previous step."""


def _readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


class RuleState:
    r"""The state a rule reads (read-only views of the run's arrays, updated in place after every
    pull): what :meth:`SamplingRule.next_arm` and a :class:`CompiledRule`'s ``init`` receive.

    Attributes
    ----------
    X, Z : arrays
        The arms ``(K, d)`` and the items ``(M, d)`` (``Z`` is ``X`` outside the transductive
        setting).
    K, d, M, sigma :
        Number of arms, dimension, number of items, noise standard deviation.
    query : bai.queries.Query
        The query of the run, bound to ``Z``.
    init_arms : int array
        The arms of the initial pulls, in order: the spanner (``(d,)``), or every arm
        (``(K,)``) with ``initial="all"``.
    spanner : (d,) int array
        The first ``d`` rank-raising arms in index order (:func:`bai.algorithms.glr.spanner`),
        whatever the initial pulls.
    regularization : float
        The ridge :math:`\lambda` of the run (:math:`V_0=\lambda I`).
    """

    def __init__(self, env, query, run, rng=None):
        self.X, self.Z = _readonly(run.arrays["X"]), _readonly(run.arrays["Z"])
        self.K, self.d, self.M = int(env.K), int(env.d), int(self.Z.shape[0])
        self.sigma = float(env.sigma)
        self.query = query
        self.init_arms = run.init_arms
        self.spanner = run.spanner
        self.regularization = float(run.arrays["ff"][REG])
        self._rng = rng
        a = run.arrays
        self._V, self._Vinv, self._S = _readonly(a["V"]), _readonly(a["Vinv"]), _readonly(a["S"])
        self._theta, self._N, self._v = _readonly(a["theta"]), _readonly(a["N"]), _readonly(a["v"])
        self._ii, self._ff, self._a = a["ii"], a["ff"], a

    @property
    def rng(self) -> np.random.Generator:
        """The rule's own generator (only for a rule with ``uses_rng = True``)."""
        if self._rng is None:
            raise AttributeError("state.rng is given only to a rule that declares it draws "
                                 "random numbers: set uses_rng = True on the rule (class "
                                 "attribute)")
        return self._rng

    @property
    def t(self) -> int:
        """Pulls so far (the initial pulls included)."""
        return int(self._ii[T])

    @property
    def counts(self) -> np.ndarray:
        """:math:`N_{t,k}`, pulls of each arm (``(K,)`` int)."""
        return self._N

    @property
    def S(self) -> np.ndarray:
        r""":math:`S_t=\sum_sY_sx_{a_s}` (``(d,)``)."""
        return self._S

    @property
    def V(self) -> np.ndarray:
        r""":math:`V_t=\lambda I+\sum_sx_{a_s}x_{a_s}^\top` (``(d, d)``; :math:`\lambda` =
        ``regularization``, 0 by default: no regularisation)."""
        return self._V

    @property
    def Vinv(self) -> np.ndarray:
        r""":math:`V_t^{-1}` (``(d, d)``)."""
        return self._Vinv

    @property
    def theta(self) -> np.ndarray:
        r"""The (ridge, if :math:`\lambda>0`) least-squares estimate
        :math:`\hat\theta_t=V_t^{-1}S_t` (``(d,)``)."""
        return self._theta

    @property
    def values(self) -> np.ndarray:
        r""":math:`Z\hat\theta_t` (``(M,)``)."""
        return self._v

    @property
    def answer(self):
        r"""The empirical answer (an item index for :class:`~bai.queries.BestArm`, a tuple for
        the other queries)."""
        return self.query.decode(self._a["code"])

    @property
    def n_pieces(self) -> int:
        """Number of pieces of the empirical answer."""
        return int(self._ii[NP])

    @property
    def pieces(self) -> tuple:
        r"""``(A, b)``: the pieces :math:`\{\lambda: a_p^\top\lambda\le b_p\}` of the empirical
        answer's alternative (:meth:`bai.queries.Query.pieces`)."""
        return self.query.pieces(self.answer)

    @property
    def halfspaces(self) -> np.ndarray:
        """The half-space numbers of the pieces (:func:`bai.queries.halfspace`)."""
        return self._a["ph"][:self.n_pieces].copy()

    @property
    def piece_gaps(self) -> np.ndarray:
        r"""Each piece's gap :math:`g_p=a_p^\top\hat\theta_t-b_p`."""
        return self._a["gap"][:self.n_pieces].copy()

    @property
    def piece_glrs(self) -> np.ndarray:
        r"""Each piece's GLR :math:`\max(g_p,0)^2/(2\sigma^2\|a_p\|^2_{V_t^{-1}})`."""
        return self._a["gl"][:self.n_pieces].copy()

    @property
    def active(self) -> np.ndarray:
        """Which pieces are active (all, unless elimination in the sampling rule removed some)."""
        return self._a["act"][:self.n_pieces].astype(bool)

    @property
    def glr(self) -> float:
        r"""The GLR statistic :math:`\Lambda_t`, the smallest GLR of the pieces."""
        return float(self._ff[STAT])


@constraints(name="name", choose_arm="callable")
@dataclass
class CompiledRule:
    r"""A sampling rule compiled with numba (module docstring).

    Parameters
    ----------
    name : str
        The rule's name in tables, figures and error messages.
    choose_arm : numba function ``(eng, rs, rng) -> int``
        The next arm; ``eng`` is the :class:`Engine`, ``rs`` the rule's state (what ``init``
        returned), ``rng`` the run's generator (the rule may draw from it).
    init : callable ``(env, state, **options) -> rs``, optional
        Python, called after the initial pulls with the :class:`RuleState`; returns the rule's
        state, a tuple of arrays (or any numba-typed value). Default: no state, ``()``.
    update : numba function ``(eng, rs, arm, reward) -> None``, optional
        Called after each pull's statistics are updated.
    paper : str
        Where the rule comes from.
    queries : tuple of query classes, optional
        The queries the rule is defined for (default: every query).
    uses_pieces : bool
        Whether the rule reads the pieces (elimination in the sampling rule applies).
    needs_width : bool
        Whether it reads :func:`bai.algorithms.engine.width_beta` (the LinGapE and LinGIFA rules): ``width_delta``
        and ``width_threshold`` options.
    needs_halfspaces : bool
        Whether it reads every half-space's denominator ``eng.hq``.
    info : callable ``rs -> dict``, optional
        Extras for the result's ``info`` after the run.
    result_cls : type
        The result class (a subclass of :class:`~bai.algorithms.glr.GLRResult`).
    """

    name: str
    choose_arm: object
    init: object = None
    update: object = None
    paper: str = ""
    queries: tuple = None
    uses_pieces: bool = True
    needs_width: bool = False
    needs_halfspaces: bool = False
    info: object = None
    result_cls: type = GLRResult

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.choose_arm, numba.core.registry.CPUDispatcher):
            raise TypeError(f"choose_arm must be a numba function (@numba.njit) "
                            f"choose_arm(eng, rs, rng) -> int, got "
                            f"{type(self.choose_arm).__name__}; a plain-Python rule is a "
                            f"SamplingRule")
        if self.update is not None and not isinstance(self.update,
                                                      numba.core.registry.CPUDispatcher):
            raise TypeError(f"update must be a numba function (@numba.njit) update(eng, rs, "
                            f"arm, reward) or None, got {type(self.update).__name__}")
        if self.init is not None and not callable(self.init):
            raise TypeError(f"init must be callable init(env, state) -> rs or None, got "
                            f"{type(self.init).__name__}")
        if self.queries is not None and (not isinstance(self.queries, tuple) or not all(
                isinstance(q, type) and issubclass(q, Q.Query) for q in self.queries)):
            raise TypeError(f"queries must be a tuple of query classes or None, got "
                            f"{self.queries!r}")
        if not (isinstance(self.result_cls, type) and issubclass(self.result_cls, GLRResult)):
            raise TypeError(f"result_cls must be GLRResult or a subclass of it, got "
                            f"{self.result_cls!r}")
        if self.info is not None and not callable(self.info):
            raise TypeError(f"info must be callable rs -> dict or None, got "
                            f"{type(self.info).__name__}")


def _check_python_rule(rule, arg: str = "rule") -> SamplingRule:
    if isinstance(rule, type):
        raise TypeError(f"{arg} must be a sampling-rule object, got the class {rule.__name__}: "
                        f"pass {rule.__name__}()")
    if not callable(getattr(rule, "next_arm", None)):
        raise TypeError(f"{arg} must be a SamplingRule (an object with a next_arm(state) "
                        f"method) or a CompiledRule, got {type(rule).__name__}")
    for method in ("reset", "on_answer_change"):
        if getattr(rule, method, None) is not None and not callable(getattr(rule, method)):
            raise TypeError(f"{arg}.{method} must be a method, got "
                            f"{type(getattr(rule, method)).__name__}")
    name = getattr(rule, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"{arg}.name must be a non-empty str, got {name!r}")
    return rule


def check_rule(rule, arg: str = "rule"):
    """A :class:`CompiledRule` or a plain-Python :class:`SamplingRule`, else a ``TypeError``."""
    if isinstance(rule, CompiledRule):
        return rule
    return _check_python_rule(rule, arg)
