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

**Scale.** A reproduction's study holds its paper's protocol (``bai.reported.<paper>.PROTOCOL``:
per experiment, the runs, the deltas and the grid, each printed with its locator or ASSUMED
with its source), and each :class:`Grid` says which protocol entry its configurations
reproduce (``protocol=``), how many runs one task makes (``per_task=``) and which deltas it
runs (``deltas=``). :meth:`Study.scale` then states, per experiment, the runs a profile makes
against the runs the paper prints; :meth:`Study.ledger` writes it to the chapter's claims
(``meta["scale"]``), and a test holds every ``paper`` profile to its protocol.
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
from ..experiments import available_cores, run_experiment, select_profile
from ..validation import constraints

__all__ = ["Grid", "Study", "chapters", "load", "parse_overrides", "merge_overrides",
           "check_params", "check_frame", "protocol_values", "PAPER_PROFILE"]

#: The profile that runs each paper at its own scale (the book's build). At any other profile,
#: or with overrides, the verdicts are not the paper's.
PAPER_PROFILE = "paper"


@constraints(P="params")
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


@constraints(df="frame")
def check_frame(df, columns=(), name: str = "df") -> pd.DataFrame:
    """``df`` when it is a DataFrame holding ``columns``; else a TypeError or ValueError naming
    ``name`` (and the missing columns)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} lacks the column(s) {missing} (has {list(df.columns)})")
    return df


@constraints(task="callable", configs="callable", runs="callable", description="callable")
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
    protocol : str, tuple of str or callable, optional
        The entry (or entries) of the paper's protocol (``bai.reported.<paper>.PROTOCOL``)
        that the grid's configurations reproduce, or ``protocol(config) -> entry, entries or
        None`` when they differ by configuration (None: a configuration the paper does not
        run, such as a check of the book's own). Default: none (not a paper's experiment).
    per_task : int, str or callable
        The runs one task makes: a number, the name of a parameter read from the configuration
        and then from ``fixed(P)`` (e.g. ``"batch"``), or ``per_task(P, config) -> int``.
        Default 1 (a task is one run).
    pooled : tuple of str
        Configuration keys that split one point's runs across configurations (a batch index,
        an instance index): the runs of configurations that differ only in them add up.
    deltas : str or callable, optional
        The confidence levels a task runs: a parameter name read from the configuration and
        then from ``fixed(P)`` (a number or a list), or ``deltas(P, config) -> list``.
    """

    task: Callable[..., Mapping[str, Any]]
    configs: Callable[[Mapping[str, Any]], list]
    runs: "str | Callable[[Mapping[str, Any]], int]" = "n_runs"
    description: str = ""
    fixed: Callable[[Mapping[str, Any]], dict] | None = None
    seed: Callable[[Mapping[str, Any]], int] | None = None
    protocol: "str | tuple | Callable[[Mapping[str, Any]], Any] | None" = None
    per_task: "int | str | Callable[[Mapping[str, Any], Mapping[str, Any]], int]" = 1
    pooled: tuple = ()
    deltas: "str | Callable[[Mapping[str, Any], Mapping[str, Any]], Any] | None" = None

    def n_runs(self, P: Mapping[str, Any]) -> int:
        """Replications (tasks) per configuration at the parameters ``P``."""
        n = self.runs(P) if callable(self.runs) else P[self.runs]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the grid's replications per configuration must be a positive "
                             f"integer at these parameters, got {n!r}")
        return n

    def _lookup(self, P: Mapping[str, Any], config: Mapping[str, Any], key: str):
        if key in config:
            return config[key]
        fixed = self.fixed(P) if self.fixed is not None else {}
        if key in fixed:
            return fixed[key]
        raise ValueError(f"{key!r} is neither a key of the configuration {dict(config)} nor "
                         f"of the grid's fixed arguments {sorted(fixed)}")

    def protocol_of(self, config: Mapping[str, Any]) -> tuple[str, ...]:
        """The protocol entries configuration ``config`` reproduces (empty: none)."""
        entry = self.protocol(config) if callable(self.protocol) else self.protocol
        if entry is None:
            return ()
        entries = (entry,) if isinstance(entry, str) else tuple(entry)
        if not all(isinstance(e, str) and e for e in entries):
            raise TypeError(f"protocol entries must be non-empty strings, got {entry!r}")
        return entries

    def runs_of(self, P: Mapping[str, Any], config: Mapping[str, Any]) -> int:
        """The runs the grid makes of configuration ``config`` at ``P``: its tasks times the
        runs of one task (:attr:`per_task`)."""
        per = self.per_task
        if callable(per):
            per = per(P, config)
        elif isinstance(per, str):
            per = self._lookup(P, config, per)
        if isinstance(per, bool) or not isinstance(per, int) or per < 1:
            raise ValueError(f"the runs of one task must be a positive integer, got {per!r}")
        return self.n_runs(P) * per

    def deltas_of(self, P: Mapping[str, Any], config: Mapping[str, Any]) -> list[float] | None:
        """The confidence levels configuration ``config`` runs at ``P`` (None: not stated)."""
        if self.deltas is None:
            return None
        value = self.deltas(P, config) if callable(self.deltas) else \
            self._lookup(P, config, self.deltas)
        values = [value] if isinstance(value, (int, float)) else list(value)
        return sorted({float(v) for v in values}, reverse=True)

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
        if not (self.protocol is None or callable(self.protocol)
                or isinstance(self.protocol, (str, tuple))):
            raise TypeError("protocol must name a protocol entry (a string or a tuple of them), "
                            "be callable (config -> entries) or be None")
        if not (callable(self.per_task) or isinstance(self.per_task, str) or (
                isinstance(self.per_task, int) and not isinstance(self.per_task, bool)
                and self.per_task >= 1)):
            raise TypeError("per_task must be a positive int, a parameter name or callable "
                            "(P, config -> int)")
        if not isinstance(self.pooled, tuple) or not all(isinstance(k, str) for k in self.pooled):
            raise TypeError("pooled must be a tuple of configuration keys")
        if not (self.deltas is None or callable(self.deltas) or isinstance(self.deltas, str)):
            raise TypeError("deltas must be a parameter name, callable (P, config -> deltas) "
                            "or None")


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


