"""Values reported by Wu, Zheng, Zhu, "Best Arm Identification with Fairness Constraints on
Subpopulations" (BAICS).

Figures 1 and 2 (heat maps of the average sampling weights) are lost from the paper text; only
their textual descriptions remain and are recorded here as statements. Every experiment uses
delta = 0.1, Gaussian noise with sigma = 1, 5 initial draws per cell and 300 runs (Example 2:
"similar to Section 5.1").
"""

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
            "T-a-SCS assigns more empirical weight to the feasible arm 3",
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
# The claims the chapter checks (their fixed text; the chapter measures and checks each one)
# ---------------------------------------------------------------------------------------------

import math as _math  # noqa: E402

from ..claims import ClaimSpec, ErrorRate, Holds, Tolerance, TwoRates  # noqa: E402

#: Two 300-run means estimating the same quantity: their difference has SE about sqrt(2) se.
Z_TWO_MEANS = 2 * _math.sqrt(2)
_MC = Tolerance(z=Z_TWO_MEANS)
_T1, _E2 = VALUES["table1"], VALUES["example2"]
_F1, _F2 = VALUES["figure1"]["source"], VALUES["figure2"]["source"]
_TWO = "two-details-that-decide-the-numbers"
_BEYOND = "beyond-the-paper-the-lower-bound-and-delta-to0"
_DIFF_UP = "T-a-SCS minus T-a-S weight > +2 SE (the SE of the difference is in the details)"
_DIFF_DOWN = "T-a-SCS minus T-a-S weight < -2 SE (the SE of the difference is in the details)"
#: short names of the three methods of Table 1 in claim ids
SHORT = {"T-a-SCS": "tascs", "T-a-S": "tas", "Uniform": "unif"}

#: The readings under which the chapter runs the experiments (``reading=`` of a check): the
#: paper's printed reading (the GLR statistic (10), Z = tF/2, and the spec's ASSUMED Euclidean
#: projection onto the simplex, since the paper does not specify the projection) and the
#: alternatives, each with why it is not the paper's. Baselines depend on the GLR only.
_ONE = ("Z = tF: contradicts the printed GLR statistic (10), Z = tF/2; stopping at tF > "
        "ln((1 + ln t)/delta) is the printed rule at a vacuous nominal risk sqrt(delta(1 + ln t))")
_FORCED = ("the iterate projected onto the forced-exploration set Sigma^eps instead of the "
           "simplex: the paper does not specify the projection (the spec assumes the simplex)")
#: The readings of the paper: name -> ``{role, note}`` (:class:`bai.claims.ClaimsLedger`); the
#: printed one is the headline of each claim.
READINGS = {
    "spec": {"role": "printed", "note": ""},
    "glr-half": {"role": "printed", "note": ""},
    "forced": {"role": "alternative", "note": _FORCED},
    "no-half": {"role": "alternative", "note": _ONE},
    "forced-no-half": {"role": "alternative",
                       "note": _FORCED + "; and " + _ONE + "; not delta-PAC: its mean drops below "
                       "T* kl(delta, 1 - delta) at small delta (the chapter's sweep)"},
    "glr-one": {"role": "alternative", "note": _ONE},
}
#: The rate of correct selection against the paper's (both as counts of 300 runs): Fisher's
#: two-sided exact test at 5 % (a pooled normal rule is wrong at zero counts).
_RATE = TwoRates("equal", test="fisher")
_CAUSE_SIMPLEX = ("projected onto the simplex (the spec's assumption; the paper does not say), "
                  "the subgradient iterate cycles on the boundary after a round with no "
                  "empirically feasible arm, and T-a-SCS tracks poor weights")
_CAUSE_HALF = ("with the printed Z = tF/2 every method stops about twice as late as the paper "
               "reports; the paper's scale needs Z = tF, which contradicts (10)")
