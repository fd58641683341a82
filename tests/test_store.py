"""The result store (issue 33, item 2): ``BAI_STORE`` keeps every finished task of every
experiment run without a checkpoint folder (``make book`` sets it), keyed as the checkpoints are
(the task's code, the whole ``bai`` package, the numerical packages' versions, seed and
parameters): a rebuild reuses, a changed module recomputes, an interrupted run resumes, and the
numbers are the same for any number of workers."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bai import experiments as ex
from bai.studies import Grid, Study

TESTS_DIR = str(Path(__file__).resolve().parent)
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)

import _grid_helpers as helpers  # noqa: E402

GRID = helpers.GRID


@pytest.fixture
def store(tmp_path, monkeypatch):
    root = tmp_path / "store"
    monkeypatch.setenv(ex.ENV_STORE, str(root))
    monkeypatch.delenv(ex.ENV_N_JOBS, raising=False)
    monkeypatch.delenv(ex.ENV_BACKEND, raising=False)
    monkeypatch.delenv(ex.ENV_SCHEDULER, raising=False)
    return root


@pytest.fixture
def marks(tmp_path, monkeypatch):
    folder = tmp_path / "marks"
    folder.mkdir()
    monkeypatch.setenv("BAI_TEST_MARKERS", str(folder))
    return lambda: len(list(folder.iterdir()))


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.json") if not p.name.startswith(".tmp-"))


def run(fn=helpers.marked, n_runs=2, **kw):
    kw.setdefault("seed", 7)
    kw.setdefault("progress", False)
    return ex.run_experiment(fn, GRID, n_runs, **kw)


def test_a_rebuild_reuses_every_stored_task(store, marks):
    first = run(name="chapter.grid")
    assert marks() == 2 * len(GRID)
    files = _files(store)
    assert len(files) == 2 * len(GRID) and {f.parent for f in files} == {store / "chapter.grid"}
    second = run(name="chapter.grid")
    assert marks() == 2 * len(GRID)          # nothing recomputed
    pd.testing.assert_frame_equal(first, second)
    # the stored numbers are the computed ones: the same table without any store
    os.environ.pop(ex.ENV_STORE)
    pd.testing.assert_frame_equal(run(helpers.compute, name="chapter.grid"), first)


def test_a_changed_setting_seed_or_task_recomputes_only_what_changed(store, marks):
    run(name="g")
    n = marks()
    run(name="g", n_runs=3)                  # one more replication: only it runs
    assert marks() == n + len(GRID)
    run(name="g", seed=8)                    # another seed: everything
    assert marks() == n + len(GRID) + 2 * len(GRID)


def _package_copy(tmp_path, monkeypatch) -> Path:
    copy = tmp_path / "bai"
    shutil.copytree(Path(ex.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(ex, "_PACKAGE_ROOT", copy)
    return copy


def soare_sums(rng, a, b):
    """A task that reaches bai.instances and bai.environments."""
    from bai.instances import soare_benchmark

    marks = os.environ.get("BAI_TEST_MARKERS")
    if marks:
        (Path(marks) / uuid.uuid4().hex).touch()
    env = soare_benchmark(a + 1)
    return {"s": float(env.sample_sums(np.full(env.K, 3), rng).sum() * b)}


def test_an_edit_to_a_module_the_task_reaches_recomputes(store, marks, tmp_path, monkeypatch):
    copy = _package_copy(tmp_path, monkeypatch)
    first = run(soare_sums, name="reach")
    run(soare_sums, name="reach")
    assert marks() == 2 * len(GRID)
    module = copy / "instances.py"           # reached by the task
    module.write_text(module.read_text() + "\n# a fix\n")
    again = run(soare_sums, name="reach")
    assert marks() == 4 * len(GRID)
    pd.testing.assert_frame_equal(first, again)   # same code path here, so the same numbers
    data = copy / "data"                     # a data file shipped in the package
    target = next(p for p in sorted(data.rglob("*")) if p.is_file())
    target.write_bytes(target.read_bytes() + b"\n")
    run(soare_sums, name="reach")
    assert marks() == 6 * len(GRID)


def test_other_numerical_package_versions_recompute(store, marks, monkeypatch):
    run(name="env")
    monkeypatch.setattr(ex, "environment_key", lambda: "python=3.11;numpy=99.0")
    run(name="env")
    assert marks() == 4 * len(GRID)


def test_environment_key_names_the_versions():
    key = ex.environment_key()
    assert key.startswith("python=") and f"numpy={np.__version__}" in key and "numba=" in key


def test_one_and_two_workers_store_and_return_the_same_numbers(tmp_path, monkeypatch):
    monkeypatch.delenv(ex.ENV_N_JOBS, raising=False)
    tables = {}
    for jobs in (1, 2):
        monkeypatch.setenv(ex.ENV_STORE, str(tmp_path / f"store{jobs}"))
        tables[jobs] = run(helpers.compute, n_runs=3, n_jobs=jobs, name="w")
        again = run(helpers.compute, n_runs=3, n_jobs=3 - jobs, name="w")   # read back
        pd.testing.assert_frame_equal(tables[jobs], again)
    pd.testing.assert_frame_equal(tables[1], tables[2])
    one = {f.name: json.loads(f.read_text()) for f in _files(tmp_path / "store1")}
    two = {f.name: json.loads(f.read_text()) for f in _files(tmp_path / "store2")}
    assert one == two                         # the same files, byte for byte in content


def test_an_interrupted_run_resumes_from_the_store(tmp_path):
    store = tmp_path / "store"
    marks = tmp_path / "marks"
    marks.mkdir()
    code = ("import sys; sys.path.insert(0, {tests!r})\n"
            "from _grid_helpers import slow, GRID\n"
            "from bai.experiments import run_experiment\n"
            "run_experiment(slow, GRID, 2, seed=7, name='resume', progress=False)\n"
            ).format(tests=TESTS_DIR)
    env = {**os.environ, "BAI_TEST_MARKERS": str(marks), ex.ENV_STORE: str(store)}
    env.pop(ex.ENV_N_JOBS, None)
    proc = subprocess.Popen([sys.executable, "-c", code], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, f"ended early: {proc.stderr.read().decode()}"
            assert time.monotonic() < deadline, "nothing reached the store"
            done = len(_files(store)) if store.exists() else 0
            if done >= 3 and len(list(marks.iterdir())) == done + 1:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()
    finished = len(_files(store))
    assert 3 <= finished < 2 * len(GRID)
    for m in marks.iterdir():
        m.unlink()
    os.environ["BAI_TEST_MARKERS"], os.environ[ex.ENV_STORE] = str(marks), str(store)
    try:
        resumed = run(helpers.slow, name="resume")
    finally:
        del os.environ["BAI_TEST_MARKERS"], os.environ[ex.ENV_STORE]
    assert len(list(marks.iterdir())) == 2 * len(GRID) - finished
    pd.testing.assert_frame_equal(resumed, run(helpers.compute, name="resume"))


def test_a_checkpoint_folder_given_wins_over_the_store(store, marks, tmp_path):
    run(name="ck", checkpoint_dir=tmp_path / "ckpt")
    assert not store.exists() and len(_files(tmp_path / "ckpt")) == 2 * len(GRID)


def test_a_store_that_is_a_file_is_refused_before_any_work(tmp_path, monkeypatch, marks):
    bad = tmp_path / "file"
    bad.write_text("x")
    monkeypatch.setenv(ex.ENV_STORE, str(bad))
    with pytest.raises(ValueError, match="BAI_STORE"):
        run(name="bad")
    assert marks() == 0


def test_store_dir_names():
    assert ex.store_dir("x", {}) is None
    assert ex.store_dir("x", {ex.ENV_STORE: "  "}) is None
    assert ex.store_dir("soare2014.fig4", {ex.ENV_STORE: "/tmp/s"}) == Path("/tmp/s/soare2014.fig4")
    assert ex.store_dir("f.<locals>.g", {ex.ENV_STORE: "/tmp/s"}).name == "f._locals_.g"
    with pytest.raises(TypeError, match="name"):
        ex.store_dir("", {ex.ENV_STORE: "/tmp/s"})


def test_a_chapters_grid_uses_the_store(store, marks):
    study = Study("toy", "Toy", {"paper": {"seed": 3, "n_runs": 2, "n_jobs": 1}},
                  grids={"g": Grid(helpers.marked, lambda P: GRID)})
    P = study.parameters("paper")
    first = study.run("g", P)
    assert marks() == 2 * len(GRID) and (store / "toy.g").is_dir()
    pd.testing.assert_frame_equal(study.run("g", P), first)
    assert marks() == 2 * len(GRID)
