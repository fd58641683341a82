"""The research harness under bad input, faults and its own traps (issue 37): atomic and lossless
saves of a comparison with loads that say what is wrong, unknown options refused, thresholds
validated where they are called, compiled-rule errors that name the rule, the method and the
step, the command line failing before the kernel and ending a Ctrl-C with one line, the costs and
traps of ``compare`` told (the cap, progress off a terminal, capped cells, elimination with a
threshold that is not time-uniform), and the smaller cases (an indefinite V, an unknown delta, an
empty frame, a paper formula that fails)."""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

from bai import arena, cli, instances
from bai.algorithms import engine as E
from bai.algorithms import stopping as ST
from bai.environments import GaussianLinearBandit
from bai.queries import BestArm, TopM

ROOT = Path(__file__).resolve().parents[1]


def _env():
    return instances.soare_benchmark(3, omega=0.3)


def _small(quiet=True, **kw):
    args = dict(deltas=[0.1, 0.01, 0.001], n_runs=2, seed=1, batch=2)
    args.update(kw)
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        return arena.compare({"mine": arena.XYStaticTracking(), "FWS": "FWS"},
                             {"soare": _env()}, **args)


@pytest.fixture(scope="module")
def comparison():
    return _small()


# ---------------------------------------------------------------------------------------------
# 1. Atomic saves; loads that name the file, what is wrong and the version
# ---------------------------------------------------------------------------------------------


def _assert_equal(a, b):
    for k in ("table", "slopes", "runs", "timing"):
        pd.testing.assert_frame_equal(getattr(a, k), getattr(b, k), check_exact=True)
    assert a.t_star == b.t_star
    assert a.settings == b.settings
    assert set(a.w_star) == set(b.w_star)
    for k in a.w_star:
        assert np.array_equal(np.asarray(a.w_star[k]), np.asarray(b.w_star[k]))


def test_a_saved_comparison_loads_back_equal_to_the_last_digit(comparison, tmp_path):
    path = tmp_path / "c.json"
    comparison.save(path)
    _assert_equal(comparison, arena.Comparison.load(path))
    # floats whose 16th and 17th digits matter, and non-finite ones
    t = comparison.table.copy()
    t["ratio"] = [0.1 + 0.2, 1 / 3, 2.0 ** -1074][: len(t)] + [math.pi] * (len(t) - 3)
    t.loc[0, "se"] = math.nan
    t.loc[1, "se"] = math.inf
    odd = arena.Comparison(table=t, slopes=comparison.slopes, runs=comparison.runs,
                           t_star={"soare": 1 / 7}, w_star={"soare": np.array([1 / 3, 2 / 3])},
                           timing=comparison.timing, settings=comparison.settings)
    odd.save(path)
    back = arena.Comparison.load(path)
    _assert_equal(odd, back)
    assert back.table["ratio"].iloc[0] == 0.1 + 0.2 and back.t_star["soare"] == 1 / 7
    json.loads(path.read_text())          # strict JSON (no NaN or Infinity literals)


_FULL_DISK = textwrap.dedent("""
    import resource, signal, sys
    import numpy as np, pandas as pd
    from bai import arena
    path = sys.argv[1]
    df = pd.DataFrame({"x": np.arange(20000) / 7.0})
    def cmp(n):
        t = df.iloc[:n]
        return arena.Comparison(table=t, slopes=t, runs=t, t_star={"a": 1.0},
                                w_star={"a": np.ones(2) / 2}, timing=t, settings={})
    cmp(100).save(path)                          # the good file
    size = len(open(path, "rb").read())
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2 * size, 2 * size))   # the disk fills up
    try:
        cmp(20000).save(path)
        print("SAVED")
    except OSError as exc:
        print("FAILED", type(exc).__name__)
""")


def test_a_save_that_fails_midway_leaves_the_old_file_intact(tmp_path):
    """A full disk, for real: writes beyond a file-size limit fail (RLIMIT_FSIZE)."""
    path = tmp_path / "c.json"
    res = subprocess.run([sys.executable, "-c", _FULL_DISK, str(path)], capture_output=True,
                         text=True, timeout=300)
    assert "FAILED" in res.stdout, res.stdout + res.stderr
    back = arena.Comparison.load(path)              # the old file, whole
    assert len(back.table) == 100 and back.table["x"].iloc[99] == 99 / 7.0
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]   # no temporary file left


