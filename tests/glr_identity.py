"""Recorded trajectories of every library rule on every query (tests/test_engine_identity.py).

``tests/data/glr_identity_golden.json`` holds, for every case below (rule x query x instance x
stopping configuration x seed), the stopping time, recommendation and counts at the stop of
every (stopping rule, threshold, delta) cell, the final counts, the number of pulls and a hash
of the **whole sequence of arms** pulled after the initial ones (FNV-1a, through a compiled
``update`` that wraps the rule: :func:`wrapped`). The instances are draws of Tirinzoni &
Degenne's Table 1 construction (:func:`bai.instances.td22_table1`) at a small size (K = 12,
d = 8) with the engine's default start, and at the paper's (K = 50, d = 20) with the code's
start and the options of the chapter's rules (``_rule_options`` below mirrors
:func:`bai.studies.tirinzoni2022_elimination._rule_options`).

The recording was made with the code of commit 0915c2b (the main before the speed work of
issue 33, item 2): the engine and rules made faster since must reproduce it to the last arm.
Regenerate only when a change *means* to change trajectories (and say so in the commit)::

    PYTHONPATH=<lib of the commit> python tests/glr_identity.py

Stopping configurations (``CONFIGS``): ``llr+sel`` (the GLR and selective elimination read off
one trajectory), ``llr+sel+full`` (the same with full elimination), ``ess`` (selective
elimination at stopping and sampling), ``ess-full`` (full elimination at stopping and sampling).
The recorder is run by the old code as well as the new, so it uses only the API both have.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numba
import numpy as np

PATH = Path(__file__).parent / "data" / "glr_identity_golden.json"
#: the commit whose trajectories are recorded
RECORDED = "0915c2b"
#: the OpenBLAS kernel the cases were recorded under (tests/recorded_kernel.py): run the recorder
#: with OPENBLAS_CORETYPE=Haswell on a CPU whose own kernel is another
KERNEL = "Haswell"
DELTAS = (0.1, 1e-3)
THRESHOLD = "log_t_plus_1"
CONFIGS = {
    "llr+sel": dict(stopping=["llr", "selective"]),
    "llr+sel+full": dict(stopping=["llr", "selective", "full"]),
    "ess": dict(stopping=["selective"], sampling_elimination="selective"),
    "ess-full": dict(stopping=["full"], sampling_elimination="full"),
}
#: (K, d, cap, seeds, options): the small instances with the engine's defaults, the paper's
#: with the code's start and rule options
SIZES = {"small": (12, 8, 20_000, (0, 1, 2), "default"),
         "K50": (50, 20, 3_000, (0, 1), "code")}
QUERIES = ("bai", "topm", "osi")


def instance(query: str, size: str):
    """Draw 0 of the Table 1 construction for ``query`` at ``size`` and its query object."""
    from bai.instances import td22_table1
    from bai.queries import BestArm, Thresholding, TopM

    K, d = SIZES[size][:2]
    rng = np.random.default_rng(np.random.SeedSequence([33, {"bai": 0, "topm": 0, "osi": 1}[
        query], K]))
    env = td22_table1(rng, query=query, K=K, d=d)
    q = {"bai": BestArm(), "topm": TopM(5 if K >= 50 else 2), "osi": Thresholding(0.0)}[query]
    return env, q


_FNV = np.int64(1099511628211)


@numba.njit
def _hash_update(eng, rs, arm, reward):
    h = rs[1]
    h[0] = (h[0] ^ arm) * _FNV
    h[1] += 1


_WRAPPED: dict = {}


def wrapped(rule):
    """The compiled rule ``rule`` whose every pull also updates a hash of the arm sequence
    (``info["arm_hash"]``, ``info["hashed_pulls"]``)."""
    if rule.name in _WRAPPED:
        return _WRAPPED[rule.name]
    from bai.algorithms import engine as E

    inner = rule.choose_arm

    @numba.njit
    def choose(eng, rs, rng):
        return inner(eng, rs[0], rng)

    def init(env, state, **options):
        rs0 = rule.init(env, state, **options) if rule.init is not None else ()
        return rs0, np.array([-3750763034362895579, 0], dtype=np.int64)

    def info(rs):
        out = dict(rule.info(rs[0])) if rule.info is not None else {}
        out.update(arm_hash=int(rs[1][0]), hashed_pulls=int(rs[1][1]))
        return out

    kw = dict(init=init, update=_hash_update, paper=rule.paper, queries=rule.queries,
              uses_pieces=rule.uses_pieces, needs_width=rule.needs_width,
              needs_halfspaces=rule.needs_halfspaces, info=info, result_cls=rule.result_cls)
    out = _WRAPPED[rule.name] = E.CompiledRule(rule.name, choose, **kw)
    return out


def _rule_options(name: str, style: str) -> dict:
    """The options of a rule: none (``default``), or the chapter's (``code``)."""
    if style == "default":
        return {}
    from bai.algorithms.stopping import Threshold

    start = {"regularization": 1.0, "initial": "all"}
    if name == "LinGame":
        return {**start, "optimism": False, "shared_learner": True}
    if name in ("LinGapE rule", "LinGIFA"):
        return {**start, "width_threshold": Threshold(lingape_width, name="LinGapE (code)")}
    return start


