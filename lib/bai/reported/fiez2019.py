"""Values reported by Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019), RAGE.

Figures 1a-1d and 2a-2b are lost from the paper text: no axis or curve value survives. What
survives are the common settings and qualitative statements of Sec. 5 and App. F, recorded
here with their sources (``VALUES``; ``VALUES["settings"]`` is the one source of delta, epsilon,
XY-adaptive's alpha, the phase ratios gamma of App. F and LinGapE's settings), and the claims the
chapter ``book/chapters/fiez2019_rage.md`` checks (``CLAIMS``: their fixed text and rules, with
the thresholds that read the paper's qualitative words as numbers).
"""

from ..claims import AtMost, ClaimSpec, ErrorRate, Holds, NotComparable

#: The values the paper reports, each with its source (data: only compared against, never printed
#: as ours).
VALUES: dict = {
    "settings": {
        "source": "Fiez et al. 2019, Sec. 5 and App. F",
        "delta": 0.05, "n_repetitions": 20, "epsilon": 0.1, "alpha_xy_adaptive": 0.1,
        "gamma_static": 1.35, "gamma_oracle": 1.1, "lingape_reg": 1.0, "lingape_epsilon": 0.0,
    },
    "zero_failures": {
        "source": "Fiez et al. 2019, Sec. 5: 'The empirical failure probability of each of the "
                  "algorithms in the simulations is zero.'",
        "failure_rate": 0.0,
    },
    "fig1a": {
        "source": "Fiez et al. 2019, Sec. 5, Fig. 1a text",
        "statements": [
            "RAGE performs competitively with existing algorithms and the oracle allocation",
            "XY-Adaptive performs nearly equivalently to RAGE",
            "LinGapE performs well when the number of dimensions and arms is small; worse as "
            "the number of arms grows",
            "ALBA performs the worst of the recently proposed algorithms",
            "clear gains of adaptive sampling over static XY-allocation",
        ],
    },
    "fig1b": {
        "source": "Fiez et al. 2019, Sec. 5, Fig. 1b text",
        "statements": ["LinGapE suffers from a linear scaling in the number of arms (it samples "
                       "each arm as an initialization)",
                       "RAGE focuses on x2 and gains information about the near-duplicates"],
        "gap_approx": 0.3,
    },
    "fig1c": {
        "source": "Fiez et al. 2019, Sec. 5, Fig. 1c text",
        "statements": ["RAGE significantly outperforms ALBA"],
    },
    "fig1d": {
        "source": "Fiez et al. 2019, Sec. 5, Fig. 1d text",
        "statements": ["RAGE significantly outperforms the static allocation",
                       "RAGE nearly matches the oracle allocation"],
    },
    "fig2a": {
        "source": "Fiez et al. 2019, Sec. 5, Fig. 2a text",
        "statements": ["RAGE is close to the oracle; the other methods get worse as the number "
                       "of arms and the dimension grow"],
    },
    "fig2b": {
        "source": "Fiez et al. 2019, Sec. 5, Fig. 2b text",
        "statements": ["RAGE performs well on real click data with 40 arms"],
        "mean_range": (0.0, 0.11),
    },
    "thm1_constant": {
        "source": "Fiez et al. 2019, Thm 1: E[tau] >= log(1/(2.4 delta)) psi*",
        "factor": 2.4,
    },
}

# ---------------------------------------------------------------------------------------------
# The claims the chapter checks (book/chapters/fiez2019_rage.md), with their fixed text
# ---------------------------------------------------------------------------------------------

#: The book's reading of the qualitative words of Sec. 5: "competitive with / close to / nearly
#: matches the oracle" is a mean count within a factor 3 of the phased oracle's; "significantly
#: outperforms" and "far above" a factor above 2 (1.5 against ALBA on Fig. 1c); "performs
#: nearly equivalently" a ratio in (1/2, 2); a linear growth a least-squares slope in [0.8, 1.5].
NEAR_ORACLE = 3.0
FAR_ABOVE = 2.0
ABOVE_ALBA = 1.5
NEARLY_EQUAL = (0.5, 2.0)
LINEAR_SLOPE = (0.8, 1.5)
#: The design solvers agree when their psi* differ by at most this relative amount (a book check).
SOLVER_RTOL = 1e-4

