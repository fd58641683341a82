"""Values, readings and claims of Wang, Tzeng & Proutière, "Fast Pure Exploration via
Frank-Wolfe" (NeurIPS 2021; the submission's text, where the algorithm is called BC).

The stored text keeps Sec. 1-6 and the references; its Appendices (the LP of App. H, the
implementations of App. E, the unstructured and Lipschitz experiments of Apps. D and F) are lost.
``VALUES`` holds the settings of Sec. 5.2 and Table 1, every number as printed with its locator
(:class:`bai.claims.Printed`); values the text does not give are marked ASSUMED (spec
``wang2021_fws.md``). ``READINGS`` are the readings the chapter computes under, ``CLAIMS`` the
fixed text of every claim; the chapter (``bai.studies.wang2021_fws``) measures them.
"""

from __future__ import annotations

from ..claims import (Agrees, AtLeast, AtMost, ClaimSpec, Derived, ErrorRate, NotComparable,
                      Printed, Reading, Tolerance)
from ..claims import RESOLUTION  # the effects of signs (issue 33)

_SRC = "Wang, Tzeng & Proutière 2021"
_T1 = "Table 1"
#: the columns of Table 1, as printed (the algorithms, then the lower bound)
COLUMNS = ("BC", "LT", "LT-H", "CG-C", "Lk-C", "XY-A", "RR", "LB")
ALGORITHMS = COLUMNS[:-1]
DELTAS = (0.1, 0.01, 0.001, 0.0001)
_TABLE1 = {
    0.1: (1030, 7651, 3319, 2498, 2319, 7016, 5451, 359),
    0.01: (1614, 8290, 3907, 3501, 3431, 7779, 8814, 920),
    0.001: (2229, 8952, 4527, 4324, 4326, 9090, 12101, 1408),
    0.0001: (2839, 9575, 5120, 5118, 5120, 9723, 15314, 1881),
}


def _printed(col: str, delta: float) -> Printed:
    return Printed(_TABLE1[delta][COLUMNS.index(col)],
                   f"{_T1}, row delta = {delta:g}, column {col}")


#: The values the paper reports, with their sources (data: only compared against).
VALUES: dict = {
    "settings": {
        "source": f"{_SRC}, Sec. 5.2 (numerical experiments) and Table 1",
        "d": 6,                     # stated
        "phi": 0.1,                 # stated: angle of the (d+1)-th arm
        "mu_scale": 1.0,            # stated: mu = e_1 (the code: 2 e_1, spec W1)
        "n_runs": 1000,             # stated: averaged over 1000 runs
        "deltas": list(DELTAS),     # stated
        "threshold": "log((log t + 1)/delta)",   # stated, all but LT, LT-H, XY-A
        "sigma": 1.0,               # ASSUMED: Gaussian N(0, 1) noise (the code's Gaussian())
        "r_t": "t^(-0.9)/K",        # ASSUMED: from the code (the text: (1/t) sum r_s -> 0,
        #                             t r_t -> infinity)
        "code_mu_scale": 2.0,       # the code's mu = 2 e_1 (experiment_bai.jl)
        "alpha": 0.1,               # XY-A's phase factor (the code, after Soare et al.)
        "thresholding": {           # E2: the code's experiment_threshold.jl (no printed number)
            "d": 6, "phi": 0.01, "mu_scale": 1.0, "tau": 0.9, "n_runs": 1000,
            "source": "the code, linear/experiment_threshold.jl"},
        "unstructured": {           # E3: the code's standard/experiment_bai2.jl (App. D lost)
            "means": [1.0, 0.85, 0.8, 0.7], "sigma": 1.0, "n_runs": 1000,
            "source": "the code, standard/experiment_bai2.jl"},
    },
    "table1": {
        "source": f"{_SRC}, {_T1} (mean sample complexity over 1000 runs)",
        "columns": list(COLUMNS),
        "rows": {d: list(v) for d, v in _TABLE1.items()},
    },
}


def printed_value(col: str, delta: float) -> Printed:
    """The number of Table 1 in column ``col`` and row ``delta``, with its locator."""
    if col not in COLUMNS or delta not in _TABLE1:
        raise ValueError(f"col must be one of {COLUMNS} and delta one of {DELTAS}, got "
                         f"{col!r}, {delta!r}")
    return _printed(col, delta)