def lingape_width(t, delta):
    """The width of the code's LinGapE, log(1/delta) + 2 log(t + 1) (as the chapter's)."""
    return math.log(1.0 / delta) + 2.0 * math.log(t + 1.0)


def rules() -> dict:
    """Every registered compiled rule: name -> CompiledRule."""
    from bai.algorithms import engine as E

    return {name: e.rule for name, e in E.RULES.items() if e.rule is not None}


def cases():
    """``(key, rule, query name, size, config)`` of every recorded case."""
    for size, (K, d, cap, seeds, style) in SIZES.items():
        for qn in QUERIES:
            _, q = instance(qn, size)
            for name, rule in rules().items():
                if rule.queries is not None and not isinstance(q, rule.queries):
                    continue
                for cfg in CONFIGS:
                    if "sampling_elimination" in CONFIGS[cfg] and not rule.uses_pieces:
                        continue
                    for seed in seeds:
                        yield f"{name}|{qn}|{size}|{cfg}|{seed}", name, qn, size, cfg, seed


def run_case(name: str, qn: str, size: str, cfg: str, seed: int) -> dict:
    """One recorded case (the module docstring)."""
    from bai.algorithms import engine as E

    env, q = instance(qn, size)
    cap, style = SIZES[size][2], SIZES[size][4]
    res = E.simulate(wrapped(rules()[name]), env, np.random.default_rng(seed), query=q,
                     deltas=list(DELTAS), threshold=THRESHOLD, max_samples=cap,
                     **CONFIGS[cfg], **_rule_options(name, style))
    return {"stopping_times": np.asarray(res.stopping_times).tolist(),
            "recommendations": np.asarray(res.recommendations).tolist(),
            "counts_at_stop": np.asarray(res.counts_at_stop).tolist(),
            "final_counts": np.asarray(res.info["final_counts"]).tolist(),
            "samples": int(res.samples), "arm_hash": int(res.info["arm_hash"]),
            "hashed_pulls": int(res.info["hashed_pulls"])}


def record() -> dict:
    out = {}
    for key, *args in cases():
        out[key] = run_case(*args)
        print(key, out[key]["samples"], file=sys.stderr, flush=True)
    return out


if __name__ == "__main__":
    import recorded_kernel

    if recorded_kernel.elsewhere(KERNEL):
        sys.exit(f"run under the recordings' kernel: OPENBLAS_CORETYPE={KERNEL} python {__file__}")
    PATH.parent.mkdir(exist_ok=True)
    out = record()
    PATH.write_text(json.dumps({"recorded": RECORDED, "cases": out},
                               separators=(",", ":")) + "\n")
    print(f"{len(out)} cases -> {PATH}")