def test_a_save_interrupted_by_an_error_leaves_the_old_file_intact(comparison, tmp_path,
                                                                  monkeypatch):
    path = tmp_path / "c.json"
    comparison.save(path)
    before = path.read_bytes()

    def full(fd):
        raise OSError(28, "No space left on device")

    import bai.files

    monkeypatch.setattr(bai.files.os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        comparison.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


@pytest.mark.parametrize("content, words", [
    (b"", ["empty"]),
    (b"   \n", ["empty"]),
    (b"[1, 2, 3]", ["not a saved bai.arena.Comparison", "JSON list"]),
    (b'{"a": 1}', ["not a saved bai.arena.Comparison", "'a'"]),
    (b"\x89PNG\r\n\x1a\n\x00\x00", ["not a text file"]),
    (b"not json at all", ["not a saved bai.arena.Comparison", "not JSON"]),
    (b'{"format": "bai.arena.Comparison/9", "bai_version": "9.9"}',
     ["format 'bai.arena.Comparison/9'", "bai 9.9", "reads"]),
    (b'{"format": "bai.arena.Comparison/2", "bai_version": "0.1.0"}', ["lacks", "t_star"]),
])
def test_loading_a_bad_file_names_the_file_and_what_is_wrong(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ValueError) as e:
        arena.Comparison.load(path)
    msg = str(e.value)
    assert str(path) in msg
    for w in words:
        assert w in msg, msg


def test_a_truncated_comparison_says_so_with_the_version_that_wrote_it(comparison, tmp_path):
    path = tmp_path / "c.json"
    comparison.save(path)
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    with pytest.raises(ValueError) as e:
        arena.Comparison.load(path)
    msg = str(e.value)
    assert str(path) in msg and "truncated" in msg and "written by bai" in msg
    with pytest.raises(ValueError, match="no such file"):
        arena.Comparison.load(tmp_path / "missing.json")


# ---------------------------------------------------------------------------------------------
# 2. Unknown keyword arguments, options and keys
# ---------------------------------------------------------------------------------------------


def test_a_misspelt_compare_option_is_refused_naming_it_and_the_known_ones():
    with pytest.raises(TypeError) as e:
        arena.compare({"FWS": "FWS"}, {"soare": _env()}, max_sample=100)
    msg = str(e.value)
    assert "'max_sample'" in msg and "did you mean 'max_samples'" in msg
    assert "known" in msg and "n_runs" in msg and "checkpoint_dir" in msg


@pytest.mark.parametrize("rule, option, hint", [
    ("FWS", "regularisation", "regularization"),
    ("uniform", "max_sample", "max_samples"),     # a rule without init: silently ignored before
    ("Lazy TaS", "fw_itr", "fw_iter"),
])
def test_a_misspelt_engine_or_rule_option_is_refused(rule, option, hint):
    with pytest.raises(TypeError) as e:
        E.RULES[rule].run(_env(), np.random.default_rng(0), **{option: 1})
    msg = str(e.value)
    assert f"'{option}'" in msg and f"'{hint}'" in msg and "known" in msg


def test_options_of_a_python_rule_and_misspelt_run_rule_options_are_refused():
    with pytest.raises(TypeError, match="unknown option 'regularisation'"):
        arena.run_rule(arena.XYStaticTracking(), _env(), np.random.default_rng(0),
                       regularisation=1.0)
    with pytest.raises(TypeError, match="'max_sample'"):
        arena.run_rule_runs(arena.XYStaticTracking(), _env(), 2, np.random.default_rng(0),
                            max_sample=10)


def test_an_unknown_instance_in_a_query_mapping_is_refused():
    with pytest.raises(ValueError) as e:
        arena.compare({"FWS": "FWS"}, {"top": _env()}, query={"tpo": TopM(2)}, n_runs=2)
    msg = str(e.value)
    assert "'tpo'" in msg and "'top'" in msg and "query" in msg


# ---------------------------------------------------------------------------------------------
# 3. Thresholds validated at every call
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["heuristic", "mixture", "log_t_plus_1"])
@pytest.mark.parametrize("t, delta, word", [
    (0, 0.1, "t must be"), (-3, 0.1, "t must be"), (0.5, 0.1, "t must be"),
    (math.nan, 0.1, "t must be"), (math.inf, 0.1, "t must be"), ("5", 0.1, "t must be"),
    (5, 0.0, "delta must be"), (5, 1.0, "delta must be"), (5, 1.5, "delta must be"),
    (5, math.nan, "delta must be"), (5, -0.1, "delta must be"), (5, None, "delta must be"),
])
def test_a_threshold_called_with_a_bad_t_or_delta_names_itself_and_the_argument(name, t, delta,
                                                                               word):
    with pytest.raises((ValueError, TypeError)) as e:
        ST.Threshold(name)(t, delta)
    assert f"threshold {name!r}" in str(e.value) and word in str(e.value)


