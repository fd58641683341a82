"""Values reported by Grover et al. (AISTATS 2018), "Best arm identification in multi-armed
bandits with delayed feedback", and the experiment settings of the authors' public code.

The paper's appendix (experiment constants, Algorithm 4) is missing and Figures 1-2 survive only
as captions: the numbers below are the ones printed in the text. Gains are fractions
(``0.25`` = 25 %); ratios are :math:`t_{partial}/t_{full}`.
"""

VALUES: dict = {
    # ---- settings stated in the paper -------------------------------------------------------
    "settings": {
        "source": "Grover et al. 2018, Sec. 5 and 5.1",
        "delta": 0.05,          # "All experiments use an error probability of delta = 0.05"
        "b": 10, "r": 10,       # "For the parallel MAB setting, we set b = r = 10"
        "runs": 100,            # "repeated for 100 random runs"
        "k_fraction": 0.2,      # "k is set to 0.2n"
        "delay_sweep_n": 100,   # Fig. 1c: "we fix n = 100 and vary the delay"
    },
    "battery_settings": {
        "source": "Grover et al. 2018, Sec. 5.2",
        "n_arms": 40, "k": 1,
    },
    # ---- Figure 1 (synthetic) ---------------------------------------------------------------
    "fig1a_max_gain": {
        "source": "Grover et al. 2018, Sec. 5.1, Figure 1a (bounded means): 'gains of up to 25% "
                  "and 40% for the sequential and parallel MAB when the number of arms is low'",
        "sequential": 0.25, "parallel": 0.40,
    },
    "fig1c_min_ratio": {
        "source": "Grover et al. 2018, Sec. 5.1, Figure 1c (n = 100, varying delay): 'the lowest "
                  "ratios observed to be 0.59 and 0.57 for sequential and parallel MAB'",
        "sequential": 0.59, "parallel": 0.57,
    },
    # ---- Figure 2 (battery charging) and the abstract -----------------------------------------
    "fig2_max_gain": {
        "source": "Grover et al. 2018, Sec. 5.2, Figure 2: 'improvements of up to 35% in the "
                  "number of experiments required' (low sigma^(p))",
        "value": 0.35,
    },
    "abstract_battery_mean_gain": {
        "source": "Grover et al. 2018, Abstract and Sec. 1: battery charging, average reduction "
                  "of the delayed sample complexity",
        "sequential": 0.156, "parallel": 0.207,
    },
    # ---- Sec. 5.3 (CPLEX cut strategies on CORLAT) -------------------------------------------
    "sec53_cplex_gain": {
        "source": "Grover et al. 2018, Abstract and Sec. 5.3: 'percentage reduction in time ... "
                  "80.8% and 87.6% for sequential and parallel MAB' (n = 32, k = 1)",
        "sequential": 0.808, "parallel": 0.876, "n_arms": 32, "k": 1,
    },
    # ---- the authors' public code (not in the paper) -----------------------------------------
    "code_settings": {
        "source": "ermongroup/best-arm-delayed, main.py (commit c9b214c5), --exp_type "
                  "bounded_means / free_means / delay",
        "n_grid": [10, 20, 50, 100],
        "delay_grid": [10, 20, 50, 100, 200, 500, 1000],
        # bounded means: mu_i = 5 - (i/n)^0.6, i = 0..n-1
        "bounded": {"c": 5.0, "exponent": 0.6, "sigma": 0.03, "sigma_p": 0.03, "delay": 50},
        # free means: mu_i = 2n - i, i = 0..n-1
        "free": {"sigma": 0.5, "sigma_p": 0.25, "delay": 100},
        "batch": 10,
    },
}
