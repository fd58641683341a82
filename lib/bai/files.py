"""Files the library writes: every save is atomic.

:func:`atomic_write` writes to a temporary file in the target's folder, flushes it to the disk
and replaces the target in one step (``os.replace``): a reader sees the old file or the new one,
never a half-written one, and a write that fails midway (a full disk, an interruption, an error
while serialising) leaves the old file as it was and no temporary file behind.
:meth:`bai.arena.Comparison.save` and the command line's executed notebooks
(:func:`bai.cli.execute`, :func:`bai.cli.write_twins`) write through it; the checkpoints of
:func:`bai.experiments.run_experiment` and the claims files of
:meth:`bai.claims.ClaimsLedger.write` are written the same way.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from .validation import constraints

__all__ = ["atomic_write"]


@constraints(path="path", binary="bool")
def atomic_write(path, data=None, *, write=None, binary: bool = False) -> Path:
    """Write ``data`` (a ``str``, or ``bytes`` with ``binary=True``), or whatever ``write(fh)``
    writes to the open file ``fh``, to ``path`` atomically (module docstring). The folder must
    exist. A file that replaces another keeps its permissions; a new one is readable by all
    (``0o644``). Returns ``path`` as a :class:`~pathlib.Path`.

    Raises
    ------
    TypeError
        ``path`` is not a path, both or neither of ``data`` and ``write`` are given, or
        ``data`` is not ``str``/``bytes`` as ``binary`` says.
    ValueError
        ``path`` is a folder, or its folder does not exist.
    """
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path, got {type(path).__name__}")
    if not isinstance(binary, bool):
        raise TypeError(f"binary must be True or False, got {binary!r}")
    if (data is None) == (write is None):
        raise TypeError("atomic_write takes either data or write, not both nor neither")
    if write is not None and not callable(write):
        raise TypeError(f"write must be callable write(fh), got {type(write).__name__}")
    if data is not None and not isinstance(data, bytes if binary else str):
        raise TypeError(f"data must be {'bytes' if binary else 'a str'} "
                        f"(binary={binary}), got {type(data).__name__}")
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"path {str(path)!r} is a folder, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise ValueError(f"path {str(path)!r}: its folder {str(folder)!r} does not exist")
    mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else
                                                       {"encoding": "utf-8"})) as fh:
            if write is not None:
                write(fh)
            else:
                fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path
