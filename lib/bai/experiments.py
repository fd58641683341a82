"""Running experiments: a grid of (configuration, replication) tasks -> one tidy table.

* **Determinism.** Each task draws its random numbers from its own
  ``numpy.random.SeedSequence``, keyed by the master seed, a stable hash of the task's
  parameters and the replication index. The result is the same for any ``n_jobs``, any backend,
  any order of execution, and adding a configuration to a grid does not change the others.
* **Resumption.** With ``checkpoint_dir``, every finished task is written to its own JSON file
  (atomically: a temporary file renamed into place), and a rerun skips the tasks already on
  disk. An interrupted grid therefore resumes without recomputing finished work, and an
  interrupted write never leaves a half-written result.
* **The result store.** Without ``checkpoint_dir``, the environment variable ``BAI_STORE`` (a
  folder) gives one: every experiment keeps its finished tasks in ``$BAI_STORE/<name>/``, keyed
  as the checkpoints are (below). ``make book`` sets it to ``build/store``, so a rebuild
  recomputes only the tasks whose code, library or settings changed, and an interrupted build
  resumes (:func:`store_dir`).
* **Checkpoints are never stale.** A task's identity is keyed by everything that can change its
  result: the experiment's name, the master seed, the task's parameters and replication, the
  *code* of the task function and of everything it reaches (:func:`code_fingerprint`: its
  bytecode, constants, defaults, closures and the globals it reads, recursively, so a notebook
  function that reads a notebook global or calls a notebook helper is keyed by them too), and
  the source and data files of the whole installed ``bai`` package (:func:`package_digest`), and
  the versions of Python and of the numerical packages (:func:`environment_key`). Editing a
  task's body, a helper it calls, a global it reads, a library module or a data file makes a
  rerun recompute; a run killed under old code and resumed under new code never mixes rows.
* **Parallelism.** joblib (processes) on one machine, or a dask ``distributed`` cluster.
  ``n_jobs=None`` (every chapter's profiles) means the cores available to the process
  (:func:`available_cores`).
* **Profiles.** :func:`select_profile` picks a chapter's named profile (``ci``, ``paper``).
* **Run-time overrides.** The environment variables ``BAI_N_JOBS``, ``BAI_BACKEND`` and
  ``BAI_SCHEDULER``, when set, take precedence over the ``n_jobs``, ``backend`` and
  ``scheduler`` arguments of :func:`run_experiment` (see :func:`runtime_overrides`). This is how
  ``python -m bai reproduce <chapter> --jobs N --backend dask --scheduler ADDRESS`` reruns a
  chapter on more workers or on a cluster without editing it. Results do not change: a seed
  fixes every result whatever the number of workers or the backend.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import numpy as np
import pandas as pd

from .validation import check_int
from .validation import constraints

__all__ = [
    "task_seed",
    "code_fingerprint",
    "package_digest",
    "run_experiment",
    "select_profile",
    "summarise",
    "runtime_overrides",
    "available_cores",
    "environment_key",
    "store_dir",
    "PROFILES",
    "BACKENDS",
    "ENV_N_JOBS",
    "ENV_BACKEND",
    "ENV_SCHEDULER",
    "ENV_PROGRESS_FILE",
    "ENV_STORE",
]

PROFILES = ("ci", "paper")
BACKENDS = ("joblib", "dask")
ENV_N_JOBS = "BAI_N_JOBS"
ENV_BACKEND = "BAI_BACKEND"
ENV_SCHEDULER = "BAI_SCHEDULER"
#: When set, every :func:`run_experiment` writes its task count (done, total, start time) to this
#: JSON file as it goes: ``python -m bai reproduce`` reads it to show progress inside a cell.
ENV_PROGRESS_FILE = "BAI_PROGRESS_FILE"
#: A folder: the result store of every :func:`run_experiment` called without ``checkpoint_dir``
#: (see :func:`store_dir`). ``make book`` sets it to ``build/store``.
ENV_STORE = "BAI_STORE"


def available_cores() -> int:
    """The number of cores this process may run on: ``len(os.sched_getaffinity(0))`` where the
    platform has it (Linux: it follows ``taskset`` and the cgroup's cpuset), else
    ``os.cpu_count()``; at least 1. The default number of workers of every chapter's profile
    (``n_jobs: None``); ``BAI_N_JOBS`` overrides it."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS, Windows
        n = os.cpu_count() or 1
    return max(1, int(n))


@constraints(name="name", environ="mapping")
def store_dir(name: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """The folder of the result store for the experiment ``name`` (``$BAI_STORE/<name>``, the
    name reduced to letters, digits, ``.``, ``_`` and ``-``), or None when ``BAI_STORE`` is
    unset or empty.

    Raises
    ------
    ValueError
        When ``BAI_STORE`` names an existing file (not a folder).
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string, got {name!r}")
    env = os.environ if environ is None else environ
    if not isinstance(env, Mapping):
        raise TypeError(f"environ must be a mapping of variable names to strings, got "
                        f"{type(env).__name__}")
    root = str(env.get(ENV_STORE, "")).strip()
    if not root:
        return None
    root_path = Path(root).expanduser()
    if root_path.exists() and not root_path.is_dir():
        raise ValueError(f"{ENV_STORE} must name a folder, got the file {root!r}")
    safe = "".join(c if (c.isalnum() or c in "._-") else "_" for c in name).strip(".") or "_"
    return root_path.resolve() / safe


@constraints(environ="mapping")
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
    if not isinstance(env, Mapping):
        raise TypeError(f"environ must be a mapping of variable names to strings, got "
                        f"{type(env).__name__}")
    for var in (ENV_N_JOBS, ENV_BACKEND, ENV_SCHEDULER):
        if not isinstance(env.get(var, ""), str):
            raise TypeError(f"environ[{var!r}] must be a string, got {type(env[var]).__name__}")
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


@constraints(name="choice", profiles="mapping")
def select_profile(name: str, profiles: Mapping[str, Mapping[str, Any]]) -> dict:
    """Return ``profiles[name]`` (a chapter's parameters), with a clear error for a bad name.

    Every chapter defines a small ``ci`` profile (CI and coursework) and a ``paper`` profile
    (the paper's run counts); papermill sets the name through the notebook's parameters cell.
    """
    if not isinstance(name, str):
        raise TypeError(f"profile must be a string, got {type(name).__name__}")
    if not isinstance(profiles, Mapping):
        raise TypeError(f"profiles must be a mapping of profile names, got {type(profiles).__name__}")
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


@constraints(seed="count0", params="mapping", run="count0")
def task_seed(seed: int, params: Mapping[str, Any], run: int) -> np.random.SeedSequence:
    """The ``SeedSequence`` of one task: master ``seed``, parameters and replication index."""
    seed = check_int(seed, "seed", minimum=0)
    run = check_int(run, "run", minimum=0)
    if not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping of parameters, got {type(params).__name__}")
    return np.random.SeedSequence(entropy=seed, spawn_key=(*_key_words(_canonical(params)), run))


# ---------------------------------------------------------------------------------------------
# What a task's result depends on: its code and the package's files
# ---------------------------------------------------------------------------------------------

_PACKAGE_ROOT = Path(__file__).resolve().parent


def _digest_tree(root: str) -> str:
    h = hashlib.sha256()
    base = Path(root)
    for path in sorted(p for p in base.rglob("*") if p.is_file()):
        rel = path.relative_to(base)
        if "__pycache__" in rel.parts or path.suffix in {".pyc", ".pyo"} or any(
                part.startswith(".") for part in rel.parts):
            continue
        if rel.parts[0] == "recorded":   # the book's last recorded claims: an output, read by
            continue                     # no computation (bai.ledger.recorded_dataset)
        h.update(str(rel.as_posix()).encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


@constraints(root="path")
def package_digest(root: str | os.PathLike | None = None) -> str:
    """SHA-256 of every source and data file of the installed ``bai`` package.

    Every checkpoint is keyed by it (see :func:`run_experiment`), so that pulling a library fix,
    editing any module or a data table shipped in the package recomputes every task. ``root``
    defaults to the package's own folder. It is recomputed at every call (a few milliseconds),
    so a module edited in a running kernel counts too.
    """
    if root is None:
        return _digest_tree(str(_PACKAGE_ROOT))
    if not isinstance(root, (str, os.PathLike)):
        raise TypeError(f"root must be a path, got {type(root).__name__}")
    if not Path(root).is_dir():
        raise ValueError(f"root must be an existing directory, got {str(root)!r}")
    return _digest_tree(str(Path(root).resolve()))


def environment_key() -> str:
    """The versions a task's numbers can depend on beyond ``bai``: Python, NumPy (the random
    generators), SciPy and numba (compiled kernels). Part of every checkpoint's key, so that a
    result stored under other versions is recomputed."""
    import platform

    parts = [f"python={platform.python_version()}"]
    for mod in ("numpy", "scipy", "numba"):
        try:
            version = __import__(mod).__version__
        except ImportError:
            version = "-"
        parts.append(f"{mod}={version}")
    return ";".join(parts)


def _is_library(obj) -> bool:
    """Objects defined in ``bai`` (covered by :func:`package_digest`) or in another installed
    package (covered by its version): not hashed by content."""
    module = getattr(obj, "__module__", None) or getattr(obj, "__name__", "")
    return isinstance(module, str) and module.split(".")[0] not in {"__main__", ""} and (
        module.split(".")[0] == "bai" or module.split(".")[0] in sys.modules
        and not _is_user_module(module.split(".")[0]))


def _is_user_module(top: str) -> bool:
    """Modules of the user's own (a notebook's cwd, a test folder): hashed by content."""
    mod = sys.modules.get(top)
    path = getattr(mod, "__file__", None)
    if path is None:
        return top == "__main__"
    path = str(Path(path).resolve())
    return not any(part in path for part in ("site-packages", "dist-packages")) and not \
        path.startswith(str(Path(sys.base_prefix).resolve())) and not path.startswith(
            str(_PACKAGE_ROOT))


def _update(h, obj, seen: set, depth: int = 0) -> None:
    """Feed a stable description of ``obj`` (and what it reaches) into the hash ``h``."""
    if depth > 50:
        h.update(b"<deep>")
        return
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        h.update(f"{type(obj).__name__}:{obj!r};".encode())
        return
    if isinstance(obj, np.ndarray):
        h.update(f"nd:{obj.dtype.str}:{obj.shape};".encode())
        h.update(np.ascontiguousarray(obj).tobytes() if obj.dtype != object else repr(obj.tolist()).encode())
        return
    if isinstance(obj, np.generic):
        h.update(f"np:{obj.dtype.str}:{obj!r};".encode())
        return
    key = id(obj)
    if key in seen:
        h.update(b"<seen>")
        return
    seen.add(key)
    if isinstance(obj, (list, tuple, set, frozenset)):
        items = sorted(obj, key=repr) if isinstance(obj, (set, frozenset)) else obj
        h.update(f"{type(obj).__name__}[{len(obj)}](".encode())
        for item in items:
            _update(h, item, seen, depth + 1)
        h.update(b")")
        return
    if isinstance(obj, Mapping):
        h.update(f"map[{len(obj)}](".encode())
        for k in sorted(obj, key=repr):
            _update(h, k, seen, depth + 1)
            _update(h, obj[k], seen, depth + 1)
        h.update(b")")
        return
    if isinstance(obj, types.ModuleType):
        h.update(f"module:{obj.__name__}:{getattr(obj, '__version__', '')};".encode())
        if _is_user_module(obj.__name__.split(".")[0]) and getattr(obj, "__file__", None):
            h.update(Path(obj.__file__).read_bytes())
        return
    if isinstance(obj, functools.partial):
        h.update(b"partial(")
        _update(h, obj.func, seen, depth + 1)
        _update(h, obj.args, seen, depth + 1)
        _update(h, obj.keywords, seen, depth + 1)
        h.update(b")")
        return
    if isinstance(obj, types.MethodType):
        _update(h, obj.__func__, seen, depth + 1)
        _update(h, obj.__self__, seen, depth + 1)
        return
    func = getattr(obj, "py_func", None)  # a numba dispatcher: its Python function
    if isinstance(obj, types.FunctionType) or isinstance(func, types.FunctionType):
        fn = obj if isinstance(obj, types.FunctionType) else func
        h.update(f"function:{fn.__module__}.{fn.__qualname__};".encode())
        if _is_library(fn):  # its module's source is in the package digest, or its version
            top = sys.modules.get(str(fn.__module__).split(".")[0])
            h.update(str(getattr(top, "__version__", "")).encode())
            return
        _update_code(h, fn.__code__, fn.__globals__, seen, depth)
        _update(h, fn.__defaults__, seen, depth + 1)
        _update(h, fn.__kwdefaults__, seen, depth + 1)
        for cell in fn.__closure__ or ():
            try:
                _update(h, cell.cell_contents, seen, depth + 1)
            except ValueError:  # an empty cell
                h.update(b"<empty>")
        return
    if isinstance(obj, type):
        h.update(f"class:{obj.__module__}.{obj.__qualname__};".encode())
        if not _is_library(obj):
            for name, value in sorted(vars(obj).items()):
                if not (name.startswith("__") and name.endswith("__")):
                    h.update(name.encode())
                    _update(h, value, seen, depth + 1)
        return
    if isinstance(obj, (staticmethod, classmethod, property)):
        _update(h, getattr(obj, "__func__", None) or obj.fget, seen, depth + 1)
        return
    if isinstance(obj, (pd.DataFrame, pd.Series, pd.Index)):
        h.update(pd.util.hash_pandas_object(obj, index=True).to_numpy().tobytes()
                 if not isinstance(obj, pd.Index) else repr(obj.tolist()).encode())
        if isinstance(obj, pd.DataFrame):
            h.update(repr(list(obj.columns)).encode())
        return
    # an instance: its class and its state (a dataclass of an instance, say)
    h.update(f"instance:{type(obj).__module__}.{type(obj).__qualname__};".encode())
    _update(h, type(obj), seen, depth + 1)
    state = getattr(obj, "__dict__", None)
    if state is not None:
        _update(h, state, seen, depth + 1)
    else:
        h.update(repr(obj).encode())


def _update_code(h, code: types.CodeType, globals_: dict, seen: set, depth: int) -> None:
    h.update(code.co_code)
    h.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _update_code(h, const, globals_, seen, depth + 1)
        else:
            _update(h, const, seen, depth + 1)
    for name in code.co_names:
        if name in globals_:
            h.update(f"global:{name};".encode())
            _update(h, globals_[name], seen, depth + 1)


@constraints(fn="callable")
def code_fingerprint(fn: Callable) -> str:
    """A digest of the code a task function runs, for its checkpoints' keys.

    It covers the function's bytecode, constants, default arguments and closure, and, followed
    recursively, every global name it reads: a helper function of the notebook or of a user
    module is hashed the same way, a global value (a number, a dict of settings, an array, a
    dataclass instance) by its content. Functions and classes of ``bai`` are covered by
    :func:`package_digest` and those of other installed packages by their module's version, so
    they are not walked. Two functions with the same name but different bodies, or reading
    different values of a global, get different fingerprints.
    """
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {type(fn).__name__}")
    h = hashlib.sha256()
    if _is_library(fn) and not isinstance(fn, functools.partial):
        h.update(f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', '')}".encode())
    else:
        _update(h, fn, set())
    return h.hexdigest()


def _task_id(name: str, seed: int, params: Mapping[str, Any], run: int, code: str = "") -> str:
    text = f"{name}|{seed}|{_canonical(params)}|{run}|{code}"
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


def _run_task(fn, params, run, seed, checkpoint_path, code=""):
    rng = np.random.default_rng(task_seed(seed, params, run))
    out = fn(rng, **params)
    if not isinstance(out, Mapping):
        raise TypeError(f"the experiment function must return a dict of results, got {type(out).__name__}")
    record = _jsonable(dict(out))
    if checkpoint_path is not None:
        _atomic_write_json(Path(checkpoint_path), {"params": _jsonable(dict(params)), "run": run,
                                                   "code": code, "result": record})
    return record


@constraints(fn="callable", grid="records", n_runs="count", seed="count0", backend="choice",
             n_jobs="count_none", checkpoint_dir="path")
def run_experiment(
    fn: Callable[..., Mapping[str, Any]],
    grid: Iterable[Mapping[str, Any]],
    n_runs: int,
    *,
    seed: int = 0,
    n_jobs: int | None = 1,
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
    n_jobs : int or None
        Worker processes (joblib) or, for ``backend="dask"`` without a scheduler, local workers;
        None: the cores available to the process (:func:`available_cores`). Overridden by the
        environment variable ``BAI_N_JOBS`` when it is set.
    backend : {"joblib", "dask"}
        Overridden by ``BAI_BACKEND`` when it is set (``BAI_SCHEDULER`` implies ``"dask"``).
    scheduler : str or distributed.Client, optional
        Address of a dask scheduler, or a client (``backend="dask"``). Overridden by
        ``BAI_SCHEDULER`` when it is set. See :func:`runtime_overrides`: the environment takes
        precedence so that a command-line rerun can change the parallelism of a chapter
        without editing it; the results are the same whatever it is.
    checkpoint_dir : path, optional
        Where finished tasks are stored; a rerun skips them. Default: the result store
        ``$BAI_STORE/<name>`` when the environment variable ``BAI_STORE`` is set
        (:func:`store_dir`), else nothing is stored.
    progress : bool, optional
        Show a tqdm progress bar (on stderr). The default shows it when stderr is a terminal
        (command-line reruns) and hides it in executed notebooks, where it would be noise.
    name : str, optional
        Name of the experiment in task identities (defaults to ``fn.__qualname__``). There is no
        need to version it by hand: every checkpoint is also keyed by
        :func:`code_fingerprint` of ``fn`` and by :func:`package_digest`, so a changed task
        body, helper, global setting, library module or data file recomputes.

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
    n_jobs = available_cores() if n_jobs is None else check_int(n_jobs, "n_jobs", minimum=1)
    overrides = runtime_overrides()
    n_jobs = overrides.get("n_jobs", n_jobs)
    backend = overrides.get("backend", backend)
    scheduler = overrides.get("scheduler", scheduler)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'joblib' or 'dask', got {backend!r}")
    name = name or getattr(fn, "__qualname__", "experiment")
    if checkpoint_dir is not None and not isinstance(checkpoint_dir, (str, os.PathLike)):
        raise TypeError(f"checkpoint_dir must be a path, got {type(checkpoint_dir).__name__}")
    ckpt = Path(checkpoint_dir) if checkpoint_dir is not None else store_dir(name)
    if ckpt is not None and ckpt.exists() and not ckpt.is_dir():
        raise ValueError(f"checkpoint_dir must be a directory, got the file {str(ckpt)!r}")
    code = (f"{code_fingerprint(fn)}|{package_digest()}|{environment_key()}"
            if ckpt is not None else "")
    if ckpt is not None and ckpt.is_dir():
        # a run killed inside a write leaves only a temporary file: never a result
        for stale in ckpt.glob(".tmp-*.json"):
            stale.unlink(missing_ok=True)

    tasks = [(i, g, r) for i, g in enumerate(grid) for r in range(n_runs)]
    results: dict[tuple[int, int], dict] = {}
    pending = []
    for i, g, r in tasks:
        path = ckpt / f"{_task_id(name, seed, g, r, code)}.json" if ckpt is not None else None
        if path is not None and path.exists():
            try:
                stored = json.loads(path.read_text())
                if stored.get("code") == code:
                    results[(i, r)] = stored["result"]
                    continue
            except (json.JSONDecodeError, KeyError, AttributeError):
                pass
            path.unlink()  # unreadable or written by other code: recompute
        pending.append((i, g, r, None if path is None else str(path)))

    from tqdm import tqdm  # plain text bar: no widget machinery in notebooks

    if progress is None:
        progress = sys.stderr.isatty()
    bar = _Progress(tqdm(total=len(tasks), initial=len(tasks) - len(pending), desc=name,
                         disable=not progress, file=sys.stderr),
                    os.environ.get(ENV_PROGRESS_FILE), name, len(tasks), len(tasks) - len(pending))
    try:
        if backend == "joblib":
            _run_joblib(fn, pending, seed, n_jobs, results, bar, code)
        else:
            _run_dask(fn, pending, seed, n_jobs, scheduler, results, bar, code)
    finally:
        bar.close()

    rows = []
    for i, g, r in tasks:
        rows.append({**g, "run": r, **results[(i, r)]})
    return pd.DataFrame(rows)


class _Progress:
    """The task bar, and the same count written to the file named by ``BAI_PROGRESS_FILE``
    (when set; ``python -m bai reproduce`` sets it and shows the tasks done, the total and the
    time left inside a long cell). The file is replaced atomically, at most twice a second."""

    def __init__(self, bar, path, name: str, total: int, initial: int):
        self.bar, self.path, self.name, self.total = bar, path, name, total
        self.done = self.initial = initial
        self.start = self.last = time.time()
        self._write(force=True)

    def update(self, n: int = 1) -> None:
        self.bar.update(n)
        self.done += n
        self._write(force=self.done >= self.total)

    def close(self) -> None:
        self.bar.close()
        self._write(force=True)

    def _write(self, force: bool) -> None:
        now = time.time()
        if not self.path or (not force and now - self.last < 0.5):
            return
        self.last = now
        try:
            _atomic_write_json(Path(self.path), {
                "name": self.name, "done": self.done, "total": self.total,
                "initial": self.initial, "start": self.start, "now": now})
        except OSError:   # progress is a courtesy: never fail an experiment for it
            pass


def _run_joblib(fn, pending, seed, n_jobs, results, bar, code):
    if n_jobs == 1 or len(pending) <= 1:
        for i, g, r, path in pending:
            results[(i, r)] = _run_task(fn, g, r, seed, path, code)
            bar.update()
        return
    from joblib import Parallel, delayed

    par = Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)
    jobs = (delayed(_indexed_task)(fn, i, g, r, seed, path, code) for i, g, r, path in pending)
    for i, r, record in par(jobs):
        results[(i, r)] = record
        bar.update()


def _indexed_task(fn, i, g, r, seed, path, code=""):
    return i, r, _run_task(fn, g, r, seed, path, code)


def _run_dask(fn, pending, seed, n_jobs, scheduler, results, bar, code):
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
        futures = [client.submit(_indexed_task, fn, i, g, r, seed, path, code, pure=False)
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


@constraints(df="frame", by="choice", value="choice")
def summarise(df: pd.DataFrame, by, value: str) -> pd.DataFrame:
    """Mean, standard error and count of ``value`` per group ``by`` (a tidy summary table)."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame, got {type(df).__name__}")
    if not isinstance(value, str):
        raise TypeError(f"value must be a column name (a string), got {type(value).__name__}")
    if not isinstance(by, (str, list, tuple)) or not all(isinstance(b, str) for b in
                                                         ([by] if isinstance(by, str) else by)):
        raise TypeError(f"by must be a column name or a list of them, got {by!r}")
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
