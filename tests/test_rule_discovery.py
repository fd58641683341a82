"""Adding a rule is one file: the rule file printed in the bring-your-own chapter (section "Into
the library: a rule in one file"), written as is into a copy of the package, makes the rule
appear in the registry (:data:`bai.algorithms.engine.RULES`, last: the default order), among
the arena's library rules, with its two generated entry points, in the contracts the tests
generate from the registry (``tests/test_contracts.py``: ``rule_contracts``), among the modules
the API reference documents from the registry (``book/_ext/api_reference.py``:
``rule_modules``, the ``bai-api-rules`` sections) and, with its declared options, refusing bad
values; the same copy without the file has none of it.

Each case of the copy runs in a subprocess whose ``bai`` is the copy (``PYTHONPATH``), and runs
no compiled code: a new file changes the package's sources, so the copy would compile every
kernel of the engine again (48 s of CPU here; ``bai._numba_cache``). That the printed rule runs,
and that its generated entry points stop where :func:`bai.algorithms.engine.simulate` and
:func:`bai.algorithms.glr.simulate_runs` stop on the same seeds, is checked in this process, on
the same text loaded from a file outside the package (a user's rule: the driving loop calls it
through a pointer, its code otherwise the same)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "book" / "chapters" / "bring_your_own.md"
BLOCK = re.compile(r"```python\n# lib/bai/algorithms/(\w+)\.py\n(.*?)```", re.S)

#: what the subprocess reports (JSON on its last line of output)
PROBE = r'''
import json, sys
import numpy as np
import bai
from bai.algorithms import engine as E
from bai.arena import library_rules
from bai.environments import GaussianLinearBandit

slug, name = sys.argv[1], sys.argv[2]
out = {"bai": bai.__file__, "rules": list(E.RULES), "arena": list(library_rules())}
sys.path.insert(0, sys.argv[3])
import test_contracts
out["contracts"] = sorted(n for n in test_contracts.rule_contracts() if slug in n)
out["accounted"] = sorted(n for n in test_contracts.PUBLIC if slug in n)
import importlib.util
spec = importlib.util.spec_from_file_location("api_reference", sys.argv[4])
api_reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(api_reference)
out["api"] = api_reference.rule_modules()
if name in E.RULES:
    import importlib
    mod = importlib.import_module(f"bai.algorithms.{slug}")
    e = E.library_rule(name)
    one, runs = getattr(mod, slug), getattr(mod, f"{slug}_runs")
    try:
        env = GaussianLinearBandit(X=np.eye(2), theta=np.array([1.0, 0.5]))
        e.run(env, np.random.default_rng(0), max_sample=10)   # the registry's face
        refused = ""
    except TypeError as exc:
        refused = str(exc)
    out.update(entry=dict(key=e.key, module=e.module, run_is=e.run.__wrapped__ is one,
                          runs_is=e.runs is runs, paper=e.paper,
                          names=[one.__name__, runs.__name__]),
               refused=refused)
print(json.dumps(out))
'''


def _rule_file():
    m = BLOCK.search(PAGE.read_text())
    assert m, "the chapter prints no rule file (```python # lib/bai/algorithms/<slug>.py)"
    slug, text = m.group(1), m.group(2)
    name = re.search(r'CompiledRule\("([^"]+)"', text).group(1)
    return slug, name, text


def _probe(tmp_path, with_file: bool) -> dict:
    slug, name, text = _rule_file()
    copy = tmp_path / "bai"
    shutil.copytree(ROOT / "lib" / "bai", copy)       # copy2: the times numba's caches check
    if with_file:
        (copy / "algorithms" / f"{slug}.py").write_text(text)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", PROBE, slug, name, str(ROOT / "tests"),
                           str(ROOT / "book" / "_ext" / "api_reference.py")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert Path(out["bai"]).resolve().is_relative_to(copy.resolve()), out["bai"]
    return {"slug": slug, "name": name, **out}


def test_a_new_rule_file_is_discovered_and_generated(tmp_path):
    out = _probe(tmp_path, with_file=True)
    slug, name = out["slug"], out["name"]
    assert out["rules"][-1] == name          # declared without an order: after the library's
    assert name in out["arena"]
    qual = f"bai.algorithms.{slug}.{slug}"
    assert out["entry"] == {"key": slug, "module": f"bai.algorithms.{slug}", "run_is": True,
                            "runs_is": True, "paper": "bring your own (this book)",
                            "names": [slug, f"{slug}_runs"]}
    assert out["contracts"] == [qual, f"{qual}_runs"]
    assert out["accounted"] == [qual, f"{qual}_runs"]  # its public names have those contracts
    assert "max_sample" in out["refused"] and "max_samples" in out["refused"]
    # the API reference's rule sections (bai-api-rules) include the new module, last
    assert out["api"][-1] == f"bai.algorithms.{slug}"
    assert out["api"].count(f"bai.algorithms.{slug}") == 1


def test_the_printed_rule_runs_and_its_entry_points_are_the_engines(tmp_path):
    """The printed file, loaded as a user's module (its one relative import made absolute): the
    rule stops on an easy instance, and its generated entry points give the stopping times of
    the engine's ``simulate`` and ``simulate_runs`` on the same seeds."""
    from bai.algorithms import engine as E
    from bai.algorithms.glr import simulate_runs
    from bai.environments import GaussianLinearBandit

    slug, name, text = _rule_file()
    assert "from . import engine as E" in text
    path = tmp_path / f"page_{slug}.py"
    path.write_text(text.replace("from . import engine as E",
                                 "from bai.algorithms import engine as E"))
    before = dict(E.RULES)
    try:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        assert E.RULES[name].run.__wrapped__ is getattr(mod, slug)
        one, runs = getattr(mod, slug), getattr(mod, f"{slug}_runs")
        env = GaussianLinearBandit(X=np.array([[1.0, 0.0], [0.0, 1.0], [0.8, 0.6]]),
                                   theta=np.array([1.0, 0.5]))
        kw = dict(deltas=[0.1, 0.01], max_samples=20000)
        a = one(env, np.random.default_rng(3), **kw)
        b = E.simulate(mod.RULE, env, np.random.default_rng(3), **kw)
        r1 = runs(env, 3, np.random.default_rng(4), **kw)
        r2 = simulate_runs(lambda env, rng, **k: E.simulate(mod.RULE, env, rng, **k), env, 3,
                           np.random.default_rng(4), **kw)
    finally:
        E.RULES.clear()
        E.RULES.update(before)
    assert np.all(a.stoppeds) and np.all(a.stopping_times < 20000)
    assert a.stopping_times.tolist() == b.stopping_times.tolist()
    assert r1.info["stopping_times"].tolist() == r2.info["stopping_times"].tolist()
    assert list(E.RULES) == list(before)


