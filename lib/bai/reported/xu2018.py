"""Values reported by Xu, Honda, Sugiyama (AISTATS 2018), LinGapE."""

#: The values the paper reports, each with its source (data: only compared against, never printed
#: as ours).
VALUES: dict = {
    # "an example of arm selection when d = 5", Soare et al.'s benchmark; arms e1..e5, x6
    "table1": {
        "source": "Xu, Honda, Sugiyama 2018, Table 1 (d = 5, one run)",
        "arms": ["e1", "e2", "e3", "e4", "e5", "x6"],
        "XY-static": [1298590, 2546604, 2546666, 2546666, 2546666, 1273742],
        "LinGapE": [2133, 428889, 19, 34, 33, 11],
        "XY-oracle": [13646, 2728606, 68, 68, 68, 1],
    },
    # factors stated in words (the figures' values are lost from the text)
    "intro_fewer_samples": {
        "source": "Xu, Honda, Sugiyama 2018, Sec. 1: LinGapE 'requires ten times less samples "
                  "than existing methods to achieve the same level of accuracy'",
        "factor": 10.0,
    },
    "adaptive_vs_static": {
        "source": "Xu, Honda, Sugiyama 2018, Sec. 7.1.1: in the Sec. 7.1.2 and 7.2 experiments "
                  "XY-adaptive 'performed at least five times worse than XY-static allocation'",
        "factor": 5.0,
    },
    "real_data": {
        "source": "Xu, Honda, Sugiyama 2018, Sec. 7.2, Figure 3: 'LinGapE performs roughly five "
                  "times better than the XY-static strategy'",
        "factor": 5.0,
    },
}

# The settings of the experiments: stated in the authors' code or ASSUMED where the text lost
# them (the chapter marks which). One source: the study bai.studies.xu2018_lingape reads them here.
VALUES["settings"] = {
    "source": "Xu, Honda, Sugiyama 2018, Sec. 7 and the authors' code (values the text lost "
              "are ASSUMED; see the chapter)",
    "delta": 0.05,          # confidence (code)
    "epsilon": 0.0,         # epsilon of (epsilon, delta)-BAI (code)
    "reg": 1.0,             # lambda of LinGapE's ridge estimate (code: A = I)
    "omega": 0.01,          # Soare et al.'s benchmark angle
    "alpha": 0.1,           # XY-adaptive's alpha (Soare et al.)
    "adaptive_block": 1e-5,  # greedy blocks of the XY-adaptive phases (as the Soare chapter)
    "check_omega": 0.2,     # the easier benchmark instance of the error-rate check (ASSUMED)
    "check_d": 3,
    "ctr_scale": 10.0,      # click model: fitted click probabilities times 10 (ASSUMED)
    "click_R": 1.0,         # LinGapE on {0,1} rewards: the code's R = 2 for +-1 rewards, halved
    "click_sigma": 1.0,     # XY-static (ridge): the code's sigma = 2, halved
    "click_reg": 0.01,      # XY-static (ridge): lambda (code)
    "click_grid_ratio": 1e-2,   # XY-static (ridge): stopping rule checked on a 1% grid
    "click_block": 1e-3,        # XY-static (ridge): greedy blocks of floor(1e-3 t) pulls
}


# ---------------------------------------------------------------------------------------------
# The claims the chapter checks (bai.studies.xu2018_lingape), with their fixed text
# ---------------------------------------------------------------------------------------------

from ..claims import AtLeast, ClaimSpec, ErrorRate, Holds, NotComparable, Tolerance  # noqa: E402

_SRC = "Xu, Honda, Sugiyama 2018"
_T1 = VALUES["table1"]
_DELTA = VALUES["settings"]["delta"]


def _one_run(statement: str, column: str, **kw) -> ClaimSpec:
    """A Table 1 total: the paper's single run against the spread of our runs."""
    return ClaimSpec(statement, _T1["source"], Holds(
        "the paper's single run lies between the 2.5% and 97.5% quantiles of our runs"),
        paper_value=float(sum(_T1[column])), figure="Table 1", **kw)


_OBD = ("the Open Bandit Dataset click model (ctr_scale = 10, ASSUMED) in place of Yahoo! "
        "Webscope R6A, which cannot be redistributed")
_CAUSE_T1 = ("the published algorithm (Eq. 3 radius with K^2, eps = 0, the greedy rule) needs "
             "more samples than the paper's single Table 1 run in every one of our runs; the "
             "run matches the authors' early script (another radius, eps = Delta_min), so Table "
             "1 was likely produced by that script")