_S = VALUES["settings"]
_FAIL = VALUES["zero_failures"]["source"]


def _fig(fig: str, statement: str, criterion: str, **kw) -> ClaimSpec:
    return ClaimSpec(f"Fig. {fig}: {statement}", source=VALUES[f"fig{fig}"]["source"],
                     rule=Holds(criterion), figure=fig, **kw)


#: Figure 2b's substitute: the paper's Yahoo! data cannot be redistributed.
_OBD = ("the Open Bandit Dataset click model (ctr_scale = 10, ASSUMED) in place of Yahoo! "
        "Webscope R6A, which cannot be redistributed")


#: The claims the chapter checks: id -> :class:`bai.claims.ClaimSpec` (statement, source, rule,
#: role).
CLAIMS: dict = {
    "rage.correct.{method}": ClaimSpec(
        "{method} returns z* with probability >= 1 - delta (all figures)", source=_FAIL,
        rule=ErrorRate(_S["delta"]), section="error-rates-and-the-bounds",
        claim="rage.zero_failures", role="evidence",
        note="one method's error rate against delta (Clopper-Pearson bound)"),
    "rage.zero_failures": ClaimSpec(
        "The empirical failure probability of every algorithm is zero", source=_FAIL,
        rule=AtMost(VALUES["zero_failures"]["failure_rate"]),
        paper_value=VALUES["zero_failures"]["failure_rate"], section="error-rates-and-the-bounds"),
    "rage.thm1.lb": ClaimSpec(
        "Every method's mean count is above the Gaussian lower bound 2 psi* log(1/(2.4 delta)) "
        "at every point (Theorem 1 prints psi* log(1/(2.4 delta)), without the KL's factor 2)",
        source="Fiez et al. 2019, Thm 1 and App. C (KL of N(0, 1) noise)",
        rule=Holds("mean samples >= 2 psi* log(1/2.4 delta) for every figure, method and x"),
        section="error-rates-and-the-bounds", role="check",
        note="a lower bound holds for every delta-PAC algorithm: runs above it check our "
             "implementations and cannot reproduce the theorem"),
    "rage.thm2.bound": ClaimSpec(
        "RAGE's sample count is below the phase-sum bound of Theorem 2",
        source="Fiez et al. 2019, Thm 2",
        rule=AtMost(1.0), paper_value=1.0,
        section="rage-and-theorem-2"),
    "rage.round.prop2": ClaimSpec(
        "Rounded design value <= (1 + 2p/N) x design value for N >= 2p",
        source="Fiez et al. 2019, App. B, Prop. 2",
        rule=Holds("200 random designs, N in {2p, 5p, 2p/eps}"),
        section="efficient-rounding-proposition-2", role="check",
        note="a proven inequality: it checks our rounding, it cannot fail for a correct one"),
    "rage.lemma1.gauge": ClaimSpec(
        "max||y||^2/max||x||^2 <= rho(Y) <= d / gamma_Y^2", source="Fiez et al. 2019, Lemma 1",
        rule=Holds("worked example, Y(X) and {e1 - z'}, every alpha"),
        section="the-design-value-and-its-geometry-lemma-1", role="check",
        note="a proven inequality: it checks our design values"),
    "rage.psi_fast_vs_cvxpy": ClaimSpec(
        "psi* from the fast solver equals cvxpy's",
        source="book check (the paper uses Frank-Wolfe)", rule=AtMost(SOLVER_RTOL),
        paper_value=0.0, section="the-transductive-problem-and-its-lower-bound", role="check",
        note="two solvers of one convex problem: a check of the implementation"),
    "rage.prop1.static_factor_d": ClaimSpec(
        "A static design loses a factor ~d against psi* (Prop. 1)",
        source="Fiez et al. 2019, Prop. 1",
        rule=Holds("ratio increases with d and grows at least half as fast as d"),
        section="static-designs-can-lose-a-factor-d-proposition-1"),
    "rage.ex31.adaptive_gain": ClaimSpec(
        "Worked example: static/RAGE grows as alpha shrinks", source="Fiez et al. 2019, Sec. 3.1",
        rule=Holds("static/RAGE ratio at the smallest alpha > at the largest"),
        section="the-worked-example-of-sec-3-1-adaptivity-gains-a-factor-d"),
    "rage.fig1a.rage_near_oracle": _fig(
        "1a", "RAGE is competitive with the oracle",
        f"RAGE / XY-oracle mean <= {NEAR_ORACLE:g} at every d"),
    "rage.fig1a.xyadaptive_equal": _fig(
        "1a", "XY-adaptive (no reset) performs nearly as RAGE",
        f"{NEARLY_EQUAL[0]:g} < XY-adaptive / RAGE < {NEARLY_EQUAL[1]:g} at every d"),
    "rage.fig1a.lingape_degrades_with_d": _fig(
        "1a", "LinGapE good at small d, worse as d grows",
        "LinGapE / RAGE larger at the largest d than at the smallest"),
    "rage.fig1a.alba_worst_adaptive": _fig(
        "1a", "ALBA is the worst of the adaptive methods",
        "ALBA has the largest mean among RAGE, XY-adaptive, LinGapE, ALBA at every d"),
    "rage.fig1a.static_worst": _fig(
        "1a", "the example clearly highlights the gains of adaptive sampling over static XY",
        f"XY-static / RAGE > {FAR_ABOVE:g} at the figure's largest d (the paper speaks of the "
        f"figure, not of each d)"),
    "rage.fig1b.lingape_linear_in_arms": _fig(
        "1b", "LinGapE grows linearly in the number of arms",
        f"LinGapE's mean >= n at every n (one initial pull per arm) and its least-squares "
        f"slope against n in [{LINEAR_SLOPE[0]:g}, {LINEAR_SLOPE[1]:g}]"),
    "rage.fig1b.rage_flat_in_arms": _fig(
        "1b", "RAGE's count grows slowly in n",
        "RAGE's growth from the smallest to the largest n is below n's"),
    "rage.fig1c.rage_beats_alba": _fig(
        "1c", "RAGE significantly outperforms ALBA", f"ALBA / RAGE > {ABOVE_ALBA:g} at every n"),
    "rage.fig1d.rage_beats_static": _fig(
        "1d", "RAGE significantly outperforms static XY",
        f"XY-static / RAGE > {FAR_ABOVE:g} at every d"),
    "rage.fig1d.rage_near_oracle": _fig(
        "1d", "RAGE nearly matches the oracle", f"RAGE / XY-oracle <= {NEAR_ORACLE:g} at every d"),
    "rage.fig2a.rage_near_oracle": _fig(
        "2a", "RAGE is close to the oracle", f"RAGE / XY-oracle <= {NEAR_ORACLE:g} at every D"),
    "rage.fig2a.others_grow": _fig(
        "2a", "the other methods get worse (relative to RAGE) as D grows",
        "method / RAGE larger at the largest D than at the smallest, for each other method"),
    "rage.fig2b.rage_good": _fig(
        "2b", "RAGE performs well on the click data",
        "RAGE's mean is the smallest of the non-oracle methods", substitute=_OBD),
    "rage.figures.values": ClaimSpec(
        "The curves' values of Figures 1 and 2", source="Fiez et al. 2019, Figs. 1-2",
        rule=NotComparable("the figures are lost from the paper text; only the qualitative "
                           "statements are compared")),
}
