"""Numba's on-disk cache keyed by the sources of the whole package.

Numba's cache (``cache=True``) stamps each compiled function with its *own* source file only: a
kernel in one module that calls or inlines a compiled function of another module keeps its old
machine code after that other module changes (numba's documented limitation; every sampling rule
under the GLR rules runs :func:`bai.algorithms.engine.observe` in its compiled loop). A rerun would
then silently run old code. :func:`install` wraps numba's cache locators so that the stamp of every
function defined in ``bai`` also carries :func:`sources_digest`, the hash of every ``.py`` file of
the package: any change to the package's sources recompiles every kernel of the package once.
Functions outside ``bai`` keep numba's own locators.

Numba's index of a cached function (:class:`numba.core.caching.IndexDataCacheFile`) also names
each compiled specialisation's data file by the first number its index does not use. Two
processes that compile two specialisations of one function at once (the driving loop of two
rules, in two test workers, two chapters or two task workers) read the same index, take the
same number, and one's index entry can end up naming the other's machine code: a later run then
executes another rule's loop on its state (a crash, found in this repository's own cache).
:class:`KeyedCacheFile` names the data file of a function of ``bai`` by a hash of its source
stamp and its key instead, so no two specialisations ever share a data file; a lost index update
only costs a recompilation.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def sources_digest(root: Path = PACKAGE_DIR) -> str:
    """SHA-1 of the relative path and the bytes of every ``.py`` file under ``root``."""
    h = hashlib.sha1()
    for p in sorted(Path(root).rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _inside(py_file, root: Path) -> bool:
    try:
        Path(py_file).resolve().relative_to(root)
    except (ValueError, OSError):
        return False
    return True


def _keyed(base, digest: str, root: Path):
    """``base`` (a numba cache locator class) for the functions under ``root``, its source stamp
    extended by ``digest``."""

    class Keyed(base):
        _bai_digest = digest

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _inside(py_file, root):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return (super().get_source_stamp(), digest)

    Keyed.__name__ = Keyed.__qualname__ = f"BaiKeyed{base.__name__}"
    return Keyed


def _is_bai_stamp(stamp, digest: str) -> bool:
    return isinstance(stamp, tuple) and len(stamp) == 2 and stamp[1] == digest


def _keyed_cache_file(base, digest: str):
    """``base`` (numba's ``IndexDataCacheFile``) whose entries for the functions of ``bai`` (their
    source stamp carries ``digest``) get a data file of their own: ``<function>.<hash>.nbc``,
    the hash of the source stamp and the entry's key (module docstring). Other functions keep
    numba's numbering."""

    class KeyedCacheFile(base):
        _bai_digest = digest

        def save(self, key, data):
            if not _is_bai_stamp(self._source_stamp, digest):
                return super().save(key, data)
            name = self._data_name_pattern.replace(
                "{number:d}", hashlib.sha1(self._dump((self._source_stamp, key))).hexdigest()[:24])
            self._save_data(name, data)            # the data first: an index entry never names
            overloads = self._load_index()         # a file that is not yet written
            if overloads.get(key) != name:
                overloads[key] = name
                self._save_index(overloads)

    KeyedCacheFile.__name__ = KeyedCacheFile.__qualname__ = f"BaiKeyed{base.__name__}"
    return KeyedCacheFile


def install(root: Path = PACKAGE_DIR) -> bool:
    """Put the keyed locators first in numba's list (once per process); False when this numba
    has no such list or a source file cannot be read (then numba's own cache keys apply, and
    importing ``bai`` still works)."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list):
        return False
    if any(getattr(c, "_bai_digest", None) for c in classes):
        return True
    try:
        digest = sources_digest(root)
    except OSError:
        return False
    impl._locator_classes = [_keyed(c, digest, root) for c in classes] + classes
    cache_file = getattr(caching, "IndexDataCacheFile", None)
    if isinstance(cache_file, type) and not getattr(cache_file, "_bai_digest", None):
        caching.IndexDataCacheFile = _keyed_cache_file(cache_file, digest)
    return True