def test_a_negative_user_threshold_is_refused():
    with pytest.raises(ValueError, match="negative"):
        ST.Threshold(lambda t, d: math.log(1 / d) - 5.0)
    with pytest.raises(ValueError, match="negative"):
        E.simulate(E.RULES["uniform"].rule, _env(), np.random.default_rng(0),
                   threshold=lambda t, d: -1.0)


def _mid_run(fail):
    """A user threshold that is fine on the checking grid and fails between t = 4200 and 4300
    (the engine's second block of tabulated steps)."""
    def beta(t, delta):
        ta = np.asarray(t, dtype=float)
        if np.any((ta >= 4200) & (ta < 4300)):
            return fail(t, delta)
        return np.log((1 + np.log(ta)) / delta) + 0 * ta if ta.ndim else \
            float(np.log((1 + np.log(ta)) / delta))
    return beta


def _boom(t, d):
    raise ZeroDivisionError("boom")


@pytest.mark.parametrize("fail, words", [
    (_boom, ["raised ZeroDivisionError", "boom"]),
    (lambda t, d: None, ["must return a real number", "None"]),
    (lambda t, d: -1.0, ["negative"]),
    (lambda t, d: 0.5 * float(np.log((1 + np.log(np.max(t))) / d)), ["decreases in t"]),
])
def test_a_user_threshold_that_fails_mid_run_names_the_threshold_t_and_delta(fail, words):
    beta = _mid_run(fail)
    beta.__name__ = "my beta"
    # 200 arms on a circle: no run stops before the cap
    env = instances.unit_sphere(200, 2, np.random.default_rng(0))
    with pytest.raises(ValueError) as e:
        E.simulate(E.RULES["uniform"].rule, env, np.random.default_rng(0), deltas=[1e-9],
                   threshold=beta, max_samples=6000)
    msg = str(e.value)
    assert "threshold 'my beta'" in msg, msg
    assert re.search(r"t\s*=\s*4[23]\d\d", msg), msg
    assert "delta" in msg
    for w in words:
        assert w in msg, msg


def test_threshold_tables_are_checked_for_monotonicity_in_delta():
    thr = ST.Threshold(lambda t, d: np.log((1 + np.log(t)) / d) + 0 * np.asarray(t))
    ok = thr.table(5, 10, [0.1, 0.01])
    assert ok.shape == (2, 10) and np.all(ok[1] >= ok[0])
    assert np.allclose(ok[0], [thr(t, 0.1) for t in range(5, 15)])
    with pytest.raises(ValueError, match="t0"):
        thr.table(0, 10, [0.1])


# ---------------------------------------------------------------------------------------------
# 4. Compiled rules: the arm checked, errors naming the rule, the method and the step
# ---------------------------------------------------------------------------------------------


@numba.njit
def _float_arm(eng, rs, rng):
    return 1.7


@numba.njit
def _raising_arm(eng, rs, rng):
    if eng.t > 10:
        raise ValueError("inside choose_arm")
    return eng.t % eng.K


@numba.njit
def _rr_arm(eng, rs, rng):
    return eng.t % eng.K


@numba.njit
def _raising_update(eng, rs, a, y):
    if eng.t > 20:
        raise ValueError("inside update")


@numba.njit
def _untyped_arm(eng, rs, rng):
    return eng.no_such_field


@numba.njit
def _two_args(eng, rs):
    return 0


def _init_raises(env, state):
    raise KeyError("inside init")


def _init_dict(env, state):
    return {"a": 1, 2: "b"}


