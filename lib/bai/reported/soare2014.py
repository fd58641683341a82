"""Settings, readings and claims of Soare, Lazaric, Munos (NIPS 2014), best-arm identification in
linear bandits.

The paper's text survives without Figure 4's bar heights (only its axis labels), so ``VALUES``
holds its *settings* (Sec. 6) and the constants of its theorems, each with its source. Values the
text does not give are marked ASSUMED, as in the reproduction spec (``specs/soare2014.md``,
Sec. 4). ``READINGS`` are the readings the chapter computes under (the printed one, and the
alternatives with what they change); ``CLAIMS`` holds the fixed text of every claim the chapter
checks: the chapter measures them (``bai.studies.soare2014``) and checks each in one line with
:meth:`bai.claims.ClaimsLedger.check`, passing the settings its computation ran with.

The paper prints no number besides its settings and its theorems' constants, so no paper claim
has a paper value: every rule carries what is measured against (the settings' delta, a bound the
book evaluates at the benchmark, a sign, a band), and the statement says what it is.
"""

from __future__ import annotations

from ..algorithms.soare import XY_ADAPTIVE_ALPHA as _XY_ADAPTIVE_ALPHA
from ..claims import (AtLeast, AtMost, Band, ClaimSpec, ErrorRate, NotComparable, Printed,
                      Reading, Reference, Tolerance)
from ..claims import RESOLUTION, ratio_effect  # the effects of signs and bands (issue 33)
from .xu2018 import VALUES as _XU2018

#: The values the paper reports, each with its source (data: only compared against, never printed
#: as ours).
VALUES: dict = {
    # The only experiment (Sec. 6, Figure 4): the benchmark, its confidence and phase settings
    "settings": {
        "source": "Soare, Lazaric, Munos 2014, Sec. 6 (Figure 4)",
        "delta": 0.05,            # stated
        "alpha": _XY_ADAPTIVE_ALPHA,   # stated ("we fix alpha = 1/10"): XY-adaptive's phase
                                      # factor, defined with the algorithm (bai.algorithms.soare)
        "omega": 0.01,            # stated: angle of x_{d+1} to e_1
        "scale": 2.0,             # stated: theta* = 2 e_1
        "dims": list(range(2, 11)),   # stated: d = 2..10
        "n_runs": 100,            # stated: 100 runs per point
        "noise": "N(0, 1)",       # stated
        "assumed": {
            "source": "spec soare2014 Sec. 4 (ASSUMED: not given by the text)",
            "sigma": 1.0,         # ASSUMED: sigma of c = 2 sqrt(2) sigma for N(0, 1) noise
            "eta": 1.0,           # ASSUMED: regulariser of the fully adaptive baseline
            "S": 2.0,             # ASSUMED: known ||theta*|| of the fully adaptive baseline
        },
    },
    # Theorems 1 and 2: N <= const c^2 d (1 + beta) log_n(K^2/delta) / Delta_min^2
    "thm1": {"source": "Soare, Lazaric, Munos 2014, Theorem 1 (G-allocation)", "constant": 16},
    "thm2": {"source": "Soare, Lazaric, Munos 2014, Theorem 2 (XY-allocation)", "constant": 32},
    # Theorem 3: N <= (1 + beta) max{M*, (16 / alpha) N*} log(c sqrt(log_n) / Delta_min) /
    # log(1 / alpha) (the form of the spec, RECONSTRUCTED from the stripped text)
    "thm3": {"source": "Soare, Lazaric, Munos 2014, Theorem 3 (XY-adaptive), Eq. 20",
             "factor": 16},
}

_SETTINGS = VALUES["settings"]
_DELTA = _SETTINGS["delta"]
_TABLE1 = _XU2018["table1"]
_FIG4 = "Soare et al. 2014, Sec. 6 (Figure 4)"


def _delta(what: str) -> Printed:
    """The paper's confidence, the target of an error-rate claim, as printed in Sec. 6, with the
    statement that applies it."""
    return Printed(_DELTA, f"Sec. 6, 'For a fixed confidence delta = 0.05', as the delta of "
                           f"{what}")

# ---------------------------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------------------------

