r"""The rows the ledger checks in the chapter on RAGE (Fiez, Jain, Jamieson, Ratliff,
NeurIPS 2019).

The measurements of the claims, one function per section of the chapter (``*_claims``), each
returning the keyword arguments of its ledger rows, the settings of the row's runs included:
ratios, differences and log-log slopes (:func:`loglog_slope`) with their standard errors, error
counts; Proposition 1 (:func:`prop1_claim`), Lemma 1 (:func:`lemma1_claims`), Proposition 2
(:func:`rounding_claims`), the worked example (:func:`ex31_claims`), Fig. 1b's spreads
(:func:`spread_claims`), the figures (:func:`figure_claims`), the error rates
(:func:`error_claims`), Theorem 2's bound (:func:`psi_bound`, :func:`bounds_claims`) and Lemmas
2-3 (:func:`lemma23_claims`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...algorithms import rage as RG
from ...reported import fiez2019 as REP
from .settings import DELTA, EPSILON, FIG_METHODS, LB_FACTOR, PRINTED_SETTINGS, SPREAD_SETTINGS
from .settings import _FIG_CODE  # private, crosses modules (issue 35)


def loglog_slope(x, y, se=None) -> tuple[float, float]:
    """Least-squares slope of ``log y`` on ``log x`` and its standard error, propagated from the
    standard errors ``se`` of the points (``se / y`` on the log scale; independent points);
    ``(slope, 0.0)`` without ``se``."""
    lx = np.log(np.asarray(x, dtype=float))
    y = np.asarray(y, dtype=float)
    if lx.size < 2 or np.any(y <= 0) or lx.size != y.size:
        raise ValueError(f"loglog_slope needs two or more positive points, got x={x!r}, y={y!r}")
    c = lx - lx.mean()
    w = c / (c @ c)
    slope = float(w @ np.log(y))
    if se is None:
        return slope, 0.0
    s_log = np.asarray(se, dtype=float) / y
    return slope, float(np.sqrt(np.sum((w * s_log) ** 2)))


def prop1_claim(prop1: pd.DataFrame) -> dict:
    r"""Claim ``rage.prop1.static_factor_d``: the log-log slope in d of (the best static design
    serving every :math:`\theta=e_j`) / (:math:`\psi^*` d), deterministic (no SE): a static
    design loses a factor d when it is flat."""
    slope, _ = loglog_slope(prop1.index.to_numpy(float), prop1["ratio / d"].to_numpy())
    return {"value": slope, "se": 0.0}


def lemma1_claims(lemma1: pd.DataFrame) -> list[dict]:
    """The rows of Lemma 1 and of the gauge statements of Sec. 3.1 (deterministic: no SE)."""
    t = lemma1
    one = t[(t["scale"] == 1.0) & (t["Y"] == "{e1 - z'}")]
    first = t[(t["scale"] == 1.0) & (t["Y"] == "Y(X)")].sort_values("alpha")
    sq = {**PRINTED_SETTINGS, **REP.READINGS["lemma 1 squared"].settings}
    g_sin = one["gamma"] * np.sin(one["alpha"])
    return [
        dict(id="rage.lemma1.lower.{norm}", norm="max-norm", settings=dict(PRINTED_SETTINGS),
             value=float((t["lower (printed)"] / t["rho"]).max()), se=0.0),
        dict(id="rage.lemma1.lower.{norm}", norm="max-norm-squared", settings=sq,
             value=float((t["lower (squared)"] / t["rho"]).max()), se=0.0),
        dict(id="rage.lemma1.upper", value=float((t["rho"] / t["d / gamma^2"]).max()), se=0.0),
        dict(id="rage.lemma1.singleton",
             value=float((t.loc[t["Y"] == "{e1 - z'}", "rho"]
                          / t.loc[t["Y"] == "{e1 - z'}", "1 / gamma^2"]).max()), se=0.0),
        dict(id="rage.ex31.gauge", value=float(g_sin.min()), se=0.0),
    ] + ([dict(id="rage.ex31.gauge_first",
               value=loglog_slope(first["alpha"], first["gamma"])[0], se=0.0)]
         if len(first) > 1 else [])


def rounding_claims(rounding: pd.DataFrame) -> list[dict]:
    """The two rows of Proposition 2: the largest ratio to each bound (deterministic)."""
    r2 = (rounding["ratio"] / rounding["bound"]).max()
    rd = (rounding["ratio"] / rounding["bound_d2"]).max()
    return [dict(id="rage.round.prop2.{part}", part="N >= 2p", slack="2p", value=float(r2),
                 se=0.0),
            dict(id="rage.round.prop2.{part}", part="N >= d^2 + d + 2", slack="(d^2 + d + 2)",
                 value=float(rd), se=0.0)]


def ex31_claims(ex31: pd.DataFrame, ex31_d: pd.DataFrame) -> list[dict]:
    """The rows of the worked example: the log-log slopes of static / RAGE in 1/alpha (flat:
    both counts scale like 1/alpha^2) and in d (the gain grows with d), their SEs propagated
    from the runs; and the runs keeping more than two arms after round 1."""
    s_a = loglog_slope(1.0 / ex31.index.to_numpy(float), ex31["static / RAGE"],
                       ex31["static / RAGE se"])
    s_d = loglog_slope(ex31_d.index.to_numpy(float), ex31_d["static / RAGE"],
                       ex31_d["static / RAGE se"])
    return [dict(id="rage.ex31.adaptive_gain.{sweep}", sweep="alpha", value=s_a[0], se=s_a[1]),
            dict(id="rage.ex31.gain_grows_with_d", value=s_d[0], se=s_d[1]),
            dict(id="rage.ex31.first_round",
                 failures=int(ex31["runs with > 2 arms after round 1"].sum()),
                 runs=int(ex31["runs"].sum()))]


def spread_claims(spread: pd.DataFrame) -> list[dict]:
    """Claim ``rage.fig1b.expected_gap`` as printed (variance) and as coded (an alternative)."""
    return [dict(id="rage.fig1b.expected_gap.{spread}", spread=SPREAD_SETTINGS[k]["fig1b_angles"],
                 value=float(spread.loc[k, "mean gap"]), se=float(spread.loc[k, "mean gap se"]),
                 settings=SPREAD_SETTINGS[k]) for k in ("variance", "code")]


def _settings_of(runs: pd.DataFrame, fig: str | None = None) -> dict:
    """The one reading's settings the runs (of figure ``fig``) ran under."""
    r = runs if fig is None else runs[runs["fig"] == fig]
    keys = set(r["reading"])
    if len(keys) != 1:
        raise ValueError(f"the runs mix readings {sorted(keys)}: judge them apart")
    key = keys.pop()
    return dict(PRINTED_SETTINGS) if key == "printed" else dict(SPREAD_SETTINGS["code"])


