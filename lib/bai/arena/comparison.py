r"""The result of :func:`~bai.arena.compare`: :class:`Comparison` (its tables, :math:`T^*` and
:math:`w^*` of each instance, the settings), its figure and proportions, and its lossless JSON
file (:meth:`Comparison.save`, :meth:`Comparison.load`; :data:`FORMAT`). Part of
:mod:`bai.arena`.
"""

from __future__ import annotations

import json
import math
import numbers
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..algorithms import engine as E
from ..files import atomic_write
from ..validation import strict_keywords
from .tables import plot_sweep


_TABLES = ("table", "slopes", "runs", "timing")


@dataclass
class Comparison:
    """The result of :func:`compare`.

    Attributes
    ----------
    table : DataFrame
        Per (instance, rule, stopping, threshold, delta): runs, stopped, mean samples and its
        se, the ratio :math:`E[\\tau]/(T^*\\log(1/\\delta))` and its se, the lower bound ``LB``
        :math:`=T^*\\mathrm{kl}(\\delta,1-\\delta)`, errors and their 95% Clopper--Pearson
        interval (:func:`cell_table`).
    slopes : DataFrame
        Per (instance, rule, stopping, threshold): the mean over runs of each run's
        least-squares slope of the stopping time in :math:`\\log(1/\\delta)`, over :math:`T^*`
        (needs three deltas).
    runs : DataFrame
        One row per (instance, rule, run, stopping, threshold, delta); ``run`` identifies the
        run (its generator derives from the seed, the instance, the rule and ``run``);
        ``counts`` are the pulls of each arm at the stop, ``w*`` the optimal allocation of the
        instance beside them, ``wall time`` the run's seconds.
    t_star : dict
        :math:`T^*` of each instance (for its query).
    w_star : dict
        The optimal allocation :math:`w^*` of each instance.
    timing : DataFrame
        Per (instance, rule): runs, total wall time, pulls and pulls per second.
    settings : dict
        The arguments of :func:`compare`, the queries, and the library version.
    """

    table: pd.DataFrame
    slopes: pd.DataFrame
    runs: pd.DataFrame
    t_star: dict
    w_star: dict = field(default_factory=dict)
    timing: pd.DataFrame = None
    settings: dict = field(default_factory=dict)

    @strict_keywords
    def figure(self, threshold: str | None = None, stopping: str | None = None):
        """The ratio against :math:`\\log(1/\\delta)`, one panel per instance, with the lower
        bound (:func:`plot_sweep`; cells with runs cut at the cap drawn apart); the user's
        rules first."""
        have = list(dict.fromkeys(self.table["threshold"]))
        if threshold is None:
            threshold = have[0]
        if threshold not in have:
            raise ValueError(f"threshold must be one of {have}, got {threshold!r}")
        stops = list(dict.fromkeys(self.table["stopping"])) if "stopping" in self.table else []
        if stopping is None and stops:
            stopping = stops[0]
        if stops and stopping not in stops:
            raise ValueError(f"stopping must be one of {stops}, got {stopping!r}")
        user = [r for r in dict.fromkeys(self.table["rule"]) if r not in E.RULES
                or self.settings.get("rules", {}).get(r) != r]
        return plot_sweep(self.table, threshold, stopping, first=user)

    @strict_keywords
    def proportions(self, delta: float | None = None) -> pd.DataFrame:
        """Per (instance, rule, stopping, threshold): the mean proportions of pulls at the stop
        :math:`N/\\tau` (stopped runs, at ``delta``, default the smallest) beside :math:`w^*`,
        and their L1 distance. ``delta`` must be one of the comparison's deltas."""
        df = self.runs
        have = sorted(set(float(d) for d in df["delta"]), reverse=True)
        if delta is None:
            delta = have[-1]
        else:
            from ..validation import check_delta

            delta = check_delta(delta)
            if not any(np.isclose(delta, have)):
                raise ValueError(f"delta = {delta:g} is not a delta of the comparison; its "
                                 f"deltas are {have}")
        sub = df[np.isclose(df["delta"], delta) & df["stopped"]]
        rows = []
        for (inst, rule, s, thr), g in sub.groupby(["instance", "rule", "stopping",
                                                    "threshold"], sort=False):
            p = np.mean([np.asarray(c) / sum(c) for c in g["counts"]], axis=0)
            w = np.asarray(self.w_star[inst])
            rows.append({"instance": inst, "rule": rule, "stopping": s, "threshold": thr,
                         "delta": delta, "runs": len(g), "N/t at the stop": np.round(p, 3),
                         "w*": np.round(w, 3), "|N/t - w*|_1": float(np.abs(p - w).sum())})
        return pd.DataFrame(rows, columns=["instance", "rule", "stopping", "threshold", "delta",
                                           "runs", "N/t at the stop", "w*", "|N/t - w*|_1"])

    @strict_keywords
    def save(self, path) -> None:
        """Write the comparison (tables, T*, w*, settings, the library version) to one JSON
        file, losslessly (every float to its last digit, the tables' dtypes and index):
        :meth:`load` gives back an equal comparison. The write is atomic
        (:func:`bai.files.atomic_write`): a save that fails midway leaves the previous file as
        it was."""
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path, got {type(path).__name__}")
        from .. import __version__

        payload = {"format": FORMAT, "bai_version": __version__,
                   "settings": _enc(self.settings),
                   "t_star": {str(k): _enc(float(v)) for k, v in self.t_star.items()},
                   "w_star": {str(k): [_enc(float(x)) for x in np.asarray(v, dtype=float)]
                              for k, v in self.w_star.items()},
                   "tables": {k: _enc_frame(getattr(self, k)) for k in _TABLES
                              if getattr(self, k) is not None}}
        text = json.dumps(payload, allow_nan=False)   # built in full before the file is touched
        try:
            atomic_write(path, text)
        except ValueError as exc:
            raise ValueError(f"path: {exc}") from None

    @classmethod
    @strict_keywords
    def load(cls, path) -> "Comparison":
        """Read a comparison written by :meth:`save` (this format, or the first one). A file
        that is missing, empty, truncated, not a comparison or of another format is refused
        with a ``ValueError`` naming the file, what is wrong and, when the file says it, the
        version of bai that wrote it."""
        if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path, got {type(path).__name__}")
        p = Path(path)
        where = f"path {str(p)!r}"
        if not p.exists():
            raise ValueError(f"{where}: no such file")
        if p.is_dir():
            raise ValueError(f"{where} is a folder, not a saved comparison")
        raw = p.read_bytes()
        if not raw.strip():
            raise ValueError(f"{where} is empty ({len(raw)} bytes): not a saved "
                             f"bai.arena.Comparison")
        head = raw[:400].decode("utf-8", errors="replace")
        fm = re.search(r'"format"\s*:\s*"([^"]*)"', head)
        vm = re.search(r'"bai_version"\s*:\s*"([^"]*)"', head)
        wrote = (f" (format {fm.group(1)!r}" + (f", written by bai {vm.group(1)}" if vm else "")
                 + ")") if fm else ""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{where} is not a text file (not UTF-8 at byte {exc.start}): not "
                             f"a saved bai.arena.Comparison") from None
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as exc:
            if fm and fm.group(1).startswith("bai.arena.Comparison"):
                raise ValueError(f"{where} is a saved comparison{wrote} that is truncated or "
                                 f"corrupted: invalid JSON at character {exc.pos} of "
                                 f"{len(text)} ({exc.msg})") from None
            raise ValueError(f"{where} is not a saved bai.arena.Comparison: not JSON "
                             f"({exc.msg} at character {exc.pos})") from None
        if not isinstance(payload, dict) or not str(payload.get("format", "")).startswith(
                "bai.arena.Comparison/"):
            what = (f"a JSON object with the keys {sorted(payload)[:8]}"
                    if isinstance(payload, dict) else f"a JSON {type(payload).__name__}")
            raise ValueError(f"{where} is not a saved bai.arena.Comparison: it is {what}, "
                             f"without format 'bai.arena.Comparison/N'")
        fmt, version = payload["format"], payload.get("bai_version", "unknown")
        if fmt not in (FORMAT, _FORMAT_1):
            raise ValueError(f"{where} was written in format {fmt!r} by bai {version}; this "
                             f"bai reads {FORMAT!r} and {_FORMAT_1!r}: load it with the "
                             f"version that wrote it")
        need = ["settings", "t_star", "w_star", "tables", "bai_version"]
        missing = [k for k in need if k not in payload]
        tables = payload.get("tables")
        if not missing and isinstance(tables, dict):
            missing = [f"tables.{k}" for k in ("table", "slopes", "runs") if k not in tables]
        if missing:
            raise ValueError(f"{where} ({fmt}, written by bai {version}) lacks {missing}")
        try:
            if fmt == _FORMAT_1:
                tabs = {k: pd.DataFrame(v["data"], index=v["index"], columns=v["columns"])
                        for k, v in tables.items()}
                settings = {**payload["settings"], "bai_version": version}
                t_star, w_star = payload["t_star"], payload["w_star"]
            else:
                tabs = {k: _dec_frame(v) for k, v in tables.items()}
                settings = _dec(payload["settings"])
                t_star = {k: _dec(v) for k, v in payload["t_star"].items()}
                w_star = {k: [_dec(x) for x in v] for k, v in payload["w_star"].items()}
            return cls(table=tabs["table"], slopes=tabs["slopes"], runs=tabs["runs"],
                       t_star=t_star, w_star={k: np.asarray(v, dtype=float)
                                              for k, v in w_star.items()},
                       timing=tabs.get("timing"), settings=settings)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"{where} ({fmt}, written by bai {version}) is damaged: "
                             f"{type(exc).__name__}: {exc}") from None


