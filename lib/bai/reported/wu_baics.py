"""Values reported by Wu, Zheng, Zhu, "Best Arm Identification with Fairness Constraints on
Subpopulations" (BAICS), their readings and the claims the chapter judges.

Figures 1 and 2 (heat maps of the average sampling weights) are lost from the paper text; only
their textual descriptions remain and are recorded here as statements. Every experiment uses
delta = 0.1, Gaussian noise with sigma = 1, 5 initial draws per cell and 300 runs (Example 2:
"similar to Section 5.1").
"""

import math as _math

from ..claims import (AtLeast, AtMost, Band, ClaimSpec, Derived, ErrorRate, Printed, Reading,
                      Reference, Tolerance, TwoRates)
from ..claims import Agrees, RESOLUTION, ratio_effect  # the effects of signs (issue 33)

#: The values the paper reports, each with its source (data: only compared against, never printed
#: as ours).
VALUES: dict = {
    "table1": {
        "source": "Wu, Zheng, Zhu, Table 1 (Sec. 5.1, first example, 300 runs, delta = 0.1)",
        "n_runs": 300,
        "delta": 0.1,
        "mean_stopping_time": {"T-a-SCS": 530, "T-a-S": 1703, "Uniform": 2432},
        "pcs": {"T-a-SCS": 0.987, "T-a-S": 0.990, "Uniform": 0.983},
    },
    "example2": {
        "source": "Wu, Zheng, Zhu, Sec. 5.2 text (second example, delta = 0.1)",
        "n_runs": 300,  # "the numerical settings are similar to that of Section 5.1"
        "delta": 0.1,
        "tau_max": 15000,
        "mean_stopping_time": {"T-a-SCS": 3131},
        "pcs": {"T-a-SCS": 0.980},
        "baselines_capped": "T-a-S and Uniform exceed tau_max = 15000 iterations in a large "
                            "proportion of experiment copies (no number given)",
    },
    "qualities": {
        "source": "Wu, Zheng, Zhu, Sec. 5.1 and Sec. 5.2 (the qualities of the arms)",
        # (example, arm) -> (printed quality, its last printed digit)
        "E1": {1: (0.62, 0.01), 2: (0.35, 0.01), 3: (1.01, 0.01)},
        "E2": {1: (0.47, 0.01), 2: (0.47, 0.01), 3: (0.4, 0.1)},
    },
    "figure1": {
        "source": "Wu, Zheng, Zhu, Sec. 5.1 text on Figure 1 (the figure itself is lost)",
        "statements": [
            "T-a-SCS assigns more empirical sampling weight than T-a-S to the cells whose means "
            "are close to 0 (subpopulation 1 of arm 1, subpopulation 1 of arm 3)",
            "as the infeasibility of arm 3 is discovered, T-a-SCS allocates more samples to arm 2 "
            "than T-a-S",
        ],
    },
    "figure2": {
        "source": "Wu, Zheng, Zhu, Sec. 5.2 text on Figure 2 (the figure itself is lost)",
        "statements": [
            "T-a-SCS assigns less empirical weight to arm 1 than T-a-S, aside from checking its "
            "feasibility on subpopulation 1",
            "T-a-SCS assigns more empirical weight to the feasible arm 3, and concludes with less "
            "sampling times",
        ],
    },
}

# ---------------------------------------------------------------------------------------------
# The settings of Sec. 5 (one source for the chapter and its study)
# ---------------------------------------------------------------------------------------------

VALUES["settings"] = {
    "source": "Wu, Zheng, Zhu, Sec. 5 (both examples; tau_max stated for Example 2, Sec. 5.2)",
    "delta": VALUES["table1"]["delta"],
    "tau_max": VALUES["example2"]["tau_max"],
    "n0": 5,            # initial draws per cell
    "step_size": 1.0,   # alpha of the subgradient step of T-a-SCS (Sec. 4.1)
    "sigma": 1.0,       # Gaussian noise of every cell
}

# ---------------------------------------------------------------------------------------------
# The printed numbers, each with where the paper prints it
# ---------------------------------------------------------------------------------------------

_T1, _E2 = VALUES["table1"], VALUES["example2"]
#: short names of the three methods of Table 1 in claim ids
SHORT = {"T-a-SCS": "tascs", "T-a-S": "tas", "Uniform": "unif"}

