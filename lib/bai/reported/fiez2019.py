"""Values reported by Fiez, Jain, Jamieson, Ratliff (NeurIPS 2019), RAGE.

Figures 1a-1d and 2a-2b are lost from the paper text: no axis or curve value survives. What
survives are the common settings and qualitative statements of Sec. 5 and App. F, recorded
here with their sources.
"""

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
