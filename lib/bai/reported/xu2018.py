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
}