_CAUSE_PCS = ("the printed Z = tF/2 stops later and errs less than the paper's runs, whose "
              "stopping times match Z = tF")

#: The claims the chapter checks: id -> :class:`bai.claims.ClaimSpec` (statement, source, rule,
#: role).
CLAIMS: dict = {
    # -- Theorem 3.2: the lower bound is exact --------------------------------------------------
    "baics.thm32.closed_form_empty": ClaimSpec(
        "When no arm is feasible, T* = 2 sum_k mu_(k,l(k))^-2 and the closed-form weights (7) are "
        "optimal", source="Wu, Zheng, Zhu, Thm 3.2 and Sec. 4.1, (7)", rule=Tolerance(abs=1e-6),
        paper_value=0.0, causes="a wrong closed form (7) or a wrong cutting-plane T*"),
    "baics.thm32.closed_form_empty.cvxpy": ClaimSpec(
        "The closed form (7) agrees with an independent conic program (cvxpy)",
        source="Wu, Zheng, Zhu, Thm 3.2, (7)", rule=Tolerance(abs=1e-7), paper_value=0.0,
        claim="baics.thm32.closed_form_empty", role="evidence",
        note="the same closed form against an independent solver"),
    "baics.thm32.inner_qp_exact": ClaimSpec(
        "The inner QP of (8) is solved exactly by the KKT / one-dimensional root",
        source="Wu, Zheng, Zhu, Sec. 4.1 (Lagrangian method)", rule=Tolerance(abs=1e-6),
        paper_value=0.0, role="check"),
    "baics.thm32.tstar_solvers_agree": ClaimSpec(
        "T* from the cutting-plane method agrees with an independent conic program",
        source="Wu, Zheng, Zhu, Thm 3.2, (8)", rule=Tolerance(abs=1e-5), paper_value=0.0,
        role="check"),
    # -- Example 1 of Sec. 3.2 --------------------------------------------------------------------
    "baics.ex1.harder_than_bai": ClaimSpec(
        "Example 1 (Sec. 3.2): BAICS becomes hard as eps -> 0 (T* eps^2 -> 34, derived) while BAI "
        "stays easy", source="Wu, Zheng, Zhu, Sec. 3.2, Example 1", rule=Tolerance(rel=1e-4),
        paper_value=34.0),   # derived in the chapter: the paper gives no number
    "baics.ex1.variantA_easy": ClaimSpec(
        "Variant A: BAICS is easy (T* bounded) although the BAI gap is eps / 2",
        source="Wu, Zheng, Zhu, Sec. 3.2",
        rule=Holds("BAICS T* <= its eps = 0 limit (in the details) on the whole grid, and BAI "
                   "T* eps^2 does not fall by more than half (BAI T* grows like 1 / eps^2)")),
    "baics.ex1.variantB_no_need_feasibility": ClaimSpec(
        "Variant B: T* stays bounded as eps -> 0 (the feasibility of arm 2 need not be resolved)",
        source="Wu, Zheng, Zhu, Sec. 3.2",
        rule=Holds("T* <= its eps = 0 limit (in the details; finite: the limit instance is in S) "
                   "on the whole grid")),
    # -- Table 1 and Example 2: one claim per reading ({reading}) --------------------------------
    "baics.e2.tascs_tau.{reading}": ClaimSpec(
        "T-a-SCS mean stopping time on E2 ({reading})", source=_E2["source"], rule=_MC,
        paper_value=_E2["mean_stopping_time"]["T-a-SCS"], section=_TWO,
        claim="baics.e2.tascs_tau", causes=_CAUSE_HALF + "; and " + _CAUSE_SIMPLEX),
    "baics.e2.tascs_pcs.{reading}": ClaimSpec(
        "T-a-SCS correct-selection rate on E2 ({reading})", source=_E2["source"], rule=_RATE,
        paper_value=_E2["pcs"]["T-a-SCS"], section=_TWO, claim="baics.e2.tascs_pcs",
        causes=_CAUSE_PCS),
    "baics.e2.baselines_censored.{reading}": ClaimSpec(
        "T-a-S and Uniform exceed tau_max = 15000 in a large proportion of runs",
        source=_E2["source"], section="example-2-and-figure-2",
        rule=Holds("the smaller of the two capped fractions is at least 1/4"),
        claim="baics.e2.baselines_censored", causes=_CAUSE_HALF),
    # -- Figures 1 and 2 (their descriptions) ----------------------------------------------------
    "baics.e1.weights_near_zero_cells.arm1.{reading}": ClaimSpec(
        "T-a-SCS puts more weight than T-a-S on (arm 1, subpop 1)", source=_F1,
        rule=Holds(_DIFF_UP), figure="Figure 1",
        section="figure-1-where-the-samples-go-in-example-1",
        claim="baics.e1.weights_near_zero_cells.arm1", causes=_CAUSE_SIMPLEX),
    "baics.e1.weights_near_zero_cells.arm3.{reading}": ClaimSpec(
        "T-a-SCS puts more weight than T-a-S on (arm 3, subpop 1)", source=_F1,
        rule=Holds(_DIFF_UP), figure="Figure 1",
        section="figure-1-where-the-samples-go-in-example-1",
        claim="baics.e1.weights_near_zero_cells.arm3", causes=_CAUSE_SIMPLEX),
    "baics.e1.more_arm2.{reading}": ClaimSpec(
        "T-a-SCS puts more total weight on arm 2 than T-a-S", source=_F1, rule=Holds(_DIFF_UP),
        figure="Figure 1", section="figure-1-where-the-samples-go-in-example-1",
        claim="baics.e1.more_arm2", causes=_CAUSE_SIMPLEX),
    "baics.e2.less_arm1.{reading}": ClaimSpec(
        "T-a-SCS puts less weight than T-a-S on arm 1, subpopulations 2 and 3", source=_F2,
        rule=Holds(_DIFF_DOWN), figure="Figure 2", section="example-2-and-figure-2",
        claim="baics.e2.less_arm1", causes=_CAUSE_SIMPLEX),
    "baics.e2.more_arm3.{reading}": ClaimSpec(
        "T-a-SCS puts more weight than T-a-S on arm 3", source=_F2, rule=Holds(_DIFF_UP),
        figure="Figure 2", section="example-2-and-figure-2", claim="baics.e2.more_arm3",
        causes=_CAUSE_SIMPLEX),
    # -- Beyond the paper: the lower bound (Thm 3.1) and delta -> 0 (Thm 4.1) --------------------
    "baics.thm31.lb.{example}.{method}.{reading}": ClaimSpec(
        "{method} on {Example} respects E[tau] >= T* kl(delta, 1 - delta)",
        source="Wu, Zheng, Zhu, Thm 3.1, (5)", section=_BEYOND,
        rule=Holds("mean + 2 SE >= T* kl(delta, 1 - delta) (value: the mean; the bound and the SE "
                   "are in the details)"), role="check",
        note="at delta = 0.1 every method's mean is far above the bound: it cannot fail in "
             "practice"),
    "baics.thm31.lb.paper_value.{example}": ClaimSpec(
        "The paper's T-a-SCS mean on {Example} is compatible with T* kl(delta, 1 - delta)",
        source="Wu, Zheng, Zhu, Sec. 5 (Table 1, Sec. 5.2) and Thm 3.1",
        rule=Holds("paper mean + 2 SE >= T* kl(0.1, 0.9) (value), with the SE of our runs under "
                   "'forced-no-half'"), role="check",
        note="the paper's own numbers against its lower bound (a check of the bound's scale)"),
    "baics.thm41.asymptotic.{reading}": ClaimSpec(
        "dE[tau]/dln(1/delta) -> T* as delta -> 0 for T-a-SCS (Thm 4.1: E[tau]/ln(1/delta) -> T*)",
        source="Wu, Zheng, Zhu, Thm 4.1", rule=Tolerance(rel=0.1), section=_BEYOND,
        claim="baics.thm41.asymptotic", causes=_CAUSE_SIMPLEX),
    "baics.thm31.lb.sweep.{reading}": ClaimSpec(
        "T-a-SCS's E[tau] respects T* kl(delta, 1 - delta) at every delta of the sweep",
        source="Wu, Zheng, Zhu, Thm 3.1, (5)", section=_BEYOND,
        rule=Holds("value: min over delta of (mean + 2 SE - bound) / bound; holds when >= 0"),
        claim="baics.thm41.asymptotic", role="evidence",
        note="T-a-SCS against the lower bound at every delta of the sweep (a delta-PAC rule "
             "cannot go below it)"),
    "baics.e1.weights_vs_wstar.{reading}": ClaimSpec(
        "T-a-SCS's empirical weights approach w* as delta shrinks",
        source="Wu, Zheng, Zhu, Sec. 4.3 (proof of Thm 4.1)", section=_BEYOND,
        claim="baics.thm41.asymptotic", role="evidence",
        note="the proof's mechanism: the empirical weights approach w*",
        rule=Holds("value: mean L1 distance of N/tau from w* at the smallest delta; holds when it "
                   "is below the one at the largest delta (in the details) by more than 2 SE")),
    "baics.eq12.c_tracking": ClaimSpec(
        "C-tracking keeps |N_kl(t) - sum_s w_kl(s)| <= KL(1 + sqrt t)",
        source="Wu, Zheng, Zhu, (12) (Garivier and Kaufmann 2016, Lemma 7)",
        rule=Holds("largest ratio deviation / (KL(1 + sqrt t)) over all T-a-SCS runs and all t "
                   "is at most 1"), role="check",
        note="a property of C-tracking, true by construction (Garivier and Kaufmann's Lemma 7)"),
}