#: Fixed parts of the reasons given with some claims (the chapter adds the computed numbers).
NOTES: dict = {
    "lingape.table1.static_total":
        "ASSUMED synthetic XY-static (the authors' code for it is not public)",
    "lingape.table1.lingape_total": "Eq. 3, K^2, eps = 0, known S, greedy rule",
    "lingape.table1.lingape_total.early_script":
        "a variant of the authors' early script, not the published algorithm",
    "lingape.table1.oracle_total": "deterministic; tracks lambda* from one pull per canonical arm",
    "lingape.fig1.beats_oracle.factor_d5":
        "paper factor derived from one run of each; the Table 1 LinGapE run is more typical of "
        "the early-script variant than of the published algorithm (see "
        "lingape.table1.lingape_total.*)",
    "lingape.rules_similar": "value = largest |ratio - 1|",
    "lingape.fig3.real_5x":
        "Open Bandit Dataset click model with ctr_scale = 10 (ASSUMED), not Yahoo! R6A; value = "
        "mean over all instances of the paired ratio XY-static / LinGapE; 'roughly' read as +-30%",
}

#: The claims the chapter checks: id -> :class:`bai.claims.ClaimSpec` (statement, source, rule,
#: role).
CLAIMS: dict = {
    "lingape.thm1.correct.{rule}": ClaimSpec(
        "LinGapE ({rule} rule) returns an eps-best arm with probability >= 1 - delta",
        f"{_SRC}, Theorem 1", ErrorRate(_DELTA)),
    "lingape.table1.static_uniform": ClaimSpec(
        "XY-static spreads its pulls evenly: e2..e5 and e1 + x6 get equal shares",
        _T1["source"], Holds("max / min of the shares of (e1 + x6), e2, ..., e5 <= 1.1"),
        figure="Table 1"),
    "lingape.table1.static_total": _one_run("XY-static total at d = 5", "XY-static"),
    "lingape.table1.lingape_focus_e2": ClaimSpec(
        "LinGapE puts > 99% of its pulls on e2 (d = 5)", _T1["source"], AtLeast(0.99),
        paper_value=_T1["LinGapE"][1] / sum(_T1["LinGapE"]), figure="Table 1"),
    "lingape.table1.lingape_total": _one_run("LinGapE total at d = 5 (the paper's algorithm)",
                                             "LinGapE", causes=_CAUSE_T1),
    "lingape.table1.lingape_total.early_script": _one_run(
        "LinGapE total at d = 5 with the early script's radius and eps = Delta_min", "LinGapE",
        claim="lingape.table1.lingape_total", role="alternative",
        note="the authors' early script (another radius, eps = Delta_min), not the published "
             "algorithm"),
    "lingape.table1.oracle_total": ClaimSpec(
        "XY-oracle total at d = 5", _T1["source"], Tolerance(rel=0.01),
        paper_value=float(sum(_T1["XY-oracle"])), figure="Table 1"),
    "lingape.fig1.beats_oracle": ClaimSpec(
        "LinGapE needs fewer samples than XY-oracle at every d",
        f"{_SRC}, Sec. 7.1.1, Figure 1",
        Holds("mean(XY-oracle) / mean(LinGapE) - 2 SE > 1 at every d"), figure="Figure 1"),
    "lingape.fig1.beats_oracle.factor_d5": ClaimSpec(
        "LinGapE needs about 6x fewer samples than the oracle at d = 5 (Table 1 totals)",
        _T1["source"], Tolerance(rel=0.25),
        paper_value=sum(_T1["XY-oracle"]) / sum(_T1["LinGapE"]), figure="Table 1",
        causes="derived from Table 1's single LinGapE run, which is more typical of the early "
               "script than of the published algorithm (see the Table 1 total)"),
    "lingape.fig1.beats_static": ClaimSpec(
        "LinGapE needs far fewer samples than XY-static at every d",
        f"{_SRC}, Sec. 7.1.1, Figure 1",
        Holds("mean(XY-static) / mean(LinGapE) - 2 SE > 1 at every d"), figure="Figure 1"),
    "lingape.fig1.adaptive_worse_than_static": ClaimSpec(
        "XY-adaptive (reset after every phase, the LinGapE authors' reading) is much worse than "
        "XY-static", f"{_SRC}, Sec. 7.1.1",
        Holds("mean(XY-adaptive lingape-code) / mean(XY-static) - 2 SE > 1 at every d"),
        figure="Figure 1"),
    "lingape.intro.10x": ClaimSpec(
        "LinGapE needs about ten times fewer samples than the existing methods",
        VALUES["intro_fewer_samples"]["source"],
        Holds("min(mean XY-static, mean XY-adaptive) / mean(LinGapE) + 2 SE >= 10 at every d "
              "of the benchmark grid"),
        paper_value=VALUES["intro_fewer_samples"]["factor"], figure="Figure 1"),
    "lingape.rules_similar": ClaimSpec(
        "the greedy (9) and ratio (12) rules give similar stopping times ('very little impact')",
        f"{_SRC}, Sec. 7.1",
        Holds("mean(greedy) / mean(ratio) within [0.8, 1.25] (+- 2 SE) at every point of "
              "Figures 1 and 2"), figure="Figures 1, 2"),
    "lingape.fig2.beats_static_all_gaps": ClaimSpec(
        "on the canonical basis LinGapE needs fewer samples than XY-static for every gap",
        f"{_SRC}, Sec. 7.1.2, Figure 2",
        Holds("mean(XY-static) / mean(LinGapE) - 2 SE > 1 for every gap"), figure="Figure 2"),
    "lingape.fig2.advantage_grows_small_gap": ClaimSpec(
        "the advantage of LinGapE over XY-static grows as the gap shrinks", f"{_SRC}, Sec. 7.1.2",
        Holds("static/LinGapE ratio increases (by more than 2 SE) at each smaller gap"),
        figure="Figure 2",
        causes="at the smallest gaps both methods pay mostly for the same hard direction, so "
               "the ratio levels off; the paper's Figure 2 values are lost"),
    "lingape.sec7_1.adaptive_5x": ClaimSpec(
        "XY-adaptive (reset reading) is at least five times worse than XY-static (Fig. 2 "
        "setting)", VALUES["adaptive_vs_static"]["source"],
        AtLeast(VALUES["adaptive_vs_static"]["factor"]),
        paper_value=VALUES["adaptive_vs_static"]["factor"], figure="Figure 2",
        causes="the phase schedule of the reset reading (alpha = 0.1, the authors' XY-adaptive "
               "code is not public) decides the factor"),
    "lingape.sec7_2.adaptive_5x": ClaimSpec(
        "XY-adaptive is at least five times worse than XY-static on the real data",
        VALUES["adaptive_vs_static"]["source"], NotComparable(
            "not run: the library's XY-adaptive simulates Gaussian rewards only, and its "
            "K(K-1)/2 directions per reset phase make K = 50 costly")),
    "lingape.fig3.real_5x": ClaimSpec(
        "on real click data LinGapE needs roughly five times fewer samples than XY-static",
        VALUES["real_data"]["source"], Tolerance(rel=0.3),
        paper_value=VALUES["real_data"]["factor"], figure="Figure 3", substitute=_OBD),
    "lingape.fig3.gap_grows_with_K": ClaimSpec(
        "the difference XY-static - LinGapE grows with the number of arms",
        f"{_SRC}, Sec. 7.2, Figure 3",
        Holds("weighted least-squares slope of the mean paired difference (XY-static - LinGapE, "
              "same instance) against K exceeds 2 SE"), figure="Figure 3", substitute=_OBD),
    "lingape.fig3.correct": ClaimSpec(
        "LinGapE returns the best arm on the click instances", f"{_SRC}, Sec. 7.2",
        ErrorRate(_DELTA), figure="Figure 3", substitute=_OBD),
    "lingape.mab.reduction": ClaimSpec(
        "canonical basis: H_eps = sum_k 18 / max(3 eps, eps + Delta_k)^2 (reduces to UGapE's)",
        "spec Sec. 3 (derived; the paper states the reduction)",
        Holds("LP-based H_eps equals the closed form within 1e-6 on random bandits"),
        role="check", note="our LP against the closed form: a check of the implementation"),
    "lingape.thm3.near_constant_factor": ClaimSpec(
        "H_0 is within a constant factor of H_oracle when one arm is near-optimal (Thm 3)",
        f"{_SRC}, Theorem 3 (constants lost)",
        Holds("H_0 / H_oracle varies by <= 1% over the benchmark's d grid")),
}
