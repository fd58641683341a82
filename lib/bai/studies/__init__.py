"""The book's studies: one module per chapter, holding what the chapter runs.

A chapter of the book is a lecture: derivations, the grid it runs (shown as a table), figures,
claims and discussion. What it *runs* lives here, so that the chapter, the arena, the tests and
the command line share it: for each chapter, ``bai.studies.<chapter>`` defines

* ``STUDY``, a :class:`Study`: the chapter's name, its paper, its profiles (``ci`` for CI and
  coursework, ``paper`` for the book), the claims of its paper (``bai.reported.<paper>.CLAIMS``)
  and its experiments (:class:`Grid`: a task function and the configurations it runs);
* its settings, read from ``bai.reported.<paper>`` (one source for every paper setting), its
  instance builders and its task functions, each a pure function of its arguments.

A chapter then reads, in a set-up cell of a few lines::

    from bai.studies import soare2014 as study
    P = study.STUDY.parameters(profile, overrides)      # the profile, with the reader's overrides
    ledger = study.STUDY.ledger()                         # its paper's claims, checked one by one
    study.STUDY.table("fig4", P)                          # the grid, shown as a table
    fig4 = study.STUDY.run("fig4", P, checkpoint_dir)     # one line: a tidy table of results

:func:`chapters` lists the studies and :func:`load` imports one by name.
"""

from __future__ import annotations

import ast
import importlib
import math
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import pandas as pd

from ..claims import ClaimsLedger, ClaimSpec
from ..experiments import run_experiment, select_profile

__all__ = ["Grid", "Study", "chapters", "load", "parse_overrides", "merge_overrides",
           "check_params", "check_frame"]


def check_params(P, keys=(), name: str = "P") -> Mapping[str, Any]:
    """``P`` when it is a dict of a chapter's parameters holding ``keys``; else a TypeError or
    ValueError naming ``name`` (and the missing keys). The study functions taking ``P`` call it
    first, so that a wrong ``P`` fails at once, not deep in a run."""
    if not isinstance(P, Mapping):
        raise TypeError(f"{name} must be a dict of the chapter's parameters "
                        f"(STUDY.parameters(profile)), got {type(P).__name__}")
    missing = [k for k in keys if k not in P]
    if missing:
        raise ValueError(f"{name} lacks the parameter(s) {missing}: pass "
                         f"STUDY.parameters(profile) of this chapter")
    return P


def check_frame(df, columns=(), name: str = "df") -> pd.DataFrame:
    """``df`` when it is a DataFrame holding ``columns``; else a TypeError or ValueError naming
    ``name`` (and the missing columns)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing} (has {list(df.columns)})")
    return df


@dataclass(frozen=True)
class Grid:
    """One experiment of a chapter: ``task(rng, **config) -> dict`` on ``configs(P)``.

    Parameters
    ----------
    task : callable
        ``task(rng, **config) -> dict`` of results: a pure function of its arguments (it reads
        no notebook global), defined in the study module.
    configs : callable
        ``configs(P) -> list[dict]``: the configurations at the chapter's parameters ``P``.
    runs : str or callable
        The parameter of ``P`` that holds the replications (tasks) per configuration, or
        ``runs(P) -> int`` (e.g. ``P["n_runs"] // P["batch"]`` for a task that makes a batch of
        runs, with ``fixed=lambda P: {"batch": P["batch"]}``).
    description : str
        One line: what the grid reproduces (the paper's figure or table).
    fixed : callable, optional
        ``fixed(P) -> dict`` of keyword arguments given to every task of the grid but not part
        of its configurations (instance sizes, budgets, settings shared by the whole grid). They
        do not enter the tasks' random seeds (those derive from the configuration), but they do
        enter the checkpoints' keys: changing one recomputes.
    seed : callable, optional
        ``seed(P) -> int``: the grid's master seed (default ``P["seed"]``), for a chapter that
        gives two grids distinct random streams.
    """

    task: Callable[..., Mapping[str, Any]]
    configs: Callable[[Mapping[str, Any]], list]
    runs: "str | Callable[[Mapping[str, Any]], int]" = "n_runs"
    description: str = ""
    fixed: Callable[[Mapping[str, Any]], dict] | None = None
    seed: Callable[[Mapping[str, Any]], int] | None = None

    def n_runs(self, P: Mapping[str, Any]) -> int:
        """Replications (tasks) per configuration at the parameters ``P``."""
        n = self.runs(P) if callable(self.runs) else P[self.runs]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the grid's replications per configuration must be a positive "
                             f"integer at these parameters, got {n!r}")
        return n

    def bound(self, P: Mapping[str, Any]) -> Callable[..., Mapping[str, Any]]:
        """The task with the grid's ``fixed`` arguments at ``P`` bound (a ``partial``)."""
        if self.fixed is None:
            return self.task
        import functools

        return functools.partial(self.task, **self.fixed(P))

    def __post_init__(self):
        if not callable(self.task):
            raise TypeError("task must be callable")
        if not callable(self.configs):
            raise TypeError("configs must be callable (configs(P) -> list of dicts)")
        if not (isinstance(self.runs, str) or callable(self.runs)):
            raise TypeError("runs must name a parameter (a string) or be callable (P -> int)")
        if self.fixed is not None and not callable(self.fixed):
            raise TypeError("fixed must be callable (fixed(P) -> dict) or None")
        if self.seed is not None and not callable(self.seed):
            raise TypeError("seed must be callable (seed(P) -> int) or None")
        if not isinstance(self.description, str):
            raise TypeError("description must be a string")


def _same_kind(default, value) -> bool:
    """An override must have the type of the profile's value (an int may replace a float)."""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value)
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple))
    if default is None:
        return True
    return isinstance(value, type(default))