for _alg, _s in SHORT.items():   # Table 1: one claim per method and reading
    CLAIMS[f"baics.e1.{_s}_tau.{{reading}}"] = ClaimSpec(
        f"{_alg} mean stopping time on E1 ({{reading}})", source=_T1["source"], rule=_MC,
        paper_value=_T1["mean_stopping_time"][_alg], figure="Table 1", section=_TWO,
        claim=f"baics.e1.{_s}_tau", causes=_CAUSE_HALF + (
            "; and " + _CAUSE_SIMPLEX if _alg == "T-a-SCS" else ""))
    CLAIMS[f"baics.e1.{_s}_pcs.{{reading}}"] = ClaimSpec(
        f"{_alg} correct-selection rate on E1 ({{reading}})", source=_T1["source"], rule=_RATE,
        paper_value=_T1["pcs"][_alg], figure="Table 1", section=_TWO,
        claim=f"baics.e1.{_s}_pcs", causes=_CAUSE_PCS)
    CLAIMS[f"baics.e1.pcs_above_target.{_s}.{{reading}}"] = ClaimSpec(
        f"{_alg} is correct with probability >= 1 - delta on E1 ({{reading}})",
        source=_T1["source"], rule=ErrorRate(_T1["delta"]), figure="Table 1",
        claim=f"baics.e1.pcs_above_target.{_s}")
    if _alg != "T-a-SCS":
        _ratio = _T1["mean_stopping_time"][_alg] / _T1["mean_stopping_time"]["T-a-SCS"]
        CLAIMS[f"baics.e1.ratio_{_s}.{{reading}}"] = ClaimSpec(
            f"T-a-SCS is {_ratio:.2f}x faster than {_alg} on E1 ({{reading}})",
            source=_T1["source"], rule=_MC, paper_value=_ratio, figure="Table 1", section=_TWO,
            claim=f"baics.e1.ratio_{_s}", causes=_CAUSE_SIMPLEX)