@pytest.mark.parametrize("rule, error, words", [
    (E.CompiledRule("floaty", _float_arm), TypeError, ["'floaty'", "choose_arm", "float64",
                                                       "integer"]),
    (E.CompiledRule("boom", _raising_arm), RuntimeError, ["'boom'", "ValueError",
                                                          "in choose_arm", "step t = 11",
                                                          "inside choose_arm"]),
    (E.CompiledRule("upd", _rr_arm, update=_raising_update), RuntimeError,
     ["'upd'", "in update", "step t = 21", "inside update"]),
    (E.CompiledRule("ini", _rr_arm, _init_raises), RuntimeError,
     ["'ini'", "KeyError", "in init", "step t = 3"]),
    (E.CompiledRule("dict", _rr_arm, _init_dict), TypeError, ["'dict'", "init returned dict"]),
    (E.CompiledRule("typo", _untyped_arm), TypeError, ["'typo'", "choose_arm",
                                                       "no_such_field"]),
    (E.CompiledRule("two", _two_args), TypeError, ["'two'", "choose_arm(eng, rs, rng)"]),
])
def test_a_compiled_rule_error_names_the_rule_the_method_and_the_step(rule, error, words):
    with pytest.raises(error) as e:
        E.simulate(rule, _env(), np.random.default_rng(0), deltas=[1e-6], max_samples=500)
    msg = str(e.value)
    for w in words:
        assert w in msg, msg
    assert "Engine" not in msg or "EngineType(" not in msg      # no numba type dump


def test_a_compiled_rule_error_in_compare_names_the_instance_and_the_run():
    with pytest.raises(RuntimeError) as e:
        arena.compare({"boom": E.CompiledRule("boom", _raising_arm)}, {"soare": _env()},
                      deltas=[1e-6], n_runs=2)
    msg = str(e.value)
    assert "'boom'" in msg and "in choose_arm" in msg and "instance 'soare'" in msg
    assert "run 0" in msg
    with pytest.raises(RuntimeError, match=r"run 0 of 2"):
        arena.run_rule_runs(E.CompiledRule("boom", _raising_arm), _env(), 2,
                            np.random.default_rng(0), deltas=[1e-6])


# ---------------------------------------------------------------------------------------------
# 5. The command line: --set and --out checked before the kernel; Ctrl-C ends with one line
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("setting, message", [
    ("library=['Nope']", "library[0] = 'Nope' is not one of"),
    ("library=[]", "library must be a list of 1 or more items"),
    ("deltas=[0.1, 2]", "deltas[1] must be a real number in (0, 1)"),
    ("deltas=[0.1, 0.1]", "deltas must have distinct items"),
    ("n_runs=1", "n_runs must be an integer >= 2"),
    ("transductive_d=3", "transductive_d: must be even"),
    ("topm_m=5", "topm_m = 5: topm_m must be at most 4"),
    ("topm_library=['LinGIFA', 'Nope']", "topm_library[1] = 'Nope'"),
])
def test_bad_set_values_fail_before_the_kernel_starts(setting, message, capsys, monkeypatch):
    def no_kernel(*a, **k):
        raise AssertionError("the kernel started")

    monkeypatch.setattr(cli.commands, "execute", no_kernel)
    assert cli.main(["reproduce", "bring_your_own", "--profile", "ci", "--set", setting,
                     "--out", str(Path(tempfile.mkdtemp()))]) == 2
    err = capsys.readouterr().err
    assert "python -m bai reproduce: error: --set:" in err and message in err, err


def test_an_unwritable_out_fails_before_the_kernel_starts(capsys, monkeypatch, tmp_path):
    def no_kernel(*a, **k):
        raise AssertionError("the kernel started")

    monkeypatch.setattr(cli.commands, "execute", no_kernel)
    for out in ("/proc/bai-out", "/sys/bai-out"):
        if not Path(out).parent.exists():
            continue
        assert cli.main(["reproduce", "bring_your_own", "--profile", "ci", "--out", out]) == 2
        err = capsys.readouterr().err
        assert f"--out {out} is not a writable folder" in err, err


def test_every_declared_parameter_holds_at_every_profile():
    from bai.studies import arena as arena_study
    from bai.studies import bring_your_own
    from bai.validation import check_parameters

    for mod in (arena_study, bring_your_own):
        for profile in mod.PROFILES:
            P = mod.STUDY.parameters(profile)
            check_parameters(P, mod.PARAMETERS)
            assert set(P) <= set(mod.PARAMETERS), set(P) - set(mod.PARAMETERS)


