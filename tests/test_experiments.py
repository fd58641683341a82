"""Tests of bai.experiments: determinism, parallel backends, checkpoints and resumption."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bai import experiments as ex

TESTS_DIR = str(Path(__file__).resolve().parent)
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)

import _grid_helpers as helpers  # noqa: E402

GRID = helpers.GRID


def run(fn=helpers.compute, grid=GRID, n_runs=3, **kw):
    kw.setdefault("seed", 7)
    kw.setdefault("progress", False)
    return ex.run_experiment(fn, grid, n_runs, **kw)


def _sorted(df):
    return df.sort_values(["a", "b", "run"]).reset_index(drop=True)


# ---------------------------------------------------------------------------------------------
# The table and its determinism
# ---------------------------------------------------------------------------------------------


def test_table_layout_and_grid_order():
    df = run(n_runs=2)
    assert list(df.columns) == ["a", "b", "run", "y", "k"]
    assert len(df) == len(GRID) * 2
    expected = [(g["a"], g["b"], r) for g in GRID for r in range(2)]
    assert list(zip(df["a"], df["b"], df["run"])) == expected
    # the replications of one configuration see different random numbers
    assert df["k"].nunique() == len(df)
    # and each row equals the function evaluated on its own task seed
    for _, row in df.iterrows():
        params = {"a": int(row["a"]), "b": float(row["b"])}
        rng = np.random.default_rng(ex.task_seed(7, params, int(row["run"])))
        assert helpers.compute(rng, **params) == {"y": row["y"], "k": row["k"]}


def test_master_seed_changes_results():
    a = run(n_runs=2, seed=1)
    b = run(n_runs=2, seed=2)
    assert not np.array_equal(a["k"].to_numpy(), b["k"].to_numpy())
    pd.testing.assert_frame_equal(a, run(n_runs=2, seed=1))


def test_seeds_depend_on_params_and_run_not_order():
    forward = run()
    backward = run(grid=GRID[::-1])
    pd.testing.assert_frame_equal(_sorted(forward), _sorted(backward))
    # adding a configuration leaves the others' rows unchanged
    bigger = run(grid=GRID + [{"a": 9, "b": 0.0}])
    pd.testing.assert_frame_equal(bigger.iloc[: len(forward)].reset_index(drop=True), forward)


def test_task_seed():
    s = ex.task_seed(3, {"a": 1, "b": 2.0}, 0)
    same = ex.task_seed(3, {"b": 2.0, "a": 1}, 0)  # key order does not matter
    assert np.array_equal(s.generate_state(4), same.generate_state(4))
    for other in (ex.task_seed(3, {"a": 1, "b": 2.0}, 1), ex.task_seed(4, {"a": 1, "b": 2.0}, 0),
                  ex.task_seed(3, {"a": 2, "b": 2.0}, 0)):
        assert not np.array_equal(s.generate_state(4), other.generate_state(4))
    # numpy scalars in the parameters hash like Python numbers
    np_seed = ex.task_seed(3, {"a": np.int64(1), "b": np.float64(2.0)}, 0)
    assert np.array_equal(s.generate_state(4), np_seed.generate_state(4))


def test_joblib_two_workers_same_table():
    serial = run(n_jobs=1)
    parallel = run(n_jobs=2)
    pd.testing.assert_frame_equal(serial, parallel)


@pytest.mark.slow
def test_dask_backend_same_table():
    pytest.importorskip("distributed")
    reference = run(n_runs=2)
    got = run(n_runs=2, backend="dask", n_jobs=2, scheduler=None)
    pd.testing.assert_frame_equal(reference, got)


@pytest.mark.slow
def test_dask_cluster_address_same_table(monkeypatch):
    """A LocalCluster with 2 workers, reached by its address (as `--scheduler ADDRESS` does),
    gives the joblib table; so does the same address given through BAI_SCHEDULER."""
    distributed = pytest.importorskip("distributed")
    for var in (ex.ENV_N_JOBS, ex.ENV_BACKEND, ex.ENV_SCHEDULER):
        monkeypatch.delenv(var, raising=False)
    reference = run(n_runs=2, n_jobs=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert isinstance(address, str) and address.startswith("tcp://")
        got = run(n_runs=2, backend="dask", scheduler=address)
        pd.testing.assert_frame_equal(reference, got)
        # the tasks really ran on the cluster's workers, not in this process
        with distributed.Client(address) as client:
            worker_pids = set(client.run(os.getpid).values())
            assert len(worker_pids) == 2 and os.getpid() not in worker_pids

            def where(rng, a, b):
                return {**helpers.compute(rng, a, b), "pid": os.getpid()}

            # the environment override: the chapter's call says joblib with 1 job
            monkeypatch.setenv(ex.ENV_SCHEDULER, address)
            via_env = run(where, n_runs=2, n_jobs=1, backend="joblib")
        assert set(via_env["pid"]) <= worker_pids
        pd.testing.assert_frame_equal(reference, via_env.drop(columns="pid"))


# ---------------------------------------------------------------------------------------------
# Run-time overrides (BAI_N_JOBS, BAI_BACKEND, BAI_SCHEDULER)
# ---------------------------------------------------------------------------------------------


def test_runtime_overrides_parsing():
    assert ex.runtime_overrides({}) == {}
    assert ex.runtime_overrides({"BAI_N_JOBS": "", "BAI_BACKEND": " "}) == {}
    assert ex.runtime_overrides({"BAI_N_JOBS": "3"}) == {"n_jobs": 3}
    assert ex.runtime_overrides({"BAI_BACKEND": "dask"}) == {"backend": "dask"}
    assert ex.runtime_overrides({"BAI_SCHEDULER": "tcp://h:8786"}) == {
        "backend": "dask", "scheduler": "tcp://h:8786"}
    for bad in ("0", "-2", "two", "1.5"):
        with pytest.raises(ValueError, match="BAI_N_JOBS must be a positive integer"):
            ex.runtime_overrides({"BAI_N_JOBS": bad})
    with pytest.raises(ValueError, match="BAI_BACKEND must be 'joblib' or 'dask', got 'ray'"):
        ex.runtime_overrides({"BAI_BACKEND": "ray"})
    with pytest.raises(ValueError, match="BAI_SCHEDULER .* needs BAI_BACKEND=dask"):
        ex.runtime_overrides({"BAI_BACKEND": "joblib", "BAI_SCHEDULER": "tcp://h:1"})


def test_env_n_jobs_takes_precedence(monkeypatch):
    def where(rng, a, b):
        return {**helpers.compute(rng, a, b), "pid": os.getpid()}

    monkeypatch.delenv(ex.ENV_BACKEND, raising=False)
    monkeypatch.delenv(ex.ENV_SCHEDULER, raising=False)
    monkeypatch.delenv(ex.ENV_N_JOBS, raising=False)
    serial = run(where, n_jobs=1)
    assert set(serial["pid"]) == {os.getpid()}
    monkeypatch.setenv(ex.ENV_N_JOBS, "2")
    parallel = run(where, n_jobs=1)  # the call says 1 job: the environment wins
    assert os.getpid() not in set(parallel["pid"])
    pd.testing.assert_frame_equal(serial.drop(columns="pid"), parallel.drop(columns="pid"))
    monkeypatch.setenv(ex.ENV_N_JOBS, "zero")
    with pytest.raises(ValueError, match="BAI_N_JOBS"):
        run(n_jobs=1)
    monkeypatch.setenv(ex.ENV_N_JOBS, "1")
    monkeypatch.setenv(ex.ENV_BACKEND, "spark")
    with pytest.raises(ValueError, match="BAI_BACKEND"):
        run()


# ---------------------------------------------------------------------------------------------
# Checkpoints
# ---------------------------------------------------------------------------------------------


def _json_files(d: Path):
    return sorted(p for p in d.iterdir() if p.suffix == ".json" and not p.name.startswith(".tmp-"))


def _marks(monkeypatch, tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir(exist_ok=True)
    monkeypatch.setenv("BAI_TEST_MARKERS", str(marks))
    return lambda: len(list(marks.iterdir()))


def test_checkpoints_are_reused(tmp_path, monkeypatch):
    ran = _marks(monkeypatch, tmp_path)
    ckpt = tmp_path / "ckpt"
    first = run(helpers.marked, n_runs=2, checkpoint_dir=ckpt, name="ck")
    assert ran() == len(GRID) * 2
    files = _json_files(ckpt)
    assert len(files) == len(GRID) * 2
    for f in files:
        payload = json.loads(f.read_text())
        assert set(payload) == {"params", "run", "code", "result"}
    second = run(helpers.marked, n_runs=2, checkpoint_dir=ckpt, name="ck")
    assert ran() == len(GRID) * 2  # nothing recomputed
    pd.testing.assert_frame_equal(first, second)
    # another experiment name does not reuse them
    run(helpers.marked, n_runs=2, checkpoint_dir=ckpt, name="ck-v2")
    assert ran() == len(GRID) * 4


def test_corrupt_checkpoint_is_recomputed(tmp_path, monkeypatch):
    ref = run(helpers.marked, n_runs=1, checkpoint_dir=tmp_path / "ckpt", name="c")
    files = _json_files(tmp_path / "ckpt")
    files[0].write_text("{not json")
    ran = _marks(monkeypatch, tmp_path)
    again = run(helpers.marked, n_runs=1, checkpoint_dir=tmp_path / "ckpt", name="c")
    pd.testing.assert_frame_equal(ref, again)
    assert ran() == 1


# ---------------------------------------------------------------------------------------------
# Checkpoints are keyed by the code: a rerun is never stale
# ---------------------------------------------------------------------------------------------


def _task_module(tmp_path, body: str, name: str = "user_tasks"):
    """Write (or rewrite) a user module defining ``task`` and import it afresh."""
    import importlib

    folder = tmp_path / "mods"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(
        "import os, uuid\nfrom pathlib import Path\nSCALE = 1.0\n\n"
        "def task(rng, a, b):\n"
        "    marks = os.environ.get('BAI_TEST_MARKERS')\n"
        "    if marks:\n"
        "        (Path(marks) / uuid.uuid4().hex).touch()\n"
        f"    {body}\n")
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    sys.modules.pop(name, None)
    importlib.invalidate_caches()
    return importlib.import_module(name)


def test_editing_a_task_body_recomputes(tmp_path, monkeypatch):
    ran = _marks(monkeypatch, tmp_path)
    ckpt = tmp_path / "ckpt"
    old = _task_module(tmp_path, "return {'y': float(a + b)}")
    first = run(old.task, n_runs=1, checkpoint_dir=ckpt, name="same-name")
    assert ran() == len(GRID)
    new = _task_module(tmp_path, "return {'y': float(a * b)}")  # same name, same grid
    second = run(new.task, n_runs=1, checkpoint_dir=ckpt, name="same-name")
    assert ran() == 2 * len(GRID)  # every task recomputed
    assert list(second["y"]) == [g["a"] * g["b"] for g in GRID]
    assert list(first["y"]) != list(second["y"])
    # unchanged code reuses its checkpoints
    run(new.task, n_runs=1, checkpoint_dir=ckpt, name="same-name")
    assert ran() == 2 * len(GRID)


def test_a_global_the_task_reads_is_part_of_its_key(tmp_path, monkeypatch):
    ran = _marks(monkeypatch, tmp_path)
    ckpt = tmp_path / "ckpt"
    mod = _task_module(tmp_path, "return {'y': float(a * SCALE)}", name="user_scaled")
    first = run(mod.task, n_runs=1, checkpoint_dir=ckpt, name="g")
    mod.SCALE = 2.0   # a notebook global edited between two runs
    second = run(mod.task, n_runs=1, checkpoint_dir=ckpt, name="g")
    assert ran() == 2 * len(GRID)
    assert list(second["y"]) == [2 * y for y in first["y"]]


def test_resuming_under_new_code_never_mixes_rows(tmp_path, monkeypatch):
    ran = _marks(monkeypatch, tmp_path)
    ckpt = tmp_path / "ckpt"
    old = _task_module(tmp_path, "return {'y': float(a + b)}", name="user_mixed")
    run(old.task, grid=GRID[:3], n_runs=2, checkpoint_dir=ckpt, name="mix")  # "killed" halfway
    assert len(_json_files(ckpt)) == 6
    new = _task_module(tmp_path, "return {'y': float(a - b)}", name="user_mixed")
    resumed = run(new.task, n_runs=2, checkpoint_dir=ckpt, name="mix")
    assert ran() == 6 + 2 * len(GRID)
    assert list(resumed["y"]) == [g["a"] - g["b"] for g in GRID for _ in range(2)]


def test_changing_a_library_file_recomputes(tmp_path, monkeypatch):
    import shutil

    copy = tmp_path / "bai"
    shutil.copytree(Path(ex.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(ex, "_PACKAGE_ROOT", copy)
    ran = _marks(monkeypatch, tmp_path)
    ckpt = tmp_path / "ckpt"
    run(helpers.marked, n_runs=1, checkpoint_dir=ckpt, name="lib")
    run(helpers.marked, n_runs=1, checkpoint_dir=ckpt, name="lib")
    assert ran() == len(GRID)
    module = copy / "designs" / "solvers.py"
    module.write_text(module.read_text() + "\n# a library fix\n")
    run(helpers.marked, n_runs=1, checkpoint_dir=ckpt, name="lib")
    assert ran() == 2 * len(GRID)


def test_code_fingerprint_follows_helpers_and_ignores_library_internals():
    from bai.algorithms import soare

    assert ex.code_fingerprint(soare.static_path) == ex.code_fingerprint(soare.static_path)
    with pytest.raises(TypeError, match="fn"):
        ex.code_fingerprint(3)


def test_checkpoint_dir_that_is_a_file_is_refused_before_any_work(tmp_path, monkeypatch):
    ran = _marks(monkeypatch, tmp_path)
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(ValueError, match="checkpoint_dir"):
        run(helpers.marked, n_runs=1, checkpoint_dir=target)
    assert ran() == 0


@pytest.mark.slow
def test_killed_grid_resumes(tmp_path):
    ckpt = tmp_path / "ckpt"
    marks = tmp_path / "marks"
    marks.mkdir()
    n_runs = 2
    total = len(GRID) * n_runs
    code = (
        "import sys; sys.path.insert(0, {tests!r})\n"
        "from _grid_helpers import slow, GRID\n"
        "from bai.experiments import run_experiment\n"
        "run_experiment(slow, GRID, {n_runs}, seed=7, checkpoint_dir={ckpt!r}, name='resume',"
        " progress=False)\n"
    ).format(tests=TESTS_DIR, n_runs=n_runs, ckpt=str(ckpt))
    proc = subprocess.Popen([sys.executable, "-c", code],
                            env={**os.environ, "BAI_TEST_MARKERS": str(marks)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # Kill once >= 3 tasks are on disk and the next one has started: the worker is then in
        # its 0.3 s sleep, not in the middle of a checkpoint write.
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, f"subprocess ended early: {proc.stderr.read().decode()}"
            assert time.monotonic() < deadline, "no checkpoints appeared"
            n_done = len(_json_files(ckpt)) if ckpt.exists() else 0
            if n_done >= 3 and len(list(marks.iterdir())) == n_done + 1:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL

    finished = Counter()
    for f in _json_files(ckpt):
        payload = json.loads(f.read_text())
        finished[(payload["params"]["a"], payload["params"]["b"])] += 1
    n_finished = sum(finished.values())
    assert 3 <= n_finished < total

    for m in marks.iterdir():
        m.unlink()
    os.environ["BAI_TEST_MARKERS"] = str(marks)
    try:
        resumed = run(helpers.slow, n_runs=n_runs, checkpoint_dir=ckpt, name="resume")
    finally:
        del os.environ["BAI_TEST_MARKERS"]
    reference = run(helpers.compute, n_runs=n_runs)
    # (a) the resumed table is the uninterrupted one
    pd.testing.assert_frame_equal(resumed, reference)
    # (b) only the unfinished tasks were recomputed
    assert len(list(marks.iterdir())) == total - n_finished
    # (c) no temporary files, and every JSON file parses
    assert not [p for p in ckpt.iterdir() if p.name.startswith(".tmp-")]
    files = [p for p in ckpt.iterdir() if p.suffix == ".json"]
    assert len(files) == total
    for f in files:
        json.loads(f.read_text())


def test_stale_temporary_file_is_cleaned_on_resume(tmp_path):
    # A SIGKILL between mkstemp and os.replace leaves '.tmp-XXXX.json' holding half a result.
    # Regression (fixed): a rerun never removes it, so the checkpoint directory keeps a
    # half-written (unparseable) JSON file for ever.
    run(n_runs=1, checkpoint_dir=tmp_path, name="stale")
    (tmp_path / ".tmp-deadbeef.json").write_text('{"params": {"a": 1, "b"')
    run(n_runs=1, checkpoint_dir=tmp_path, name="stale")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".tmp-")]


def test_non_finite_results_stay_floats(tmp_path):
    # Regression (fixed): results are passed through _jsonable even without checkpoints, so inf
    # becomes the string "inf" and nan becomes None; the column is then of dtype object and
    # summarise() fails with TypeError.
    def f(rng, a):
        return {"v": math.inf if a == 1 else 1.0, "w": math.nan}

    for kw in ({}, {"checkpoint_dir": tmp_path, "name": "nonfinite"},
               {"checkpoint_dir": tmp_path, "name": "nonfinite"}):
        df = ex.run_experiment(f, [{"a": 1}, {"a": 2}], 2, progress=False, **kw)
        assert df["v"].dtype == float and df["w"].dtype == float
        assert np.isinf(df["v"].iloc[0]) and np.all(np.isnan(df["w"]))


def test_result_must_be_a_dict():
    with pytest.raises(TypeError, match="dict"):
        ex.run_experiment(lambda rng, a: 1.0, [{"a": 1}], 1, progress=False)


def test_grid_validation():
    with pytest.raises(ValueError, match="'run' or 'rng'"):
        ex.run_experiment(helpers.compute, [{"a": 1, "run": 2}], 1, progress=False)
    with pytest.raises(TypeError, match="JSON-serialisable"):
        ex.run_experiment(helpers.compute, [{"a": object(), "b": 1.0}], 1, progress=False)
    with pytest.raises(TypeError, match="callable"):
        ex.run_experiment("not a function", GRID, 1, progress=False)


# ---------------------------------------------------------------------------------------------
# Profiles and summaries
# ---------------------------------------------------------------------------------------------


def test_select_profile():
    profiles = {"ci": {"runs": 10}, "paper": {"runs": 1000}}
    got = ex.select_profile("ci", profiles)
    assert got == {"runs": 10}
    got["runs"] = 0  # a copy: the chapter's table is not modified
    assert profiles["ci"]["runs"] == 10
    with pytest.raises(ValueError, match=r"profile must be one of \['ci', 'paper'\], got 'fast'"):
        ex.select_profile("fast", profiles)
    with pytest.raises(TypeError, match="profile must be a string"):
        ex.select_profile(None, profiles)


def test_summarise_mean_and_se():
    df = pd.DataFrame({
        "algo": ["x", "x", "x", "y", "y"],
        "d": [2, 2, 2, 2, 2],
        "n": [1.0, 2.0, 6.0, 10.0, 14.0],
    })
    out = ex.summarise(df, ["algo", "d"], "n")
    assert list(out["algo"]) == ["x", "y"]
    # x: mean 3, sample variance ((4 + 1 + 9) / 2) = 7, se = sqrt(7 / 3)
    # y: mean 12, sample variance 8, se = sqrt(8 / 2) = 2
    np.testing.assert_allclose(out["mean"], [3.0, 12.0])
    np.testing.assert_allclose(out["se"], [math.sqrt(7 / 3), 2.0])
    assert list(out["n"]) == [3, 2]
    one = ex.summarise(df, "algo", "n")
    np.testing.assert_allclose(one["mean"], [3.0, 12.0])
    with pytest.raises(ValueError, match="value must be a column"):
        ex.summarise(df, "algo", "missing")
    with pytest.raises(ValueError, match="by must name columns"):
        ex.summarise(df, ["algo", "nope"], "n")
