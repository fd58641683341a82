"""Numba's on-disk cache is keyed by the sources of the whole package (bai._numba_cache): a
kernel that inlines a compiled function of another module is recompiled when that module
changes, instead of running its old machine code."""

from __future__ import annotations

import os
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


#: A two-module package: ``kernel`` (cached) inlines ``helper`` of another module, as the
#: library's rules inline the engine (``glr_baselines`` and ``engine/thresholds.py``).
HELPER = "import numba\n\n\n@numba.njit(inline='always')\ndef width(x):\n    return x + 1.0\n"
KERNEL = textwrap.dedent("""
    import numba

    from .helper import width


    @numba.njit(cache=True)
    def kernel(n):
        s = 0.0
        for i in range(n):
            s += width(float(i))
        return s
""")
SCRIPT = textwrap.dedent("""
    import importlib.util
    import sys
    from pathlib import Path
    if sys.argv[1] == "keyed":   # bai._numba_cache alone (importing bai would key bai's tree)
        spec = importlib.util.spec_from_file_location("keyed", sys.argv[3])
        keyed = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(keyed)
        assert keyed.install(Path(sys.argv[2]) / "pkg")
    from pkg.kernel import kernel
    print(kernel(10))
""")


def _run(tmp_path, mode: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(tmp_path),
           "NUMBA_CACHE_DIR": str(tmp_path / f"cache-{mode}")}
    out = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(tmp_path),
                          str(LIB / "_numba_cache.py")], env=env,
                         cwd=tmp_path, check=True, capture_output=True, text=True)
    return float(out.stdout.split()[-1])


@pytest.mark.parametrize("mode", ["keyed", "numba's own keys"])
def test_a_change_in_one_module_reaches_a_cached_kernel_of_another(tmp_path, mode):
    """A cached kernel inlines a compiled function of another module. After a change in that
    function only, the keyed cache (bai._numba_cache.install, as ``import bai`` does for the
    package) runs the changed code; numba's own keys load the old machine code, since the
    kernel's file did not change: that is why the package installs the keyed locators, and
    what shows this test can fail. (The test above checks that every cached kernel of ``bai``
    carries the key.)"""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text(HELPER)
    (pkg / "kernel.py").write_text(KERNEL)
    assert _run(tmp_path, mode) == 55.0                         # sum of i + 1 for i < 10
    assert list((tmp_path / f"cache-{mode}").rglob("kernel*.nbc"))   # the kernel is cached
    (pkg / "helper.py").write_text(HELPER.replace("x + 1.0", "x + 2.0"))
    again = _run(tmp_path, mode)
    if mode == "keyed":
        assert again == 65.0                                    # recompiled: the new helper
    else:
        assert again == 55.0                                    # numba's limitation: stale


def _save_many(cls, path, stamp, worker, n, barrier):
    f = cls(cache_path=str(path), filename_base="f-1.py311", source_stamp=stamp)
    barrier.wait()
    for i in range(n):
        f.save(("key", worker, i), ("payload", worker, i))


def _concurrent_saves(cls, path, stamp, workers=4, n=40):
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(workers)
    procs = [ctx.Process(target=_save_many, args=(cls, path, stamp, w, n, barrier))
             for w in range(workers)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert all(p.exitcode == 0 for p in procs)
    reader = cls(cache_path=str(path), filename_base="f-1.py311", source_stamp=stamp)
    index = reader._load_index()
    wrong = [k for k in index if reader.load(k) != ("payload",) + k[1:]]
    return index, wrong


def test_concurrent_compilations_never_share_a_data_file(tmp_path):
    """Processes that save entries of one cached function at once (two workers compiling the
    driving loop of two rules) never leave an index entry naming another entry's machine code:
    every entry the index keeps loads its own data (numba's numbering gave two entries one data
    file, and a run executed another rule's loop: a crash)."""
    from numba.core import caching

    import bai  # noqa: F401  (installs the keyed cache file)
    from bai._numba_cache import sources_digest

    cls = caching.IndexDataCacheFile
    assert getattr(cls, "_bai_digest", None)
    index, wrong = _concurrent_saves(cls, tmp_path, ("stamp", sources_digest()))
    assert index and not wrong
    # a function outside bai keeps numba's own numbering
    plain = cls(cache_path=str(tmp_path), filename_base="g-1.py311", source_stamp=("stamp", "x"))
    plain.save(("k",), "data")
    assert plain._load_index()[("k",)] == "g-1.py311.1.nbc" and plain.load(("k",)) == "data"
