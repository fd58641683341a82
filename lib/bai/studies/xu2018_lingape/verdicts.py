r"""The rows the ledger checks in the chapter on LinGapE (Xu, Honda, Sugiyama, AISTATS 2018).

Each ``*_rows`` function returns the keyword arguments of ``ledger.check``, the settings of the
row's runs included (:func:`row_settings`): the
measures of Figure 1 and 2 (:func:`fig1_rows`, :func:`fig2_rows`, :func:`rules_rows`), Theorems
2 and 3 (:func:`thm2_bound`, :func:`thm2_rows`, :func:`thm3_row`), Table 1's single run among
ours (:func:`percentile`, :func:`table1_rows`, :func:`table1_evidence`), Figure 3
(:func:`fig3_rows`) and the pooled error rate (:func:`pooled_rows`); log-log slopes with their
standard errors (:func:`loglog_slope`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...algorithms import lingape as LG
from ...estimation import soare_c, soare_log_term
from ...instances import canonical_bandit, soare_benchmark
from ...reported import xu2018 as paper
from .settings import DELTA, EPS, OMEGA, SETTINGS, is_printed
from .tables import FIG1, ratio_se


def row_settings(runs) -> dict:
    """The settings of a ledger row computed from ``runs`` (rows of the chapter's run tables,
    each with its task's ``settings``): their union, a conflict being an error, completed by the
    printed reading's settings for the strategies the row does not involve. The ledger decides
    the row's reading from them."""
    merged: dict = {}
    for st in runs["settings"]:
        for k, v in st.items():
            if merged.setdefault(k, v) != v:
                raise ValueError(f"the runs of one row ran under different settings: {k} = "
                                 f"{merged[k]!r} and {v!r}")
    return {**paper.PRINTED_SETTINGS, **merged}


def _mean_se(values) -> tuple[float, float]:
    v = np.asarray(values, dtype=float)
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else 0.0


def _diff(a: tuple, b: tuple) -> dict:
    """``a - b`` of two (mean, SE) pairs from independent runs, with ``b``'s mean as its
    ``scale`` (its effect is a tenth of it: ``bai.claims.EFFECT_PRINCIPLES``)."""
    return {"value": a[0] - b[0], "se": float(np.hypot(a[1], b[1])), "scale": float(b[0])}


def _ratio(a: tuple, b: tuple) -> dict:
    """``a / b`` of two (mean, SE) pairs from independent runs, delta-method SE."""
    r, se = ratio_se(a[0], a[1], b[0], b[1])
    return {"value": float(r), "se": float(se)}


def loglog_slope(x, y, se_log) -> tuple[float, float]:
    """Weighted least-squares slope of ``log y`` on ``log x`` (weights ``1 / se_log^2``, the
    per-point standard errors of ``log y`` propagated) and its standard error; with every
    ``se_log`` zero (exact values), the ordinary slope and SE 0."""
    lx, ly = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    s = np.asarray(se_log, dtype=float)
    exact = bool(np.all(s == 0))
    w = np.ones_like(lx) if exact else 1.0 / np.maximum(s, s[s > 0].min()) ** 2
    xm = np.sum(w * lx) / np.sum(w)
    sxx = np.sum(w * (lx - xm) ** 2)
    return float(np.sum(w * (lx - xm) * ly) / sxx), 0.0 if exact else float(1 / np.sqrt(sxx))


def percentile(values, x) -> dict:
    """The mid-rank percentile of ``x`` among ``values`` (our runs) and its binomial SE: where a
    single run printed by the paper falls in the distribution of our single runs."""
    v = np.asarray(values, dtype=float)
    q = (np.sum(v < x) + 0.5 * np.sum(v == x)) / v.size
    return {"value": float(q), "se": float(np.sqrt(q * (1 - q) / v.size)), "runs": int(v.size),
            "ours_mean": float(v.mean())}


def _by(runs, label, **where):
    sel = runs["label"] == label
    for k, v in where.items():
        sel &= runs[k] == v
    return runs[sel]


def fig1_rows(f1) -> dict:
    """Figure 1's rows per d: ``{claim: [check kwargs]}`` (LinGapE is the greedy rule, as
    plotted)."""
    lg, st, ad, orc = ("LinGapE (greedy)", "XY-static", "XY-adaptive (lingape-code)",
                       "XY-oracle")
    out: dict = {k: [] for k in ("superior", "beats_oracle", "adaptive_worse",
                                 "adaptive_worse_no_reset", "10x", "tighter", "det_linear")}
    for d in sorted(f1["d"].unique()):
        runs = {lab: _by(f1, lab, d=d) for lab in FIG1}
        m = {lab: _mean_se(r["samples"]) for lab, r in runs.items()}

        def sett(*labs):
            return row_settings(pd.concat([runs[lab] for lab in labs]))
        best = min((st, ad, orc), key=lambda lab: m[lab][0])
        out["superior"].append(dict(d=d, **_diff(m[lg], m[best]), best=best,
                                    settings=sett(lg, st, ad, orc)))
        out["beats_oracle"].append(dict(d=d, **_diff(m[lg], m[orc]), settings=sett(lg, orc)))
        for key, lab in (("adaptive_worse", ad),
                         ("adaptive_worse_no_reset", "XY-adaptive (no-reset)")):
            out[key].append(dict(d=d, **_diff(m[lab], m[st]), settings=sett(lab, st)))
        existing = min((st, ad), key=lambda lab: m[lab][0])
        out["10x"].append(dict(point=f"fig1_d{d}", where=f"Figure 1, d = {d}",
                               **_ratio(m[existing], m[lg]), best=existing,
                               settings=sett(lg, st, ad)))
        env = soare_benchmark(d, omega=OMEGA)
        r = runs[lg]
        F2 = soare_c() ** 2 * soare_log_term(r["samples"].to_numpy(float), env.K, DELTA,
                                             union="arms")
        out["tighter"].append(dict(d=d, **dict(zip(("value", "se"), _mean_se(
            r["C2"].to_numpy(float) - F2))), scale=float(np.mean(F2)), settings=sett(lg, orc)))
        el = r["elasticity"].dropna().to_numpy(float)
        out["det_linear"].append(dict(d=d, **dict(zip(("value", "se"), _mean_se(el))),
                                      runs=int(el.size), settings=sett(lg)))
    return out


def fig2_rows(f2) -> dict:
    """Figure 2's rows per gap, and the slope of the advantage in the gap."""
    lg, st, ad = "LinGapE (greedy)", "XY-static", "XY-adaptive (lingape-code)"
    out: dict = {k: [] for k in ("beats_static", "adaptive_5x", "adaptive_5x_no_reset", "10x")}
    gaps, ratios, ses = [], [], []
    for gap in sorted(f2["gap"].unique(), reverse=True):
        runs = {lab: _by(f2, lab, gap=gap) for lab in (lg, st, ad, "XY-adaptive (no-reset)")}
        m = {lab: _mean_se(r["samples"]) for lab, r in runs.items()}

        def sett(*labs):
            return row_settings(pd.concat([runs[lab] for lab in labs]))
        out["beats_static"].append(dict(gap=f"{gap:g}", **_diff(m[lg], m[st]),
                                        settings=sett(lg, st)))
        for key, lab in (("adaptive_5x", ad), ("adaptive_5x_no_reset", "XY-adaptive (no-reset)")):
            out[key].append(dict(gap=f"{gap:g}", **_ratio(m[lab], m[st]),
                                 settings=sett(lab, st)))
        existing = min((st, ad), key=lambda lab: m[lab][0])
        out["10x"].append(dict(point=f"fig2_gap{gap:g}", where=f"Figure 2, gap {gap:g}",
                               **_ratio(m[existing], m[lg]), best=existing,
                               settings=sett(lg, st, ad)))
        r = _ratio(m[st], m[lg])
        gaps.append(gap)
        ratios.append(r["value"])
        ses.append(r["se"] / r["value"])
    slope, se = loglog_slope(gaps, ratios, ses)
    out["grows"] = dict(value=slope, se=se, settings=row_settings(f2[f2["label"].isin([lg, st])]),
                        ratios={f"{g:g}": v for g, v in zip(gaps, ratios)})
    return out


def rules_rows(f1, f2) -> list[dict]:
    """Mean greedy / mean ratio at every point of Figures 1 and 2."""
    out = []
    for f, x, name in ((f1, "d", "fig1_d{}"), (f2, "gap", "fig2_gap{:g}")):
        for v in sorted(f[x].unique()):
            g, r = _by(f, "LinGapE (greedy)", **{x: v}), _by(f, "LinGapE (ratio)", **{x: v})
            out.append(dict(point=name.format(v), **_ratio(_mean_se(g["samples"]),
                                                            _mean_se(r["samples"])),
                            settings=row_settings(pd.concat([g, r]))))
    return out


def thm2_bound(env) -> float:
    """The leading term :math:`8H_\\epsilon R^2\\log(K^2/\\delta)` of Theorem 2 (16) at an
    instance (R = 1: N(0, 1) noise)."""
    H = LG.h_epsilon(env.X, env.theta, EPS)
    return float(8 * H * env.sigma**2 * np.log(env.K**2 / DELTA))


def thm2_rows(f1, f2, check) -> list[dict]:
    """The ratio rule's mean stopping time over Theorem 2's leading term, per instance."""
    lab = "LinGapE (ratio)"
    points = [(f"fig1_d{d}", soare_benchmark(d, omega=OMEGA), _by(f1, lab, d=d))
              for d in sorted(f1["d"].unique())]
    points += [(f"fig2_gap{g:g}", canonical_bandit([g] + [0.0] * (int(f2["d"].iloc[0]) - 1)),
                _by(f2, lab, gap=g)) for g in sorted(f2["gap"].unique(), reverse=True)]
    points += [("check", soare_benchmark(SETTINGS["check_d"], omega=SETTINGS["check_omega"]),
                _by(check, lab))]
    out = []
    for name, env, runs in points:
        b = thm2_bound(env)
        mean, se = _mean_se(runs["samples"])
        out.append(dict(point=name, value=mean / b, se=se / b, bound=b, mean=mean,
                        settings=row_settings(runs)))
    return out


def thm3_row(hcomp) -> dict:
    """The log-log slope of :math:`H_0/H_{oracle}` in d on the benchmark (exact values)."""
    slope, se = loglog_slope(hcomp.index, hcomp["H_0 / H_oracle"], np.zeros(len(hcomp)))
    return {"value": slope, "se": se}


def table1_rows(runs, f1, d: int) -> dict:
    """Table 1's rows (at its d = 5): the percentile of each printed count among our runs, per
    column (and the early script's LinGapE beneath the published one), XY-static's evenness
    and the share of e2."""
    sources = {"static": _by(runs, "XY-static", experiment="table1"),
               "lingape": _by(runs, "LinGapE: the paper"),
               "oracle": _by(f1, "XY-oracle", d=d)}
    early = _by(runs, "LinGapE: early-script radius, eps = Delta_min")
    arms = paper.VALUES["table1"]["arms"]
    out: dict = {"columns": []}
    for col, src in [*sources.items(), ("lingape_early", early)]:
        counts = np.array(list(src["counts"]), dtype=float)
        for i, arm in enumerate([*arms, "total"]):
            column = col.removesuffix("_early")
            pv = (paper.table1_printed(column, arm) if arm != "total"
                  else paper.table1_total(column))
            ours = counts[:, i] if arm != "total" else counts.sum(axis=1)
            out["columns"].append(dict(col=col, arm=arm, paper_value=pv,
                                       **percentile(ours, pv.number),
                                       settings=row_settings(src)))
    st = np.array(list(sources["static"]["counts"]), dtype=float)
    groups = np.c_[st[:, 0] + st[:, 5], st[:, 1:5]]
    out["static_uniform"] = dict(**dict(zip(("value", "se"), _mean_se(
        groups.max(axis=1) / groups.min(axis=1)))), settings=row_settings(sources["static"]))
    out["focus_e2"] = []
    for name, col in (("LinGapE", "lingape"), ("XY-oracle", "oracle")):
        c = np.array(list(sources[col]["counts"]), dtype=float)
        share = c / c.sum(axis=1, keepdims=True)
        other = np.delete(share, 1, axis=1).max(axis=1)
        margin = share[:, 1] - other
        out["focus_e2"].append(dict(strategy=name, **dict(zip(("value", "se"),
                                                              _mean_se(margin))),
                                    scale=float(other.mean()),
                                    settings=row_settings(sources[col])))
    return out


def fig3_rows(raw3, paired) -> dict:
    """Figure 3's rows: the mean paired ratio XY-static / LinGapE, and the slopes in log K of
    the ratio of the means (paired delta-method SE) and of the difference."""
    pr = paired["ratio"]
    factor = {"value": float(pr.mean()), "se": float(pr.std(ddof=1) / np.sqrt(len(pr))),
              "instances": int(len(pr))}
    Ks, ratio, ratio_se_log, diff, diff_se_log = [], [], [], [], []
    for K, p in paired.groupby(level="K"):
        a, b = p["XY-static"].to_numpy(float), p["LinGapE"].to_numpy(float)
        n = a.size
        ma, mb = a.mean(), b.mean()
        cov = np.cov(a, b) / n
        Ks.append(K)
        ratio.append(ma / mb)
        ratio_se_log.append(np.sqrt(cov[0, 0] / ma**2 + cov[1, 1] / mb**2
                                    - 2 * cov[0, 1] / (ma * mb)))
        dd = a - b
        diff.append(dd.mean())
        diff_se_log.append(dd.std(ddof=1) / np.sqrt(n) / dd.mean())
    sett = row_settings(raw3)
    s_r, se_r = loglog_slope(Ks, ratio, ratio_se_log)
    s_d, se_d = loglog_slope(Ks, diff, diff_se_log)
    return {"real_5x": {**factor, "settings": sett},
            "10x": {**factor, "settings": sett},
            "grows": {"value": s_r, "se": se_r, "settings": sett,
                      "ratios": {str(k): float(v) for k, v in zip(Ks, ratio)}},
            "grows_difference": {"value": s_d, "se": se_d, "settings": sett}}


def pooled_rows(lg_runs) -> dict:
    """Theorem 1 per rule and Lemma 3, pooled over every LinGapE run under the printed reading
    (synthetic and click): failures and runs."""
    pr = lg_runs[lg_runs["printed"]]
    out = {"thm1": []}
    for rule in LG.RULES:
        r = pr[pr["rule"] == rule]
        out["thm1"].append(dict(rule=rule, failures=int((~r["correct"].astype(bool)).sum()),
                                runs=int(len(r)), settings=row_settings(r)))
    ev = pr[pr["event"].notna()]
    out["lemma3"] = dict(failures=int((ev["event"] == False).sum()),  # noqa: E712
                         runs=int(len(ev)), settings=row_settings(ev))
    return out


def table1_evidence(rows) -> pd.DataFrame:
    """Table 1's rows as a table: per column, reading and arm, the paper's count, our mean and
    the percentile of the paper's count among our runs."""
    out = []
    for r in rows["columns"]:
        reading = "printed" if is_printed(r["settings"]) else "early script"
        out.append({"column": r["col"].removesuffix("_early"), "reading": reading, "arm": r["arm"],
                    "paper": r["paper_value"].number, "our mean": r["ours_mean"],
                    "runs": r["runs"], "percentile": r["value"], "se": r["se"]})
    return pd.DataFrame(out).set_index(["column", "reading", "arm"])