def merge_overrides(base: Mapping[str, Any], overrides: Mapping[str, Any] | None,
                    what: str = "profile") -> dict:
    """``base`` with ``overrides`` merged over it, validated.

    Raises
    ------
    TypeError
        When ``overrides`` is not a dict, or a value's type differs from the profile's.
    ValueError
        When a key is not a parameter of the profile (the message lists the known keys), or a
        count (``n_runs``, ``n_jobs``) is not positive, or ``seed`` is negative.
    """
    if not isinstance(base, Mapping):
        raise TypeError(f"base must be a dict of parameters, got {type(base).__name__}")
    out = dict(base)
    if overrides is None:
        return out
    if not isinstance(overrides, Mapping):
        raise TypeError(f"overrides must be a dict of parameters, got {type(overrides).__name__}")
    unknown = sorted(k for k in overrides if k not in base)
    if unknown:
        raise ValueError(f"overrides: unknown key(s) {unknown}; the known keys of the {what} "
                         f"are: {', '.join(sorted(base))}")
    for key, value in overrides.items():
        if not _same_kind(base[key], value):
            raise TypeError(f"overrides[{key!r}] must be of the type of the {what}'s value "
                            f"{base[key]!r} ({type(base[key]).__name__}), got {value!r}")
        if isinstance(value, float) and isinstance(base[key], float):
            value = float(value)
        if key in ("n_runs", "n_jobs") and value < 1:
            raise ValueError(f"overrides[{key!r}] must be a positive integer, got {value}")
        if key == "seed" and value < 0:
            raise ValueError(f"overrides['seed'] must be a non-negative integer, got {value}")
        out[key] = value
    return out


def parse_overrides(items) -> dict:
    """``["n_runs=5", "seed=3", "dims=[2, 3]"]`` -> ``{"n_runs": 5, "seed": 3, "dims": [2, 3]}``.

    Values are Python literals (numbers, strings, lists, True/False/None); anything else is
    kept as a string. Used by ``python -m bai reproduce --set KEY=VALUE``.
    """
    out = {}
    if items is not None and (isinstance(items, (str, bytes)) or not isinstance(items, (list, tuple))):
        raise TypeError(f"items (--set KEY=VALUE) must be a list of strings, got {type(items).__name__}")
    for item in items or ():
        if not isinstance(item, str) or "=" not in item:
            raise ValueError(f"--set takes KEY=VALUE, got {item!r}")
        key, raw = item.split("=", 1)
        key = key.strip()
        if not key.isidentifier():
            raise ValueError(f"--set: {key!r} is not a parameter name")
        try:
            value = ast.literal_eval(raw.strip())
        except (ValueError, SyntaxError):
            value = raw.strip()
        out[key] = value
    return out