#: The printed values (:class:`bai.claims.Printed`, with their locators) by name.
PRINTED: dict = {}
for _alg in SHORT:
    PRINTED[f"e1.tau.{_alg}"] = Printed(_T1["mean_stopping_time"][_alg],
                                        f"Table 1 (Sec. 5.1), row tau_delta, column {_alg}")
    PRINTED[f"e1.pcs.{_alg}"] = Printed(_T1["pcs"][_alg],
                                        f"Table 1 (Sec. 5.1), row P(k = k*), column {_alg}")
PRINTED["e2.tau.T-a-SCS"] = Printed(_E2["mean_stopping_time"]["T-a-SCS"],
                                    "Sec. 5.2, 'For T-a-SCS we have tau_delta = 3131'")
PRINTED["e2.pcs.T-a-SCS"] = Printed(_E2["pcs"]["T-a-SCS"],
                                    "Sec. 5.2, 'P(k = k*) = 0.980'")
PRINTED["delta"] = Printed(_T1["delta"], "Sec. 5.1 and 5.2, 'The probability threshold of "
                                          "correct selection is set as delta = 0.1'")
PRINTED["n_runs"] = Printed(_T1["n_runs"], "Sec. 5.1, 'We run 300 experiments'")
PRINTED["tau_max"] = Printed(_E2["tau_max"], "Sec. 5.2, 'the limit of tau_max = 15000'")
for _ex in ("E1", "E2"):
    for _arm, (_v, _) in VALUES["qualities"][_ex].items():
        PRINTED[f"quality.{_ex}.{_arm}"] = Printed(
            _v, f"Sec. 5.{1 if _ex == 'E1' else 2}, 'mu_{_arm} = {_v:g}'")

# ---------------------------------------------------------------------------------------------
# The readings
# ---------------------------------------------------------------------------------------------

_PRINTED_NOTE = (
    "the paper as printed: the stopping statistic (10), Z = tF/2, and the subgradient step of "
    "Sec. 4.1, w <- P_Sigma(w + alpha c), projected onto the simplex Sigma_{KxL} as printed "
    "(ASSUMED Euclidean: the paper does not name the norm); the algorithm and (10) compute the "
    "maximiser of (6) and the infimum over Alt(mu) as defined, with the qualities of (2) "
    "(q-weighted); Theorem 3.2's (8), printed with unweighted sums, is judged as its own claim")
_FORCED = ("the iterate projected onto the forced-exploration set Sigma^eps_t instead of the "
           "simplex: contradicts the printed P_Sigma of Sec. 4.1, which projects onto Sigma_{KxL}")
_ONE = ("Z = tF: contradicts the printed GLR statistic (10), Z = tF/2; stopping at tF > "
        "ln((1 + ln t)/delta) is the printed rule at a vacuous nominal risk sqrt(delta(1 + ln t))")
_QSUM = ("Theorem 3.2's (8) with the q-weighted qualities q.lambda_k >= q.lambda_1 in f^opt: "
         "the paper prints lambda_k = sum_l lambda_{k,l} (unweighted), which contradicts the "
         "quality (2) whenever q is not uniform")

#: The readings of the paper (:class:`bai.claims.Reading`), by name: the printed one is the
#: headline of each claim; ``settings`` are those the computation runs with (the projection of
#: T-a-SCS's subgradient iterate, the scale of the GLR statistic Z = glr_scale t F, and, for the
#: rows on Theorem 3.2's (8), the sum in its quality constraint).
READINGS = {r.name: r for r in (
    Reading("spec", "printed", _PRINTED_NOTE, {"projection": "simplex", "glr_scale": 0.5}),
    Reading("forced", "alternative", _FORCED, {"projection": "forced", "glr_scale": 0.5}),
    Reading("no-half", "alternative", _ONE, {"projection": "simplex", "glr_scale": 1.0}),
    Reading("forced-no-half", "alternative",
            _FORCED + "; and " + _ONE + "; not delta-PAC: its mean drops below "
            "T* kl(delta, 1 - delta) at small delta (the chapter's sweep)",
            {"projection": "forced", "glr_scale": 1.0}),
    Reading("q-weighted-8", "alternative", _QSUM, {"quality_sum": "q-weighted"}),
)}

# ---------------------------------------------------------------------------------------------
# The rules
# ---------------------------------------------------------------------------------------------