def delta_value(delta: float) -> Printed:
    """A confidence level of Table 1 (the target of an error-rate claim), with its locator."""
    if delta not in _TABLE1:
        raise ValueError(f"delta must be one of {DELTAS}, got {delta!r}")
    return Printed(delta, f"{_T1}, row delta = {delta:g} (Sec. 5.2)")


def gain_value(delta: float) -> Derived:
    """The printed gain of BC: the best other column over BC, at ``delta``."""
    names = {"LT": "LTs", "LT-H": "LTh", "CG-C": "CGC", "Lk-C": "LkC", "XY-A": "XYA",
             "RR": "RR", "BC": "BC"}
    inputs = {names[c]: _printed(c, delta) for c in ALGORITHMS}
    others = ", ".join(names[c] for c in ALGORITHMS[1:])
    return Derived(f"min({others}) / BC", inputs)


def gain_rounding(delta: float) -> float:
    """How far the printed gain can be from the gain of the unrounded means (each printed
    number is within half a unit of its mean): the slack of its Tolerance."""
    row = dict(zip(COLUMNS, _TABLE1[delta]))
    best = min(row[c] for c in ALGORITHMS[1:])
    return 0.5 / row["BC"] + 0.5 * best / row["BC"] ** 2


# ---------------------------------------------------------------------------------------------
# Readings
# ---------------------------------------------------------------------------------------------

_PRINTED = {"instance": "e1", "bc_metric": "exact", "estimate": "LSE", "lt_thresholds": "spec",
            "lb": "solver"}
_NOTE_2E1 = ("theta = 2 e1, as the reference code runs the experiment (experiment_bai.jl: "
             "'mu[1] = 2.0'), where the text says theta = e1 (spec W1): every gap doubles and "
             "T* is a quarter")
_NOTE_METRIC = ("BC's closest alternatives in the reference code's metric (a matrix started "
                "at the design matrix A(uniform), not its inverse, and updated with squared "
                "weights: spec W3) instead of A(x)^-1 as Algorithm 1 and Eq. 12 require")
_NOTE_EST = ("BC with the reference code's estimate and stopping statistic: the ridge estimate "
             "(I + V_t)^-1 S_t (W9) and its GLR value sum_k N_k (x_k'(theta - lambda_j))^2 / 2 "
             "with lambda_j from (I + V_t)^-1 (W4), instead of the least-squares estimate and "
             "the GLR of Eq. 7")
_NOTE_LT = ("LT stopped by Jedra & Proutière's Eq. 9 threshold 1.1 log(sqrt(det(I + A/(0.1 "
            "c1)))/delta) (the line the code comments out) and LT-H by their App. A.1 "
            "threshold 1.1(log(1/delta) + log(t)/2 + d log sqrt(11)) (the code's comment calls "
            "it the 'Heuristic' design), instead of the spec's ASSUMED pairing")
_NOTE_ORACLE = ("LB from the code's oracle routine (oracle_linear_bai: 10000 FW steps with the "
                "metric of W3 and a rescaling per arm, spec W2) instead of T*(theta) "
                "kl(delta, 1-delta)")


def _reading(name, note, **changes):
    return Reading(name, "alternative", note, {**_PRINTED, **changes})


#: The readings the chapter computes under. The printed one: the text (theta = e1, BC with the
#: exact A(x)^-1, LB = T* kl) and, where the text is silent, the spec's ASSUMED pairing LT =
#: Lazy TaS stopped by beta_LT of App. A.1, LT-H = Lazy TaS stopped by the heuristic threshold.
READINGS = {r.name: r for r in (
    Reading("printed", "printed", "", dict(_PRINTED)),
    _reading("code instance", _NOTE_2E1, instance="2e1"),
    _reading("code metric", _NOTE_METRIC, bc_metric="code"),
    _reading("code instance and metric", f"{_NOTE_2E1}; and {_NOTE_METRIC}", instance="2e1",
             bc_metric="code"),
    _reading("code instance and estimate", f"{_NOTE_2E1}; and {_NOTE_EST}", instance="2e1",
             estimate="code ridge"),
    _reading("the reference code", f"{_NOTE_2E1}; and {_NOTE_METRIC}; and {_NOTE_EST}; and "
             f"{_NOTE_LT}; and {_NOTE_ORACLE}", instance="2e1", bc_metric="code",
             estimate="code ridge", lt_thresholds="code comment", lb="code oracle"),
    _reading("LT thresholds of the code's comments", _NOTE_LT, lt_thresholds="code comment"),
    _reading("code instance, LT thresholds of the code's comments", f"{_NOTE_2E1}; and "
             f"{_NOTE_LT}", instance="2e1", lt_thresholds="code comment"),
    _reading("code oracle", _NOTE_ORACLE, lb="code oracle"),
    _reading("code instance and oracle", f"{_NOTE_2E1}; and {_NOTE_ORACLE}", instance="2e1",
             lb="code oracle"),
)}


