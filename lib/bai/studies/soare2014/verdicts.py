r"""What the chapter on Soare, Lazaric, Munos (NIPS 2014) hands its claims ledger.

The claim that judges a curve of Figure 4 (:func:`correct_spec`), its strategy
(:func:`strategy_of`) and glue key (:func:`glue_key`); Lemma 2's measures, one row per ledger row
(:func:`lemma2_measures`); Theorems 1-3's bounds against the runs, one row per claim and ``d``
(:func:`theorem_table`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...estimation import soare_c, soare_log_term
from ...reported import soare2014 as paper
from ...validation import check_delta
from .settings import ALPHA, DELTA, DELTA_MIN



def lemma2_measures(lem: pd.DataFrame, mab: pd.DataFrame) -> pd.DataFrame:
    r"""The measurements of Lemma 2's claims from :func:`lemma2_tables`: one row per ledger row,
    with its claim id (``spec``) and the fields of its statement (``fields``), the inequality in
    words, the settings it was computed with (``None``: no reading changes it) and the reading
    they define, the largest ratio of the inequality's two sides over the instances (``value``:
    at most 1 when it holds on every instance) and the share of instances on which it fails
    (``share``)."""
    P = paper.settings
    rows = [("soare.lemma2.range.upper", {}, "H_LB <= 4d / Delta_min^2", None,
             lem["H_LB"] / lem["upper"], len(lem))]
    for form, col, text, s in [
            ("as printed", "lower (printed)", "max_y ||y||^2 / (L Delta_min^2)", P()),
            ("per direction", "lower (L^2, per-direction gap)",
             "max_y ||y||^2 / (L^2 Delta(y)^2)", P(lemma2_lower="L^2, Delta(y)"))]:
        rows.append(("soare.lemma2.range.lower.{form}", {"form": form, "bound": text},
                     f"{text} <= H_LB", s, lem[col] / lem["H_LB"], len(lem)))
    for h_mab, col, s in [("suboptimal arms", "H_MAB (suboptimal arms)", P()),
                          ("best arm at Delta_min", "H_MAB (+ best arm at Delta_min)",
                           P(h_mab="best arm at Delta_min"))]:
        for side, text, ratio in [("lower", "H_MAB <= H_LB", mab[col] / mab["H_LB"]),
                                  ("upper", "H_LB <= 2 H_MAB", mab["H_LB"] / (2 * mab[col]))]:
            rows.append(("soare.lemma2.mab.{side}.{h_mab}",
                         {"side": side, "inequality": text, "h_mab": h_mab},
                         f"{text} (H_MAB: {h_mab})", s, ratio, len(mab)))
    return pd.DataFrame([
        {"spec": spec, "fields": fields, "inequality": text, "settings": s,
         "reading": paper.reading_name(s), "value": float(ratio.max()),
         "share": float(np.mean(ratio > 1 + paper.LEMMA2_TOL)), "instances": n}
        for spec, fields, text, s, ratio, n in rows])


def correct_spec(label: str) -> str:
    """The claim that judges whether the curve ``label`` returns the best arm: Lemma 1 for the
    oracle (Eq. 4), Lemma 3 for the static allocations (Eq. 11), Sec. 6 for the others."""
    if label == "XY-oracle":
        return "soare.lemma1.oracle_correct"
    if label in ("G", "XY"):
        return "soare.lemma3.correct.{alg}"
    return "soare.fig4.all_correct.{alg}"


def glue_key(prefix: str, label: str) -> str:
    """A glue key for a value of the curve ``label``: ``prefix`` and the label's words joined by
    underscores (``glue_key("slope", "XY-adaptive (paper)")`` is ``"slope_XY_adaptive_paper"``)."""
    import re

    return f"{prefix}_" + re.sub(r"\W+", "_", label).strip("_")


def strategy_of(label: str) -> str:
    """The strategy of a curve: ``"XY-adaptive"`` for ``"XY-adaptive (paper)"``."""
    return label.split(" (")[0]


def _bound(kind: str, n, d, const, delta):
    K = d + 1
    log_n = soare_log_term(n, K, delta)
    if kind == "static":                        # Theorems 1-2, beta = 0
        return const * soare_c() ** 2 * d * log_n / DELTA_MIN**2
    # Theorem 3, beta = 0: const = max{M*, (16 / alpha) N*}
    return const * np.log(soare_c() * np.sqrt(log_n) / DELTA_MIN) / math.log(1 / ALPHA)


def theorem_table(runs: pd.DataFrame, thm3: pd.DataFrame, delta: float = DELTA) -> pd.DataFrame:
    r"""Theorems 1 (G), 2 (XY) and 3 (both readings of XY-adaptive), :math:`\beta=0`: per
    theorem, curve and ``d``, the mean over the runs of each stopping time :math:`N` over its
    bound evaluated at :math:`N` (``ratio``, with its standard error), the largest such ratio
    and the runs above their bound (``above``). ``thm3`` is :func:`theorem3_constants`."""
    delta = check_delta(delta)
    specs = [("soare.thm1.bound.d{d}", "G", "static", paper.VALUES["thm1"]["constant"]),
             ("soare.thm2.bound.d{d}", "XY", "static", paper.VALUES["thm2"]["constant"])]
    specs += [("soare.thm3.bound.{alg}.d{d}", lab, "thm3", None)
              for lab in ("XY-adaptive (paper)", "XY-adaptive (no-reset)")]
    rows = []
    for spec, label, kind, const in specs:
        for d, g in runs[runs["label"] == label].groupby("d"):
            c = const if const is not None else float(thm3.loc[d, "max{M*, (16/alpha) N*}"])
            r = g["samples"].to_numpy(float) / _bound(kind, g["samples"].to_numpy(float), d, c,
                                                      delta)
            rows.append({"spec": spec, "label": label, "d": int(d), "ratio": float(r.mean()),
                         "se": float(r.std(ddof=1) / math.sqrt(r.size)) if r.size > 1 else 0.0,
                         "max ratio": float(r.max()), "above": int((r > 1).sum()),
                         "runs": int(r.size)})
    return pd.DataFrame(rows)