#: A printed mean stopping time (an integer): half a unit of its last digit, plus 2 SE of the
#: difference between our mean and the paper's (itself a mean of 300 runs with the same spread
#: per run: the chapter passes that SE).
_MEAN = Tolerance(abs=0.5, z=2.0)
#: The rate of correct selection against the paper's, both as counts (the paper's of its 300
#: runs): Fisher's two-sided exact test at 5 %. Three-way: the chapter makes a row inconclusive
#: when the test has no power, i.e. would not reject even a rate at the delta-PAC target
#: 1 - delta at our number of runs (``bai.studies.wu_baics.pcs_check``).
_RATE = TwoRates("equal", test="fisher")
#: The book's reading of "flat" (an elasticity below 0.1) and of "grows without bound" (below it);
#: flat states the effect RESOLUTION, its distance from 0 (it holds 0: a check whatever the runs).
_FLAT, _GROWS = Band(-0.1, 0.1, z=2.0, effect=RESOLUTION), AtMost(-0.1)
#: A closed form against an independent computation: an identity, pinned to a numerical tolerance.
_IDENTITY = Agrees(1e-6)

_CAUSE_SIMPLEX = ("projected onto the simplex as printed (Euclidean, ASSUMED), the subgradient "
                  "iterate cycles on the boundary after a round with no empirically feasible "
                  "arm, and T-a-SCS tracks poor weights")
_CAUSE_HALF = ("with the printed Z = tF/2 every method stops about twice as late as the paper "
               "reports; the paper's scale needs Z = tF, which contradicts (10)")
_CAUSE_PCS = ("the printed Z = tF/2 stops later and errs less than the paper's runs, whose "
              "stopping times match Z = tF")
_CAUSE_QSUM = ("the printed quality constraint of (8) sums lambda_{k,l} without q; the quality "
               "(2) that defines k* and Alt weights them by q")
_CAUSE_PAPER_LB = ("the paper's stopping rule uses the heuristic threshold ln((1 + ln t)/delta) "
                   "and, by its stopping times, Z = tF; a rule that stops below T* kl(delta, "
                   "1 - delta) on average is not delta-PAC on all of S, so Theorem 4.1's "
                   "delta-PAC claim and Theorem 3.1 cannot both hold for the paper's runs")

_EX1CAUSE = ("a wrong T* solver, or a wrong instance of Example 1 (its printed means, q and M)")
_TWO = "two-details-that-decide-the-numbers"
_BEYOND = "beyond-the-paper-the-lower-bound-and-delta-to0"
_F1SEC = "figure-1-where-the-samples-go-in-example-1"
_EX1SEC = "baics-example1"
_E2SEC = "example-2-and-figure-2"
_F1, _F2 = VALUES["figure1"]["source"], VALUES["figure2"]["source"]
_BOOK = "the book's own statement (not the paper's): "

