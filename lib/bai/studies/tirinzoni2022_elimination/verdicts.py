r"""The verdicts of the chapter on Tirinzoni & Degenne (2022): the measurements of its ledger's
rows, each on the claims of :data:`bai.reported.tirinzoni2022.CLAIMS`.

Each function returns its rows, a list of dicts: the row's ``id`` and the keyword arguments of
:meth:`bai.claims.ClaimsLedger.check` (the chapter records each, ``ledger.check(**row)``, in
the order given); a function that also builds a table for the chapter returns ``(rows, table)``.
None of them records anything.

* Table 1: every printed entry (:func:`table1_rows`), points (1)-(3) of Sec. 4 on counted work,
  samples and the native baselines (:func:`cost_rows`, :func:`sampling_rows`,
  :func:`native_rows`);
* Figure 1's sentences (:func:`figure1_left_rows`, :func:`figure1_middle_rows`,
  :func:`figure1_right_rows`: Theorems 2.6 and 2.7) and Theorem 2.4 with Lemma 2.3 on every run
  (:func:`theorem24_rows`); :func:`verdict_counts` sums up the recorded rows.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...reported import tirinzoni2022 as paper
from .settings import FIG1_RULES, HALVING_STEPS, RULES
from .tables import _fig1_records, _mse, _stop_matrix, excess_slopes, runs_long


def _slug(alg: str) -> str:
    return alg.lower().replace(" ", "_").replace("-", "")


def table1_rows(table: pd.DataFrame) -> list[dict]:
    """The headline and the single-draw evidence of every entry of Table 1 (Sec. 4; the
    convention of the chapter's section "How a printed number is judged").

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`table1_frame`'s table, one row per printed entry.

    Returns
    -------
    list of dict
        Two rows per entry, in the table's order: the headline
        (``td22.t1.{query}.{alg}.{col}``) and the closest single draw (``....single_draw``).
    """
    rows = []
    for row in table.to_dict("records"):
        entry = paper.TABLE1[(row["query"], row["alg"], row["col"])]
        f = dict(query=row["query"], alg=_slug(row["alg"]), col=row["col"],
                 query_name=paper.QUERIES[row["query"]], col_name=paper.COLUMNS[row["col"]],
                 algorithm=row["alg"], settings={"llr_factor": 0.5})
        rows.append(dict(id="td22.t1.{query}.{alg}.{col}", value=row["ours"],
                         se=row["se diff"], paper_value=entry["samples"], runs=row["runs"],
                         inst_sd=row["inst sd"], **f))
        rows.append(dict(id="td22.t1.{query}.{alg}.{col}.single_draw",
                         value=row["closest mean"], se=row["closest se"],
                         paper_value=entry["samples"], draw=row["closest draw"], **f))
    return rows


def verdict_counts(ledger, prefix) -> pd.DataFrame:
    """Verdicts of the ledger's rows whose id starts with ``prefix`` (a string or a tuple),
    by role."""
    df = ledger.to_frame()
    df = df[df["id"].str.startswith(prefix)]
    return df.groupby(["role", "verdict"]).size().unstack(fill_value=0)


# ---------------------------------------------------------------------------------------------
# Sample and cost claims of Sec. 4 on Table 1
# ---------------------------------------------------------------------------------------------


def _draw0(L: pd.DataFrame, q: str, alg: str, col: str) -> np.ndarray:
    sub = L[(L["query"] == q) & (L["alg"] == alg) & (L["column"] == col) & (L["draw"] == 0)]
    return sub["samples"].to_numpy(float) / 1e3


def _diff(a, b) -> tuple[float, float]:
    (ma, sa), (mb, sb) = _mse(a), _mse(b)
    return ma - mb, math.hypot(sa, sb)


def sampling_rows(runs: pd.DataFrame, native: pd.DataFrame) -> list[dict]:
    """Point (2) of Sec. 4 (ESS - ES <= 0 for every row with the third column) and the
    abstract's "never worse" (ESS - LLR <= 0), on the Table 1 draw, in thousands of samples
    (independent trajectories: the SE is that of a difference of two means).

    Parameters
    ----------
    runs, native : pandas.DataFrame
        The runs of the grids ``table1`` and ``native``.

    Returns
    -------
    list of dict
        Per rule with elimination at sampling, ``td22.t1.c2.{query}.{alg}`` then
        ``td22.abs.never_worse.{query}.{alg}``.
    """
    L = runs_long(runs, native)
    rows = []
    for q, rules in RULES.items():
        for alg, (_, ess) in rules.items():
            if not ess:
                continue
            f = dict(query=q, alg=_slug(alg), query_name=paper.QUERIES[q], algorithm=alg,
                     settings={"llr_factor": 0.5})
            ess_runs, es_runs, llr_runs = (_draw0(L, q, alg, c) for c in ("ess", "es", "llr"))
            v, se = _diff(ess_runs, es_runs)
            rows.append(dict(id="td22.t1.c2.{query}.{alg}", value=v, se=se,
                             scale=_mse(es_runs)[0], **f))
            v, se = _diff(ess_runs, llr_runs)
            rows.append(dict(id="td22.abs.never_worse.{query}.{alg}", value=v, se=se,
                             scale=_mse(llr_runs)[0], **f))
    return rows


def native_rows(runs: pd.DataFrame, native: pd.DataFrame) -> tuple[list[dict], pd.DataFrame]:
    """Point (3) of Sec. 4 on the Table 1 draw: RAGE the slowest in samples (its mean minus the
    largest other mean of best-arm identification), and the factor by which each adaptive
    algorithm with elimination at stopping and sampling beats it (RAGE / ESS, its SE by the
    delta method); the time claims are not comparable (our natives draw each block's reward
    sum at once: their time per sample is a simulator's).

    Parameters
    ----------
    runs, native : pandas.DataFrame
        The runs of the grids ``table1`` and ``native``.

    Returns
    -------
    rows : list of dict
        ``td22.t1.c3a.samples``, ``td22.t1.c3c.{alg}`` per rule, ``td22.t1.c3a.time`` and
        ``td22.t1.c3b.{alg}`` (not comparable), in that order.
    table : pandas.DataFrame
        RAGE / ESS samples and its SE, per algorithm.
    """
    L = runs_long(runs, native)
    rage = _draw0(L, "bai", "RAGE", "native")
    means = {(alg, col): _mse(_draw0(L, "bai", alg, col))
             for alg in [*RULES["bai"], "XY-Adaptive"]
             for col in ("llr", "es", "ess", "native") if _draw0(L, "bai", alg, col).size}
    (alg_max, col_max), (m_max, s_max) = max(means.items(), key=lambda kv: kv[1][0])
    mr, sr = _mse(rage)
    rows = [dict(id="td22.t1.c3a.samples", value=mr - m_max, se=math.hypot(sr, s_max),
                 scale=m_max, largest_other=f"{alg_max} ({col_max})", settings={"llr_factor": 0.5})]
    records = []
    for alg, (_, ess) in RULES["bai"].items():
        if not ess:
            continue
        me, se_e = means[(alg, "ess")]
        ratio = mr / me
        se = ratio * math.hypot(sr / mr, se_e / me)
        pv = paper.TABLE1
        rows.append(dict(id="td22.t1.c3c.{alg}", alg=_slug(alg), algorithm=alg, value=ratio,
                         se=se,
                         paper_value=_derived_ratio(pv[("bai", "RAGE", "native")]["samples"],
                                                   pv[("bai", alg, "ess")]["samples"]),
                         settings={"llr_factor": 0.5}))
        records.append({"algorithm": alg, "RAGE / ESS samples": ratio, "SE": se})
    rows.append(dict(id="td22.t1.c3a.time"))
    for alg in ("LinGapE", "LinGame", "FWS", "Lazy TaS"):
        rows.append(dict(id="td22.t1.c3b.{alg}", alg=_slug(alg), algorithm=alg))
    return rows, pd.DataFrame(records).set_index("algorithm")


def _derived_ratio(num, den):
    """The paper's own ratio of two printed numbers (a :class:`bai.claims.Derived`)."""
    from ...claims import Derived

    return Derived("RAGE / ESS", {"RAGE": num, "ESS": den})


def _paired(costs: pd.DataFrame, q: str, alg: str, a: str, b: str) -> tuple:
    """Mean and SE over runs of the per-run difference of work per sample, column ``a`` minus
    column ``b``, on the same trajectories (LLR and ES)."""
    df = costs.attrs["per_run"]
    sub = df[(df["query"] == q) & (df["alg"] == alg)]
    x = sub[sub["column"] == a].set_index("run")["work / sample"]
    y = sub[sub["column"] == b].set_index("run")["work / sample"]
    return _mse((x - y.reindex(x.index)).to_numpy(float))


def cost_rows(costs: pd.DataFrame) -> tuple[list[dict], pd.DataFrame]:
    """Point (1) of Sec. 4 judged on **counted work** per sample (:func:`cost_frame`: the column's
    stopping-rule minimisations plus the sampling rule's piece evaluations, over the samples),
    never on a clock: the work per sample falls from LLR to elimination stopping
    (``td22.t1.c1.llr_to_es``, every adaptive row: the row with the largest ES - LLR
    difference decides; paired on one trajectory), again with elimination at sampling (ESS - ES,
    row by row: ``td22.t1.c1.{query}.{alg}``), and for top-m by at least a factor two from LLR
    to ESS for most algorithms (the second smallest of the four ratios:
    ``td22.t1.c1b.topm_twice``, its SE by the delta method). The CPU times of
    :func:`cost_frame` are shown beside, as evidence.

    Parameters
    ----------
    costs : pandas.DataFrame
        :func:`cost_frame`'s table (its ``attrs["per_run"]``: the work per run).

    Returns
    -------
    rows : list of dict
        ``td22.t1.c1.{query}.{alg}`` per rule with elimination at sampling, then
        ``td22.t1.c1.llr_to_es`` and (with two top-m ratios or more) ``td22.t1.c1b.topm_twice``.
    table : pandas.DataFrame
        Work per sample per column, the differences and ratios with their SEs, the CPU times,
        per query and algorithm.
    """
    f = {"settings": {"llr_factor": 0.5}}
    rows, records, diffs = [], [], []
    for q, rules in RULES.items():
        for alg, (_, ess) in rules.items():
            have = lambda col: (q, alg, col) in costs.index and \
                np.isfinite(costs.loc[(q, alg, col), "work / sample"])
            if not (have("llr") and have("es")):
                continue
            llr, es = costs.loc[(q, alg, "llr")], costs.loc[(q, alg, "es")]
            d_es, se_es = _paired(costs, q, alg, "es", "llr")
            diffs.append((d_es, se_es, q, alg, llr["work / sample"]))
            row = {"query": q, "algorithm": alg, "LLR": llr["work / sample"],
                   "ES": es["work / sample"], "ES - LLR": d_es, "se (ES - LLR)": se_es}
            if ess and have("ess"):
                e = costs.loc[(q, alg, "ess")]
                d = e["work / sample"] - es["work / sample"]
                se = math.hypot(e["se"], es["se"])
                rows.append(dict(id="td22.t1.c1.{query}.{alg}", query=q, alg=_slug(alg),
                                 algorithm=alg, query_name=paper.QUERIES[q], value=float(d),
                                 se=float(se), scale=float(es["work / sample"]), **f))
                r = llr["work / sample"] / e["work / sample"]
                row.update({"ESS": e["work / sample"], "ESS - ES": d, "se (ESS - ES)": se,
                            "LLR / ESS": r,
                            "se (LLR / ESS)": r * math.hypot(llr["se"] / llr["work / sample"],
                                                             e["se"] / e["work / sample"])})
            row.update({"CPU ms / sample (stop)": llr["CPU ms / sample"],
                        "CPU ms / sample (ESS)": costs.loc[(q, alg, "ess"), "CPU ms / sample"]
                        if (q, alg, "ess") in costs.index else np.nan})
            records.append(row)
    if diffs:
        d, se, q, alg, base = max(diffs, key=lambda x: x[0])
        rows.append(dict(id="td22.t1.c1.llr_to_es", value=float(d), se=float(se),
                         scale=float(base), query=q,
                         algorithm=alg, rows=len(diffs), **f))
    else:
        rows.append(dict(id="td22.t1.c1.llr_to_es", value=None,
                         reason="no counted work in these results (stored before the engine "
                                "counted it)", **f))
    df = pd.DataFrame(records)
    top = df.iloc[0:0]
    if "LLR / ESS" in df:
        top = df[(df["query"] == "topm") & df["LLR / ESS"].notna()].sort_values("LLR / ESS")
    if len(top) >= 2:
        second = top.iloc[1]
        rows.append(dict(id="td22.t1.c1b.topm_twice", value=float(second["LLR / ESS"]),
                         se=float(second["se (LLR / ESS)"]), algorithm=second["algorithm"], **f))
    return rows, df.set_index(["query", "algorithm"])


def _curve_at(curves: pd.DataFrame, label: str, t: int):
    c = curves[curves["variant"] == label]
    if c.empty:
        return None
    row = c.iloc[(c["t"] - t).abs().argmin()]
    return float(row["mean"]), float(row["se"]), int(row["K"])


def figure1_left_rows(curves: pd.DataFrame, fig1: pd.DataFrame,
                      P) -> tuple[list[dict], pd.DataFrame]:
    """Sec. 4's sentences on Figure 1 (left), and Theorem 2.6's early eliminations: the
    fraction of active arms at t = 3000 (the third smallest of five), the oracle against the
    others (mean active arms over the common plotted steps), the time at which half the arms
    are gone over the stopping time.

    Parameters
    ----------
    curves : pandas.DataFrame
        :func:`active_curves`'s mean active arms per variant and step.
    fig1 : pandas.DataFrame
        The runs of the grid ``figure1``.
    P : mapping
        The chapter's parameters (its ``delta``).

    Returns
    -------
    rows : list of dict
        ``td22.fig1l.halve``, ``td22.fig1l.oracle_slowest`` and (with runs that halve their
        arms) ``td22.thm26.early``; without the curves, the three rows with no value and why.
    table : pandas.DataFrame
        Active arms at t = 3000 and over the plotted steps, per baseline (empty without the
        curves).
    """
    if curves.empty or not set(FIG1_RULES) <= set(curves["variant"]):
        why = ("the library's engine does not report when each piece is eliminated (requested "
               "from issue 28): the active-arm curves cannot be drawn")
        return [dict(id=cid, value=None, reason=why, settings={"llr_factor": 0.5})
                for cid in ("td22.fig1l.halve", "td22.fig1l.oracle_slowest",
                            "td22.thm26.early")], pd.DataFrame()
    records = []
    tmax = curves.groupby("variant")["t"].max().reindex(FIG1_RULES).min()
    for alg in FIG1_RULES:
        at = _curve_at(curves, alg, HALVING_STEPS)
        c = curves[(curves["variant"] == alg) & (curves["t"] <= tmax)]
        records.append({"baseline": alg, "active at t = 3000": at[0], "se": at[1],
                        "fraction": at[0] / at[2], "fraction se": at[1] / at[2],
                        "mean active (plotted steps)": c["mean"].mean(),
                        "se (plotted steps)": math.sqrt((c["se"] ** 2).mean() / len(c))})
    df = pd.DataFrame(records).set_index("baseline")
    third = df.sort_values("fraction").iloc[2]
    rows = [dict(id="td22.fig1l.halve", value=third["fraction"], se=third["fraction se"],
                 baseline=third.name, settings={"llr_factor": 0.5})]
    others = df.drop("Oracle")
    top = others["mean active (plotted steps)"].idxmax()
    rows.append(dict(id="td22.fig1l.oracle_slowest",
                     value=df.loc["Oracle", "mean active (plotted steps)"] -
                     others.loc[top, "mean active (plotted steps)"],
                     se=math.hypot(df.loc["Oracle", "se (plotted steps)"],
                                  others.loc[top, "se (plotted steps)"]),
                     scale=others.loc[top, "mean active (plotted steps)"],
                     slowest_other=top, settings={"llr_factor": 0.5}))
    ratios = []
    j = None
    for alg in FIG1_RULES:
        for rec in _fig1_records(fig1, alg, "stop"):
            j = rec["deltas"].index(float(P["delta"]))
            for times, stops in zip(rec.get("elim_sel", []), rec["sel"]):
                t = np.sort(np.asarray(times)[np.asarray(times) > 0])
                K = len(times)
                if t.size >= K // 2 and stops[j] > 0:
                    ratios.append(t[K // 2 - 1] / stops[j])
    if ratios:
        m, se = _mse(np.array(ratios))
        rows.append(dict(id="td22.thm26.early", value=m, se=se, runs=len(ratios),
                         settings={"llr_factor": 0.5}))
    return rows, df


def figure1_middle_rows(curves: pd.DataFrame, fig1: pd.DataFrame, P) -> list[dict]:
    """Sec. 4's sentences on Figure 1 (middle), LinGame: full elimination discards arms faster
    early (mean difference of active arms over t <= 3000), never stops earlier than selective,
    and elimination at sampling stops sooner.

    Parameters
    ----------
    curves : pandas.DataFrame
        :func:`active_curves`'s mean active arms per variant and step.
    fig1 : pandas.DataFrame
        The runs of the grid ``figure1``.
    P : mapping
        The chapter's parameters (its ``delta``).

    Returns
    -------
    list of dict
        ``td22.fig1m.full_early.{sampling}`` (elimination at stopping, then at stopping and
        sampling), ``td22.fig1m.not_earlier.{sampling}`` (the same two) and
        ``td22.fig1m.sampling_sooner``.
    """
    f = {"settings": {"llr_factor": 0.5}}
    rows = []
    if curves.empty:
        curves = pd.DataFrame(columns=["variant", "t", "mean", "se", "K"])
    early = lambda lab: curves[(curves["variant"] == lab) & (curves["t"] <= HALVING_STEPS)]
    for sampling, (full, sel) in {
            "stopping": ("LinGame full (stopping)", "LinGame"),
            "sampling": ("LinGame full (stopping + sampling)",
                         "LinGame selective (stopping + sampling)")}.items():
        a, b = early(full), early(sel)
        n = min(len(a), len(b))
        name = {"stopping": "elimination at stopping", "sampling": "at stopping and sampling"}
        if not n:
            rows.append(dict(id="td22.fig1m.full_early.{sampling}", sampling=sampling,
                             sampling_name=name[sampling], value=None,
                             reason="the library's engine does not report when each piece is "
                                    "eliminated (requested from issue 28)", **f))
        if n:
            d = a["mean"].to_numpy()[:n] - b["mean"].to_numpy()[:n]
            se = math.sqrt(((a["se"].to_numpy()[:n] ** 2 + b["se"].to_numpy()[:n] ** 2)).mean()
                           / n)
            rows.append(dict(id="td22.fig1m.full_early.{sampling}", sampling=sampling,
                             sampling_name=name[sampling], value=float(d.mean()), se=se,
                             scale=float(b["mean"].to_numpy()[:n].mean()), **f))
    X, deltas = _stop_matrix(fig1, "LinGame", "stop", "sel")
    Xf, _ = _stop_matrix(fig1, "LinGame", "stop", "full")
    j = deltas.index(float(P["delta"]))
    v, se = _mse(Xf[:, j] - X[:, j])                 # paired: one trajectory
    rows.append(dict(id="td22.fig1m.not_earlier.{sampling}", sampling="stopping",
                     sampling_name="elimination at stopping", value=v, se=se,
                     scale=float(X[:, j].mean()), **f))
    E, _ = _stop_matrix(fig1, "LinGame", "ess", "ess")
    Ef, _ = _stop_matrix(fig1, "LinGame", "ess-full", "ess-full")
    v, se = _diff(Ef[:, 0], E[:, 0])
    rows.append(dict(id="td22.fig1m.not_earlier.{sampling}", sampling="sampling",
                     sampling_name="at stopping and sampling", value=v, se=se,
                     scale=float(E[:, 0].mean()), **f))
    v, se = _diff(E[:, 0], X[:, j])
    rows.append(dict(id="td22.fig1m.sampling_sooner", value=v, se=se,
                     scale=float(X[:, j].mean()), **f))
    return rows


def _slope(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    A = np.vstack([x, np.ones_like(x)]).T
    coef, res, *_ = np.linalg.lstsq(A, y, rcond=None)
    n = x.size
    s2 = float(res[0]) / (n - 2) if res.size and n > 2 else 0.0
    se = math.sqrt(s2 / float(((x - x.mean()) ** 2).sum())) if n > 2 else 0.0
    return float(coef[0]), se


def figure1_right_rows(ratios: pd.DataFrame, fig1: pd.DataFrame = None) -> list[dict]:
    """Theorem 2.7 / Figure 1 (right): for each baseline the slope of the excess ratio - 1 on
    log log(1/delta), per run (:func:`excess_slopes`), its mean and SE over the runs (at most
    0: the excess shrinks; without ``fig1``, the slope of the mean ratios' excess, its SE from
    the residuals), and LinGapE and FWS below the others (their larger mean ratio over the
    deltas minus the smallest of the others').

    Parameters
    ----------
    ratios : pandas.DataFrame
        :func:`ratio_frame`'s mean ratio tau_llr / tau_elim per baseline and delta.
    fig1 : pandas.DataFrame, optional
        The runs of the grid ``figure1`` (the slopes per run); without it, the slope of the
        mean ratios.

    Returns
    -------
    list of dict
        ``td22.fig1r.to_one.{alg}`` per baseline, then ``td22.fig1r.greedy``.
    """
    f = {"settings": {"llr_factor": 0.5}}
    means, rows = {}, []
    for alg in FIG1_RULES:
        r = ratios[ratios["baseline"] == alg]
        if r.empty:
            continue
        slopes = excess_slopes(fig1, alg) if fig1 is not None else np.empty(0)
        if slopes.size > 1:
            b, se = _mse(slopes)
        else:
            b, se = _slope(np.log(r["log(1/delta)"].to_numpy()), r["ratio"].to_numpy() - 1.0)
        rows.append(dict(id="td22.fig1r.to_one.{alg}", alg=_slug(alg), algorithm=alg, value=b,
                         se=se, runs=int(slopes.size) if slopes.size > 1 else None, **f))
        means[alg] = (float(r["ratio"].mean()), math.sqrt(float((r["se"] ** 2).mean())
                                                          / len(r)))
    greedy = max(("LinGapE", "FWS"), key=lambda a: means[a][0])
    other = min((a for a in means if a not in ("LinGapE", "FWS")), key=lambda a: means[a][0])
    rows.append(dict(id="td22.fig1r.greedy", value=means[greedy][0] - means[other][0],
                     se=math.hypot(means[greedy][1], means[other][1]),
                     scale=means[other][0], greedy=greedy,
                     other=other, **f))
    return rows


def theorem24_rows(runs: pd.DataFrame, fig1: pd.DataFrame,
                   P) -> tuple[list[dict], pd.DataFrame]:
    """Theorem 2.4 on every trajectory without elimination at sampling (Table 1 and Figure 1):
    the runs violating tau_sel <= tau_llr and tau_full <= tau_sel per query (a statement on
    every run: ``failures``; the largest difference kept beside), and Lemma 2.3's error rate
    over every run that stopped by elimination.

    Parameters
    ----------
    runs : pandas.DataFrame
        The runs of the grid ``table1``.
    fig1 : pandas.DataFrame
        The runs of the grid ``figure1``.
    P : mapping
        The chapter's parameters.

    Returns
    -------
    rows : list of dict
        ``td22.thm24.{query}.{pair}`` per query and order, then ``td22.lemma23.error``.
    table : pandas.DataFrame
        The largest violation and the runs strictly earlier, per query and order.
    """
    rows, records = [], []
    for q in RULES:
        sub = runs[(runs["query"] == q) & (runs["mode"] == "stop")]
        llr = np.concatenate([np.asarray(x) for x in sub["samples_llr"]])
        sel = np.concatenate([np.asarray(x) for x in sub["samples_es"]])
        full = np.concatenate([np.asarray(x) for x in sub["samples_full"]])
        if q == "bai":
            for alg in FIG1_RULES:
                L, _ = _stop_matrix(fig1, alg, "stop", "llr")
                S, _ = _stop_matrix(fig1, alg, "stop", "sel")
                F, _ = _stop_matrix(fig1, alg, "stop", "full")
                if L is not None:
                    llr, sel, full = (np.concatenate([llr, L.ravel()]),
                                      np.concatenate([sel, S.ravel()]),
                                      np.concatenate([full, F.ravel()]))
        for pair, (a, b, name) in {"sel_llr": (sel, llr, "tau_sel <= tau_llr"),
                                   "full_sel": (full, sel, "tau_full <= tau_sel")}.items():
            worst = float((a - b).max())
            rows.append(dict(id="td22.thm24.{query}.{pair}", query=q, pair=pair,
                             query_name=paper.QUERIES[q], pair_name=name, value=worst, se=0.0,
                             failures=int((a > b).sum()), runs=int(a.size),
                             strict=int((a < b).sum()),
                             settings={"llr_factor": 0.5}))
            records.append({"query": q, "order": name, "runs": a.size,
                            "largest violation": worst, "strictly earlier": int((a < b).sum())})
    L = runs_long(runs, runs.iloc[0:0])
    el = L[L["column"].isin(["es", "ess"])]
    rows.append(dict(id="td22.lemma23.error", failures=int((~el["correct"]).sum()),
                     runs=len(el), settings={"llr_factor": 0.5}))
    return rows, pd.DataFrame(records)
