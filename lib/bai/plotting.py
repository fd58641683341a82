"""One plotting style for the whole book.

Call :func:`set_style` once at the top of a chapter. Sample-complexity plots show means with
standard-error bars (:func:`errorbar_lines`) and, where a lower bound exists, draw it on the same
axes (:func:`lower_bound_line`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from .validation import as_vector, constraints

__all__ = ["set_style", "level_colors", "errorbar_lines", "lower_bound_line", "PALETTE"]

PALETTE = "colorblind"


@constraints(context="choice")
def set_style(context: str = "notebook") -> None:
    """The book's seaborn theme (white grid, colour-blind palette, readable sizes)."""
    if context not in ("paper", "notebook", "talk", "poster"):
        raise ValueError(f"context must be one of paper, notebook, talk, poster; got {context!r}")
    sns.set_theme(context=context, style="whitegrid", palette=PALETTE)
    plt.rcParams.update({
        "figure.figsize": (7.0, 4.2),
        "figure.dpi": 110,
        "savefig.bbox": "tight",
        "axes.titleweight": "bold",
        "legend.frameon": False,
    })


@constraints(levels="str")
def level_colors(levels) -> dict:
    """A fixed colour per level (e.g. per algorithm), so that every figure of a chapter uses the
    same colour for the same algorithm."""
    if isinstance(levels, (str, bytes)) or not hasattr(levels, "__iter__"):
        raise TypeError(f"levels must be an iterable of level names, got {type(levels).__name__}")
    levels = list(dict.fromkeys(levels))
    return dict(zip(levels, sns.color_palette(PALETTE, n_colors=max(len(levels), 1))))


@constraints(summary="frame", x="choice", logy="bool", markers="bool")
def errorbar_lines(summary: pd.DataFrame, *, x: str, hue: str, ax=None, mean: str = "mean",
                   se: str = "se", logy: bool = False, xlabel: str | None = None,
                   ylabel: str | None = None, markers: bool = True, colors: dict | None = None):
    """Plot one line per ``hue`` level: ``mean`` against ``x`` with +-1 standard-error bars.

    ``summary`` is a tidy table such as :func:`bai.experiments.summarise` returns; ``colors``
    (see :func:`level_colors`) fixes the colour of each level.
    """
    if not isinstance(summary, pd.DataFrame):
        raise TypeError(f"summary must be a DataFrame, got {type(summary).__name__}")
    for arg, col in (("x", x), ("hue", hue), ("mean", mean), ("se", se)):
        if not isinstance(col, str):
            raise TypeError(f"{arg} must be a column name (a string), got {col!r}")
        if col not in summary.columns:
            raise ValueError(f"{arg}: summary has no column {col!r}")
    if ax is not None and not hasattr(ax, "errorbar"):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    for arg, flag in (("logy", logy), ("markers", markers)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{arg} must be True or False, got {flag!r}")
    if colors is not None and not isinstance(colors, dict):
        raise TypeError(f"colors must be a dict level -> colour or None, got "
                        f"{type(colors).__name__}")
    if ax is None:
        _, ax = plt.subplots()
    levels = list(dict.fromkeys(summary[hue]))
    if colors is None:
        colors = level_colors(levels)
    missing = [lv for lv in levels if lv not in colors]
    if missing:
        raise ValueError(f"colors has no entry for {missing}")
    marker_cycle = ["o", "s", "^", "D", "v", "P", "X", "*"]
    order = list(colors)
    for level, sub in summary.groupby(hue, sort=False):
        k = order.index(level)
        sub = sub.sort_values(x)
        ax.errorbar(sub[x], sub[mean], yerr=sub[se], label=str(level), color=colors[level],
                    marker=marker_cycle[k % len(marker_cycle)] if markers else None,
                    capsize=3, linewidth=1.6, markersize=5)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(x if xlabel is None else xlabel)   # "" leaves the axis unlabelled
    ax.set_ylabel(mean if ylabel is None else ylabel)
    ax.legend()
    return ax


@constraints(x="array", y="array", label="str")
def lower_bound_line(ax, x, y, *, label: str = "lower bound", **kw):
    """Draw a lower bound as a dashed black line on ``ax``: ``x`` and ``y`` are 1-d arrays
    of finite real numbers of the same length (an infinite bound cannot be drawn: refused)."""
    if not hasattr(ax, "plot"):
        raise TypeError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    x, y = as_vector(x, "x"), as_vector(y, "y")
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {type(label).__name__}")
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
    style = {"color": "black", "linestyle": "--", "linewidth": 1.4, **kw}
    ax.plot(x, y, label=label, **style)
    ax.legend()
    return ax