@constraints(base="mapping", overrides="mapping")
def merge_overrides(base: Mapping[str, Any], overrides: Mapping[str, Any] | None = None,
                    what: str = "profile") -> dict:
    """``base`` with ``overrides`` merged over it, validated.

    Parameters
    ----------
    base : dict
        A profile's parameters.
    overrides : dict or None
        The reader's values of some of ``base``'s keys. ``None`` (the default, what
        ``Study.parameters`` passes when the reader gives none) means no overrides, as
        an empty dict does: the result is a copy of ``base``.
    what : str
        What ``base`` is, for the error messages.

    Raises
    ------
    TypeError
        When ``overrides`` is neither a dict nor None, or a value's type differs from the
        profile's.
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
        raise TypeError(f"overrides must be a dict of parameters or None, got "
                        f"{type(overrides).__name__}")
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


@constraints(chapter="name", paper="name", grids="mapping", claims="mapping", kind="choice")
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
    protocol : dict
        ``bai.reported.<paper>.PROTOCOL``: per experiment, the runs, deltas and grid the paper
        prescribes; the grids name its entries (a grid's ``protocol``). See ``Study.scale``.
    """

    chapter: str
    paper: str
    profiles: dict
    grids: dict = field(default_factory=dict)
    claims: dict = field(default_factory=dict)
    kind: str = "reproduction"
    readings: dict = field(default_factory=dict)
    protocol: dict = field(default_factory=dict)

    def __post_init__(self):
        for arg in ("chapter", "paper"):
            if not isinstance(getattr(self, arg), str) or not getattr(self, arg):
                raise TypeError(f"{arg} must be a non-empty string, got {getattr(self, arg)!r}")
        if self.kind not in ("reproduction", "check"):
            raise ValueError(f"kind must be 'reproduction' or 'check', got {self.kind!r}")
        for arg in ("profiles", "grids", "claims", "readings", "protocol"):
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
        for key, entry in self.protocol.items():
            _check_protocol_entry(key, entry)

    # -- parameters ---------------------------------------------------------------------------
    def parameters(self, profile: str = "paper", overrides: Mapping[str, Any] | None = None) -> dict:
        """The chapter's parameters: ``profiles[profile]`` with the reader's ``overrides``
        merged over it (an unknown key is a clear error listing the known keys)."""
        base = select_profile(profile, self.profiles)
        if "n_jobs" in base and base["n_jobs"] is None:   # the cores available to the process
            base["n_jobs"] = available_cores()
        P = merge_overrides(base, overrides, what=f"{profile!r} profile of {self.chapter}")
        self._run = {"profile": profile, "overrides": dict(overrides or {})}
        self._params = dict(P)
        return P

    # -- scale --------------------------------------------------------------------------------
    def _cells(self, P: Mapping[str, Any], entry: str) -> list[tuple]:
        """``(grid, configuration, runs)`` of every point of protocol entry ``entry`` at ``P``
        (configurations that differ only in a grid's ``pooled`` keys are one point)."""
        import json

        points: dict = {}
        for gname, grid in self.grids.items():
            for c in grid.configs(P):
                named = grid.protocol_of(c)
                unknown = [e for e in named if e not in self.protocol]
                if unknown:
                    raise ValueError(f"grid {gname!r} of {self.chapter} names the protocol "
                                     f"entries {unknown}, which its paper's protocol lacks (it "
                                     f"has {sorted(self.protocol)})")
                if entry not in named:
                    continue
                key = (gname, json.dumps({k: v for k, v in c.items() if k not in grid.pooled},
                                         sort_keys=True, default=str))
                if key not in points:
                    points[key] = [grid, dict(c), 0]
                points[key][2] += grid.runs_of(P, c)
        return [tuple(v) for v in points.values()]

    def scale(self, P: Mapping[str, Any]) -> list[dict]:
        """Per experiment of the paper's protocol (:attr:`protocol`), what the parameters ``P``
        run against what the paper prints: ``{"experiment", "runs", "printed", "locator",
        "deltas"}``, with ``runs`` the fewest runs of any point of the experiment at ``P``
        (0: not run), ``printed`` the paper's runs per point (None where the text is silent and
        the protocol's value is ASSUMED), ``locator`` where the paper says it (or the source of
        the ASSUMED value) and ``deltas`` the confidence levels that every point runs (largest
        first). The chapter's claims carry it (``meta["scale"]``)."""
        check_params(P)
        out = []
        for key, entry in self.protocol.items():
            cells = self._cells(P, key)
            deltas = None
            for grid, c, _ in cells:
                d = grid.deltas_of(P, c)
                if d is not None:
                    deltas = set(d) if deltas is None else deltas & set(d)
            runs, locator, printed = protocol_values(entry["runs"])
            out.append({"experiment": entry["experiment"],
                        "runs": min((n for _, _, n in cells), default=0),
                        "printed": int(runs[0]) if printed else None,
                        "locator": locator,
                        "deltas": sorted(deltas or (), reverse=True)})
        return out

    def shortfalls(self, P: Mapping[str, Any]) -> list[str]:
        """Where the parameters ``P`` run less than the paper's protocol prescribes: fewer runs
        of a point than the protocol's (printed or ASSUMED), a delta or a value of its grid not
        run. Empty at the paper's scale; an entry marked ``not_comparable`` (with its reason) is
        not held to it."""
        check_params(P)
        out = []
        for key, entry in self.protocol.items():
            if entry.get("not_comparable"):
                continue
            cells = self._cells(P, key)
            name = f"{entry['experiment']} ({key})"
            if not cells:
                out.append(f"{name}: no grid of {self.chapter} runs it")
                continue
            need = int(protocol_values(entry["runs"])[0][0])
            short = [(n, c) for _, c, n in cells if n < need]
            if short:
                n, c = min(short, key=lambda x: x[0])
                out.append(f"{name}: {len(short)} of {len(cells)} points run fewer than the "
                           f"protocol's {need} runs (fewest: {n}, {c})")
            if "deltas" in entry:
                missing = set()
                for grid, c, _ in cells:
                    made = grid.deltas_of(P, c) or []
                    missing.update(d for d in protocol_values(entry["deltas"])[0]
                                   if not any(math.isclose(d, m, rel_tol=1e-9) for m in made))
                if missing:
                    out.append(f"{name}: delta = {sorted(missing, reverse=True)} not run at "
                               f"every point")
            for param, spec in entry.get("grid", {}).items():
                made = set()
                for grid, c, _ in cells:
                    v = grid._lookup(P, c, param)
                    made.update(v if isinstance(v, (list, tuple)) else [v])
                missing = [v for v in protocol_values(spec)[0]
                           if not any(_same_value(v, m) for m in made)]
                if missing:
                    out.append(f"{name}: {param} = {missing} not run")
        return out

    def at_paper_scale(self) -> bool | None:
        """True when the last :meth:`parameters` call chose the ``paper`` profile without
        overrides and it meets the protocol (:meth:`shortfalls`); None before any call."""
        run = getattr(self, "_run", None)
        if run is None:
            return None
        return (run["profile"] == PAPER_PROFILE and not run["overrides"]
                and not self.shortfalls(self._params))

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
                              seed=seed, n_jobs=P.get("n_jobs"),
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
        if self.protocol and getattr(self, "_params", None) is not None:
            ledger.meta["scale"] = self.scale(self._params)
            ledger.meta["shortfalls"] = self.shortfalls(self._params)
            ledger.meta["at_paper_scale"] = self.at_paper_scale()
        return ledger