#: The settings of the printed reading: XY-adaptive as in Fig. 3 and Eq. 18 (the active set
#: rebuilt from all of X after each phase; the unnormalised uncertainty falls by alpha per phase;
#: Lemma 4 with c and "<"; each phase starts with one pull per canonical arm, U_0 = rho_0 / n_0;
#: ASSUMED where the text is silent: the log term with the phase's samples), H_MAB as the paper
#: glosses it in Sec. 2 ("the inverse of the pairwise gaps between the best arm and the
#: suboptimal arms": the suboptimal arms only), Lemma 2's lower bound as printed (Eq. 8). The
#: XY-adaptive keys are the option names of :data:`bai.algorithms.soare.ADAPTIVE_READINGS`
#: (its preset ``"paper"``; a test keeps the two equal).
PRINTED_SETTINGS: dict = {
    "reset": True, "phase_rule": "eq18", "log_term": "phase-samples", "c_factor": 1.0,
    "init": "canonical", "U0": "rho0/n0",
    "h_mab": "suboptimal arms", "lemma2_lower": "L, Delta_min",
}


def settings(**changes) -> dict:
    """The printed reading's settings with ``changes`` (the settings a computation ran with)."""
    unknown = sorted(set(changes) - set(PRINTED_SETTINGS))
    if unknown:
        raise ValueError(f"changes must be settings of the readings {sorted(PRINTED_SETTINGS)}, "
                         f"got {unknown}")
    return {**PRINTED_SETTINGS, **changes}


def reading_name(settings: dict | None) -> str:
    """The name of the reading whose settings are ``settings`` (``None``: the printed one), as
    :class:`bai.claims.ClaimsLedger` decides it; for display."""
    if settings is None:
        return next(n for n, r in READINGS.items() if r.role == "printed")
    names = [n for n, r in READINGS.items() if r.matches(settings)]
    if not names:
        raise ValueError(f"settings {settings} match none of the readings {sorted(READINGS)}")
    return names[0]


#: The readings of the paper the chapter computes under: the printed one and three alternatives,
#: each changing one thing (its note says what and why it is not the paper's).
READINGS: dict = {
    "as printed": Reading(
        "as printed", "printed",
        "Fig. 3's pseudo-code with Eq. 18's phase rule (the active set rebuilt from all of X "
        "after each phase), H_MAB as glossed in Sec. 2 (the suboptimal arms' gaps), Lemma 2's "
        "lower bound as printed (Eq. 8); the spec's ASSUMED settings where the paper is silent",
        PRINTED_SETTINGS),
    "no reset": Reading(
        "no reset", "alternative",
        "discarded arms stay out after a phase: contradicts the printed pseudo-code (X_{j+1} = "
        "X before the dominated arms are removed), but is what Fiez et al. (2019, App. F) say "
        "Soare's experiments ran",
        settings(reset=False)),
    "H_MAB with the best arm": Reading(
        "H_MAB with the best arm", "alternative",
        "H_MAB also counts the best arm, with its gap taken as Delta_min (Audibert et al. "
        "2010's convention): the paper's gloss sums over the suboptimal arms only, whose gaps "
        "to the best arm are the only nonzero ones",
        settings(h_mab="best arm at Delta_min")),
    "Lemma 2 per direction": Reading(
        "Lemma 2 per direction", "alternative",
        "Lemma 2's lower bound with L^2 and each direction's own gap, max_y ||y||^2 / (L^2 "
        "Delta(y)^2) <= H_LB (what Lambda <= L^2 I gives): a correction of Eq. 8, not the "
        "printed statement",
        settings(lemma2_lower="L^2, Delta(y)")),
}

# ---------------------------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------------------------

#: Relative tolerance of an inequality computed with the certified design solver (Lemma 2).
LEMMA2_TOL = 1e-6

_CAUSE_RESET = ("the printed pseudo-code rebuilds the active set from all of X after each phase: "
                "the arms e3..ed, pulled once per focused phase, come back, and every other phase "
                "is a full XY phase whose cost grows with d; without the reset (Fiez et al.'s "
                "reading of Soare's experiments) the claim holds")
_CAUSE_FA = ("the fully adaptive baseline's settings are lost: with the spec's ASSUMED form "
             "(Prop. 2 radius, known ||theta*|| = 2, eta = 1) its radius is no wider than "
             "Prop. 1's (a smaller logarithm pays for the extra sqrt(d)) and, once e3..ed are "
             "discarded, it pulls e2 like the oracle; a loose bound on ||theta*|| would make it "
             "lose")
_SLOPE = ("the least-squares slope of log(mean budget) on log d over the grid, its SE propagated "
          "from the per-d standard errors")

