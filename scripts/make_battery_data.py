#!/usr/bin/env python
"""Derive the compact battery table used by the Grover et al. (2018) chapter.

Source: the cycle-life data of Severson et al. (Nature Energy 2019) as redistributed by
Attia et al., "revisit-severson-et-al" (MIT licence), a copy of which lives in
``../shared/data/battery_severson`` (see its README, LICENSE and SOURCE_COMMIT).

For each of the 124 cells the script writes one row of ``lib/bai/data/battery/cells.csv``:

* identification: ``cell`` (``<split>-<index>``, the file ``data/<split>/cell<index>.csv`` of
  the source), ``split`` (Severson et al.'s train / test1 = primary test / test2 = secondary
  test), ``barcode``, ``batch_date`` and ``policy`` (the charging policy, from the source's
  ``lifetime_charging_time/severson_et_al_SI_table9.csv``);
* ``cycle_life``: cycles until the discharge capacity falls below 0.88 Ah (80 % of nominal),
  from ``data/cycle_lives/<split>_cycle_lives.csv``;
* ``logvar_dq_<c>`` for ``c = 15, 20, ..., 100``: Severson et al.'s "variance feature",
  :math:`\\log_{10}\\operatorname{var}_V[Q_c(V)-Q_{10}(V)]`, the variance over the 1000 voltage
  points of the difference between the discharge capacity curves ``Qdlin`` of cycle ``c`` and
  cycle 10. It is what an early-life lifetime predictor sees after ``c`` cycles.

The voltage arrays (``early_cycle_voltage_arrays.tar.gz``) hold, per cell, a 1000 x 99 array:
column ``j`` (0-based) is ``Qdlin`` of cycle ``j + 2`` (cycle 1 is excluded; see
``generate_voltage_arrays.m`` of the source repository), so ``Q_c`` is column ``c - 2``.

The rows of table 9 are in the order of the source's MATLAB cell list (batch 2017-05-12, then
2017-06-30, then 2018-04-12), and within each split the k-th row is ``cell<k>.csv``; the script
checks this by comparing the cycle lives of both files.

Usage (from the repository root)::

    python scripts/make_battery_data.py [--source ../shared/data/battery_severson] [--out lib/bai/data/battery]

Nothing is downloaded. The output is a few tens of kilobytes.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import shutil
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SPLITS = {"Train": "train", "Prim. Test": "test1", "Sec. test": "test2"}
CYCLES = list(range(15, 101, 5))
ANCHOR = 10  # Q_c - Q_10, as in Severson et al.


def _arrays(tar_path: Path) -> dict[str, np.ndarray]:
    """All 124 voltage arrays, keyed by '<split>/cell<k>'."""
    out = {}
    with tarfile.open(tar_path, "r:gz") as tar:
        for member in tar:
            if not (member.isfile() and member.name.endswith(".csv")):
                continue
            parts = Path(member.name).parts  # ('data', 'test1', 'cell6.csv')
            key = f"{parts[-2]}/{Path(parts[-1]).stem}"
            raw = tar.extractfile(member).read()
            out[key] = np.loadtxt(io.BytesIO(raw), delimiter=",")
    return out


def build(source: Path) -> pd.DataFrame:
    table = pd.read_csv(source / "lifetime_charging_time" / "severson_et_al_SI_table9.csv",
                        encoding="utf-8-sig")
    table["split"] = table["Dataset"].map(SPLITS)
    if table["split"].isna().any():
        raise ValueError(f"unknown Dataset labels: {sorted(set(table['Dataset']) - set(SPLITS))}")
    table["index"] = table.groupby("split").cumcount() + 1
    for split in SPLITS.values():
        lives = np.loadtxt(source / "data" / "cycle_lives" / f"{split}_cycle_lives.csv")
        mine = table.loc[table["split"] == split, "Cycle life"].to_numpy()
        if mine.size != lives.size or not np.array_equal(mine, lives):
            raise ValueError(f"table 9 and {split}_cycle_lives.csv disagree: the row order "
                             "assumption does not hold")
    arrays = _arrays(source / "early_cycle_voltage_arrays.tar.gz")
    rows = []
    for _, row in table.iterrows():
        key = f"{row['split']}/cell{row['index']}"
        q = arrays[key]
        if q.shape != (1000, 99):
            raise ValueError(f"{key}: expected a 1000 x 99 array, got {q.shape}")
        rec = {"cell": f"{row['split']}-{row['index']}", "split": row["split"],
               "barcode": row["Cell barcode"], "batch_date": row["Batch date"],
               "policy": row["Charging policy"], "cycle_life": int(row["Cycle life"])}
        for c in CYCLES:
            dq = q[:, c - 2] - q[:, ANCHOR - 2]
            rec[f"logvar_dq_{c}"] = float(np.log10(np.var(dq)))
        rows.append(rec)
    if len(rows) != len(arrays):
        raise ValueError(f"{len(arrays)} voltage arrays but {len(rows)} table rows")
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT.parent / "shared" / "data"
                        / "battery_severson")
    parser.add_argument("--out", type=Path, default=ROOT / "lib" / "bai" / "data" / "battery")
    args = parser.parse_args()
    cells = build(args.source)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "cells.csv"
    cells.to_csv(path, index=False, float_format="%.6f", lineterminator="\n")
    shutil.copyfile(args.source / "LICENSE", args.out / "LICENSE")
    commit = (args.source / "SOURCE_COMMIT").read_text().strip()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    print(f"{len(cells)} cells, {cells['policy'].nunique()} policies -> {path} "
          f"({path.stat().st_size / 1024:.1f} KiB, sha256 {digest[:16]}); source commit {commit}")


if __name__ == "__main__":
    main()