def _cell(summ: pd.DataFrame, fig: str, m: str, x) -> tuple[float, float]:
    row = summ[(summ["fig"] == fig) & (summ["method"] == m) & (summ["x"] == x)].iloc[0]
    return float(row["mean"]), float(row["se"])


def _ratio(a, b) -> tuple[float, float]:
    """Ratio of two independent means ``(mean, se)``, with its delta-method SE."""
    q = a[0] / b[0]
    return q, q * float(np.hypot(a[1] / a[0], b[1] / b[0]))


def _diff(a, b) -> tuple[float, float]:
    """Difference of two independent means ``(mean, se)``, with its SE."""
    return a[0] - b[0], float(np.hypot(a[1], b[1]))


def _paired_ratio(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Ratio of the means of paired samples (one per instance), delta-method SE with their
    covariance."""
    n = a.size
    q = a.mean() / b.mean()
    ca = np.cov(np.vstack([a, b]), ddof=1) / n
    var = (ca[0, 0] - 2 * q * ca[0, 1] + q * q * ca[1, 1]) / b.mean() ** 2
    return float(q), float(np.sqrt(max(var, 0.0)))


def figure_claims(summ: pd.DataFrame, runs: pd.DataFrame, fig: str) -> list[dict]:
    """The rows of figure ``fig``'s claims: ratios and differences of mean counts with their
    SEs (independent runs; paired on the instances for Fig. 2a) and log-log slopes, each with
    the settings its runs ran under; a difference carries the compared mean as its ``scale``
    (its effect is a tenth of it: ``bai.claims.EFFECT_PRINCIPLES``)."""
    st = _settings_of(runs, fig)
    xs = sorted(summ.loc[summ["fig"] == fig, "x"].unique())
    c = {(m, x): _cell(summ, fig, m, x) for m in FIG_METHODS[fig] for x in xs
         if ((summ["fig"] == fig) & (summ["method"] == m) & (summ["x"] == x)).any()}
    rows = []

    def add(cid, v, **kw):
        rows.append(dict(id=cid, value=float(v[0]), se=float(v[1]), settings=st, **kw))

    if fig == "1a":
        for x in xs:
            add("rage.fig1a.rage_near_oracle.d{x}", _ratio(c["RAGE", x], c["XY-oracle", x]), x=x)
            best = min(("XY-adaptive", "LinGapE", "ALBA"), key=lambda m: c[m, x][0])
            add("rage.fig1a.rage_near_existing.d{x}", _ratio(c["RAGE", x], c[best, x]), x=x,
                best=best)
            add("rage.fig1a.xyadaptive_equal.d{x}", _ratio(c["XY-adaptive", x], c["RAGE", x]),
                x=x)
            worst = max(("RAGE", "XY-adaptive", "LinGapE"), key=lambda m: c[m, x][0])
            add("rage.fig1a.alba_worst_adaptive.d{x}", _diff(c["ALBA", x], c[worst, x]), x=x,
                other=worst, scale=c[worst, x][0])
            add("rage.fig1a.static_worst.d{x}", _diff(c["XY-static", x], c["RAGE", x]), x=x,
                scale=c["RAGE", x][0])
        add("rage.fig1a.lingape_small_d", _ratio(c["LinGapE", xs[0]], c["RAGE", xs[0]]),
            d=xs[0])
        lr = [_ratio(c["LinGapE", x], c["RAGE", x]) for x in xs]
        add("rage.fig1a.lingape_degrades_with_d",
            loglog_slope(xs, [v for v, _ in lr], [e for _, e in lr]))
    elif fig == "1b":
        lg = [c["LinGapE", x] for x in xs]
        s_lg = loglog_slope(xs, [m / x for (m, _), x in zip(lg, xs)],
                            [e / x for (_, e), x in zip(lg, xs)])
        add("rage.fig1b.lingape_linear_in_arms", s_lg)
        ra = [c["RAGE", x] for x in xs]
        s_ra = loglog_slope(xs, [m for m, _ in ra], [e for _, e in ra])
        s_lg1 = (s_lg[0] + 1.0, s_lg[1])      # LinGapE's own slope (of its count, not / n)
        add("rage.fig1b.rage_flat_in_arms", _diff(s_ra, s_lg1), rage_slope=s_ra[0],
            lingape_slope=s_lg1[0])
    elif fig == "1c":
        for x in xs:
            add("rage.fig1c.rage_beats_alba.n{x}", _diff(c["ALBA", x], c["RAGE", x]), x=x,
                scale=c["RAGE", x][0])
    elif fig == "1d":
        for x in xs:
            add("rage.fig1d.rage_beats_static.d{x}", _diff(c["XY-static", x], c["RAGE", x]), x=x,
                scale=c["RAGE", x][0])
            add("rage.fig1d.rage_near_oracle.d{x}", _ratio(c["RAGE", x], c["XY-oracle", x]), x=x)
    elif fig == "2a":
        r = runs[runs["fig"] == "2a"]
        for x in xs:
            w = r[r["x"] == x].pivot_table(index="instance", columns="method", values="samples")
            add("rage.fig2a.rage_near_oracle.D{x}",
                _paired_ratio(w["RAGE"].to_numpy(float), w["XY-oracle"].to_numpy(float)), x=x)
        for m in ("LinGapE", "ALBA", "XY-static"):
            add("rage.fig2a.others_grow.{method}",
                loglog_slope(xs, [c[m, x][0] for x in xs], [c[m, x][1] for x in xs]), method=m)
    elif fig == "2b":
        x = xs[0]
        others = [m for m in FIG_METHODS["2b"] if m not in ("RAGE", "XY-oracle")]
        best = min(others, key=lambda m: c[m, x][0])
        add("rage.fig2b.rage_good", _diff(c["RAGE", x], c[best, x]), other=best,
            scale=c[best, x][0])
        rows.append(dict(id="rage.fig2b.mean_range", settings=st, se=0.0,
                         value=float(runs.loc[runs["fig"] == "2b", "max_mean"].max())))
    else:
        raise ValueError(f"fig must be one of {list(_FIG_CODE)}, got {fig!r}")
    return rows


#: The figures run under their printed reading, pooled by the error rows (1b runs the authors'
#: code's instance, 2b substitute data).
_ERROR_FIGS = ("1a", "1c", "1d", "2a")


def error_claims(runs: pd.DataFrame) -> list[dict]:
    """The error rows: every method's failure rate over the printed figures with its binomial SE
    (the paper's 'zero'; XY-oracle's as evidence: it can only return z*), every method's error
    rate against delta pooled over the same figures (evidence), and Theorem 2's for RAGE."""
    r = runs[runs["fig"].isin(_ERROR_FIGS)]
    st = _settings_of(r)
    rows = []
    for m, g in r.groupby("method", sort=False):
        k, n = int((~g["correct"].astype(bool)).sum()), int(len(g))
        p = k / n
        extra = {} if m != "XY-oracle" else dict(
            role="evidence", note="XY-oracle tests z* alone, so it can only return z*: its zero "
                                  "is not evidence")
        rows.append(dict(id="rage.zero_failures.{method}", method=m, value=p,
                         se=float(np.sqrt(p * (1 - p) / n)), failures_count=k, runs_count=n,
                         settings=st, **extra))
        rows.append(dict(id="rage.correct.{method}", method=m, failures=k, runs=n, settings=st))
    g = r[r["method"] == "RAGE"]
    rows.append(dict(id="rage.thm2.correct", failures=int((~g["correct"].astype(bool)).sum()),
                     runs=int(len(g)), settings=st))
    return rows


def psi_bound(row) -> float:
    r"""App. A's bound :math:`128\psi^*(1+\epsilon)L\log(L^2|\mathcal Z|^2/\delta)+(1+r(\epsilon))L`
    with :math:`L=\log_2(4/\Delta_{\min})` at one run's instance (``row`` of
    :func:`tidy_runs`; :math:`r(\epsilon)` at Caratheodory's support, ASSUMED as in
    :func:`bai.algorithms.rage.theorem2_bound`)."""
    L = math.log2(4.0 / row["min_gap"])
    psi = row["lb"] / LB_FACTOR
    p = min(int(row["K"]), int(row["d"]) * (int(row["d"]) + 1) // 2 + 1)
    c = REP.VALUES["thm2"]["constant"]
    return (c * psi * (1 + EPSILON) * L * math.log(L**2 * row["n_items"] ** 2 / DELTA)
            + (1 + RG.r_epsilon(p, EPSILON)) * L)


def bounds_claims(runs: pd.DataFrame) -> list[dict]:
    """The rows of Theorems 1 and 2: per figure the smallest mean count of a delta-PAC method
    (XY-oracle knows theta*: it is not one) over Theorem 1's bound with its SE, the book's
    check against the Gaussian bound (twice it), and the runs of RAGE that are wrong or above
    Theorem 2's bounds (the phase sum where computed, App. A's closed form on Figs. 1a-1d)."""
    rows = []
    pac = runs[(runs["method"] != "XY-oracle") & runs["fig"].isin(["1a", "1b", "1c", "1d", "2a"])]
    r = pac.assign(q=pac["samples"] / pac["lb"])
    g = r.groupby(["fig", "method", "x"])["q"].agg(["mean", "std", "count"])
    g["se"] = (g["std"] / np.sqrt(g["count"])).fillna(0.0)
    for fig in ["1a", "1b", "1c", "1d", "2a"]:
        if fig not in g.index.get_level_values(0):
            continue
        w = g.loc[fig]
        at = w["mean"].idxmin()
        rows.append(dict(id="rage.thm1.lb.{fig}", fig=fig, value=float(w.loc[at, "mean"]),
                         se=float(w.loc[at, "se"]), method=at[0], x=at[1],
                         settings=_settings_of(runs, fig)))
    gp = g.loc[[f for f in _ERROR_FIGS if f in g.index.get_level_values(0)]]
    at = gp["mean"].idxmin()
    rows.append(dict(id="rage.thm1.lb_gaussian", value=float(gp.loc[at, "mean"]) / 2,
                     se=float(gp.loc[at, "se"]) / 2, where=str(at),
                     settings=_settings_of(runs[runs["fig"].isin(_ERROR_FIGS)])))
    ra = runs[runs["method"] == "RAGE"]
    for fig in ["1a", "1d"]:
        t = ra[(ra["fig"] == fig) & ra["thm2"].notna()]
        if len(t):
            bad = (~t["correct"].astype(bool)) | (t["samples"] > t["thm2"])
            rows.append(dict(id="rage.thm2.bound.{fig}", fig=fig, failures=int(bad.sum()),
                             runs=int(len(t)),
                             largest_ratio=float((t["samples"] / t["thm2"]).max()),
                             settings=_settings_of(runs, fig)))
    for fig in ["1a", "1b", "1c", "1d"]:
        t = ra[ra["fig"] == fig]
        if len(t):
            b = t.apply(psi_bound, axis=1)
            bad = (~t["correct"].astype(bool)) | (t["samples"] > b)
            rows.append(dict(id="rage.thm2.psi_bound.{fig}", fig=fig, failures=int(bad.sum()),
                             runs=int(len(t)), largest_ratio=float((t["samples"] / b).max()),
                             settings=_settings_of(runs, fig)))
    return rows


def lemma23_claims(runs: pd.DataFrame) -> list[dict]:
    """Lemmas 2 and 3 on RAGE's runs where its good events were recorded (Figs. 1a and 1d):
    per round t, the runs that played round t after E_1..E_{t-1} held and those among them whose
    E_t failed (against delta / t^2); and the runs with a failed event in a round
    t <= floor(log2(4/Delta_min)) (against delta)."""
    ra = runs[(runs["method"] == "RAGE") & runs["events"].notna()]
    if ra.empty:
        return []
    st = _settings_of(ra)
    rows = []
    T = max(len(e) for e in ra["events"])
    for t in range(1, T + 1):
        played = [e for e in ra["events"] if len(e) >= t and all(e[:t - 1])]
        if played:
            rows.append(dict(id=f"rage.lemma2.round{t}", failures=sum(not e[t - 1] for e in played),
                             runs=len(played), settings=st))
    bad = [not all(e[:int(math.floor(math.log2(4.0 / g)))])
           for e, g in zip(ra["events"], ra["min_gap"])]
    rows.append(dict(id="rage.lemma3.all_rounds", failures=int(sum(bad)), runs=len(bad),
                     settings=st))
    return rows