#: The claims the chapter checks: id -> :class:`bai.claims.ClaimSpec` (statement, source, rule,
#: role). Ids with ``{reading}`` are checked once per reading (``settings=`` of the runs).
CLAIMS: dict = {
    # -- Sec. 5: the instances as printed ------------------------------------------------------
    "baics.sec5.quality2.{example}.arm{arm}": ClaimSpec(
        "{Example}: the quality of arm {arm}, mu_k = sum_l q_l mu_(k,l), is the printed value",
        source=VALUES["qualities"]["source"], rule=Tolerance(abs=0.005),
        claim="baics.sec5.qualities", section="baics-model",
        causes="a wrong instance (the printed means or q of Sec. 5)"),
    "baics.sec5.quality1.{example}.arm{arm}": ClaimSpec(
        "{Example}: the quality of arm {arm}, mu_k = sum_l q_l mu_(k,l), is the printed value",
        source=VALUES["qualities"]["source"], rule=Tolerance(abs=0.05),
        claim="baics.sec5.qualities", section="baics-model",
        causes="a wrong instance (the printed means or q of Sec. 5)"),
    # -- Theorem 3.2: the closed forms ---------------------------------------------------------
    "baics.thm32.closed_form_empty": ClaimSpec(
        "When no arm is feasible, T* = 2 sum_k mu_(k,l(k))^-2 and the closed-form weights (7) are "
        "optimal (value: the largest relative difference from the cutting-plane T* of (6))",
        source="Wu, Zheng, Zhu, Thm 3.2 and Sec. 4.1, (7)", rule=_IDENTITY,
        section="baics-formula7",
        causes="a wrong closed form (7) or a wrong cutting-plane T*"),
    "baics.thm32.closed_form_empty.cvxpy": ClaimSpec(
        "The closed form (7) agrees with an independent conic program (cvxpy): largest absolute "
        "difference of max F", source="Wu, Zheng, Zhu, Thm 3.2, (7)", rule=AtMost(1e-6),
        claim="baics.thm32.closed_form_empty", role="evidence",
        note="the same closed form against an independent solver"),
    "baics.thm32.closed_form_feasible.{instances}.{reading}": ClaimSpec(
        "(8) gives F of (6): min(f^opt, f^fea) equals the infimum over Alt(mu) of the definition "
        "on {instances} (value: the largest relative difference over the weights tried)",
        source="Wu, Zheng, Zhu, Thm 3.2, (8), with the notation lambda_k = sum_l lambda_(k,l) "
               "printed before it", rule=Agrees(1e-5),  # an identity: its numerical precision
        claim="baics.thm32.closed_form_feasible",
        section="baics-formula8", causes=_CAUSE_QSUM),
    "baics.thm32.inner_qp_exact": ClaimSpec(
        "The inner QP of (8) is solved exactly by the KKT / one-dimensional root (largest "
        "absolute difference from cvxpy)",
        source="the book's solver of Sec. 4.1's inner problem (Lagrangian method)",
        rule=AtMost(1e-6), origin="book",
        note=_BOOK + "the exact inner solver agrees with a generic one"),
    "baics.thm32.tstar_solvers_agree": ClaimSpec(
        "T* from the cutting-plane method agrees with an independent conic program (largest "
        "relative difference)", source="the book's solvers of (6) and (8)", rule=AtMost(1e-5),
        origin="book", note=_BOOK + "its two solvers of T* agree"),
    # -- Example 1 of Sec. 3.2 -----------------------------------------------------------------
    "baics.ex1.harder_than_bai.baics": ClaimSpec(
        "Example 1: BAICS becomes hard as eps -> 0 (value: the elasticity d ln T* / d ln eps at "
        "the smallest eps of the grid; below -0.1: grows without bound)",
        source="Wu, Zheng, Zhu, Sec. 3.2, Example 1", rule=_GROWS,
        claim="baics.ex1.harder_than_bai", section=_EX1SEC, causes=_EX1CAUSE),
    "baics.ex1.harder_than_bai.bai": ClaimSpec(
        "Example 1: BAI (M = 0) stays easy as eps -> 0 (value: the elasticity of its T* at the "
        "smallest eps; flat: inside [-0.1, 0.1])",
        source="Wu, Zheng, Zhu, Sec. 3.2, Example 1", rule=_FLAT,
        claim="baics.ex1.harder_than_bai", section=_EX1SEC, causes=_EX1CAUSE),
    "baics.ex1.derivation_34": ClaimSpec(
        "T* eps^2 -> 34 in Example 1 (the chapter's derivation, not the paper's)",
        source="the chapter's derivation of Example 1", rule=Tolerance(rel=1e-4),
        paper_value=Reference(34.0, "the chapter's derivation: max F = eps^2 / 17"),
        origin="book", note=_BOOK + "its closed form of Example 1"),
    "baics.ex1.variantA_easy.baics": ClaimSpec(
        "Variant A: BAICS stays easy as eps -> 0 (value: the elasticity of T* at the smallest "
        "eps; flat: inside [-0.1, 0.1])", source="Wu, Zheng, Zhu, Sec. 3.2", rule=_FLAT,
        claim="baics.ex1.variantA_easy", section=_EX1SEC, causes=_EX1CAUSE),
    "baics.ex1.variantA_easy.bai": ClaimSpec(
        "Variant A: BAI is hard, its gap eps / 2 (value: the elasticity of the BAI T* at the "
        "smallest eps; below -0.1: grows without bound)", source="Wu, Zheng, Zhu, Sec. 3.2",
        rule=_GROWS, claim="baics.ex1.variantA_easy", section=_EX1SEC, causes=_EX1CAUSE),
    "baics.ex1.variantB_no_need_feasibility": ClaimSpec(
        "Variant B: T* stays bounded as eps -> 0, the feasibility of arm 2 need not be resolved "
        "(value: the elasticity of T* at the smallest eps; flat: inside [-0.1, 0.1])",
        source="Wu, Zheng, Zhu, Sec. 3.2", rule=_FLAT, section=_EX1SEC, causes=_EX1CAUSE),
    # -- Table 1 ---------------------------------------------------------------------------------
    "baics.e1.pcs_above_target.{method}.{reading}": ClaimSpec(
        "{method} is correct with probability >= 1 - delta on E1 (Table 1; the three strategies "
        "share the stopping rule of Sec. 4.2)", source=_T1["source"],
        rule=ErrorRate(_T1["delta"]), figure="Table 1", section=_TWO,
        claim="baics.e1.pcs_above_target",
        causes="a stopping rule that is not delta-PAC on E1 (the threshold ln((1 + ln t)/delta) "
               "is heuristic); or too few runs to confirm an error rate below delta"),
    "baics.e1.tascs_fastest.{reading}": ClaimSpec(
        "T-a-SCS stops earlier than both baselines on E1 (value: T-a-SCS's mean minus the "
        "smaller baseline mean, ± SE)",
        source="Wu, Zheng, Zhu, Sec. 5 ('we demonstrate the efficiency of T-a-SCS') and Table 1",
        # effect: a tenth of the smaller baseline mean
        rule=AtMost(0.0, effect=RESOLUTION, relative=True),
        figure="Table 1", section=_TWO, claim="baics.e1.tascs_fastest",
        causes=_CAUSE_SIMPLEX),
    # -- Figures 1 and 2 (their descriptions) ----------------------------------------------------
    "baics.e1.weights_near_zero_cells.arm{arm}.{reading}": ClaimSpec(
        "T-a-SCS puts more weight than T-a-S on (arm {arm}, subpop 1), a cell whose mean is near "
        "0 (value: T-a-SCS minus T-a-S mean weight, ± SE)", source=_F1,
        rule=AtLeast(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of T-a-S's weight
        figure="Figure 1", section=_F1SEC, claim="baics.e1.weights_near_zero_cells",
        causes=_CAUSE_SIMPLEX),
    "baics.e1.more_arm2.{reading}": ClaimSpec(
        "T-a-SCS puts more total weight on arm 2 than T-a-S (value: the difference, ± SE)",
        # effect: a tenth of T-a-S's weight
        source=_F1, rule=AtLeast(0.0, effect=RESOLUTION, relative=True),
        figure="Figure 1", section=_F1SEC,
        claim="baics.e1.more_arm2", causes=_CAUSE_SIMPLEX),
    "baics.e2.less_arm1.{reading}": ClaimSpec(
        "T-a-SCS puts less weight than T-a-S on arm 1, subpopulations 2 and 3 (value: the "
        "difference, ± SE)", source=_F2,
        rule=AtMost(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of T-a-S's weight
        figure="Figure 2", section=_E2SEC,
        claim="baics.e2.less_arm1", causes=_CAUSE_SIMPLEX),
    "baics.e2.more_arm3.{reading}": ClaimSpec(
        "T-a-SCS puts more weight than T-a-S on arm 3 (value: the difference, ± SE)", source=_F2,
        rule=AtLeast(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of T-a-S's weight
        figure="Figure 2", section=_E2SEC, claim="baics.e2.more_arm3",
        causes=_CAUSE_SIMPLEX),
    # -- Example 2 -------------------------------------------------------------------------------
    "baics.e2.tascs_tau.{reading}": ClaimSpec(
        "T-a-SCS mean stopping time on E2 ({reading}; SE of the difference from the paper's "
        "300-run mean)", source=_E2["source"], rule=_MEAN,
        paper_value=PRINTED["e2.tau.T-a-SCS"], section=_TWO, claim="baics.e2.tascs_tau",
        causes=_CAUSE_HALF + "; and " + _CAUSE_SIMPLEX),
    "baics.e2.tascs_pcs.{reading}": ClaimSpec(
        "T-a-SCS correct-selection rate on E2 ({reading})", source=_E2["source"], rule=_RATE,
        paper_value=PRINTED["e2.pcs.T-a-SCS"], section=_TWO, claim="baics.e2.tascs_pcs",
        causes=_CAUSE_PCS),
    "baics.e2.baselines_censored.{method}.{reading}": ClaimSpec(
        "{method} exceeds tau_max = 15000 in a large proportion of runs on E2 (value: the capped "
        "fraction ± its binomial SE; 'large': at least 1/4, the book's reading)",
        source=_E2["source"], section=_E2SEC, rule=AtLeast(0.25),
        claim="baics.e2.baselines_censored", causes=_CAUSE_HALF),
    "baics.e2.tascs_faster.{reading}": ClaimSpec(
        "T-a-SCS concludes on E2 with fewer samples than both baselines (value: T-a-SCS's mean "
        "minus the smaller baseline mean, capped at tau_max, ± SE)",
        source=_F2 + ": 'with less sampling times'",
        # effect: a tenth of the smaller baseline mean
        rule=AtMost(0.0, effect=RESOLUTION, relative=True),
        section=_E2SEC,
        claim="baics.e2.tascs_faster", causes=_CAUSE_SIMPLEX),
    # -- Theorem 3.1 (the lower bound) and Theorem 4.1 ------------------------------------------
    "baics.thm31.lb.{grid}.{example}.{method}.delta{delta}.{reading}": ClaimSpec(
        "{method} on {Example} at delta = {delta} (grid {grid}): E[tau] >= T* kl(delta, 1 - delta) "
        "(value: our mean over the bound T* kl(delta, 1 - delta), which the book computes, ± SE)",
        source="Wu, Zheng, Zhu, Thm 3.1, (5)", section=_BEYOND, rule=AtLeast(1.0),
        claim="baics.thm31.lb",
        causes="a stopping rule that is not delta-PAC (the threshold ln((1 + ln t)/delta) is "
               "heuristic, and more so without the 1/2 of (10))"),
    "baics.thm31.lb.paper_means.{example}.{reading}": ClaimSpec(
        "The paper's own T-a-SCS mean on {Example} respects its Thm 3.1 bound T* kl(0.1, 0.9) "
        "(value: the paper's mean over the bound, which the book computes; its SE from the "
        "spread of our runs under {reading}, as for a mean of the paper's 300 runs)",
        source="Wu, Zheng, Zhu, Table 1 and Sec. 5.2 (the means), Thm 3.1 (the bound) and "
               "Thm 4.1 (T-a-SCS is delta-PAC)", section=_BEYOND, rule=AtLeast(1.0),
        claim="baics.thm31.lb.paper_means", causes=_CAUSE_PAPER_LB),
    "baics.thm41.asymptotic.{reading}": ClaimSpec(
        "dE[tau]/dln(1/delta) -> T* as delta -> 0 for T-a-SCS on E1 (Thm 4.1: E[tau]/ln(1/delta) "
        "-> T*; value: the fitted marginal slope over T*, ± SE; 'equal': inside [0.8, 1.25], the "
        "book's band for 'nearly equal')", source="Wu, Zheng, Zhu, Thm 4.1, (11)",
        rule=Band(0.8, 1.25, effect=ratio_effect(0.8)),  # a tenth of the band's lower end
        section=_BEYOND, claim="baics.thm41.asymptotic",
        causes=_CAUSE_SIMPLEX),
    "baics.e1.weights_vs_wstar.{reading}": ClaimSpec(
        "T-a-SCS's empirical weights approach w* as delta shrinks (value: the mean L1 distance "
        "of N/tau from w* at the smallest delta minus that at the largest, ± SE)",
        source="Wu, Zheng, Zhu, Sec. 4.3 (proof of Thm 4.1)", section=_BEYOND,
        claim="baics.thm41.asymptotic", role="evidence",
        note="the proof's mechanism: the empirical weights approach w*", rule=AtMost(0.0)),
    "baics.eq12.c_tracking.{reading}": ClaimSpec(
        "C-tracking keeps |N_kl(t) - sum_s w_kl(s)| <= KL(1 + sqrt t) (value: the largest ratio "
        "of the two over every T-a-SCS run and every t)",
        source="Wu, Zheng, Zhu, (12) (Garivier and Kaufmann 2016, Lemma 7)", rule=AtMost(1.0),
        section="baics-algorithm", claim="baics.eq12.c_tracking",
        causes="a C-tracking that does not follow the cumulated weights (the sum started "
               "elsewhere than at the warm-up counts, ASSUMED, or a wrong argmax)"),
}

#: The values of delta at which the chapter may check Theorem 4.1's delta-PAC claim (every
#: profile's sweep is a subset): one claim spec per delta, whose rule is ErrorRate(delta).
PAC_DELTAS = (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8)


def pac_delta(delta: float) -> Printed:
    """The risk level of a row of Theorem 4.1's delta-PAC claim, with where it comes from: the
    paper's delta of Sec. 5, or Theorem 4.1's 'for every delta' at a delta of the sweep."""
    if _math.isclose(delta, _T1["delta"]):
        return PRINTED["delta"]
    return Printed(delta, f"Thm 4.1, 'our algorithm is delta-PAC' for every delta (here the "
                          f"sweep's delta = {delta:g})")


def pac_id(delta: float) -> str:
    """The id of the spec of Theorem 4.1's delta-PAC claim at ``delta`` (:data:`PAC_DELTAS`)."""
    if not any(_math.isclose(delta, d) for d in PAC_DELTAS):
        raise ValueError(f"delta = {delta:g} is not among PAC_DELTAS {PAC_DELTAS}")
    return f"baics.thm41.pac.delta{delta:.0e}.{{example}}.{{reading}}"


for _d in PAC_DELTAS:
    CLAIMS[pac_id(_d)] = ClaimSpec(
        f"T-a-SCS is delta-PAC: correct with probability >= 1 - delta on {{Example}} at delta = "
        f"{_d:g}", source="Wu, Zheng, Zhu, Thm 4.1", section=_BEYOND, rule=ErrorRate(_d),
        claim="baics.thm41.pac",
        causes="a stopping rule that is not delta-PAC (the threshold ln((1 + ln t)/delta) is "
               "heuristic, and more so without the 1/2 of (10))")

for _alg, _s in SHORT.items():   # Table 1: one claim per method, one row per reading
    CLAIMS[f"baics.e1.{_s}_tau.{{reading}}"] = ClaimSpec(
        f"{_alg} mean stopping time on E1 ({{reading}}; SE of the difference from the paper's "
        f"300-run mean)", source=_T1["source"], rule=_MEAN,
        paper_value=PRINTED[f"e1.tau.{_alg}"], figure="Table 1", section=_TWO,
        claim=f"baics.e1.{_s}_tau", causes=_CAUSE_HALF + (
            "; and " + _CAUSE_SIMPLEX if _alg == "T-a-SCS" else ""))
    CLAIMS[f"baics.e1.{_s}_pcs.{{reading}}"] = ClaimSpec(
        f"{_alg} correct-selection rate on E1 ({{reading}})", source=_T1["source"], rule=_RATE,
        paper_value=PRINTED[f"e1.pcs.{_alg}"], figure="Table 1", section=_TWO,
        claim=f"baics.e1.{_s}_pcs", causes=_CAUSE_PCS)
    if _alg != "T-a-SCS":
        _a, _b = _T1["mean_stopping_time"][_alg], _T1["mean_stopping_time"]["T-a-SCS"]
        CLAIMS[f"baics.e1.ratio_{_s}.{{reading}}"] = ClaimSpec(
            f"{_alg} / T-a-SCS mean stopping time on E1 (the paper states no ratio: Table 1's "
            f"means give it)", source=_T1["source"],
            rule=Tolerance(rel=0.5 / _a + 0.5 / _b, z=2.0),
            paper_value=Derived(f"{_s} / tascs", {_s: PRINTED[f"e1.tau.{_alg}"],
                                                   "tascs": PRINTED["e1.tau.T-a-SCS"]}),
            figure="Table 1", section=_TWO, claim="baics.e1.tascs_fastest", role="evidence",
            note="the speed-up, derived from Table 1's means (evidence: the paper states no "
                 "ratio)")


# ---------------------------------------------------------------------------------------------
# The protocol (bai.studies: the chapter's summary states the runs made against it)
# ---------------------------------------------------------------------------------------------

from . import Assumed as _Assumed  # noqa: E402

#: The protocol of both experiments of Sec. 5: runs, delta, the cap tau_max.
PROTOCOL: dict = {
    "table1": {
        "experiment": "Table 1 (first example, Sec. 5.1)", "runs": PRINTED["n_runs"],
        "deltas": PRINTED["delta"]},
    "example2": {
        "experiment": "Second example (Sec. 5.2)",
        "runs": _Assumed(VALUES["example2"]["n_runs"], "the spec: Sec. 5.2 says 'the numerical "
                                                       "settings are similar to that of Section "
                                                       "5.1' (300 runs)"),
        "deltas": PRINTED["delta"],
        "grid": {"tau_max": PRINTED["tau_max"]}},
}
