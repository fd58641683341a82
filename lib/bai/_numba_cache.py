"""Numba's on-disk cache keyed by the sources of the whole package.

Numba's cache (``cache=True``) stamps each compiled function with its *own* source file only: a
kernel in one module that calls or inlines a compiled function of another module keeps its old
machine code after that other module changes (numba's documented limitation; every sampling rule
under the GLR rules runs :func:`bai.algorithms.engine.observe` in its compiled loop). A rerun would
then silently run old code. :func:`install` wraps numba's cache locators so that the stamp of every
function defined in ``bai`` also carries :func:`sources_digest`, the hash of every ``.py`` file of
the package: any change to the package's sources recompiles every kernel of the package once.
Functions outside ``bai`` keep numba's own locators.
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
    return True