def _interrupt(delay: float, after_first_line: bool):
    out = tempfile.mkdtemp()
    p = subprocess.Popen([sys.executable, "-m", "bai", "reproduce", "bring_your_own",
                          "--profile", "ci", "--out", out], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    if after_first_line:
        p.stdout.readline()          # "[ci] bring_your_own: executing ..."
    time.sleep(delay)
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole foreground group
    try:
        _, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise
    lines = [ln for ln in err.replace("\r", "\n").splitlines()
             if ln.strip() and not ln.startswith("Executing")]
    return p.returncode, err, lines


@pytest.mark.parametrize("delay, after_first_line", [(0.3, False), (2.0, True), (6.0, True)],
                         ids=["while loading", "kernel starting", "running"])
def test_ctrl_c_ends_with_one_line_and_no_traceback(delay, after_first_line):
    rc, err, lines = _interrupt(delay, after_first_line)
    assert rc == 130, err[-2000:]
    assert "Traceback" not in err, err[-3000:]
    assert lines and lines[-1].startswith("interrupted"), err[-2000:]


def test_ctrl_c_while_loading_cannot_be_swallowed_by_an_import():
    """A Ctrl-C while the package loads ends the command even when it lands inside code that
    catches everything (a bare ``except:`` of a third-party import): with ``SystemExit`` raised
    from the handler, the command went on to execute the whole chapter (seen under load)."""
    code = ("import sys\nsys.argv = ['-m']\nimport bai, os, signal, time\n"
            "try:\n    os.kill(os.getpid(), signal.SIGINT)\n    time.sleep(5)\n"
            "except:\n    pass\nprint('went on')\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    assert p.returncode == 130, (p.returncode, p.stdout, p.stderr[-2000:])
    assert "went on" not in p.stdout
    assert p.stderr.strip().splitlines()[-1] == "interrupted (Ctrl-C) while loading bai"


def _session(sid: int) -> list[int]:
    """The live processes of the session ``sid`` (read from /proc)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] != "Z":
            out.append(int(name))
    return out


POOL_CHAPTER = """\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
    format_version: 0.13
kernelspec:
  name: python3
  display_name: Python 3
  language: python
---

# A pool

```{code-cell} ipython3
:tags: [parameters]
profile = "ci"
```

```{code-cell} ipython3
import time
from joblib import Parallel, delayed
Parallel(n_jobs=2)(delayed(time.sleep)(600) for _ in range(2))
```
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_ctrl_c_ends_the_worker_pool_too():
    """Ctrl-C while the chapter's tasks run in a worker pool: the command returns at once, with
    its one line, and leaves no process behind (before, the pool's workers went on computing
    with the terminal's pipes open, so a caller waiting for the output waited for them).

    The chapter is a two-cell notebook whose tasks sleep in a joblib pool as a chapter's grid
    computes in one (``run_experiment`` uses joblib's loky pool): the pool exists seconds after
    the kernel starts, where a real chapter's first grid takes most of a minute to reach."""
    book = Path(tempfile.mkdtemp()) / "book"
    (book / "chapters").mkdir(parents=True)
    (book / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n"
                                   "- file: chapters/pool\n")
    (book / "chapters" / "pool.md").write_text(POOL_CHAPTER)
    out = tempfile.mkdtemp()
    p = subprocess.Popen([sys.executable, "-m", "bai", "reproduce", "pool", "--book", str(book),
                          "--profile", "ci", "--out", out, "--jobs", "2"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    kernel_sessions = set()
    try:
        deadline = time.time() + 600
        workers = []
        while time.time() < deadline and not workers:
            # the kernel runs in its own session: the pool's workers are its descendants
            for pid in list(_descendants(p.pid)):
                try:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if b"loky" in cmd or b"joblib" in cmd:
                    workers.append(pid)
            time.sleep(0.2)
        assert workers, "no worker pool started"
        kernel_sessions = {os.getsid(w) for w in workers if _alive(w)}
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err[-2000:]
    assert "Traceback" not in err, err[-3000:]
    time.sleep(1.0)
    left = [pid for w in workers if _alive(w) for pid in [w]]
    assert not left, f"workers left running after Ctrl-C: {left}"
    assert not [pid for s in kernel_sessions for pid in _session(s)]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _descendants(root: int) -> set[int]:
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    parent[int(name)] = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    tree, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, pp in parent.items() if pp in frontier} - tree
        tree |= frontier
    return tree


# ---------------------------------------------------------------------------------------------
# 6. The harness tells its costs and traps
# ---------------------------------------------------------------------------------------------


class _Stop(Exception):
    pass


def _no_runs(*a, **k):
    raise _Stop("no run")


def test_the_cost_is_told_before_any_run(monkeypatch):
    import bai.arena as A

    monkeypatch.setattr(A.harness, "run_experiment", _no_runs)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(_Stop):
            arena.compare({"FWS": "FWS"}, {"soare": _env()}, deltas=[0.1, 1e-6], n_runs=2,
                          max_samples=50)
    cost = [x for x in w if issubclass(x.category, arena.CostWarning)]
    assert cost, [str(x.message) for x in w]
    msg = str(cost[0].message)
    assert "'soare'" in msg and "max_samples = 50" in msg and "will be cut" in msg
    est = arena.estimate_cost({"soare": _env()}, deltas=[0.1, 1e-6], max_samples=50)
    T = BestArm().bind(_env().Z).t_star(_env().X, _env().theta)
    assert est.loc["soare", "T*"] == pytest.approx(T)
    assert est.loc["soare", "T* log(1/delta)"] == pytest.approx(T * math.log(1e6))
    assert bool(est.loc["soare", "capped"])


def test_a_plain_python_rule_with_many_pulls_is_told(monkeypatch):
    import bai.arena as A

    monkeypatch.setattr(A.harness, "run_experiment", _no_runs)
    env = instances.soare_benchmark(5, omega=0.01)       # T* in the thousands
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(_Stop):
            arena.compare({"py": arena.XYStaticTracking()}, {"s": env}, deltas=[1e-9],
                          n_runs=100, max_samples=10**8)
    assert any("plain-Python" in str(x.message) and "'py'" in str(x.message) for x in w)


def test_capped_cells_are_marked_and_never_averaged_silently():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        res = arena.compare({"FWS": "FWS"}, {"soare": _env()}, deltas=[0.1, 0.01, 1e-6],
                            n_runs=2, max_samples=30)
    assert any("cut at max_samples = 30" in str(x.message) for x in w)
    t = res.table
    assert {"capped", "lower bound"} <= set(t.columns)
    capped = t[t["capped"] > 0]
    assert len(capped) and capped["lower bound"].all()
    assert all(s.startswith("≥") for s in capped["ratio (mean ± se)"])
    assert (t["capped"] == t["runs"] - t["stopped"]).all()
    s = res.slopes
    assert s["slope / T*"].isna().all() and (s["cut"] > 0).all()
    assert s["note"].str.contains("cut at the cap").all()
    fig = res.figure()
    labels = [x.get_text() for x in fig.legends[0].get_texts()]
    assert any("cut at the cap" in x for x in labels)


def test_progress_is_shown_as_lines_off_a_terminal(capsys):
    _small(progress=True)
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("bai.arena.compare:")]
    assert lines and re.search(r"bai\.arena\.compare: 2/2 tasks \(100%\), done", lines[-1]), err
    assert "\r" not in err


@pytest.mark.parametrize("threshold, stopping, warned", [
    ("heuristic", "selective", True), ("log_t_plus_1", ["llr", "full"], True),
    ("mixture", "full", False), ("heuristic", "llr", False),
])
def test_elimination_with_a_threshold_that_is_not_time_uniform_warns(threshold, stopping,
                                                                    warned):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        _small(quiet=False, threshold=threshold, stopping=stopping, deltas=[0.1])
    got = [x for x in w if issubclass(x.category, arena.ThresholdWarning)]
    assert bool(got) == warned
    if warned:
        assert "not time-uniform" in str(got[0].message)
    mine = ST.Threshold(lambda t, d: math.log((1 + math.log(t)) / d), time_uniform=True)
    assert mine.time_uniform and ST.Threshold("mixture").time_uniform
    assert not ST.Threshold("heuristic").time_uniform


def test_the_page_lists_every_state_field_and_what_uses_rng_does():
    page = (cli.find_root() / "book" / "chapters" / "bring_your_own.md").read_text()
    state = {n for n, v in inspect.getmembers(E.RuleState) if isinstance(v, property)
             and not n.startswith("_")}
    rs = {}

    class Probe(arena.SamplingRule):
        name = "probe"

        def next_arm(self, st):
            rs["state"] = st
            return 0

    arena.run_rule(Probe(), _env(), np.random.default_rng(0), max_samples=5)
    state |= {k for k in vars(rs["state"]) if not k.startswith("_")}
    missing = sorted(n for n in state if f"`state.{n}`" not in page)
    assert not missing, missing
    fields = set(E.FIELDS) | {"t", "K", "d", "M", "n_pieces", "answer", "sigma", "sigma2",
                              "stat", "logdet"}
    missing = sorted(n for n in fields if f"`eng.{n}`" not in page and f"`eng.{n}[p]`" not in page)
    assert not missing, missing
    assert "one draw" in page and "cannot be twinned" in page


class _Deterministic(arena.SamplingRule):
    name = "deterministic"

    def next_arm(self, state):
        return state.t % state.K


class _Declared(_Deterministic):
    name = "declared"
    uses_rng = True


@numba.njit
def _rr_same(eng, rs, rng):
    return eng.t % eng.K


def test_what_the_page_says_of_uses_rng_holds():
    env = instances.soare_benchmark(4, omega=0.3)
    comp = E.CompiledRule("rr", _rr_same)
    kw = dict(deltas=[0.1, 1e-3, 1e-6], max_samples=20000)
    differ = 0
    for seed in range(4):
        a = arena.run_rule(_Deterministic(), env, np.random.default_rng(seed), **kw)
        b = E.simulate(comp, env, np.random.default_rng(seed), **kw)
        c = arena.run_rule(_Declared(), env, np.random.default_rng(seed), **kw)
        assert np.array_equal(a.stopping_times, b.stopping_times)    # the twin holds
        differ += not np.array_equal(a.stopping_times, c.stopping_times)   # one draw shifts
    assert differ >= 3


# ---------------------------------------------------------------------------------------------
# 7. The smaller cases
# ---------------------------------------------------------------------------------------------


def test_an_indefinite_V_is_refused():
    q = BestArm().bind(np.eye(3))
    with pytest.raises(ValueError, match="V must be positive definite"):
        q.glr(np.array([1.0, 0.5, 0.2]), -np.eye(3))
    with pytest.raises(ValueError, match="V must be positive definite"):
        q.glr(np.array([1.0, 0.5, 0.2]), np.diag([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match="V must be symmetric"):
        q.glr(np.array([1.0, 0.5, 0.2]), np.array([[1.0, 0.5, 0], [0, 1, 0], [0, 0, 1]]))
    with pytest.raises(ValueError, match="Vinv must be positive definite"):
        q.piece_glrs(0, np.array([1.0, 0.5, 0.2]), -np.eye(3))
    a, lam = q.glr(np.array([1.0, 0.5, 0.2]), 4 * np.eye(3))
    assert a == 0 and lam == pytest.approx(0.5 ** 2 / (2 * 2 / 4))   # pair (0, 1)


def test_an_unknown_delta_is_refused_not_an_empty_table(comparison):
    with pytest.raises(ValueError, match=r"delta = 0.5 is not a delta of the comparison"):
        comparison.proportions(0.5)
    assert len(comparison.proportions(0.01)) == 2
    from bai.studies import arena_glr

    with pytest.raises(ValueError, match="not a delta of the cells"):
        arena_glr.main_table(comparison.table, delta=0.5)


@pytest.mark.parametrize("fn", [arena.cell_table, arena.run_slopes])
def test_an_empty_frame_is_refused_naming_it(fn, comparison):
    with pytest.raises(ValueError, match="df lacks the column"):
        fn(pd.DataFrame())
    with pytest.raises(ValueError, match="df has no rows"):
        fn(comparison.runs.iloc[:0])
    with pytest.raises(TypeError, match="df must be a DataFrame"):
        fn([])


@pytest.mark.parametrize("formula", ["log(a - b)", "a / (b - a)", "sqrt(a - 2 * b)",
                                     "a ** 10000 * 10.0 ** 400"])
def test_a_derived_value_whose_formula_fails_names_the_formula(formula):
    from bai.claims import Derived, Printed

    with pytest.raises(ValueError) as e:
        Derived(formula, {"a": Printed(1, "T1"), "b": Printed(1, "T2")})
    assert f"formula {formula!r}" in str(e.value)
