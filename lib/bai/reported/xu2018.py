"""Values reported by Xu, Honda, Sugiyama (AISTATS 2018), LinGapE."""

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