#: the format :meth:`Comparison.save` writes (the first, ``bai.arena.Comparison/1``, rounded
#: floats to 15 digits; :meth:`Comparison.load` still reads it)
FORMAT = "bai.arena.Comparison/2"
_FORMAT_1 = "bai.arena.Comparison/1"


def _enc(v):
    """A JSON value of ``v`` that :func:`_dec` turns back into an equal value: floats exactly
    (``repr``), the non-finite ones tagged, numpy scalars and arrays as Python values."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, numbers.Integral):
        return int(v)
    if isinstance(v, (float, np.floating)):
        x = float(v)
        return x if math.isfinite(x) else {"$float": repr(x)}
    if isinstance(v, str) or v is None:
        return v
    if isinstance(v, Mapping):
        return {str(k): _enc(x) for k, x in v.items()}
    if isinstance(v, np.ndarray):
        return [_enc(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_enc(x) for x in v]
    return repr(v)


def _dec(v):
    if isinstance(v, dict):
        if set(v) == {"$float"}:
            return float(v["$float"])
        return {k: _dec(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_dec(x) for x in v]
    return v


def _enc_frame(df: pd.DataFrame) -> dict:
    """A table column by column with its dtypes and index (:func:`_dec_frame`)."""
    idx = df.index
    if isinstance(idx, pd.RangeIndex):
        index = {"range": [int(idx.start), int(idx.stop), int(idx.step)]}
    else:
        index = {"values": [_enc(x) for x in idx.tolist()], "dtype": str(idx.dtype)}
    return {"columns": [str(c) for c in df.columns],
            "dtypes": [str(t) for t in df.dtypes],
            "index": index,
            "data": [[_enc(x) for x in df[c].tolist()] for c in df.columns]}


def _column(values, dtype: str) -> pd.Series:
    if dtype in ("object", "O"):
        return pd.Series(values, dtype=object)
    return pd.Series(values, dtype=dtype)


def _dec_frame(v: dict) -> pd.DataFrame:
    cols, dtypes, data = v["columns"], v["dtypes"], v["data"]
    if not (len(cols) == len(dtypes) == len(data)):
        raise ValueError("a table's columns, dtypes and data differ in length")
    ix = v["index"]
    if "range" in ix:
        index = pd.RangeIndex(*ix["range"])
    else:
        index = pd.Index(_column([_dec(x) for x in ix["values"]], ix["dtype"]))
    if any(len(d) != len(index) for d in data):
        raise ValueError("a table's index and columns differ in length")
    out = pd.DataFrame({c: _column([_dec(x) for x in d], t).set_axis(index)
                        for c, t, d in zip(cols, dtypes, data)}, index=index, columns=cols)
    return out