def test_without_the_file_the_rule_is_nowhere(tmp_path):
    out = _probe(tmp_path, with_file=False)
    assert out["name"] not in out["rules"] and out["name"] not in out["arena"]
    assert out["contracts"] == [] and out["accounted"] == []
    assert "entry" not in out
    assert f"bai.algorithms.{out['slug']}" not in out["api"]
    assert out["api"][:3] == ["bai.algorithms.lazy_tas", "bai.algorithms.fws",
                              "bai.algorithms.lingame"]
    # the library's own rules are found the same way (none is listed by hand)
    assert out["rules"][:3] == ["Lazy TaS", "FWS", "LinGame"]


@pytest.mark.parametrize("order", [5, 10])
def test_registration_order_is_the_declared_order_not_the_import_order(order):
    """A rule declared with an order is placed by it (ties by name), whenever it is imported;
    the entry is removed again afterwards."""
    from bai.algorithms import engine as E
    from bai.algorithms.glr_baselines import UNIFORM

    before = list(E.RULES)
    rule = E.CompiledRule("a rule of this test", UNIFORM.choose_arm, paper="test")
    try:
        one, runs = E.declare_rule(rule, slug="test_rule", order=order)
        names = list(E.RULES)
        assert names.index("a rule of this test") == (0 if order == 5 else 1)  # "Lazy TaS" is 10
        assert one.__module__ == __name__ and runs.__name__ == "test_rule_runs"
        assert [n for n in names if n != "a rule of this test"] == before
    finally:
        E.RULES.pop("a rule of this test", None)
    assert list(E.RULES) == before


def test_the_generated_entry_points_keep_the_library_signature():
    import inspect

    from bai.algorithms import fws, lazy_tas, lingame

    sig = inspect.signature(lazy_tas.lazy_tas)
    assert list(sig.parameters) == ["env", "rng", "query", "deltas", "threshold", "stopping",
                                    "sampling_elimination", "max_samples", "regularization",
                                    "initial", "fw_iter"]
    assert sig.parameters["fw_iter"].default == 1000
    assert sig.parameters["deltas"].default == (0.1,)
    assert "fw_iter : int" in lazy_tas.lazy_tas.__doc__ and "{rule_parameters}" not in \
        lazy_tas.lazy_tas.__doc__
    assert "env : GaussianLinearBandit" in fws.fws.__doc__
    assert lingame.lingame_runs.__name__ == "lingame_runs"
    with pytest.raises(ValueError, match="fw_iter"):
        lazy_tas.lazy_tas(None, None, fw_iter=0)
