"""The real-data tables shipped inside the package, and the one place that finds them.

The small derived tables the book uses live in ``bai/data/<data set>/`` as package data, each
with a ``README.md`` (provenance, how it was derived) and the ``LICENSE`` of its source. They are
read through ``importlib.resources``, so the library finds them wherever it is installed (an
editable checkout, a wheel in any environment), never by walking up to a repository.

===========  ===========================================  ==========================  ============
data set     files                                        source                      licence
===========  ===========================================  ==========================  ============
``obd``      ``user_vectors.csv``, ``item_vectors.csv``,  Open Bandit Dataset sample  Apache-2.0
             ``theta.csv``, ``arms.csv``                  (ZOZO, Inc.)
``battery``  ``cells.csv``                                Severson et al. 2019, via   MIT
                                                          Attia et al. 2021
``mip``      ``runs.csv``                                 SCIP runs on wildlife-      MIT
                                                          corridor instances
===========  ===========================================  ==========================  ============

``scripts/make_{obd,battery,mip}_data.py`` (in the repository) regenerate them byte for byte.

>>> from bai import datasets
>>> cells = datasets.battery_cells()          # one row per cell (DataFrame)
>>> runs = datasets.mip_runs()                # one row per solver run (DataFrame)
>>> path = datasets.data_file("battery/cells.csv")
>>> key = datasets.data_digest("battery")[:10]    # changes when the table changes
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from .validation import constraints

__all__ = ["DataSet", "DATA_SETS", "DATA_FILES", "data_file", "data_dir", "data_digest",
           "read_csv", "obd_tables", "battery_cells", "mip_runs"]


@dataclass(frozen=True)
class DataSet:
    """One shipped data set: its folder under ``bai/data``, its tables, source and licence."""

    name: str
    files: tuple[str, ...]
    source: str
    licence: str
    used_by: tuple[str, ...]


#: The data sets shipped inside the package: name -> :class:`DataSet` (files, source, licence, the
#: chapters that use it).
DATA_SETS: dict[str, DataSet] = {
    "obd": DataSet(
        "obd", ("arms.csv", "item_vectors.csv", "theta.csv", "user_vectors.csv"),
        "Open Bandit Dataset sample (ZOZO, Inc.; Saito et al., arXiv:2008.07146): "
        "a click model", "Apache-2.0", ("xu2018_lingape", "fiez2019_rage", "arena")),
    "battery": DataSet(
        "battery", ("cells.csv",),
        "Severson et al., Nature Energy 2019, as redistributed by Attia et al. 2021: "
        "cycle life and the variance feature of 124 cells", "MIT", ("grover2018",)),
    "mip": DataSet(
        "mip", ("runs.csv",),
        "SCIP (PySCIPOpt 6.3.0) runs on wildlife-corridor design instances "
        "(angee/wildlife_corridor_design_instances)", "MIT", ("grover2018",)),
}

#: Every shipped table, as ``"<data set>/<file>"`` (the paths :func:`data_file` takes).
DATA_FILES: tuple[str, ...] = tuple(f"{d.name}/{f}" for d in DATA_SETS.values() for f in d.files)

# Files extracted from a non-filesystem install (a zip): kept until the interpreter exits.
_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)


def _resource(rel: str):
    path = Path(rel)
    if path.is_absolute() or os.pardir in path.parts:
        raise ValueError(f"{rel!r} is not a path inside bai/data")
    node = resources.files("bai").joinpath("data")
    for part in path.parts:
        node = node.joinpath(part)
    return node


class UnknownData(KeyError, ValueError):
    """An unknown data set or file name: a ``KeyError`` (as before) and a ``ValueError``."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class MissingData(FileNotFoundError, ValueError):
    """A table that is not shipped: a ``FileNotFoundError`` (as before) and a ``ValueError``."""


def _check_name(value, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    return value


@constraints(rel="name")
def data_file(rel: str) -> Path:
    """The path of a shipped file, ``rel`` relative to ``bai/data`` (e.g. ``"mip/runs.csv"``).

    Raises :class:`FileNotFoundError` naming the installed location when the file is missing.
    """
    rel = _check_name(rel, "rel")
    node = _resource(rel) if rel else None
    if node is None or not node.is_file():
        raise MissingData(
            f"rel: {rel!r} is not in the data shipped with bai (looked in {_resource('')}); "
            f"the tables are {', '.join(DATA_FILES)}: reinstall the package, or regenerate them "
            "in a checkout with scripts/make_{obd,battery,mip}_data.py")
    if isinstance(node, Path):
        return node
    return _extracted.enter_context(resources.as_file(node))  # pragma: no cover - zip installs


@constraints(name="name")
def data_dir(name: str) -> Path:
    """The folder of one data set (``"obd"``, ``"battery"`` or ``"mip"``) as a path."""
    name = _check_name(name, "name")
    if name not in DATA_SETS:
        raise UnknownData(f"name: unknown data set {name!r}; the data sets are {sorted(DATA_SETS)}")
    node = _resource(name)
    if isinstance(node, Path):      # every ordinary install; no check, so importing never fails
        return node
    return data_file(f"{name}/{DATA_SETS[name].files[0]}").parent  # pragma: no cover - zip


@constraints(names="choice")
def data_digest(*names: str) -> str:
    """SHA-1 (hex) of shipped tables: a key that changes whenever their bytes change.

    Each name is a data set (its tables in sorted file-name order) or a file ``"set/file"``;
    no name means every table. ``data_digest("obd")`` is the SHA-1 of the concatenated bytes of
    the four click tables sorted by name, ``data_digest("battery")`` that of ``cells.csv``.
    """
    files: list[str] = []
    for name in names or tuple(DATA_SETS):
        _check_name(name, "names")
        if name in DATA_SETS:
            files += [f"{name}/{f}" for f in sorted(DATA_SETS[name].files)]
        elif name in DATA_FILES:
            files.append(name)
        else:
            raise UnknownData(f"names: unknown data set or file {name!r}; known: "
                           f"{sorted(DATA_SETS)} and {list(DATA_FILES)}")
    h = hashlib.sha1()
    for f in files:
        h.update(data_file(f).read_bytes())
    return h.hexdigest()


@constraints(rel="name")
def read_csv(rel: str, **kwargs):
    """``pandas.read_csv`` of a shipped table (``rel`` as in :func:`data_file`)."""
    import pandas as pd

    return pd.read_csv(data_file(rel), **kwargs)


def obd_tables() -> dict:
    """The four click-model tables of the Open Bandit Dataset sample, as DataFrames.

    Keys ``users``, ``items``, ``theta``, ``arms``; :func:`bai.instances.click_data` builds the
    arms' features and the fitted parameter from them.
    """
    return {"users": read_csv("obd/user_vectors.csv"), "items": read_csv("obd/item_vectors.csv"),
            "theta": read_csv("obd/theta.csv"), "arms": read_csv("obd/arms.csv")}


def battery_cells():
    """The battery table: one row per cell (policy, cycle life, variance features ``logvar_dq_c``).

    Severson et al. (2019) as redistributed by Attia et al. (2021); see
    ``bai/data/battery/README.md``.
    """
    return read_csv("battery/cells.csv")


def mip_runs():
    """The solver-tuning table: one row per SCIP run (arm, instance, seed, checkpoints).

    See ``bai/data/mip/README.md`` for how the runs were made.
    """
    return read_csv("mip/runs.csv")
