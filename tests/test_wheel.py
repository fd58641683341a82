"""The library as a user installs it: the wheel, in a fresh venv, outside the repository, and
a launch-button notebook that installs it itself.

One module-scoped fixture copies the package's sources (pyproject.toml, README.md, LICENSE,
lib/) to a temporary directory outside the repository and builds the sdist and, from the sdist,
the wheel there with ``python -m build`` (as ``make dist`` does), and creates a fresh venv next
to them that holds only Jupyter's kernel and papermill (pinned; with uv, also the wheel's
dependencies). Then, from a working directory
outside the repository:

* the ``.ipynb`` twin of a real-data chapter (as ``make notebooks`` writes it for the launch
  buttons, beginning with its install cell) is executed with papermill at its ``ci`` profile
  in that venv, with the install source pointed at the local build (``BAI_INSTALL_SOURCE`` =
  the wheel): the install cell finds no ``bai``, installs the wheel with its pinned
  dependencies (``PIP_CONSTRAINT``), and the chapter runs on the data shipped in the wheel
  (with uv in the repository's venv, uv installed the wheel's declared dependencies first and
  removed the wheel, so pip installs bai and checks the dependencies it finds);
* a smoke script checks the installed package and its metadata, touches every shipped data set
  (the click instance, the battery and MIP tables) through ``bai.datasets``, and makes one small
  run of one algorithm of every paper module (soare, lingape, rage, baics, racing).

Nothing is written to the repository: the build, the venv, the executed notebook and the claims
are in the temporary directory, which is removed afterwards. The installs need PyPI (or pip's
cache): without it the test fails and says so. ``-m "not wheel"`` deselects it (``make unit``
does; ``make test`` runs it beside the chapters); ``BAI_WHEEL_CHAPTERS=xu2018_lingape``
(comma-separated names, or paths of .md files) chooses the chapters, ``none`` skips them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.wheel

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ROOT / "requirements" / "constraints.txt"
#: The real-data chapter whose twin is executed from the wheel: the battery and MIP tables
#: (delayed feedback); the smoke script touches the click data.
CHAPTERS = ("grover2018",)
#: What the fresh venv holds before the twin's install cell runs: Jupyter's kernel and papermill
#: (pandas' Styler needs Jinja2, which the library does not require).
RUNNER = ("papermill", "ipykernel", "Jinja2")
KERNEL = "bai-wheel-test"

SMOKE = r'''
import importlib.metadata
import json
import sys
import time
from pathlib import Path

import numpy as np

repo = Path(sys.argv[1]).resolve()


def outside(path):
    path = Path(path).resolve()
    assert path != repo and repo not in path.parents, f"{path} is inside the repository {repo}"
    return path


import bai
from bai import datasets, instances
from bai.algorithms import baics, lingape, racing, rage, soare
from bai.environments import DelayedFeedbackArms, GaussianLinearBandit, SubpopulationGaussian

outside(bai.__file__)
assert bai.__version__ == importlib.metadata.version("bai-book"), bai.__version__
seconds = {}
t = time.perf_counter()
for rel in datasets.DATA_FILES:
    assert outside(datasets.data_file(rel)).is_file(), rel
for name in datasets.DATA_SETS:
    for f in ("README.md", "LICENSE"):
        assert (datasets.data_dir(name) / f).is_file(), (name, f)
assert len(datasets.data_digest()) == 40
cells = datasets.battery_cells()
assert len(cells) == 124 and "cycle_life" in cells.columns, cells.shape
runs = datasets.mip_runs()
assert len(runs) > 0 and "arm" in runs.columns, runs.shape
assert outside(instances.CLICK_DATA_DIR).is_dir()
X, theta, arms = instances.click_data()
assert X.shape == (480, 36), X.shape
click = instances.click_instance(10, np.random.default_rng(0))
assert click.K == 10
seconds["data"] = time.perf_counter() - t

easy = GaussianLinearBandit(X=np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.6]]),
                            theta=np.array([1.0, 0.4]))
runs_of = {
    "soare.static_allocation": lambda rng: soare.static_allocation_runs(easy, 3, rng, rule="XY", delta=0.1),
    "lingape.lingape": lambda rng: lingape.lingape(easy, rng),
    "rage.rage": lambda rng: rage.rage(easy, rng),
    "baics.t_a_scs": lambda rng: baics.t_a_scs(SubpopulationGaussian(
        mu=[[0.2, 0.6, 0.8], [0.4, 0.4, 0.3], [-0.2, 1.0, 1.5]], q=[0.2, 0.3, 0.5], M=3),
        rng, delta=0.1),
    "racing.racing_full": lambda rng: racing.racing_full(DelayedFeedbackArms(
        means=np.array([2.0, 1.0, 0.0, -1.0]), sigmas=np.ones(4), delay=10.0), rng, k=1),
}
for name, run in runs_of.items():
    t = time.perf_counter()
    res = run(np.random.default_rng(1))
    correct = np.asarray(res.correct)
    assert correct.size >= 1 and correct.mean() >= 0.5, (name, res)
    seconds[name] = time.perf_counter() - t
print(json.dumps({k: round(v, 2) for k, v in seconds.items()}))
'''


def _run(cmd, *, what: str, env=None, cwd=None, timeout=900, network=False):
    """Run ``cmd``; on failure, fail the test with its output (and a hint when it needs PyPI)."""
    t = time.perf_counter()
    proc = subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    elapsed = time.perf_counter() - t
    print(f"[wheel] {what}: {elapsed:.1f} s")
    if proc.returncode:
        hint = ("\nThis step installs packages: it needs PyPI (or pip's cache). Is PyPI "
                "reachable? CI has it." if network else "")
        pytest.fail(f"{what} failed (exit {proc.returncode}){hint}\n$ {' '.join(map(str, cmd))}\n"
                    f"--- stdout (end)\n{proc.stdout[-4000:]}\n--- stderr (end)\n"
                    f"{proc.stderr[-6000:]}", pytrace=False)
    return proc


def _clean_env(tmp: Path, venv: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env.update(PIP_CONSTRAINT=str(CONSTRAINTS), PIP_DISABLE_PIP_VERSION_CHECK="1",
               MPLBACKEND="Agg", BAI_CLAIMS_DIR=str(tmp / "claims"), BAI_N_JOBS="1",
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
               PYDEVD_DISABLE_FILE_VALIDATION="1", MPLCONFIGDIR=str(tmp / "mpl"),
               JUPYTER_PLATFORM_DIRS="1")
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(venv)
    return env


@pytest.fixture(scope="module")
def installed():
    """(tmp, venv python, env, cwd): the wheel installed in a fresh venv outside the repository."""
    try:
        import build  # noqa: F401
    except ImportError:
        pytest.fail("python -m build is missing: `make venv` installs it (the test extra pins it)")
    tmp = Path(tempfile.mkdtemp(prefix="bai-wheel-")).resolve()
    try:
        assert ROOT not in tmp.parents, f"the temporary directory {tmp} is inside the repository"
        src, dist, venv, cwd = tmp / "src", tmp / "dist", tmp / "venv", tmp / "run"
        src.mkdir()
        cwd.mkdir()
        for f in ("pyproject.toml", "README.md", "LICENSE"):
            shutil.copy2(ROOT / f, src / f)
        shutil.copytree(ROOT / "lib", src / "lib",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        env = _clean_env(tmp)
        # the sdist, then the wheel from the sdist (so the sdist must carry the data too)
        _run([sys.executable, "-m", "build", "--outdir", dist, src], what="python -m build",
             env=env, cwd=tmp, network=True)
        wheels = sorted(dist.glob("bai_book-*.whl"))
        assert len(wheels) == 1 and len(list(dist.glob("bai_book-*.tar.gz"))) == 1, \
            sorted(p.name for p in dist.iterdir())
        # a fresh venv with its own pip (the launch-button twin's install cell runs
        # `python -m pip` in the kernel's environment, as in Colab)
        _run([sys.executable, "-m", "venv", venv], what="fresh venv", env=env, cwd=tmp)
        py = venv / "bin" / "python"
        env = _clean_env(tmp, venv)
        # Jupyter's kernel and papermill. With uv in the repository's venv (`make venv` installs
        # it), uv installs them and the wheel with the dependencies its metadata declares (in
        # parallel, the bytecode compiled on every core), then removes the wheel again: the
        # twin's install cell then installs bai from the wheel with pip, as a reader's notebook
        # does, and pip checks the dependencies it finds. Without uv, pip installs the runner
        # and the install cell installs everything (about a minute more on one core).
        uv = Path(sys.executable).with_name("uv")
        if uv.is_file():
            _run([uv, "pip", "install", "--quiet", "--python", py, "--compile-bytecode",
                  "-c", CONSTRAINTS, *RUNNER, wheels[0]],
                 what="uv: jupyter kernel + papermill + the wheel's dependencies", env=env,
                 cwd=cwd, network=True)
            _run([uv, "pip", "uninstall", "--quiet", "--python", py, "bai-book"],
                 what="uv: the wheel removed (its dependencies stay)", env=env, cwd=cwd)
        else:
            _run([py, "-m", "pip", "install", "--quiet", "-c", CONSTRAINTS, *RUNNER],
                 what="pip: jupyter kernel + papermill (no bai)", env=env, cwd=cwd,
                 network=True)
        _run([py, "-c", "import importlib.util, sys; "
                        "sys.exit(importlib.util.find_spec('bai') is not None)"],
             what="the fresh venv has no bai", env=env, cwd=cwd)
        _run([py, "-m", "ipykernel", "install", "--prefix", venv, "--name", KERNEL],
             what="kernelspec", env=env, cwd=cwd)
        yield tmp, py, env, cwd, wheels[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_wheel_carries_the_data_and_the_licences(installed):
    import zipfile

    _, _, _, _, wheel = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    for rel in ("obd/arms.csv", "obd/item_vectors.csv", "obd/theta.csv", "obd/user_vectors.csv",
                "battery/cells.csv", "mip/runs.csv"):
        assert f"bai/data/{rel}" in names, rel
    for name in ("obd", "battery", "mip"):
        assert f"bai/data/{name}/LICENSE" in names and f"bai/data/{name}/README.md" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "the MIT licence"


def _chapters() -> list[str]:
    chosen = os.environ.get("BAI_WHEEL_CHAPTERS")
    if chosen is None:
        return list(CHAPTERS)
    return [] if chosen.strip().lower() == "none" else [c.strip() for c in chosen.split(",")]


@pytest.mark.parametrize("chapter", _chapters())
def test_launch_button_twin_installs_the_package_and_runs(installed, chapter):
    import jupytext

    from bai import cli

    tmp, py, env, cwd, wheel = installed
    md = Path(chapter) if chapter.endswith(".md") else ROOT / "book" / "chapters" / f"{chapter}.md"
    assert md.is_file(), md
    chapter = md.stem
    nb = jupytext.read(md)
    assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), \
        f"{md.name}: no cell tagged 'parameters'"
    nb.cells.insert(0, cli.install_cell(ROOT / "book"))   # the twin, as `make notebooks` writes it
    src, out = tmp / f"{chapter}.ipynb", tmp / f"{chapter}.out.ipynb"
    jupytext.write(nb, src)
    # the chapter runs from a directory of its own outside the repository; its install cell
    # installs the package from the local build, with the pinned dependencies
    here = cwd / chapter
    here.mkdir()
    run_env = {**env, cli.INSTALL_ENV: str(wheel)}
    _run([py, "-m", "papermill", src, out, "-p", "profile", "ci", "-k", KERNEL, "--cwd", here,
          "--no-progress-bar"], what=f"twin of {chapter} (install cell, profile ci)",
         env=run_env, cwd=here, timeout=1500, network=True)
    executed = json.loads(out.read_text())
    assert "import bai" in "".join(executed["cells"][0]["source"])
    _run([py, "-c", "import bai, sys; sys.exit(0 if 'site-packages' in bai.__file__ else 1)"],
         what="bai now installed in the venv", env=env, cwd=cwd)
    claims = tmp / "claims" / f"{chapter}.json"
    assert json.loads(claims.read_text())["claims"], claims


def test_installed_wheel_reads_every_data_set_and_runs_every_paper(installed):
    tmp, py, env, cwd, wheel = installed
    # installed by the twin's install cell when that test ran first; otherwise install it here
    _run([py, "-m", "pip", "install", "--quiet", "--no-compile",
          "-c", CONSTRAINTS, wheel], what="pip install wheel + pinned deps", env=env, cwd=cwd,
         network=True)
    (tmp / "smoke.py").write_text(SMOKE)
    proc = _run([py, tmp / "smoke.py", ROOT], what="smoke (data + one run per paper)", env=env,
                cwd=cwd, timeout=600)
    print(proc.stdout.strip().splitlines()[-1])
    seconds = json.loads(proc.stdout.strip().splitlines()[-1])
    assert {"data", "soare.static_allocation", "lingape.lingape", "rage.rage", "baics.t_a_scs",
            "racing.racing_full"} <= set(seconds)
