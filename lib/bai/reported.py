"""Values reported in the papers, as data: the only place they live.

Chapters compare against these numbers (through :class:`bai.claims.ClaimsLedger`) and never print
them as their own. Each entry names its source (table or figure). Values lost from the paper
texts are not here; the reproduction specs list what is ASSUMED instead.
"""

from __future__ import annotations

__all__ = ["REPORTED"]

REPORTED: dict = {
    "xu2018": {
        # "an example of arm selection when d = 5", Soare et al.'s benchmark; arms e1..e5, x6
        "table1": {
            "source": "Xu, Honda, Sugiyama 2018, Table 1 (d = 5, one run)",
            "arms": ["e1", "e2", "e3", "e4", "e5", "x6"],
            "XY-static": [1298590, 2546604, 2546666, 2546666, 2546666, 1273742],
            "LinGapE": [2133, 428889, 19, 34, 33, 11],
            "XY-oracle": [13646, 2728606, 68, 68, 68, 1],
        },
    },
}