def settings(instance="e1", bc_metric="exact", estimate="LSE", lt_thresholds="spec",
             lb="solver") -> dict:
    """The settings of a computation, to pass to ``ledger.check(..., settings=...)``."""
    out = {"instance": instance, "bc_metric": bc_metric, "estimate": estimate,
           "lt_thresholds": lt_thresholds, "lb": lb}
    if not any(r.matches(out) for r in READINGS.values()):
        raise ValueError(f"no reading of the paper has the settings {out}")
    return out


# ---------------------------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------------------------

_NUMBER = Tolerance(abs=0.5)        # half a unit of the printed integer, + 2 SE
_CAUSE_T1 = ("the printed numbers were produced with theta = 2 e1 (the code's instance, "
             "spec W1), not the e1 of the text")
_CAUSE_BC = (_CAUSE_T1 + "; BC's column also needs the code's metric (W3) instead of the exact "
             "A(x)^-1 of Algorithm 1, and the code's ridge estimate and GLR value (W4, W9) "
             "instead of the least-squares GLR of Eq. 7")
_CAUSE_LT = (_CAUSE_T1 + "; LT and LT-H are not defined in the text: the code runs one Lazy "
             "TaS, stopped by the heuristic threshold, and defines two other thresholds")
_CAUSE_XY = (_CAUSE_T1 + "; XY-A stops only at phase ends, so its means move in jumps of "
             "phases; its tie-breaks use an unseeded generator in the code (W6)")
_CAUSE_LB = ("the printed column is kl(delta, 1-delta) times the value of the code's oracle "
             "routine at theta = 2 e1 (W2), which is below T*(2 e1), itself a quarter of "
             "T*(e1)")
_CAUSES = {"BC": _CAUSE_BC, "LT": _CAUSE_LT, "LT-H": _CAUSE_LT, "CG-C": _CAUSE_T1,
           "Lk-C": _CAUSE_T1, "XY-A": _CAUSE_XY, "RR": _CAUSE_T1, "LB": _CAUSE_LB}

