"""Values reported by Wu, Zheng, Zhu, "Best Arm Identification with Fairness Constraints on
Subpopulations" (BAICS).

Figures 1 and 2 (heat maps of the average sampling weights) are lost from the paper text; only
their textual descriptions remain and are recorded here as statements. Every experiment uses
delta = 0.1, Gaussian noise with sigma = 1, 5 initial draws per cell and 300 runs (Example 2:
"similar to Section 5.1").
"""

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
