"""Numba's on-disk cache is keyed by the sources of the whole package (bai._numba_cache): a
kernel that inlines a compiled function of another module is recompiled when that module
changes, instead of running its old machine code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

import bai
from bai import _numba_cache

LIB = Path(bai.__file__).resolve().parent


def test_the_digest_follows_the_bytes_of_every_source_file(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    d0 = _numba_cache.sources_digest(tmp_path)
    os.utime(tmp_path / "a.py", (1, 1))                   # a new time alone changes nothing
    assert _numba_cache.sources_digest(tmp_path) == d0
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")     # a byte in a sub-package does
    d1 = _numba_cache.sources_digest(tmp_path)
    assert d1 != d0
    (tmp_path / "sub" / "__pycache__").mkdir()
    (tmp_path / "sub" / "__pycache__" / "c.py").write_text("z = 1\n")
    assert _numba_cache.sources_digest(tmp_path) == d1     # caches are not sources


def test_every_cached_kernel_of_the_package_is_keyed_by_the_digest():
    import importlib
    import pkgutil

    digest = _numba_cache.sources_digest()
    seen = 0
    for info in pkgutil.walk_packages(bai.__path__, "bai."):
        mod = importlib.import_module(info.name)
        for obj in vars(mod).values():
            cache = getattr(obj, "_cache", None)
            if isinstance(obj, numba.core.registry.CPUDispatcher) and \
                    obj.__module__ == info.name and hasattr(cache, "_impl"):
                loc = cache._impl.locator
                assert getattr(type(loc), "_bai_digest", None) == digest, obj
                assert loc.get_source_stamp()[1] == digest
                seen += 1
    assert seen > 50


def test_an_unreadable_source_leaves_numbas_own_keys(tmp_path, monkeypatch):
    from numba.core import caching

    plain = [c for c in caching.CacheImpl._locator_classes if not hasattr(c, "_bai_digest")]
    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", list(plain))
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    assert _numba_cache.install(tmp_path) is False
    assert caching.CacheImpl._locator_classes == plain
    assert _numba_cache.install(LIB) is True               # and a readable tree installs
    keyed = caching.CacheImpl._locator_classes
    assert [c._bai_digest for c in keyed[:len(plain)]] == [_numba_cache.sources_digest()] * len(
        plain)
    assert keyed[len(plain):] == plain


SCRIPT = textwrap.dedent("""
    import numpy as np
    from bai import instances
    from bai.algorithms import glr_baselines
    env = instances.soare_benchmark(2, omega=0.5)
    r = glr_baselines.lingape_glr(env, np.random.default_rng(0), deltas=[0.1, 1e-3],
                                  max_samples=3000)
    print(*r.stopping_times.ravel(), *r.recommendations.ravel())
""")


def _run(tmp_path, cache: str):
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "lib"),
           "NUMBA_CACHE_DIR": str(tmp_path / cache)}
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, check=True,
                         capture_output=True, text=True)
    return out.stdout.split()


def test_a_change_in_the_engine_reaches_a_kernel_of_another_module(tmp_path):
    """LinGapE's compiled rule (glr_baselines.py) inlines the engine's ``width_beta``
    (engine/thresholds.py). After a change in ``width_beta`` only, the run with the rule's
    compiled code on disk must run the changed code, not the old machine code (numba alone would load the old
    rule: its own file did not change)."""
    shutil.copytree(LIB, tmp_path / "lib" / "bai",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    before = _run(tmp_path, "warm")
    assert list((tmp_path / "warm").rglob("glr_baselines*.nbc"))        # the kernel is cached
    engine = tmp_path / "lib" / "bai" / "algorithms" / "engine" / "thresholds.py"
    src = engine.read_text()
    old = "    out = 0.0\n    for w in range(eng.wkind.shape[0]):"
    assert src.count(old) == 1
    engine.write_text(src.replace(old, "    out = 50.0\n    for w in range(eng.wkind.shape[0]):"))
    # The runs are seeded: a kernel loaded stale from the cache would give ``before`` again.
    # (Compiling afresh in an empty cache would give the same as ``warm``; that third compile
    # of the engine, most of a minute, adds nothing the inequality does not show.)
    assert _run(tmp_path, "warm") != before