#: The claims of the chapter (:class:`bai.claims.ClaimSpec` by id, with their readings and causes).
CLAIMS: dict = {
    # -- Table 1: every number, under each reading --------------------------------------------
    **{f"wang.t1.{col}.d{{delta}}.{{rd}}": ClaimSpec(
        (f"Table 1: {col} needs on average the printed number of samples at delta = {{delta}} "
         "(theta = e1, d = 6, phi = 0.1, 1000 runs)") if col != "LB" else
        ("Table 1: the lower bound LB_lin(delta) = T*(mu) kl(delta, 1-delta) at delta = "
         "{delta} (theta = e1, d = 6, phi = 0.1)"),
        f"{_SRC}, Sec. 5.2, {_T1}", _NUMBER, figure=_T1,
        section="the-lower-bound-column" if col == "LB" else "table-1-at-the-paper-s-scale",
        claim=f"wang.t1.{col}.d{{delta}}", causes=_CAUSES[col]) for col in COLUMNS},
    # -- the text around Table 1 --------------------------------------------------------------
    "wang.t1.rank.d{delta}.{rd}": ClaimSpec(
        "BC has the smallest mean sample complexity of the algorithms of Table 1 at delta = "
        "{delta} (BC minus the best other column)", f"{_SRC}, abstract, Secs. 1 and 5.2, {_T1}",
        AtMost(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of the best other column
        figure=_T1, section="what-the-text-says-about-table-1", claim="wang.t1.rank"),
    **{f"wang.t1.spectacular.d{delta:g}.{{rd}}": ClaimSpec(
        "'In linear bandits, the gain achieved by our algorithm BC is rather spectacular': the "
        f"best other column over BC at delta = {delta:g}", f"{_SRC}, Sec. 5.2",
        Tolerance(abs=gain_rounding(delta)), figure=_T1,
        section="what-the-text-says-about-table-1", claim="wang.t1.spectacular",
        causes="the gain is a ratio of Table 1's columns: it moves with BC's column (W3, W4) "
               "and with the instance (W1), and with which Lazy TaS stands for LT-H")
       for delta in DELTAS},
    "wang.th2": ClaimSpec(
        "Theorem 2: a non-asymptotic bound on E[tau] for every delta", f"{_SRC}, Theorem 2",
        NotComparable("its constants D, E, L, c1, c2 and Psi (App. N) are not given for any "
                      "instance, and App. N is not in the stored text")),
    # -- Proposition 1 and the closed forms (the book's checks of its implementation) -------
    "wang.prop1.{case}": ClaimSpec(
        "Proposition 1 ({case}): f_j is differentiable with gradient sum_k d(mu_k, "
        "lambda_j(w)_k) e_k (Eq. 4; closed forms Eqs. 6 and 12): largest relative difference "
        "from central finite differences", f"{_SRC}, Proposition 1, Eqs. 4, 6, 12",
        Agrees(1e-5), section="proposition-1-checked"),
    "wang.eq12.{case}": ClaimSpec(
        "The closest alternative of Eq. 12 ({case}) attains the infimum over its piece: "
        "largest relative difference of the values from a numerical minimisation (SLSQP)",
        f"{_SRC}, Eq. 12", Agrees(1e-5), section="proposition-1-checked"),
    # -- the other experiments (code only: no number printed) --------------------------------
    "wang.abs.unstructured.d{delta}": ClaimSpec(
        "BC outperforms existing algorithms in unstructured (Gaussian) BAI, the code's E3: BC "
        "minus the best other rule at delta = {delta}", f"{_SRC}, abstract and Sec. 5.1 "
        # effect: a tenth of the best other rule
        "(App. D lost)", AtMost(0.0, effect=RESOLUTION, relative=True),
        figure="E3", section="the-other-experiments", claim="wang.abs.unstructured",
        substitute="the library's rules (Lazy TaS, LinGame, round robin) in place of the "
                   "code's T-D, D-C, M-C and O-C"),
    "wang.abs.thresholding.d{delta}": ClaimSpec(
        "BC outperforms existing algorithms in linear thresholding, the code's E2: BC minus the "
        "best of Lk-C and RR at delta = {delta}", f"{_SRC}, abstract and Sec. 5.1 (App. E "
        # effect: a tenth of the best other rule
        "lost)", AtMost(0.0, effect=RESOLUTION, relative=True),
        figure="E2", section="the-other-experiments", claim="wang.abs.thresholding",
        causes="CG-C, the code's third baseline, is not run: its answers are the sign patterns "
               "of all arms, and the code's version identifies coordinates, not arms (W11)"),
    "wang.abs.lipschitz": ClaimSpec(
        "BC outperforms existing algorithms in Lipschitz bandits (App. F)",
        f"{_SRC}, abstract and Sec. 5.1",
        NotComparable("the library has no Lipschitz structure: its engine answers queries whose "
                      "alternatives are unions of half-spaces of a linear model")),
    "wang.lip": ClaimSpec(
        "The first reported results for BAI in Lipschitz bandits", f"{_SRC}, Sec. 5.1",
        NotComparable("a statement about the literature, not about an experiment")),
    "wang.game.d{delta}": ClaimSpec(
        "The game-based algorithm of Degenne, Koolen & Ménard (2019) does not perform as well "
        "as BC: BC minus the game's mean at delta = {delta}", f"{_SRC}, Sec. 2",
        AtMost(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of the game's mean
        figure="E3", section="the-other-experiments", claim="wang.game",
        substitute="LinGame (Degenne et al. 2020) on the canonical arms stands for the "
                   "unstructured game of Degenne et al. 2019 (D-C), which the library lacks"),
    "wang.lma": ClaimSpec(
        "LMA (Ménard 2019) may not be as efficient as TaS or BC", f"{_SRC}, Sec. 2",
        NotComparable("the library has no Lazy Mirror Ascent, and 'may not be' states no "
                      "ordering")),
    "wang.other.d{delta}": ClaimSpec(
        "In BAI in other structured bandits BC still outperforms other algorithms but without "
        "such an impressive difference: BC's gain in E3 minus its gain in Table 1 at delta = "
        "{delta}", f"{_SRC}, Sec. 5.2",
        AtMost(0.0, effect=RESOLUTION, relative=True),  # effect: a tenth of BC's gain in Table 1
        figure="E3", claim="wang.other",
        section="the-other-experiments",
        substitute="the unstructured instance of the code's E3 with the library's rules in "
                   "place of T-D, D-C, M-C and O-C"),
}


def bound_claims(t_star: dict, kl, slope_bound: dict) -> dict:
    """The claims whose rule holds a bound the book evaluates at our instance (never a paper
    value): ``t_star[instance]`` is T*(theta) of ``"e1"`` and ``"2e1"`` (the library's
    solver), ``kl(delta)`` is kl(delta, 1 - delta), ``slope_bound[instance]`` the increase per
    unit of log(1/delta), between delta = 1e-3 and 1e-4, of the stopping time of an algorithm
    that samples w*(theta) and stops by the experiments' threshold (t = T* beta(t, delta)).

    Ids: ``wang.lb.{col}.d<delta>.<instance>``, ``wang.th1.slope.<instance>`` and
    ``wang.th1.error.d<delta>.{rd}``."""
    out = {}
    for inst in ("e1", "2e1"):
        T = t_star.get(inst)
        if isinstance(T, bool) or not isinstance(T, (int, float)) or not T > 0:
            raise ValueError(f"t_star must map 'e1' and '2e1' to positive numbers, got {t_star}")
        for delta in DELTAS:
            out[f"wang.lb.{{col}}.d{delta:g}.{inst}"] = ClaimSpec(
                "Every delta-PAC algorithm has E[tau] >= T*(mu) kl(delta, 1-delta) (Eq. 1, "
                f"App. B): {{col}} at delta = {delta:g}", f"{_SRC}, Sec. 1, Eq. 1",
                AtLeast(float(T) * kl(delta)), figure=_T1,
                section="the-lower-bound-column", claim="wang.lb",
                causes="the experiments' threshold is not proven delta-correct: a rule stopped "
                       "by it may beat the bound of delta-PAC algorithms")
        out[f"wang.th1.slope.{inst}"] = ClaimSpec(
            "BC is asymptotically optimal (lim sup E[tau]/log(1/delta) <= T*): the increase of "
            "its mean per unit of log(1/delta) between delta = 1e-3 and 1e-4 is at most that "
            "of an algorithm sampling w*(mu) and stopped by the same threshold",
            f"{_SRC}, Theorem 1", AtMost(float(slope_bound[inst])), figure=_T1,
            section="theorem-1-at-the-paper-s-deltas", claim="wang.th1.optimality",
            causes="at delta = 1e-4 the runs are not yet in the asymptotic regime")
    for delta in DELTAS:
        out[f"wang.th1.error.d{delta:g}.{{rd}}"] = ClaimSpec(
            f"BC is delta-PAC: its error rate is at most delta = {delta:g} (with the "
            "experiments' threshold log((log t + 1)/delta))", f"{_SRC}, Theorem 1",
            ErrorRate(delta), figure=_T1, section="theorem-1-at-the-paper-s-deltas",
            claim="wang.th1.pac")
    return out


# ---------------------------------------------------------------------------------------------
# The protocol (bai.studies: the chapter's summary states the runs made against it)
# ---------------------------------------------------------------------------------------------

from . import Assumed as _Assumed  # noqa: E402

_S = VALUES["settings"]
_DELTAS_T1 = [Printed(d, f"{_T1}, row delta = {d:g}") for d in DELTAS]

#: The protocol of Table 1 (Sec. 5.2) and of the code's two other experiments (E2, E3: the text
#: prints no number of them; their appendices are lost).
PROTOCOL: dict = {
    "table1": {
        "experiment": "Table 1 (every column, every delta)",
        "runs": Printed(_S["n_runs"], "Sec. 5.2, 'the sample complexity ... averaged over 1000 "
                                      "runs'"),
        "deltas": _DELTAS_T1},
    "thresholding": {
        "experiment": "E2, linear thresholding (the code's experiment)",
        "runs": _Assumed(_S["thresholding"]["n_runs"], _S["thresholding"]["source"]),
        "deltas": _Assumed(list(DELTAS), _S["thresholding"]["source"])},
    "unstructured": {
        "experiment": "E3, unstructured Gaussian BAI (the code's experiment)",
        "runs": _Assumed(_S["unstructured"]["n_runs"], _S["unstructured"]["source"]),
        "deltas": _Assumed(list(DELTAS), _S["unstructured"]["source"])},
}