def _same_value(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(
            a, bool) and not isinstance(b, bool):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


@constraints(value="object")
def protocol_values(value) -> tuple[list, str, bool]:
    """``(values, locator, printed)`` of a protocol value (:data:`bai.reported` ``PROTOCOL``):
    a :class:`bai.claims.Printed` number, a list of them (printed), or an
    :class:`bai.reported.Assumed` value (a number or a list; its locator reads ``ASSUMED:
    <source>``)."""
    from ..claims import Printed
    from ..reported import Assumed

    if isinstance(value, Printed):
        return [value.value], value.locator, True
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Printed) for v in value):
        locators = list(dict.fromkeys(v.locator for v in value))
        return [v.value for v in value], "; ".join(locators), True
    if isinstance(value, Assumed):
        v = value.value
        return (list(v) if isinstance(v, (list, tuple)) else [v]), f"ASSUMED: {value.source}", False
    raise TypeError(f"a protocol value must be a Printed number, a list of them or an Assumed "
                    f"value, got {value!r}")


def _check_protocol_entry(key, entry) -> None:
    if not isinstance(key, str) or not isinstance(entry, Mapping):
        raise TypeError(f"protocol[{key!r}] must be a dict (an experiment of the paper)")
    if not isinstance(entry.get("experiment"), str) or not entry["experiment"]:
        raise TypeError(f"protocol[{key!r}] needs 'experiment', the paper's name for it")
    unknown = set(entry) - {"experiment", "runs", "deltas", "grid", "not_comparable"}
    if unknown:
        raise ValueError(f"protocol[{key!r}]: unknown key(s) {sorted(unknown)}")
    runs = protocol_values(entry.get("runs"))[0]
    if len(runs) != 1 or isinstance(runs[0], bool) or not float(runs[0]).is_integer() \
            or runs[0] < 1:
        raise ValueError(f"protocol[{key!r}]['runs'] must be one positive whole number, got "
                         f"{runs}")
    if "deltas" in entry:
        protocol_values(entry["deltas"])
    if not isinstance(entry.get("grid", {}), Mapping):
        raise TypeError(f"protocol[{key!r}]['grid'] must be a dict parameter -> value")
    for v in entry.get("grid", {}).values():
        protocol_values(v)
    if "not_comparable" in entry and (not isinstance(entry["not_comparable"], str)
                                      or not entry["not_comparable"].strip()):
        raise TypeError(f"protocol[{key!r}]['not_comparable'] must be the reason (a string)")


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


@constraints(chapter="name")
def load(chapter: str):
    """The study module of ``chapter`` (``bai.studies.<chapter>``), with a clear error."""
    if not isinstance(chapter, str):
        raise TypeError(f"chapter must be a string, got {type(chapter).__name__}")
    names = chapters()
    if chapter not in names:
        raise ValueError(f"chapter must be one of {names}, got {chapter!r}")
    return importlib.import_module(f"{__name__}.{chapter}")
