#!/usr/bin/env python
"""Derive the compact click-model tables in ``lib/bai/data/obd/`` from the Open Bandit Dataset
sample.

Usage::

    python scripts/make_obd_data.py [--source PATH/obd_sample.tar.gz] [--out lib/bai/data/obd]

The source is the small sample of the Open Bandit Dataset (ZOZO, Inc.; Saito et al. 2021)
shipped in the PyPI wheel ``obp-0.4.1-py3-none-any.whl`` (Apache-2.0); the project keeps a copy
of its ``obd/`` folder as ``obd_sample.tar.gz``. The same CSV files can be read straight from the
wheel (``pip download --no-deps obp==0.4.1``; ``obp/dataset/obd/...`` inside the zip) and are
byte-identical. Every choice below is documented in ``lib/bai/data/obd/README.md``; the script is
deterministic (no random numbers) and prints what it wrote.

Construction (mirroring Xu et al. 2018, App. A, on Yahoo! R6A):

1. records: the "all" campaign of both logging policies (``random/all/all.csv`` and
   ``bts/all/all.csv``): 20,000 impressions, 80 clicks;
2. user vector u (6): a constant 1 and the indicators of the levels ranked 2..6 (by frequency in
   the pooled log) of the user feature with the most levels of frequency >= 1%
   (``user_feature_2``); the most frequent level and the rare levels form the reference;
3. item vector a (6): a constant 1, the numeric ``item_feature_0`` (standardised in the source)
   and the indicators of the levels ranked 2..5 (by number of items; ties by the hash string)
   of the categorical item feature with the fewest levels (``item_feature_3``);
   item features come from ``random/all/item_context.csv`` keyed by ``item_id`` (the bts file
   has the same ``item_feature_0`` per id but salts its category hashes differently);
4. arm feature x = vec(u kron a) in R^36 (x[0] = 1);
5. "true" parameter: ridge regression of the target +1 (click) / -1 (no click) on x over the
   pooled records, regulariser 0.01 (the paper's);
6. candidate arms: the 6 x 80 distinct (user group, item) pairs, with their number of records,
   clicks and fitted click probability p_hat = (1 + x^T theta) / 2.

The reward scaling applied to p_hat at run time (``bai.instances.click_instance``) is *not*
baked in here: the tables hold the fit itself.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = Path("/work/shared/data/open_bandit_dataset/obd_sample.tar.gz")
SOURCE_SHA256 = "ee8141f706c2bbe16b25f5ddb7877b581f2ec4a4ee7b53a3125fa1ac70a1199a"
WHEEL_SHA256 = "87dec9caf4283c25ab13036532e0a24566f1c7bdcad1653a8ded43b2f5ef8208"
RIDGE = 0.01
N_USER_LEVELS = 5          # indicators besides the constant
N_ITEM_LEVELS = 4          # indicators besides the constant and item_feature_0


def read_csv(tar: tarfile.TarFile, member: str) -> pd.DataFrame:
    fh = tar.extractfile(member)
    if fh is None:
        raise FileNotFoundError(member)
    return pd.read_csv(io.BytesIO(fh.read()), index_col=0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--out", type=Path, default=ROOT / "lib" / "bai" / "data" / "obd")
    args = ap.parse_args(argv)

    digest = hashlib.sha256(args.source.read_bytes()).hexdigest()
    if digest != SOURCE_SHA256:
        raise SystemExit(f"{args.source}: sha256 {digest} differs from the expected {SOURCE_SHA256}")
    with tarfile.open(args.source) as tar:
        logs = [read_csv(tar, f"obd/{policy}/all/all.csv") for policy in ("random", "bts")]
        items = read_csv(tar, "obd/random/all/item_context.csv").set_index("item_id").sort_index()
        items_bts = read_csv(tar, "obd/bts/all/item_context.csv").set_index("item_id").sort_index()
    if not np.allclose(items["item_feature_0"], items_bts["item_feature_0"], rtol=0, atol=0):
        raise SystemExit("item_feature_0 differs between the random and bts item contexts")
    df = pd.concat(logs, ignore_index=True)

    # -- user vector: the user feature with the most levels of frequency >= 1% -----------------
    ufeats = [f"user_feature_{k}" for k in range(4)]
    freq = {f: df[f].value_counts(normalize=True) for f in ufeats}
    ufeat = max(ufeats, key=lambda f: ((freq[f] >= 0.01).sum(), -ufeats.index(f)))
    levels = sorted(freq[ufeat].index, key=lambda h: (-freq[ufeat][h], h))
    ind_levels = levels[1:1 + N_USER_LEVELS]
    group_of = {h: (1 + ind_levels.index(h) if h in ind_levels else 0) for h in levels}
    U = np.zeros((1 + N_USER_LEVELS, 1 + N_USER_LEVELS))
    U[:, 0] = 1.0
    for g in range(1, 1 + N_USER_LEVELS):
        U[g, g] = 1.0

    # -- item vector: the categorical item feature with the fewest levels ----------------------
    ifeats = ["item_feature_1", "item_feature_2", "item_feature_3"]
    ifeat = min(ifeats, key=lambda f: (items[f].nunique(), ifeats.index(f)))
    icount = items[ifeat].value_counts()
    ilevels = sorted(icount.index, key=lambda h: (-icount[h], h))
    i_ind = ilevels[1:1 + N_ITEM_LEVELS]
    Aitem = np.zeros((len(items), 2 + N_ITEM_LEVELS))
    Aitem[:, 0] = 1.0
    Aitem[:, 1] = items["item_feature_0"].to_numpy()
    for r, lv in enumerate(items[ifeat]):
        if lv in i_ind:
            Aitem[r, 2 + i_ind.index(lv)] = 1.0
    item_row = {iid: r for r, iid in enumerate(items.index)}

    # -- ridge fit on the pooled records ---------------------------------------------------------
    g = df[ufeat].map(group_of).to_numpy()
    rows = df["item_id"].map(item_row).to_numpy()
    Xrec = np.einsum("ni,nj->nij", U[g], Aitem[rows]).reshape(len(df), -1)
    y = 2.0 * df["click"].to_numpy(float) - 1.0
    d = Xrec.shape[1]
    theta = np.linalg.solve(Xrec.T @ Xrec + RIDGE * np.eye(d), Xrec.T @ y)

    # -- candidate arms: distinct (user group, item) pairs ---------------------------------------
    pairs = pd.DataFrame({"user_group": g, "item_id": df["item_id"].to_numpy(),
                          "click": df["click"].to_numpy()})
    stats = pairs.groupby(["user_group", "item_id"])["click"].agg(records="size", clicks="sum")
    full = pd.MultiIndex.from_product([range(U.shape[0]), items.index],
                                      names=["user_group", "item_id"])
    arms = stats.reindex(full, fill_value=0).reset_index()
    Xc = np.einsum("ni,nj->nij", U[arms["user_group"]],
                   Aitem[arms["item_id"].map(item_row)]).reshape(len(arms), -1)
    arms["p_hat"] = (1.0 + Xc @ theta) / 2.0

    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    share = df[ufeat].map(group_of).value_counts(normalize=True).sort_index()
    users = pd.DataFrame(U, columns=[f"u{k}" for k in range(U.shape[1])])
    users.insert(0, "user_group", range(U.shape[0]))
    users.insert(1, "level", ["reference"] + [h[:8] for h in ind_levels])
    users.insert(2, "share_of_records", share.reindex(range(U.shape[0])).to_numpy())
    users.to_csv(out / "user_vectors.csv", index=False, float_format="%.6g")
    itab = pd.DataFrame(Aitem, columns=[f"a{k}" for k in range(Aitem.shape[1])])
    itab.insert(0, "item_id", items.index)
    itab.to_csv(out / "item_vectors.csv", index=False, float_format="%.17g")
    pd.DataFrame({"coordinate": range(d), "u_index": np.arange(d) // Aitem.shape[1],
                  "a_index": np.arange(d) % Aitem.shape[1], "theta": theta}).to_csv(
        out / "theta.csv", index=False, float_format="%.17g")
    arms.to_csv(out / "arms.csv", index=False, float_format="%.17g")

    print(f"source sha256 ok ({digest[:12]}...); records {len(df):,}, clicks {int(y.__gt__(0).sum())}")
    print(f"user feature: {ufeat} (levels >= 1%: {(freq[ufeat] >= 0.01).sum()}); "
          f"item feature: {ifeat} ({items[ifeat].nunique()} levels)")
    print(f"theta: ||theta|| = {np.linalg.norm(theta):.4f}; fitted click probability over the "
          f"{len(arms)} candidates: min {arms.p_hat.min():.4f}, median {arms.p_hat.median():.4f}, "
          f"max {arms.p_hat.max():.4f}")
    for f in sorted(out.iterdir()):
        print(f"  wrote {f.relative_to(ROOT) if f.is_relative_to(ROOT) else f} "
              f"({f.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
