"""Running experiments: a grid of (configuration, replication) tasks -> one tidy table.

* **Determinism.** Each task draws its random numbers from its own
  ``numpy.random.SeedSequence``, keyed by the master seed, a stable hash of the task's
  parameters and the replication index. The result is the same for any ``n_jobs``, any backend,
  any order of execution, and adding a configuration to a grid does not change the others.
* **Resumption.** With ``checkpoint_dir``, every finished task is written to its own JSON file
  (atomically: a temporary file renamed into place), and a rerun skips the tasks already on
  disk. An interrupted grid therefore resumes without recomputing finished work, and an
  interrupted write never leaves a half-written result.
* **Parallelism.** joblib (processes) on one machine, or a dask ``distributed`` cluster.
* **Profiles.** :func:`select_profile` picks a chapter's named profile (``ci``, ``paper``).
* **Run-time overrides.** The environment variables ``BAI_N_JOBS``, ``BAI_BACKEND`` and
  ``BAI_SCHEDULER``, when set, take precedence over the ``n_jobs``, ``backend`` and
  ``scheduler`` arguments of :func:`run_experiment` (see :func:`runtime_overrides`). This is how
  ``python -m bai reproduce <chapter> --jobs N --backend dask --scheduler ADDRESS`` reruns a
  chapter on more workers or on a cluster without editing it. Results do not change: a seed
  fixes every result whatever the number of workers or the backend.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from .validation import check_int

__all__ = [
    "task_seed",
    "run_experiment",
    "select_profile",
    "summarise",
    "runtime_overrides",
    "PROFILES",
    "BACKENDS",
    "ENV_N_JOBS",
    "ENV_BACKEND",
    "ENV_SCHEDULER",
]

PROFILES = ("ci", "paper")
BACKENDS = ("joblib", "dask")
ENV_N_JOBS = "BAI_N_JOBS"
ENV_BACKEND = "BAI_BACKEND"
ENV_SCHEDULER = "BAI_SCHEDULER"


def runtime_overrides(environ: Mapping[str, str] | None = None) -> dict:
    """The run-time overrides of :func:`run_experiment` set in the environment.

    ``BAI_N_JOBS`` (a positive integer) replaces ``n_jobs``; ``BAI_BACKEND`` (``joblib`` or
    ``dask``) replaces ``backend``; ``BAI_SCHEDULER`` (a dask scheduler address such as
    ``tcp://10.0.0.5:8786``) replaces ``scheduler`` and implies ``backend="dask"``. Unset or
    empty variables are ignored.

    Parameters
    ----------
    environ : mapping, optional
        The environment to read (default ``os.environ``).

    Returns
    -------
    dict
        A subset of ``{"n_jobs": int, "backend": str, "scheduler": str}``.

    Raises
    ------
    ValueError
        When a variable holds an invalid value, or ``BAI_SCHEDULER`` is set together with
        ``BAI_BACKEND=joblib``.
    """
    env = os.environ if environ is None else environ
    out: dict[str, Any] = {}
    raw = env.get(ENV_N_JOBS, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise ValueError(f"{ENV_N_JOBS} must be a positive integer, got {raw!r}")
        out["n_jobs"] = int(raw)
    backend = env.get(ENV_BACKEND, "").strip()
    if backend:
        if backend not in BACKENDS:
            raise ValueError(f"{ENV_BACKEND} must be 'joblib' or 'dask', got {backend!r}")
        out["backend"] = backend
    scheduler = env.get(ENV_SCHEDULER, "").strip()
    if scheduler:
        if out.get("backend") == "joblib":
            raise ValueError(f"{ENV_SCHEDULER} is a dask scheduler address: it needs "
                             f"{ENV_BACKEND}=dask (or unset), got {ENV_BACKEND}=joblib")
        out["backend"] = "dask"
        out["scheduler"] = scheduler
    return out


def select_profile(name: str, profiles: Mapping[str, Mapping[str, Any]]) -> dict:
    """Return ``profiles[name]`` (a chapter's parameters), with a clear error for a bad name.

    Every chapter defines a small ``ci`` profile (CI and coursework) and a ``paper`` profile
    (the paper's run counts); papermill sets the name through the notebook's parameters cell.
    """
    if not isinstance(name, str):
        raise TypeError(f"profile must be a string, got {type(name).__name__}")
    if name not in profiles:
        raise ValueError(f"profile must be one of {sorted(profiles)}, got {name!r}")
    return dict(profiles[name])


def _canonical(params: Mapping[str, Any]) -> str:
    def default(o):
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        raise TypeError(f"grid parameters must be JSON-serialisable, got {type(o).__name__}")

    return json.dumps(dict(params), sort_keys=True, default=default)


def _key_words(text: str, n: int = 4) -> tuple[int, ...]:
    digest = hashlib.sha256(text.encode()).digest()
    return tuple(int.from_bytes(digest[4 * i: 4 * i + 4], "little") for i in range(n))


def task_seed(seed: int, params: Mapping[str, Any], run: int) -> np.random.SeedSequence:
    """The ``SeedSequence`` of one task: master ``seed``, parameters and replication index."""
    seed = check_int(seed, "seed", minimum=0)
    run = check_int(run, "run", minimum=0)
    return np.random.SeedSequence(entropy=seed, spawn_key=(*_key_words(_canonical(params)), run))


def _task_id(name: str, seed: int, params: Mapping[str, Any], run: int) -> str:
    text = f"{name}|{seed}|{_canonical(params)}|{run}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _jsonable(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _atomic_write_json(path: Path, payload) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(payload, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _run_task(fn, params, run, seed, checkpoint_path):
    rng = np.random.default_rng(task_seed(seed, params, run))
    out = fn(rng, **params)
    if not isinstance(out, Mapping):
        raise TypeError(f"the experiment function must return a dict of results, got {type(out).__name__}")
    record = _jsonable(dict(out))
    if checkpoint_path is not None:
        _atomic_write_json(Path(checkpoint_path), {"params": _jsonable(dict(params)), "run": run,
                                                   "result": record})
    return record


def run_experiment(
    fn: Callable[..., Mapping[str, Any]],
    grid: Iterable[Mapping[str, Any]],
    n_runs: int,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    backend: str = "joblib",
    scheduler=None,
    checkpoint_dir: str | os.PathLike | None = None,
    name: str | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Run ``fn(rng, **params)`` for every configuration in ``grid`` and ``n_runs`` replications.

    Parameters
    ----------
    fn : callable
        ``fn(rng, **params) -> dict`` of results (scalars or small lists).
    grid : iterable of dict
        The configurations; their values must be JSON-serialisable.
    n_runs : int
        Replications per configuration.
    seed : int
        Master seed.
    n_jobs : int
        Worker processes (joblib) or, for ``backend="dask"`` without a scheduler, local workers.
        Overridden by the environment variable ``BAI_N_JOBS`` when it is set.
    backend : {"joblib", "dask"}
        Overridden by ``BAI_BACKEND`` when it is set (``BAI_SCHEDULER`` implies ``"dask"``).
    scheduler : str or distributed.Client, optional
        Address of a dask scheduler, or a client (``backend="dask"``). Overridden by
        ``BAI_SCHEDULER`` when it is set. See :func:`runtime_overrides`: the environment takes
        precedence so that a command-line rerun can change the parallelism of a chapter
        without editing it; the results are the same whatever it is.
    checkpoint_dir : path, optional
        Where finished tasks are stored; a rerun skips them.
    progress : bool, optional
        Show a tqdm progress bar (on stderr). The default shows it when stderr is a terminal
        (command-line reruns) and hides it in executed notebooks, where it would be noise.
    name : str, optional
        Name of the experiment in task identities (defaults to ``fn.__qualname__``); change it
        (e.g. add a version) when ``fn`` changes, so that stale checkpoints are not reused.

    Returns
    -------
    pandas.DataFrame
        One row per task: the parameters, ``run``, then the result fields, in grid order.
    """
    if not callable(fn):
        raise TypeError("fn must be callable")
    if isinstance(grid, (Mapping, str, bytes)) or not isinstance(grid, Iterable):
        raise TypeError("grid must be an iterable of dicts (one per configuration), "
                        f"got {type(grid).__name__}")
    grid = list(grid)
    if not all(isinstance(g, Mapping) for g in grid):
        raise TypeError("every configuration in grid must be a dict of parameters")
    grid = [dict(g) for g in grid]
    if not grid:
        raise ValueError("grid must contain at least one configuration")
    for g in grid:
        _canonical(g)  # validates serialisability early
        if "run" in g or "rng" in g:
            raise ValueError("grid parameters must not be named 'run' or 'rng'")
    n_runs = check_int(n_runs, "n_runs", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    n_jobs = check_int(n_jobs, "n_jobs", minimum=1)
    overrides = runtime_overrides()
    n_jobs = overrides.get("n_jobs", n_jobs)
    backend = overrides.get("backend", backend)
    scheduler = overrides.get("scheduler", scheduler)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'joblib' or 'dask', got {backend!r}")
    name = name or getattr(fn, "__qualname__", "experiment")
    ckpt = Path(checkpoint_dir) if checkpoint_dir is not None else None
    if ckpt is not None and ckpt.is_dir():
        # a run killed inside a write leaves only a temporary file: never a result
        for stale in ckpt.glob(".tmp-*.json"):
            stale.unlink(missing_ok=True)

    tasks = [(i, g, r) for i, g in enumerate(grid) for r in range(n_runs)]
    results: dict[tuple[int, int], dict] = {}
    pending = []
    for i, g, r in tasks:
        path = ckpt / f"{_task_id(name, seed, g, r)}.json" if ckpt is not None else None
        if path is not None and path.exists():
            try:
                results[(i, r)] = json.loads(path.read_text())["result"]
                continue
            except (json.JSONDecodeError, KeyError):
                path.unlink()  # unreadable: recompute
        pending.append((i, g, r, None if path is None else str(path)))

    from tqdm import tqdm  # plain text bar: no widget machinery in notebooks

    if progress is None:
        progress = sys.stderr.isatty()
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(pending), desc=name,
               disable=not progress, file=sys.stderr)
    try:
        if backend == "joblib":
            _run_joblib(fn, pending, seed, n_jobs, results, bar)
        else:
            _run_dask(fn, pending, seed, n_jobs, scheduler, results, bar)
    finally:
        bar.close()

    rows = []
    for i, g, r in tasks:
        rows.append({**g, "run": r, **results[(i, r)]})
    return pd.DataFrame(rows)


def _run_joblib(fn, pending, seed, n_jobs, results, bar):
    if n_jobs == 1 or len(pending) <= 1:
        for i, g, r, path in pending:
            results[(i, r)] = _run_task(fn, g, r, seed, path)
            bar.update()
        return
    from joblib import Parallel, delayed

    par = Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)
    jobs = (delayed(_indexed_task)(fn, i, g, r, seed, path) for i, g, r, path in pending)
    for i, r, record in par(jobs):
        results[(i, r)] = record
        bar.update()


def _indexed_task(fn, i, g, r, seed, path):
    return i, r, _run_task(fn, g, r, seed, path)


def _run_dask(fn, pending, seed, n_jobs, scheduler, results, bar):
    from distributed import Client, LocalCluster, as_completed

    own = None
    if scheduler is None:
        own = Client(LocalCluster(n_workers=n_jobs, threads_per_worker=1, processes=True,
                                  dashboard_address=None))
        client = own
    elif isinstance(scheduler, str):
        own = client = Client(scheduler)
    else:
        client = scheduler
    try:
        futures = [client.submit(_indexed_task, fn, i, g, r, seed, path, pure=False)
                   for i, g, r, path in pending]
        for fut in as_completed(futures):
            i, r, record = fut.result()
            results[(i, r)] = record
            bar.update()
    finally:
        if own is not None:
            cluster = getattr(own, "cluster", None)
            own.close()
            if cluster is not None:
                cluster.close()


def summarise(df: pd.DataFrame, by, value: str) -> pd.DataFrame:
    """Mean, standard error and count of ``value`` per group ``by`` (a tidy summary table)."""
    if value not in df.columns:
        raise ValueError(f"value must be a column of the table, got {value!r}")
    by = [by] if isinstance(by, str) else list(by)
    missing = [b for b in by if b not in df.columns]
    if missing:
        raise ValueError(f"by must name columns of the table; missing {missing}")
    g = df.groupby(by, sort=False)[value]
    out = g.agg(mean="mean", std="std", n="count").reset_index()
    out["se"] = out["std"] / np.sqrt(out["n"])
    return out.drop(columns="std")