#: The claims the chapter checks: id -> :class:`bai.claims.ClaimSpec` (statement, source, rule,
#: role). Rows of a claim about every d share one ``claim``; a row of XY-adaptive records the
#: reading its runs ran under (its settings), so the printed reading's row is the headline and
#: the no-reset row an alternative beneath it.
CLAIMS: dict = {
    # -- Propositions 1-2, Lemmas 1-4 -----------------------------------------------------------
    "soare.prop1.coverage": ClaimSpec(
        "a fixed design's confidence set (c = 2 sqrt(2) sigma, log_n(K^2/delta)) covers every "
        "direction at every n with probability >= 1 - delta (checked along the static XY path "
        "at d = 3, delta = 0.05)", "Soare et al. 2014, Prop. 1 and footnote 1",
        ErrorRate(_DELTA), paper_value=_delta("Prop. 1"), section="soare-fixed-design"),
    "soare.prop2.coverage": ClaimSpec(
        "the regularised estimate's confidence bound ||x||_{(A^eta)^-1} (sigma sqrt(d log((1 + n "
        "L^2/eta)/delta)) + eta^{1/2} ||theta*||) covers every arm with probability >= 1 - delta "
        "for any adaptive sequence (checked on a fixed one, the static XY path at d = 3, eta = "
        "1; the spec's RECONSTRUCTED form)", "Soare et al. 2014, Prop. 2 (Abbasi-Yadkori et al. "
        "2011, Thm 2)", ErrorRate(_DELTA), paper_value=_delta("Prop. 2"),
        section="soare-fixed-design"),
    "soare.lemma4.best_never_dominated": ClaimSpec(
        "an arm dominated by Eq. 16 (c ||x' - x||_{A^-1} sqrt(log_n(K^2/delta)) < Delta_n(x', x)) "
        "is suboptimal: the best arm e1 is dominated at no step, with probability >= 1 - delta "
        "(along the static XY path at d = 3)", "Soare et al. 2014, Lemma 4",
        ErrorRate(_DELTA), paper_value=_delta("Lemma 4"), section="soare-fixed-design"),
    "soare.lemma1.oracle_correct": ClaimSpec(
        "an allocation whose oracle confidence set S*(x_n) lies in C(x*) returns x* with "
        "probability >= 1 - delta: the XY-oracle, stopped by Eq. 4, returns e1 (runs of every d "
        "pooled)", "Soare et al. 2014, Lemma 1 (and Sec. 6)", ErrorRate(_DELTA),
        paper_value=_delta("Lemma 1"), figure="Figure 4", section="soare-errors"),
    "soare.lemma3.correct.{alg}": ClaimSpec(
        "stopping by Eq. 11 (S(x_n) inside one cone) returns x* with probability >= 1 - delta: "
        "{alg} returns e1 (runs of every d pooled)", "Soare et al. 2014, Lemma 3 (and Sec. 6)",
        ErrorRate(_DELTA), paper_value=_delta("Lemma 3"), figure="Figure 4",
        claim="soare.lemma3.correct", section="soare-errors"),
    # -- Lemma 2 -------------------------------------------------------------------------------
    "soare.lemma2.range.upper": ClaimSpec(
        "H_LB <= 4d / Delta_min^2 on every instance: the largest H_LB / (4d / Delta_min^2) over "
        "random instances is at most 1", "Soare et al. 2014, Lemma 2, Eq. 8 (upper)",
        AtMost(1 + LEMMA2_TOL), section="soare-lemma-2"),
    "soare.lemma2.range.lower.{form}": ClaimSpec(
        "{bound} <= H_LB on every instance: the largest ratio of this lower bound to H_LB over "
        "random instances is at most 1", "Soare et al. 2014, Lemma 2, Eq. 8 (lower)",
        AtMost(1 + LEMMA2_TOL), claim="soare.lemma2.range.lower", section="soare-lemma-2",
        causes="as printed the bound pairs the longest direction max ||y||^2 with the smallest "
               "gap Delta_min, which need not belong to the same y, and divides by L where "
               "Lambda <= L^2 I gives L^2; the per-direction form max_y ||y||^2 / (L^2 "
               "Delta(y)^2) <= H_LB holds on every instance"),
    "soare.lemma2.mab.{side}.{h_mab}": ClaimSpec(
        "on the canonical basis (a MAB), {inequality}: the largest ratio of its sides over random "
        "bandits is at most 1 (H_MAB: {h_mab})",
        "Soare et al. 2014, Lemma 2 and Sec. 2 (H_MAB = sum_i 1/Delta_i^2, 'the inverse of the "
        "pairwise gaps between the best arm and the suboptimal arms')", AtMost(1 + LEMMA2_TOL),
        claim="soare.lemma2.mab", section="soare-lemma-2",
        causes="summed over the suboptimal arms only, as the paper glosses H_MAB, H_MAB misses "
               "the cost of pulling the best arm, up to one more 1/Delta_min^2: H_LB <= 2 H_MAB "
               "fails; counting the best arm at Delta_min (Audibert et al. 2010) it holds"),
    # -- Figure 4: correctness -----------------------------------------------------------------
    "soare.fig4.all_correct.{alg}": ClaimSpec(
        "{alg} identifies the best arm e1 with probability >= 1 - delta (runs of every d "
        "pooled)", "Soare et al. 2014, Sec. 6 ('the sampling budget needed to identify the best "
        "arm with probability at least 1 - delta'; Theorem 3 for XY-adaptive)",
        ErrorRate(_DELTA), paper_value=_delta("Figure 4's runs"), figure="Figure 4",
        claim="soare.fig4.all_correct.{strategy}", section="soare-errors"),
    # -- Figure 4: the budgets against d ---------------------------------------------------------
    "soare.fig4.static_grow_with_d.{alg}": ClaimSpec(
        "for the static allocations more dimensions imply more directions and more features to "
        "estimate: {alg}'s budget grows with d (" + _SLOPE + ", at least 0)", _FIG4,
        AtLeast(0.0, effect=RESOLUTION),  # effect: an elasticity of RESOLUTION
        figure="Figure 4", claim="soare.fig4.static_grow_with_d",
        section="figure-4-sample-budget-against-dimension"),
    "soare.fig4.adaptive_flat_in_d.{alg}": ClaimSpec(
        "additional dimensions have little to no impact on {alg}: its budget is flat in d ("
        + _SLOPE + ", inside [-0.1, 0.1], the book's reading of 'flat')", _FIG4,
        # effect: the flat band's distance from 0 (it holds the no-effect value: a check)
        Band(-0.1, 0.1, effect=RESOLUTION), figure="Figure 4",
        claim="soare.fig4.adaptive_flat_in_d.{strategy}",
        causes=_CAUSE_RESET, section="the-reading-that-decides-the-picture"),
    "soare.fig4.gap_increases.{static}.{alg}": ClaimSpec(
        "the difference between the budgets of {static} and {alg} increases with d (the "
        "least-squares slope of the difference on d, linear scale since the difference can be "
        "negative, at least 0)", "Soare et al. 2014, Sec. 6 ('As shown in Fig. 4, the "
        "difference between the budget of XY-Adaptive and the static strategies increases with "
        "the number of dimensions')",
        # effect: a tenth of the static budget per unit of d across the grid (the row's scale)
        AtLeast(0.0, effect=RESOLUTION, relative=True), figure="Figure 4",
        claim="soare.fig4.gap_increases", causes=_CAUSE_RESET,
        section="the-reading-that-decides-the-picture"),
    "soare.fig4.fully_adaptive_no_gain.d{d}": ClaimSpec(
        "the sqrt(d) of Prop. 2 prevents the fully adaptive strategy from gaining any advantage "
        "compared to XY and G: its budget minus the smaller static budget is at least 0 (d = {d})",
        "Soare et al. 2014, Sec. 6",
        AtLeast(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of the static budget
        figure="Figure 4", claim="soare.fig4.fully_adaptive_no_gain", causes=_CAUSE_FA,
        section="the-fully-adaptive-baseline"),
    # -- Figure 4: the allocations -------------------------------------------------------------
    "soare.fig4.focus_e2.d{d}": ClaimSpec(
        "an efficient strategy focuses on the direction e1 - x_{d+1} by pulling e2: the "
        "XY-oracle's share of pulls on e2 minus its largest share on another arm is at least 0 "
        "(d = {d})", "Soare et al. 2014, Sec. 6",
        AtLeast(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of the other share
        figure="pull counts",
        claim="soare.fig4.focus_e2", section="soare-pull-counts"),
    "soare.fig4.mimics_oracle.{alg}.d{d}": ClaimSpec(
        "{alg} performs an allocation which mimics that of the oracle: its share of pulls "
        "on e2 over the XY-oracle's is inside [0.8, 1.25] (the book's band for 'similar'; "
        "d = {d})", "Soare et al. 2014, Sec. 6",
        Band(0.8, 1.25, effect=ratio_effect(0.8)),  # effect: a tenth of the band's lower end
        figure="pull counts",
        claim="soare.fig4.mimics_oracle", causes=_CAUSE_RESET, section="soare-pull-counts"),
    "soare.fig4.values": ClaimSpec(
        "Figure 4's bar heights: the budget of each strategy at each d",
        "Soare et al. 2014, Figure 4",
        NotComparable("Figure 4's bar heights are lost from the paper text (only its axis "
                      "labels survive)"), figure="Figure 4"),
    # -- Theorems 1-3 ----------------------------------------------------------------------------
    "soare.thm1.bound.d{d}": ClaimSpec(
        f"with probability >= 1 - delta, N^G <= {VALUES['thm1']['constant']} c^2 d (1 + beta) "
        "log_N(K^2/delta) / Delta_min^2: the mean over the runs of N^G over this bound (beta = "
        "0, the strictest) is at most 1 (d = {d})", VALUES["thm1"]["source"], AtMost(1.0),
        figure="Figure 4", claim="soare.thm1.bound", section="soare-theorems"),
    "soare.thm2.bound.d{d}": ClaimSpec(
        f"with probability >= 1 - delta, N^XY <= {VALUES['thm2']['constant']} c^2 d (1 + beta) "
        "log_N(K^2/delta) / Delta_min^2: the mean over the runs of N^XY over this bound (beta = "
        "0) is at most 1 (d = {d})", VALUES["thm2"]["source"], AtMost(1.0), figure="Figure 4",
        claim="soare.thm2.bound", section="soare-theorems"),
    "soare.thm3.bound.{alg}.d{d}": ClaimSpec(
        "with probability >= 1 - delta, N <= (1 + beta) max{M*, (16/alpha) N*} log(c "
        "sqrt(log_N(K^2/delta)) / Delta_min) / log(1/alpha) for {alg} (M* of Eq. 19 on "
        "the static XY path, N* of Eq. 7; the spec's RECONSTRUCTED form): the mean over the "
        "runs of N over this bound (beta = 0) is at most 1 (d = {d})", VALUES["thm3"]["source"],
        AtMost(1.0), figure="Figure 4", claim="soare.thm3.bound", causes=_CAUSE_RESET,
        section="soare-theorems"),
    # -- the book's own checks ---------------------------------------------------------------------
    "soare.greedy.oracle_rule_stalls": ClaimSpec(
        "a greedy implementation of the XY-oracle (spec ASSUMED) approaches H_LB: the largest "
        "greedy value over H_LB is at most 1.5",
        "spec Sec. 2.2 (ASSUMED greedy form of Eq. 5)", AtMost(1.5),
        claim="soare.fig4.adaptive_flat_in_d.XY-oracle", role="evidence",
        note="the spec's ASSUMED greedy form of the oracle rule (Eq. 5), not a claim of the "
             "paper: it stalls, so the book's XY-oracle tracks the optimal design",
        section="static-allocations-g-and-xy"),
    "soare.ambig.reset_vs_noreset": ClaimSpec(
        "XY-adaptive with the active set rebuilt is far worse than without: the smallest ratio "
        "of their mean budgets over d is at least 2", "spec Sec. 5 A2 (Xu et al. 2018 vs Fiez "
        "et al. 2019)", AtLeast(2.0), origin="book",
        note="the book's comparison of the two readings, not a claim of the paper",
        section="the-reading-that-decides-the-picture"),
    "soare.derived.oracle_d5": ClaimSpec(
        "our XY-oracle with K (not K^2) in the log needs what Xu et al.'s re-implementation "
        "reports at d = 5 (their Table 1 total)", _TABLE1["source"], Tolerance(rel=0.01),
        paper_value=Reference(float(sum(_TABLE1["XY-oracle"])),
                              "Xu et al. 2018, Table 1, XY-oracle row, summed over the arms "
                              "(another paper's number, judged as a claim in the LinGapE chapter)"),
        origin="book", note="a cross-check of the book's oracle against another re-implementation",
        section="soare-theorems"),
}


# ---------------------------------------------------------------------------------------------
# The protocol (bai.studies: the chapter's summary states the runs made against it)
# ---------------------------------------------------------------------------------------------

_P_FIG4 = "Sec. 6, 'In Fig. 4 we report the sampling budget of the algorithms, averaged over 100 " \
          "runs, for d = 2 . . . 10'"

#: The protocol of the paper's one experiment (Figure 4): runs per point, delta and the grid.
PROTOCOL: dict = {
    "fig4": {
        "experiment": "Figure 4 (every strategy, every d)",
        "runs": Printed(_SETTINGS["n_runs"], _P_FIG4),
        "deltas": Printed(_DELTA, "Sec. 6, 'For a fixed confidence delta = 0.05'"),
        "grid": {"d": [Printed(d, _P_FIG4) for d in _SETTINGS["dims"]]},
    },
}