@dataclass
class Study:
    """What one chapter runs: profiles, its paper's claims and its experiments.

    Parameters
    ----------
    chapter : str
        The chapter's name (its file stem in ``book/chapters``).
    paper : str
        The paper it reproduces (or what the book checks, for ``kind="check"``).
    profiles : dict
        ``{"ci": {...}, "paper": {...}}``: each a dict of parameters with at least ``seed``.
    grids : dict
        ``{name: Grid}``: the chapter's experiments.
    claims : dict
        ``{id: ClaimSpec}``: the claims the chapter checks (``bai.reported.<paper>.CLAIMS``).
    kind : {"reproduction", "check"}
        A reproduction of a paper's claims, or the book's own checks.
    readings : dict
        ``{reading: {"role", "note"}}``: the readings of the paper under which the chapter
        checks a claim (a ``reading=`` field of the check); the paper's printed one has role
        ``"printed"``, the others ``"alternative"`` with a note (``bai.reported.<paper>``).
    """

    chapter: str
    paper: str
    profiles: dict
    grids: dict = field(default_factory=dict)
    claims: dict = field(default_factory=dict)
    kind: str = "reproduction"
    readings: dict = field(default_factory=dict)

    def __post_init__(self):
        for arg in ("chapter", "paper"):
            if not isinstance(getattr(self, arg), str) or not getattr(self, arg):
                raise TypeError(f"{arg} must be a non-empty string, got {getattr(self, arg)!r}")
        if self.kind not in ("reproduction", "check"):
            raise ValueError(f"kind must be 'reproduction' or 'check', got {self.kind!r}")
        for arg in ("profiles", "grids", "claims", "readings"):
            if not isinstance(getattr(self, arg), Mapping):
                raise TypeError(f"{arg} must be a dict, got {type(getattr(self, arg)).__name__}")
        if not self.profiles or not all(isinstance(p, Mapping) for p in self.profiles.values()):
            raise ValueError("profiles must map profile names to dicts of parameters")
        for name, grid in self.grids.items():
            if not isinstance(grid, Grid):
                raise TypeError(f"grids[{name!r}] must be a Grid")
        for key, spec in self.claims.items():
            if not isinstance(spec, ClaimSpec):
                raise TypeError(f"claims[{key!r}] must be a ClaimSpec")

    # -- parameters ---------------------------------------------------------------------------
    def parameters(self, profile: str = "paper", overrides: Mapping[str, Any] | None = None) -> dict:
        """The chapter's parameters: ``profiles[profile]`` with the reader's ``overrides``
        merged over it (an unknown key is a clear error listing the known keys)."""
        P = merge_overrides(select_profile(profile, self.profiles), overrides,
                            what=f"{profile!r} profile of {self.chapter}")
        self._run = {"profile": profile, "overrides": dict(overrides or {})}
        return P

    # -- grids --------------------------------------------------------------------------------
    def _grid(self, name: str) -> Grid:
        if name not in self.grids:
            raise ValueError(f"name must be one of the grids of {self.chapter}: "
                             f"{', '.join(self.grids)}; got {name!r}")
        return self.grids[name]

    def configs(self, name: str, P: Mapping[str, Any]) -> list[dict]:
        """The configurations of grid ``name`` at the parameters ``P``."""
        configs = [dict(c) for c in self._grid(name).configs(P)]
        if not configs:
            raise ValueError(f"grid {name!r} of {self.chapter} has no configuration at these "
                             "parameters")
        return configs

    def table(self, name: str, P: Mapping[str, Any]) -> pd.DataFrame:
        """The grid ``name`` as a table: one row per configuration, with the replications."""
        grid = self._grid(name)
        df = pd.DataFrame(self.configs(name, P))
        df["runs"] = grid.n_runs(P)
        df.index = pd.RangeIndex(1, len(df) + 1, name="configuration")
        return df

    def run(self, name: str, P: Mapping[str, Any], checkpoint_dir=None,
            progress: bool | None = None, configs: list | None = None) -> pd.DataFrame:
        """Run grid ``name`` at the parameters ``P`` (seed, replications and workers from
        ``P``): a tidy table, one row per (configuration, replication). With
        ``checkpoint_dir``, finished tasks are kept (keyed by the code and the settings) and an
        interrupted run resumes. ``configs`` replaces the grid's configurations when they
        depend on earlier results (e.g. the methods a sweep follows)."""
        grid = self._grid(name)
        if configs is None:
            configs = self.configs(name, P)
        elif not configs or not all(isinstance(c, Mapping) for c in configs):
            raise ValueError("configs must be a non-empty list of dicts")
        seed = grid.seed(P) if grid.seed is not None else P.get("seed", 0)
        return run_experiment(grid.bound(P), configs, grid.n_runs(P),
                              seed=seed, n_jobs=P.get("n_jobs", 1),
                              checkpoint_dir=checkpoint_dir, name=f"{self.chapter}.{name}",
                              progress=progress)

    def smoke(self, name: str, P: Mapping[str, Any], seed: int = 0) -> Mapping[str, Any]:
        """The task of grid ``name`` on its first configuration, once (a quick check)."""
        import numpy as np

        grid = self._grid(name)
        return grid.bound(P)(np.random.default_rng(seed), **self.configs(name, P)[0])

    # -- claims -------------------------------------------------------------------------------
    def ledger(self) -> ClaimsLedger:
        """An empty ledger for the chapter, holding its claims' fixed text; it records the
        profile and overrides of the last :meth:`parameters` call, and its run time."""
        ledger = ClaimsLedger(self.chapter, self.paper, specs=self.claims, kind=self.kind,
                              readings=self.readings)
        ledger.meta.update(getattr(self, "_run", {}))
        return ledger


def chapters() -> list[str]:
    """The names of the studies (one per chapter): the modules of this package that define a
    ``STUDY`` (helper modules of a study do not)."""
    names = []
    for m in pkgutil.iter_modules(__path__):
        if m.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{m.name}")
        if isinstance(getattr(module, "STUDY", None), Study):
            names.append(m.name)
    return sorted(names)


def load(chapter: str):
    """The study module of ``chapter`` (``bai.studies.<chapter>``), with a clear error."""
    if not isinstance(chapter, str):
        raise TypeError(f"chapter must be a string, got {type(chapter).__name__}")
    names = chapters()
    if chapter not in names:
        raise ValueError(f"chapter must be one of {names}, got {chapter!r}")
    return importlib.import_module(f"{__name__}.{chapter}")
